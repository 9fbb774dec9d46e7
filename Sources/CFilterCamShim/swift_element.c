#include "fc_element.h"
#include <string.h>

// ---------------------------------------------------------------------------
// What every Swift-backed element type shares, whichever shell it has: one GType per
// spec (the spec travels as class_data and stays on the type as qdata), properties
// forwarded to Swift, metadata, pad templates, action signals.

static GQuark fc_spec_quark(void) {
  static GQuark q;
  if (!q) q = g_quark_from_static_string("filtercam-element-spec");
  return q;
}

const FcElementSpec *fc_spec_of_type(GType type) { return g_type_get_qdata(type, fc_spec_quark()); }

// An element with an `orientation` of GstVideoOrientationMethod implements GstVideoDirection
// (as videoflip does): its `video-direction` property, id n_properties + 1, is the same
// setting, so code that turns video through the interface turns it here too.
static guint fc_orientation_id(const FcElementSpec *spec) {
  for (guint i = 0; i < spec->n_properties; i++) {
    if (strcmp(spec->properties[i]->name, "orientation") == 0
        && spec->properties[i]->value_type == GST_TYPE_VIDEO_ORIENTATION_METHOD) return i + 1;
  }
  return 0;
}

static guint fc_direction_alias(const FcElementSpec *spec, guint id) {
  return id == spec->n_properties + 1 ? fc_orientation_id(spec) : id;
}

static void fc_set_property(GObject *obj, guint id, const GValue *v, GParamSpec *ps) {
  const FcElementSpec *spec = FC_SPEC(obj);
  id = fc_direction_alias(spec, id);
  if (id == 0 || id > spec->n_properties) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    return;
  }
  spec->callbacks.set_property(*fc_ctx_slot(obj), id, v);
}

static void fc_get_property(GObject *obj, guint id, GValue *v, GParamSpec *ps) {
  const FcElementSpec *spec = FC_SPEC(obj);
  id = fc_direction_alias(spec, id);
  if (id == 0 || id > spec->n_properties) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    return;
  }
  spec->callbacks.get_property(*fc_ctx_slot(obj), id, v);
}

// GstObject's (it sends deep-notify to the parents), the same for every shell.
static void (*fc_parent_dispatch)(GObject *, guint, GParamSpec **);

// `orientation` and `video-direction` are one setting: a change of either (a property set,
// the window's r and m keys) is notified under both names, so code watching either sees it.
static void fc_dispatch_properties_changed(GObject *obj, guint n, GParamSpec **pspecs) {
  gboolean orientation = FALSE, direction = FALSE;
  for (guint i = 0; i < n; i++) {
    orientation |= strcmp(pspecs[i]->name, "orientation") == 0;
    direction |= strcmp(pspecs[i]->name, "video-direction") == 0;
  }
  GParamSpec *twin = orientation == direction ? NULL
      : g_object_class_find_property(G_OBJECT_GET_CLASS(obj), orientation ? "video-direction" : "orientation");
  if (twin && g_param_spec_get_redirect_target(twin)) twin = g_param_spec_get_redirect_target(twin);
  if (!twin) {
    fc_parent_dispatch(obj, n, pspecs);
    return;
  }
  GParamSpec **both = g_newa(GParamSpec *, n + 1);
  memcpy(both, pspecs, n * sizeof *pspecs);
  both[n] = twin;
  fc_parent_dispatch(obj, n + 1, both);
}

void fc_common_finalize(GObject *obj) {
  void **ctx = fc_ctx_slot(obj);
  if (*ctx) FC_SPEC(obj)->callbacks.finalize(*ctx);
  *ctx = NULL;
}

// Action signals have no class offset; a handler connected at instance init calls Swift.
static void fc_on_action(GstElement *e, gpointer index) {
  void *ctx = *fc_ctx_slot(e);
  if (ctx) FC_SPEC(e)->callbacks.action(ctx, GPOINTER_TO_UINT(index));
}

void fc_common_class_init(gpointer klass, const FcElementSpec *spec) {
  g_type_set_qdata(G_TYPE_FROM_CLASS(klass), fc_spec_quark(), (gpointer)spec);
  GObjectClass *oc = G_OBJECT_CLASS(klass);
  GstElementClass *ec = GST_ELEMENT_CLASS(klass);
  oc->set_property = fc_set_property;
  oc->get_property = fc_get_property;
  for (guint i = 0; i < spec->n_properties; i++)
    g_object_class_install_property(oc, i + 1, spec->properties[i]);
  if (fc_orientation_id(spec)) {
    g_object_class_override_property(oc, spec->n_properties + 1, "video-direction");
    fc_parent_dispatch = G_OBJECT_CLASS(g_type_class_peek_parent(klass))->dispatch_properties_changed;
    oc->dispatch_properties_changed = fc_dispatch_properties_changed;
  }
  gst_element_class_set_static_metadata(ec, spec->long_name, spec->klass, spec->description, spec->author);
  if (spec->sink_caps && spec->sink_caps[0])
    gst_element_class_add_pad_template(ec, gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                                                                gst_caps_from_string(spec->sink_caps)));
  gst_element_class_add_pad_template(ec, gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                                                              gst_caps_from_string(spec->src_caps)));
  for (guint i = 0; i < spec->n_action_signals; i++) {
    // No class handler: instance init connects each to fc_on_action, which calls Swift.
    g_signal_new(spec->action_signals[i], G_TYPE_FROM_CLASS(klass),
                 G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  }
}

// The shell is ready (pads made, flags set): Swift makes its side, then actions are connected.
void fc_common_instance_init(GstElement *element) {
  const FcElementSpec *spec = FC_SPEC(element);
  *fc_ctx_slot(element) = spec->callbacks.instance_init(element, spec->class_ctx);
  for (guint i = 0; i < spec->n_action_signals; i++)
    g_signal_connect(element, spec->action_signals[i], G_CALLBACK(fc_on_action), GUINT_TO_POINTER(i));
}

GType fc_register_shell(GType parent, const char *name, const FcElementSpec *spec, guint16 class_size,
                        guint16 instance_size, GClassInitFunc class_init, GInstanceInitFunc instance_init) {
  GTypeInfo info = {
    .class_size = class_size,
    .class_init = class_init,
    .class_data = spec,
    .instance_size = instance_size,
    .instance_init = instance_init,
  };
  GType type = g_type_register_static(parent, name, &info, 0);
  if (fc_orientation_id(spec)) {
    static const GInterfaceInfo direction = {NULL, NULL, NULL};
    g_type_add_interface_static(type, GST_TYPE_VIDEO_DIRECTION, &direction);
  }
  return type;
}

static char *fc_strdup_or_empty(const char *s) { return g_strdup(s ? s : ""); }

gboolean fc_element_register(GstPlugin *plugin, const char *factory_name, guint rank,
                             const FcElementSpec *spec) {
  GType type = g_type_from_name(spec->type_name);
  gboolean made_before = type != 0;
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
    type = copy->is_source ? fc_source_bin_register_type(copy->type_name, copy)
                           : fc_filter_element_register_type(copy->type_name, copy);
  }
  if (!gst_element_register(plugin, factory_name, rank, type)) return FALSE;
  // A type made before (the program's own elements, then a registry scan inside the
  // program loading libgstfiltercam.so): GStreamer made a new factory and dropped the one
  // the class already points to (registering reads the class), so elements named a freed
  // factory. The class is pointed at the one the registry holds now.
  GstElementClass *klass = made_before ? g_type_class_peek(type) : NULL;
  GstElementFactory *factory = klass ? gst_element_factory_find(factory_name) : NULL;
  if (factory) {
    klass->elementfactory = factory;
    gst_object_unref(factory);   // the registry keeps it
  }
  return TRUE;
}

void *fc_element_get_ctx(GstElement *element) {
  if (!element || !FC_SPEC(element)) return NULL;
  return *fc_ctx_slot(element);
}

void **fc_ctx_slot(gpointer obj) {
  return GST_IS_BIN(obj) ? &((FcSourceBin *)obj)->ctx : &((FcFilterElement *)obj)->ctx;
}
