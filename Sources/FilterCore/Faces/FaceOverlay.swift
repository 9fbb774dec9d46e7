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
        forEachOutlineRun(boxes, width: frame.width, height: frame.height) { y, xs in
            let row = frame.row(y)
            for x in xs { row[x] = word }
        }
    }

    /// The outlines' pixels as runs along rows (row, columns), clipped to a `width`×`height`
    /// picture: whole rows for the top and bottom edges, two runs per row for the sides.
    static func forEachOutlineRun(_ boxes: [PixelRect], width: Int, height: Int, _ body: (Int, Range<Int>) -> Void) {
        for b in boxes {
            let x0 = max(b.x, 0), y0 = max(b.y, 0)
            let x1 = min(b.x + b.width, width), y1 = min(b.y + b.height, height)
            guard x0 < x1 && y0 < y1 else { continue }
            let t = thickness(frameWidth: width, box: b)
            for y in y0..<y1 {
                if y < b.y + t || y >= b.y + b.height - t {
                    body(y, x0..<x1)
                } else {
                    let left = x0..<max(x0, min(b.x + t, x1)), right = min(max(b.x + b.width - t, x0), x1)..<x1
                    if !left.isEmpty { body(y, left) }
                    if !right.isEmpty { body(y, right) }
                }
            }
        }
    }
}
