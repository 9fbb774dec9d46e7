/// A Hald CLUT: a look stored as a picture, as FFmpeg's `haldclut` and ImageMagick's
/// `-hald-clut` read it. A level-L image is L³ × L³ pixels holding an L²-per-side lattice:
/// pixel i (in reading order) is the entry with red `i mod L²`, green `(i / L²) mod L²`,
/// blue `i / L⁴` (red fastest, as a `.cube` file). Levels 2…8 (lattices 4…64 per side).
enum HaldImage {
    static let levels = 2...8

    /// The look held by an RGBA picture (8 bits per channel, rows packed).
    static func lookup(width: Int, height: Int, rgba: [UInt8], file: String) throws(LookError) -> ColorLookup {
        let sides = levels.map { $0 * $0 * $0 }
        guard width == height, let level = levels.first(where: { $0 * $0 * $0 == width }) else {
            throw LookError(file: file, "a \(width)×\(height) picture is not a Hald CLUT; those are square, level³ pixels a side: \(sides.map { "\($0)×\($0)" }.joined(separator: ", "))")
        }
        precondition(rgba.count == width * height * 4, "\(width)x\(height) RGBA needs \(width * height * 4) bytes")
        var values: [Float] = []
        values.reserveCapacity(width * height * 3)
        for i in 0..<(width * height) {
            guard rgba[4 * i + 3] == 255 else {
                throw LookError(file: file, "pixel (\(i % width), \(i / width)) is transparent (alpha \(rgba[4 * i + 3])); a Hald CLUT is opaque")
            }
            values += [Float(rgba[4 * i]) / 255, Float(rgba[4 * i + 1]) / 255, Float(rgba[4 * i + 2]) / 255]
        }
        return ColorLookup(shape: .cube(size: level * level), values: values, file: file)
    }
}
