/// `lut`: a colour look from a file, as editors and LUT packs export them:
///
///     lut file=looks/teal-orange.cube intensity=0.8
///
/// The file is a `.cube` (Adobe/Resolve: 3D with `LUT_3D_SIZE` 2…65, or 1D; `DOMAIN_MIN`,
/// `DOMAIN_MAX`, `TITLE`, comments; see `CubeFile`) or a Hald CLUT picture (PNG, as FFmpeg's
/// `haldclut`). A 3D look is interpolated tetrahedrally, as FFmpeg's
/// `lut3d interp=tetrahedral` (`CubeKernel`); 1D curves linearly per channel.
///
/// `intensity` mixes the look's 8-bit result `t` with the original `c`, per channel:
/// `(c (1024 − K) + t K + 512) >> 10` with K = round(1024 · intensity), i.e. c + k (t − c)
/// rounded half up. The file is read and checked where the chain or property is set (an
/// unreadable or bad file is refused there, naming the line); frames use what was read.
///
/// Per pixel, the tetrahedral interpolation; once a look has filtered 2²⁴ pixels, a table of
/// its result for every 8-bit colour, built on another thread (`LookTables`), with the same
/// results: one load per pixel.
final class LookFilter: PassFilter {
    static let descriptor = descriptor(
        id: "lut", title: "Look (3D LUT)",
        summary: "A colour look from a .cube file or a Hald CLUT picture, as FFmpeg's lut3d (tetrahedral)",
        file: nil)

    /// A catalog entry for looks: `lut` takes the file as a parameter; a look from a folder
    /// (`look:NAME`, `LookFolder`) has its file fixed.
    static func descriptor(id: String, title: String, summary: String, file: String?) -> FilterDescriptor {
        var parameters = [FilterParameter("intensity", .double(range: 0...1, defaultValue: 1),
                                          "0 = original picture, 1 = the full look")]
        if file == nil {
            parameters.insert(FilterParameter("file", .text(what: "a .cube file or a Hald CLUT .png", defaultValue: ""),
                                              "the look (empty: the picture unchanged)"), at: 0)
        }
        var descriptor = FilterDescriptor(
            id: id, title: title, summary: summary, parameters: parameters, strengthParameter: "intensity",
            pickable: file != nil,   // without a file the picture stays as it is
            check: { values throws(FilterError) in
                let path = file ?? values.text("file")
                guard !path.isEmpty else { return }
                do throws(LookError) { _ = try LookLibrary.load(path) } catch { throw error.filterError }
            },
            make: { values in
                let path = file ?? values.text("file")
                let look = path.isEmpty ? nil : LookLibrary.loaded(path) ?? (try? LookLibrary.load(path))
                return LookFilter(look: look, intensity: values.double("intensity"))
            })
        descriptor.lookFile = file.map(LookFolder.absolutePath)
        return descriptor
    }

    let look: ColorLookup?
    let intensity: Double
    let mix: LookMix

    init(look: ColorLookup?, intensity: Double) {
        self.look = look
        self.intensity = intensity
        mix = LookMix(intensity)
    }

    func run(_ pass: FramePass) {
        guard let look, mix.take > 0 else { return pass.leaveUnchanged() }
        let redFirst = pass.format.isRGBOrder
        switch look.kernel.form {
        case .cube(let cube):
            if let table = LookTables.shared.table(for: look, space: .rgb(redFirst: redFirst), pixels: pass.width * pass.height) {
                withExtendedLifetime(table) { mix.run(TableLookKernel(entries: table.entries), pass) }
            } else {
                runDirect(cube, redFirst: redFirst, pass)
            }
        case .curves(let curves):
            runDirect(curves, redFirst: redFirst, pass)   // three small tables: as fast as a big one
        }
    }

    private func runDirect<Look: RGBLook>(_ look: Look, redFirst: Bool, _ pass: FramePass) {
        if redFirst {
            mix.run(DirectLookKernel<RedFirst, Look>(look: look), pass)
        } else {
            mix.run(DirectLookKernel<BlueFirst, Look>(look: look), pass)
        }
    }
}
