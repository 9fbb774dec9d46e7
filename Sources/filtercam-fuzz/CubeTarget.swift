import FilterCore

/// `.cube` files: each input is read as one, and either refused with a message naming the
/// file and the line, or read into a look whose table holds what its size says, every
/// value finite and near the outputs' range, and which maps colours all over the cube (under
/// AddressSanitizer: no read outside the lattice, whatever the domain).
enum CubeTarget {
    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = [UInt8](input)
        let look: ColorLookup
        do {
            look = try LookLibrary.parse(cube: bytes, file: "fuzz.cube")
        } catch {
            let text = error.description
            FuzzCheck.requireMessage(text, refusing: String(decoding: bytes, as: UTF8.self))
            FuzzCheck.require(text.hasPrefix("look file 'fuzz.cube' line "), "the refusal names the file and the line: \(text.debugDescription)")
            return
        }
        let entries: Int
        switch look.shape {
        case .cube(let n): entries = n * n * n
        case .curves(let n): entries = n
        }
        FuzzCheck.require(look.values.count == 3 * entries, "\(look.shape) holds \(look.values.count) values")
        for (i, v) in look.values.enumerated() {
            let low = min(0, look.domainMin[i % 3]), high = max(1, look.domainMax[i % 3])
            let slack = (high - low) * 0.101   // CubeFile.outputSlack, and a float's rounding
            FuzzCheck.require(v.isFinite && Double(v) >= low - slack && Double(v) <= high + slack,
                              "value \(v) of channel \(i % 3) lies far outside the outputs' range \(low)…\(high)")
        }
        let levels: [UInt8] = Array(stride(from: 0, through: 255, by: 15)) + [1, 128, 254]
        for r in levels { for g in levels { for b in levels { _ = look.look(r: r, g: g, b: b) } } }
    }
}
