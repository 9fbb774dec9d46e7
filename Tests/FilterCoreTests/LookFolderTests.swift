import FilterCore
import Foundation
import XCTest

/// A folder of `.cube` files as catalog entries: the names they get, and what is said when
/// two files give one name or a file takes the name of an earlier look.
final class LookFolderTests: XCTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    /// A folder holding a copy of a shipped look under each of `names`.
    private func folder(_ names: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("looks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        let look = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/looks/cool-film.cube"))
        for name in names { try look.write(to: folder.appendingPathComponent(name)) }
        return folder.path
    }

    func testNamesKeepLettersOfAnyScriptAndHiddenFilesAreNoLooks() throws {
        let registry = FilterRegistry(registeringBuiltIns: true)
        let added = try LookFolder.add(try folder(["Café,Noir.cube", "日本.cube", ".cube", ".hidden.cube", "Teal Orange.cube"]), to: registry)
        XCTAssertEqual(added.ids, ["look:café-noir", "look:teal-orange", "look:日本"])
        XCTAssertEqual(added.problems, [])
        XCTAssertNotNil(registry.descriptor(id: "look:日本"))
    }

    /// Looks come in the order of their names (upper-case file names came first, by their
    /// bytes), and lower-casing İ leaves no combining dot in a name (it gave `i̇stanbul`,
    /// which `look:istanbul` did not match); a decomposed é equals the é a user types.
    func testNamesAreSortedAsShownAndCarryNoMarksAUserCannotType() throws {
        let registry = FilterRegistry(registeringBuiltIns: true)
        let added = try LookFolder.add(try folder(["Zebra.cube", "İstanbul.cube", "apple.cube", "My Look.cube", "Cafe\u{301}.cube"]), to: registry)
        XCTAssertEqual(added.ids, ["look:apple", "look:caf\u{E9}", "look:istanbul", "look:my-look", "look:zebra"])
        XCTAssertEqual(Array(added.ids[2].unicodeScalars), Array("look:istanbul".unicodeScalars))
        XCTAssertEqual(added.problems, [])
    }

    /// A name in Latin-1 (from an old archive) makes no path a String can hold: it is left
    /// out saying so (it was "cannot be read: No such file or directory"), the others load.
    func testAFileWhoseNameIsNotUTF8IsLeftOutSayingWhy() throws {
        let path = try folder(["good.cube"])
        let latin1 = Array(path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".cube".utf8) + [0]
        let fd = latin1.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let added = try LookFolder.add(path, to: FilterRegistry(registeringBuiltIns: true))
        XCTAssertEqual(added.ids, ["look:good"])
        XCTAssertEqual(added.problems.count, 1, "\(added.problems)")
        XCTAssertTrue(added.problems[0].contains("its name is not UTF-8") && added.problems[0].contains("rename it"), added.problems[0])
    }

    func testTwoFilesGivingOneNameLeaveTheSecondOutAndSaySo() throws {
        let registry = FilterRegistry(registeringBuiltIns: true)
        let added = try LookFolder.add(try folder(["A-B.cube", "a b.cube", "a=b.cube"]), to: registry)
        XCTAssertEqual(added.ids, ["look:a-b"])
        XCTAssertEqual(added.problems, ["'a b.cube': its look name look:a-b is taken by 'A-B.cube' (rename one of them)",
                                        "'a=b.cube': its look name look:a-b is taken by 'A-B.cube' (rename one of them)"])
        XCTAssertTrue(registry.descriptor(id: "look:a-b")?.summary.contains("A-B.cube") ?? false)
    }

    func testALookFromAnotherFolderReplacingAnEarlierOneIsSaidOnce() throws {
        let registry = FilterRegistry(registeringBuiltIns: true)
        let first = try folder(["warm.cube"]), second = try folder(["Warm.cube"])
        XCTAssertEqual(try LookFolder.add(first, to: registry).replaced, [])
        XCTAssertEqual(try LookFolder.add(first, to: registry).replaced, [], "the same folder again replaces nothing")
        let again = try LookFolder.add(second, to: registry)
        XCTAssertEqual(again.replaced, ["look:warm is now '\(second)/Warm.cube', in place of '\(first)/warm.cube'"])
        XCTAssertTrue(registry.descriptor(id: "look:warm")?.summary.contains("Warm.cube") ?? false)
    }
}
