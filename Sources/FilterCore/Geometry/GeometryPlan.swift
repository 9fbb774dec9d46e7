/// The geometry of one frame: orientation, zoom and lens, decided once per frame from the
/// settings, and the rendering that follows from it.
///
/// Order of operations (all later steps work in the coordinates the viewer sees):
/// 1. Orientation: the input (inputWidth×inputHeight) is turned/mirrored by `method` into
///    the oriented picture (orientedWidth×orientedHeight).
/// 2. Zoom: the centred `zoomRect` of the oriented picture (`Zoom.cropRect`) is scaled
///    bilinearly back to the oriented size. Zoom 1 leaves the picture alone.
/// 3. Lens: `lensRect` is the lens in the oriented (and zoomed) picture
///    (`LensRect.pixelRect`). With `lensCrop` the output is only that rectangle; without it
///    the output is the whole picture and `lensPixelRect` tells the host where to filter.
///
/// Passes: without zoom, `render` is one pass (orientation of just the source rectangle
/// that the output shows). With zoom and a method other than identity it is two: the zoom
/// crop is oriented into scratch memory (1/z² of the frame), then scaled into the output;
/// with zoom and identity it is one scaling pass.
///
/// Pointer positions map back through the same steps in reverse (`mapPointToSource`).
public struct GeometryPlan: Equatable, Sendable {
    public let inputWidth: Int
    public let inputHeight: Int
    public let method: OrientationMethod
    public let zoom: Double
    public let lens: LensRect
    public let lensCrop: Bool
    /// 2 for YUV frames: the lens's edges snap to the chroma grid (`LensRect.pixelRect`).
    public let lensGrid: Int

    /// Size of the oriented picture (before zoom and lens crop).
    public let orientedWidth: Int
    public let orientedHeight: Int
    /// The centred crop of the oriented picture that zoom shows (the whole of it at zoom 1).
    public let zoomRect: PixelRect
    /// The lens in oriented (zoomed) picture coordinates.
    public let lensRect: PixelRect
    /// Size of the frames `render` writes.
    public let outputWidth: Int
    public let outputHeight: Int
    /// Where the lens lies in the output: where the host filters in place.
    public let lensPixelRect: PixelRect
    /// The rectangle of the input that the output is made from: exactly the pixels shown
    /// without zoom; with zoom, the input pixels of the whole zoom crop.
    public let sourceRect: PixelRect

    /// `zoom` is expected clamped already (`Zoom.clamp`); values below 1 count as 1.
    public init(inputWidth: Int, inputHeight: Int, method: OrientationMethod, zoom: Double,
                lens: LensRect, lensCrop: Bool, lensGrid: Int = 1) {
        precondition(inputWidth > 0 && inputHeight > 0, "a frame needs a positive size")
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.method = method
        self.zoom = zoom
        self.lens = lens
        self.lensCrop = lensCrop
        self.lensGrid = lensGrid
        (orientedWidth, orientedHeight) = method.outputSize(width: inputWidth, height: inputHeight)
        zoomRect = Zoom.cropRect(width: orientedWidth, height: orientedHeight, zoom: zoom.isNaN ? 1 : zoom)
        lensRect = lens.pixelRect(width: orientedWidth, height: orientedHeight, grid: lensGrid)
        if lensCrop {
            outputWidth = lensRect.width
            outputHeight = lensRect.height
            lensPixelRect = PixelRect(x: 0, y: 0, width: lensRect.width, height: lensRect.height)
        } else {
            outputWidth = orientedWidth
            outputHeight = orientedHeight
            lensPixelRect = lensRect
        }
        // Without zoom the output shows the window (the lens when cropping, else everything);
        // with zoom it is made from the whole zoom crop.
        let zooming = zoomRect != PixelRect(x: 0, y: 0, width: orientedWidth, height: orientedHeight)
        let shown = !zooming && lensCrop ? lensRect : zoomRect
        sourceRect = method.sourceRect(forOutputRect: shown, inputWidth: inputWidth, inputHeight: inputHeight)
    }

    /// True when the output is the input, pixel for pixel: the host can work in place.
    public var isIdentity: Bool {
        method == .identity && !zooms && outputWidth == inputWidth && outputHeight == inputHeight
    }

    /// Whether zoom changes the picture (its crop is smaller than the oriented picture).
    public var zooms: Bool {
        zoomRect != PixelRect(x: 0, y: 0, width: orientedWidth, height: orientedHeight)
    }

    /// The part of the zoomed, oriented picture that is output.
    var window: PixelRect {
        lensCrop ? lensRect : PixelRect(x: 0, y: 0, width: orientedWidth, height: orientedHeight)
    }

    /// Writes the output frame (outputWidth×outputHeight) from an input frame
    /// (inputWidth×inputHeight) in other memory.
    public func render(from src: FrameView, to dst: FrameView) {
        precondition(src.width == inputWidth && src.height == inputHeight,
                     "plan for \(inputWidth)x\(inputHeight) got a \(src.width)x\(src.height) frame")
        precondition(dst.width == outputWidth && dst.height == outputHeight,
                     "plan writes \(outputWidth)x\(outputHeight), got a \(dst.width)x\(dst.height) frame")
        guard zooms else {
            Orientation.transform(method, from: src.subview(sourceRect), to: dst)
            return
        }
        if method == .identity {
            Zoom.scale(from: src, sourceRect: zoomRect, fullWidth: orientedWidth, fullHeight: orientedHeight,
                       window: window, to: dst)
            return
        }
        let stride = (zoomRect.width * 4 + 63) & ~63
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * zoomRect.height, alignment: 64)
        defer { memory.deallocate() }
        let scratch = FrameView(base: memory, width: zoomRect.width, height: zoomRect.height, stride: stride,
                                format: src.format)
        Orientation.transform(method, from: src.subview(sourceRect), to: scratch)
        Zoom.scale(from: scratch, sourceRect: PixelRect(x: 0, y: 0, width: zoomRect.width, height: zoomRect.height),
                   fullWidth: orientedWidth, fullHeight: orientedHeight, window: window, to: dst)
    }

    /// A pointer position on the output mapped back to the input picture, through the lens
    /// crop, the zoom and the orientation (continuous coordinates, as
    /// `OrientationMethod.mapPointToSource`).
    public func mapPointToSource(x: Double, y: Double) -> (Double, Double) {
        var px = x, py = y
        if lensCrop {
            px += Double(lensRect.x)
            py += Double(lensRect.y)
        }
        px = Double(zoomRect.x) + px * Double(zoomRect.width) / Double(orientedWidth)
        py = Double(zoomRect.y) + py * Double(zoomRect.height) / Double(orientedHeight)
        return method.mapPointToSource(x: px, y: py, outputWidth: orientedWidth, outputHeight: orientedHeight)
    }

    /// A rectangle of the input (e.g. a region-of-interest meta) where it shows on the
    /// output: turned, then through the zoom and the lens crop, clipped to the output.
    /// nil when none of it is shown.
    public func mapRectToOutput(_ rect: PixelRect) -> PixelRect? {
        let (ax, ay) = method.mapPointToOutput(x: Double(rect.x), y: Double(rect.y), inputWidth: inputWidth, inputHeight: inputHeight)
        let (bx, by) = method.mapPointToOutput(x: Double(rect.x + rect.width), y: Double(rect.y + rect.height),
                                               inputWidth: inputWidth, inputHeight: inputHeight)
        func toOutput(_ x: Double, _ y: Double) -> (Double, Double) {
            var px = (x - Double(zoomRect.x)) * Double(orientedWidth) / Double(zoomRect.width)
            var py = (y - Double(zoomRect.y)) * Double(orientedHeight) / Double(zoomRect.height)
            if lensCrop {
                px -= Double(lensRect.x)
                py -= Double(lensRect.y)
            }
            return (px, py)
        }
        let (x0, y0) = toOutput(min(ax, bx), min(ay, by))
        let (x1, y1) = toOutput(max(ax, bx), max(ay, by))
        let left = max(0, Int(x0.rounded())), top = max(0, Int(y0.rounded()))
        let right = min(outputWidth, Int(x1.rounded())), bottom = min(outputHeight, Int(y1.rounded()))
        guard right > left, bottom > top else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
