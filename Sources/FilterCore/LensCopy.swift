/// Copying the part of a frame outside a rectangle, so that filtering only the lens from
/// shared memory still touches every pixel once.
public enum LensCopy {
    public static func copyOutside(_ rect: PixelRect, from source: FrameView, to destination: FrameView) {
        let rowBytes = source.width * 4
        for y in 0..<source.height {
            let s = source.base + y * source.stride, d = destination.base + y * destination.stride
            if y < rect.y || y >= rect.y + rect.height {
                d.copyMemory(from: s, byteCount: rowBytes)
            } else {
                d.copyMemory(from: s, byteCount: rect.x * 4)
                let right = (rect.x + rect.width) * 4
                (d + right).copyMemory(from: s + right, byteCount: rowBytes - right)
            }
        }
    }
}
