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
            case "--json": jsonPath = value()
            case "--runs": bench.runs = Int(value() ?? "") ?? bench.runs
            case "--sizes":
                let parsed = (value() ?? "").split(separator: ",").compactMap { s -> (Int, Int)? in
                    let p = s.split(separator: "x").compactMap { Int($0) }
                    return p.count == 2 && p[0] > 0 && p[1] > 0 ? (p[0], p[1]) : nil
                }
                guard !parsed.isEmpty else {
                    printError("filtercam bench: --sizes takes WxH[,WxH…], e.g. 640x480,1920x1080")
                    return 2
                }
                bench.sizes = parsed
            case "--only":
                while i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") {
                    i += 1
                    bench.only.formUnion(arguments[i].split(separator: ",").map(String.init))
                }
            default:
                printError("filtercam bench: unknown option \(arguments[i].quotedForMessage); options: --json FILE, --sizes WxH,…, --only NAME…, --runs N")
                return 2
            }
            i += 1
        }
        let results = bench.runAll()
        print("")
        print(Bench.table(results))
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(results).write(to: URL(fileURLWithPath: jsonPath))
            } catch {
                printError("filtercam bench: cannot write '\(jsonPath)': \(error)")
                return 1
            }
        }
        return results.isEmpty ? 1 : 0
    }
}
