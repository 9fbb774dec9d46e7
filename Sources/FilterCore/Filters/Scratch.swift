/// Scratch memory a filter keeps between frames; it grows when the frame does.
/// (A raw pointer, not an `[T]` in a class: indexing that per pixel costs 10×.)
final class Scratch<Element> {
    private(set) var pointer: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init() {
        capacity = 0
        pointer = .allocate(capacity: 1)
    }

    deinit { pointer.deallocate() }

    /// Room for at least `count` elements; the contents are not kept on growth.
    func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            pointer.deallocate()
            pointer = .allocate(capacity: count)
            capacity = count
        }
        return pointer
    }
}
