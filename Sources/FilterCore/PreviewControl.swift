/// What the preview window's pointer and keys mean, as in the iOS preview: a click
/// centres the lens on the point, a drag moves it with the pointer, the wheel zooms, and
/// the keys are `Keymap`'s, the same as in the terminal. Pure: it turns one input into
/// commands; the element runs them (`ControlCommand.run(on:)`).
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

    private var dragging = false

    /// With the help card shown (a sheet over the picture or the gallery, as in the app), a
    /// click or Esc/Enter closes the card and does nothing else: the lens does not jump
    /// under it, no thumbnail hidden by it is picked, the gallery stays open. Other keys
    /// act as always (h and ? close it too, by their toggle).
    public static func closesCard(_ input: Input) -> Bool {
        switch input {
        case .press(_, _, 1): return true
        case .key(let name): return [.closeGallery, .cancel].contains(Keymap.command(forKey: name))
        default: return false
        }
    }

    public init() {}

    /// The commands for one input; `lensIsFull`: no lens is placed (a drag then moves nothing).
    /// With the effects gallery open (`galleryOpen`), a click chooses the thumbnail under it
    /// (positions are then fractions of the whole output, where the gallery is drawn), the
    /// wheel turns its pages and a drag does nothing.
    public mutating func handle(_ input: Input, lensIsFull: Bool, galleryOpen: Bool = false) -> [ControlCommand] {
        if galleryOpen {
            switch input {
            case .press(let x, let y, 1): return [.pickAt(x: x, y: y)]
            case .press(_, _, let button) where button == 4 || button == 5: return [.turnPage(button == 4 ? -1 : 1)]
            case .scroll(let dy) where dy != 0: return [.turnPage(dy < 0 ? -1 : 1)]
            case .press, .move, .scroll: return []
            case .release, .key: break
            }
        }
        switch input {
        case .press(let x, let y, let button) where button == 1:
            dragging = true
            return [.lensAt(x: x, y: y)]
        case .press(_, _, let button) where button == 4 || button == 5:
            // X11 reports the wheel as buttons 4 (away from the user) and 5 (towards).
            return [button == 4 ? .zoomIn : .zoomOut]
        case .press:
            return []
        case .release(let button):
            if button == 1 { dragging = false }
            return []
        case .move(let x, let y):
            guard dragging, !lensIsFull else { return [] }
            return [.lensAt(x: x, y: y)]
        case .scroll(let dy):
            guard dy != 0 else { return [] }
            return [dy < 0 ? .zoomIn : .zoomOut]
        case .key(let name):
            return Keymap.command(forKey: name).map { [$0] } ?? []
        }
    }
}
