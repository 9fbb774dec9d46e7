import FilterCamTool
import Foundation

/// `filtercam COMMAND --help` (or `-h`): each command's usage, on stdout, exit 0, the
/// same way for every command (main.swift asks here before running one).
enum CommandHelp {
    static func text(for command: String) -> String? {
        switch command {
        case "launch":
            return """
                usage: filtercam launch [--messages[=FILE]] [--audio] [--verbose] FILE|NAME|DESCRIPTION
                  FILE         a pipeline file (gst-launch syntax over lines, # comments, ${VAR:-default})
                  NAME         a shipped pipeline file by name (pipelines/NAME.pipeline)
                  DESCRIPTION  a gst-launch description, e.g. 'videotestsrc ! filtercam filter=sepia ! autovideosink'
                  --messages   element messages as JSON lines on stdout (=FILE: into a file)
                  --audio      recordings from the preview (v, 'record') take sound from the default microphone
                  --verbose    errors and warnings also name the C source location that raised them

                shipped pipelines (variables with their defaults):
                \(ShippedPipelines.listing())

                \(LiveCommand.helpText)
                """
        case "serve":
            return ServeCommand.usage
        case "inspect":
            return """
                usage: filtercam inspect [ELEMENT]
                  the element's pads, properties (with their ranges, defaults and flags) and signals,
                  as gst-inspect-1.0 shows them; ELEMENT defaults to filtercam (fcsepia, filtercamsrc, or any element)
                """
        case "filters":
            return """
                usage: filtercam filters [--looks DIR]… [ID] [--preview DIR [--picture FILE]]
                  the filter catalog with each filter's parameters and the chain syntax;
                  ID: one filter; --preview DIR: one PNG per filter into DIR, made from the photo
                  FilterCam ships (a face and colours) or from FILE (any picture GStreamer decodes);
                  --looks DIR: every .cube file in DIR joins the catalog as look:NAME
                  (FILTERCAM_LOOKS=DIR does the same for every command and the elements)
                """
        case "devices":
            return """
                usage: filtercam devices
                  cameras (device monitor "Video/Source"): path, name, formats, controls
                """
        case "bench":
            return """
                usage: filtercam bench [--json FILE] [--sizes WxH,…] [--only NAME…] [--runs N]
                  FilterCam's speed beside the GStreamer element doing the same job, as ratios
                  (release build); --json writes the rows, --only runs the named cases
                """
        default:
            return nil
        }
    }

    /// Whether the arguments ask for help rather than for the command.
    static func isAsked(in arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }
}
