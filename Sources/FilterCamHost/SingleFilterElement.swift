import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// One GStreamer element per registered filter (`fcsepia intensity=0.5`,
/// `fcvignette radius=0.7`): a GObject property per declared parameter, the same worker
/// and caps handling as `filtercam`. Nothing here is specific to any filter: the
/// `FilterDescriptor` is the only input.
final class SingleFilterElement: SwiftElement, FrameStage, ElementPart, Sendable {
    static let prefix = "fc"

    private let descriptor: FilterDescriptor
    private let elementPointer: GstPointer<GstElement>
    private var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }
    private let values: Locked<FilterValues>
    private let worker: FrameWorker

    /// Counts the properties set: a property set again, even to the same value, makes the
    /// filter afresh, so a look file saved again is read again (`fclut file=` the same path).
    private let valuesSet = Locked(0)

    /// The filter instance and the values it was made with. Only the worker thread takes
    /// the lock (never contended): it keeps the element Sendable, checked.
    private let active = Locked<(values: FilterValues, set: Int, filter: any FrameFilter)?>(nil)

    init(element: UnsafeMutablePointer<GstElement>, descriptor: FilterDescriptor) {
        elementPointer = GstPointer(element)
        self.descriptor = descriptor
        values = Locked(descriptor.defaultValues)
        worker = FrameWorker(element: element, log: .singleFilter, formats: Self.formats(for: descriptor))
        worker.attach(stage: self)
    }

    /// The formats of a filter's element: YUV too when the filter works on YUV planes.
    static func formats(for d: FilterDescriptor) -> [String] {
        d.worksOnYUV ? FrameFormat.allNames : PixelFormat.allCases.map(\.rawValue)
    }

    /// The element class for a filter: `fc<id>`, type `GstFc<Id>`.
    static func elementClass(for d: FilterDescriptor) -> ElementClass {
        let typeName = "GstFc" + d.id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return ElementClass(
            factoryName: prefix + d.id, typeName: typeName,
            longName: "FilterCam \(d.title)", klass: "Filter/Effect/Video",
            summary: d.summary,
            // The filter's parameters, then the frame worker (its counters).
            parts: [PartSlot(d.parameters.map(property(for:))) { (e: SingleFilterElement) in e },
                    PartSlot(FrameWorker.counterProperties) { (e: SingleFilterElement) in e.worker }],
            sinkCaps: FrameWorker.caps(formats: formats(for: d)), srcCaps: FrameWorker.caps(formats: formats(for: d)),
            make: { element, _ in SingleFilterElement(element: element, descriptor: d) })
    }

    /// The GObject property for a filter parameter: same name, type, range and default.
    static func property(for p: FilterParameter) -> ElementProperty {
        let nick = p.name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        switch p.kind {
        case .double(let r, let d):
            return ElementProperty(p.name, nick: nick, blurb: p.summary, .double(min: r.lowerBound, max: r.upperBound, defaultValue: d))
        case .int(let r, let d):
            return ElementProperty(p.name, nick: nick, blurb: p.summary,
                                   .int(min: Int32(clamping: r.lowerBound), max: Int32(clamping: r.upperBound), defaultValue: Int32(clamping: d)))
        case .bool(let d):
            return ElementProperty(p.name, nick: nick, blurb: p.summary, .bool(defaultValue: d))
        case .color(let d):
            return ElementProperty(p.name, nick: nick, blurb: p.summary + " (0xAARRGGBB)", .uint(min: 0, max: UInt32.max, defaultValue: d))
        case .doubleList:
            return ElementProperty(p.name, nick: nick, blurb: p.summary + " (\(p.rangeDescription))",
                                   .string(defaultValue: p.defaultValue.description))
        case .text(let what, let d):
            return ElementProperty(p.name, nick: nick, blurb: "\(p.summary): \(what)", .string(defaultValue: d))
        }
    }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let p = descriptor.parameters.first(where: { $0.name == name }) else { throw PropertyProblem.unexpected(value, for: name) }
        let filterValue: FilterValue
        switch (p.kind, value) {
        case (.double, .double(let v)): filterValue = .double(v)
        case (.int, .int(let v)): filterValue = .int(v)
        case (.bool, .bool(let v)): filterValue = .bool(v)
        case (.color, .int(let v)): filterValue = .color(UInt32(truncatingIfNeeded: v))
        case (.doubleList, .string(nil)), (.text, .string(nil)):
            // NULL is the default, as for filtercam's strings (a matrix refused '' here).
            filterValue = p.defaultValue
        case (.doubleList, .string(let text?)):
            do {
                filterValue = try p.validate(try FilterChain.parseValue(text, for: p))
            } catch {
                throw PropertyProblem(error.message)
            }
        case (.text, .string(let text?)): filterValue = .text(text)
        default: throw PropertyProblem.unexpected(value, for: name)
        }
        // What the values name (a look's file) is read and checked here, on the setter's
        // thread, not on a frame; a refusal keeps the values as they were.
        var next = values.withLock { $0 }
        next[p.name] = filterValue
        do {
            _ = try p.validate(filterValue)
            try descriptor.check?(next)
        } catch {
            throw PropertyProblem(error.message)
        }
        values.withLock { $0[p.name] = filterValue }
        valuesSet.withLock { $0 += 1 }
    }

    func get(_ name: String) -> PropertyValue {
        let p = descriptor.parameters.first { $0.name == name }!
        switch values.withLock({ $0[p.name] }) {
        case .double(let v): return .double(v)
        case .int(let v): return .int(v)
        case .bool(let v): return .bool(v)
        case .color(let v): return .int(Int(v))
        case .doubleList(let v): return .string(FilterValue.doubleList(v).description)
        case .text(let v): return .string(v)
        case nil: return .string(nil)
        }
    }

    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        worker.filterMessage(message)
    }

    func taskMaker() -> FrameTaskMaker {
        let current = values.withLock { $0 }, set = valuesSet.withLock { $0 }
        return FrameTaskMaker { [weak self] input, _ in self?.task(for: input, values: current, set: set) }
    }

    private func task(for input: FrameShape, values current: FilterValues, set: Int) -> FrameTask {
        let filter = active.withLock { a -> any FrameFilter in
            if let a, a.values == current, a.set == set { return a.filter }
            a = (current, set, descriptor.make(current))
            return a!.filter
        }
        let filters: [any FrameFilter] = [filter]
        if input.format.isYUV {   // the caps offer YUV only to filters that work on it
            return FrameTask(FrameJob(outputWidth: input.width, outputHeight: input.height, work: .yuvInPlace { filters.apply(to: $0) }))
        }
        return FrameTask(FrameJob(outputWidth: input.width, outputHeight: input.height,
                                  work: .inPlace({ filters.apply(to: $0) }, copying: { filters.apply(from: $0, to: $1) })))
    }
}
