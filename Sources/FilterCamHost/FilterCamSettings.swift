import FilterCore

/// What the user set on a `filtercam` element: read once per frame by the worker
/// (copied out under the lock, so a frame always sees one consistent setting).
struct FilterCamSettings: Sendable {
    static let defaultFilter = "none"
    static let defaultIntensity = 0.8

    var filterText = defaultFilter
    var chain = FilterChain.none
    var intensity = defaultIntensity

    /// The chain as applied: the `intensity` shortcut folded in.
    var effectiveChain: FilterChain { chain.withStrength(intensity) }
}
