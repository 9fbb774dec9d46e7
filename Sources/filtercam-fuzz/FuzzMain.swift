import Foundation

/// `filtercam-fuzz`: FilterCam's coverage-guided fuzz targets (see `FuzzTarget`).
///
/// Built plainly (`swift build`), it replays inputs: every file named on the command
/// line, or every file in a folder, goes through the target once; a failed check stops
/// with the input's name. Built for libFuzzer (`scripts/fuzz.sh`, which passes
/// `-sanitize=fuzzer,address -DFUZZING`), the same targets run under libFuzzer's driver
/// and every libFuzzer flag works (`-max_total_time=60`, corpus folders, ...).
///
///     filtercam-fuzz --target=chain Fuzz/corpus/chain
#if FUZZING
// SwiftPM links an executable's `main` to `<module>_main`; here that is libFuzzer's
// driver, which calls `fuzzerTestOneInput` with each input.

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("filtercam_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    let arguments = (0..<Int(argc)).compactMap { argv[$0].map { String(cString: $0) } }
    // libFuzzer ignores flags that start with `--`, so `--target=NAME` can stay in argv.
    guard let target = FuzzTarget.chosen(by: arguments) else { FuzzTarget.usage(); return 2 }
    FuzzTarget.selected = target
    target.prepare()
    var count = argc
    var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &vector, fuzzerTestOneInput)
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.selected.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
/// Replays inputs through a target: `filtercam-fuzz --target=NAME FILE_OR_FOLDER...`.
@main
enum FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments
        guard let target = FuzzTarget.chosen(by: arguments) else { FuzzTarget.usage(); exit(2) }
        target.prepare()
        exit(replay(arguments.dropFirst().filter { !$0.hasPrefix("-") }, target: target))
    }

    /// Runs every input file (folders are walked) through `target` once.
    static func replay(_ paths: [String], target: FuzzTarget) -> Int32 {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                FileHandle.standardError.write(Data("filtercam-fuzz: no such file or folder: \(path)\n".utf8))
                return 2
            }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { "\(path)/\($0)" }
            } else {
                files.append(path)
            }
        }
        for file in files {
            let data = FileManager.default.contents(atPath: file) ?? Data()
            FuzzCheck.currentInput = file
            data.withUnsafeBytes { target.run($0) }
        }
        print("filtercam-fuzz \(target.rawValue): \(files.count) inputs replayed, all checks held")
        return 0
    }
}
#endif
