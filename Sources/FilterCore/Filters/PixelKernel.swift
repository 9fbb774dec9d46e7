/// The shared machinery of the per-pixel filters: a kernel maps one 32-bit pixel to its
/// new value, and `run` walks the frame (in place, or from a source into a destination),
/// rows split across both cores.
///
/// Why it looks like this (see SWIFT-PIXEL-LOOPS.md): one `UInt32` load and store per
/// pixel, a single pointer for in-place work, `for x in 0..<w`, wrapping 32-bit
/// arithmetic, and kernels that are structs specialized at compile time (generics inside
/// this module are specialized; a closure or an existential per pixel is 10× slower).

/// A per-pixel transform. `map` must return the alpha byte unchanged.
protocol PixelKernel {
    func map(_ pixel: UInt32) -> UInt32
}

extension PixelKernel {
    /// Applies the kernel to every pixel of the pass.
    func run(_ pass: FramePass) {
        if pass.inPlace {
            run(on: pass.destination)
        } else {
            run(from: pass.source, to: pass.destination)
        }
    }

    /// From one frame into another: one read and one write per pixel, no copy first.
    /// (Only for distinct memory: called with the same rows, the vectorizer's overlap
    /// check fails and the scalar loop runs, 10× slower; in place has its own loop.)
    func run(from source: FrameView, to destination: FrameView) {
        let width = source.width
        RowSplitter.shared.run(rows: source.height, columns: width) { rows in
            for y in rows {
                let input = source.row(y)
                let output = destination.row(y)
                for x in 0..<width {
                    output[x] = map(input[x])
                }
            }
        }
    }

    /// Applies the kernel to every pixel of `frame`, in place.
    func run(on frame: FrameView) {
        let width = frame.width
        RowSplitter.shared.run(rows: frame.height, columns: width) { rows in
            for y in rows {
                let row = frame.row(y)
                for x in 0..<width {
                    row[x] = map(row[x])
                }
            }
        }
    }
}
