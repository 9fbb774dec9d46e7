/// Options as getopt_long takes them: `--port=8554` as `--port 8554` (only `launch
/// --messages=FILE` took the `=` form, every other option refused it as unknown), and `--`
/// ending the options of every command (`inspect -- filtercam` took `--` for an element).
enum OptionWords {
    /// The options of each command that take a value.
    static let takingAValue: [String: Set<String>] = [
        "serve": ["--port", "--address", "--path", "--auth", "--auth-file", "--tls-cert", "--tls-key", "--web-port"],
        "bench": ["--json", "--runs", "--sizes", "--only"],
        "filters": ["--looks", "--preview", "--picture"],
    ]

    /// Commands whose words after the options are names, not a pipeline: `--` is dropped.
    static let endingOptions: Set<String> = ["inspect", "filters", "bench", "devices", "version"]

    static func normalized(_ arguments: [String], command: String) -> [String] {
        let options = takingAValue[command] ?? []
        var words: [String] = []
        for (index, word) in arguments.enumerated() {
            if word == "--" {
                // The rest is as given (serve keeps its `--`: it reads it as gst-launch-1.0 does).
                if !endingOptions.contains(command) { words.append(word) }
                return words + arguments[(index + 1)...]
            }
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "="), options.contains(String(word[..<equals])) {
                words += [String(word[..<equals]), String(word[word.index(after: equals)...])]
            } else {
                words.append(word)
            }
        }
        return words
    }
}
