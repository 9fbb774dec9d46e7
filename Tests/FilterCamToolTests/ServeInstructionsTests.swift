import FilterCamTestSupport
import FilterCamTool
import Foundation
import XCTest

/// What `filtercam serve` tells the person who starts it, so a friend can open the stream.
final class ServeInstructionsTests: XCTestCase {
    func testAWildcardAddressPrintsTheMachinesOwnAddresses() throws {
        // The machine's IPv4 addresses as `hostname -I` (Debian's hostname package) lists them.
        let listed = try runProcess("/usr/bin/env", ["hostname", "-I"], timeout: 10).stdoutText
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && !$0.contains(":") && !$0.hasPrefix("127.") }
        let lines = ServeInstructions.lines(scheme: "rtsp", address: "0.0.0.0", port: 8554, path: "/filtercam", user: nil)
        let text = lines.joined(separator: "\n")
        XCTAssertFalse(text.contains("0.0.0.0"), "nobody can open 0.0.0.0: \(text)")
        if listed.isEmpty {
            XCTAssertEqual(lines.first, "serving rtsp://127.0.0.1:8554/filtercam", text)
        }
        for address in listed {
            XCTAssertTrue(lines.contains("serving rtsp://\(address):8554/filtercam"), "\(address) missing: \(text)")
        }
    }

    func testAPasswordIsGivenInTheURLOrToRtspsrc() {
        let lines = ServeInstructions.lines(scheme: "rtsps", address: "127.0.0.1", port: 9000, path: "/cam", user: "alice")
        XCTAssertEqual(lines[0], "serving rtsps://127.0.0.1:9000/cam")
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("ffplay rtsps://alice:PASSWORD@127.0.0.1:9000/cam"), text)
        XCTAssertTrue(text.contains("rtspsrc location=rtsps://127.0.0.1:9000/cam user-id=alice user-pw=PASSWORD"), text)
        XCTAssertFalse(text.contains("secret"), "the real password is never printed")
        XCTAssertTrue(text.contains("tls-validation-flags=0"), "rtspsrc refuses a self-signed certificate without it")
        let plain = ServeInstructions.lines(scheme: "rtsp", address: "127.0.0.1", port: 9000, path: "/cam", user: "alice")
        XCTAssertFalse(plain.joined().contains("tls-validation-flags"), "no TLS, no word on certificates")
        // Without a password the printed playbin command failed on a self-signed certificate
        // and nothing said why.
        let open = ServeInstructions.lines(scheme: "rtsps", address: "127.0.0.1", port: 9000, path: "/cam", user: nil).joined(separator: "\n")
        XCTAssertTrue(open.contains("rtspsrc location=rtsps://127.0.0.1:9000/cam tls-validation-flags=0"), open)
    }

    func testAnExplicitAddressIsUsedAsGivenAndIPv6IsBracketed() {
        XCTAssertEqual(ServeInstructions.lines(scheme: "rtsp", address: "::1", port: 8554, path: "/f", user: nil)[0],
                       "serving rtsp://[::1]:8554/f")
        XCTAssertEqual(ServeInstructions.hostsToOpen(for: "192.0.2.7"), ["192.0.2.7"])
    }
}
