#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The filters known to this process, in the order of the filter table.
/// The built-in catalog registers itself first; programs add their own.
public final class FilterRegistry: Sendable {
    public static let shared = FilterRegistry(registeringBuiltIns: true)

    private let entries: Locked<[FilterDescriptor]>

    public init(registeringBuiltIns: Bool) {
        entries = Locked(registeringBuiltIns ? BuiltInFilters.all : [])
    }

    /// Adds a filter; a filter with the same id replaces the earlier one.
    public func register(_ descriptor: FilterDescriptor) {
        entries.withLock { list in
            if let i = list.firstIndex(where: { $0.id == descriptor.id }) {
                list[i] = descriptor
            } else {
                list.append(descriptor)
            }
        }
    }

    public var all: [FilterDescriptor] { entries.withLock { $0 } }

    public var ids: [String] { all.map(\.id) }

    /// The entries a user picks from: the filter cycle (n/p), the gallery, the web page.
    public var pickable: [FilterDescriptor] { all.filter(\.pickable) }

    /// The pickable id `step` places after `id` in the catalog, wrapping (next/previous
    /// filter). From an entry that is not offered (`lut file=…` set in a pipeline) the
    /// step starts at its place in the catalog.
    public func id(after id: String, step: Int) -> String {
        let list = all
        guard list.contains(where: \.pickable) else { return id }
        var i = list.firstIndex { $0.id == id } ?? 0
        repeat {
            i = ((i + step) % list.count + list.count) % list.count
        } while !list[i].pickable
        return list[i].id
    }

    /// The offered entry a chain stands for (the gallery's selection, where n and p step
    /// from): its first filter's, or for `lut file=…` the folder's look with that file;
    /// nil when it is none of them (a `lut` of another file).
    public func pickableID(of chain: FilterChain) -> String? {
        let offered = pickable
        guard let first = chain.steps.first else { return offered.first { $0.id == "none" }?.id }
        if offered.contains(where: { $0.id == first.id }) { return first.id }
        let file = first.id == "lut" ? first.values.text("file") : ""
        guard !file.isEmpty else { return nil }
        let path = LookFolder.absolutePath(file)
        return offered.first { $0.lookFile == path }?.id
    }

    /// `pickableID(of:)` for a chain as written; nil when it does not parse.
    public func pickableID(ofChain text: String) -> String? {
        (try? FilterChain.parse(text, registry: self)).flatMap { pickableID(of: $0) }
    }

    public func descriptor(id: String) -> FilterDescriptor? {
        entries.withLock { list in list.first { $0.id == id } }
    }

    public func lookup(id: String) throws(FilterError) -> FilterDescriptor {
        guard let d = descriptor(id: id) else {
            throw FilterError("unknown filter \(id.quotedForMessage)\(hint(for: id)); valid filters: \(ids.joined(separator: ", "))")
        }
        return d
    }

    /// " (did you mean "x"?)" for an unknown id, or nothing: a look named without its
    /// `look:` prefix is the likely intent too.
    public func hint(for id: String) -> String {
        let ids = ids
        if ids.contains("look:" + id) { return " (did you mean \"look:\(id)\"?)" }
        if id != id.lowercased() && ids.contains(id.lowercased()) { return " (did you mean \"\(id.lowercased())\"?)" }
        if id.hasPrefix("look:") && !ids.contains(where: { $0.hasPrefix("look:") }) {
            // FILTERCAM_LOOKS= (set, empty) is how the shipped looks are left out on purpose.
            if let folder = getenv(LookFolder.environmentVariable), folder.pointee == 0 {
                return " (no looks are loaded: FILTERCAM_LOOKS is set empty, which leaves the shipped ones out; unset it, or set FILTERCAM_LOOKS=DIR)"
            }
            // Under stock gst-launch-1.0 the plugin loads no looks folder by itself.
            return " (no looks are loaded here: give the element looks=DIR, or set FILTERCAM_LOOKS=DIR; the filtercam program loads the shipped ones)"
        }
        return NameSuggestion.hint(for: id, among: ids)
    }
}
