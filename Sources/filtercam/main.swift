import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation

/// `filtercam`: launches pipelines with FilterCam's elements, describes them, and
/// measures them against GStreamer's own.
let usage = CommandHelp.overview

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
let status: Int32
if CommandHelp.isAsked(in: arguments), let help = CommandHelp.text(for: command) {
    print(help)
    exit(0)
}
ShippedLooks.useByDefault()
switch command {
case "launch": status = LaunchCommand.run(arguments)
case "serve": status = ServeCommand.run(arguments)
case "inspect": status = InspectCommand.run(arguments)
case "filters": status = FiltersCommand.run(arguments)
case "devices": status = DevicesCommand.run(arguments)
case "bench": status = BenchCommand.run(arguments)
case "--version", "version", "help", "--help", "-h":
    if let extra = arguments.first {   // nothing is left unread without a word
        FileHandle.standardError.write("filtercam \(command) takes no arguments, not \(extra.quotedForMessage)\n")
        status = 2
    } else {
        print(command.hasSuffix("version") ? "filtercam \(FilterCamPlugin.version) (GStreamer \(GStreamer.versionString))" : usage)
        status = 0
    }
default:
    let commands = ["launch", "serve", "inspect", "filters", "devices", "bench", "version", "help"]
    // `filtercam record` for `filtercam launch record`: a shipped pipeline's name.
    let hint = PipelineLookup.file(named: command) != nil
        ? " (to run the shipped \(command).pipeline: filtercam launch \(command))"
        : NameSuggestion.hint(for: command, among: commands)
    FileHandle.standardError.write("filtercam: unknown command \(command.quotedForMessage)\(hint)\n\(usage)\n")
    status = 2
}
exit(status)
