import FilterCore
import Glibc

extension FilterCamPlugin {
    /// Once per process, before the elements are registered: looks stored as PNG pictures
    /// become readable, and the folder of looks named by FILTERCAM_LOOKS joins the catalog
    /// (`look:NAME`). A file left out is reported on stderr, once, naming it and the line.
    public static func prepareLooks() {
        _ = looksPrepared
    }

    private static let looksPrepared: Bool = {
        LookLibrary.setImageReader { path throws(LookError) in try PNGPicture.read(path) }
        guard let value = getenv(LookFolder.environmentVariable), case let folder = String(cString: value), !folder.isEmpty else {
            return true
        }
        do throws(FilterError) {
            let added = try LookFolder.add(folder)
            for problem in added.problems + added.replaced {
                report(problem)
            }
        } catch {
            report(error.message)
        }
        return true
    }()

    /// One line on stderr (no Foundation: the elements do not link it).
    private static func report(_ problem: String) {
        let line = "filtercam: \(LookFolder.environmentVariable): \(problem)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
