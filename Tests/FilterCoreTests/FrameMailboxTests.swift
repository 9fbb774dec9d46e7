import XCTest
import Foundation
@testable import FilterCore

/// The hand-over between the streaming thread and the worker, alone: live frames wait up to
/// a bound (the oldest dropped past it, counted), stop and flush wake the worker, no wake-up is lost, and every item
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

    func testLiveFramesThatArriveTogetherAllWaitInOrder() {
        // A videorate duplicate right behind its original, a decoder's burst: nothing is lost.
        let owner = Box(), box = owner.mailbox
        box.start()
        for f in 1...3 { XCTAssertNil(box.put(frame: UInt64(f), live: true).dropped) }
        XCTAssertEqual(box.framesWaiting, 3)
        XCTAssertEqual(box.droppedCount, 0)
        XCTAssertEqual((1...3).map { _ in pts(of: try! XCTUnwrap(box.next()).0) }, [1, 2, 3])
        XCTAssertEqual(box.framesWaiting, 0)
        box.stop()
    }

    func testLiveFrameOverTheBoundDropsTheOldestAndIsCounted() {
        let owner = Box(), box = owner.mailbox
        box.start()
        for f in 1...3 { _ = box.put(frame: UInt64(f), live: true) }
        let fourth = box.put(frame: 4, live: true)
        XCTAssertTrue(fourth.accepted)
        XCTAssertEqual(fourth.dropped, 1, "the oldest waiting frame is handed back to be reported")
        XCTAssertEqual(box.put(frame: 5, live: true).dropped, 2)
        XCTAssertEqual(box.droppedCount, 2)
        XCTAssertEqual((1...3).map { _ in pts(of: try! XCTUnwrap(box.next()).0) }, [3, 4, 5])
        XCTAssertTrue(owner.releasedFrames.isEmpty, "dropped frames are the caller's to release, not released twice")
        box.stop()
    }

    func testABurstTheSourceAnnouncedAllWaitsThenTheBoundHolds() {
        // A source whose latency covers six frames may hand them over at once: all are kept.
        let owner = Box(), box = owner.mailbox
        box.start()
        for f in 1...6 { XCTAssertNil(box.put(frame: UInt64(f), live: true, burst: 6).dropped) }
        XCTAssertEqual(box.put(frame: 7, live: true, burst: 6).dropped, 1, "past the burst the oldest goes")
        XCTAssertEqual(box.put(frame: 8, live: true, burst: 2).dropped, 2, "a burst under the bound leaves the bound")
        XCTAssertEqual(box.droppedCount, 2)
        box.stop()
    }

    func testTheBoundIsTheMailboxs() {
        let released = Locked<Int>(0)
        let box = FrameMailbox<UInt64, String>(maxWaitingFrames: 1) { _ in released.withLock { $0 += 1 } }
        box.start()
        _ = box.put(frame: 1, live: true)
        XCTAssertEqual(box.put(frame: 2, live: true).dropped, 1, "with room for one, the newest wins")
        XCTAssertEqual(pts(of: try! XCTUnwrap(box.next()).0), 2)
        box.stop()
    }

    func testEventsKeepTheirPlaceInStreamOrder() {
        let owner = Box(), box = owner.mailbox
        box.start()
        _ = box.put(frame: 1, live: true)
        box.put(.endOfStream)
        box.put(.event("tag"))
        _ = box.put(frame: 2, live: true)
        let items = (1...4).map { _ in try! XCTUnwrap(box.next()).0 }
        XCTAssertEqual(pts(of: items[0]), 1)
        if case .endOfStream = items[1] {} else { XCTFail("EOS second, got \(items[1])") }
        if case .event("tag") = items[2] {} else { XCTFail("the tag third, got \(items[2])") }
        XCTAssertEqual(pts(of: items[3]), 2)
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
