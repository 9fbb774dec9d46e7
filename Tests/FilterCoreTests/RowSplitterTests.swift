@testable import FilterCore
import Foundation
import XCTest

/// How the splitter shares a frame's rows, and `withOneThread`, which keeps a live
/// stream's short frames on the worker thread.
final class RowSplitterTests: XCTestCase {
    private let rows = 480, columns = 640   // large enough to split

    /// The ranges `run` hands to its body, and whether each ran on the calling thread.
    private func ranges(oneThread: Bool, splitter: RowSplitter = .shared) -> [(rows: Range<Int>, onCaller: Bool)] {
        let seen = Locked<[(rows: Range<Int>, onCaller: Bool)]>([])
        let caller = pthread_self()
        RowSplitter.withOneThread(oneThread) {
            splitter.run(rows: rows, columns: columns) { range in
                let here = pthread_equal(pthread_self(), caller) != 0
                seen.withLock { $0.append((range, here)) }
            }
        }
        return seen.withLock { $0 }.sorted { $0.rows.lowerBound < $1.rows.lowerBound }
    }

    /// The split parts (the helpers may be busy with another thread's frame, which then
    /// runs whole: a few tries).
    private func split(_ splitter: RowSplitter = .shared) -> [(rows: Range<Int>, onCaller: Bool)] {
        var parts = ranges(oneThread: false, splitter: splitter)
        for _ in 0..<100 where parts.count == 1 { parts = ranges(oneThread: false, splitter: splitter) }
        return parts
    }

    func testTheSplitterIsAsWideAsTheMachine() {
        XCTAssertEqual(RowSplitter.shared.width, ProcessInfo.processInfo.activeProcessorCount)
    }

    func testALargeFrameIsSplitInTwoHalvesOnTwoProcessors() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["FILTERCAM_THREADS"] == "1", "splitting is turned off")
        let parts = split(RowSplitter(width: 2))
        XCTAssertEqual(parts.map(\.rows), [0..<240, 240..<480])
        XCTAssertEqual(parts.first?.onCaller, true, "the caller does the top half")
    }

    func testFourProcessorsSplitAFrameInFourParts() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["FILTERCAM_THREADS"] == "1", "splitting is turned off")
        let parts = split(RowSplitter(width: 4))
        XCTAssertEqual(parts.map(\.rows), [0..<120, 120..<240, 240..<360, 360..<480])
        XCTAssertEqual(parts.first?.onCaller, true, "the caller does the first part")
    }

    func testBandsCoverEveryRowOnceInBandsOfTheAskedHeight() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["FILTERCAM_THREADS"] == "1", "splitting is turned off")
        let splitter = RowSplitter(width: 2)
        var bands: [Range<Int>] = []
        for _ in 0..<100 where bands.count <= 1 {   // the helper may be busy with another frame
            let seen = Locked<[Range<Int>]>([])
            splitter.run(rows: rows, columns: columns, bandsOf: 16) { range in seen.withLock { $0.append(range) } }
            bands = seen.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
        }
        XCTAssertEqual(bands, (0..<30).map { $0 * 16..<$0 * 16 + 16 })
    }

    func testWithOneThreadKeepsEveryRowOnTheCallingThread() {
        let parts = ranges(oneThread: true)
        XCTAssertEqual(parts.map(\.rows), [0..<480])
        XCTAssertEqual(parts.map(\.onCaller), [true])
        // The setting ends with the block: the next frame may split again.
        if ProcessInfo.processInfo.environment["FILTERCAM_THREADS"] != "1" && RowSplitter.shared.width > 1 {
            XCTAssertEqual(split().count, RowSplitter.shared.width)
        }
    }
}
