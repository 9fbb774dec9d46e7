import CWebServe
import Foundation

/// The web side of `filtercam serve --web` (libsoup 3, webrtcbin): WHEP for any WebRTC
/// player, fed by the shared encoder, and every other request (the control page and its
/// commands) handed to `handler`, which answers it with `Request.reply`, now or later, from
/// any thread. Requests reach the handler only past the password, the Host and Origin
/// checks and the size limit. Runs on a thread of its own.
public final class WebServer {
    public struct Configuration {
        public var address = "127.0.0.1"
        public var port = 8080
        /// user → password; empty: no authentication.
        public var users: [(String, String)] = []
        public var tlsCertificate: String?
        public var tlsKey: String?
        /// Without a password on a loopback address: requests must name this machine. (WebRTC
        /// viewers' ICE is on `address` alone whatever this says, or every network for 0.0.0.0.)
        public var loopbackOnly = true
        /// Asks the router (UPnP) to open each WebRTC viewer's ports to the internet.
        public var upnp = false
        public init() {}
    }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public struct Response {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// Makes the body a download with this name.
        public var filename: String?

        public init(status: Int, contentType: String, body: [UInt8], filename: String? = nil) {
            (self.status, self.contentType, self.body, self.filename) = (status, contentType, body, filename)
        }

        public static func text(_ status: Int, _ text: String) -> Response {
            Response(status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
        }
    }

    /// One request for the application; `reply` exactly once, from any thread.
    public struct Request: @unchecked Sendable {   // fc_web_server_reply hands the reply to the server's own thread
        public let method: String
        public let path: String
        public let body: [UInt8]
        let server: OpaquePointer
        let id: UInt64

        public var text: String { String(decoding: body, as: UTF8.self) }

        public func reply(_ response: Response) {
            response.body.withUnsafeBytes { bytes in
                withOptionalCString(response.filename) { filename in
                    fc_web_server_reply(server, id, Int32(response.status), response.contentType,
                                        bytes.baseAddress, bytes.count, filename)
                }
            }
        }
    }

    public typealias Handler = (Request) -> Void

    private final class HandlerBox {
        let handle: Handler
        init(_ handle: @escaping Handler) { self.handle = handle }
    }

    private let server: OpaquePointer
    private let box: Unmanaged<HandlerBox>
    public let configuration: Configuration

    public init(_ configuration: Configuration, stream: EncodedStream, handler: @escaping Handler) throws {
        self.configuration = configuration
        let box = Unmanaged.passRetained(HandlerBox(handler))
        var error: UnsafeMutablePointer<CChar>?
        let onRequest: FcWebRequestHandler = { data, server, id, method, path, body, length in
            guard let data, let server else { return }
            let request = Request(method: method.map { String(cString: $0) } ?? "", path: path.map { String(cString: $0) } ?? "",
                                  body: body.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? [],
                                  server: server, id: id)
            Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue().handle(request)
        }
        let started: OpaquePointer? = withServerCStrings(address: configuration.address, users: configuration.users,
                                                         tlsCertificate: configuration.tlsCertificate, tlsKey: configuration.tlsKey) { c in
            var config = FcWebServerConfig()
            config.address = c.address
            config.port = Int32(configuration.port)
            config.users = c.users
            config.passwords = c.passwords
            config.n_users = c.count
            config.tls_cert = c.tlsCertificate
            config.tls_key = c.tlsKey
            config.loopback_only = configuration.loopbackOnly ? 1 : 0
            config.upnp = configuration.upnp ? 1 : 0
            config.stream = stream.pointer
            config.handler = onRequest
            config.handler_data = box.toOpaque()
            return fc_web_server_start(&config, &error)
        }
        guard let started else {
            box.release()
            throw StartError(description: takeErrorText(error, or: "cannot start the web server"))
        }
        server = started
        self.box = box
    }

    deinit {
        fc_web_server_stop(server)
        box.release()
    }

    public var port: Int { Int(fc_web_server_port(server)) }
    /// WebRTC viewers connected now.
    public var watching: Int { Int(fc_web_server_watching(server)) }

    /// Says the WebRTC viewers turned away for want of room that no line said yet (those
    /// lines come at most every 10 s), for the server's last words.
    public func sayViewersTurnedAway() { fc_web_server_say_turned_away(server) }

    /// The page's address (for a wildcard address, at this machine's first own address).
    public var url: String {
        let host = ServeInstructions.hostsToOpen(for: configuration.address)[0]
        return ServeInstructions.url(scheme: configuration.tlsCertificate == nil ? "http" : "https", host: host, port: port, path: "/", user: nil)
    }
}
