import FilterCamTool
import Foundation

/// A variable the user set for a pipeline file that does not read it (`LENS=… launch
/// record` when record.pipeline had no lens) would otherwise be ignored without a word.
enum UnreadVariables {
    /// A note per variable that is set, that some shipped pipeline reads, and that this
    /// file does not: it names the file and what the file does read.
    static func notes(for file: PipelineFile, named path: String,
                      environment: [String: String] = ProcessInfo.processInfo.environment,
                      vocabulary: Set<String> = ShippedPipelines.allVariables()) -> [String] {
        let read = Set(file.variablesRead)
        let unread = vocabulary.subtracting(read).filter { environment[$0] != nil }.sorted()
        guard !unread.isEmpty else { return [] }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let reads = file.variablesRead.isEmpty ? "it reads no variable" : "it reads " + file.variablesRead.joined(separator: ", ")
        return unread.map { "note: \($0) is set, but \(name) does not read it (\(reads))" }
    }
}
