import XCTest
@testable import FilterCore

/// What a recording says (its length on the preview, the terminal's line at its end) and
/// where its frames go in the file.
final class RecordingReportTests: XCTestCase {
    func testClockLengthAndSize() {
        XCTAssertEqual(RecordingReport.clock(0), "0:00")
        XCTAssertEqual(RecordingReport.clock(7.9), "0:07")
        XCTAssertEqual(RecordingReport.clock(723), "12:03")
        XCTAssertEqual(RecordingReport.clock(3723), "1:02:03")
        XCTAssertEqual(RecordingReport.clock(-1), "0:00")
        XCTAssertEqual(RecordingReport.length(12.44), "12.4 s")
        XCTAssertEqual(RecordingReport.length(2), "2.0 s")
        XCTAssertEqual(RecordingReport.size(900), "900 B")
        XCTAssertEqual(RecordingReport.size(811_600), "812 kB")
        XCTAssertEqual(RecordingReport.size(3_140_000), "3.1 MB")
        XCTAssertEqual(RecordingReport.size(1_230_000_000), "1.2 GB")
    }

    func testTheTerminalsLineNamesTheFileItsLengthAndSize() {
        XCTAssertEqual(RecordingReport.saved(path: "clips/recording-00000.mp4", seconds: 12.41, bytes: 3_140_000, frames: 372,
                                             dropped: 0, sound: true),
                       "recorded clips/recording-00000.mp4: 12.4 s, 3.1 MB (372 frames, with sound)")
        XCTAssertEqual(RecordingReport.saved(path: "r.mp4", seconds: 1, bytes: 52_000, frames: 1, dropped: 2, sound: false),
                       "recorded r.mp4: 1.0 s, 52 kB (1 frame, 2 dropped, no sound)")
    }

    func testTheFileStartsAtTheFirstFrame() {
        var timeline = RecordingTimeline()
        XCTAssertEqual(timeline.place(runningTime: 5_000_000_000, duration: 33_333_333), 0)
        XCTAssertEqual(timeline.place(runningTime: 5_033_333_333, duration: 33_333_333), 33_333_333)
        XCTAssertEqual(timeline.seconds, 0.066666666, accuracy: 1e-6)
        XCTAssertEqual(timeline.place(runningTime: nil, duration: 33_333_334), 66_666_666, "no timestamp: after the last")
        XCTAssertEqual(timeline.end, 100_000_000)
    }

    /// A seek back in a file (or a new segment): the file goes on after the last frame,
    /// and the frames after it keep their spacing.
    func testGoingBackInTimeContinuesTheFile() {
        var timeline = RecordingTimeline()
        _ = timeline.place(runningTime: 2_000_000_000, duration: 40_000_000)
        _ = timeline.place(runningTime: 2_040_000_000, duration: 40_000_000)
        XCTAssertEqual(timeline.place(runningTime: 0, duration: 40_000_000), 80_000_000)
        XCTAssertEqual(timeline.place(runningTime: 40_000_000, duration: 40_000_000), 120_000_000)
        XCTAssertEqual(timeline.place(runningTime: 40_000_000, duration: 40_000_000), 160_000_000, "the same time again")
    }

    /// With sound, the origin is where the recording pipeline's time began: of the frames
    /// captured before it the first opens the file at 0 and the others are left out; the
    /// rest keep their place beside the sound.
    func testAGivenOriginOpensWithTheFirstEarlierFrameAndLeavesOutTheOthers() {
        var timeline = RecordingTimeline(origin: 1_000_000_000)
        XCTAssertEqual(timeline.place(runningTime: 960_000_000, duration: 33_000_000), 0, "the picture showing when asked")
        XCTAssertNil(timeline.place(runningTime: 990_000_000, duration: 33_000_000), "later, still before the origin")
        XCTAssertEqual(timeline.place(runningTime: 1_020_000_000, duration: 33_000_000), 20_000_000)
        XCTAssertNil(timeline.place(runningTime: 1_010_000_000, duration: 33_000_000), "not before the last")
        XCTAssertEqual(timeline.end, 53_000_000)
    }
}
