#include "shim.h"
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

GType fc_register_enum(const char *type_name, const char *const *nicks, guint n) {
  GType t = g_type_from_name(type_name);
  if (t) return t;
  GEnumValue *values = g_new0(GEnumValue, n + 1);
  for (guint i = 0; i < n; i++) {
    values[i].value = (gint)i;
    values[i].value_name = g_strdup(nicks[i]);
    values[i].value_nick = g_strdup(nicks[i]);
  }
  return g_enum_register_static(g_strdup(type_name), values);
}

GParamFlags fc_param_flags_readwrite_playing(gboolean controllable) {
  return G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | (controllable ? GST_PARAM_CONTROLLABLE : 0);
}
GParamFlags fc_param_flags_readonly(void) { return G_PARAM_READABLE; }

GType fc_type_boolean(void) { return G_TYPE_BOOLEAN; }
gboolean fc_is_element(gpointer object) { return object && GST_IS_ELEMENT(object); }
GType fc_type_int(void) { return G_TYPE_INT; }
GType fc_type_uint(void) { return G_TYPE_UINT; }
GType fc_type_uint64(void) { return G_TYPE_UINT64; }
GType fc_type_double(void) { return G_TYPE_DOUBLE; }
GType fc_type_string(void) { return G_TYPE_STRING; }
GType fc_type_enum(void) { return G_TYPE_ENUM; }
GType fc_type_flags(void) { return G_TYPE_FLAGS; }
GType fc_type_structure(void) { return GST_TYPE_STRUCTURE; }
GType fc_type_list(void) { return GST_TYPE_LIST; }
GType fc_type_float(void) { return G_TYPE_FLOAT; }
GType fc_type_int64(void) { return G_TYPE_INT64; }
GType fc_type_long(void) { return G_TYPE_LONG; }
GType fc_type_ulong(void) { return G_TYPE_ULONG; }
GType fc_type_boxed(void) { return G_TYPE_BOXED; }
GType fc_type_object(void) { return G_TYPE_OBJECT; }
GType fc_type_pointer(void) { return G_TYPE_POINTER; }
GType fc_type_caps(void) { return GST_TYPE_CAPS; }
gboolean fc_type_is_fundamental(GType type) { return G_TYPE_IS_FUNDAMENTAL(type); }

GstEvent *fc_probe_info_event(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_EVENT(info); }
GstQuery *fc_probe_info_query(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_QUERY(info); }
GstBuffer *fc_probe_info_buffer(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_BUFFER(info); }
GstClockTime fc_buffer_pts(GstBuffer *b) { return GST_BUFFER_PTS(b); }
GstClockTime fc_buffer_duration(GstBuffer *b) { return GST_BUFFER_DURATION(b); }
GstBuffer *fc_buffer_make_writable(GstBuffer *b) { return gst_buffer_make_writable(b); }

/* The mark on a frame that must leave without DISCONT: a meta of the element's own, which
 * its src pad's probe takes off. Not a buffer flag: the flags from GST_BUFFER_FLAG_LAST up
 * are upstream's (the video library's INTERLACED, an application's own) and went missing
 * with it. A copy (GstBaseSrc making the frame writable to mark it) carries it over. */
typedef struct { GstMeta meta; } FcContinuousMeta;

/* Every plugin built on FilterCam (a filter of your own as a loadable plugin) carries a
 * copy of this shim: the first copy loaded registers the meta, the others take it by its
 * name. Registered twice, the second copy's type was 0 and every frame through it hung
 * the pipeline (fcsepia ! fcpixelate). */
static GType fc_continuous_meta_api_type(void) {
  static gsize type = 0;
  if (g_once_init_enter(&type)) {
    static const gchar *tags[] = {NULL};
    GType registered = g_type_from_name("FcContinuousMetaAPI");
    g_once_init_leave(&type, registered ? registered : gst_meta_api_type_register("FcContinuousMetaAPI", tags));
  }
  return (GType)type;
}

static const GstMetaInfo *fc_continuous_meta_info(void);

static gboolean fc_continuous_meta_init(GstMeta *meta, gpointer params, GstBuffer *buffer) { return TRUE; }

static gboolean fc_continuous_meta_transform(GstBuffer *dest, GstMeta *meta, GstBuffer *buffer, GQuark type, gpointer data) {
  if (!GST_META_TRANSFORM_IS_COPY(type)) return FALSE;
  return gst_buffer_add_meta(dest, fc_continuous_meta_info(), NULL) != NULL;
}

static const GstMetaInfo *fc_continuous_meta_info(void) {
  static const GstMetaInfo *info = NULL;
  if (g_once_init_enter(&info)) {
    const GstMetaInfo *registered = gst_meta_get_info("FcContinuousMeta");   // by another copy (see above)
    g_once_init_leave(&info, registered ? registered
                                        : gst_meta_register(fc_continuous_meta_api_type(), "FcContinuousMeta", sizeof(FcContinuousMeta),
                                                            fc_continuous_meta_init, NULL, fc_continuous_meta_transform));
  }
  return info;
}

gboolean fc_buffer_is_discont(GstBuffer *b) { return GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_DISCONT); }
gboolean fc_buffer_fits_video_info(GstBuffer *b, const GstVideoInfo *info) {
  return gst_buffer_get_video_meta(b) != NULL || gst_buffer_get_size(b) >= GST_VIDEO_INFO_SIZE(info);
}
void fc_buffer_set_discont(GstBuffer *b) { GST_BUFFER_FLAG_SET(b, GST_BUFFER_FLAG_DISCONT); }
void fc_buffer_mark_continuous(GstBuffer *b) { gst_buffer_add_meta(b, fc_continuous_meta_info(), NULL); }
void fc_probe_info_keep_continuous(GstPadProbeInfo *info) {
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER(info);
    if (b == NULL || gst_buffer_get_meta(b, fc_continuous_meta_api_type()) == NULL) return;
    b = gst_buffer_make_writable(b);
    GstMeta *mark = gst_buffer_get_meta(b, fc_continuous_meta_api_type());   // the copy's, if copied
    if (mark) gst_buffer_remove_meta(b, mark);
    GST_BUFFER_FLAG_UNSET(b, GST_BUFFER_FLAG_DISCONT);
    GST_PAD_PROBE_INFO_DATA(info) = b;
}
guint8 *fc_video_frame_plane_data(GstVideoFrame *f) { return GST_VIDEO_FRAME_PLANE_DATA(f, 0); }
gint fc_video_frame_stride(GstVideoFrame *f) { return GST_VIDEO_FRAME_PLANE_STRIDE(f, 0); }

GstCaps *fc_caps_with_size(GstCaps *caps, gint width, gint height, gboolean swap_par) {
  GstCaps *out = gst_caps_copy(caps);
  GstStructure *s = gst_caps_get_structure(out, 0);
  gst_structure_set(s, "width", G_TYPE_INT, width, "height", G_TYPE_INT, height, NULL);
  gint par_n, par_d;
  if (swap_par && gst_structure_get_fraction(s, "pixel-aspect-ratio", &par_n, &par_d))
    gst_structure_set(s, "pixel-aspect-ratio", GST_TYPE_FRACTION, par_d, par_n, NULL);
  // Caps without colorimetry or chroma siting get GStreamer's guess from the height
  // (BT.601 up to 576 lines, BT.709 above): a new size would change how downstream reads
  // the same samples (640x480 turned to 480x640, or a 720p frame's lens at 640x360, shown
  // in the other matrix's colours). The input's are said outright where the guess for the
  // new size differs.
  GstVideoInfo in_info, out_info;
  if (gst_video_info_from_caps(&in_info, caps) && gst_video_info_from_caps(&out_info, out)) {
    if (!gst_structure_has_field(s, "colorimetry") && !gst_video_colorimetry_is_equal(&in_info.colorimetry, &out_info.colorimetry)) {
      gchar *colorimetry = gst_video_colorimetry_to_string(&in_info.colorimetry);
      if (colorimetry) gst_structure_set(s, "colorimetry", G_TYPE_STRING, colorimetry, NULL);
      g_free(colorimetry);
    }
    if (!gst_structure_has_field(s, "chroma-site") && in_info.chroma_site != out_info.chroma_site) {
      gchar *site = gst_video_chroma_site_to_string(in_info.chroma_site);
      if (site) gst_structure_set(s, "chroma-site", G_TYPE_STRING, site, NULL);
      g_free(site);
    }
  }
  return out;
}

gboolean fc_post_element_message(GstElement *element, GstStructure *s) {
  return gst_element_post_message(element, gst_message_new_element(GST_OBJECT(element), s));
}

void fc_post_warning(GstElement *element, const char *text, const char *debug) {
  GST_ELEMENT_WARNING(element, STREAM, FAILED, ("%s", text), ("%s", debug ? debug : ""));
}
void fc_post_error(GstElement *element, const char *text, const char *debug) {
  GST_ELEMENT_ERROR(element, STREAM, FAILED, ("%s", text), ("%s", debug ? debug : ""));
}

void fc_emit_action(GstElement *element, const char *signal) {
  g_signal_emit_by_name(element, signal);
}

int fc_transition_current(GstStateChange t) { return GST_STATE_TRANSITION_CURRENT(t); }
int fc_transition_next(GstStateChange t) { return GST_STATE_TRANSITION_NEXT(t); }

gboolean fc_param_is_mutable_playing(GParamSpec *spec) {
  return (spec->flags & GST_PARAM_MUTABLE_PLAYING) != 0;
}

gboolean fc_param_is_controllable(GParamSpec *spec) {
  return (spec->flags & GST_PARAM_CONTROLLABLE) != 0;
}

const char *fc_param_mutability(GParamSpec *spec) {
  if (spec->flags & GST_PARAM_MUTABLE_PLAYING) return "changeable in NULL, READY, PAUSED or PLAYING state";
  if (spec->flags & GST_PARAM_MUTABLE_PAUSED) return "changeable only in NULL, READY or PAUSED state";
  if (spec->flags & GST_PARAM_MUTABLE_READY) return "changeable only in NULL or READY state";
  return NULL;
}

gboolean fc_buffer_memory_writable(GstBuffer *b) {
  if (!gst_buffer_is_writable(b)) return FALSE;
  guint n = gst_buffer_n_memory(b);
  for (guint i = 0; i < n; i++)
    if (!gst_memory_is_writable(gst_buffer_peek_memory(b, i))) return FALSE;
  return TRUE;
}

int fc_settle_allocator(void) {
#ifdef __GLIBC__
  int done = 0;
  if (!getenv("MALLOC_ARENA_MAX")) done |= mallopt(M_ARENA_MAX, 1);   // else the host chose
  // glibc's own ceilings for its sliding thresholds (32 MiB on 64-bit, trim at twice
  // that), set now instead of after the first freed 32 MiB block. Left sliding, the trim
  // threshold stays at two frames, and a pipeline that frees a few frames at once hands
  // the heap's top back to the kernel and faults it in again for the next frames.
  if (!getenv("MALLOC_MMAP_THRESHOLD_") && !getenv("MALLOC_TRIM_THRESHOLD_")) {
    size_t ceiling = 4 * 1024 * 1024 * sizeof(long);
    done |= mallopt(M_MMAP_THRESHOLD, (int)ceiling) & mallopt(M_TRIM_THRESHOLD, (int)(2 * ceiling));
  }
  return done;
#else
  return 0;
#endif
}

int fc_return_free_memory(void) {
#ifdef __GLIBC__
  return malloc_trim(0);
#else
  return 0;
#endif
}

GstBufferPool *fc_buffer_pool_new(GstCaps *caps, guint size) {
  GstBufferPool *pool = gst_buffer_pool_new();
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, size, 2, 0);
  if (!gst_buffer_pool_set_config(pool, config) || !gst_buffer_pool_set_active(pool, TRUE)) {
    gst_object_unref(pool);
    return NULL;
  }
  return pool;
}

// ---------------------------------------------------------------------------
// Metas onto a newly written output buffer, by GstVideoFilter's rules. The meta
// transform callbacks and GstMetaTransformCopy are C-only API shapes.

typedef struct {
  GstBuffer *to;
  gboolean same_geometry;
} FcMetaCopy;

static gboolean fc_copy_one_meta(GstBuffer *from, GstMeta **meta, gpointer data) {
  FcMetaCopy *c = data;
  const GstMetaInfo *info = (*meta)->info;
  // The output buffer describes its own memory layout.
  if (info->api == GST_VIDEO_META_API_TYPE) return TRUE;
  if (!c->same_geometry) {
    // Regions of interest are turned and cropped in Swift (GeometryPlan.mapRectToOutput).
    if (info->api == GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE) return TRUE;
    // Other metas tied to the picture's size or orientation cannot follow a turn or crop.
    if (gst_meta_api_type_has_tag(info->api, g_quark_from_string(GST_META_TAG_VIDEO_SIZE_STR)) ||
        gst_meta_api_type_has_tag(info->api, g_quark_from_string(GST_META_TAG_VIDEO_ORIENTATION_STR)))
      return TRUE;
  }
  if (info->transform_func) {
    GstMetaTransformCopy copy = { FALSE, 0, (gsize) -1 };
    info->transform_func(c->to, *meta, from, _gst_meta_transform_copy, &copy);
  }
  return TRUE;
}

void fc_copy_metas(GstBuffer *from, GstBuffer *to, gboolean same_geometry) {
  FcMetaCopy c = { to, same_geometry };
  gst_buffer_foreach_meta(from, fc_copy_one_meta, &c);
}


guint8 *fc_video_frame_plane_data_n(GstVideoFrame *f, guint plane) { return GST_VIDEO_FRAME_PLANE_DATA(f, plane); }
gint fc_video_frame_stride_n(GstVideoFrame *f, guint plane) { return GST_VIDEO_FRAME_PLANE_STRIDE(f, plane); }
