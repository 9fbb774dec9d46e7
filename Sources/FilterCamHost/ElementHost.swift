import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// The skeleton every FilterCam element shares (`filtercam`, `fc<id>`, `filtercamsrc`):
/// what the C shell calls for an instance. GObject's property calls go to the part that
/// declares the property (its `PartSlot`); a value the part cannot take, or one not of the
/// declared kind, is refused by name (`PropertyRefusal`) and the previous value stays; a
/// value refused before the element ran fails its start; the parts start, unlock and stop
/// with the element, around the element's own state change (`SwiftElement.changeState`).
final class ElementHost: Sendable {
    let elementClass: ElementClass
    /// The element's own behaviour (it owns its parts).
    let body: any SwiftElement
    /// The parts in slot order (the body's stored properties, or the body itself).
    let parts: [any ElementPart]
    private let refusal: PropertyRefusal
    /// Set last in init (release) and read by every callback (acquire): the host is made on
    /// the thread that makes the element and reached from streaming threads through
    /// GStreamer's own locks (futexes ThreadSanitizer cannot see); this makes the hand-over
    /// of everything init wrote explicit.
    private let madeFlag = Atomic<Bool>(false)

    init(element: UnsafeMutablePointer<GstElement>, elementClass: ElementClass) {
        self.elementClass = elementClass
        let missing = ElementParts.missing(ElementParts.needed(bySource: elementClass.isSource))
        if missing.isEmpty {
            let body = elementClass.make(element, elementClass)
            self.body = body
            parts = elementClass.slots.map { $0.reach(body) }
        } else {
            let standIn = MissingPartsElement(element: element, elementClass: elementClass, missing: missing)
            body = standIn
            parts = elementClass.slots.map { _ in standIn }
        }
        refusal = PropertyRefusal(element: element)
        madeFlag.store(true, ordering: .releasing)
    }

    /// The host a C callback's context names, as init left it.
    static func from(context: UnsafeMutableRawPointer) -> ElementHost {
        let host = Unmanaged<ElementHost>.fromOpaque(context).takeUnretainedValue()
        _ = host.madeFlag.load(ordering: .acquiring)
        return host
    }

    /// The host of a FilterCam element; nil for any other element.
    static func of(_ element: UnsafeMutablePointer<GstElement>) -> ElementHost? {
        fc_element_get_ctx(element).map(from(context:))
    }

    // MARK: Properties

    /// GObject's set_property: the declaring part takes the value or it is refused by name.
    func set(_ index: Int, _ value: PropertyValue) {
        let property = elementClass.owner(of: index).property
        do throws(PropertyProblem) {
            try take(index, value)
        } catch {
            refusal.refuse(index, value, property.name, property.text(of: value), error.description)
            return
        }
        refusal.taken(index) { i, v in
            do throws(PropertyProblem) {
                try take(i, v)
                return nil
            } catch {
                return error.description
            }
        }
    }

    /// Hands a value to the part that declares the property, or throws why it is refused:
    /// not of the declared kind (a part never gets a value it has no case for), or an enum
    /// nick the element does not take.
    private func take(_ index: Int, _ value: PropertyValue) throws(PropertyProblem) {
        let (slot, property) = elementClass.owner(of: index)
        guard property.kind.accepts(value) else {
            throw PropertyProblem("expected \(property.kind.typeDescription), not \(value.typeDescription)")
        }
        if case .int(let i) = value, let choices = property.choices, case let nick = property.text(of: value),
           !choices.contains(nick) {
            throw PropertyProblem("\(property.name) '\(nick)' is not supported (value \(i)): choose \(property.kind.typeDescription)")
        }
        try parts[slot].set(property.name, value)
    }

    /// GObject's get_property: the declaring part's value, of the declared kind (a part
    /// that gave another would be a bug: logged, and the default read instead).
    func get(_ index: Int) -> PropertyValue {
        let (slot, property) = elementClass.owner(of: index)
        let value = parts[slot].get(property.name)
        guard property.kind.accepts(value) else {
            elementClass.log.log(GST_LEVEL_ERROR, nil, { "\(property.name) read \(value.typeDescription), expected \(property.kind.typeDescription)" },
                                 file: #fileID, function: #function, line: #line)
            return property.defaultValue
        }
        return value
    }

    // MARK: States

    /// Called before (`after == false`) and after the shell changes state.
    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn {
        let step = (fc_transition_current(transition), fc_transition_next(transition))
        let ready = Int32(GST_STATE_READY.rawValue), paused = Int32(GST_STATE_PAUSED.rawValue)
        let playing = Int32(GST_STATE_PLAYING.rawValue)
        if !after {
            if !refusal.check(transition) { return GST_STATE_CHANGE_FAILURE }
            if step == (ready, paused) { parts.forEach { $0.start() } }
            if step == (paused, ready) { parts.forEach { $0.unlock() } }
            if step == (playing, paused) { parts.forEach { $0.pause(true) } }
        }
        let result = body.changeState(transition, after: after, result: result)
        if after && step == (paused, ready) { parts.forEach { $0.stop() } }
        if after && step == (paused, playing) { parts.forEach { $0.pause(false) } }
        return result
    }

    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        body.filterMessage(message)
    }

    func action(_ index: Int) {
        body.action(index)
    }
}

extension ElementProperty.Kind {
    /// Whether `value` is of this kind (what `PropertyValue(reading:as:)` makes of it).
    func accepts(_ value: PropertyValue) -> Bool {
        switch (self, value) {
        case (.double, .double), (.int, .int), (.uint, .int), (.bool, .bool), (.string, .string),
             (.enumeration, .int), (.gstEnum, .int), (.counter, .uint64), (.readOnlyText, .string):
            return true
        default:
            return false
        }
    }

    /// The kind in words, with its range or choices.
    package var typeDescription: String {
        switch self {
        case .double(let lo, let hi, _) where lo == -.greatestFiniteMagnitude && hi == .greatestFiniteMagnitude: return "any finite number"
        case .double(let lo, let hi, _) where hi == .greatestFiniteMagnitude: return "a number from \(NumberText.text(lo)) up"
        case .double(let lo, let hi, _): return "a number from \(NumberText.text(lo)) to \(NumberText.text(hi))"
        case .int(let lo, let hi, _): return "an integer from \(lo) to \(hi)"
        case .uint(let lo, let hi, _) where hi == UInt32.max: return "an integer from \(lo) to \(hi), or in hex (0xAARRGGBB for a colour, e.g. 0xFF00FF00)"
        case .uint(let lo, let hi, _): return "an integer from \(lo) to \(hi)"
        case .bool: return "true or false"
        case .string: return "text"
        case .enumeration(_, let nicks, _): return "one of \(nicks.joined(separator: ", "))"
        case .gstEnum(let getType, _, let refused):
            return "one of \(ElementProperty.nicks(of: getType()).filter { !refused.contains($0) }.joined(separator: ", "))"
        case .counter: return "a read-only counter"
        case .readOnlyText: return "read-only text"
        }
    }
}

extension PropertyValue {
    /// What kind of value this is, for a refusal.
    var typeDescription: String {
        switch self {
        case .double(let v): return "the number \(NumberText.text(v))"
        case .int(let v): return "the integer \(v)"
        case .bool(let v): return "the boolean \(v)"
        case .string(let v): return "the text \((v ?? "").quotedForMessage)"
        case .uint64(let v): return "the counter value \(v)"
        }
    }
}

extension ElementProperty {
    /// The declaration of a FilterCam element's property, for messages that name its
    /// valid values as the element takes them; nil for other elements and properties.
    package static func declared(_ property: String, in element: UnsafeMutablePointer<GstElement>) -> ElementProperty? {
        ElementHost.of(element)?.elementClass.properties.first { $0.name == property }
    }
}
