import XCTest
import Foundation
@testable import FilterCore

/// The one hand-over between threads, alone: each policy's answer when the queue is full,
/// items it does not bound, the consumer thread it starts and joins, flushes and clears,
/// and every item it lets go released exactly once.
final class WorkQueueTests: XCTestCase {
    /// A queue of numbers; `released` records what it let go of.
    final class Recorder: Sendable {
        let released = Locked<[Int]>([])
        func queue(_ policy: WorkQueuePolicy, counts: @escaping @Sendable (Int) -> Bool = { _ in true }) -> WorkQueue<Int> {
            WorkQueue(policy: policy, counts: counts) { [released] item in released.withLock { $0.append(item) } }
        }
        var all: [Int] { released.withLock { $0 } }
    }

    private func take(_ queue: WorkQueue<Int>, _ n: Int) -> [Int] {
        (0..<n).compactMap { _ in
            guard let (item, _) = queue.next(waiting: false) else { return nil }
            queue.done()
            return item
        }
    }

    func testNewestWinsReplacesTheWaitingItemAndCountsIt() {
        let recorder = Recorder(), queue = recorder.queue(.newestWins)
        queue.start()
        XCTAssertNil(queue.put(1).dropped)
        let second = queue.put(2)
        XCTAssertTrue(second.accepted)
        XCTAssertEqual(second.dropped, 1, "the replaced item goes back to the caller")
        XCTAssertEqual(queue.put(3).dropped, 2)
        XCTAssertEqual(queue.droppedCount, 2)
        XCTAssertEqual(take(queue, 2), [3])
        XCTAssertEqual(recorder.all, [], "replaced items are the caller's, not released")
        queue.stop()
    }

    func testFIFOKeepsOrderAndRefusesPastItsLimit() {
        let recorder = Recorder(), queue = recorder.queue(.fifo(limit: 2, whenFull: .refuse))
        queue.start()
        XCTAssertTrue(queue.put(1).accepted)
        XCTAssertTrue(queue.put(2).accepted)
        XCTAssertFalse(queue.put(3).accepted)
        XCTAssertEqual(recorder.all, [3], "the refused item is released")
        XCTAssertEqual(queue.droppedCount, 0, "a refusal is not a drop")
        XCTAssertEqual(take(queue, 3), [1, 2])
        queue.stop()
    }

    func testAPolicyGivenToPutOverridesTheQueues() {
        let recorder = Recorder(), queue = recorder.queue(.fifo(limit: 3, whenFull: .refuse))
        queue.start()
        queue.put(1)
        XCTAssertEqual(queue.put(2, policy: .newestWins).dropped, 1)
        XCTAssertEqual(take(queue, 2), [2])
        queue.stop()
    }

    /// A wait for room bounded in time: past it the oldest waiting item makes room, as
    /// `.dropOldest` would (a mailbox of on-time frames behind a stalled branch waited
    /// for good).
    func testAWaitForRoomBoundedInTimeDropsTheOldestAfterIt() {
        let recorder = Recorder(), queue = recorder.queue(.fifo(limit: 1, whenFull: .wait))
        queue.start()
        queue.put(1)
        let put = queue.put(2, waitingAtMost: 0.05)
        XCTAssertTrue(put.accepted)
        XCTAssertEqual(put.dropped, 1)
        XCTAssertEqual(take(queue, 2), [2])
        queue.stop()
    }

    func testItemsThatDoNotCountAreNeverBounded() {
        // Odd numbers are "events": never counted, never dropped.
        let recorder = Recorder(), queue = recorder.queue(.newestWins, counts: { $0 % 2 == 0 })
        queue.start()
        queue.put(2)
        queue.put(1)
        queue.put(3)
        XCTAssertEqual(queue.waiting, 1, "only counted items wait against the limit")
        XCTAssertEqual(queue.put(4).dropped, 2)
        XCTAssertEqual(take(queue, 4), [1, 3, 4])
        queue.stop()
    }

    func testAProducerWaitingForRoomGoesOnOnceAnItemIsTaken() {
        let recorder = Recorder(), queue = recorder.queue(.fifo(limit: 1, whenFull: .wait))
        queue.start()
        queue.put(1)
        let returned = expectation(description: "the second put returns once the first item is taken")
        DispatchQueue.global().async {
            XCTAssertTrue(queue.put(2).accepted)
            returned.fulfill()
        }
        XCTAssertEqual(queue.next()?.item, 1)
        wait(for: [returned], timeout: 10)
        XCTAssertEqual(queue.next()?.item, 2)
        XCTAssertEqual(recorder.all, [])
        queue.stop()
    }

    func testFlushAndClearMakeTakenItemsStale() {
        let recorder = Recorder(), queue = recorder.queue(.fifo(limit: 4, whenFull: .refuse))
        queue.start()
        queue.put(1)
        let (_, generation) = try! XCTUnwrap(queue.next())
        XCTAssertTrue(queue.isCurrent(generation))
        queue.put(2)
        queue.setFlushing(true)
        XCTAssertFalse(queue.put(3).accepted, "refused while flushing")
        queue.setFlushing(false)
        XCTAssertFalse(queue.isCurrent(generation))
        XCTAssertEqual(recorder.all, [2, 3])
        queue.put(4)
        let (_, later) = try! XCTUnwrap(queue.next())
        queue.clear()
        XCTAssertFalse(queue.isCurrent(later), "clear makes taken items stale too")
        XCTAssertTrue(queue.put(5).accepted, "but takes new ones at once")
        queue.stop()
        XCTAssertEqual(recorder.all, [2, 3, 5])
    }

    func testTheConsumerThreadStartsWithTheFirstItemAndStopJoinsIt() {
        let recorder = Recorder(), queue = recorder.queue(.fifo(limit: 100, whenFull: .refuse))
        let seen = Locked<[Int]>([]), ended = Locked(false), started = Locked(false)
        queue.start(thread: "test-consumer") {
            started.withLock { $0 = true }
            while let (item, _) = queue.next() {
                seen.withLock { $0.append(item) }
                queue.done()
            }
            ended.withLock { $0 = true }
        }
        XCTAssertFalse(started.withLock { $0 }, "no thread before there is work")
        for i in 1...50 { queue.put(i) }
        XCTAssertTrue(queue.waitUntilIdle(timeout: 10))
        XCTAssertEqual(seen.withLock { $0 }, Array(1...50))
        queue.stop()
        XCTAssertTrue(ended.withLock { $0 }, "stop returns after the consumer has ended")
        XCTAssertFalse(queue.put(51).accepted, "a stopped queue takes nothing")
        XCTAssertEqual(recorder.all, [51])
    }

    func testStopReleasesWhatWaitsAndAQueueStartsAgain() {
        let recorder = Recorder(), queue = recorder.queue(.fifo(limit: 4, whenFull: .refuse))
        queue.start()
        queue.put(1)
        queue.put(2)
        queue.stop()
        XCTAssertEqual(recorder.all, [1, 2])
        XCTAssertNil(queue.next(), "a closed queue hands out nothing")
        queue.start()
        queue.put(3)
        XCTAssertEqual(take(queue, 1), [3])
        queue.stop()
    }

    func testIdleWaitsForItemsInProgress() {
        let recorder = Recorder(), queue = recorder.queue(.newestWins)
        queue.start()
        queue.put(1)
        _ = queue.next()
        XCTAssertFalse(queue.waitUntilIdle(timeout: 0.01), "an item taken and not done")
        queue.done()
        XCTAssertTrue(queue.waitUntilIdle(timeout: 10))
        queue.stop()
    }
}
