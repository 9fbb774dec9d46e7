import CGStreamer
import CFilterCamShim

/// Why a property value was refused, in words that name the valid values or range.
/// The element reports it (`PropertyRefusal`) under the property's name; the previous
/// value stays.
struct PropertyProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// A value a part has no case for: refused, never dropped in silence.
    static func unexpected(_ value: PropertyValue, for name: String) -> PropertyProblem {
        PropertyProblem("\(name) does not take \(value.typeDescription)")
    }
}

/// One part of an element (its own settings, the frame worker, the snapshot branch, face
/// detection, the camera source): it takes and gives its properties' values by name and
/// follows the element's run. Its properties are declared once, in the element class
/// (`PartSlot`); the element's `ElementHost` calls the part that declares a property.
protocol ElementPart: AnyObject, Sendable {
    /// Takes a value, or throws `PropertyProblem` and keeps the previous one. The value is
    /// of the declared kind (the host refuses any other).
    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem)
    func get(_ name: String) -> PropertyValue
    /// Before READY→PAUSED: a new run (counters reset, resources loaded, threads ready).
    func start()
    /// Before PAUSED→READY: threads waiting in the part return, so the streaming threads
    /// can stop (as GstBaseSrc's `unlock`).
    func unlock()
    /// After PAUSED→READY: the run is over (threads joined, pending work finished).
    func stop()
    /// Before PLAYING→PAUSED (`true`) and after PAUSED→PLAYING (`false`): the running time
    /// stands still meanwhile.
    func pause(_ paused: Bool)
}

extension ElementPart {
    func start() {}
    func unlock() {}
    func stop() {}
    func pause(_ paused: Bool) {}
}

/// A part's property names as a Swift enum whose raw values are the names: the part reads
/// `Property(rawValue: name)` and never counts indices.
protocol PropertyNames: RawRepresentable, CaseIterable where RawValue == String {}

/// One part of an element class: the properties it declares (the only declaration) and
/// how an instance reaches the part. The class lists its properties as its slots', in
/// order, so a property index always finds its part: no second list to keep in step.
struct PartSlot: Sendable {
    let properties: [ElementProperty]
    let reach: @Sendable (any SwiftElement) -> any ElementPart

    /// `reach` gets the part from the element's Swift side (`{ $0 }` for the element itself).
    init<Element: SwiftElement, Part: ElementPart>(_ properties: [ElementProperty],
                                                   _ reach: @escaping @Sendable (Element) -> Part) {
        self.properties = properties
        self.reach = { reach($0 as! Element) }
    }
}
