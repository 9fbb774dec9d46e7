import XCTest
import FilterCore

/// Device orientation → transform, as SquareCam turns the camera picture upright.
final class GeometryDeviceOrientationTests: XCTestCase {
    func testNicksAndOrder() {
        // The order is the GObject enum's: index 0 (unknown) is the property's default.
        XCTAssertEqual(DeviceOrientation.allCases.map(\.nick),
                       ["unknown", "portrait", "portrait-upside-down", "landscape-left", "landscape-right",
                        "face-up", "face-down"])
        XCTAssertEqual(CameraFacing.allCases.map(\.nick), ["back", "front"])
        XCTAssertEqual(DeviceOrientation(nick: "face-up"), .faceUp)
        XCTAssertNil(DeviceOrientation(nick: "faceUp"))
        XCTAssertEqual(CameraFacing(nick: "front"), .front)
    }

    func testTableEveryRow() {
        let expected: [(DeviceOrientation, CameraFacing, OrientationMethod)] = [
            (.landscapeLeft, .back, .identity), (.landscapeRight, .back, .rotate180),
            (.portrait, .back, .rotate90R), (.portraitUpsideDown, .back, .rotate90L),
            (.landscapeLeft, .front, .horizontal), (.landscapeRight, .front, .vertical),
            (.portrait, .front, .upperLeftDiagonal), (.portraitUpsideDown, .front, .upperRightDiagonal),
        ]
        XCTAssertEqual(DeviceOrientationTracker.table.count, expected.count)
        for (o, f, m) in expected {
            XCTAssertEqual(DeviceOrientationTracker.method(for: o, facing: f), m, "\(o) \(f)")
            var tracker = DeviceOrientationTracker()
            tracker.update(o)
            XCTAssertEqual(tracker.method(facing: f), m, "\(o) \(f)")
        }
        for row in DeviceOrientationTracker.table where row.facing == .front {
            let back = DeviceOrientationTracker.method(for: row.orientation, facing: .back)!
            XCTAssertEqual(row.method, back.then(.horizontal), "front = back, then mirrored: \(row.orientation)")
        }
        for o in [DeviceOrientation.unknown, .faceUp, .faceDown] {
            XCTAssertNil(DeviceOrientationTracker.method(for: o, facing: .back))
        }
    }

    func testFrontCameraPictureIsTheBackPictureMirrored() {
        // Pixels: the front camera's output is the back camera's output mirrored left/right.
        let input = Words.distinct(width: 5, height: 3)
        for row in DeviceOrientationTracker.table where row.facing == .back {
            let front = DeviceOrientationTracker.method(for: row.orientation, facing: .front)!
            XCTAssertEqual(input.reference(front), input.reference(row.method).reference(.horizontal))
        }
    }

    func testLastKnownOrientationIsKept() {
        var t = DeviceOrientationTracker()
        XCTAssertEqual(t.current, .unknown)
        XCTAssertNil(t.lastKnown)
        XCTAssertEqual(t.method(facing: .back), .identity, "nothing known yet: the picture as it comes")
        XCTAssertEqual(t.method(facing: .front), .horizontal, "nothing known yet: the front camera still mirrors")
        t.update(.faceUp)
        XCTAssertEqual(t.method(facing: .back), .identity)
        t.update(.portrait)
        XCTAssertEqual(t.method(facing: .back), .rotate90R)
        for o in [DeviceOrientation.faceUp, .faceDown, .unknown] {
            t.update(o)
            XCTAssertEqual(t.current, o)
            XCTAssertEqual(t.lastKnown, .portrait)
            XCTAssertEqual(t.method(facing: .back), .rotate90R, "\(o) keeps portrait")
            XCTAssertEqual(t.method(facing: .front), .upperLeftDiagonal)
        }
        t.update(.landscapeRight)
        XCTAssertEqual(t.method(facing: .back), .rotate180)
        t.update(.faceDown)
        XCTAssertEqual(t.method(facing: .back), .rotate180)
    }
}
