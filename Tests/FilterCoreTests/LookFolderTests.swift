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
