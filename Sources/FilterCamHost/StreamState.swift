import CGStreamer
import CFilterCamShim
import FilterCore

/// What the frame worker knows of the stream it is processing. Owned by the worker
/// thread (only it reads or writes it); reset at READY→PAUSED (`reset`), and at every
/// STREAM_START for what belonged to the previous stream (`startNewStream`).
struct StreamState {
    /// The negotiated input: caps as received, and what was read from them.
    private var inputCaps: GstOwned<GstCaps>?
    var inputInfo = GstVideoInfo()
    private(set) var inputShape: FrameShape?

    /// The caps pushed with the output, kept while size and turn stay the same.
    private var outputCaps: GstOwned<GstCaps>?
    private var outputSize = (width: 0, height: 0, swapsAxes: false)

    /// `image-orientation` tags from upstream (stream scope wins over global), for `auto`.
    private(set) var streamTagOrientation: OrientationMethod?
    private(set) var globalTagOrientation: OrientationMethod?
    var tagOrientation: OrientationMethod? { streamTagOrientation ?? globalTagOrientation }

    /// Whether upstream is live, as the streaming thread found it for the current frame.
    var isLive = false

    /// The frame being processed: its running time and duration (nil when not known), set
    /// before its task is asked for (a recording places the frame in its file by them).
    var frameRunningTime: UInt64?
    var frameDuration: UInt64?

    /// Frames a second, as the input caps say (0 when they do not: variable or unknown).
    var framesPerSecond: Double {
        inputInfo.fps_d > 0 && inputInfo.fps_n > 0 ? Double(inputInfo.fps_n) / Double(inputInfo.fps_d) : 0
    }

    /// Processing times of the last frames, behind the reported latency.
    var recentProcessing = RunningMaximum(window: 30)

    /// How long the last frame's work would take on one thread (ns; twice its time when
    /// it was split), for `FrameWorker.shouldStayOnOneThread`.
    var oneThreadEstimate: UInt64 = 0

    /// When the last frame's work started (ns, `MonotonicClock`; 0 before the first), and
    /// the time from the start before it: how often frames come through a stream that is
    /// not live, where something else (a syncing sink, an encoder) may set the pace.
    var lastWorkStart: UInt64 = 0
    var workPeriod: UInt64 = 0

    /// Everything back to "nothing known" (READY→PAUSED, PAUSED→READY).
    mutating func reset() {
        forgetCaps()
        streamTagOrientation = nil
        globalTagOrientation = nil
        isLive = false
        recentProcessing.reset()
        oneThreadEstimate = 0
        lastWorkStart = 0
        workPeriod = 0
    }

    /// A new stream (STREAM_START): what its predecessor's tags said no longer holds (as
    /// videoflip); caps come again with it.
    mutating func startNewStream() {
        streamTagOrientation = nil
        globalTagOrientation = nil
    }

    /// Notes the orientation a TAG event asks for.
    mutating func observe(_ tags: UnsafeMutablePointer<GstTagList>) {
        var value: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(tags, "image-orientation", &value) != 0, let tag = String(takingGLib: value) else { return }
        let method = OrientationMethod(imageOrientationTag: tag)
        if gst_tag_list_get_scope(tags) == GST_TAG_SCOPE_GLOBAL {
            globalTagOrientation = method
        } else {
            streamTagOrientation = method
        }
    }

    /// Reads the input format when the caps change. `usable`: the caps are raw video in a
    /// format we take; `changed`: they differ from the last ones (so a refusal is new).
    mutating func adopt(_ caps: UnsafeMutablePointer<GstCaps>) -> (usable: Bool, changed: Bool) {
        if let current = inputCaps, gst_caps_is_equal(current.pointer, caps) != 0 { return (inputShape != nil, false) }
        forgetCaps()
        inputCaps = GstOwned(retaining: caps)
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0, info.interlace_mode == GST_VIDEO_INTERLACE_MODE_PROGRESSIVE,
              let name = String(optionalCString: gst_video_format_to_string(info.finfo.pointee.format)),
              let format = FrameFormat(name: name, matrix: Self.matrix(of: info.colorimetry))
        else { return (false, true) }
        inputInfo = info
        inputShape = FrameShape(width: Int(info.width), height: Int(info.height), format: format)
        return (true, true)
    }

    /// The colour matrix and range the caps' colorimetry names (BT.601 when unknown, as
    /// videoconvert assumes for the sizes where it does not say).
    private static func matrix(of c: GstVideoColorimetry) -> YUVMatrix {
        let base: YUVMatrix = switch c.matrix {
        case GST_VIDEO_COLOR_MATRIX_BT709: .bt709
        case GST_VIDEO_COLOR_MATRIX_BT2020: .bt2020
        default: .bt601
        }
        return base.withFullRange(c.range == GST_VIDEO_COLOR_RANGE_0_255)
    }

    /// The input caps with the output size; a 90° turn also turns the pixel aspect ratio
    /// (as videoflip). Everything else (colorimetry, framerate, …) is carried over.
    /// The second value is true when they are new.
    mutating func outputCaps(width: Int, height: Int, swapsAxes: Bool) -> (GstOwned<GstCaps>, isNew: Bool) {
        if let c = outputCaps, outputSize == (width, height, swapsAxes) { return (c, false) }
        let caps = width == Int(inputInfo.width) && height == Int(inputInfo.height) && !swapsAxes
            ? inputCaps!
            : GstOwned(fc_caps_with_size(inputCaps!.pointer, Int32(width), Int32(height), swapsAxes ? 1 : 0)!)
        outputCaps = caps
        outputSize = (width, height, swapsAxes)
        return (caps, true)
    }

    private mutating func forgetCaps() {
        inputCaps = nil
        outputCaps = nil
        inputShape = nil
        outputSize = (0, 0, false)
    }
}
