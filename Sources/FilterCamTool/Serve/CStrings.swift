import CRTSPServe
import Foundation

/// Runs `body` with `s` as a C string, or with nil.
func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}

/// What both servers' C configurations take alike, as C strings valid during the call.
struct ServerCStrings {
    let address: UnsafePointer<CChar>
    let tlsCertificate, tlsKey: UnsafePointer<CChar>?
    /// `count` names and passwords.
    let users, passwords: UnsafePointer<UnsafePointer<CChar>?>?
    let count: Int32
}

func withServerCStrings<R>(address: String, users: [(String, String)], tlsCertificate: String?, tlsKey: String?,
                           _ body: (ServerCStrings) -> R) -> R {
    let names = users.map { strdup($0.0) }, passwords = users.map { strdup($0.1) }
    defer { (names + passwords).forEach { free($0) } }
    let n = names.map { $0.map { UnsafePointer($0) } }, p = passwords.map { $0.map { UnsafePointer($0) } }
    return address.withCString { address in
        withOptionalCString(tlsCertificate) { cert in
            withOptionalCString(tlsKey) { key in
                n.withUnsafeBufferPointer { nb in
                    p.withUnsafeBufferPointer { pb in
                        body(ServerCStrings(address: address, tlsCertificate: cert, tlsKey: key,
                                            users: nb.baseAddress, passwords: pb.baseAddress, count: Int32(users.count)))
                    }
                }
            }
        }
    }
}

/// The message a C start function left in `error` (freed here), or `fallback`.
func takeErrorText(_ error: UnsafeMutablePointer<CChar>?, or fallback: String) -> String {
    defer { fc_rtsp_free(error) }
    return error.map { String(cString: $0) } ?? fallback
}
