/// The integer form of a look that frames run, built once per look: a `CubeKernel` for a
/// 3D lattice, a `CurvesKernel` for 1D curves. It owns the memory both point into.
final class LookKernel: Sendable {
    enum Form {
        case cube(CubeKernel)
        case curves(CurvesKernel)
    }

    /// Where the tables lie in `memory`: three axis tables of 256 `Int32`, then the
    /// lattice; or three curves of 256 bytes.
    private enum Layout {
        case cube(size: Int, scale: LatticeScale)
        case curves
        static let axisBytes = 3 * 256 * 4
    }
    private let layout: Layout
    private let memory: PixelMemory

    /// The kernel over this look's memory (made for each use: it points into it).
    var form: Form {
        switch layout {
        case .cube(let n, let scale):
            .cube(CubeKernel(axes: memory.base.assumingMemoryBound(to: Int32.self),
                             lattice: (memory.base + Layout.axisBytes).assumingMemoryBound(to: UInt64.self), size: n, scale: scale))
        case .curves:
            .curves(CurvesKernel(tables: memory.base.assumingMemoryBound(to: UInt8.self)))
        }
    }

    init(shape: ColorLookup.Shape, values: [Float], domainMin: [Double], domainMax: [Double]) {
        switch shape {
        case .cube(let n):
            // Three axis tables of 256 `Int32`, then the lattice (8-byte aligned after them).
            let axisBytes = Layout.axisBytes, latticeCount = n * n * n
            let memory = PixelMemory(byteCount: axisBytes + 8 * latticeCount, alignment: 8, zeroed: false)
            let axes = memory.base.bindMemory(to: Int32.self, capacity: 3 * 256)
            let lattice = (memory.base + axisBytes).bindMemory(to: UInt64.self, capacity: latticeCount)
            for channel in 0..<3 {
                let stride = [1, n, n * n][channel]
                for v in 0..<256 {
                    let (cell, weight) = CubeKernel.cellAndWeight(v, size: n, min: domainMin[channel], max: domainMax[channel])
                    axes[channel * 256 + v] = Int32(cell * stride) << 8 | Int32(weight)
                }
            }
            let scale = LatticeScale(values: values)
            values.withUnsafeBufferPointer { v in
                for i in 0..<latticeCount { lattice[i] = scale.vertex(v[3 * i], v[3 * i + 1], v[3 * i + 2]) }
            }
            self.memory = memory
            layout = .cube(size: n, scale: scale)
        case .curves(let n):
            let memory = PixelMemory(byteCount: 3 * 256, alignment: 8, zeroed: false)
            let tables = memory.base.bindMemory(to: UInt8.self, capacity: 3 * 256)
            for channel in 0..<3 {
                for v in 0..<256 {
                    tables[channel * 256 + v] = CurvesKernel.level(v, channel: channel, size: n, values: values,
                                                                   min: domainMin[channel], max: domainMax[channel])
                }
            }
            self.memory = memory
            layout = .curves
        }
    }

    /// One colour through the look: red, green, blue (0…255) to `r | g << 8 | b << 16`.
    func look(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt32 {
        switch form {
        case .cube(let k): k.look(r, g, b)
        case .curves(let k): k.look(r, g, b)
        }
    }
}

/// What the filters need of a look: one 8-bit R′G′B′ colour to another, packed
/// `r | g << 8 | b << 16`. Kernels are generic over it, so each form is compiled in.
protocol RGBLook {
    func look(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt32
}

/// 1D curves: one 256-entry table per channel, each entry the curve at that input,
/// interpolated linearly between the file's entries and rounded to the nearest level.
struct CurvesKernel: RGBLook {
    let tables: UnsafePointer<UInt8>

    @inline(__always)
    func look(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt32 {
        UInt32(tables[Int(r)]) | UInt32(tables[256 &+ Int(g)]) << 8 | UInt32(tables[512 &+ Int(b)]) << 16
    }

    /// The output level of input `v` on `channel`'s curve of `size` entries.
    static func level(_ v: Int, channel: Int, size: Int, values: [Float], min: Double, max: Double) -> UInt8 {
        let t = Swift.min(Swift.max((Double(v) / 255 - min) / (max - min), 0), 1) * Double(size - 1)
        let cell = Swift.min(Int(t), size - 2)
        let low = Double(values[3 * cell + channel]), high = Double(values[3 * (cell + 1) + channel])
        let out = low + (high - low) * (t - Double(cell))
        return UInt8((Swift.min(Swift.max(out, 0), 1) * 255).rounded())
    }
}
