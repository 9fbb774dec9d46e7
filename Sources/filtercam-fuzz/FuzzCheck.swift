/// A property every input must keep. A broken one stops the program (libFuzzer saves the
/// input as a crash file; replay names the file).
enum FuzzCheck {
    nonisolated(unsafe) static var currentInput = "(libFuzzer input)"

    static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() {
            fatalError("check failed for \(currentInput): \(message())")
        }
    }

    /// A refusal must say what is wrong: a message of a few words at least.
    static func requireMessage(_ text: String, refusing input: String) {
        require(text.count >= 8 && !text.contains("\u{0}"), "refusal of \(input.debugDescription) has no useful message: \(text.debugDescription)")
    }
}
