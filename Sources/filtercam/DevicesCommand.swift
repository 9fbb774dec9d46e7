import FilterCamHost
import FilterCamTool
import Foundation

/// `filtercam devices`: every camera GStreamer's device monitor finds, with its formats and
/// V4L2 controls (and the filtercamsrc property driving each), or "no camera found" (not an
/// error: the listing is complete, and empty).
enum DevicesCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.isEmpty else {
            printError("filtercam devices: no arguments expected (got \(arguments.joined(separator: " ")))")
            return 2
        }
        let devices = CameraDirectory.list()
        guard !devices.isEmpty else {
            print("no camera found: GStreamer's device monitor lists no V4L2 camera (a Video/Source device with a /dev/video path; filtercamsrc will show its test picture)")
            return 0
        }
        print(CameraDirectory.report(devices, controls: CameraDirectory.controls(of:)), terminator: "")
        return 0
    }
}
