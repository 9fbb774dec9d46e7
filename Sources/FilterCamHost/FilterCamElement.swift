import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// `filtercam`: the FilterCam camera filter as a GStreamer element.
///
///     gst-launch-1.0 videotestsrc ! filtercam filter=sepia intensity=1 ! videoconvert ! autovideosink
///
/// Properties are declared in `FilterCamElement.properties` (the table `inspect` shows);
/// settings live in `FilterCamSettings`; frames cross `FrameWorkerBin`.
final class FilterCamElement: SwiftElement, HasElementClass, FrameStage, @unchecked Sendable {
    enum Property: Int, CaseIterable {
        case filter, intensity, framesProcessed, framesDropped
    }

    static let properties: [ElementProperty] = Property.allCases.map { p in
        switch p {
        case .filter:
            return ElementProperty("filter", nick: "Filter",
                blurb: "Filter id or chain, e.g. \"sepia intensity=0.8, vignette radius=0.7\" (see `filtercam filters`)",
                .string(defaultValue: FilterCamSettings.defaultFilter))
        case .intensity:
            return ElementProperty("intensity", nick: "Intensity",
                blurb: "Strength of the first filter in the chain (0 = original), unless the chain sets it",
                .double(min: 0, max: 1, defaultValue: FilterCamSettings.defaultIntensity))
        case .framesProcessed:
            return ElementProperty("frames-processed", nick: "Frames processed",
                blurb: "Frames filtered and pushed downstream since the element started", .counter)
        case .framesDropped:
            return ElementProperty("frames-dropped", nick: "Frames dropped",
                blurb: "Frames replaced by a newer one while the filter was busy (live sources only)", .counter)
        }
    }

    static let elementClass = ElementClass(
        factoryName: "filtercam", typeName: "GstFilterCam",
        longName: "FilterCam camera filter",
        klass: "Filter/Effect/Video",
        summary: "Core Image-style filters, lens, orientation and zoom for live camera video, written in Swift",
        properties: properties,
        sinkCaps: FrameWorkerBin.caps, srcCaps: FrameWorkerBin.caps,
        make: { element, _ in FilterCamElement(element: element) })

    var elementClass: ElementClass { Self.elementClass }

    let element: UnsafeMutablePointer<GstElement>
    private let settings = Mutex(FilterCamSettings())
    private var worker: FrameWorkerBin!
    /// The last property value that was refused, reported when the element starts.
    private let pendingError = Mutex<String?>(nil)

    // Worker-thread state: filter instances are rebuilt only when the chain changes.
    private var activeChain = FilterChain.none
    private var activeFilters: [any FrameFilter] = []

    init(element: UnsafeMutablePointer<GstElement>) {
        self.element = element
        worker = FrameWorkerBin(element: element, stage: self)
    }

    // MARK: Properties

    func setProperty(_ index: Int, _ value: PropertyValue) {
        guard let property = Property(rawValue: index) else { return }
        switch (property, value) {
        case (.filter, .string(let text)):
            let text = text ?? FilterCamSettings.defaultFilter
            do {
                let chain = try FilterChain.parse(text)
                settings.withLock { $0.filterText = text; $0.chain = chain }
            } catch {
                refuse("filter", text, error.message)
            }
        case (.intensity, .double(let v)):
            settings.withLock { $0.intensity = v }
        default:
            break
        }
    }

    func getProperty(_ index: Int) -> PropertyValue {
        switch Property(rawValue: index)! {
        case .filter: return .string(settings.withLock { $0.filterText })
        case .intensity: return .double(settings.withLock { $0.intensity })
        case .framesProcessed: return .uint64(worker.framesProcessed)
        case .framesDropped: return .uint64(worker.framesDropped)
        }
    }

    /// An invalid value keeps the previous one. While the element runs, the refusal is a
    /// warning on the bus; before it runs (a pipeline description) it is an error when
    /// the pipeline starts, so `filtercam launch` fails with the message.
    private func refuse(_ property: String, _ value: String, _ why: String) {
        let text = "\(GStreamer.name(of: element)): invalid \(property) '\(value)': \(why)"
        if isRunning {
            fc_post_warning(element, text, nil)
        } else {
            pendingError.withLock { $0 = text }
        }
    }

    private var isRunning: Bool {
        var state = GST_STATE_NULL, pending = GST_STATE_NULL
        gst_element_get_state(element, &state, &pending, 0)
        return state.rawValue >= GST_STATE_PAUSED.rawValue
    }

    // MARK: Element

    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn {
        if !after && fc_transition_current(transition) == Int32(GST_STATE_NULL.rawValue),
           let error = pendingError.withLock({ e -> String? in defer { e = nil }; return e }) {
            fc_post_error(element, error, nil)
            return GST_STATE_CHANGE_FAILURE
        }
        return worker.changeState(transition, after: after, result: result)
    }

    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        worker.filterMessage(message)
    }

    func action(_ index: Int) {}

    // MARK: Frames (worker thread)

    func job(for input: FrameShape) -> FrameJob {
        let s = settings.withLock { $0 }
        let chain = s.effectiveChain
        if chain != activeChain {
            activeChain = chain
            activeFilters = chain.makeFilters()
        }
        if activeFilters.isEmpty {
            return .passthrough(width: input.width, height: input.height)
        }
        let filters = activeFilters
        return FrameJob(outputWidth: input.width, outputHeight: input.height,
                        work: .inPlace({ filters.apply(to: $0) }, copying: { filters.apply(from: $0, to: $1) }))
    }
}
