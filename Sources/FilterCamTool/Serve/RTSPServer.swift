import CRTSPServe
import Foundation

/// GStreamer's RTSP server (gst-rtsp-server) serving one shared media at one path, fed by
/// the shared encoder (`EncodedStream`). Runs on a thread of its own.
public final class RTSPServer {
    public struct Configuration {
        public var address = "127.0.0.1"
        public var port = 8554
        public var path = "/filtercam"
        /// The media's launch line, "( appsrc name=encoded ! … rtph264pay name=pay0 … )".
        public var launch = ""
        /// user → password; empty: no authentication.
        public var users: [(String, String)] = []
        public var tlsCertificate: String?
        public var tlsKey: String?
        public init() {}
    }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    private let server: OpaquePointer
    public let configuration: Configuration

    /// Serves `stream` (the media's appsrc "encoded" is fed from it).
    public init(_ configuration: Configuration, stream: EncodedStream) throws {
        self.configuration = configuration
        var error: UnsafeMutablePointer<CChar>?
        let started: OpaquePointer? = withServerCStrings(address: configuration.address, users: configuration.users,
                                                         tlsCertificate: configuration.tlsCertificate, tlsKey: configuration.tlsKey) { c in
            configuration.path.withCString { path in
                configuration.launch.withCString { launch in
                    var config = FcRtspServerConfig()
                    config.address = c.address
                    config.port = Int32(configuration.port)
                    config.path = path
                    config.launch = launch
                    config.stream = stream.pointer
                    config.users = c.users
                    config.passwords = c.passwords
                    config.n_users = c.count
                    config.tls_cert = c.tlsCertificate
                    config.tls_key = c.tlsKey
                    return fc_rtsp_server_start(&config, &error)
                }
            }
        }
        guard let started else { throw StartError(description: takeErrorText(error, or: "cannot start the RTSP server")) }
        server = started
    }

    deinit { fc_rtsp_server_stop(server) }

    public var port: Int { Int(fc_rtsp_server_port(server)) }
    /// Connections with an authenticated session playing: the viewers the camera runs for.
    public var viewers: Int { Int(fc_rtsp_server_watching(server)) }
    /// Connections that set up a session and have not closed, playing or paused: the
    /// viewers still to leave.
    public var viewersStillConnected: Int { Int(fc_rtsp_server_still_connected(server)) }

    /// The address viewers open.
    public var url: String {
        let host = configuration.address.contains(":") ? "[\(configuration.address)]" : configuration.address
        return "\(configuration.tlsCertificate == nil ? "rtsp" : "rtsps")://\(host):\(port)\(configuration.path)"
    }
}
