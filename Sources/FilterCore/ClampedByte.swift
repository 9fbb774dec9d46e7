/// `x` clamped to 0…255, as a byte. In pixel loops use this, not `UInt8(clamping:)`: that
/// one's generic code branches (early exits), and a loop with them does not vectorize
/// (colour controls on I420 at 720p: 2.0 ms a frame on one thread through it).
@inline(__always)
func clampedByte(_ x: Int32) -> UInt8 {
    UInt8(truncatingIfNeeded: min(max(x, 0), 255))
}
