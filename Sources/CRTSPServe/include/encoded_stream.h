// The one H.264 encoder of `filtercam serve`, fanned out to every viewer: the RTSP
// server's shared media and each WebRTC peer read it through an appsrc of their own, so
// the picture is encoded once however many watch, over whichever protocol. The header
// names no GStreamer type (an appsrc travels as a void pointer).
#pragma once

typedef struct FcEncodedStream FcEncodedStream;

/// `description` is a pipeline producing H.264 (byte-stream, access units) into an
/// appsink named "encoded"; it runs only while someone is subscribed. Returns NULL and
/// sets *error (free with fc_rtsp_free) when it cannot be built.
FcEncodedStream *fc_encoded_stream_new(const char *description, char **error);

/// Another reference, for a server that feeds from the stream.
FcEncodedStream *fc_encoded_stream_ref(FcEncodedStream *stream);
void fc_encoded_stream_unref(FcEncodedStream *stream);

/// Feeds `appsrc` (a GstAppSrc *; the stream keeps only a weak reference) from the next
/// key frame on, starting the encoder if it was stopped and asking it for a key frame now.
/// A force-key-unit event sent upstream into the appsrc (a joining RTSP viewer, a
/// browser's picture-loss report) reaches the encoder.
void fc_encoded_stream_subscribe(FcEncodedStream *stream, void *appsrc);
void fc_encoded_stream_unsubscribe(FcEncodedStream *stream, void *appsrc);

/// The stream ends: the encoder sends out what it holds, then every viewer's appsrc gets
/// EOS (RTSP viewers an RTCP BYE, which players take as the end); it does not start again.
/// Waits up to `timeout_ms` for the EOS to be pushed; returns whether it was (1 when no
/// encoder was running: nobody to tell).
int fc_encoded_stream_finish(FcEncodedStream *stream, int timeout_ms);

/// Appsrcs fed now.
int fc_encoded_stream_subscribers(FcEncodedStream *stream);

/// Watches the camera's last element (a GstElement *, before the inter-video sink) for its
/// first frame: until one has passed, the inter-video source knows no size but its default
/// 320x240, which a viewer's encoder would be set up at (so the camera is not paused before).
/// Its frames are counted too: after the encoder starts, the channel's frames are dropped
/// until the camera has sent one (the channel repeats the frame from before a pause).
void fc_encoded_stream_watch_camera(FcEncodedStream *stream, void *element);
/// The camera is about to be paused (nobody watches): frames its pipeline holds through the
/// pause come out first when it plays again, and are not counted as new.
void fc_encoded_stream_camera_pausing(FcEncodedStream *stream);
/// Whether a frame has passed the watched element.
int fc_encoded_stream_camera_seen(FcEncodedStream *stream);

/// Call often (the session's loop does, every 20 ms): forgets appsrcs that are gone,
/// stops the encoder 2 s after the last one, and prints the encoder's errors on stderr.
void fc_encoded_stream_tick(FcEncodedStream *stream);
