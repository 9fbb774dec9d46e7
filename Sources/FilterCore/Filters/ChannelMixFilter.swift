/// `channel-mix`: each output channel a weighted sum of the input channels plus an offset.
///
///     channel-mix matrix=<0,0.7,0.3,0, 0,1,0,0, 0,0,1,0>
///
/// `matrix` is 3 rows of 4, `<rr,rg,rb,ro, gr,gg,gb,go, br,bg,bb,bo>`:
///
///     r' = rr·r + rg·g + rb·b + ro·255      (and so on for g', b'), clamped to 0…255
///
/// The first three columns mean what ffmpeg's `colorchannelmixer` rr…bb mean; its fourth
/// (`ra`, the alpha contribution) is here an offset in units of full scale instead, and
/// alpha is never touched. The example above is ffmpeg's anaglyph-style merge: red from
/// 0.7 green + 0.3 blue. Fixed point as `ColorMatrix` (within ±1 of the formula rounded).
final class ChannelMixFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "channel-mix", title: "Channel Mixer",
        summary: "Each channel a weighted sum of red, green and blue plus an offset",
        parameters: [
            FilterParameter("matrix", .doubleList(count: 12, range: -4...4,
                                                  defaultValue: ColorMatrix.identity.m),
                            "<rr,rg,rb,ro, gr,gg,gb,go, br,bg,bb,bo>; ro… are offsets × 255"),
        ],
        make: { ChannelMixFilter(matrix: $0.doubleList("matrix")) })

    let matrix: ColorMatrix

    init(matrix: [Double]) { self.matrix = ColorMatrix(matrix) }

    func run(_ pass: FramePass) { matrix.run(pass) }
}
