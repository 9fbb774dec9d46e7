import FilterCore

/// Frames of any size (1×1 up to 8191 wide), row padding and format through orientation,
/// zoom, the lens and up to two filters with any parameter values. Built with
/// AddressSanitizer, a read or write outside a frame stops the run; the checks below
/// catch what stays inside the allocation but outside the picture.
enum FrameTarget {
    /// What row padding is filled with: a filter or transform that writes it is caught.
    static let paddingByte: UInt8 = 0xA5

    static func run(_ input: UnsafeRawBufferPointer) {
        var bytes = FuzzBytes(input)
        let wide = bytes.byte() == 0xFF
        let width = wide ? 8191 : bytes.int(in: 1...70)
        let height = wide ? bytes.int(in: 1...2) : bytes.int(in: 1...40)
        let format = bytes.pick(PixelFormat.allCases)
        let method = bytes.pick(OrientationMethod.allCases)
        let zoom = bytes.bool() ? 1 : bytes.double(in: 1...8)
        let x = bytes.double(in: 0...1), y = bytes.double(in: 0...1)
        let lens = (try? LensRect(x: x, y: y, w: max(0.001, bytes.double(in: 0...1) * (1 - x)),
                                  h: max(0.001, bytes.double(in: 0...1) * (1 - y)))) ?? .full
        let lensCrop = bytes.bool()
        let filters = (0..<bytes.int(in: 0...2)).map { _ in randomFilter(&bytes) }
        let seed = UInt32(bytes.byte()) << 8 | UInt32(bytes.byte())

        let source = PixelBuffer(width: width, height: height, format: format,
                                 stride: (width + bytes.int(in: 0...9)) * 4, zeroed: false)
        fill(source.view, seed: seed)

        let plan = GeometryPlan(inputWidth: width, inputHeight: height, method: method, zoom: zoom,
                                lens: lens, lensCrop: lensCrop)
        let turned = [.rotate90R, .rotate90L, .upperLeftDiagonal, .upperRightDiagonal].contains(method)
        let (orientedWidth, orientedHeight) = turned ? (height, width) : (width, height)
        let expected = lensCrop ? (plan.lensRect.width, plan.lensRect.height) : (orientedWidth, orientedHeight)
        FuzzCheck.require((plan.outputWidth, plan.outputHeight) == expected, "plan output \(plan.outputWidth)x\(plan.outputHeight), expected \(expected)")

        let output = paddedBuffer(width: plan.outputWidth, height: plan.outputHeight, format: format, padding: bytes.int(in: 0...5))
        plan.render(from: source.view, to: output.view)
        requirePaddingUntouched(output, after: "\(method) zoom \(zoom) lens \(lens) crop \(lensCrop)")
        if method == .identity && !plan.zooms && !lensCrop {
            FuzzCheck.require(output.packedBytes == source.packedBytes, "identity without zoom changed pixels")
        }
        guard !filters.isEmpty else { return }

        // In place on the lens, as the element filters: pixels outside the lens stay.
        let before = output.packedBytes
        let lensArea = output.view.subview(plan.lensPixelRect)
        filters.map { $0.make() }.apply(to: lensArea)
        requirePaddingUntouched(output, after: "filters \(filters.map(\.id))")
        let after = output.packedBytes
        let r = plan.lensPixelRect
        for row in 0..<output.height {
            for column in 0..<output.width where !(column >= r.x && column < r.x + r.width && row >= r.y && row < r.y + r.height) {
                let i = (row * output.width + column) * 4
                FuzzCheck.require(before[i..<i + 4] == after[i..<i + 4], "filters \(filters.map(\.id)) changed pixel (\(column),\(row)) outside the lens \(r)")
            }
        }
        // Out of place from an unfiltered copy gives the same pixels as in place.
        let unfiltered = paddedBuffer(width: r.width, height: r.height, format: format, padding: 1)
        let copy = PixelBuffer(width: output.width, height: output.height, format: format)
        copy.load(packed: before)
        unfiltered.view.copyPixels(from: copy.view.subview(r))
        let outOfPlace = paddedBuffer(width: r.width, height: r.height, format: format, padding: 2)
        filters.map { $0.make() }.apply(from: unfiltered.view, to: outOfPlace.view)
        requirePaddingUntouched(outOfPlace, after: "filters \(filters.map(\.id)) out of place")
        let inPlace = PixelBuffer(width: r.width, height: r.height, format: format)
        inPlace.view.copyPixels(from: output.view.subview(r))
        FuzzCheck.require(inPlace.packedBytes == outOfPlace.packedBytes,
                          "filters \(filters.map(\.id)) give other pixels out of place than in place on \(r.width)x\(r.height)")
    }

    /// One filter from the catalog with every parameter drawn from its range.
    struct Choice {
        let id: String
        let make: () -> any FrameFilter
    }

    static func randomFilter(_ bytes: inout FuzzBytes) -> Choice {
        let registry = FilterRegistry.shared
        let descriptor = registry.descriptor(id: bytes.pick(registry.ids))!
        var values: [String: FilterValue] = [:]
        for p in descriptor.parameters {
            switch p.kind {
            case .double(let range, _): values[p.name] = .double(bytes.double(in: range))
            case .int(let range, _):
                let span = min(range.upperBound - range.lowerBound, 300)
                values[p.name] = .int(range.lowerBound + bytes.int(in: 0...span))
            case .bool: values[p.name] = .bool(bytes.bool())
            case .color: values[p.name] = .color(UInt32(bytes.byte()) << 24 | UInt32(bytes.byte()) << 16 | UInt32(bytes.byte()) << 8 | UInt32(bytes.byte()))
            case .doubleList(let count, let range, _): values[p.name] = .doubleList((0..<count).map { _ in bytes.double(in: range) })
            case .text: values[p.name] = p.defaultValue   // files: the cube target reads looks
            }
        }
        let configured = FilterValues(values)
        return Choice(id: descriptor.id) { descriptor.make(configured) }
    }

    static func paddedBuffer(width: Int, height: Int, format: PixelFormat, padding: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height, format: format, stride: (width + padding) * 4, zeroed: false)
        buffer.view.base.initializeMemory(as: UInt8.self, repeating: paddingByte, count: buffer.stride * height)
        return buffer
    }

    static func requirePaddingUntouched(_ buffer: PixelBuffer, after what: String) {
        let base = buffer.view.base.assumingMemoryBound(to: UInt8.self)
        for row in 0..<buffer.height {
            for i in buffer.width * 4..<buffer.stride where base[row * buffer.stride + i] != paddingByte {
                FuzzCheck.require(false, "\(what) wrote row padding of a \(buffer.width)x\(buffer.height) frame (row \(row), byte \(i))")
            }
        }
    }

    /// Varied pixels from a small generator (alpha included, so formats with alpha are tested).
    static func fill(_ view: FrameView, seed: UInt32) {
        var state = seed &* 2654435761 &+ 1
        for y in 0..<view.height {
            let row = view.row(y)
            for x in 0..<view.width {
                state = state &* 1664525 &+ 1013904223
                row[x] = state
            }
        }
    }
}
