import FilterCamTool
import Foundation

/// `filtercam COMMAND --help` (or `-h`): each command's usage, on stdout, exit 0, the
/// same way for every command (main.swift asks here before running one).
enum CommandHelp {
    /// `filtercam --help`: every command with every option it takes, and the variables
    /// read from the environment (a test keeps each command's options listed here).
    static let overview = """
        usage: filtercam COMMAND [OPTIONS] [ARGUMENTS]
        (filtercam help COMMAND, or COMMAND --help: that command's own usage)

          launch [--messages[=FILE]] [--audio] [--verbose] FILE|NAME|DESCRIPTION
              run a pipeline file, a shipped pipeline by name (preview, record,
              snapshot, …: launch --help lists them) or a gst-launch description;
              keys and commands typed in the terminal drive it. --messages: element
              messages as JSON lines on stdout (=FILE: into a file); --audio:
              recordings from the preview take sound; --verbose: errors name the
              C source location too
          serve [--port N] [--address ADDR] [--path /PATH] [--web] [--web-port N]
                [--upnp] [--auth USER:PASSWORD | --auth-file FILE | --no-auth]
                [--tls-cert PEM --tls-key PEM] [--always-on] FILE|NAME|DESCRIPTION
              serve the filtered picture over RTSP (port 8554; this machine only
              unless a password is given), and with --web to browsers
          inspect [ELEMENT]
              an element's pads, properties and signals (filtercam by default)
          filters [--looks DIR]… [ID] [--preview DIR [--picture FILE]]
              the filter catalog, one filter, or one preview PNG per filter into DIR
          devices
              cameras with their formats and controls
          bench [--json FILE] [--sizes WxH,…] [--only NAME…] [--runs N]
              speed beside GStreamer's own elements (release build)
          help, --help, -h      this text
          version, --version    filtercam's and GStreamer's versions

        environment:
          FILTERCAM_LOOKS=DIR        the .cube looks in DIR join the catalog as
                                     look:NAME (unset: the shipped looks; empty: none)
          FILTERCAM_SERVE_AUTH=USER:PASSWORD   serve's password, kept out of `ps`
          GST_DEBUG=filtercam:5      GStreamer's debug log (also fc, filtercamsrc)
          GST_PLUGIN_PATH=DIR        where stock GStreamer tools find the plugin
          and a pipeline file's own variables (FILTER=mono, DEVICE=front, …)
        """

    static func text(for command: String) -> String? {
        switch command {
        case "launch":
            return """
                usage: filtercam launch [OPTIONS] FILE|NAME|DESCRIPTION
                  FILE               a pipeline file: gst-launch syntax over lines, with
                                     # comments and ${VAR:-default} variables
                  NAME               a shipped pipeline by name (listed below)
                  DESCRIPTION        a gst-launch description, e.g.
                                     'videotestsrc ! filtercam filter=sepia ! autovideosink'
                  --messages[=FILE]  element messages as JSON lines on stdout (or into FILE)
                  --audio            recordings from the preview (v, 'record') take sound
                                     from the default microphone
                  --verbose          errors and warnings also name the C source location

                shipped pipelines (variables with their defaults):
                \(ShippedPipelines.listing())

                \(LiveCommand.helpText)
                """
        case "serve":
            return ServeCommand.usage
        case "inspect":
            return """
                usage: filtercam inspect [ELEMENT]
                  the element's pads, properties (with their ranges, defaults and flags) and
                  signals, as gst-inspect-1.0 shows them; ELEMENT defaults to filtercam
                  (fcsepia, filtercamsrc, or any element)
                """
        case "filters":
            return """
                usage: filtercam filters [--looks DIR]… [ID] [--preview DIR [--picture FILE]]
                  the filter catalog with each filter's parameters and the chain syntax
                  ID              one filter
                  --preview DIR   one PNG per filter (with ID: that filter's) into DIR, made
                                  from the photo FilterCam ships (a face and colours);
                                  lut's shows the look teal-orange
                  --picture FILE  … or from FILE (any picture GStreamer decodes)
                  --looks DIR     every .cube file in DIR joins the catalog as look:NAME
                                  (FILTERCAM_LOOKS=DIR does the same for every command
                                  and the elements; unset, the shipped looks are in,
                                  FILTERCAM_LOOKS= leaves them out)
                """
        case "devices":
            return """
                usage: filtercam devices
                  cameras (device monitor "Video/Source"): path, name, formats, controls
                """
        case "bench":
            return """
                usage: filtercam bench [--json FILE] [--sizes WxH,…] [--only NAME…] [--runs N]
                  FilterCam's speed beside the GStreamer element doing the same job, as
                  ratios: FilterCam's fps over the other side's (above 1: faster; wall
                  clock, and FilterCam splits a large frame over every core where the
                  stock element uses one: FILTERCAM_THREADS=1 measures it on one), and for
                  the end-to-end rows (e2e-…, only when named) FilterCam's CPU over the
                  stock pipeline's (below 1: cheaper). Each row names both sides under it.
                  Run it from a release build, in the repository's folder (the face and
                  look rows use its fixtures and looks/).
                  --json FILE      the rows as JSON into FILE
                  --sizes WxH,…    the frame sizes to measure (default 640x480,1280x720,
                                   1920x1080; some rows run at their own sizes only)
                  --only NAME…     only the named cases (a wrong name lists them all)
                  --runs N         runs per case, the median shown (default 5)
                """
        case "version":
            return "usage: filtercam version\n  prints FilterCam's version and the GStreamer version it runs on"
        case "help":
            return overview
        default:
            return nil
        }
    }

    /// Whether the arguments ask for help rather than for the command.
    static func isAsked(in arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }
}
