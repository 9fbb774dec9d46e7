import XCTest
import Foundation
@testable import FilterCore

/// The hand-over between the streaming thread and the worker, alone: newest frame wins,
/// drops are counted, stop and flush wake the worker, no wake-up is lost, and every item
/// the mailbox drops is released exactly once.
final class FrameMailboxTests: XCTestCase {
    /// Frames are numbers; events are strings. `released` records what the mailbox let go.
    final class Box {
        let released = Locked<[FrameMailbox<UInt64, String>.Item]>([])
        lazy var mailbox = FrameMailbox<UInt64, String> { [released] item in released.withLock { $0.append(item) } }
        var releasedFrames: [UInt64] { released.withLock { $0.compactMap { if case .frame(let f) = $0 { return f }; return nil } } }
    }

    func pts(of item: FrameMailbox<UInt64, String>.Item) -> UInt64? {
        guard case .frame(let f) = item else { return nil }
        return f
    }

    func testLiveNewestFrameWinsAndDropsAreCounted() {
        let owner = Box(), box = owner.mailbox
        box.start()
        XCTAssertNil(box.put(frame: 1, live: true).replaced)
        let second = box.put(frame: 2, live: true)
        XCTAssertTrue(second.accepted)
        XCTAssertEqual(second.replaced, 1, "the waiting frame is handed back to be reported")
        _ = box.put(frame: 3, live: true)
        XCTAssertEqual(box.droppedCount, 2)
        let (item, _) = try! XCTUnwrap(box.next())
        XCTAssertEqual(pts(of: item), 3)
        box.stop()
    }

    func testEventsKeepTheirPlaceInStreamOrder() {
        let owner = Box(), box = owner.mailbox
        box.start()
        _ = box.put(frame: 1, live: true)
        box.put(.endOfStream)
        _ = box.put(frame: 2, live: true)   // replaces 1, EOS stays
        let first = try! XCTUnwrap(box.next()).0
        let second = try! XCTUnwrap(box.next()).0
        if case .endOfStream = first {} else { XCTFail("EOS first, got \(first)") }
        XCTAssertEqual(pts(of: second), 2)
        box.stop()
    }

    func testNonLiveProducerWaitsInsteadOfDropping() {
        let owner = Box(), box = owner.mailbox
        box.start()
        _ = box.put(frame: 1, live: false)
        let putDone = expectation(description: "second put returns once the worker took the first")
        DispatchQueue.global().async {
            _ = box.put(frame: 2, live: false)
            putDone.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(pts(of: try! XCTUnwrap(box.next()).0), 1)
        wait(for: [putDone], timeout: 5)
        XCTAssertEqual(pts(of: try! XCTUnwrap(box.next()).0), 2)
        XCTAssertEqual(box.droppedCount, 0)
        box.stop()
    }

    func testStopWakesAWaitingWorker() {
        let owner = Box(), box = owner.mailbox
        box.start()
        let woke = expectation(description: "next() returns nil after stop")
        DispatchQueue.global().async {
            XCTAssertNil(box.next())
            woke.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.05)
        box.stop()
        wait(for: [woke], timeout: 5)
    }

    func testFlushEmptiesAndMakesTakenFramesStale() {
        let owner = Box(), box = owner.mailbox
        box.start()
        _ = box.put(frame: 1, live: true)
        let (item, generation) = try! XCTUnwrap(box.next())
        _ = pts(of: item)
        XCTAssertTrue(box.isCurrent(generation))
        _ = box.put(frame: 2, live: true)
        box.setFlushing(true)
        XCTAssertFalse(box.put(frame: 3, live: true).accepted, "refused while flushing")
        XCTAssertEqual(owner.releasedFrames, [2, 3], "the flushed frame and the refused one are released")
        box.setFlushing(false)
        XCTAssertFalse(box.isCurrent(generation), "a frame taken before the flush is stale")
        _ = box.put(frame: 4, live: true)
        XCTAssertEqual(pts(of: try! XCTUnwrap(box.next()).0), 4, "frame 2 was flushed")
        box.stop()
    }

    func testNoLostWakeUpBetweenTwoThreads() {
        // A producer puts 20 000 frames (non-live: each must arrive); the worker takes them.
        let owner = Box(), box = owner.mailbox
        box.start()
        let count = 20_000
        DispatchQueue.global().async {
            for i in 1...count { _ = box.put(frame: UInt64(i), live: false) }
            box.put(.endOfStream)
        }
        var received: [UInt64] = []
        while let (item, _) = box.next() {
            if case .endOfStream = item { break }
            received.append(pts(of: item)!)
        }
        XCTAssertEqual(received, Array(1...UInt64(count)))
        box.stop()
    }

    func testStopReleasesWhatWaits() {
        let owner = Box(), box = owner.mailbox
        box.start()
        _ = box.put(frame: 7, live: true)
        box.put(.event("tag"))
        box.stop()
        XCTAssertEqual(owner.releasedFrames, [7])
        XCTAssertEqual(owner.released.withLock { $0.count }, 2, "the frame and the event")
        XCTAssertFalse(box.put(frame: 8, live: true).accepted, "a stopped mailbox takes nothing")
        XCTAssertEqual(owner.releasedFrames, [7, 8])
    }
}
