/// How a filter is shown where one picture has to say what it does: the effects
/// gallery's thumbnails and `filtercam filters --preview`. A filter whose defaults change
/// nothing (exposure 0 EV, colour controls at 1) is shown with an example setting, and
/// the gallery sets that chain when it is chosen, so the picture is what was shown.
public enum FilterShowcase {
    static let examples: [String: String] = [
        "exposure": "exposure ev=1",
        "color-controls": "color-controls saturation=2 contrast=1.3",
        "white-balance": "white-balance temperature=3500",
        "channel-mix": "channel-mix matrix=<0,0.7,0.3,0, 0,1,0,0, 0,0,1,0>",
        "sharpen": "sharpen amount=2",
        "blur": "blur radius=4",
    ]

    /// The chain that shows filter `id`: its example, or the filter at its defaults.
    public static func chain(for id: String) -> String { examples[id] ?? id }
}
