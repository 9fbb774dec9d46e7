import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// `frames-processed` and `frames-dropped`.
extension FrameWorker {
    /// Frames that went downstream.
    var framesProcessed: UInt64 { leftCount.load(ordering: .relaxed) &- min(renegotiationDrops, leftCount.load(ordering: .relaxed)) }
    /// Frames replaced in the mailbox and frames skipped as late (QoS, or unable to reach
    /// the sink in time): those that never reached the appsrc. Frames a flush throws away
    /// (a seek) are not among them, as in any element: none came late (they were counted,
    /// about 2 a seek, and a player's seeks read as a slow filter).
    var framesDropped: UInt64 {
        mailbox.droppedCount + qosDropped.load(ordering: .relaxed) + lateDropped.load(ordering: .relaxed) + renegotiationDrops
    }

    /// Frames that left for downstream, made for caps downstream then refused while
    /// upstream renegotiated (the shell drops them: they never went downstream).
    private var renegotiationDrops: UInt64 { UInt64(fc_filter_renegotiation_drops(element)) }
}

/// The counters every element with a frame worker shows, declared once: the worker is
/// the part of each element that owns them.
extension FrameWorker: ElementPart {
    enum Counter: String, PropertyNames {
        case framesProcessed = "frames-processed", framesDropped = "frames-dropped"
    }

    static let counterProperties = [
        ElementProperty(Counter.framesProcessed.rawValue, nick: "Frames processed",
            blurb: "Frames filtered and pushed downstream since the element started", .counter),
        ElementProperty(Counter.framesDropped.rawValue, nick: "Frames dropped",
            blurb: "Frames dropped because they came late (live sources): too late to reach the sink in time while a newer one waited, more waiting for a busy filter than the latency holds (3 at least), or already late for the sink (QoS); and frames made for caps that downstream stopped taking, while the source renegotiates", .counter),
    ]

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        throw PropertyProblem("\(name) is read-only")   // GObject never writes a read-only property
    }

    func get(_ name: String) -> PropertyValue {
        Counter(rawValue: name) == .framesProcessed ? .uint64(framesProcessed) : .uint64(framesDropped)
    }
}
