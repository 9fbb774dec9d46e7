// The few things Swift cannot express against GStreamer: GObject type registration
// with class/instance structs, vfunc overrides, action signals, variadic calls and
// function-like macros. Each function is a thin wrapper; the behaviour lives in Swift.
#pragma once
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/// Callbacks from a Swift-backed element into Swift. `ctx` is the Swift state object
/// made by `instance_init` for that element instance.
typedef struct {
  void *(*instance_init)(GstElement *element, void *class_ctx);
  void (*finalize)(void *ctx);
  void (*set_property)(void *ctx, guint prop_id, const GValue *value);
  void (*get_property)(void *ctx, guint prop_id, GValue *value);
  /// Called before the element changes state (`after` = 0) and after (`after` = 1, with
  /// the chained-up result). A return of GST_STATE_CHANGE_FAILURE before stops it.
  GstStateChangeReturn (*change_state)(void *ctx, GstStateChange transition, int after,
                                       GstStateChangeReturn result);
  /// A message posted inside the element (a source bin's children, a filter's inner
  /// appsink/appsrc). Return TRUE to swallow it; a filter drops its inner messages anyway.
  gboolean (*filter_message)(void *ctx, GstMessage *message);
  /// An action signal was emitted (index into `action_signals`).
  void (*action)(void *ctx, guint index);
  /// How a filter's output caps follow its input caps now (FC_CAPS_* flags), for CAPS
  /// queries; NULL or 0: the same size on both sides.
  int (*caps_geometry)(void *ctx);
  /// With FC_CAPS_LENS_CROP: the output's length along `axis` (0 width, 1 height) for an
  /// oriented picture `size` long, the lens's edges on a grid of `grid` pixels (2 for YUV).
  int (*lens_crop_length)(void *ctx, int axis, int size, int grid);
  /// With FC_CAPS_LENS_CROP: the shortest and longest output lengths of the sizes
  /// `from_min`…`from_max` (`to_output`), or the smallest and largest sizes whose output
  /// length is within them; FALSE when there are none.
  gboolean (*lens_crop_range)(void *ctx, int axis, int grid, gboolean to_output, int from_min, int from_max,
                              int *to_min, int *to_max);
} FcElementCallbacks;

/// `caps_geometry` flags: a 90° turn swaps width and height (and the pixel aspect
/// ratio); a lens crop makes each side the lens's share of it (`lens_crop_length`).
#define FC_CAPS_SWAPS_AXES 1
#define FC_CAPS_LENS_CROP 2

/// The name of the first element downstream of `start` (through tees, queues and bins)
/// made by one of `factories` (NULL-terminated), or NULL; free with g_free.
char *fc_downstream_element_of_factory(GstElement *start, const char *const *factories);
/// The name of the nearest element upstream of `start` (through queues, tees and bins)
/// made by one of `factories`; NULL if none. Free with g_free.
char *fc_upstream_element_of_factory(GstElement *start, const char *const *factories);
/// The smallest `ts-offset` of the syncing sinks downstream of `start` (through tees,
/// queues and bins; 0 when there is none): how much later than its running time plus the
/// pipeline's latency a sink renders a frame.
gint64 fc_downstream_sink_ts_offset(GstElement *start);

/// An element's lens crop for `fc_caps_across_geometry` (its callbacks and `ctx`).
typedef struct {
  int (*length)(void *ctx, int axis, int size, int grid);
  gboolean (*range)(void *ctx, int axis, int grid, gboolean to_output, int from_min, int from_max,
                    int *to_min, int *to_max);
  void *ctx;
} FcLensCrop;

/// Everything needed to register one element type: a plain GstElement with its own pads
/// (filters), or a GstBin (sources).
typedef struct {
  const char *type_name;        // GType name, e.g. "GstFilterCam"
  const char *long_name, *klass, *description, *author;
  const char *sink_caps, *src_caps;  // pad template caps (sink_caps NULL or "": no sink pad)
  GParamSpec **properties;      // property ids are index + 1
  guint n_properties;
  const char **action_signals;  // names of no-argument action signals
  guint n_action_signals;
  FcElementCallbacks callbacks;
  void *class_ctx;              // handed to instance_init
  // 0 (default): a filter: a GstElement with "sink" and "src" pads, whose frames cross a
  //    private appsink/appsrc pair given by `fc_element_adopt_inner`.
  // 1: a source bin (its SINK flag suppressed); an empty/NULL `sink_caps` gives no sink pad.
  int is_source;
} FcElementSpec;

/// Registers the type (once) and the element factory `factory_name` in `plugin`.
/// `spec` is copied.
gboolean fc_element_register(GstPlugin *plugin, const char *factory_name, guint rank,
                             const FcElementSpec *spec);

/// A filter element takes its inner `sink` (appsink) and `src` (appsrc), which stay private
/// (no children, no bin): its sink pad forwards into the appsink, the appsrc's output leaves
/// by its src pad, upstream events and queries go the other way. Their states follow the
/// element's; their messages go to `filter_message` and are then dropped. Call once, from
/// `instance_init`.
void fc_element_adopt_inner(GstElement *element, GstElement *sink, GstElement *src);
/// Frames made for the caps before a downstream RECONFIGURE that downstream then refused,
/// dropped while upstream renegotiated (a filter element's; 0 for anything else).
guint64 fc_filter_renegotiation_drops(GstElement *element);

/// The Swift context of an element made by `fc_element_register`, or NULL.
void *fc_element_get_ctx(GstElement *element);

/// Registers a GEnum type from `n` nicks (values 0..n-1); names equal nicks.
GType fc_register_enum(const char *type_name, const char *const *nicks, guint n);

/// Param-spec flags as Swift cannot read them from the macros.
/// `controllable`: a GstController can drive it (numbers, booleans, enums; not strings).
GParamFlags fc_param_flags_readwrite_playing(gboolean controllable);
GParamFlags fc_param_flags_readonly(void);

/// GType constants (macros in C).
GType fc_type_boolean(void);
/// GST_IS_ELEMENT (a macro): whether a message's source is an element.
gboolean fc_is_element(gpointer object);
GType fc_type_int(void);
GType fc_type_uint(void);
GType fc_type_uint64(void);
GType fc_type_double(void);
GType fc_type_string(void);
GType fc_type_enum(void);
GType fc_type_flags(void);
GType fc_type_structure(void);
GType fc_type_list(void);
GType fc_type_float(void);
GType fc_type_int64(void);
GType fc_type_long(void);
GType fc_type_ulong(void);
GType fc_type_boxed(void);
GType fc_type_object(void);
GType fc_type_pointer(void);
GType fc_type_caps(void);
gboolean fc_type_is_fundamental(GType type);

/// Function-like macros Swift does not import.
GstEvent *fc_probe_info_event(GstPadProbeInfo *info);      // GST_PAD_PROBE_INFO_EVENT
GstQuery *fc_probe_info_query(GstPadProbeInfo *info);      // GST_PAD_PROBE_INFO_QUERY
GstBuffer *fc_probe_info_buffer(GstPadProbeInfo *info);    // GST_PAD_PROBE_INFO_BUFFER
GstClockTime fc_buffer_pts(GstBuffer *b);                  // GST_BUFFER_PTS
GstClockTime fc_buffer_duration(GstBuffer *b);             // GST_BUFFER_DURATION
GstBuffer *fc_buffer_make_writable(GstBuffer *b);          // gst_buffer_make_writable (a macro)

/// DISCONT as upstream set it: GstBaseSrc (the element's appsrc) marks every buffer
/// DISCONT when playing backwards. The worker marks a buffer that must leave without it
/// (`fc_buffer_mark_continuous`, a meta of the element's own, on a writable buffer); the
/// probe on the element's src pad then clears both (`fc_probe_info_keep_continuous`).
gboolean fc_buffer_is_discont(GstBuffer *b);
/// Whether `b` holds a whole frame of `info`: with a GstVideoMeta its planes are where the
/// meta says (mapping checks them); without, it is at least `info`'s size.
gboolean fc_buffer_fits_video_info(GstBuffer *b, const GstVideoInfo *info);
void fc_buffer_set_discont(GstBuffer *b);
void fc_buffer_mark_continuous(GstBuffer *b);
/// The result of an upstream event that the worker's probe on the inner src pad handled
/// by passing it on (or by using it: TRUE), for the element's src pad to return.
void fc_note_upstream_event_result(gboolean result);
void fc_probe_info_keep_continuous(GstPadProbeInfo *info);
guint8 *fc_video_frame_plane_data(GstVideoFrame *f);       // GST_VIDEO_FRAME_PLANE_DATA(f, 0)
gint fc_video_frame_stride(GstVideoFrame *f);              // GST_VIDEO_FRAME_PLANE_STRIDE(f, 0)
guint8 *fc_video_frame_plane_data_n(GstVideoFrame *f, guint plane);  // GST_VIDEO_FRAME_PLANE_DATA(f, plane)
gint fc_video_frame_stride_n(GstVideoFrame *f, guint plane);         // GST_VIDEO_FRAME_PLANE_STRIDE(f, plane)

/// `caps` with its first structure's width and height replaced, and its pixel aspect
/// ratio inverted when `swap_par` (a 90° turn); new reference. (gst_structure_set is variadic.)
GstCaps *fc_caps_with_size(GstCaps *caps, gint width, gint height, gboolean swap_par);

/// `caps` carried across a filter's geometry (FC_CAPS_* flags) towards its output
/// (`to_output`) or its input, as videoflip's and videocrop's transform_caps: width and
/// height (and a fixed pixel aspect ratio) swapped for a 90° turn; through a lens crop,
/// each size the lens's share of it, or back, the input sizes that give it. New reference.
GstCaps *fc_caps_across_geometry(GstCaps *caps, int geometry, gboolean to_output, FcLensCrop crop);
/// A filter element's output caps for fixed `input` caps, by its turn and crop as they are
/// now (NULL: none); for the caps downstream needs before a first frame (a GAP, an EOS).
GstCaps *fc_filter_output_caps(GstElement *element, GstCaps *input);

/// Copies `from`'s metas onto `to` as GstVideoFilter does (timecode, reference timestamp,
/// custom metas always; never the video meta). When the geometry changed (a turn, zoom
/// or crop), metas tagged with the picture's size or orientation are left out and
/// regions of interest are left to the caller to map.
void fc_copy_metas(GstBuffer *from, GstBuffer *to, gboolean same_geometry);

/// Posts an element message with the given structure (takes it).
gboolean fc_post_element_message(GstElement *element, GstStructure *s);

/// Posts a WARNING/ERROR on the bus from `element` (GST_ELEMENT_WARNING/ERROR macros).
void fc_post_warning(GstElement *element, const char *text, const char *debug);
void fc_post_error(GstElement *element, const char *text, const char *debug);

/// g_signal_emit_by_name for a no-argument, no-return signal.
void fc_emit_action(GstElement *element, const char *signal);

/// GST_STATE_CHANGE_* transitions as plain numbers for Swift switch statements.
int fc_transition_current(GstStateChange t);
int fc_transition_next(GstStateChange t);

/// Whether a property is flagged GST_PARAM_MUTABLE_PLAYING (a macro flag value).
gboolean fc_param_is_mutable_playing(GParamSpec *spec);
/// The words gst-inspect-1.0 prints for GStreamer's own GParamSpec flags (macros Swift
/// cannot read): "controllable" and the state a property can change in, or NULL.
gboolean fc_param_is_controllable(GParamSpec *spec);
const char *fc_param_mutability(GParamSpec *spec);

/// Whether every memory block of the buffer may be written without a copy.
gboolean fc_buffer_memory_writable(GstBuffer *b);
/// A plain buffer pool handing out `size`-byte buffers for `caps` (active), or NULL.
GstBufferPool *fc_buffer_pool_new(GstCaps *caps, guint size);

/// The tasks (streaming threads) `owner` starts in `pipeline` run each on a thread of its
/// own, `nice` steps below the caller's priority (threads they start inherit it); a sync
/// handler on the pipeline's bus, which must have none of its own.
void fc_run_tasks_in_background(GstElement *pipeline, GstElement *owner, int nice);

/// The file this code was loaded from (the plugin's .so or the program), symlinks
/// resolved; malloc'd (free it), or NULL.
char *fc_own_file_path(void);

/// Flushes stdout: 0, or the errno of a failed write (EIO when the one that failed
/// earlier left none).
int fc_flush_standard_output(void);

/* glibc's malloc_trim(0): free memory at the top and inside every arena's heaps goes
 * back to the system; 1 if any did, 0 otherwise or where there is no glibc. A filter
 * element calls it when it goes to NULL (why: FrameMemory.swift). */
int fc_return_free_memory(void);

/* glibc's mallopt(M_ARENA_MAX, 1) unless the environment sets MALLOC_ARENA_MAX, and its
 * mmap and trim thresholds at the ceilings its sliding rule would reach (32 and 64 MiB)
 * unless the environment sets either; 1 if any was set, 0 otherwise or where there is
 * no glibc (why: FrameMemory.swift). */
int fc_settle_allocator(void);
G_END_DECLS
