/// What a user can tell a running FilterCam, in one vocabulary: a key in the preview
/// window or in the terminal, the pointer in the window, the terminal's `:` line and a
/// line on stdin all become one of these. `Keymap` binds the keys and writes the help;
/// `run(on:)` (ControlExecutor.swift) turns one into property changes on an element.
public enum ControlCommand: Equatable, Sendable {
    /// `set [ELEMENT.]PROP=VALUE`; without an element, the only filtercam.
    case set(element: String?, property: String, value: String)
    /// `filter ID`: select a filter; selecting the current one returns to `none`. With
    /// settings or a chain (`filter sepia intensity=0.5, vignette`): set as written.
    case filter(String)
    case nextFilter, previousFilter
    /// A quarter turn clockwise (orientation identity → 90r → 180 → 90l).
    case rotate
    /// Mirror left-right; with orientation=auto, swap camera-facing instead.
    case mirror
    case zoomIn, zoomOut
    /// The lens off (the whole picture), or back where it was.
    case lens
    /// The lens centred on a point of the shown picture (fractions): a click, a drag.
    case lensAt(x: Double, y: Double)
    case moveLens(Direction)
    case lensSmaller, lensLarger
    case snapshot
    /// A still after a countdown (`ControlCommand.countdownSeconds`, shown 3-2-1).
    case countdown
    /// Start or stop recording the picture to a numbered MP4 (the element's `record`).
    case record
    case faces
    /// `camera ID`: switch the only filtercamsrc to camera ID (back, front, a path, test:PATTERN).
    case camera(String)
    /// The effects gallery (every filter on the live picture at once) open or closed.
    /// While it is open the arrows move its selection (`GalleryCommands.swift`).
    case gallery
    /// Close the gallery, keeping the chosen filter (Enter); nothing when it is closed.
    case closeGallery
    /// Esc: close the gallery (keeping the chosen filter), else call off a countdown, as a
    /// camera app's back gesture does; nothing when neither is open (in the window the help
    /// card closes first).
    case cancel
    /// The gallery's next (+1) or previous (−1) page.
    case turnPage(Int)
    /// Choose the gallery's thumbnail at a point of the picture (fractions): a click.
    case pickAt(x: Double, y: Double)
    case help
    case quit
    /// `VERB ELEMENT` (`snapshot filtercam1`): a verb without an argument aimed at one of
    /// several FilterCam elements (`set ELEMENT.PROP=VALUE` is the way for properties).
    indirect case on(element: String, ControlCommand)

    public enum Direction: String, CaseIterable, Sendable {
        case left, right, up, down
    }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The verbs that take no argument, as typed.
    static let plainVerbs: [(verb: String, command: ControlCommand)] = [
        ("next-filter", .nextFilter), ("previous-filter", .previousFilter), ("rotate", .rotate), ("mirror", .mirror),
        ("zoom-in", .zoomIn), ("zoom-out", .zoomOut), ("lens", .lens),
        ("lens-left", .moveLens(.left)), ("lens-right", .moveLens(.right)),
        ("lens-up", .moveLens(.up)), ("lens-down", .moveLens(.down)),
        ("lens-smaller", .lensSmaller), ("lens-larger", .lensLarger),
        ("snapshot", .snapshot), ("countdown", .countdown), ("record", .record), ("faces", .faces),
        ("gallery", .gallery), ("close-gallery", .closeGallery), ("cancel", .cancel), ("next-page", .turnPage(1)), ("previous-page", .turnPage(-1)),
        ("help", .help), ("?", .help), ("quit", .quit), ("exit", .quit), ("q", .quit),
    ]
    static let argumentVerbs = ["set", "filter", "lens-at", "pick-at", "camera"]

    /// The command as it is typed on a line.
    /// Whether it acts on a frame that has yet to come (a still, a countdown, a recording's
    /// start), rather than on settings that take effect at once.
    public var needsAPicture: Bool {
        if case .on(_, let command) = self { return command.needsAPicture }
        return self == .snapshot || self == .countdown || self == .record
    }

    /// The verbs a `VERB ELEMENT` line may aim: those that act on one element's picture.
    static func canBeAimed(_ command: ControlCommand) -> Bool {
        ![.help, .quit].contains(command)
    }

    public var line: String {
        switch self {
        case .set(let element, let property, let value): return "set \(element.map { $0 + "." } ?? "")\(property)=\(value)"
        case .filter(let id): return "filter \(id)"
        case .lensAt(let x, let y): return "lens-at \(x),\(y)"
        case .pickAt(let x, let y): return "pick-at \(x),\(y)"
        case .camera(let id): return "camera \(id)"
        case .on(let element, let command): return "\(command.line) \(element)"
        default: return Self.plainVerbs.first { $0.command == self }!.verb
        }
    }

    /// Parses one command line (`set zoom=2`, `next-filter`, `camera front`, …).
    public init(line: String) throws(ParseError) {
        // A tab separates words as a space does (`filter<TAB>invert` was an unknown command).
        let trimmed = line.replacingTabsWithSpaces.trimmingSpaces
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        guard let verb = parts.first else { throw ParseError("empty command; type 'help' for the list") }
        let argument = parts.count > 1 ? parts[1].trimmingSpaces : ""
        switch verb {
        case "set": self = try Self.parseSet(argument)
        case "filter":
            guard !argument.isEmpty else { throw ParseError("'filter' needs a filter id, e.g. 'filter sepia'") }
            // `filter invert b`, `filter "sepia, vignette" b`: aimed at element b, as
            // `snapshot b` is (a chain's words hold `=` or follow a comma).
            if let (chain, element) = Self.filterAndElement(argument) {
                self = .on(element: element, .filter(chain))
                return
            }
            // Quoted as a pipeline file writes it: `filter "sepia, vignette"`.
            self = .filter(Self.unquoted(argument))
        case "lens-at", "pick-at":
            // `lens-at 0.5,0.5 b`: aimed at element b.
            let words = argument.split(separator: " ").map(String.init)
            if words.count == 2, words[0].contains(","), !words[0].hasSuffix(","), NumberText.double(words[1]) == nil {
                let aimed = try ControlCommand(line: "\(verb) \(words[0])")
                self = .on(element: words[1], aimed)
                return
            }
            let xy = argument.split(separator: ",").map { NumberText.double($0.trimmingSpaces) }
            guard xy.count == 2, let x = xy[0], let y = xy[1] else {
                throw ParseError("'\(verb)' needs X,Y, fractions of the picture, e.g. '\(verb) 0.5,0.5'")
            }
            guard (0...1).contains(x), (0...1).contains(y) else {
                throw ParseError("'\(verb) \(argument)' is outside the picture: X and Y are fractions from 0 to 1, "
                                 + "e.g. '\(verb) 0.5,0.5' for the middle")
            }
            self = verb == "lens-at" ? .lensAt(x: x, y: y) : .pickAt(x: x, y: y)
        case "camera":
            guard !argument.isEmpty else { throw ParseError("'camera' needs a camera: back, front, /dev/videoN or test:PATTERN") }
            self = .camera(Self.unquoted(argument))
        case _ where !argument.isEmpty && !argument.contains(" "):
            // `snapshot filtercam1`: a plain verb aimed at an element.
            guard let plain = Self.plainVerbs.first(where: { $0.verb == verb }) else { fallthrough }
            guard Self.canBeAimed(plain.command) else {
                throw ParseError("'\(verb)' takes no element or other word (it acts on the whole program)")
            }
            self = .on(element: argument, plain.command)
        default:
            guard argument.isEmpty, let plain = Self.plainVerbs.first(where: { $0.verb == verb }) else {
                let verbs = (Self.argumentVerbs + Self.plainVerbs.map(\.verb).filter { $0 != "?" && $0 != "exit" && $0 != "q" })
                let known = Self.argumentVerbs.contains(verb) || Self.plainVerbs.contains { $0.verb == verb }
                let hint = known ? "" : NameSuggestion.hint(for: verb, among: verbs)
                throw ParseError("unknown command \(trimmed.quotedForMessage)\(hint); commands: \(verbs.joined(separator: ", "))")
            }
            self = plain.command
        }
    }

    private static func parseSet(_ argument: String) throws(ParseError) -> ControlCommand {
        guard let eq = argument.firstIndex(of: "=") else {
            throw ParseError("'set' needs PROP=VALUE or ELEMENT.PROP=VALUE, e.g. 'set filter=sepia'")
        }
        let target = String(argument[..<eq]).trimmingSpaces
        let value = Self.unquoted(String(argument[argument.index(after: eq)...]).trimmingSpaces)
        let element: String?, property: String
        if let dot = target.lastIndex(of: ".") {
            element = String(target[..<dot])
            property = String(target[target.index(after: dot)...])
        } else {
            element = nil
            property = target
        }
        guard !property.isEmpty, element.map({ !$0.isEmpty }) ?? true else {
            throw ParseError("\("set \(argument)".quotedForMessage): name a property, e.g. 'set filter=sepia' or 'set filtercam0.zoom=2'")
        }
        // GStreamer keeps an element's name once it is in a pipeline, without a word.
        guard property != "name" else {
            throw ParseError("\("set \(argument)".quotedForMessage): an element's name cannot change once it is in a pipeline; "
                             + "give it in the description (filtercam name=\(value) …)")
        }
        return .set(element: element, property: property, value: value)
    }

    /// A `filter` argument that ends in an element's name: the filter (a known id, or a
    /// quoted chain) and the name; nil when the last word belongs to the chain.
    private static func filterAndElement(_ argument: String) -> (String, String)? {
        guard let space = argument.lastIndex(of: " ") else { return nil }
        let head = String(argument[..<space]).trimmingSpaces, last = String(argument[argument.index(after: space)...])
        guard !last.isEmpty, !last.contains("="), !last.contains(","), !head.hasSuffix(",") else { return nil }
        if let quote = head.first, quote == "\"" || quote == "'", head.count >= 2, head.last == quote {
            return (unquoted(head), last)
        }
        return FilterRegistry.shared.descriptor(id: head) != nil ? (head, last) : nil
    }

    /// `text` without the quotes around it, if it is quoted ("…" or '…').
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// The command bound to a key a terminal sends as one character, if any.
    public init?(key: Character) {
        guard let name = Keymap.keyName(for: key), let command = Keymap.command(forKey: name) else { return nil }
        self = command
    }

    /// Every command with its keys: `filtercam launch --help`, `:help`.
    public static var helpText: String { Keymap.helpText }
}

