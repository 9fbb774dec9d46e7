/// Where a filter reads and writes: a frame in place, or a source frame into a destination
/// of the same size and format in other memory (the host's one-pass copy, see
/// `FrameFilter.apply(from:to:)`). Filters are written once, for a pass.
struct FramePass {
    let source: FrameView
    let destination: FrameView

    init(from source: FrameView, to destination: FrameView) {
        precondition(source.width == destination.width && source.height == destination.height,
                     "filtering between frames of different sizes")
        precondition(source.format == destination.format, "filtering between different pixel formats")
        self.source = source
        self.destination = destination
    }

    var inPlace: Bool { source.base == destination.base }
    var width: Int { source.width }
    var height: Int { source.height }
    var format: PixelFormat { source.format }

    /// For settings that change nothing: the destination must still get the picture.
    func leaveUnchanged() {
        if !inPlace { destination.copyPixels(from: source) }
    }
}

/// A catalog filter: one `run(_:)` serves both ways the host applies filters.
protocol PassFilter: FrameFilter {
    func run(_ pass: FramePass)
}

extension PassFilter {
    func apply(to frame: FrameView) {
        run(FramePass(from: frame, to: frame))
    }

    func apply(from source: FrameView, to destination: FrameView) {
        run(FramePass(from: source, to: destination))
    }
}

extension FrameView {
    /// Runs `body` over two bands of rows (top and bottom half), on both cores when the
    /// frame is large enough (`RowSplitter.splitIntoBands`).
    func splitIntoBands(_ body: (_ band: Int, _ rows: Range<Int>) -> Void) {
        RowSplitter.shared.splitIntoBands(width: width, height: height, body)
    }
}

extension RowSplitter {
    /// Runs `body` over two bands of rows (top and bottom half) of a `width`×`height`
    /// picture, on both cores when it is large enough. Unlike `run`, `body` learns which
    /// band it has, so each band can keep its own scratch space (e.g. running column sums).
    func splitIntoBands(width: Int, height: Int, _ body: (_ band: Int, _ rows: Range<Int>) -> Void) {
        guard height >= 2 else { return body(0, 0..<height) }
        let middle = height / 2
        let bands = [0..<middle, middle..<height]
        // Two "rows" of half a frame each: the splitter gives each thread one of them,
        // or both to the caller when the frame is small or the helper is busy.
        run(rows: 2, columns: (width * height + 1) / 2) { range in
            for band in range where !bands[band].isEmpty {
                body(band, bands[band])
            }
        }
    }
}
