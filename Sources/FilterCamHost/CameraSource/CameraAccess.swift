import FilterCore
import CFilterCamShim
#if canImport(Glibc)
import Glibc
#endif

/// Why a camera cannot be used, from open(2)'s errno or from what the node turns out to be.
public enum CameraProblem: Error, Equatable, Sendable {
    case noCamera
    case missing
    /// The node is there, with no device behind it (ENXIO, ENODEV: unplugged, no driver).
    case noDevice
    case permissionDenied
    case busy
    case notVideoDevice
    case notCaptureDevice
    case other(errno: Int32)

    /// The problem open(2) reported with `errno`.
    public init(errno code: Int32) {
        switch code {
        case ENOENT: self = .missing
        case ENODEV, ENXIO: self = .noDevice
        case EACCES, EPERM: self = .permissionDenied
        case EBUSY: self = .busy
        case EISDIR, ENOTTY, ENOTDIR: self = .notVideoDevice
        default: self = .other(errno: code)
        }
    }

    /// The sentence the element warns (or errs) with.
    public func message(for path: String) -> String {
        switch self {
        case .noCamera: return "no camera found: the device monitor lists no V4L2 camera"
        case .missing: return "camera \(path) does not exist"
        case .noDevice: return "camera \(path) has no device behind it (unplugged, or its driver is not loaded)"
        case .permissionDenied: return "permission denied opening camera \(path) (add the user to the 'video' group)"
        case .busy: return "camera \(path) is busy (another program is using it)"
        case .notVideoDevice: return "\(path) is not a video device"
        case .notCaptureDevice: return "\(path) is a video device that cannot capture (e.g. a metadata node)"
        case .other(let code): return "cannot open camera \(path): \(String(cString: strerror(code)))"
        }
    }
}

/// An open V4L2 device node, for checking it and for its controls (V4L2 allows controls
/// to be set through a second open file while v4l2src streams).
final class CameraHandle {
    let path: String
    private(set) var fd: Int32

    /// Opens `path` read-write and checks that it is a V4L2 capture device.
    init(path: String) throws(CameraProblem) {
        self.path = path
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw CameraProblem(errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR else {
            close(fd)
            throw .notVideoDevice
        }
        var caps: UInt32 = 0
        let e = fc_v4l2_query_capabilities(fd, nil, 0, &caps)
        guard e == 0 else {
            close(fd)
            throw e == ENOTTY || e == EINVAL ? .notVideoDevice : CameraProblem(errno: e)
        }
        guard fc_v4l2_can_capture(caps) != 0 else {
            close(fd)
            throw .notCaptureDevice
        }
        self.fd = fd
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The device's controls under their v4l2-ctl names.
    func controls() -> [V4L2ControlInfo] {
        var raw = [FcV4L2Control](repeating: FcV4L2Control(), count: 256)
        let n = fc_v4l2_query_controls(fd, &raw, Int32(raw.count))
        guard n > 0 else { return [] }
        return raw.prefix(Int(n)).map { c in
            var c = c
            let kernelName = withUnsafeBytes(of: &c.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var info = V4L2ControlInfo(name: V4L2ControlMap.variableName(kernelName), id: c.id,
                                       kind: V4L2ControlInfo.Kind(v4l2Type: c.type), minimum: c.minimum,
                                       maximum: c.maximum, step: c.step, defaultValue: c.default_value)
            if info.kind == .menu || info.kind == .integerMenu, c.maximum - c.minimum < 256 {
                for index in c.minimum...c.maximum {
                    var value: Int64 = 0
                    var name = [CChar](repeating: 0, count: 64)
                    guard fc_v4l2_query_menu(fd, c.id, UInt32(index), &value, &name, Int32(name.count)) == 0 else { continue }
                    if info.kind == .integerMenu { info.menuValues[index] = value } else { info.menuNames[index] = String(cStringBuffer: name) }
                }
            }
            return info
        }
    }

    /// Applies writes in order; the first refused one is returned with its errno.
    func apply(_ writes: [V4L2ControlWrite], controls: [String: V4L2ControlInfo]) -> (write: V4L2ControlWrite, errno: Int32)? {
        for w in writes {
            guard let c = controls[w.name] else { return (w, ENOENT) }
            let e = fc_v4l2_set_control(fd, c.id, Int32(clamping: w.value))
            if e != 0 { return (w, e) }
        }
        return nil
    }

    /// The controls of the camera at `path`, or why they cannot be read.
    static func controls(of path: String) -> Result<[V4L2ControlInfo], CameraProblem> {
        do {
            return .success(try CameraHandle(path: path).controls())
        } catch {
            return .failure(error)
        }
    }
}
