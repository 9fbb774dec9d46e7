import FilterCamHost
import FilterCamTool

/// `filtercam inspect [ELEMENT]`: like gst-inspect-1.0, default `filtercam`.
enum InspectCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let name = arguments.first ?? "filtercam"
        guard arguments.count <= 1 else {
            printError("filtercam inspect: one element at a time, not \(arguments.count) (\(arguments.joined(separator: ", ")))")
            return 2
        }
        do {
            print(try Inspector.describe(factory: name))
            return 0
        } catch {
            printError("filtercam inspect: \(error)")
            return 1
        }
    }
}
