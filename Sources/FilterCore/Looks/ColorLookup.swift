import Synchronization

/// A colour look read from a file: a 3D lattice (`.cube` with `LUT_3D_SIZE`, a Hald CLUT)
/// or one curve per channel (`.cube` with `LUT_1D_SIZE`).
///
/// Inputs (0…1) are scaled from the domain (`DOMAIN_MIN`…`DOMAIN_MAX`, 0…1 unless the file
/// says otherwise) onto the table and clamped to it; outputs are clamped to 0…1. Made once
/// per file (`LookLibrary`), shared by every filter that uses it; the integer form the
/// frames use (`LookKernel`) is built here, once.
public final class ColorLookup: Sendable {
    public enum Shape: Sendable, Equatable {
        /// `size`³ entries: red fastest, then green, then blue (the `.cube` order).
        case cube(size: Int)
        /// `size` entries per channel.
        case curves(size: Int)
    }

    public let shape: Shape
    /// R, G, B of each entry, in file order.
    public let values: [Float]
    public let domainMin: [Double]
    public let domainMax: [Double]
    /// The file's `TITLE`, if it has one.
    public let title: String?
    /// The file as it was named (for messages).
    public let file: String
    /// Keys this look's tables (`LookTables`): unlike an object's address, never reused.
    let id: Int
    let kernel: LookKernel

    private static let nextID = Atomic<Int>(0)

    public init(shape: Shape, values: [Float], domainMin: [Double] = [0, 0, 0], domainMax: [Double] = [1, 1, 1],
                title: String? = nil, file: String) {
        let count: Int
        switch shape {
        case .cube(let n): count = n * n * n
        case .curves(let n): count = n
        }
        precondition(values.count == 3 * count, "a look of \(shape) needs \(3 * count) values")
        precondition(domainMin.count == 3 && domainMax.count == 3 && zip(domainMin, domainMax).allSatisfy { $0 < $1 },
                     "a domain needs min < max for each channel")
        self.shape = shape
        self.values = values
        self.domainMin = domainMin
        self.domainMax = domainMax
        self.title = title
        self.file = file
        id = Self.nextID.add(1, ordering: .relaxed).newValue
        kernel = LookKernel(shape: shape, values: values, domainMin: domainMin, domainMax: domainMax)
    }

    deinit {
        LookTables.shared.forget(look: id)
    }

    /// The identity look of `shape` (every output equals its input), for tests and as a
    /// starting point.
    public static func identity(_ shape: Shape, file: String = "identity") -> ColorLookup {
        let values: [Float]
        switch shape {
        case .cube(let n):
            let steps = (0..<n).map { Float($0) / Float(n - 1) }
            values = [Float](unsafeUninitializedCapacity: 3 * n * n * n) { v, count in
                var i = 0
                for b in steps { for g in steps { for r in steps {
                    v[i] = r; v[i + 1] = g; v[i + 2] = b
                    i += 3
                } } }
                count = i
            }
        case .curves(let n):
            values = (0..<(3 * n)).map { Float($0 / 3) / Float(n - 1) }
        }
        return ColorLookup(shape: shape, values: values, file: file)
    }

    /// The look of one 8-bit colour, as the filter computes it: red, green, blue.
    public func look(r: UInt8, g: UInt8, b: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
        let o = kernel.look(Int32(r), Int32(g), Int32(b))
        return (UInt8(o & 0xFF), UInt8((o >> 8) & 0xFF), UInt8(o >> 16))
    }

    /// "3D LUT 33³" or "1D LUT 1024": what the look is, for listings.
    public var shapeDescription: String {
        switch shape {
        case .cube(let n): "3D LUT \(n)³"
        case .curves(let n): "1D LUT \(n)"
        }
    }
}
