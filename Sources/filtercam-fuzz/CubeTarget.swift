import FilterCore

/// `.cube` files: each input is read as one, and either refused with a message naming the
/// file and the line, or read into a look whose table holds what its size says, every
/// value finite and within the domain, and which maps colours all over the cube (under
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
            let low = look.domainMin[i % 3], high = look.domainMax[i % 3]
            FuzzCheck.require(v.isFinite && Double(v) >= low - (high - low) * 1e-3 && Double(v) <= high + (high - low) * 1e-3,
                              "value \(v) of channel \(i % 3) lies outside the domain \(low)…\(high)")
        }
        let levels: [UInt8] = Array(stride(from: 0, through: 255, by: 15)) + [1, 128, 254]
        for r in levels { for g in levels { for b in levels { _ = look.look(r: r, g: g, b: b) } } }
    }
}
