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

let description = CommandLine.arguments.dropFirst().joined(separator: " ")
let pipeline = try Pipeline(description: description.isEmpty
    ? "videotestsrc is-live=true ! videoconvert ! fcpixelate block=16 ! videoconvert ! autovideosink"
    : description)
let session = PipelineSession(pipeline: pipeline)
exit(session.run() == .error ? 1 : 0)
