/// What the preview shows on top of the picture, and for how long, as a camera app does:
/// the filter's title for a moment after a change, the zoom factor while it changes, the
/// lens outline while it moves (or always), a help card, the file name after a still, the
/// 3-2-1 of a countdown still, and while recording a red dot with the recording's length.
///
/// Pure state: changes are noted with the time they happened (seconds on any monotonic
/// clock) and `items(at:)` says what to draw at a given time. Drawing is the host's
/// (Pango/Cairo); nothing here knows about pixels.
public struct OnScreenDisplay: Sendable, Equatable {
    public enum Item: Equatable, Sendable {
        /// A line of text, centred near the top of the picture.
        case banner(String)
        /// The same, saying how a still or a recording went ("saved …", "snapshot failed"):
        /// shown over the effects gallery too, where a banner (the filter's title) is not.
        case news(String)
        /// The help card, centred.
        case card([String])
        /// The lens outline (in output pixels); in the effects gallery, the selection's.
        case outline(PixelRect)
        /// A line of text of `size` pixels at the foot of a rectangle, centred, shortened
        /// with an ellipsis to fit: the effects gallery's titles and its strip.
        case caption(String, in: PixelRect, size: Double)
        /// A red dot and the recording's length (whole seconds, shown as m:ss), top left.
        case recording(seconds: Int)
        /// A countdown's seconds left, large in the middle of the picture, as a camera
        /// app's self-timer shows them.
        case countdown(Int)
    }

    /// How long a banner or a moving lens's outline stays.
    public static let holdSeconds = 1.5

    public static let helpLines = Keymap.cardLines

    private var banner: (text: String, until: Double, news: Bool)?
    private var outlineUntil = -Double.infinity
    public private(set) var helpShown = false
    /// When the running countdown ends (its still is due), if one runs.
    private var countdownEnd: Double?
    /// The length of the running recording (seconds of picture recorded), nil when none runs.
    public private(set) var recordingSeconds: Double?

    public init() {}

    public mutating func filterChanged(to title: String, at time: Double) {
        banner = (title, time + Self.holdSeconds, false)
    }

    public mutating func zoomChanged(to zoom: Double, at time: Double) {
        // As the terminal says it (three steps are "zoom: 1.95"; the banner said 2.0×).
        let rounded = (zoom * 100).rounded() / 100
        banner = ("zoom \(NumberText.text(rounded))×", time + Self.holdSeconds, false)
    }

    public mutating func lensMoved(at time: Double) {
        outlineUntil = time + Self.holdSeconds
    }

    /// A still was written: its file name, so the banner matches the file a user looks
    /// for (`snapshot-00000.jpg` is the first, not "snapshot 1").
    public mutating func snapshotSaved(fileName: String, at time: Double) {
        banner = ("saved \(fileName)", time + Self.holdSeconds, true)
    }

    /// A still asked for could not be written (a missing folder, a full disk; the terminal
    /// says why): the flash had shown, so the picture says it for a moment too.
    public mutating func snapshotFailed(at time: Double) {
        banner = ("snapshot failed", time + Self.holdSeconds, true)
    }

    /// A still in `seconds` (0 cancels a running countdown).
    public mutating func countdownStarted(seconds: Int, at time: Double) {
        countdownEnd = seconds > 0 ? time + Double(seconds) : nil
        countdownAnnounced = seconds   // whoever set it was told
    }

    /// The seconds left last announced (`notify::countdown`); 0 when none runs.
    private var countdownAnnounced = 0

    /// Whether the seconds left changed since last announced (then they count as announced).
    public mutating func countdownChanged(at time: Double) -> Bool {
        let left = countdownLeft(at: time) ?? 0
        defer { countdownAnnounced = left }
        return left != countdownAnnounced
    }

    /// Whether a countdown runs or its still is due and not yet taken.
    public var countdownPending: Bool { countdownEnd != nil }

    /// The whole seconds left of a running countdown (3, 2, 1), nil when none runs.
    public func countdownLeft(at time: Double) -> Int? {
        guard let end = countdownEnd, time < end else { return nil }
        return Int((end - time).rounded(.up))
    }

    /// True once, at the first call at or after the countdown's end: its still is due.
    public mutating func countdownDue(at time: Double) -> Bool {
        guard let end = countdownEnd, time >= end else { return false }
        countdownEnd = nil
        return true
    }

    /// Calls off a countdown running or due (the stream stopped); true when there was one
    /// whose seconds left were announced as more than 0 (so 0 is to be announced).
    public mutating func cancelCountdown() -> Bool {
        defer {
            countdownEnd = nil
            countdownAnnounced = 0
        }
        return countdownEnd != nil && countdownAnnounced != 0
    }

    /// The running recording's length so far, or nil: none runs (any more).
    public mutating func recording(seconds: Double?) {
        recordingSeconds = seconds
    }

    /// A recording could not start or went wrong (the terminal says why).
    public mutating func recordingFailed(at time: Double) {
        recordingSeconds = nil
        banner = ("recording failed", time + Self.holdSeconds, true)
    }

    public mutating func toggleHelp() {
        helpShown.toggle()
    }

    /// The card closed: by a click or Esc, or because the gallery opened or closed (the
    /// card belongs to the screen it was opened on).
    public mutating func hideHelp() {
        helpShown = false
    }

    /// What to draw at `time`: the lens outline when it moved lately or `alwaysOutline`
    /// (and the lens is not the whole picture) unless the help card is up, the current
    /// banner, the recording's dot and length, the help card.
    public func items(at time: Double, lens: PixelRect?, alwaysOutline: Bool) -> [Item] {
        var out: [Item] = []
        // Not under the help card: through its translucent box the outline crossed its text.
        if let lens, !helpShown, alwaysOutline || time < outlineUntil { out.append(.outline(lens)) }
        if let left = countdownLeft(at: time) {
            out.append(.countdown(left))   // no banner while it counts
        } else if let banner, time < banner.until {
            out.append(banner.news ? .news(banner.text) : .banner(banner.text))
        }
        if let seconds = recordingSeconds { out.append(.recording(seconds: Int(max(seconds, 0)))) }
        if helpShown { out.append(.card(Self.helpLines)) }
        return out
    }

    public static func == (a: OnScreenDisplay, b: OnScreenDisplay) -> Bool {
        a.banner?.text == b.banner?.text && a.banner?.until == b.banner?.until
            && a.outlineUntil == b.outlineUntil && a.helpShown == b.helpShown && a.countdownEnd == b.countdownEnd
            && a.recordingSeconds == b.recordingSeconds
    }
}

extension OnScreenDisplay.Item {
    /// Whether the item is drawn over the effects gallery: the help card, the thumbnails'
    /// captions, the recording's dot, the countdown, and how a still or a recording went
    /// (only the flash showed when a still taken there failed); not the filter's title or
    /// the lens outline, which belong to the live picture.
    public var showsOverGallery: Bool {
        switch self {
        case .card, .caption, .recording, .countdown, .news: return true
        case .banner, .outline: return false
        }
    }
}
