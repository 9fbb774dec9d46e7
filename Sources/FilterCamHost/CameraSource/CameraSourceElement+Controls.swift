import FilterCore
import CGStreamer
import CFilterCamShim
import FoundationEssentials

/// Camera controls (torch, focus, exposure, white balance, zoom): remembered in the
/// settings and written to the open camera through V4L2.
extension CameraSourceElement {
    /// Sets a camera control property: remembered, and applied at once when a camera is open.
    func setControl(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let control = CameraControl(property: name, value) else { throw PropertyProblem.unexpected(value, for: name) }
        if case .whiteBalance(let k) = control, k != 0 && k < 2000 {
            log.warning(element, "refused white-balance=\(k)")
            throw PropertyProblem("0 (automatic) or 2000–10000 kelvin")
        }
        settings.withLock { $0.remember(control) }
        switching.lock()
        defer { switching.unlock() }
        if active != nil { apply([control]) }
    }

    /// Writes controls to the open camera; a missing or refused one is a WARNING naming
    /// the camera and the control, and changes nothing for that property.
    func apply(_ controls: [CameraControl]) {
        guard let current = active else { return }
        let exposure = settings.withLock { $0.exposure }
        for control in controls {
            do {
                let writes = try V4L2ControlMap.writes(for: control, on: current.controls, settings: exposure)
                guard let handle = current.handle else { continue }
                if let (write, code) = handle.apply(writes, controls: current.controls) {
                    fc_post_warning(element, "camera \(current.label) refused \(control.propertyName) (\(write)): \(String(cString: strerror(code)))", nil)
                }
            } catch {
                fc_post_warning(element, "camera \(current.label) \(error.description)", nil)
            }
        }
    }
}

/// The controls the user set, each held once.
extension CameraSourceElement.Settings {
    /// Holds `c`, in place of an earlier value of the same control.
    mutating func remember(_ c: CameraControl) {
        if let i = controls.firstIndex(where: { $0.propertyName == c.propertyName }) { controls[i] = c } else { controls.append(c) }
    }
    func control(named name: String) -> CameraControl? { controls.first { $0.propertyName == name } }
    /// The exposure time and ISO in force (they share the automatic exposure mode).
    var exposure: CameraControlSettings {
        var e = CameraControlSettings()
        for c in controls {
            if case .exposureTime(let t) = c { e.exposureTime = t }
            if case .iso(let i) = c { e.iso = i }
        }
        return e
    }
}
