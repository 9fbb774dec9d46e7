import FilterCamHost
import FilterCamTool
import Foundation

/// `filtercam`: launches pipelines with FilterCam's elements, describes them, and
/// measures them against GStreamer's own.
let usage = """
    usage: filtercam COMMAND [ARGS]
      launch [--messages[=FILE]] FILE|DESCRIPTION   run a pipeline file or a gst-launch description
      serve [OPTIONS] FILE|DESCRIPTION             serve the filtered picture over RTSP (filtercam serve --help)
      inspect [ELEMENT]                            properties of filtercam (or another element)
      filters [--looks DIR] [ID] [--preview DIR]   the filter catalog (or one filter) and the chain syntax
      devices                                      cameras with their formats and controls
      bench [--json FILE] [--sizes WxH,…] [--only NAME…]   speed against native GStreamer elements
      help, --version                              this text; the version
    """

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
let status: Int32
if CommandHelp.isAsked(in: arguments), let help = CommandHelp.text(for: command) {
    print(help)
    exit(0)
}
switch command {
case "launch": status = LaunchCommand.run(arguments)
case "serve": status = ServeCommand.run(arguments)
case "inspect": status = InspectCommand.run(arguments)
case "filters": status = FiltersCommand.run(arguments)
case "devices": status = DevicesCommand.run(arguments)
case "bench": status = BenchCommand.run(arguments)
case "--version", "version":
    print("filtercam \(FilterCamPlugin.version) (GStreamer \(GStreamer.versionString))")
    status = 0
case "help", "--help", "-h":
    print(usage)
    status = 0
default:
    FileHandle.standardError.write("filtercam: unknown command \(command.quotedForMessage)\n\(usage)\n")
    status = 2
}
exit(status)
