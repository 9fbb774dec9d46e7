import CGStreamer
import CRTSPServe

/// The one H.264 encoder behind `filtercam serve`: it reads the user's pipeline from an
/// inter-video channel and feeds every viewer, the RTSP server's shared media and each
/// WebRTC peer alike, so the picture is encoded once however many watch over whichever
/// protocol. It runs while someone watches and stops 2 s after the last one left.
public final class EncodedStream {
    public struct BuildError: Error, CustomStringConvertible {
        public let description: String
    }

    let pointer: OpaquePointer

    /// H.264 constrained baseline, a key frame every second (and at once for a joining
    /// viewer), the parameter sets in the caps (avc), as the RTSP side always sent it.
    /// Constant quality (x264's default CRF 23) capped at 2 Mbit/s, not a constant 2 Mbit/s:
    /// every byte is paid again for each WebRTC viewer (SRTP, a send per packet), and a
    /// small or still picture filled 2 Mbit/s with nothing to show for it.
    public init(channel: String) throws {
        let description = """
            intervideosrc name=camera channel=\(channel) ! capsfilter name=rate caps=video/x-raw,framerate=30/1 ! videoconvert ! videoscale \
            ! capsfilter name=even ! video/x-raw,format=I420 \
            ! x264enc name=h264 tune=zerolatency speed-preset=ultrafast key-int-max=30 bframes=0 pass=qual quantizer=23 bitrate=2048 \
            ! video/x-h264,profile=constrained-baseline,stream-format=avc,alignment=au ! appsink name=encoded
            """
        var error: UnsafeMutablePointer<CChar>?
        guard let stream = fc_encoded_stream_new(description, &error) else {
            throw BuildError(description: takeErrorText(error, or: "cannot build the encoder"))
        }
        pointer = stream
    }

    deinit { fc_encoded_stream_unref(pointer) }

    /// Viewers fed now, over either protocol.
    public var subscribers: Int { Int(fc_encoded_stream_subscribers(pointer)) }

    /// Watches `element`, the camera pipeline's last before the inter-video sink, for its
    /// first frame (`cameraSeen`): until then the channel knows no size but its default
    /// 320x240, at which a first viewer's stream was set up.
    public func watchCamera(_ element: UnsafeMutablePointer<GstElement>) { fc_encoded_stream_watch_camera(pointer, element) }
    public var cameraSeen: Bool { fc_encoded_stream_camera_seen(pointer) != 0 }
    /// Call just before the camera is paused: what its pipeline holds through the pause is
    /// not shown to the next viewer as the picture of now.
    public func cameraPausing() { fc_encoded_stream_camera_pausing(pointer) }

    /// Ends the stream for every viewer: the encoder sends out the frames it holds, then the
    /// end of stream (an RTSP viewer gets an RTCP BYE, which players take as the end: a file
    /// being recorded is finished, not cut off by an error). It does not start again.
    /// Returns whether the end went out within `timeout` seconds (true when nobody watched).
    @discardableResult
    public func finish(within timeout: Double) -> Bool { fc_encoded_stream_finish(pointer, Int32(timeout * 1000)) != 0 }

    /// Forgets viewers that are gone and stops the encoder when nobody is left; call often.
    public func tick() { fc_encoded_stream_tick(pointer) }
}
