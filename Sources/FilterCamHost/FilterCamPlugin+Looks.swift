import FilterCore
import Foundation

extension FilterCamPlugin {
    /// Once per process, before the elements are registered: looks stored as PNG pictures
    /// become readable, and the folder of looks named by FILTERCAM_LOOKS joins the catalog
    /// (`look:NAME`). A file left out is reported on stderr, once, naming it and the line.
    public static func prepareLooks() {
        _ = looksPrepared
    }

    private static let looksPrepared: Bool = {
        LookLibrary.setImageReader { path throws(LookError) in try PNGPicture.read(path) }
        guard let folder = ProcessInfo.processInfo.environment[LookFolder.environmentVariable], !folder.isEmpty else { return true }
        do throws(FilterError) {
            for problem in try LookFolder.add(folder).problems {
                FileHandle.standardError.write(Data("filtercam: \(LookFolder.environmentVariable): \(problem)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("filtercam: \(LookFolder.environmentVariable): \(error.message)\n".utf8))
        }
        return true
    }()
}
