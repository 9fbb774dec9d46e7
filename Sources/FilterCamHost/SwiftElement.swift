import CGStreamer
import CFilterCamShim
import FilterCore

/// The behaviour of one element instance written in Swift, as its `ElementHost` calls
/// it: the element's own state change (between its parts' start and stop), messages from
/// inside and action signals. Its properties belong to its parts (`PartSlot`).
protocol SwiftElement: AnyObject, Sendable {
    /// Before (`after == false`) and after the element changes state (and its insides').
    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn
    /// Return true to swallow a message posted inside the element.
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool
    func action(_ index: Int)
    /// How the output caps follow the input caps now, for CAPS queries on a filter's pads.
    var capsGeometry: CapsGeometry { get }
    /// With `.lensCrop`: the output length along `axis` of a turned picture `size` long.
    func lensCropLength(of size: Int, along axis: LensRect.Axis, grid: Int) -> Int
    /// With `.lensCrop`: the output lengths of `sizes` (`toOutput`), or the sizes whose
    /// output length is in `sizes`; nil when there are none.
    func lensCropRange(_ sizes: ClosedRange<Int>, along axis: LensRect.Axis, grid: Int, toOutput: Bool) -> ClosedRange<Int>?
}

extension SwiftElement {
    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn { result }
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool { false }
    func action(_ index: Int) {}
    var capsGeometry: CapsGeometry { [] }
    func lensCropLength(of size: Int, along axis: LensRect.Axis, grid: Int) -> Int { size }
    func lensCropRange(_ sizes: ClosedRange<Int>, along axis: LensRect.Axis, grid: Int, toOutput: Bool) -> ClosedRange<Int>? { sizes }
}

/// One element type: its metadata, its parts and their properties, action signals, and
/// how to make the Swift side of an instance.
package final class ElementClass: Sendable {
    package let factoryName: String
    let typeName: String
    let longName: String
    let klass: String
    let summary: String
    /// The parts, each with the properties it declares.
    let slots: [PartSlot]
    /// Every property, the slots' in order (GObject's property id is the index + 1).
    let properties: [ElementProperty]
    /// For each property, the index of its slot.
    private let slotOfProperty: [Int]
    let actions: [String]
    /// Sink pad template caps; "" for a source element (no sink pad).
    let sinkCaps: String
    let srcCaps: String
    /// A source is a bin (it keeps its SOURCE flag) and has no sink pad; the others are
    /// plain elements around a private appsink/appsrc pair.
    let isSource: Bool
    let make: @Sendable (UnsafeMutablePointer<GstElement>, ElementClass) -> any SwiftElement

    init(factoryName: String, typeName: String, longName: String, klass: String, summary: String,
         parts: [PartSlot], actions: [String] = [], sinkCaps: String, srcCaps: String,
         isSource: Bool = false,
         make: @escaping @Sendable (UnsafeMutablePointer<GstElement>, ElementClass) -> any SwiftElement) {
        self.factoryName = factoryName
        self.typeName = typeName
        self.longName = longName
        self.klass = klass
        self.summary = summary
        slots = parts
        properties = parts.flatMap(\.properties)
        slotOfProperty = parts.indices.flatMap { i in Array(repeating: i, count: parts[i].properties.count) }
        self.actions = actions
        self.sinkCaps = sinkCaps
        self.srcCaps = srcCaps
        self.isSource = isSource
        self.make = make
    }

    /// The slot that declares property `index`, and the property.
    func owner(of index: Int) -> (slot: Int, property: ElementProperty) {
        (slotOfProperty[index], properties[index])
    }

    /// Registers the element in `plugin` (nil: with no plugin, for static use).
    @discardableResult
    func register(in plugin: OpaquePointer?) -> Bool {
        let specs = properties.map { $0.makeParamSpec() }
        var actionNames = actions.map { strdup($0) }
        defer { actionNames.forEach { free($0) } }
        var specPointers: [UnsafeMutablePointer<GParamSpec>?] = specs
        let ctx = Unmanaged.passRetained(self).toOpaque()   // classes live as long as the process
        return specPointers.withUnsafeMutableBufferPointer { specBuf in
            actionNames.withUnsafeMutableBufferPointer { actionBuf in
                actionBuf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(actionBuf.count, 1)) { actionPtr in
                    var spec = FcElementSpec()
                    return typeName.withCString { tn in longName.withCString { ln in klass.withCString { kl in
                        summary.withCString { su in sinkCaps.withCString { sk in srcCaps.withCString { sc in
                            spec.type_name = tn
                            spec.long_name = ln
                            spec.klass = kl
                            spec.description = su
                            spec.author = ElementClass.author
                            spec.sink_caps = sk
                            spec.src_caps = sc
                            spec.properties = specBuf.baseAddress
                            spec.n_properties = guint(specBuf.count)
                            spec.action_signals = actions.isEmpty ? nil : actionPtr
                            spec.n_action_signals = guint(actions.count)
                            spec.class_ctx = ctx
                            spec.is_source = isSource ? 1 : 0
                            spec.callbacks = ElementClass.callbacks
                            return fc_element_register(plugin, factoryName, guint(GST_RANK_NONE.rawValue), &spec) != 0
                        } } }
                    } } }
                }
            }
        }
    }

    /// The element kind's GST_DEBUG category.
    var log: DebugCategory {
        switch factoryName {
        case "filtercam": return .filtercam
        case "filtercamsrc": return .filtercamsrc
        default: return .singleFilter
        }
    }

    private static func instance(_ ctx: UnsafeMutableRawPointer?) -> ElementHost {
        ElementHost.from(context: ctx!)
    }

    /// Static text: C may keep the pointer for the life of the process.
    private static var author: UnsafePointer<CChar> {
        UnsafeRawPointer(("FilterCam developers" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    static let callbacks: FcElementCallbacks = {
        var cb = FcElementCallbacks()
        cb.instance_init = { element, classCtx in
            let cls = Unmanaged<ElementClass>.fromOpaque(classCtx!).takeUnretainedValue()
            return Unmanaged.passRetained(ElementHost(element: element!, elementClass: cls)).toOpaque()
        }
        cb.finalize = { ctx in
            Unmanaged<ElementHost>.fromOpaque(ctx!).release()
        }
        cb.set_property = { ctx, id, value in
            let host = instance(ctx), cls = host.elementClass
            let index = Int(id) - 1
            let newValue = PropertyValue(reading: value!, as: cls.properties[index].kind)
            cls.log.log(GST_LEVEL_DEBUG, nil, { "\(cls.factoryName): set \(cls.properties[index].name) = \(newValue.text)" },
                        file: #fileID, function: #function, line: #line)
            host.set(index, newValue)
        }
        cb.get_property = { ctx, id, value in
            let host = instance(ctx)
            let index = Int(id) - 1
            host.get(index).write(to: value!, as: host.elementClass.properties[index].kind)
        }
        cb.change_state = { ctx, transition, after, result in
            instance(ctx).changeState(transition, after: after != 0, result: result)
        }
        cb.filter_message = { ctx, message in
            instance(ctx).filterMessage(message!) ? 1 : 0
        }
        cb.action = { ctx, index in
            instance(ctx).action(Int(index))
        }
        cb.caps_geometry = { ctx in
            instance(ctx).body.capsGeometry.rawValue
        }
        cb.lens_crop_length = { ctx, axis, size, grid in
            Int32(clamping: instance(ctx).body.lensCropLength(of: Int(size), along: axis == 0 ? .horizontal : .vertical, grid: Int(grid)))
        }
        cb.lens_crop_range = { ctx, axis, grid, toOutput, fromMin, fromMax, toMin, toMax in
            guard fromMin <= fromMax, let range = instance(ctx).body.lensCropRange(
                Int(fromMin)...Int(fromMax), along: axis == 0 ? .horizontal : .vertical, grid: Int(grid), toOutput: toOutput != 0) else { return 0 }
            toMin!.pointee = Int32(clamping: range.lowerBound)
            toMax!.pointee = Int32(clamping: range.upperBound)
            return 1
        }
        return cb
    }()
}
