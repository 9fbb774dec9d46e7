/// The red face squares drawn over the output picture.
///
/// Boxes are found in the output picture, which is already turned with the device
/// orientation, so drawing them axis-aligned there is the square turned with the device
/// (an axis-aligned square stays one under any of the eight orientation methods).
public enum FaceOverlay {
    /// 0xFFFF0000 as ARGB: opaque red.
    public static let color = RGBA(r: 255, g: 0, b: 0, a: 255)

    /// Line width: about 1 % of the picture width, at least 2 px, and never more than a
    /// quarter of the box (small faces keep a visible middle).
    public static func thickness(frameWidth: Int, box: PixelRect) -> Int {
        max(1, min(max(2, frameWidth / 100), min(box.width, box.height) / 4))
    }

    /// Draws each box's outline inside the box (clipped to the frame).
    public static func draw(_ boxes: [PixelRect], on frame: FrameView) {
        let f = frame.format
        let word = UInt32(color.r) << f.redShift | UInt32(color.g) << f.greenShift
            | UInt32(color.b) << f.blueShift | UInt32(color.a) << f.alphaShift
        for b in boxes {
            let x0 = max(b.x, 0), y0 = max(b.y, 0)
            let x1 = min(b.x + b.width, frame.width), y1 = min(b.y + b.height, frame.height)
            guard x0 < x1 && y0 < y1 else { continue }
            let t = thickness(frameWidth: frame.width, box: b)
            for y in y0..<y1 {
                let row = frame.row(y)
                if y < b.y + t || y >= b.y + b.height - t {
                    for x in x0..<x1 { row[x] = word }
                } else {
                    var x = x0
                    while x < min(b.x + t, x1) { row[x] = word; x += 1 }
                    x = max(b.x + b.width - t, x0)
                    while x < x1 { row[x] = word; x += 1 }
                }
            }
        }
    }
}
