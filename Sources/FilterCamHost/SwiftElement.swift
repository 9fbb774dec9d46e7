import CGStreamer
import CFilterCamShim

/// The behaviour of one element instance written in Swift. The C shim makes the GObject
/// (a plain GstElement for filters, a GstBin for sources) and forwards property access,
/// state changes, messages from inside and action signals here.
protocol SwiftElement: AnyObject, Sendable {
    func setProperty(_ index: Int, _ value: PropertyValue)
    func getProperty(_ index: Int) -> PropertyValue
    /// Before (`after == false`) and after the element changes state (and its insides').
    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn
    /// Return true to swallow a message posted inside the element.
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool
    func action(_ index: Int)
}

/// An element whose properties all belong to its parts (`ElementParts`: the element
/// itself, its worker, its stills, …): GObject's property calls go to them.
protocol ElementWithParts: SwiftElement {
    var parts: ElementParts { get }
}

extension ElementWithParts {
    func setProperty(_ index: Int, _ value: PropertyValue) { parts.set(index, value) }
    func getProperty(_ index: Int) -> PropertyValue { parts.get(index) }
}

/// One element type: its metadata, properties, action signals, and how to make the
/// Swift side of an instance.
package final class ElementClass: Sendable {
    package let factoryName: String
    let typeName: String
    let longName: String
    let klass: String
    let summary: String
    let properties: [ElementProperty]
    let actions: [String]
    /// Sink pad template caps; "" for a source element (no sink pad).
    let sinkCaps: String
    let srcCaps: String
    /// A source is a bin (it keeps its SOURCE flag) and has no sink pad; the others are
    /// plain elements around a private appsink/appsrc pair.
    let isSource: Bool
    let make: @Sendable (UnsafeMutablePointer<GstElement>, ElementClass) -> SwiftElement

    init(factoryName: String, typeName: String, longName: String, klass: String, summary: String,
         properties: [ElementProperty], actions: [String] = [], sinkCaps: String, srcCaps: String,
         isSource: Bool = false,
         make: @escaping @Sendable (UnsafeMutablePointer<GstElement>, ElementClass) -> SwiftElement) {
        self.factoryName = factoryName
        self.typeName = typeName
        self.longName = longName
        self.klass = klass
        self.summary = summary
        self.properties = properties
        self.actions = actions
        self.sinkCaps = sinkCaps
        self.srcCaps = srcCaps
        self.isSource = isSource
        self.make = make
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

    private static func instance(_ ctx: UnsafeMutableRawPointer?) -> SwiftElement {
        Unmanaged<AnyObject>.fromOpaque(ctx!).takeUnretainedValue() as! SwiftElement
    }

    /// Static text: C may keep the pointer for the life of the process.
    private static var author: UnsafePointer<CChar> {
        UnsafeRawPointer(("FilterCam developers" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    static let callbacks: FcElementCallbacks = {
        var cb = FcElementCallbacks()
        cb.instance_init = { element, classCtx in
            let cls = Unmanaged<ElementClass>.fromOpaque(classCtx!).takeUnretainedValue()
            let object = cls.make(element!, cls)
            return Unmanaged.passRetained(object as AnyObject).toOpaque()
        }
        cb.finalize = { ctx in
            Unmanaged<AnyObject>.fromOpaque(ctx!).release()
        }
        cb.set_property = { ctx, id, value in
            let element = instance(ctx)
            guard let cls = (element as? HasElementClass)?.elementClass else { return }
            let index = Int(id) - 1
            let newValue = PropertyValue(reading: value!, as: cls.properties[index].kind)
            cls.log.log(GST_LEVEL_DEBUG, nil, { "\(cls.factoryName): set \(cls.properties[index].name) = \(newValue.text)" },
                        file: #fileID, function: #function, line: #line)
            element.setProperty(index, newValue)
        }
        cb.get_property = { ctx, id, value in
            let element = instance(ctx)
            guard let cls = (element as? HasElementClass)?.elementClass else { return }
            let index = Int(id) - 1
            element.getProperty(index).write(to: value!, as: cls.properties[index].kind)
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
        return cb
    }()
}

/// Elements know their class, so the C callbacks can find property kinds.
protocol HasElementClass {
    var elementClass: ElementClass { get }
}
