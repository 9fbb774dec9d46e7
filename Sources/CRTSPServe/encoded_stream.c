// One encoder, many appsrcs: the fan-out behind `filtercam serve`'s RTSP and WebRTC
// viewers. Encoded buffers are shared (a copy of the buffer's metadata per viewer, the
// memory itself is not copied) and stamped again in each viewer's running time, keeping
// the spacing the source gave them, so each viewer's pipeline keeps its own base time and
// the encoder's jitter does not reach the viewers' timestamps.
#include "encoded_stream.h"
#include <string.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

// A viewer whose appsrc holds this many frames is not keeping up (or is blocked while its
// media is being prepared): it skips to the next key frame rather than falling behind.
#define FC_BACKLOG_FRAMES 5
// Requests for a key frame made while one is on its way are answered by it (several
// viewers joining at once); one that has not come by then is asked for again.
#define FC_KEY_REQUEST_PATIENCE_US (500 * 1000)
#define FC_IDLE_STOP_US (2 * G_USEC_PER_SEC)
// A frame whose source time, carried over, would be this far from the viewer's now (the
// encoder restarted, or fell this far behind) starts the carrying over again.
#define FC_RESYNC_NS (500 * GST_MSECOND)

typedef struct {
  GWeakRef appsrc;
  GstPad *pad;             // the appsrc's src pad, where upstream key-frame requests are caught
  gulong probe;
  gboolean waiting_for_key;
  GstCaps *caps;           // the caps this appsrc was given last
  gboolean timed;          // offset is set
  GstClockTimeDiff offset; // the viewer's running time minus the encoder's, for this viewer
  GstClockTime last;       // the last timestamp given
  gboolean played;         // its media has been PLAYING: PAUSED after that is the viewer's pause
} Subscriber;

struct FcEncodedStream {
  GstElement *pipeline;
  GstElement *sink;        // the appsink "encoded"
  GMutex lock;             // subscribers
  GPtrArray *subscribers;  // Subscriber *
  GMutex state_lock;       // running; never held with `lock` while the state changes
  gboolean running;
  gint64 empty_since;      // monotonic µs; 0 while someone is subscribed
  gint64 key_requested;    // monotonic µs of the request on its way, 0 when none; atomic
  gboolean camera_seen;    // a frame has left the camera's pipeline (fc_encoded_stream_watch_camera); atomic
  GstVideoInfo channel_info;  // the caps the channel said last (its streaming thread only)
  gboolean channel_info_set;
  gint64 camera_frames;    // frames that have left the camera's pipeline; atomic
  gint64 frames_at_start;  // camera_frames when the encoder last started; atomic
  gboolean camera_watched; // camera_frames counts (fc_encoded_stream_watch_camera found the pad)
  GstClockTime stale_until; // the channel's frames up to this time are from before the camera's latest (blackened); atomic
  GstElement *camera;       // the watched element (a weak pointer: the camera's pipeline outlives the stream's use)
  GstClockTime paused_at;   // the camera's running time when it was last paused; atomic
  gboolean failed;         // the encoder posted an error: started again by the next tick; atomic
  gint64 last_restart;     // monotonic µs
  GMutex end_lock;         // ended, viewers_told
  GCond end_said;
  gboolean ended;          // fc_encoded_stream_finish was called: no new start
  gboolean viewers_told;   // the end of stream has been pushed into every viewer's appsrc
};

static void subscriber_free(gpointer p) {
  Subscriber *sub = p;
  if (sub->probe) gst_pad_remove_probe(sub->pad, sub->probe);
  if (sub->pad) gst_object_unref(sub->pad);
  g_weak_ref_clear(&sub->appsrc);
  gst_clear_caps(&sub->caps);
  g_free(sub);
}

static void request_key_frame(FcEncodedStream *s) {
  gint64 now = g_get_monotonic_time();
  gint64 pending = __atomic_load_n(&s->key_requested, __ATOMIC_RELAXED);
  if (pending && now - pending < FC_KEY_REQUEST_PATIENCE_US) return;
  if (!__atomic_compare_exchange_n(&s->key_requested, &pending, now, FALSE, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
  GstEvent *event = gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0);
  gst_element_send_event(s->sink, event);
}

static GstClockTime running_time(GstElement *element) {
  GstClock *clock = gst_element_get_clock(element);
  if (!clock) return GST_CLOCK_TIME_NONE;
  GstClockTime now = gst_clock_get_time(clock);
  gst_object_unref(clock);
  return now - gst_element_get_base_time(element);
}

// The frame's time in the viewer's running time: the first frame (and a frame that would
// land far from now) is stamped now, the others keep their distance from it.
static GstClockTime viewer_time(Subscriber *sub, GstElement *src, GstClockTime pts) {
  GstClockTime now = running_time(src);
  if (!GST_CLOCK_TIME_IS_VALID(now) || !GST_CLOCK_TIME_IS_VALID(pts)) return now;
  GstClockTimeDiff mapped = (GstClockTimeDiff)pts + sub->offset;
  if (!sub->timed || mapped <= (GstClockTimeDiff)sub->last || GST_CLOCK_DIFF(mapped, now) > FC_RESYNC_NS
      || GST_CLOCK_DIFF(now, mapped) > FC_RESYNC_NS) {
    // Never before the last frame given (a viewer's times must only go forward).
    GstClockTimeDiff start = sub->timed && (GstClockTimeDiff)now <= (GstClockTimeDiff)sub->last
        ? (GstClockTimeDiff)sub->last + GST_MSECOND : (GstClockTimeDiff)now;
    sub->offset = start - (GstClockTimeDiff)pts;
    sub->timed = TRUE;
    mapped = start;
  }
  sub->last = (GstClockTime)mapped;
  return sub->last;
}

// Pushes one encoded frame to every subscriber that can take it; runs on the encoder's
// streaming thread.
static GstFlowReturn on_sample(GstAppSink *sink, gpointer data) {
  FcEncodedStream *s = data;
  GstSample *sample = gst_app_sink_pull_sample(sink);
  if (!sample) return GST_FLOW_FLUSHING;
  GstBuffer *buffer = gst_sample_get_buffer(sample);
  GstCaps *caps = gst_sample_get_caps(sample);
  gboolean key = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
  gboolean want_key = FALSE;
  if (key) __atomic_store_n(&s->key_requested, 0, __ATOMIC_RELAXED);   // it answers every request made before it
  g_mutex_lock(&s->lock);
  for (guint i = 0; i < s->subscribers->len; i++) {
    Subscriber *sub = g_ptr_array_index(s->subscribers, i);
    GstElement *src = g_weak_ref_get(&sub->appsrc);
    if (!src) continue;   // gone: the next tick forgets it
    // Not started yet (its media is still being built): it starts at a key frame. Paused by
    // its viewer (RTSP PAUSE), it gets nothing until it plays again, then starts at a key
    // frame: frames queued meanwhile, stamped in a running time that stood still, came
    // out at once on PLAY, and the next ones went back in time by as many.
    if (GST_STATE(src) == GST_STATE_PLAYING) sub->played = TRUE;
    gboolean paused_by_viewer = sub->played && GST_STATE(src) < GST_STATE_PLAYING;
    if (GST_STATE(src) < GST_STATE_PAUSED || paused_by_viewer || gst_app_src_get_current_level_buffers(GST_APP_SRC(src)) > FC_BACKLOG_FRAMES) {
      want_key |= !sub->waiting_for_key && GST_STATE(src) >= GST_STATE_PAUSED && !paused_by_viewer;
      sub->waiting_for_key = TRUE;
    } else if (!sub->waiting_for_key || key) {
      sub->waiting_for_key = FALSE;
      if (!sub->caps || !gst_caps_is_equal(sub->caps, caps)) {
        gst_app_src_set_caps(GST_APP_SRC(src), caps);
        gst_caps_replace(&sub->caps, caps);
      }
      GstBuffer *copy = gst_buffer_copy(buffer);
      GST_BUFFER_PTS(copy) = GST_BUFFER_DTS(copy) = viewer_time(sub, src, GST_BUFFER_PTS(buffer));   // no B-frames: DTS = PTS
      gst_app_src_push_buffer(GST_APP_SRC(src), copy);
    } else {
      want_key = TRUE;   // started and waiting: ask until one comes
    }
    gst_object_unref(src);
  }
  g_mutex_unlock(&s->lock);
  if (want_key) request_key_frame(s);
  gst_sample_unref(sample);
  return GST_FLOW_OK;
}

// The encoder's last frame has gone out: every viewer is told the stream ended (an RTSP
// viewer gets an RTCP BYE, which rtspsrc turns into EOS: a recording viewer's file is
// finished instead of cut off by an error).
static void on_eos(GstAppSink *sink, gpointer data) {
  (void)sink;
  FcEncodedStream *s = data;
  // Only the end asked for (fc_encoded_stream_finish) ends the viewers' streams: the
  // channel also sends EOS after an error, and the encoder is started again then.
  g_mutex_lock(&s->end_lock);
  gboolean ended = s->ended;
  g_mutex_unlock(&s->end_lock);
  if (!ended) return;
  g_mutex_lock(&s->lock);
  for (guint i = 0; i < s->subscribers->len; i++) {
    Subscriber *sub = g_ptr_array_index(s->subscribers, i);
    GstElement *src = g_weak_ref_get(&sub->appsrc);
    if (!src) continue;
    gst_app_src_end_of_stream(GST_APP_SRC(src));
    gst_object_unref(src);
  }
  g_mutex_unlock(&s->lock);
  g_mutex_lock(&s->end_lock);
  s->viewers_told = TRUE;
  g_cond_broadcast(&s->end_said);
  g_mutex_unlock(&s->end_lock);
}

// A viewer's request for a key frame (RTSP PLAY, a browser's picture-loss report) stops at
// its appsrc; it is the encoder's to answer.
static GstPadProbeReturn on_upstream_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (!gst_video_event_is_force_key_unit(event)) return GST_PAD_PROBE_OK;
  request_key_frame(data);
  return GST_PAD_PROBE_DROP;
}

// Between the camera's pipeline and the encoder, the inter-video channel (intervideosink
// → intervideosrc) keeps the new caps and the last frame apart: after a size change (a
// lens crop, a turn) it sends a frame or two of the old size under the new caps. The
// encoder failed on the first that was too small ("invalid buffer size", the stream dead
// for every viewer) and read a larger one as garbage: such frames are dropped here.
// x264 cannot encode 4:2:0 at an odd width or height (a crop of 131x89 stopped the
// encoder): the size it is given is rounded down to even (capsfilter "even").
static GstPadProbeReturn on_channel_output(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad;
  FcEncodedStream *s = data;
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    s->channel_info_set = gst_video_info_from_caps(&s->channel_info, caps);
    if (!s->channel_info_set) return GST_PAD_PROBE_OK;
    GstElement *even = gst_bin_get_by_name(GST_BIN(s->pipeline), "even");
    if (even) {
      gint width = GST_VIDEO_INFO_WIDTH(&s->channel_info), height = GST_VIDEO_INFO_HEIGHT(&s->channel_info);
      GstCaps *wanted = (width | height) & 1
          ? gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, MAX(2, width & ~1), "height", G_TYPE_INT, MAX(2, height & ~1), NULL)
          : gst_caps_new_empty_simple("video/x-raw");
      GstCaps *now = NULL;
      g_object_get(even, "caps", &now, NULL);
      // Only a change: setting the capsfilter makes the channel negotiate again, and its
      // default size (320x240) came between, costing viewers a frame at every size change.
      if (!now || !gst_caps_is_equal(now, wanted)) g_object_set(even, "caps", wanted, NULL);
      gst_clear_caps(&now);
      gst_caps_unref(wanted);
      gst_object_unref(even);
    }
    return GST_PAD_PROBE_OK;
  }
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (!buffer) return GST_PAD_PROBE_OK;
  // The channel keeps the camera's last frame while the camera is paused for want of
  // viewers, and hands it out again: a viewer who came later first saw 3-4 frames of the
  // picture from when the last one left (minutes or hours before). Until the camera has
  // sent two new frames since the encoder started, what the channel gives is noted as
  // stale and goes to the encoder black (not dropped: the viewer's media needs a first
  // frame before it plays, and the camera starts for a viewer who plays). New: frames the
  // camera's pipeline held through a pause come out first and are not counted
  // (note_camera_frame); two: the count moves a moment before the channel holds the frame.
  gboolean stale = s->camera_watched
      && __atomic_load_n(&s->camera_frames, __ATOMIC_RELAXED) - __atomic_load_n(&s->frames_at_start, __ATOMIC_RELAXED) < 2;
  __atomic_store_n(&s->stale_until, stale ? GST_BUFFER_PTS(buffer) : GST_CLOCK_TIME_NONE, __ATOMIC_RELAXED);
  if (!s->channel_info_set) return GST_PAD_PROBE_OK;
  GstVideoMeta *meta = gst_buffer_get_video_meta(buffer);
  gboolean fits = meta ? meta->width == (guint)GST_VIDEO_INFO_WIDTH(&s->channel_info)
                             && meta->height == (guint)GST_VIDEO_INFO_HEIGHT(&s->channel_info)
                       : gst_buffer_get_size(buffer) == GST_VIDEO_INFO_SIZE(&s->channel_info);
  return fits ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP;
}

// At the encoder's input (I420, the size it encodes): a stale frame of the channel (see
// on_channel_output) is replaced by a black one of the same time.
static GstPadProbeReturn on_encoder_input(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  FcEncodedStream *s = data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstClockTime stale = __atomic_load_n(&s->stale_until, __ATOMIC_RELAXED);
  if (!buffer || !GST_CLOCK_TIME_IS_VALID(stale) || GST_BUFFER_PTS(buffer) > stale) return GST_PAD_PROBE_OK;
  GstCaps *caps = gst_pad_get_current_caps(pad);
  GstVideoInfo video;
  gboolean known = caps && gst_video_info_from_caps(&video, caps) && GST_VIDEO_INFO_FORMAT(&video) == GST_VIDEO_FORMAT_I420;
  gst_clear_caps(&caps);
  if (!known) return GST_PAD_PROBE_DROP;
  GstBuffer *black = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&video), NULL);
  gst_buffer_copy_into(black, buffer, GST_BUFFER_COPY_METADATA, 0, -1);
  GstVideoFrame frame;
  if (gst_video_frame_map(&frame, &video, black, GST_MAP_WRITE)) {
    for (guint plane = 0; plane < 3; plane++) {
      guint8 *row = GST_VIDEO_FRAME_PLANE_DATA(&frame, plane);
      gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane);
      for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, plane); y++, row += stride)
        memset(row, plane == 0 ? 16 : 128, (size_t)GST_VIDEO_FRAME_COMP_WIDTH(&frame, plane));
    }
    gst_video_frame_unmap(&frame);
  }
  gst_buffer_unref(buffer);
  GST_PAD_PROBE_INFO_DATA(info) = black;
  return GST_PAD_PROBE_OK;
}

static void stream_clear(gpointer p) {
  FcEncodedStream *s = p;
  if (s->pipeline) {
    gst_element_set_state(s->pipeline, GST_STATE_NULL);
    gst_object_unref(s->pipeline);
  }
  if (s->sink) gst_object_unref(s->sink);
  g_ptr_array_unref(s->subscribers);
  g_mutex_clear(&s->lock);
  g_mutex_clear(&s->state_lock);
  g_mutex_clear(&s->end_lock);
  g_cond_clear(&s->end_said);
}

FcEncodedStream *fc_encoded_stream_new(const char *description, char **error) {
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch_full(description, NULL, GST_PARSE_FLAG_FATAL_ERRORS, &err);
  if (!pipeline) {
    *error = g_strdup_printf("cannot build the encoder: %s", err ? err->message : "?");
    g_clear_error(&err);
    return NULL;
  }
  gst_object_ref_sink(pipeline);
  GstElement *sink = GST_IS_BIN(pipeline) ? gst_bin_get_by_name(GST_BIN(pipeline), "encoded") : NULL;
  if (!sink || !GST_IS_APP_SINK(sink)) {
    *error = g_strdup("the encoder has no appsink named \"encoded\"");
    if (sink) gst_object_unref(sink);
    gst_object_unref(pipeline);
    return NULL;
  }
  FcEncodedStream *s = g_atomic_rc_box_new0(FcEncodedStream);
  s->pipeline = pipeline;
  s->sink = sink;
  g_mutex_init(&s->lock);
  g_mutex_init(&s->state_lock);
  g_mutex_init(&s->end_lock);
  g_cond_init(&s->end_said);
  s->subscribers = g_ptr_array_new_with_free_func(subscriber_free);
  s->empty_since = g_get_monotonic_time();
  g_object_set(sink, "sync", FALSE, "enable-last-sample", FALSE, "qos", FALSE, NULL);
  GstAppSinkCallbacks callbacks = {.new_sample = on_sample, .eos = on_eos};
  gst_app_sink_set_callbacks(GST_APP_SINK(sink), &callbacks, s, NULL);
  GstElement *channel = gst_bin_get_by_name(GST_BIN(pipeline), "camera");
  GstPad *out = channel ? gst_element_get_static_pad(channel, "src") : NULL;
  if (out) {
    gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_channel_output, s, NULL);
    gst_object_unref(out);
  }
  if (channel) gst_object_unref(channel);
  GstElement *encoder = gst_bin_get_by_name(GST_BIN(pipeline), "h264");
  GstPad *input = encoder ? gst_element_get_static_pad(encoder, "sink") : NULL;
  if (input) {
    gst_pad_add_probe(input, GST_PAD_PROBE_TYPE_BUFFER, on_encoder_input, s, NULL);
    gst_object_unref(input);
  }
  if (encoder) gst_object_unref(encoder);
  s->stale_until = GST_CLOCK_TIME_NONE;
  s->paused_at = GST_CLOCK_TIME_NONE;
  return s;
}

FcEncodedStream *fc_encoded_stream_ref(FcEncodedStream *s) { return g_atomic_rc_box_acquire(s); }

void fc_encoded_stream_unref(FcEncodedStream *s) { g_atomic_rc_box_release_full(s, stream_clear); }

static void ensure_running(FcEncodedStream *s) {
  g_mutex_lock(&s->state_lock);
  g_mutex_lock(&s->end_lock);
  gboolean ended = s->ended;
  g_mutex_unlock(&s->end_lock);
  if (!s->running && !ended) {
    __atomic_store_n(&s->frames_at_start, __atomic_load_n(&s->camera_frames, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    gst_element_set_state(s->pipeline, GST_STATE_PLAYING);
    s->running = TRUE;
  }
  g_mutex_unlock(&s->state_lock);
}

void fc_encoded_stream_subscribe(FcEncodedStream *s, void *appsrc) {
  GstElement *src = appsrc;
  // Its queue holds up to FC_BACKLOG_FRAMES frames before the viewer skips ahead, at least
  // 80 ms at up to 60 fps: said as the maximum latency, so the viewer's sink can keep its
  // 20 ms processing deadline instead of warning "Pipeline construction is invalid, please
  // add queues" at every PLAY (an appsrc's own answer is 0; it answers with its
  // max-latency only when min-latency is set too).
  g_object_set(src, "is-live", TRUE, "format", GST_FORMAT_TIME, "do-timestamp", FALSE, "min-latency", (gint64)0,
               "max-latency", (gint64)(FC_BACKLOG_FRAMES * GST_SECOND / 60), NULL);
  Subscriber *sub = g_new0(Subscriber, 1);
  g_weak_ref_init(&sub->appsrc, src);
  sub->waiting_for_key = TRUE;
  sub->pad = gst_element_get_static_pad(src, "src");
  sub->probe = gst_pad_add_probe(sub->pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, on_upstream_event,
                                 fc_encoded_stream_ref(s), (GDestroyNotify)fc_encoded_stream_unref);
  g_mutex_lock(&s->lock);
  g_ptr_array_add(s->subscribers, sub);
  s->empty_since = 0;
  g_mutex_unlock(&s->lock);
  ensure_running(s);
}

void fc_encoded_stream_unsubscribe(FcEncodedStream *s, void *appsrc) {
  g_mutex_lock(&s->lock);
  for (guint i = 0; i < s->subscribers->len; i++) {
    Subscriber *sub = g_ptr_array_index(s->subscribers, i);
    GstElement *src = g_weak_ref_get(&sub->appsrc);
    gboolean match = src == appsrc;
    if (src) gst_object_unref(src);
    if (match) {
      g_ptr_array_remove_index_fast(s->subscribers, i);
      break;
    }
  }
  if (s->subscribers->len == 0 && s->empty_since == 0) s->empty_since = g_get_monotonic_time();
  g_mutex_unlock(&s->lock);
}

int fc_encoded_stream_finish(FcEncodedStream *s, int timeout_ms) {
  g_mutex_lock(&s->state_lock);
  g_mutex_lock(&s->end_lock);
  s->ended = TRUE;
  g_mutex_unlock(&s->end_lock);
  gboolean running = s->running;
  // The encoder reads a channel that never ends by itself: EOS is sent into it, so the
  // frames it holds are encoded and sent before the end is.
  if (running) gst_element_send_event(s->pipeline, gst_event_new_eos());
  g_mutex_unlock(&s->state_lock);
  if (!running) return 1;
  gint64 deadline = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
  g_mutex_lock(&s->end_lock);
  while (!s->viewers_told && g_cond_wait_until(&s->end_said, &s->end_lock, deadline)) {}
  gboolean told = s->viewers_told;
  g_mutex_unlock(&s->end_lock);
  return told;
}

int fc_encoded_stream_subscribers(FcEncodedStream *s) {
  g_mutex_lock(&s->lock);
  int n = (int)s->subscribers->len;
  g_mutex_unlock(&s->lock);
  return n;
}

static void report_errors(FcEncodedStream *s) {
  GstBus *bus = gst_element_get_bus(s->pipeline);
  GstMessage *m;
  while ((m = gst_bus_pop(bus))) {
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gst_message_parse_error(m, &err, NULL);
      g_printerr("filtercam serve: the encoder: %s\n", err ? err->message : "?");
      g_clear_error(&err);
      __atomic_store_n(&s->failed, TRUE, __ATOMIC_RELAXED);
    }
    gst_message_unref(m);
  }
  gst_object_unref(bus);
}

// The encoder reads the channel at the camera's own frame rate, from its first frame's
// caps: at a fixed 30 fps a 25 fps camera's picture repeated one frame in five and a
// 60 fps one lost every other frame. (A variable rate, 0/1, keeps 30 fps.)
static void follow_camera_rate(FcEncodedStream *s, GstPad *pad) {
  GstCaps *caps = gst_pad_get_current_caps(pad);
  if (!caps) return;
  gint n = 0, d = 0;
  GstStructure *structure = gst_caps_get_size(caps) ? gst_caps_get_structure(caps, 0) : NULL;
  if (structure && gst_structure_get_fraction(structure, "framerate", &n, &d) && n > 0 && d > 0) {
    GstElement *rate = gst_bin_get_by_name(GST_BIN(s->pipeline), "rate");
    if (rate) {
      GstCaps *wanted = gst_caps_new_simple("video/x-raw", "framerate", GST_TYPE_FRACTION, n, d, NULL);
      g_object_set(rate, "caps", wanted, NULL);
      gst_caps_unref(wanted);
      gst_object_unref(rate);
    }
  }
  gst_caps_unref(caps);
}

static GstPadProbeReturn note_camera_frame(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  FcEncodedStream *s = data;
  if (!__atomic_exchange_n(&s->camera_seen, TRUE, __ATOMIC_RELAXED)) follow_camera_rate(s, pad);
  // A frame from before the last pause (held in the camera's pipeline through it) is not
  // a new one: its running time is before the pause's (or just after it, below).
  GstClockTime paused_at = __atomic_load_n(&s->paused_at, __ATOMIC_RELAXED);
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstEvent *event = GST_CLOCK_TIME_IS_VALID(paused_at) && buffer ? gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) : NULL;
  if (event) {
    const GstSegment *segment = NULL;
    gst_event_parse_segment(event, &segment);
    GstClockTime running = segment->format == GST_FORMAT_TIME
        ? gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer)) : GST_CLOCK_TIME_NONE;
    gst_event_unref(event);
    // Two frames' margin: a live source's frame made before the pause waits for its own
    // time (up to a frame after the pause began) and goes out when the camera plays again.
    GstClockTime frame = GST_BUFFER_DURATION_IS_VALID(buffer) ? GST_BUFFER_DURATION(buffer) : 40 * GST_MSECOND;
    if (GST_CLOCK_TIME_IS_VALID(running) && running < paused_at + 2 * frame) return GST_PAD_PROBE_OK;
  }
  __atomic_add_fetch(&s->camera_frames, 1, __ATOMIC_RELAXED);
  return GST_PAD_PROBE_OK;
}

void fc_encoded_stream_camera_pausing(FcEncodedStream *s) {
  if (!s->camera) return;
  GstClockTime now = running_time(s->camera);
  if (GST_CLOCK_TIME_IS_VALID(now)) __atomic_store_n(&s->paused_at, now, __ATOMIC_RELAXED);
}

void fc_encoded_stream_watch_camera(FcEncodedStream *s, void *element) {
  GstPad *pad = gst_element_get_static_pad(element, "src");
  if (!pad) {
    __atomic_store_n(&s->camera_seen, TRUE, __ATOMIC_RELAXED);
    return;
  }
  s->camera_watched = TRUE;
  s->camera = element;
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, note_camera_frame, fc_encoded_stream_ref(s),
                    (GDestroyNotify)fc_encoded_stream_unref);
  gst_object_unref(pad);
}

int fc_encoded_stream_camera_seen(FcEncodedStream *s) { return __atomic_load_n(&s->camera_seen, __ATOMIC_RELAXED); }

void fc_encoded_stream_tick(FcEncodedStream *s) {
  gint64 now = g_get_monotonic_time();
  g_mutex_lock(&s->lock);
  for (guint i = s->subscribers->len; i-- > 0;) {
    Subscriber *sub = g_ptr_array_index(s->subscribers, i);
    GstElement *src = g_weak_ref_get(&sub->appsrc);
    if (src) gst_object_unref(src);
    else g_ptr_array_remove_index_fast(s->subscribers, i);
  }
  if (s->subscribers->len == 0 && s->empty_since == 0) s->empty_since = now;
  gboolean idle = s->subscribers->len == 0 && now - s->empty_since > FC_IDLE_STOP_US;
  g_mutex_unlock(&s->lock);
  report_errors(s);
  // An encoder that failed stays stopped for every viewer, the page saying "live" over a
  // frozen picture: it is started again (at most once a second), each viewer from the
  // next key frame.
  if (__atomic_load_n(&s->failed, __ATOMIC_RELAXED) && now - s->last_restart > G_USEC_PER_SEC) {
    __atomic_store_n(&s->failed, FALSE, __ATOMIC_RELAXED);
    s->last_restart = now;
    g_mutex_lock(&s->state_lock);
    g_mutex_lock(&s->end_lock);
    gboolean ended = s->ended;
    g_mutex_unlock(&s->end_lock);
    if (s->running && !ended) {
      gst_element_set_state(s->pipeline, GST_STATE_NULL);
      report_errors(s);   // what came while it stopped: not a reason to start again
      __atomic_store_n(&s->failed, FALSE, __ATOMIC_RELAXED);
      g_mutex_lock(&s->lock);
      for (guint i = 0; i < s->subscribers->len; i++) ((Subscriber *)g_ptr_array_index(s->subscribers, i))->waiting_for_key = TRUE;
      g_mutex_unlock(&s->lock);
      gst_element_set_state(s->pipeline, GST_STATE_PLAYING);
      g_printerr("filtercam serve: the encoder was started again\n");
    }
    g_mutex_unlock(&s->state_lock);
  }
  if (!idle) return;
  g_mutex_lock(&s->state_lock);
  // Someone may have subscribed since: only stop if the stream is still unwatched.
  if (s->running && fc_encoded_stream_subscribers(s) == 0) {
    gst_element_set_state(s->pipeline, GST_STATE_NULL);
    s->running = FALSE;
  }
  g_mutex_unlock(&s->state_lock);
}
