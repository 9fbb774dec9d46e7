import FilterCamTestSupport
@testable import FilterCamTool
import XCTest

/// The bench's closing table says what its numbers are: the end-to-end rows are CPU
/// seconds (lower is better) and sat under "fps" headers, rounded to tenths, with 0.0 and
/// a ratio of 0.00 for "no stock element"; nothing said which way a ratio points.
final class BenchTableTests: XCTestCase {
    func testFrameRateAndCPURowsGetTablesOfTheirOwnThatSayWhatTheRatioMeans() {
        let table = Bench.table([
            Bench.Result(name: "i420-mono", size: "640x480", fps_filtercam: 2000, fps_native: 500, ratio: 4, runs: 3),
            Bench.Result(name: "e2e-i420-mono", size: "640x480", fps_filtercam: 0.16, fps_native: 0.09, ratio: 0.16 / 0.09, runs: 3),
            Bench.Result(name: "e2e-yuy2-lens-sepia-x264", size: "640x480", fps_filtercam: 0.31, fps_native: 0, ratio: 0, runs: 3),
        ])
        let lines = table.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, [
            "ratio: FilterCam fps over native fps (above 1: FilterCam faster); the native side of each row is named under it above",
            "| name | size | FilterCam fps | native fps | ratio |",
            "|---|---|---:|---:|---:|",
            "| i420-mono | 640x480 | 2000.0 | 500.0 | 4.00 |",
            "ratio: FilterCam's CPU over the stock pipeline's (below 1: FilterCam cheaper); whole-process CPU for 300 frames",
            "| name | size | FilterCam CPU s | stock CPU s | ratio |",
            "|---|---|---:|---:|---:|",
            "| e2e-i420-mono | 640x480 | 0.16 | 0.09 | 1.78 |",
            "| e2e-yuy2-lens-sepia-x264 | 640x480 | 0.31 | no stock element | - |",
        ])
    }

    /// `--only` takes the rows a grouped case prints (they were refused as unknown), and
    /// nothing that only starts like one.
    func testOnlyTakesTheRowsOfGroupedCases() throws {
        let names = Bench.selectableNames
        for (row, group) in Bench.groupedRows {
            XCTAssertTrue(names.contains(group), group)
            XCTAssertFalse(names.contains(row), row)
        }
        let refused = try runCLI(["bench", "--only", "latency-3"])
        XCTAssertEqual(refused.status, 2, refused.summary)
        XCTAssertTrue(refused.stderr.contains("no case is called 'latency-3' (did you mean \"latency\"?)"), refused.stderr)
    }
}
