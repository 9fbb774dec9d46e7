/// What the preview window's mouse and keys do, as in the iOS preview: a click centres the
/// lens on the point, a drag moves it with the pointer, the wheel and `+`/`-` zoom, and
/// single keys do what they do in the terminal. Pure: it turns one input into property
/// changes; the element applies them (and `filtercam launch` reacts to `help`/`quit`).
///
/// Pointer positions come as fractions of the displayed (oriented, zoomed) picture, the
/// space the lens lives in, so the lens lands where the user clicked in any orientation.
public struct PreviewControl: Sendable {
    public enum Input: Equatable, Sendable {
        case press(x: Double, y: Double, button: Int)
        case release(button: Int)
        case move(x: Double, y: Double)
        /// Wheel: negative `dy` is away from the user (zoom in), as X11 reports it.
        case scroll(dy: Double)
        /// An X11 key name as GStreamer's navigation events carry it ("n", "space", "Left", "bracketleft").
        case key(String)
    }

    public enum Action: Equatable, Sendable {
        case lens(LensRect)
        case zoom(Double)
        case nextFilter, previousFilter, rotate, mirror, snapshot, faces, help, quit
    }

    /// The lens a click places when there is none yet (the whole picture is no lens).
    public static let defaultLensSize = 0.5
    static let nudge = 0.05
    static let zoomStep = 1.25

    private var dragging = false
    /// The lens before `l` turned it off, to bring back.
    private var hiddenLens: LensRect?

    public init() {}

    /// The actions for one input, given the current lens and zoom.
    public mutating func handle(_ input: Input, lens: LensRect, zoom: Double, maxZoom: Double) -> [Action] {
        switch input {
        case .press(let x, let y, let button) where button == 1:
            dragging = true
            return [.lens(Self.centred(lens.isFull ? Self.defaultLens : lens, atX: x, y: y))]
        case .press(_, _, let button) where button == 4 || button == 5:
            // X11 reports the wheel as buttons 4 (away from the user) and 5 (towards).
            return handle(.scroll(dy: button == 4 ? -1 : 1), lens: lens, zoom: zoom, maxZoom: maxZoom)
        case .press:
            return []
        case .release(let button):
            if button == 1 { dragging = false }
            return []
        case .move(let x, let y):
            guard dragging, !lens.isFull else { return [] }
            return [.lens(Self.centred(lens, atX: x, y: y))]
        case .scroll(let dy):
            guard dy != 0 else { return [] }
            return [.zoom(Zoom.clamp(dy < 0 ? zoom * Self.zoomStep : zoom / Self.zoomStep, max: maxZoom))]
        case .key(let name):
            return key(name, lens: lens, zoom: zoom, maxZoom: maxZoom)
        }
    }

    private mutating func key(_ name: String, lens: LensRect, zoom: Double, maxZoom: Double) -> [Action] {
        switch name {
        case "n": return [.nextFilter]
        case "p": return [.previousFilter]
        case "r": return [.rotate]
        case "m": return [.mirror]
        case "s", "space": return [.snapshot]
        case "f": return [.faces]
        case "h": return [.help]
        case "q", "Escape": return [.quit]
        case "plus", "equal", "KP_Add": return [.zoom(Zoom.clamp(zoom * Self.zoomStep, max: maxZoom))]
        case "minus", "KP_Subtract": return [.zoom(Zoom.clamp(zoom / Self.zoomStep, max: maxZoom))]
        case "l":
            if lens.isFull {
                let back = hiddenLens ?? Self.defaultLens
                hiddenLens = nil
                return [.lens(back)]
            }
            hiddenLens = lens
            return [.lens(.full)]
        case "bracketleft": return lens.isFull ? [] : [.lens(Self.resized(lens, by: 1 / Self.zoomStep))]
        case "bracketright": return lens.isFull ? [] : [.lens(Self.resized(lens, by: Self.zoomStep))]
        case "Left", "Right", "Up", "Down":
            guard !lens.isFull else { return [] }
            let dx = name == "Left" ? -Self.nudge : name == "Right" ? Self.nudge : 0
            let dy = name == "Up" ? -Self.nudge : name == "Down" ? Self.nudge : 0
            return [.lens(Self.centred(lens, atX: lens.x + lens.w / 2 + dx, y: lens.y + lens.h / 2 + dy))]
        default: return []
        }
    }

    static var defaultLens: LensRect {
        let s = defaultLensSize
        return try! LensRect(x: (1 - s) / 2, y: (1 - s) / 2, w: s, h: s)
    }

    /// `lens` moved so its centre is at (x, y), kept inside the picture.
    public static func centred(_ lens: LensRect, atX x: Double, y: Double) -> LensRect {
        let left = min(max(x - lens.w / 2, 0), 1 - lens.w)
        let top = min(max(y - lens.h / 2, 0), 1 - lens.h)
        return (try? LensRect(x: left, y: top, w: lens.w, h: lens.h)) ?? lens
    }

    /// `lens` scaled about its centre, between 5 % and the whole picture.
    static func resized(_ lens: LensRect, by factor: Double) -> LensRect {
        let w = min(max(lens.w * factor, 0.05), 1), h = min(max(lens.h * factor, 0.05), 1)
        let sized = (try? LensRect(x: 0, y: 0, w: w, h: h)) ?? lens
        return centred(sized, atX: lens.x + lens.w / 2, y: lens.y + lens.h / 2)
    }
}
