import CRTSPServe
import Foundation

/// GStreamer's RTSP server (gst-rtsp-server) serving one shared media at one path: the
/// pipeline in `launch` runs once, however many viewers watch. Runs on a thread of its own.
public final class RTSPServer {
    public struct Configuration {
        public var address = "127.0.0.1"
        public var port = 8554
        public var path = "/filtercam"
        /// The media's launch line, "( … ! rtph264pay name=pay0 … )".
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

    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        var error: UnsafeMutablePointer<CChar>?
        let names = configuration.users.map { strdup($0.0) }, passwords = configuration.users.map { strdup($0.1) }
        defer { (names + passwords).forEach { free($0) } }
        let started: OpaquePointer? = configuration.address.withCString { address in
            configuration.path.withCString { path in
                configuration.launch.withCString { launch in
                    withOptionalCString(configuration.tlsCertificate) { cert in
                        withOptionalCString(configuration.tlsKey) { key in
                            var n = names.map { UnsafePointer<CChar>($0) }, p = passwords.map { UnsafePointer<CChar>($0) }
                            return n.withUnsafeMutableBufferPointer { nb in
                                p.withUnsafeMutableBufferPointer { pb in
                                    var config = FcRtspServerConfig()
                                    config.address = address
                                    config.port = Int32(configuration.port)
                                    config.path = path
                                    config.launch = launch
                                    config.users = nb.baseAddress.map { UnsafePointer($0) }
                                    config.passwords = pb.baseAddress.map { UnsafePointer($0) }
                                    config.n_users = Int32(configuration.users.count)
                                    config.tls_cert = cert
                                    config.tls_key = key
                                    return fc_rtsp_server_start(&config, &error)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard let started else {
            let text = error.map { String(cString: $0) } ?? "cannot start the RTSP server"
            fc_rtsp_free(error)
            throw StartError(description: text)
        }
        server = started
    }

    deinit { fc_rtsp_server_stop(server) }

    public var port: Int { Int(fc_rtsp_server_port(server)) }
    /// Connections with an authenticated session playing: the viewers the camera runs for.
    public var viewers: Int { Int(fc_rtsp_server_watching(server)) }

    /// The address viewers open.
    public var url: String {
        let host = configuration.address.contains(":") ? "[\(configuration.address)]" : configuration.address
        return "\(configuration.tlsCertificate == nil ? "rtsp" : "rtsps")://\(host):\(port)\(configuration.path)"
    }
}

private func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
