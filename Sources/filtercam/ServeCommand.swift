import CGStreamer
import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `filtercam serve [options] FILE|DESCRIPTION`: the filtered camera for many viewers over
/// RTSP, on GStreamer's own RTSP server.
///
/// The user's pipeline runs under the same session as `launch` (live commands, stills,
/// Ctrl-C, the summary) and ends in an `intervideosink`; the server's one shared media
/// reads that channel and encodes it once (H.264 constrained baseline; a key frame every
/// second), however many
/// viewers watch. The camera runs while someone watches and stops 3 s after the last
/// viewer leaves (`--always-on` keeps it running, e.g. for a recording branch).
enum ServeCommand {
    static let usage = """
        usage: filtercam serve [--port 8554] [--address 127.0.0.1] [--path /filtercam]
                               [--auth USER:PASSWORD | --auth-file FILE | --no-auth]
                               [--tls-cert PEM --tls-key PEM] [--always-on] FILE|DESCRIPTION
          The description produces raw video, e.g. 'filtercamsrc ! filtercam filter=sepia';
          serve adds the encoder and payloader and prints the URL to open.
          --auth on the command line is visible to every local user (ps); prefer --auth-file
          (mode 600) or the environment variable FILTERCAM_SERVE_AUTH=USER:PASSWORD.
        """

    struct Options {
        var configuration = RTSPServer.Configuration()
        var noAuth = false
        var alwaysOn = false
        var target: [String] = []
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            printError("filtercam serve: \(error)")
            return 2
        }
        // The user's pipeline, as `launch` reads it, into a channel the server reads.
        let target: PipelineTarget
        do {
            target = try PipelineTarget(options.target)
        } catch {
            printError("filtercam serve: \(error)")
            return 1
        }
        let (description, file) = (target.description, target.file)
        let channel = "filtercam-serve-\(getpid())"
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline(description: "\(description) ! intervideosink name=filtercam-serve-out channel=\(channel) sync=false")
        } catch {
            printError("filtercam serve: \(error)")
            if "\(error)".contains("filtercam-serve-out") || "\(error)".contains("intervideosink") {
                printError("  the description must produce raw video (video/x-raw): end it with '! videoconvert', not an encoder or a sink")
            }
            for hint in ParseHints.hints(for: "\(error)", file: file) { printError("  " + hint) }
            return 1
        }
        var configuration = options.configuration
        // SPS/PPS once a second (config-interval=1), not with each key frame (-1): through
        // rtph264depay, -1 leaves openh264dec (the decoder a player without gstreamer1.0-libav
        // picks) unable to decode a single frame; avdec_h264 takes either.
        configuration.launch = """
            ( intervideosrc channel=\(channel) ! video/x-raw,framerate=30/1 ! videoconvert ! video/x-raw,format=I420 \
            ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 bframes=0 ! video/x-h264,profile=constrained-baseline \
            ! rtph264pay name=pay0 pt=96 config-interval=1 )
            """
        let server: RTSPServer
        do {
            server = try RTSPServer(configuration)
        } catch {
            printError("filtercam serve: \(error) (address \(configuration.address), port \(configuration.port))")
            if "\(error)".contains("in use") {
                printError("  hint: something else listens on port \(configuration.port) (another server, or an earlier filtercam serve): choose another with --port N, or --port 0 for any free port")
            }
            return 1
        }
        ServeInstructions.lines(scheme: configuration.tlsCertificate == nil ? "rtsp" : "rtsps", address: configuration.address,
                                port: server.port, path: configuration.path, user: configuration.users.first?.0).forEach { print($0) }
        fflush(stdout)

        let session = PipelineSession(pipeline: pipeline)
        LaunchCommand.session = session
        LaunchCommand.installSignalHandlers()
        let restoreTerminal = LaunchCommand.startReadingCommands(into: session)
        var lastViewer = Date.distantPast
        var cameraOn = true
        session.onTick = {
            guard !options.alwaysOn else { return }
            // Said on stderr, so whoever runs the server sees why the camera light goes off.
            if server.viewers > 0 {
                lastViewer = Date()
                if !cameraOn {
                    pipeline.setPlaying(true)
                    cameraOn = true
                    printError("filtercam serve: camera running for a viewer")
                }
            } else if cameraOn && Date().timeIntervalSince(lastViewer) > 3 {
                pipeline.setPlaying(false)
                cameraOn = false
                printError(lastViewer == .distantPast ? "filtercam serve: camera paused until a viewer comes"
                                                      : "filtercam serve: camera paused: nobody has watched for 3 s")
            }
        }
        let outcome = session.run()
        restoreTerminal()
        return outcome.exitStatus
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// A password kept out of the command line (which every local user can read with `ps`):
    /// the process's environment is readable only by its own user.
    static let authVariable = "FILTERCAM_SERVE_AUTH"

    /// `USER:PASSWORD`, neither empty (an empty password would let anyone in).
    static func userAndPassword(_ pair: String, from source: String) throws -> (String, String) {
        guard let colon = pair.firstIndex(of: ":"), colon != pair.startIndex else {
            throw UsageError(description: "\(source) takes USER:PASSWORD")
        }
        let password = String(pair[pair.index(after: colon)...])
        guard !password.isEmpty else {
            throw UsageError(description: "\(source): the password of \(String(pair[..<colon]).quotedForMessage) is empty; give one")
        }
        return (String(pair[..<colon]), password)
    }

    static func parse(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Options {
        var o = Options()
        var authFile: String?
        var i = 0
        func value(_ flag: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(description: "\(flag) needs a value\n\(usage)") }
            return arguments[i]
        }
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--port":
                let text = try value(a)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError(description: "--port \(text.quotedForMessage): a port is a number from 1 to 65535 (0: any free port)")
                }
                o.configuration.port = port
            case "--address": o.configuration.address = try value(a)
            case "--path":
                let path = try value(a)
                o.configuration.path = path.hasPrefix("/") ? path : "/" + path
            case "--auth": o.configuration.users.append(try userAndPassword(try value(a), from: "--auth"))
            case "--auth-file": authFile = try value(a)
            case "--no-auth": o.noAuth = true
            case "--tls-cert": o.configuration.tlsCertificate = try value(a)
            case "--tls-key": o.configuration.tlsKey = try value(a)
            case "--always-on": o.alwaysOn = true
            case "--help", "-h": throw UsageError(description: usage)
            default:
                if a.hasPrefix("--") && o.target.isEmpty { throw UsageError(description: "unknown option \(a.quotedForMessage)\n\(usage)") }
                o.target.append(a)
            }
            i += 1
        }
        if let authFile { o.configuration.users += try readAuthFile(authFile) }
        if let pair = environment[authVariable] { o.configuration.users.append(try userAndPassword(pair, from: authVariable)) }
        guard !o.target.isEmpty else { throw UsageError(description: "give a pipeline file or a description\n\(usage)") }
        if (o.configuration.tlsCertificate == nil) != (o.configuration.tlsKey == nil) {
            throw UsageError(description: "TLS needs both --tls-cert and --tls-key")
        }
        for file in [o.configuration.tlsCertificate, o.configuration.tlsKey].compactMap({ $0 })
            where !FileManager.default.isReadableFile(atPath: file) {
            throw UsageError(description: "cannot read \(file.quotedForMessage) (TLS certificate or key)")
        }
        if o.configuration.users.isEmpty && !o.noAuth && !isLoopback(o.configuration.address) {
            throw UsageError(description: """
                refusing to serve on \(o.configuration.address) without a password: anyone who can reach it \
                could watch the camera. Give --auth USER:PASSWORD or --auth-file FILE, or --no-auth to allow it.
                """)
        }
        return o
    }

    /// `user:password` lines (blank lines and `#` comments skipped); the file must be
    /// neither readable by others nor writable by anyone but its owner.
    static func readAuthFile(_ path: String) throws -> [(String, String)] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw UsageError(description: "--auth-file \(path.quotedForMessage): \(String(cString: strerror(errno)))") }
        if info.st_mode & (S_IROTH | S_IWOTH | S_IWGRP) != 0 {
            let what = info.st_mode & S_IROTH != 0 ? "readable by everyone" : "writable by others"
            throw UsageError(description: "--auth-file \(path.quotedForMessage) is \(what); make it private first: chmod 600 \(path)")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError(description: "--auth-file \(path.quotedForMessage) cannot be read")
        }
        var users: [(String, String)] = []
        for (n, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            users.append(try userAndPassword(String(trimmed), from: "--auth-file \(path):\(n + 1)"))
        }
        guard !users.isEmpty else { throw UsageError(description: "--auth-file \(path.quotedForMessage) holds no user:password line") }
        return users
    }

    /// Whether every address `address` resolves to is a loopback one (a name such as
    /// `127.cam.lan` can resolve anywhere); false when it does not resolve.
    static func isLoopback(_ address: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address, nil, &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let sa = entry.pointee.ai_addr else { return false }
            switch Int32(sa.pointee.sa_family) {
            case AF_INET:
                let ip = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
                if ip >> 24 != 127 { return false }
            case AF_INET6:
                let bytes = sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                    withUnsafeBytes(of: p.pointee.sin6_addr) { Array($0) }
                }
                let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
                let mappedLoopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
                if !loopback && !mappedLoopback { return false }
            default:
                return false
            }
        }
        return true
    }
}
