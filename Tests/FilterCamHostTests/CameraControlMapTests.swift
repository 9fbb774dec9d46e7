@testable import FilterCamHost
@testable import FilterCamTool
@testable import FilterCore
import FilterCamTestSupport
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The property → V4L2 control table, names as `v4l2-ctl --list-ctrls` prints them for
/// common cameras, and the pure helpers of the camera source.
final class CameraControlMapTests: XCTestCase {
    /// A Logitech C920-like UVC camera as v4l2-ctl lists it (kernel ≥ 5.16 names).
    static let uvc: [String: V4L2ControlInfo] = {
        let list = [
            V4L2ControlInfo(name: "brightness", minimum: 0, maximum: 255, defaultValue: 128),
            V4L2ControlInfo(name: "contrast", minimum: 0, maximum: 255, defaultValue: 128),
            V4L2ControlInfo(name: "white_balance_automatic", kind: .boolean, minimum: 0, maximum: 1, defaultValue: 1),
            V4L2ControlInfo(name: "gain", minimum: 0, maximum: 255, defaultValue: 0),
            V4L2ControlInfo(name: "white_balance_temperature", minimum: 2000, maximum: 6500, defaultValue: 4000),
            V4L2ControlInfo(name: "auto_exposure", kind: .menu, minimum: 0, maximum: 3, defaultValue: 3,
                            menuNames: [1: "Manual Mode", 3: "Aperture Priority Mode"]),
            V4L2ControlInfo(name: "exposure_time_absolute", minimum: 3, maximum: 2047, defaultValue: 250),
            V4L2ControlInfo(name: "exposure_dynamic_framerate", kind: .boolean, minimum: 0, maximum: 1, defaultValue: 0),
            V4L2ControlInfo(name: "focus_absolute", minimum: 0, maximum: 250, step: 5, defaultValue: 0),
            V4L2ControlInfo(name: "focus_automatic_continuous", kind: .boolean, minimum: 0, maximum: 1, defaultValue: 1),
            V4L2ControlInfo(name: "zoom_absolute", minimum: 100, maximum: 500, defaultValue: 100),
            V4L2ControlInfo(name: "led1_mode", kind: .menu, minimum: 0, maximum: 3, defaultValue: 3),
        ]
        return Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0) })
    }()

    /// The same camera under kernels before 5.16 (old UVC names).
    static let oldUVC: [String: V4L2ControlInfo] = {
        let renames = ["focus_automatic_continuous": "focus_auto", "auto_exposure": "exposure_auto",
                       "exposure_time_absolute": "exposure_absolute", "exposure_dynamic_framerate": "exposure_auto_priority",
                       "white_balance_automatic": "white_balance_temperature_auto"]
        var out: [String: V4L2ControlInfo] = [:]
        for (name, var c) in uvc {
            c.name = renames[name] ?? name
            out[c.name] = c
        }
        return out
    }()

    /// A sensor driver with V4L2 camera/flash class controls (phone-like).
    static let sensor: [String: V4L2ControlInfo] = {
        let list = [
            V4L2ControlInfo(name: "led_mode", kind: .menu, minimum: 0, maximum: 2, defaultValue: 0),
            V4L2ControlInfo(name: "focus_automatic_continuous", kind: .boolean, minimum: 0, maximum: 1, defaultValue: 0),
            V4L2ControlInfo(name: "auto_focus_start", kind: .button, minimum: 0, maximum: 0),
            V4L2ControlInfo(name: "focus_absolute", minimum: 0, maximum: 1023, defaultValue: 0),
            V4L2ControlInfo(name: "iso_sensitivity", kind: .integerMenu, minimum: 0, maximum: 3,
                            menuValues: [0: 100, 1: 200, 2: 400, 3: 800]),
            V4L2ControlInfo(name: "iso_sensitivity_auto", kind: .menu, minimum: 0, maximum: 1, defaultValue: 1),
            V4L2ControlInfo(name: "auto_exposure_bias", kind: .integerMenu, minimum: 0, maximum: 4, defaultValue: 2,
                            menuValues: [0: -2000, 1: -1000, 2: 0, 3: 1000, 4: 2000]),
            V4L2ControlInfo(name: "red_balance", minimum: 0, maximum: 1000, defaultValue: 500),
            V4L2ControlInfo(name: "blue_balance", minimum: 0, maximum: 1000, defaultValue: 500),
            V4L2ControlInfo(name: "auto_n_preset_white_balance", kind: .menu, minimum: 0, maximum: 9, defaultValue: 1),
            V4L2ControlInfo(name: "white_balance_temperature", minimum: 2500, maximum: 9000, defaultValue: 5000),
        ]
        return Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0) })
    }()

    private func writes(_ c: CameraControl, _ controls: [String: V4L2ControlInfo],
                        _ settings: CameraControlSettings = CameraControlSettings()) throws -> String {
        try V4L2ControlMap.writes(for: c, on: controls, settings: settings).map(\.description).joined(separator: " ")
    }

    func testVariableNamesAreV4L2CtlNames() {
        let cases = ["Focus, Automatic Continuous": "focus_automatic_continuous", "Focus, Auto": "focus_auto",
                     "Focus, Absolute": "focus_absolute", "Auto Exposure": "auto_exposure",
                     "Exposure Time, Absolute": "exposure_time_absolute", "Exposure (Absolute)": "exposure_absolute",
                     "Exposure, Dynamic Framerate": "exposure_dynamic_framerate",
                     "White Balance, Automatic": "white_balance_automatic",
                     "White Balance Temperature, Auto": "white_balance_temperature_auto",
                     "White Balance Temperature": "white_balance_temperature", "Zoom, Absolute": "zoom_absolute",
                     "LED1 Mode": "led1_mode", "Power Line Frequency": "power_line_frequency",
                     "Auto Focus, Start": "auto_focus_start", "ISO Sensitivity, Auto": "iso_sensitivity_auto"]
        for (kernel, v4l2ctl) in cases {
            XCTAssertEqual(V4L2ControlMap.variableName(kernel), v4l2ctl, kernel)
        }
    }

    func testUVCCamera() throws {
        let c = Self.uvc
        XCTAssertEqual(try writes(.torch(true), c), "led1_mode=1")
        XCTAssertEqual(try writes(.torch(false), c), "led1_mode=0")
        XCTAssertEqual(try writes(.focusMode(.locked), c), "focus_automatic_continuous=0")
        XCTAssertEqual(try writes(.focusMode(.continuous), c), "focus_automatic_continuous=1")
        XCTAssertEqual(try writes(.focusMode(.auto), c), "focus_automatic_continuous=1", "no one-shot: continuous")
        XCTAssertEqual(try writes(.focusPosition(0.5), c), "focus_automatic_continuous=0 focus_absolute=125")
        XCTAssertEqual(try writes(.focusPosition(0.51), c), "focus_automatic_continuous=0 focus_absolute=130", "on a step of 5")
        XCTAssertEqual(try writes(.exposureTime(10_000), c),
                       "auto_exposure=1 exposure_dynamic_framerate=0 exposure_time_absolute=100", "100 µs units, auto off first")
        XCTAssertEqual(try writes(.exposureTime(1_000_000), c),
                       "auto_exposure=1 exposure_dynamic_framerate=0 exposure_time_absolute=2047", "clamped")
        XCTAssertEqual(try writes(.exposureTime(0), c), "auto_exposure=3")
        XCTAssertEqual(try writes(.exposureTime(0), c, CameraControlSettings(exposureTime: 0, iso: 400)), "",
                       "a custom ISO keeps manual exposure")
        XCTAssertEqual(try writes(.iso(800), c), "auto_exposure=1 gain=58")
        XCTAssertEqual(try writes(.iso(0), c), "auto_exposure=3")
        XCTAssertEqual(try writes(.whiteBalance(3200), c), "white_balance_automatic=0 white_balance_temperature=3200")
        XCTAssertEqual(try writes(.whiteBalance(10_000), c), "white_balance_automatic=0 white_balance_temperature=6500")
        XCTAssertEqual(try writes(.whiteBalance(0), c), "white_balance_automatic=1")
        XCTAssertEqual(try writes(.zoom(2), c), "zoom_absolute=200")
        XCTAssertEqual(try writes(.zoom(10), c), "zoom_absolute=500")
        XCTAssertEqual(try writes(.exposureBias(2), c), "brightness=192")
        XCTAssertEqual(try writes(.exposureBias(-4), c), "brightness=0")
    }

    func testOldUVCNames() throws {
        let c = Self.oldUVC
        XCTAssertEqual(try writes(.focusPosition(1), c), "focus_auto=0 focus_absolute=250")
        XCTAssertEqual(try writes(.exposureTime(500), c), "exposure_auto=1 exposure_auto_priority=0 exposure_absolute=5")
        XCTAssertEqual(try writes(.whiteBalance(5000), c), "white_balance_temperature_auto=0 white_balance_temperature=5000")
    }

    func testSensorControls() throws {
        let c = Self.sensor
        XCTAssertEqual(try writes(.torch(true), c), "led_mode=2")
        XCTAssertEqual(try writes(.torch(false), c), "led_mode=0")
        XCTAssertEqual(try writes(.focusMode(.auto), c), "focus_automatic_continuous=0 auto_focus_start=1")
        XCTAssertEqual(try writes(.iso(640), c), "iso_sensitivity_auto=0 iso_sensitivity=3", "nearest menu item (800)")
        XCTAssertEqual(try writes(.iso(0), c), "iso_sensitivity_auto=1")
        XCTAssertEqual(try writes(.exposureBias(1), c), "auto_exposure_bias=3", "menu index of +1000 mEV")
        XCTAssertEqual(try writes(.tint(150), c), "red_balance=1000 blue_balance=1000")
        XCTAssertEqual(try writes(.tint(-75), c), "red_balance=250 blue_balance=250")
        XCTAssertEqual(try writes(.whiteBalance(4000), c), "auto_n_preset_white_balance=0 white_balance_temperature=4000")
        XCTAssertEqual(try writes(.whiteBalance(0), c), "auto_n_preset_white_balance=1")
    }

    func testMissingControlWritesNothingAndNamesCandidates() {
        XCTAssertThrowsError(try V4L2ControlMap.writes(for: .tint(20), on: Self.uvc)) { error in
            let e = error as! MissingControl
            XCTAssertEqual(e.property, "tint")
            XCTAssertTrue(e.description.contains("red_balance"), e.description)
        }
        XCTAssertThrowsError(try V4L2ControlMap.writes(for: .torch(true), on: [:])) { error in
            XCTAssertEqual("\(error)", "has no control for torch (looked for led1_mode, led_mode)")
        }
        XCTAssertThrowsError(try V4L2ControlMap.writes(for: .zoom(2), on: Self.sensor))
    }

    func testEveryPropertyHasControlNames() {
        for p in V4L2ControlMap.properties {
            XCTAssertFalse(V4L2ControlMap.controlNames[p, default: []].isEmpty, p)
        }
        XCTAssertEqual(V4L2ControlMap.property(controlling: "focus_absolute"), "focus-position")
        XCTAssertEqual(V4L2ControlMap.property(controlling: "led1_mode"), "torch")
        XCTAssertNil(V4L2ControlMap.property(controlling: "power_line_frequency"))
    }

    func testOpenErrorsGiveTheirReason() {
        XCTAssertEqual(CameraProblem(errno: EACCES), .permissionDenied)
        XCTAssertEqual(CameraProblem(errno: EPERM), .permissionDenied)
        XCTAssertTrue(CameraProblem(errno: EACCES).message(for: "/dev/video0").contains("permission denied"))
        XCTAssertTrue(CameraProblem(errno: ENOENT).message(for: "/dev/video9").contains("/dev/video9 does not exist"))
        // A node with nothing behind it (unplugged, no driver) is there: it said "does not exist".
        XCTAssertTrue(CameraProblem(errno: ENXIO).message(for: "/dev/video1").contains("/dev/video1 has no device behind it"))
        XCTAssertEqual(CameraProblem(errno: ENODEV), .noDevice)
        XCTAssertTrue(CameraProblem(errno: EBUSY).message(for: "/dev/video0").contains("busy"))
        XCTAssertTrue(CameraProblem(errno: EISDIR).message(for: "/tmp").contains("not a video device"))
        XCTAssertTrue(CameraProblem(errno: EIO).message(for: "/dev/video0").contains("Input/output error"))
    }

    func testCameraRequests() throws {
        XCTAssertEqual(try CameraRequest(parsing: "back"), .back)
        XCTAssertEqual(try CameraRequest(parsing: " front "), .front)
        XCTAssertEqual(try CameraRequest(parsing: "/dev/video2"), .path("/dev/video2"))
        XCTAssertEqual(try CameraRequest(parsing: "test:ball"), .test(pattern: "ball"))
        XCTAssertEqual(try CameraRequest(parsing: "test"), .test(pattern: "smpte"))
        // By number, as videotestsrc takes pattern=18 (it was refused).
        XCTAssertEqual(try CameraRequest(parsing: "test:18"), .test(pattern: "ball"))
        XCTAssertEqual(try CameraRequest(parsing: "test:0"), .test(pattern: "smpte"))
        XCTAssertThrowsError(try CameraRequest(parsing: "test:99"))
        XCTAssertThrowsError(try CameraRequest(parsing: "sideways"))
        XCTAssertThrowsError(try CameraRequest(parsing: "test:nonsense")) { error in
            XCTAssertTrue("\(error)".contains("smpte"), "\(error)")
        }
        XCTAssertThrowsError(try CameraRequest(parsing: "test:bal")) { error in
            XCTAssertTrue("\(error)".contains("(did you mean \"ball\"?)"), "\(error)")
        }
        // Names in any case; a near miss of one gets a "did you mean" (testers' finds).
        XCTAssertEqual(try CameraRequest(parsing: "Back"), .back)
        XCTAssertEqual(try CameraRequest(parsing: "test:SMPTE"), .test(pattern: "smpte"))
        XCTAssertEqual(try CameraRequest(parsing: "/dev/Video2"), .path("/dev/Video2"))
        for (typed, meant) in [("bak", "back"), ("fornt", "front")] {
            XCTAssertThrowsError(try CameraRequest(parsing: typed)) { error in
                XCTAssertTrue("\(error)".contains("(did you mean \"\(meant)\"?)"), "\(error)")
            }
        }
    }

    func testBackAndFrontChoice() {
        let a = CameraDevice(path: "/dev/video0", name: "Integrated Camera")
        let b = CameraDevice(path: "/dev/video2", name: "USB Camera")
        let front = CameraDevice(path: "/dev/video4", name: "Front Camera")
        let rear = CameraDevice(path: "/dev/video6", name: "imx219", card: "rear sensor")
        XCTAssertNil(CameraRequest.choose(.back, among: []))
        XCTAssertEqual(CameraRequest.choose(.back, among: [a, b])?.device, a, "first is back")
        XCTAssertEqual(CameraRequest.choose(.front, among: [a, b])?.device, b, "second is front")
        XCTAssertEqual(CameraRequest.choose(.back, among: [front, a])?.device, a, "not the one named front")
        XCTAssertEqual(CameraRequest.choose(.front, among: [a, front])?.device, front)
        XCTAssertEqual(CameraRequest.choose(.back, among: [a, rear])?.device, rear, "named by its card")
        let single = CameraRequest.choose(.front, among: [a])
        XCTAssertEqual(single?.device, a)
        XCTAssertTrue(single?.note?.contains("no front camera") ?? false)
        XCTAssertEqual(CameraRequest.choose(.back, among: [front])?.device, front, "falls back to the first")
    }

    func testModeChoice() {
        let modes = [CameraMode(width: 640, height: 480, isJPEG: true), CameraMode(width: 640, height: 480, isJPEG: false),
                     CameraMode(width: 1280, height: 720, isJPEG: true), CameraMode(width: 1920, height: 1080, isJPEG: true),
                     CameraMode(width: 320, height: 240, isJPEG: false)]
        XCTAssertEqual(CameraMode.choose(width: 640, height: 480, among: modes), CameraMode(width: 640, height: 480, isJPEG: false))
        XCTAssertEqual(CameraMode.choose(width: 1280, height: 720, among: modes), CameraMode(width: 1280, height: 720, isJPEG: true))
        XCTAssertEqual(CameraMode.choose(width: 800, height: 600, among: modes), CameraMode(width: 1280, height: 720, isJPEG: true))
        XCTAssertEqual(CameraMode.choose(width: nil, height: nil, among: modes), CameraMode(width: 1920, height: 1080, isJPEG: true))
        XCTAssertEqual(CameraMode.choose(width: 4000, height: 3000, among: modes), CameraMode(width: 1920, height: 1080, isJPEG: true))
        XCTAssertNil(CameraMode.choose(width: 640, height: 480, among: []))
    }

    func testDeviceReport() {
        let d = CameraDevice(path: "/dev/video0", name: "HD Webcam", card: "HD Webcam: HD Webcam",
                             caps: ["video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)30/1"])
        let text = CameraDirectory.report([d]) { _ in .success([Self.uvc["led1_mode"]!, Self.uvc["zoom_absolute"]!]) }
        XCTAssertTrue(text.contains("/dev/video0  HD Webcam"), text)
        XCTAssertTrue(text.contains("YUY2, width=(int)640"), text)
        XCTAssertTrue(text.contains("led1_mode (menu) min=0 max=3 default=3  -> torch"), text)
        XCTAssertTrue(text.contains("zoom_absolute (int) min=100 max=500 default=100  -> zoom"), text)
        let denied = CameraDirectory.report([d]) { _ in .failure(.permissionDenied) }
        XCTAssertTrue(denied.contains("permission denied"), denied)
    }

    func testLiveCameraCommand() throws {
        XCTAssertEqual(try LiveCommand(line: "camera front"), .camera("front"))
        XCTAssertEqual(try LiveCommand(line: "camera test:ball"), .camera("test:ball"))
        XCTAssertThrowsError(try LiveCommand(line: "camera"))
    }
}
