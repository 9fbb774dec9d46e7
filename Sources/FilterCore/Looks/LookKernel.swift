/// The integer form of a look that frames run, built once per look: a `CubeKernel` for a
/// 3D lattice, a `CurvesKernel` for 1D curves. It owns the memory both point into.
final class LookKernel: @unchecked Sendable {
    enum Form {
        case cube(CubeKernel)
        case curves(CurvesKernel)
    }

    let form: Form
    private let memory: UnsafeMutableRawPointer

    init(shape: ColorLookup.Shape, values: [Float], domainMin: [Double], domainMax: [Double]) {
        switch shape {
        case .cube(let n):
            // Three axis tables of 256 `Int32`, then the lattice (8-byte aligned after them).
            let axisBytes = 3 * 256 * 4, latticeCount = n * n * n
            memory = .allocate(byteCount: axisBytes + 8 * latticeCount, alignment: 8)
            let axes = memory.bindMemory(to: Int32.self, capacity: 3 * 256)
            let lattice = (memory + axisBytes).bindMemory(to: UInt64.self, capacity: latticeCount)
            for channel in 0..<3 {
                let stride = [1, n, n * n][channel]
                for v in 0..<256 {
                    let (cell, weight) = CubeKernel.cellAndWeight(v, size: n, min: domainMin[channel], max: domainMax[channel])
                    axes[channel * 256 + v] = Int32(cell * stride) << 8 | Int32(weight)
                }
            }
            values.withUnsafeBufferPointer { v in
                for i in 0..<latticeCount { lattice[i] = CubeKernel.vertex(v[3 * i], v[3 * i + 1], v[3 * i + 2]) }
            }
            form = .cube(CubeKernel(axes: axes, lattice: lattice, size: n))
        case .curves(let n):
            memory = .allocate(byteCount: 3 * 256, alignment: 8)
            let tables = memory.bindMemory(to: UInt8.self, capacity: 3 * 256)
            for channel in 0..<3 {
                for v in 0..<256 {
                    tables[channel * 256 + v] = CurvesKernel.level(v, channel: channel, size: n, values: values,
                                                                   min: domainMin[channel], max: domainMax[channel])
                }
            }
            form = .curves(CurvesKernel(tables: tables))
        }
    }

    deinit { memory.deallocate() }

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
