/// `filtercam bench`: see Sources/FilterCamHost/Bench.
enum BenchCommand {
    static func run(_ arguments: [String]) -> Int32 {
        printError("filtercam bench: not built yet")
        return 1
    }
}
