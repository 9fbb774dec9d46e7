import XCTest
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool

/// The hand-over between the streaming thread and the worker, alone: newest frame wins,
/// drops are counted, stop and flush wake the worker, and no wake-up is lost.
final class FrameMailboxTests: XCTestCase {
    override class func setUp() {
        GStreamer.initialize()
    }

    /// A sample whose buffer carries `pts`, to tell frames apart.
    func sample(_ pts: UInt64) -> OpaquePointer {
        let buffer = gst_buffer_new()!
        buffer.pointee.pts = GstClockTime(pts)
        let s = gst_sample_new(buffer, nil, nil, nil)!
        gst_buffer_unref(buffer)
        return s
    }

    func pts(of item: FrameMailbox.Item) -> UInt64? {
        guard case .sample(let s) = item else { return nil }
        defer { gst_sample_unref(s) }
        return UInt64(gst_sample_get_buffer(s)!.pointee.pts)
    }

    func testLiveNewestFrameWinsAndDropsAreCounted() {
        let box = FrameMailbox()
        box.start()
        XCTAssertNil(box.put(sample: sample(1), live: true).replaced)
        let second = box.put(sample: sample(2), live: true)
        XCTAssertTrue(second.accepted)
        let replaced = try! XCTUnwrap(second.replaced)
        XCTAssertEqual(gst_sample_get_buffer(replaced)!.pointee.pts, 1)
        gst_sample_unref(replaced)
        _ = box.put(sample: sample(3), live: true).replaced.map { gst_sample_unref($0) }
        XCTAssertEqual(box.droppedCount, 2)
        let (item, _) = try! XCTUnwrap(box.next())
        XCTAssertEqual(pts(of: item), 3)
        box.stop()
    }

    func testEventsKeepTheirPlaceInStreamOrder() {
        let box = FrameMailbox()
        box.start()
        _ = box.put(sample: sample(1), live: true)
        box.put(.endOfStream)
        _ = box.put(sample: sample(2), live: true).replaced.map { gst_sample_unref($0) }   // replaces 1, EOS stays
        let first = try! XCTUnwrap(box.next()).0
        let second = try! XCTUnwrap(box.next()).0
        if case .endOfStream = first {} else { XCTFail("EOS first, got \(first)") }
        XCTAssertEqual(pts(of: second), 2)
        box.stop()
    }

    func testNonLiveProducerWaitsInsteadOfDropping() {
        let box = FrameMailbox()
        box.start()
        _ = box.put(sample: sample(1), live: false)
        let putDone = expectation(description: "second put returns once the worker took the first")
        DispatchQueue.global().async {
            _ = box.put(sample: self.sample(2), live: false)
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
        let box = FrameMailbox()
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
        let box = FrameMailbox()
        box.start()
        _ = box.put(sample: sample(1), live: true)
        let (item, generation) = try! XCTUnwrap(box.next())
        _ = pts(of: item)
        XCTAssertTrue(box.isCurrent(generation))
        _ = box.put(sample: sample(2), live: true)
        box.setFlushing(true)
        XCTAssertFalse(box.put(sample: sample(3), live: true).accepted, "refused while flushing")
        box.setFlushing(false)
        XCTAssertFalse(box.isCurrent(generation), "a frame taken before the flush is stale")
        _ = box.put(sample: sample(4), live: true)
        XCTAssertEqual(pts(of: try! XCTUnwrap(box.next()).0), 4, "frame 2 was flushed")
        box.stop()
    }

    func testNoLostWakeUpBetweenTwoThreads() {
        // A producer puts 20 000 frames (non-live: each must arrive); the worker takes them.
        let box = FrameMailbox()
        box.start()
        let count = 20_000
        DispatchQueue.global().async {
            for i in 1...count { _ = box.put(sample: self.sample(UInt64(i)), live: false) }
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
}
