import FilterCore
import FilterCamHost
import FilterCamTool

/// `filtercam filters`: the filter table, each filter's parameters, and the chain syntax.
enum FiltersCommand {
    static func run(_ arguments: [String]) -> Int32 {
        FilterCamPlugin.prepareLooks()
        var arguments = arguments
        var problems = 0
        while let i = arguments.firstIndex(of: "--looks") {
            guard i + 1 < arguments.count else {
                printError("filtercam filters --looks needs a folder of .cube files")
                return 2
            }
            do throws(FilterError) {
                let added = try LookFolder.add(arguments[i + 1])
                for problem in added.problems { printError("filtercam filters: left out: \(problem)") }
                for note in added.replaced { printError("filtercam filters: \(note)") }
                problems += added.problems.count
            } catch {
                printError("filtercam filters: \(error.message)")
                return 1
            }
            arguments.removeSubrange(i...i + 1)
        }
        let status = list(arguments)
        return status == 0 && problems > 0 ? 1 : status
    }

    private static func list(_ arguments: [String]) -> Int32 {
        // `filters [ID] --preview DIR [--picture FILE]`: ID's preview alone.
        if let at = arguments.firstIndex(of: "--preview") {
            let before = arguments[..<at]
            guard before.count <= 1, before.first?.hasPrefix("-") != true else {
                printError("filtercam filters: unexpected \(before.joined(separator: " ").quotedForMessage) before --preview; "
                           + "usage: filtercam filters [ID] --preview DIR [--picture FILE]")
                return 2
            }
            return preview(Array(arguments[(at + 1)...]), only: before.first)
        }
        if let option = arguments.first(where: { $0.hasPrefix("-") }) {
            let options = ["--preview", "--looks"]
            let hint = option == "--picture" ? " (it goes with --preview: filtercam filters --preview DIR --picture FILE)"
                : NameSuggestion.hint(for: option, among: options)
            printError("filtercam filters: unknown option \(option.quotedForMessage)\(hint); options: --preview DIR [--picture FILE], --looks DIR")
            return 2
        }
        guard arguments.count <= 1 else {
            printError("filtercam filters: one filter at a time, not \(arguments.count) (\(arguments.joined(separator: ", ")))")
            return 2
        }
        if let id = arguments.first {
            guard let d = FilterRegistry.shared.descriptor(id: id) else {
                let ids = FilterRegistry.shared.ids
                printError("filtercam filters: no filter \(id.quotedForMessage)\(FilterRegistry.shared.hint(for: id)); filters: \(ids.joined(separator: ", "))")
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
            if let element = d.elementName {
                // A colour property of the element is a number: gst-launch refused `color=#00FF00`.
                let colours = d.parameters.filter { if case .color = $0.kind { true } else { false } }.map(\.name)
                let numbers = colours.isEmpty ? "" : "; its \(colours.joined(separator: ", ")) property takes 0xAARRGGBB or 0xRRGGBB, #RRGGBB only in a chain"
                print("  element: \(element) (or filtercam filter=\(d.id))\(numbers)")
            } else {
                print("  element: filtercam filter=\(d.id)")
            }
            return 0
        }
        // One column for the ids, as wide as the longest (look:NAME ids can be long).
        let column = max(16, (FilterRegistry.shared.all.map(\.id.count).max() ?? 0) + 1)
        for d in FilterRegistry.shared.all {
            print("\(d.id.padding(toLength: column, withPad: " ", startingAt: 0)) \(d.title) — \(d.summary)")
            for p in d.parameters {
                print("    \(p.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(p.rangeDescription): \(p.summary)")
            }
        }
        print("")
        print(FilterChain.syntaxHelp)
        return 0
    }

    /// `--preview DIR [--picture FILE]`: the previews from FILE, by default the photo
    /// shipped with FilterCam (`docs/filters/photo.jpg`, installed as `preview-photo.jpg`).
    private static func preview(_ arguments: [String], only id: String?) -> Int32 {
        if let id, FilterRegistry.shared.descriptor(id: id) == nil {
            printError("filtercam filters: no filter \(id.quotedForMessage)\(FilterRegistry.shared.hint(for: id)); filters: \(FilterRegistry.shared.ids.joined(separator: ", "))")
            return 1
        }
        var folder: String?, picture: String?
        var i = 0
        while i < arguments.count {
            if arguments[i] == "--picture", i + 1 < arguments.count {
                picture = arguments[i + 1]
                i += 2
            } else if !arguments[i].hasPrefix("-") && folder == nil {
                folder = arguments[i]
                i += 1
            } else {
                printError("filtercam filters --preview: unexpected \(arguments[i].quotedForMessage); usage: filtercam filters [ID] --preview DIR [--picture FILE]")
                return 2
            }
        }
        guard let folder else {
            printError("filtercam filters --preview needs a folder: filtercam filters --preview DIR [--picture FILE]")
            return 2
        }
        guard let photo = picture ?? PipelineLookup.shippedFile(package: "docs/filters/photo.jpg", installed: "preview-photo.jpg") else {
            printError("filtercam filters --preview: the shipped photo (docs/filters/photo.jpg) is not found; give one with --picture FILE")
            return 1
        }
        do {
            let written = try FilterPreview.write(to: folder, picture: photo, only: id)
            if written.isEmpty, let id {   // `lut` with no look to show it with
                printError("filtercam filters --preview: \(id) changes nothing without a look (.cube file), and no look is in the catalog")
                return 1
            }
            for path in written { print(path) }
            return 0
        } catch {
            printError("filtercam filters --preview: \(error)")
            return 1
        }
    }
}
