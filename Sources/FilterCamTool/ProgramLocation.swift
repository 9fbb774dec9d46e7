import Foundation

/// Where the running `filtercam` binary is, to find the files shipped beside it (pipelines,
/// the preview photo, the plugin in a build folder). `CommandLine.arguments[0]` is only
/// "filtercam" when the program was found on PATH, so the kernel's own link to the running
/// executable comes first.
public enum ProgramLocation {
    /// The folder holding the binary, symlinks resolved.
    public static var folder: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
