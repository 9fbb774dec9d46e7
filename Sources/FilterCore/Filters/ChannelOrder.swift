/// Channel layout helpers shared by the kernels.
///
/// Every format keeps R, G and B in bytes 0…2 of the pixel and alpha (or padding) in
/// byte 3, so a little-endian pixel has alpha in bits 24…31 whatever the order, and
/// a kernel keeps it with `pixel & alphaMask`.

/// Where red and blue sit in a little-endian 32-bit pixel, as compile-time constants, so
/// a kernel generic over the order is compiled once per order with literal shifts.
protocol ChannelOrder {
    static var redShift: UInt32 { get }
    static var blueShift: UInt32 { get }
}

/// RGBA and RGBx: red in byte 0.
enum RedFirst: ChannelOrder {
    @inline(__always) static var redShift: UInt32 { 0 }
    @inline(__always) static var blueShift: UInt32 { 16 }
}

/// BGRA and BGRx: blue in byte 0.
enum BlueFirst: ChannelOrder {
    @inline(__always) static var redShift: UInt32 { 16 }
    @inline(__always) static var blueShift: UInt32 { 0 }
}

/// The alpha (or padding) byte of a little-endian pixel in every supported format.
let alphaMask: UInt32 = 0xFF00_0000

/// Bytes 0 and 2 of a pixel, each in its own 16-bit lane: sums of up to 257 such
/// values stay inside their lane, so two channels are added with one instruction.
/// Bytes 0 and 2 are blue and red or red and blue; neighbourhood filters that treat
/// both alike need not know which.
let outerLanesMask: UInt32 = 0x00FF_00FF

extension ChannelOrder {
    @inline(__always) static func red(_ p: UInt32) -> Int32 { Int32(bitPattern: (p &>> redShift) & 0xFF) }
    @inline(__always) static func green(_ p: UInt32) -> Int32 { Int32(bitPattern: (p &>> 8) & 0xFF) }
    @inline(__always) static func blue(_ p: UInt32) -> Int32 { Int32(bitPattern: (p &>> blueShift) & 0xFF) }

    /// Packs three channels already within 0…255 with the alpha byte of `keep`.
    @inline(__always) static func pack(_ r: Int32, _ g: Int32, _ b: Int32, keeping keep: UInt32) -> UInt32 {
        (keep & alphaMask) | UInt32(bitPattern: r) &<< redShift | UInt32(bitPattern: g) &<< 8
            | UInt32(bitPattern: b) &<< blueShift
    }
}

/// `x` rounded to the nearest integer (ties to even), for 0 ≤ x < 2²²: adding 1.5·2²³
/// leaves the integer in the low mantissa bits. Unlike `Int32(x)`, which must trap on
/// overflow, this vectorizes.
@inline(__always) func roundedToInteger(_ x: Float) -> UInt32 {
    (x + 12_582_912).bitPattern &- 0x4B40_0000
}

/// Clamps to a channel's range. Written with masks: as `min(max(v, 0), 255)` LLVM turned
/// the matrix kernel's three clamps and the packing into a tangle of compares and blends
/// (5× slower).
@inline(__always) func clampChannel(_ v: Int32) -> Int32 {
    let nonNegative = v & ~(v &>> 31)
    return (nonNegative | ((255 &- nonNegative) &>> 31)) & 255
}
