import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation

/// `filtercam`: launches pipelines with FilterCam's elements, describes them, and
/// measures them against GStreamer's own.
let usage = CommandHelp.overview

StandardStreams.reopenClosed()   // before anything opens a file
// Before GStreamer starts (it may rewrite its registry): a full disk or a file-size limit
// is an error from write(), not a kill, and so is a reader gone (`… | tee log` after Ctrl-C).
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
LaunchCommand.installSignalHandlers()

// Swift turns bytes that are not UTF-8 into U+FFFD: a file would be written under another
// name, an existing folder said missing. GStreamer takes names and values as UTF-8 text.
if let (index, word) = NotUTF8.firstArgument() {
    FileHandle.standardError.write("filtercam: argument \(index) is not UTF-8 text (\(word)): names and values go to GStreamer as UTF-8\n")
    exit(2)
}
var arguments = Array(CommandLine.arguments.dropFirst())
// No command is a usage error, as for gst-launch-1.0 and git: the usage, on stderr, and 2,
// so that `filtercam $CMD` with an empty variable fails in a script.
guard !arguments.isEmpty else {
    FileHandle.standardError.write("filtercam: name a command\n\(usage)\n")
    exit(2)
}
let command = arguments.removeFirst()
arguments = OptionWords.normalized(arguments, command: command)
/// The commands, for the messages that name them.
let commands = ["launch", "serve", "inspect", "filters", "devices", "bench", "version", "help"]
let status: Int32
if CommandHelp.isAsked(in: arguments), let help = CommandHelp.text(for: command) {
    print(help)
    exit(StandardStreams.finish(status: 0))
}
ShippedLooks.useByDefault()
switch command {
case "launch": status = LaunchCommand.run(arguments)
case "serve": status = ServeCommand.run(arguments)
case "inspect": status = InspectCommand.run(arguments)
case "filters": status = FiltersCommand.run(arguments)
case "devices": status = DevicesCommand.run(arguments)
case "bench": status = BenchCommand.run(arguments)
case "help" where arguments.count == 1:   // `filtercam help launch`, as `git help commit`
    if let help = CommandHelp.text(for: arguments[0]) {
        print(help)
        status = 0
    } else {
        FileHandle.standardError.write("filtercam help: no command \(arguments[0].quotedForMessage)\(NameSuggestion.hint(for: arguments[0], among: commands)); commands: \(commands.joined(separator: ", "))\n")
        status = 2
    }
case "--help" where arguments.count == 1, "-h" where arguments.count == 1:   // (a `where` binds one pattern)
    // `filtercam -h launch`, as `filtercam help launch`.
    if let help = CommandHelp.text(for: arguments[0]) {
        print(help)
        status = 0
    } else {
        FileHandle.standardError.write("filtercam \(command): no command \(arguments[0].quotedForMessage); commands: \(commands.joined(separator: ", "))\n")
        status = 2
    }
case "--version", "version", "help", "--help", "-h":
    if let extra = arguments.first {   // nothing is left unread without a word
        FileHandle.standardError.write(command == "help"
            ? "filtercam help takes one command at most (filtercam help launch), not \(arguments.joined(separator: " ").quotedForMessage)\n"
            : "filtercam \(command) takes no arguments, not \(extra.quotedForMessage)\n")
        status = 2
    } else {
        print(command.hasSuffix("version") ? "filtercam \(FilterCamPlugin.version) (GStreamer \(GStreamer.versionString))" : usage)
        status = 0
    }
default:
    // `filtercam record` for `filtercam launch record`: a shipped pipeline's name.
    let hint = PipelineLookup.file(named: command) != nil
        ? " (to run the shipped \(command).pipeline: filtercam launch \(command))"
        : NameSuggestion.hint(for: command, among: commands)
    FileHandle.standardError.write("filtercam: unknown command \(command.quotedForMessage)\(hint)\n\(usage)\n")
    status = 2
}
exit(StandardStreams.finish(status: status))
