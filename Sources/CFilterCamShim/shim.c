#include "shim.h"
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

// ---------------------------------------------------------------------------
// A GstBin subclass whose behaviour is provided by Swift callbacks. One GType
// is registered per spec; the spec travels as class_data.

typedef struct {
  GstBin parent;
  void *ctx;
} FcElement;

typedef struct {
  GstBinClass parent_class;
  FcElementSpec spec;
} FcElementClass;

static GstBinClass *fc_parent_class_of(gpointer klass) {
  return GST_BIN_CLASS(g_type_class_peek_parent(klass));
}

#define FC_ELEMENT_CLASS_OF(obj) ((FcElementClass *)G_OBJECT_GET_CLASS(obj))

static void fc_set_property(GObject *obj, guint id, const GValue *v, GParamSpec *ps) {
  FcElementClass *k = FC_ELEMENT_CLASS_OF(obj);
  FcElement *self = (FcElement *)obj;
  if (id == 0 || id > k->spec.n_properties) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    return;
  }
  k->spec.callbacks.set_property(self->ctx, id, v);
}

static void fc_get_property(GObject *obj, guint id, GValue *v, GParamSpec *ps) {
  FcElementClass *k = FC_ELEMENT_CLASS_OF(obj);
  FcElement *self = (FcElement *)obj;
  if (id == 0 || id > k->spec.n_properties) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    return;
  }
  k->spec.callbacks.get_property(self->ctx, id, v);
}

static void fc_finalize(GObject *obj) {
  FcElementClass *k = FC_ELEMENT_CLASS_OF(obj);
  FcElement *self = (FcElement *)obj;
  if (self->ctx) k->spec.callbacks.finalize(self->ctx);
  self->ctx = NULL;
  G_OBJECT_CLASS(fc_parent_class_of(k))->finalize(obj);
}

static GstStateChangeReturn fc_change_state(GstElement *e, GstStateChange t) {
  FcElementClass *k = FC_ELEMENT_CLASS_OF(e);
  FcElement *self = (FcElement *)e;
  GstStateChangeReturn r = k->spec.callbacks.change_state(self->ctx, t, 0, GST_STATE_CHANGE_SUCCESS);
  if (r == GST_STATE_CHANGE_FAILURE) return r;
  r = GST_ELEMENT_CLASS(fc_parent_class_of(k))->change_state(e, t);
  return k->spec.callbacks.change_state(self->ctx, t, 1, r);
}

static void fc_handle_message(GstBin *bin, GstMessage *m) {
  FcElementClass *k = FC_ELEMENT_CLASS_OF(bin);
  FcElement *self = (FcElement *)bin;
  if (self->ctx && k->spec.callbacks.filter_message(self->ctx, m)) {
    gst_message_unref(m);
    return;
  }
  fc_parent_class_of(k)->handle_message(bin, m);
}

static void fc_class_init(gpointer klass, gpointer data) {
  FcElementClass *k = (FcElementClass *)klass;
  const FcElementSpec *spec = data;
  k->spec = *spec;
  GObjectClass *oc = G_OBJECT_CLASS(klass);
  GstElementClass *ec = GST_ELEMENT_CLASS(klass);
  GstBinClass *bc = GST_BIN_CLASS(klass);
  oc->set_property = fc_set_property;
  oc->get_property = fc_get_property;
  oc->finalize = fc_finalize;
  ec->change_state = fc_change_state;
  bc->handle_message = fc_handle_message;
  for (guint i = 0; i < spec->n_properties; i++)
    g_object_class_install_property(oc, i + 1, spec->properties[i]);
  gst_element_class_set_static_metadata(ec, spec->long_name, spec->klass, spec->description, spec->author);
  if (spec->sink_caps && spec->sink_caps[0])
    gst_element_class_add_pad_template(ec, gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                                                                gst_caps_from_string(spec->sink_caps)));
  gst_element_class_add_pad_template(ec, gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                                                              gst_caps_from_string(spec->src_caps)));
  for (guint i = 0; i < spec->n_action_signals; i++) {
    // No class handler: instance_init connects each to fc_on_action, which calls Swift.
    g_signal_new(spec->action_signals[i], G_TYPE_FROM_CLASS(klass),
                                    G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 0);
  }
}

// Action signals have no class offset; a handler connected at instance init calls Swift.
static void fc_on_action(GstElement *e, gpointer index) {
  FcElementClass *k = FC_ELEMENT_CLASS_OF(e);
  FcElement *self = (FcElement *)e;
  if (self->ctx) k->spec.callbacks.action(self->ctx, GPOINTER_TO_UINT(index));
}

static void fc_instance_init(GTypeInstance *instance, gpointer klass) {
  FcElementClass *k = (FcElementClass *)klass;
  FcElement *self = (FcElement *)instance;
  // A bin holding an appsink and an appsrc would otherwise look like a sink and a source
  // to its parent (seeks sent into it, its inner EOS counted).
  // A source bin stays a source (live, EOS handling), so only SINK is suppressed for it.
  gst_bin_set_suppressed_flags(GST_BIN(self), k->spec.is_source ? GST_ELEMENT_FLAG_SINK
                                                                : GST_ELEMENT_FLAG_SINK | GST_ELEMENT_FLAG_SOURCE);
  self->ctx = k->spec.callbacks.instance_init(GST_ELEMENT(self), k->spec.class_ctx);
  for (guint i = 0; i < k->spec.n_action_signals; i++)
    g_signal_connect(self, k->spec.action_signals[i], G_CALLBACK(fc_on_action), GUINT_TO_POINTER(i));
}

static char *fc_strdup_or_empty(const char *s) { return g_strdup(s ? s : ""); }

gboolean fc_element_register(GstPlugin *plugin, const char *factory_name, guint rank,
                             const FcElementSpec *spec) {
  GType type = g_type_from_name(spec->type_name);
  if (type == 0) {
    FcElementSpec *copy = g_new0(FcElementSpec, 1);
    *copy = *spec;
    copy->type_name = fc_strdup_or_empty(spec->type_name);
    copy->long_name = fc_strdup_or_empty(spec->long_name);
    copy->klass = fc_strdup_or_empty(spec->klass);
    copy->description = fc_strdup_or_empty(spec->description);
    copy->author = fc_strdup_or_empty(spec->author);
    copy->sink_caps = fc_strdup_or_empty(spec->sink_caps);
    copy->src_caps = fc_strdup_or_empty(spec->src_caps);
    copy->properties = g_new0(GParamSpec *, spec->n_properties + 1);
    for (guint i = 0; i < spec->n_properties; i++)
      copy->properties[i] = g_param_spec_ref_sink(spec->properties[i]);
    copy->action_signals = g_new0(const char *, spec->n_action_signals + 1);
    for (guint i = 0; i < spec->n_action_signals; i++)
      copy->action_signals[i] = g_strdup(spec->action_signals[i]);
    GTypeInfo info = {
      .class_size = sizeof(FcElementClass),
      .class_init = fc_class_init,
      .class_data = copy,
      .instance_size = sizeof(FcElement),
      .instance_init = fc_instance_init,
    };
    type = g_type_register_static(GST_TYPE_BIN, copy->type_name, &info, 0);
  }
  return gst_element_register(plugin, factory_name, rank, type);
}

void *fc_element_get_ctx(GstElement *element) {
  if (!element) return NULL;
  GType t = G_OBJECT_TYPE(element);
  GTypeQuery q;
  g_type_query(t, &q);
  if (q.class_size != sizeof(FcElementClass)) return NULL;
  if (G_OBJECT_CLASS(G_OBJECT_GET_CLASS(element))->set_property != fc_set_property) return NULL;
  return ((FcElement *)element)->ctx;
}

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
GType fc_type_int(void) { return G_TYPE_INT; }
GType fc_type_uint(void) { return G_TYPE_UINT; }
GType fc_type_uint64(void) { return G_TYPE_UINT64; }
GType fc_type_double(void) { return G_TYPE_DOUBLE; }
GType fc_type_string(void) { return G_TYPE_STRING; }
GType fc_type_enum(void) { return G_TYPE_ENUM; }
GType fc_type_structure(void) { return GST_TYPE_STRUCTURE; }
GType fc_type_list(void) { return GST_TYPE_LIST; }

GstEvent *fc_probe_info_event(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_EVENT(info); }
GstQuery *fc_probe_info_query(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_QUERY(info); }
GstBuffer *fc_probe_info_buffer(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_BUFFER(info); }
GstClockTime fc_buffer_pts(GstBuffer *b) { return GST_BUFFER_PTS(b); }
GstClockTime fc_buffer_duration(GstBuffer *b) { return GST_BUFFER_DURATION(b); }
GstBuffer *fc_buffer_make_writable(GstBuffer *b) { return gst_buffer_make_writable(b); }
guint8 *fc_video_frame_plane_data(GstVideoFrame *f) { return GST_VIDEO_FRAME_PLANE_DATA(f, 0); }
gint fc_video_frame_stride(GstVideoFrame *f) { return GST_VIDEO_FRAME_PLANE_STRIDE(f, 0); }

GstCaps *fc_caps_with_size(GstCaps *caps, gint width, gint height, gboolean swap_par) {
  GstCaps *out = gst_caps_copy(caps);
  GstStructure *s = gst_caps_get_structure(out, 0);
  gst_structure_set(s, "width", G_TYPE_INT, width, "height", G_TYPE_INT, height, NULL);
  gint par_n, par_d;
  if (swap_par && gst_structure_get_fraction(s, "pixel-aspect-ratio", &par_n, &par_d))
    gst_structure_set(s, "pixel-aspect-ratio", GST_TYPE_FRACTION, par_d, par_n, NULL);
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

gboolean fc_buffer_memory_writable(GstBuffer *b) {
  if (!gst_buffer_is_writable(b)) return FALSE;
  guint n = gst_buffer_n_memory(b);
  for (guint i = 0; i < n; i++)
    if (!gst_memory_is_writable(gst_buffer_peek_memory(b, i))) return FALSE;
  return TRUE;
}

int fc_set_mmap_threshold(int bytes) {
#ifdef __GLIBC__
  return mallopt(M_MMAP_THRESHOLD, bytes);
#else
  (void)bytes;
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
