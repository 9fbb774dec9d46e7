import CGStreamer

/// Memory GLib hands over (`transfer full` strings, `transfer container` arrays): read
/// into Swift values and freed here, so no `g_free` is written next to the call.
extension String {
    /// Copies a string handed over and frees it; nil for NULL.
    package init?(takingGLib string: UnsafeMutablePointer<gchar>?) {
        guard let string else { return nil }
        self.init(cString: string)
        g_free(string)
    }
}

extension Array {
    /// Copies the `count` elements of a block handed over (the elements themselves stay
    /// borrowed) and frees the block; empty for NULL.
    package init(takingGLib block: UnsafeMutablePointer<Element>?, count: Int) {
        guard let block else { self = []; return }
        self = Array(UnsafeBufferPointer(start: block, count: count))
        g_free(block)
    }
}
