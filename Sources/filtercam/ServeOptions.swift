import FilterCamTool
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `filtercam serve`'s command line: options, passwords (flag, file, environment) and
/// the refusals made before anything is served.
extension ServeCommand {
    static let usage = """
        usage: filtercam serve [OPTIONS] FILE|NAME|DESCRIPTION
          The description (or pipeline file) produces raw video, e.g.
          'filtercamsrc ! filtercam filter=sepia'; serve adds the H.264 encoder and the
          payloader, prints the URL to open, and runs the camera only while someone
          watches. The keys and commands of launch work.
          --port N              RTSP port (default 8554; 0: any free port)
          --address ADDR        address to listen on (default 127.0.0.1, also for
                                localhost; 0.0.0.0: every one, which needs a password)
          --path /PATH          the stream's path (default /filtercam)
          --web                 also serve browsers: a control page and WebRTC (WHEP at
                                /whep), with the same address, password and certificate
          --web-port N          the page's port (default 8080; implies --web)
          --upnp                with --web and a password: each WebRTC viewer may ask
                                the router to open its ports to the internet (off by
                                default)
          --auth USER:PASSWORD  a viewer's name and password (RTSP Digest); every local
                                user sees it in ps: prefer --auth-file or the variable
          --auth-file FILE      user:password lines from FILE (chmod 600)
          --no-auth             serve other machines without a password
          --tls-cert PEM        with --tls-key PEM: encrypt (rtsps://, https://)
          --always-on           keep the camera running when nobody watches
          FILTERCAM_SERVE_AUTH=USER:PASSWORD (environment): a password kept out of ps
        """

    struct Options {
        var configuration = RTSPServer.Configuration()
        var noAuth = false
        var alwaysOn = false
        /// The web side (`--web`, `--web-port`): the page and WHEP.
        var web: WebServer.Configuration?
        var target: [String] = []
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
        var upnp = false
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
            case "--address":
                // GLib resolves localhost to ::1 first and the servers listen on the first
                // address only, while many players (ffmpeg, from /etc/hosts) try 127.0.0.1
                // alone: the URL printed was refused. localhost is served as 127.0.0.1.
                let address = try value(a)
                o.configuration.address = address.lowercased() == "localhost" ? "127.0.0.1" : address
            case "--path":
                let path = try value(a)
                // Players escape other characters differently (a space as %20 or +): the
                // URL printed must be the one that plays.
                let plain = path.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._~/".unicodeScalars.contains($0)) }
                guard plain, !path.isEmpty else {
                    throw UsageError(description: "--path \(path.quotedForMessage): a path is letters, digits and - . _ ~ /, e.g. /camera")
                }
                // As a player writes it: one slash between names, none at the end (the
                // server mounts "/a"; "/a/" and "/a//b" were printed and never reached).
                let names = path.split(separator: "/")
                guard !names.isEmpty else {
                    throw UsageError(description: "--path \(path.quotedForMessage): the path needs a name, e.g. /camera")
                }
                o.configuration.path = "/" + names.joined(separator: "/")
            case "--auth": o.configuration.users.append(try userAndPassword(try value(a), from: "--auth"))
            case "--auth-file": authFile = try value(a)
            case "--no-auth": o.noAuth = true
            case "--tls-cert": o.configuration.tlsCertificate = try value(a)
            case "--tls-key": o.configuration.tlsKey = try value(a)
            case "--always-on": o.alwaysOn = true
            case "--web": o.web = o.web ?? WebServer.Configuration()
            case "--web-port":
                let text = try value(a)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError(description: "--web-port \(text.quotedForMessage): a port is a number from 1 to 65535 (0: any free port)")
                }
                o.web = o.web ?? WebServer.Configuration()
                o.web?.port = port
            case "--upnp": upnp = true
            case "--help", "-h": throw UsageError(description: usage)
            case "--" where o.target.isEmpty:   // the end of the options, as for gst-launch-1.0
                o.target = Array(arguments[(i + 1)...])
                i = arguments.count
                continue
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
        if o.noAuth && !o.configuration.users.isEmpty {
            throw UsageError(description: "--no-auth and a password (--auth, --auth-file or \(authVariable)) contradict each other: give one of them")
        }
        let loopback = try isLoopback(o.configuration.address)
        if o.configuration.users.isEmpty && !o.noAuth && !loopback {
            throw UsageError(description: """
                refusing to serve on \(o.configuration.address) without a password: anyone who can reach it \
                could watch the camera. Give a password with \(authVariable)=USER:PASSWORD (unlike --auth \
                USER:PASSWORD, not shown to other users by ps) or --auth-file FILE, or --no-auth to allow it.
                """)
        }
        // The web side shares the RTSP side's address, passwords and certificate.
        o.web?.address = o.configuration.address
        o.web?.users = o.configuration.users
        o.web?.tlsCertificate = o.configuration.tlsCertificate
        o.web?.tlsKey = o.configuration.tlsKey
        o.web?.loopbackOnly = o.configuration.users.isEmpty && loopback
        if upnp {
            guard o.web != nil else { throw UsageError(description: "--upnp opens ports for WebRTC viewers: give it with --web") }
            guard !loopback else {
                throw UsageError(description: "--upnp: the server is for this machine only (--address \(o.configuration.address)); "
                                 + "give --address 0.0.0.0 (or this machine's network address) and a password too")
            }
            guard o.web?.loopbackOnly == false else {
                throw UsageError(description: "--upnp: without a password the web side is for this machine only; give --auth USER:PASSWORD or --auth-file FILE too")
            }
            o.web?.upnp = true
        }
        if let web = o.web, web.port != 0, web.port == o.configuration.port {
            throw UsageError(description: "--web-port \(web.port) is the RTSP port too; give each its own")
        }
        return o
    }

    /// `user:password` lines (blank lines and `#` comments skipped); the file must be
    /// neither readable by others nor writable by anyone but its owner.
    static func readAuthFile(_ path: String) throws -> [(String, String)] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw UsageError(description: "--auth-file \(path.quotedForMessage): \(String(cString: strerror(errno)))") }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw UsageError(description: "--auth-file \(path.quotedForMessage) is a folder: give the file of user:password lines")
        }
        if info.st_mode & (S_IROTH | S_IWOTH | S_IWGRP) != 0 {
            let what = info.st_mode & S_IROTH != 0 ? "readable by everyone" : "writable by others"
            throw UsageError(description: "--auth-file \(path.quotedForMessage) is \(what); make it private first: chmod 600 \(path)")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError(description: "--auth-file \(path.quotedForMessage) cannot be read")
        }
        var users: [(String, String)] = []
        // Blank lines kept, so `:N` is the line an editor shows.
        for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            users.append(try userAndPassword(String(trimmed), from: "--auth-file \(path):\(n + 1)"))
        }
        guard !users.isEmpty else { throw UsageError(description: "--auth-file \(path.quotedForMessage) holds no user:password line") }
        return users
    }

    /// Whether every address `address` resolves to is a loopback one (a name such as
    /// `127.cam.lan` can resolve anywhere); an address that does not resolve is refused.
    static func isLoopback(_ address: String) throws(UsageError) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw UsageError(description: "--address \(address.quotedForMessage): it does not resolve (\(String(cString: gai_strerror(status)))) "
                             + "(give this machine's name or one of its addresses; 0.0.0.0: every network)")
        }
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
