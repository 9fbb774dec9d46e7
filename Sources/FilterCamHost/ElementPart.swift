import CGStreamer
import CFilterCamShim

/// Why a property value was refused, in words that name the valid values or range.
/// The element reports it (`PropertyRefusal`) under the property's name; the previous
/// value stays.
struct PropertyProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One part of an element (its own settings, the snapshot branch, face detection, the
/// frame worker's counters, the camera source): it declares its properties, takes and
/// gives their values by name, and follows the element's run. An element is its parts,
/// composed by property name (`ElementParts`).
protocol ElementPart: AnyObject, Sendable {
    /// The properties this part declares, as the element class lists them.
    var properties: [ElementProperty] { get }
    /// Takes a value, or throws `PropertyProblem` and keeps the previous one.
    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem)
    func get(_ name: String) -> PropertyValue
    /// READY→PAUSED: a new run (counters reset, resources loaded).
    func start()
    /// PAUSED→READY: the run is over (threads joined, pending work finished).
    func stop()
}

extension ElementPart {
    func start() {}
    func stop() {}
}

/// A part's property names as a Swift enum whose raw values are the names: the part reads
/// `Property(rawValue: name)` and never counts indices.
protocol PropertyNames: RawRepresentable, CaseIterable where RawValue == String {}

/// An element's parts, found by property name. The element class declares the
/// properties in the parts' order (checked when the element is made); GObject's
/// property ids are turned into names here, once, so no part ever sees an index.
final class ElementParts: Sendable {
    /// The element owns its parts (they are its stored properties); this list must not
    /// keep them (or the element) alive.
    private struct Reference: Sendable {
        unowned let part: any ElementPart
    }
    private let parts: [Reference]
    private let owner: [String: Reference]
    private let declared: [ElementProperty]
    private let refusal: PropertyRefusal

    init(element: UnsafeMutablePointer<GstElement>, declared: [ElementProperty], parts: [any ElementPart]) {
        self.parts = parts.map(Reference.init)
        var owner: [String: Reference] = [:]
        for part in parts {
            for p in part.properties {
                precondition(owner[p.name] == nil, "property \(p.name) declared by two parts")
                owner[p.name] = Reference(part: part)
            }
        }
        precondition(declared.map(\.name) == parts.flatMap { $0.properties.map(\.name) },
                     "the element class must declare its parts' properties, in order")
        self.owner = owner
        self.declared = declared
        refusal = PropertyRefusal(element: element)
    }

    /// GObject's set_property: the owning part takes the value or it is refused by name.
    func set(_ index: Int, _ value: PropertyValue) {
        let name = declared[index].name
        do {
            try owner[name]!.part.set(name, value)
        } catch {
            refusal.refuse(name, value.text, error.description)
        }
    }

    func get(_ index: Int) -> PropertyValue {
        let name = declared[index].name
        return owner[name]!.part.get(name)
    }

    /// Before the element leaves NULL: a value refused before it ran fails the start.
    func check(_ transition: GstStateChange) -> Bool {
        refusal.check(transition)
    }

    func start() { parts.forEach { $0.part.start() } }
    func stop() { parts.forEach { $0.part.stop() } }
}
