import FilterCore
import FilterCamHost
import FilterCamTool
import Foundation

/// `filtercam bench [--json FILE] [--sizes WxH,…] [--only NAME…] [--runs N]`
enum BenchCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var bench = Bench()
        var jsonPath: String? = nil
        var i = 0
        func value() -> String? {
            i += 1
            return i < arguments.count ? arguments[i] : nil
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--json":
                guard let path = value() else { return refuse("--json takes the FILE to write the rows into") }
                // Found out now, not after minutes of measuring.
                if let problem = unwritable(path) { return refuse("cannot write '\(path)': \(problem)") }
                jsonPath = path
            case "--runs":
                let text = value()
                guard let runs = text.flatMap({ Int($0) }), runs >= 1 else {
                    return refuse("--runs takes a whole number of runs from 1 up\(text.map { ", not \($0.quotedForMessage)" } ?? "")")
                }
                bench.runs = runs
            case "--sizes":
                guard let text = value() else { return refuse("--sizes takes WxH[,WxH…], e.g. 640x480,1920x1080") }
                var sizes: [(Int, Int)] = []
                for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
                    let p = entry.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
                    guard p.count == 2, let w = p[0], let h = p[1], (1...16384).contains(w), (1...16384).contains(h) else {
                        return refuse("--sizes: \(String(entry).quotedForMessage) is not a size; sizes are WxH, each from 1 to 16384, e.g. 640x480,1920x1080")
                    }
                    sizes.append((w, h))
                }
                bench.sizes = sizes
            case "--only":
                let names = Bench.selectableNames
                var given: [String] = []
                while i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") {
                    i += 1
                    given += arguments[i].split(separator: ",").map(String.init)
                }
                guard !given.isEmpty else { return refuse("--only takes one or more of: \(names.joined(separator: ", "))") }
                // A row a grouped case prints (latency-30fps, faces-live-all) names its case:
                // the rows of a group run together. They were refused as unknown.
                given = given.map { Bench.groupedRows[$0] ?? $0 }
                for name in given where !names.contains(name) {
                    return refuse("--only: no case is called \(name.quotedForMessage)\(NameSuggestion.hint(for: name, among: names)); "
                                  + "the cases: \(names.joined(separator: ", "))")
                }
                bench.only.formUnion(given)
            default:
                return refuse("unknown option \(arguments[i].quotedForMessage); options: --json FILE, --sizes WxH,…, --only NAME…, --runs N")
            }
            i += 1
        }
        BenchInterruption.install()   // Ctrl-C leaves no stills or runs behind
        let results = bench.runAll()
        BenchInterruption.waitForInterruption()
        print("")
        print(Bench.table(results))
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = (try? encoder.encode(results)) ?? Data()
            if let problem = writeWhole(data, to: jsonPath) {
                printError("filtercam bench: cannot write '\(jsonPath)': \(problem)")
                return 1
            }
        }
        if results.isEmpty {
            // An empty table alone said nothing (faces-live out of the repository's folder).
            printError("filtercam bench: nothing was measured: the cases asked for were skipped (said above) or do not run here: "
                       + "the face and look rows need the repository's folder, some rows run at their own sizes only")
            return 1
        }
        return 0
    }

    private static func refuse(_ message: String) -> Int32 {
        printError("filtercam bench: " + message)
        return 2
    }

    /// Why `path` cannot be written, or nil: tried by opening it for writing (a file made
    /// by the try is removed again), so it holds for root and odd file systems as well.
    /// Writes `data` to a temporary file beside `path`, then renames it over `path`: on a
    /// full disk the JSON file was left empty (and an earlier one lost) under Foundation's
    /// "There isn't enough space"; now the reason is the system's and nothing is left.
    private static func writeWhole(_ data: Data, to path: String) -> String? {
        let temporary = path + ".partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return unwritable(path) ?? String(cString: strerror(errno)) }
        var problem = data.withUnsafeBytes { WholeWrite.write($0, to: fd) }.error.map { String(cString: strerror($0)) }
        if problem == nil && fsync(fd) != 0 { problem = String(cString: strerror(errno)) }
        close(fd)
        if problem == nil && rename(temporary, path) != 0 { problem = String(cString: strerror(errno)) }
        if problem != nil { unlink(temporary) }
        return problem
    }

    private static func unwritable(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        let existed = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if existed, isFolder.boolValue { return "it is a folder" }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !(FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue) {
            return "there is no folder '\(folder)'"
        }
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        close(fd)
        if !existed { unlink(path) }
        return nil
    }
}
