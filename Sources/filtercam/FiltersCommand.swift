import FilterCore
import FilterCamHost
import FilterCamTool

/// `filtercam filters`: the filter table, each filter's parameters, and the chain syntax.
enum FiltersCommand {
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "--preview" {
            guard arguments.count >= 2 else {
                printError("filtercam filters --preview needs a folder")
                return 2
            }
            do {
                let written = try FilterPreview.write(to: arguments[1])
                for path in written { print(path) }
                return 0
            } catch {
                printError("filtercam filters --preview: \(error)")
                return 1
            }
        }
        if let id = arguments.first {
            guard let d = FilterRegistry.shared.descriptor(id: id) else {
                let ids = FilterRegistry.shared.ids
                printError("filtercam filters: no filter \(id.quotedForMessage)\(NameSuggestion.hint(for: id, among: ids)); filters: \(ids.joined(separator: ", "))")
                return 1
            }
            print("\(d.id) — \(d.title)\n  \(d.summary)")
            for p in d.parameters {
                print("    \(p.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(p.rangeDescription): \(p.summary)")
            }
            if let tolerance = d.yuvTolerance {
                print("  YUV (\(YUVFormat.names)): on the planes natively; against the RGB result through videoconvert: \(tolerance)")
            } else {
                print("  YUV: RGB frames only, no YUV path (fc\(d.id) offers RGB caps; put videoconvert in front of YUV sources)")
            }
            print("  element: fc\(d.id) (or filtercam filter=\(d.id))")
            return 0
        }
        for d in FilterRegistry.shared.all {
            print("\(d.id.padding(toLength: 16, withPad: " ", startingAt: 0)) \(d.title) — \(d.summary)")
            for p in d.parameters {
                print("    \(p.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(p.rangeDescription): \(p.summary)")
            }
        }
        print("")
        print(FilterChain.syntaxHelp)
        return 0
    }
}
