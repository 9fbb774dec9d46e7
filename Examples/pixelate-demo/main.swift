import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation
import PixelateExample

// An application that links FilterCam and adds its own filter: one registration line
// makes `pixelate` usable in chains and as the element `fcpixelate`.
//
//     swift run pixelate-demo                       # a test picture, pixelated, in a window
//     swift run pixelate-demo 'videotestsrc num-buffers=60 ! fcpixelate block=4 ! fakesink'
FilterCamPlugin.register(filter: PixelateFilter.descriptor)

/// Says `message` on stderr and ends with `status`: a mistake is a line to read, not a crash.
func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
    print("""
        usage: pixelate-demo [DESCRIPTION]
          Runs a GStreamer pipeline description in which fcpixelate (and every FilterCam
          element) can be used; without one, a pixelated test picture in a window.
          e.g. pixelate-demo 'videotestsrc num-buffers=60 ! fcpixelate block=4 ! fakesink'
        """)
    exit(0)
}
let description = arguments.isEmpty
    ? "videotestsrc is-live=true ! videoconvert ! fcpixelate block=16 ! videoconvert ! autovideosink"
    : arguments.joined(separator: " ")
if let problem = DisplayCheck.problem(with: description, command: "pixelate-demo", pipelineFiles: false) {
    fail(problem)
}
let pipeline: Pipeline
do {
    pipeline = try Pipeline(description: description)
} catch {
    let hint = (error as? Pipeline.ParseError)?.linkHint.map { "\n  hint: " + $0 } ?? ""
    fail("pixelate-demo: \(error)\(hint)")
}
let session = PipelineSession(pipeline: pipeline)
exit(session.run() == .error ? 1 : 0)
