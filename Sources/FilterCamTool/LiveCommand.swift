import FilterCamHost
/// A command typed while a pipeline runs: one per line on stdin, or a single key in a
/// terminal. `filtercam launch --help` lists them.
public enum LiveCommand: Equatable, Sendable {
    /// `set [ELEMENT.]PROP=VALUE`; without an element, the only filtercam.
    case set(element: String?, property: String, value: String)
    /// `filter ID`: select a filter; selecting the current one returns to `none`.
    case filter(String)
    case nextFilter
    case previousFilter
    /// `rotate`: turn the picture a quarter clockwise (orientation identity → 90r → 180 → 90l).
    case rotate
    case snapshot
    case faces
    /// `camera ID`: switch the only filtercamsrc to camera ID (back, front, a path, test:PATTERN).
    case camera(String)
    case help
    case quit

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public static let helpText = """
        commands (one per line; in a terminal the key in brackets):
          set [ELEMENT.]PROP=VALUE   change a property while playing (default element: the only filtercam)
          filter ID                  select a filter; again returns to none
          next-filter [n] / previous-filter [p]   walk the filter catalog
          rotate [r]                 turn the picture a quarter clockwise
          snapshot [s]               take a still
          faces [f]                  toggle face detection
          camera ID                  switch cameras: back, front, /dev/videoN or test:PATTERN
          help [h]                   this list
          quit [q]                   stop (sends EOS first so recordings are finalised)
        in a terminal, ':' opens a command line (Enter runs, Esc cancels).
        in the preview window: click / drag the lens, wheel or +/- zoom, m mirror, l lens on/off,
          [ ] lens size, arrows move the lens, and the keys above (h shows a help card with osd=true).
        """

    public init(line: String) throws(ParseError) {
        let trimmed = line.trimmingSpaces
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        guard let verb = parts.first else { throw ParseError(description: "empty command; type 'help' for the list") }
        let argument = parts.count > 1 ? parts[1].trimmingSpaces : ""
        switch verb {
        case "set":
            guard let eq = argument.firstIndex(of: "=") else {
                throw ParseError(description: "'set' needs PROP=VALUE or ELEMENT.PROP=VALUE, e.g. 'set filter=sepia'")
            }
            let target = String(argument[..<eq]).trimmingSpaces
            var value = String(argument[argument.index(after: eq)...]).trimmingSpaces
            if value.count >= 2, let f = value.first, f == "\"" || f == "'", value.last == f {
                value = String(value.dropFirst().dropLast())
            }
            let element: String?, property: String
            if let dot = target.lastIndex(of: ".") {
                element = String(target[..<dot])
                property = String(target[target.index(after: dot)...])
            } else {
                element = nil
                property = target
            }
            guard !property.isEmpty, element.map({ !$0.isEmpty }) ?? true else {
                throw ParseError(description: "\("set \(argument)".quotedForMessage): name a property, e.g. 'set filter=sepia' or 'set filtercam0.zoom=2'")
            }
            self = .set(element: element, property: property, value: value)
        case "filter":
            guard !argument.isEmpty else { throw ParseError(description: "'filter' needs a filter id, e.g. 'filter sepia'") }
            self = .filter(argument)
        case "next-filter" where argument.isEmpty: self = .nextFilter
        case "previous-filter" where argument.isEmpty: self = .previousFilter
        case "rotate" where argument.isEmpty: self = .rotate
        case "snapshot" where argument.isEmpty: self = .snapshot
        case "faces" where argument.isEmpty: self = .faces
        case "camera":
            guard !argument.isEmpty else { throw ParseError(description: "'camera' needs a camera: back, front, /dev/videoN or test:PATTERN") }
            self = .camera(argument)
        case "help" where argument.isEmpty, "?" where argument.isEmpty: self = .help
        case "quit" where argument.isEmpty, "exit" where argument.isEmpty: self = .quit
        default:
            throw ParseError(description: "unknown command \(trimmed.quotedForMessage); commands: set, filter, next-filter, previous-filter, rotate, snapshot, faces, camera, help, quit")
        }
    }

    /// The command bound to a key in a terminal, if any.
    public init?(key: Character) {
        switch key {
        case "n": self = .nextFilter
        case "p": self = .previousFilter
        case "r": self = .rotate
        case "s", " ": self = .snapshot
        case "f": self = .faces
        case "h", "?": self = .help
        case "q": self = .quit
        default: return nil
        }
    }
}

