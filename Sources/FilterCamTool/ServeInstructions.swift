import Foundation
import FilterCore
#if canImport(Glibc)
import Glibc
#endif

/// What `filtercam serve` prints so a viewer on another machine can open the stream: the
/// URLs at this machine's real addresses (a server bound to 0.0.0.0 is not reached at
/// "0.0.0.0"), and how each kind of player gives the password.
public enum ServeInstructions {
    /// The lines to print once the server listens.
    public static func lines(scheme: String, address: String, port: Int, path: String, user: String?) -> [String] {
        let hosts = hostsToOpen(for: address)
        let urls = hosts.map { url(scheme: scheme, host: $0, port: port, path: path, user: nil) }
        var lines = urls.map { "serving \($0)" }
        let first = hosts[0]
        if let user {
            let withUser = url(scheme: scheme, host: first, port: port, path: path, user: user)
            lines.append("  a viewer gives the password in the URL: ffplay \(withUser) | vlc \(withUser)")
            lines.append("  or to rtspsrc: gst-launch-1.0 rtspsrc location=\(urls[0]) user-id=\(user) user-pw=PASSWORD ! decodebin ! autovideosink")
        } else {
            lines.append("  open it with: ffplay \(urls[0]) | vlc \(urls[0]) | gst-launch-1.0 playbin uri=\(urls[0])")
        }
        if scheme == "rtsps" {
            // rtspsrc (playbin's too) refuses a certificate no authority signed ("Could not
            // open resource"), with a password or without.
            let example = user == nil ? ": gst-launch-1.0 rtspsrc location=\(urls[0]) tls-validation-flags=0 ! decodebin ! autovideosink" : ""
            lines.append("  with a self-signed certificate, rtspsrc needs tls-validation-flags=0 as well (or the certificate in its tls-database)\(example)")
        }
        return lines
    }

    static func url(scheme: String, host: String, port: Int, path: String, user: String?) -> String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(user.map { "\($0):PASSWORD@" } ?? "")\(bracketed):\(port)\(path)"
    }

    /// The address itself, or for a wildcard (0.0.0.0, ::) the machine's own addresses
    /// other than loopback (IPv4 first; IPv6 only for ::), loopback when it has none.
    public static func hostsToOpen(for address: String) -> [String] {
        let wildcard4 = address == "0.0.0.0", wildcard6 = address == "::"
        guard wildcard4 || wildcard6 else { return [address] }
        let found = interfaceAddresses().filter { wildcard6 || !$0.contains(":") }
            .filter { !$0.hasPrefix("127.") && $0 != "::1" && !$0.lowercased().hasPrefix("fe80:") }
        return found.isEmpty ? ["127.0.0.1"] : found.sorted { !$0.contains(":") && $1.contains(":") }
    }

    /// Every address of every interface that is up (getifaddrs), each once.
    public static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var result: [String] = []
        var entry = list
        while let e = entry {
            defer { entry = e.pointee.ifa_next }
            guard let sa = e.pointee.ifa_addr, (e.pointee.ifa_flags & UInt32(IFF_UP)) != 0 else { continue }
            let family = Int32(sa.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(sa, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(cStringBuffer: host)
            if !result.contains(text) { result.append(text) }
        }
        return result
    }
}
