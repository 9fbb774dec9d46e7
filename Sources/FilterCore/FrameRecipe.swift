/// The lens/filter recipe for one frame: the geometry (orientation, zoom, lens crop) and
/// the filters applied inside the lens. The one place the lens is applied, whichever way
/// the host writes the frame:
/// - in place, when the geometry changes nothing and the frame's memory is writable;
/// - copying, when it changes nothing but the memory is shared: the lens filtered into
///   the new frame and the rest copied, in one pass;
/// - rendering, when the geometry makes a new picture: the picture first, then the
///   filters inside the lens of the output.
public struct FrameRecipe {
    public let plan: GeometryPlan
    public let filters: [any FrameFilter]

    public init(plan: GeometryPlan, filters: [any FrameFilter]) {
        self.plan = plan
        self.filters = filters
    }

    /// The lens in output pixels (the whole output when there is no lens or it is cropped to).
    public var lensRect: PixelRect { plan.lensPixelRect }

    private var lensIsWholeFrame: Bool {
        lensRect == PixelRect(x: 0, y: 0, width: plan.outputWidth, height: plan.outputHeight)
    }

    /// Applies the recipe to a frame of the input size, in place (only when `plan.isIdentity`).
    public func applyInPlace(_ frame: FrameView) {
        precondition(plan.isIdentity, "a recipe that changes the geometry needs a new frame")
        guard !filters.isEmpty else { return }
        filters.apply(to: lensIsWholeFrame ? frame : frame.subview(lensRect))
    }

    /// Writes the recipe's output for `source` into `destination` (other memory, of the
    /// output size). `unfiltered` sees the picture of the output's geometry before the
    /// filters: the rendered one, or `source` itself when the geometry changes nothing.
    public func apply(from source: FrameView, to destination: FrameView, unfiltered: ((FrameView) -> Void)? = nil) {
        if !plan.isIdentity {
            plan.render(from: source, to: destination)
            unfiltered?(destination)
            if !filters.isEmpty { filters.apply(to: destination.subview(lensRect)) }
            return
        }
        unfiltered?(source)
        if lensIsWholeFrame {
            filters.apply(from: source, to: destination)
        } else {
            LensCopy.copyOutside(lensRect, from: source, to: destination)
            filters.apply(from: source.subview(lensRect), to: destination.subview(lensRect))
        }
    }

    /// The job for one frame: this recipe, then `finish` on the finished picture (stills,
    /// on-screen display). `unfiltered` sees the picture of the output's geometry before
    /// the filters touch it (the face search: a face stays a face under any look).
    /// Passthrough when nothing changes anything.
    public func job(unfiltered: ((FrameView) -> Void)? = nil, finish: ((FrameView) -> Void)?) -> FrameJob {
        if plan.isIdentity {
            if filters.isEmpty && finish == nil && unfiltered == nil { return .passthrough(width: plan.outputWidth, height: plan.outputHeight) }
            return FrameJob(outputWidth: plan.outputWidth, outputHeight: plan.outputHeight, work: .inPlace({ frame in
                unfiltered?(frame)
                applyInPlace(frame)
                finish?(frame)
            }, copying: { source, destination in
                apply(from: source, to: destination, unfiltered: unfiltered)
                finish?(destination)
            }))
        }
        return FrameJob(outputWidth: plan.outputWidth, outputHeight: plan.outputHeight, work: .render { source, destination in
            apply(from: source, to: destination, unfiltered: unfiltered)
            finish?(destination)
        }, geometry: plan)
    }

    /// The job for one YUV frame: geometry (`GeometryPlan.render` for YUV), then the
    /// filters inside the lens, in place. Every filter must be a `YUVFilter`
    /// (`[any FrameFilter].workOnYUV`); the plan must snap the lens (`lensGrid` 2).
    /// `finish` runs on the finished picture (faces), as in `job(finish:)`; when it only
    /// reads (`finishOnlyReads`) and nothing else changes the frame, the frame is only read.
    public func yuvJob(unfiltered: ((YUVFrame) -> Void)? = nil, finish: ((YUVFrame) -> Void)? = nil,
                       finishOnlyReads: Bool = false) -> FrameJob {
        precondition(filters.workOnYUV, "a filter of the chain has no YUV path")
        let filters = self.filters, lens = lensRect, whole = lensIsWholeFrame, plan = self.plan
        if plan.isIdentity {
            if filters.isEmpty && finish == nil && unfiltered == nil { return .passthrough(width: plan.outputWidth, height: plan.outputHeight) }
            if filters.isEmpty, finishOnlyReads {
                return FrameJob(outputWidth: plan.outputWidth, outputHeight: plan.outputHeight, work: .yuvRead { frame in
                    unfiltered?(frame)
                    finish?(frame)
                })
            }
            return FrameJob(outputWidth: plan.outputWidth, outputHeight: plan.outputHeight, work: .yuvInPlace { frame in
                unfiltered?(frame)
                if !filters.isEmpty { filters.apply(to: whole ? frame : frame.subframe(lens)) }
                finish?(frame)
            })
        }
        return FrameJob(outputWidth: plan.outputWidth, outputHeight: plan.outputHeight, work: .yuvRender { source, destination in
            apply(from: source, to: destination, unfiltered: unfiltered)
            finish?(destination)
        }, geometry: plan)
    }

    /// Writes the recipe's output for the YUV `source` into `destination` (other memory, of
    /// the output size): the geometry (a copy when it changes nothing), then the filters
    /// inside the lens (`unfiltered` sees the picture between the two).
    public func apply(from source: YUVFrame, to destination: YUVFrame, unfiltered: ((YUVFrame) -> Void)? = nil) {
        precondition(filters.workOnYUV, "a filter of the chain has no YUV path")
        if plan.isIdentity { destination.copy(from: source) } else { plan.render(from: source, to: destination) }
        unfiltered?(destination)
        if !filters.isEmpty { filters.apply(to: lensIsWholeFrame ? destination : destination.subframe(lensRect)) }
    }
}
