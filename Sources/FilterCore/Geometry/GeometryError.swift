/// An invalid geometry setting (e.g. a `lens` string), with a message that names the
/// value and the rule it broke.
public struct GeometryError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
