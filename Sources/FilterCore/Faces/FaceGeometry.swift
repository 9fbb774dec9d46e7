/// The output picture a face box belongs to: its size and the orientation method that
/// made it from the input. A live result computed on an older frame is carried onto the
/// current one through this: when the device turns (the method changes), the box goes
/// back to input coordinates through the old method and out through the new one, so it
/// stays on the face until the next detection arrives. With the frame's `GeometryPlan`
/// the box also follows zoom and the lens crop: it goes back to the camera's frame through
/// the old plan and out through the new one (zoom 2 doubles it about the centre).
public struct FaceGeometry: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var method: OrientationMethod
    /// How the picture was made from the camera's frame (turn, zoom, lens crop), when known.
    public var plan: GeometryPlan?

    public init(width: Int, height: Int, method: OrientationMethod) {
        self.width = width
        self.height = height
        self.method = method
    }

    /// The picture `plan` writes.
    public init(plan: GeometryPlan) {
        self.init(width: plan.outputWidth, height: plan.outputHeight, method: plan.method)
        self.plan = plan
    }

    /// The size of the input picture the method turned.
    public var inputSize: (width: Int, height: Int) {
        method.swapsAxes ? (height, width) : (width, height)
    }

    /// `rect` (in this picture) in the picture `other`; nil when nothing of it is left there.
    public func map(_ rect: PixelRect, to other: FaceGeometry) -> PixelRect? {
        if self == other { return rect }
        if let a = plan, let b = other.plan, a.inputWidth == b.inputWidth, a.inputHeight == b.inputHeight {
            // Both pictures come from frames of one size: through the camera's frame.
            let (x0, y0) = a.mapPointToSource(x: Double(rect.x), y: Double(rect.y))
            let (x1, y1) = a.mapPointToSource(x: Double(rect.x + rect.width), y: Double(rect.y + rect.height))
            let left = Int(min(x0, x1).rounded()), top = Int(min(y0, y1).rounded())
            let source = PixelRect(x: left, y: top, width: max(1, Int(max(x0, x1).rounded()) - left),
                                   height: max(1, Int(max(y0, y1).rounded()) - top))
            return b.mapRectToOutput(source)
        }
        let inA = inputSize, inB = other.inputSize
        var r = method.sourceRect(forOutputRect: clipped(rect) ?? rect, inputWidth: inA.width, inputHeight: inA.height)
        if inA != inB {   // another size (zoom, lens crop): scale in input coordinates
            r = PixelRect(x: r.x * inB.width / inA.width, y: r.y * inB.height / inA.height,
                          width: max(1, r.width * inB.width / inA.width), height: max(1, r.height * inB.height / inA.height))
        }
        guard let inside = other.inputClipped(r) else { return nil }
        return other.method.inverse.sourceRect(forOutputRect: inside, inputWidth: other.width, inputHeight: other.height)
    }

    /// `face` (in this picture) in the picture `other`: its box mapped, its roll turned with
    /// the change of orientation; nil when nothing of it is left there.
    public func map(_ face: DetectedFace, to other: FaceGeometry) -> DetectedFace? {
        guard let rect = map(face.rect, to: other) else { return nil }
        return DetectedFace(rect: rect, angle: FaceRoll.carried(face.angle, from: method, to: other.method),
                            neighbors: face.neighbors)
    }

    private func clipped(_ r: PixelRect) -> PixelRect? {
        Self.clip(r, width: width, height: height)
    }

    private func inputClipped(_ r: PixelRect) -> PixelRect? {
        Self.clip(r, width: inputSize.width, height: inputSize.height)
    }

    public static func clip(_ r: PixelRect, width: Int, height: Int) -> PixelRect? {
        let x0 = max(r.x, 0), y0 = max(r.y, 0)
        let x1 = min(r.x + r.width, width), y1 = min(r.y + r.height, height)
        guard x0 < x1 && y0 < y1 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
