/// Why a look cannot be used: the file, the line to blame where there is one, and what is
/// wrong with it (and what would be right).
public struct LookError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let reason: String

    public init(file: String, line: Int? = nil, _ reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        "look file \(file.quotedForMessage)\(line.map { " line \($0)" } ?? ""): \(reason)"
    }

    var filterError: FilterError { FilterError(description) }
}
