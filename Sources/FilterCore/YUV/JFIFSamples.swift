/// JPEG files (JFIF) hold full-range BT.601 samples, which is what every image viewer
/// decodes them as; video frames are mostly video range (Y 16…235, chroma 16…240), often
/// BT.709. `jpegenc` writes a YUV frame's samples as they are, so a still of a camera's
/// YUY2 showed white as 235 and black as 16 in every viewer; a still is carried into
/// JFIF's samples first.
extension YUVMatrix {
    /// The samples of a JPEG file: BT.601 weights, full range.
    public static let jfif = YUVMatrix(kr: 0.299, kb: 0.114, fullRange: true)
}

extension YUVFrame {
    /// The samples re-expressed in `target`'s matrix and range, in place (the same colours).
    /// Per chroma site, as the colour matrices on YUV: each luma sample from itself and the
    /// site's chroma, the chroma from the site's mean luma and its chroma. Within ±1 of the
    /// exact conversion where chroma is flat over each site (`JFIFSamplesTests`).
    public func convertSamples(to target: YUVMatrix) {
        if matrix == target { return }
        YUVAffine(from: matrix, to: target).apply(to: self)
    }
}
