/// The Debian package each stock GStreamer element of the shipped pipelines and the docs
/// comes in: a pipeline naming one that is not installed is told the package to install
/// (a look-alike's name, "did you mean x265enc?" for a missing x264enc, sent users astray).
enum StockElementPackages {
    static let debian: [String: String] = {
        var table: [String: String] = [:]
        let packages: [(String, [String])] = [
            ("gstreamer1.0-plugins-base", ["videotestsrc", "videoconvert", "videoscale", "videorate", "audiotestsrc", "audioconvert",
                                           "audioresample", "appsrc", "appsink", "playbin", "decodebin", "uridecodebin", "tcpserversink",
                                           "rawvideoparse", "theoraenc", "vorbisenc", "oggmux"]),
            ("gstreamer1.0-plugins-good", ["v4l2src", "jpegenc", "jpegdec", "pngdec", "pngenc", "mp4mux", "qtmux", "qtdemux",
                                           "matroskamux", "matroskademux", "rtph264pay", "rtph264depay", "rtpjpegpay", "udpsink",
                                           "udpsrc", "rtspsrc", "videoflip", "videocrop", "videobalance", "imagefreeze", "flvmux",
                                           "pulsesrc", "vp8enc", "vp8dec", "autovideosink", "autoaudiosrc", "multifilesink"]),
            ("gstreamer1.0-plugins-ugly", ["x264enc"]),
            ("gstreamer1.0-plugins-bad", ["webrtcbin", "srtsink", "srtsrc", "h264parse", "mpegtsmux", "intervideosink",
                                          "intervideosrc", "fpsdisplaysink", "rtmpsink", "voaacenc"]),
            ("gstreamer1.0-libav", ["avenc_aac", "avdec_h264", "avenc_mpeg4"]),
            ("gstreamer1.0-x", ["ximagesink", "xvimagesink"]),
            ("gstreamer1.0-gl", ["glimagesink", "gldownload", "glupload"]),
            ("gstreamer1.0-pipewire", ["pipewiresink", "pipewiresrc"]),
            ("gstreamer1.0-opencv", ["facedetect"]),
            ("gstreamer1.0-rtsp", ["rtspclientsink"]),
            ("gstreamer1.0-alsa", ["alsasrc", "alsasink"]),
        ]
        for (package, elements) in packages { for element in elements { table[element] = package } }
        return table
    }()
}
