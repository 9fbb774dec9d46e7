/// What a command acts on: one element's properties, read and written as text (the
/// element itself for a key in its window, the session's target for the terminal).
public protocol ControlTarget: AnyObject {
    /// The element's name, for what a `set` says.
    var name: String { get }
    func value(_ property: String) -> String?
    /// Sets a property from text; throws when the element refuses the value (it keeps the old one).
    func set(_ property: String, _ value: String) throws
    /// Asks for a still.
    func snapshot() throws
    /// The lens `lens` put away, to bring back; kept with the element, so the window and
    /// the terminal share it.
    var keptLens: String? { get set }
    /// The transform the frames get now, as an `orientation` nick: under `auto`, what the
    /// stream's tag, the device and `camera-facing` give (nil: not known).
    var appliedOrientation: String? { get }
    /// Whether a filter that works on RGB only can run on the frames now (false while YUV
    /// frames flow): n and p pass over the ones that cannot.
    var takesRGBOnlyFilters: Bool { get }
}

extension ControlTarget {
    public var appliedOrientation: String? { nil }
    public var takesRGBOnlyFilters: Bool { true }
}

/// A command that cannot act now (an arrow key with the lens off).
public struct ControlError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension ControlCommand {
    /// One step of `zoom-in`/`zoom-out` (and of the wheel), and of the lens size.
    public static let zoomStep = 1.25
    /// How far an arrow moves the lens, as a fraction of the picture.
    public static let lensNudge = 0.05
    /// The lens a click places when there is none yet (the whole picture is no lens).
    public static let defaultLensSize = 0.5
    /// The seconds `countdown` (the t key) counts before its still, as a phone's timer.
    public static let countdownSeconds = 3

    /// Runs the command on `target`: the one place where a command becomes property
    /// changes, whichever key, line or window it came from. Returns what it changed as a
    /// line to show ("filter: mono", "zoom: 1.25"), nil when there is nothing to say.
    /// `help` and `quit` belong to the program that runs the pipeline: nothing here.
    /// Whether every filter of `chain` has a YUV path.
    static func worksOnYUV(_ chain: String, registry: FilterRegistry) -> Bool {
        guard let parsed = try? FilterChain.parse(chain, registry: registry) else { return false }
        return parsed.makeFilters(registry: registry).allSatisfy { $0 is any YUVFilter }
    }

    @discardableResult
    public func run(on target: some ControlTarget, registry: FilterRegistry = .shared) throws -> String? {
        switch self {
        case .set(_, let property, let value):
            try target.set(property, value)
            return "set \(target.name).\(property) = \(target.value(property) ?? value)"
        case .filter(let id) where id.contains(" ") || id.contains(","):
            // A chain or a filter with parameters (`filter lut file=x.cube`), as the
            // property takes it; the element says what is wrong with it.
            _ = try FilterChain.parse(id, registry: registry)
            return try change(target, "filter", id)
        case .filter(let id):
            _ = try registry.lookup(id: id)
            return try change(target, "filter", (target.value("filter") ?? "none") == id ? "none" : id)
        case .nextFilter, .previousFilter:
            let text = target.value("filter") ?? "none"
            let current = registry.pickableID(ofChain: text) ?? FilterChain.leadingID(of: text, registry: registry)
            // As the gallery: a filter whose defaults change nothing comes with its example
            // setting, so each n or p changes the picture.
            // On YUV frames a filter without a YUV path is passed over (set, it is refused).
            var next = current
            for _ in 0..<registry.ids.count {
                next = registry.id(after: next, step: self == .nextFilter ? 1 : -1)
                if target.takesRGBOnlyFilters || Self.worksOnYUV(FilterShowcase.chain(for: next), registry: registry) { break }
            }
            return try change(target, "filter", FilterShowcase.chain(for: next))
        case .rotate:
            // Under auto, from what the frames show (a front camera's mirror stays).
            let orientation = target.value("orientation") ?? "identity"
            let current = orientation == "auto" ? target.appliedOrientation ?? "identity" : orientation
            return try Self.orient(target, OrientationMethod.afterRotate(current)).afterRotateWords
        case .mirror:
            let orientation = target.value("orientation") ?? "identity"
            if orientation == "auto" {
                // A front camera's picture is mirrored (as a phone's selfie camera shows it).
                let facing = target.value("camera-facing") == "front" ? "back" : "front"
                try target.set("camera-facing", facing)
                return "mirror: \(facing == "front" ? "on" : "off") (camera-facing \(target.value("camera-facing") ?? facing))"
            }
            return try Self.orient(target, (OrientationMethod(nick: orientation) ?? .identity).then(.horizontal)).afterMirrorWords
        case .zoomIn, .zoomOut:
            let zoom = target.value("zoom").flatMap(NumberText.double) ?? 1
            let maxZoom = target.value("max-zoom").flatMap(NumberText.double) ?? 1
            // In hundredths: steps of exactly 1.25 gave 3.0517578125, 7.450580596923828 (as said).
            let stepped = ((self == .zoomIn ? zoom * Self.zoomStep : zoom / Self.zoomStep) * 100).rounded() / 100
            let next = Zoom.clamp(stepped, max: maxZoom)
            // At an end the step changes nothing: said as such (a held + said "zoom: 8" 35 times).
            if next == zoom { return "zoom: \(NumberText.text(zoom)) (\(self == .zoomIn ? "the most: max-zoom" : "the least"))" }
            return try change(target, "zoom", NumberText.text(next))
        case .lens:
            let lens = try Self.lens(of: target)
            if lens.isFull {
                let back = target.keptLens.flatMap { try? LensRect(parsing: $0) } ?? .centred(size: Self.defaultLensSize)
                target.keptLens = nil
                return try change(target, "lens", back.description)
            }
            target.keptLens = lens.description
            return try change(target, "lens", LensRect.full.description)
        case .lensAt(let x, let y):
            let lens = try Self.lens(of: target)
            return try change(target, "lens", (lens.isFull ? .centred(size: Self.defaultLensSize) : lens).centred(atX: x, y: y).description)
        case .cancel where !Self.galleryIsOpen(target):
            // A countdown called off (as `t` again does); with nothing to cancel, nothing said.
            return try Self.cancelCountdown(of: target)
        case .gallery, .closeGallery, .cancel, .turnPage, .pickAt:
            return try runInGallery(on: target, registry: registry)
        case .moveLens where Self.galleryIsOpen(target):
            return try runInGallery(on: target, registry: registry)
        case .moveLens(let direction):
            let lens = try Self.placedLens(of: target)
            let (dx, dy) = switch direction {
            case .left: (-Self.lensNudge, 0.0)
            case .right: (Self.lensNudge, 0.0)
            case .up: (0.0, -Self.lensNudge)
            case .down: (0.0, Self.lensNudge)
            }
            return try change(target, "lens", lens.centred(atX: lens.x + lens.w / 2 + dx, y: lens.y + lens.h / 2 + dy).description)
        case .lensSmaller, .lensLarger:
            let lens = try Self.placedLens(of: target)
            return try change(target, "lens", lens.resized(by: self == .lensLarger ? Self.zoomStep : 1 / Self.zoomStep).description)
        case .snapshot:
            try target.snapshot()
            return nil
        case .countdown:
            // Again while it counts: called off, as a camera app's timer is by a second tap
            // (it started again); Esc (`cancel`) calls it off too.
            if let cancelled = try Self.cancelCountdown(of: target) { return cancelled }
            try target.set("countdown", String(Self.countdownSeconds))
            return "countdown: a still in \(Self.countdownSeconds) s"
        case .record:
            // What the recording became (its file, or why it failed; at the end its length
            // and size) comes from the element as it happens, not from here.
            guard let recording = target.value("record") else { throw ControlError("\(target.name) cannot record") }
            try target.set("record", recording == "true" ? "false" : "true")
            return nil
        case .faces:
            let on = target.value("detect-faces") == "true"
            try target.set("detect-faces", on ? "false" : "true")
            return "faces: \(on ? "off" : "on")"
        case .camera(let id):
            // What is shown, when not the camera asked for (not found, failed: a test
            // picture stands in): the answer said "camera: front" over a test picture.
            let said = try change(target, "camera", id)
            let standIn = "test picture ("
            guard let showing = target.value("showing"), showing.hasPrefix(standIn), showing.hasSuffix(")") else { return said }
            return "\(said): not shown, \(showing.dropFirst(standIn.count).dropLast()); a test picture stands in"
        case .help, .quit:
            return nil
        case .on(_, let command):   // the program picked the element already
            return try command.run(on: target, registry: registry)
        }
    }

    /// Sets `property` and says the value the element took ("zoom: 4" when 5 was clamped).
    func change(_ target: some ControlTarget, _ property: String, _ value: String) throws -> String {
        try target.set(property, value)
        let now = target.value(property) ?? value
        return "\(property): \(property == "lens" && now == LensRect.full.description ? "off" : now)"
    }

    /// Calls off a running countdown (`t` again, Esc): what to say, nil when none runs.
    private static func cancelCountdown(of target: some ControlTarget) throws -> String? {
        guard let left = target.value("countdown").flatMap(Double.init), left > 0 else { return nil }
        try target.set("countdown", "0")
        return "countdown: cancelled"
    }

    /// Sets `orientation` to `method`; returns the method the element took.
    private static func orient(_ target: some ControlTarget, _ method: OrientationMethod) throws -> OrientationMethod {
        try target.set("orientation", method.nick)
        return target.value("orientation").flatMap(OrientationMethod.init(nick:)) ?? method
    }

    private static func lens(of target: some ControlTarget) throws -> LensRect {
        guard let text = target.value("lens") else { throw ControlError("\(target.name) has no lens") }
        return try LensRect(parsing: text)
    }

    /// The lens, which a move or a resize needs placed.
    private static func placedLens(of target: some ControlTarget) throws -> LensRect {
        let lens = try lens(of: target)
        guard !lens.isFull else { throw ControlError("the lens is off (the whole picture): 'l' or a click places one") }
        return lens
    }
}

extension LensRect {
    /// The largest side `]` grows a lens to (a fraction of the picture's).
    static let largestSide = 0.95

    /// A square (in fractions) lens of `size` in the middle of the picture.
    static func centred(size s: Double) -> LensRect {
        try! LensRect(x: (1 - s) / 2, y: (1 - s) / 2, w: s, h: s)
    }

    /// A fraction rounded to 4 decimals, under a pixel of any picture up to 10 000 pixels:
    /// a lens moved or sized by a key or a click reads 0.3 and 0.4756, not
    /// 0.30000000000000004 or 0.475001, and 0.0537 after ten `[`, not 0.0536870912.
    static func rounded(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }

    /// The lens moved so its centre is at (x, y), kept inside the picture; the corner
    /// rounded (`rounded`).
    public func centred(atX x: Double, y: Double) -> LensRect {
        let left = min(max(Self.rounded(x - w / 2), 0), 1 - w)
        let top = min(max(Self.rounded(y - h / 2), 0), 1 - h)
        return (try? LensRect(x: left, y: top, w: w, h: h)) ?? self
    }

    /// The lens scaled about its centre, between 5 % and 95 % of each side (or its size, if
    /// larger): growing to the whole picture turned the lens off, and `[` was then refused.
    func resized(by factor: Double) -> LensRect {
        func side(_ s: Double) -> Double { min(max(Self.rounded(s * factor), 0.05), max(s, Self.largestSide)) }
        let w = side(self.w), h = side(self.h)
        let sized = (try? LensRect(x: 0, y: 0, w: w, h: h)) ?? self
        return sized.centred(atX: x + self.w / 2, y: y + self.h / 2)
    }
}
