/// A filter's per-frame work: configured once from its parameter values, then applied
/// to frame after frame. Implementations work in place on the view they are given
/// (a filter that needs neighbouring pixels keeps its own scratch rows).
///
/// `apply` may be called from a streaming thread; a filter must not keep the view.
public protocol FrameFilter: AnyObject {
    func apply(to frame: FrameView)
    /// Writes the filtered `source` into `destination` (same size, other memory). The
    /// default copies, then filters in place; pixel-wise filters do it in one pass.
    func apply(from source: FrameView, to destination: FrameView)
}

extension FrameFilter {
    public func apply(from source: FrameView, to destination: FrameView) {
        destination.copyPixels(from: source)
        apply(to: destination)
    }
}

extension Array where Element == any FrameFilter {
    /// The chain in place.
    public func apply(to frame: FrameView) {
        for f in self { f.apply(to: frame) }
    }

    /// The chain from `source` into `destination`: the first filter reads the source,
    /// the rest work in place on the destination.
    public func apply(from source: FrameView, to destination: FrameView) {
        guard let first else {
            destination.copyPixels(from: source)
            return
        }
        first.apply(from: source, to: destination)
        for f in dropFirst() { f.apply(to: destination) }
    }
}

/// Everything FilterCam knows about one filter: how it is named and documented, the
/// parameters it takes, and how to make a configured instance.
///
/// This is the public API for writing a filter: declare a `FilterDescriptor` and
/// register it (`FilterRegistry.shared.register(...)`); the chain syntax, the
/// `filtercam filters` listing, and the filter's own GStreamer element follow from it.
public struct FilterDescriptor: Sendable {
    /// Lower-case id used in the chain syntax, e.g. `sepia`, `color-controls`.
    public let id: String
    /// Title shown in the filter table, e.g. `Sepia Tone`.
    public let title: String
    /// One line describing what it does.
    public let summary: String
    public let parameters: [FilterParameter]
    /// The parameter that the element's `intensity` shortcut sets, if any.
    public let strengthParameter: String?
    /// Makes a configured filter. `values` holds every parameter, validated.
    public let make: @Sendable (FilterValues) -> any FrameFilter
    /// Checks what the values name outside the process (a look's file: that it reads and
    /// parses), so that a bad value is refused where it is set, in a chain or a property,
    /// and not on a frame; the work (reading, parsing) is done there, off the video path.
    public let check: (@Sendable (FilterValues) throws(FilterError) -> Void)?
    /// Whether the entry changes the picture by itself (at its defaults or at the example
    /// `FilterShowcase` gives): what the preview's filter cycle (n/p), its gallery and the
    /// web page's picker offer. False for `lut`, which needs a file (a folder's `look:NAME`
    /// entries are the looks to pick); pipelines still name every entry.
    public let pickable: Bool
    /// For a look from a folder (`look:NAME`), its file as an absolute path: a chain that
    /// names the same file with `lut file=…` is that entry in the gallery and for n/p.
    var lookFile: String?

    public init(id: String, title: String, summary: String, parameters: [FilterParameter] = [],
                strengthParameter: String? = nil, pickable: Bool = true,
                check: (@Sendable (FilterValues) throws(FilterError) -> Void)? = nil,
                make: @escaping @Sendable (FilterValues) -> any FrameFilter) {
        self.id = id
        self.title = title
        self.summary = summary
        self.parameters = parameters
        self.strengthParameter = strengthParameter
        self.pickable = pickable
        self.check = check
        self.make = make
    }

    /// The name of the filter's own element (`fc<id>`); nil for `none` and for looks from a
    /// folder (`look:NAME`), which are chain entries only.
    public var elementName: String? {
        id == "none" || id.contains(":") ? nil : "fc" + id
    }

    public func parameter(named name: String) -> FilterParameter? {
        parameters.first { $0.name == name }
    }

    /// Every parameter at its default.
    public var defaultValues: FilterValues {
        FilterValues(Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.defaultValue) }))
    }
}

/// The values of one filter's parameters, by name, already validated.
public struct FilterValues: Sendable, Equatable {
    public private(set) var values: [String: FilterValue]
    public init(_ values: [String: FilterValue]) { self.values = values }

    public subscript(name: String) -> FilterValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    public func double(_ name: String) -> Double {
        switch values[name] {
        case .double(let v): return v
        case .int(let v): return Double(v)
        default: preconditionFailure("no double parameter '\(name)'")
        }
    }
    public func int(_ name: String) -> Int {
        guard case .int(let v) = values[name] else { preconditionFailure("no int parameter '\(name)'") }
        return v
    }
    public func bool(_ name: String) -> Bool {
        guard case .bool(let v) = values[name] else { preconditionFailure("no bool parameter '\(name)'") }
        return v
    }
    public func color(_ name: String) -> UInt32 {
        guard case .color(let v) = values[name] else { preconditionFailure("no colour parameter '\(name)'") }
        return v
    }
    public func doubleList(_ name: String) -> [Double] {
        guard case .doubleList(let v) = values[name] else { preconditionFailure("no list parameter '\(name)'") }
        return v
    }
    public func text(_ name: String) -> String {
        guard case .text(let v) = values[name] else { preconditionFailure("no text parameter '\(name)'") }
        return v
    }
}
