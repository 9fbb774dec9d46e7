#include "fc_element.h"

// ---------------------------------------------------------------------------
// The shell of a source element (filtercamsrc): a GstBin, as it switches whole camera
// bins in and out at run time. Swift adds the children and the ghost src pad.

static GstBinClass *fc_source_bin_parent_class(gpointer obj) {
  return GST_BIN_CLASS(g_type_class_peek_parent(G_OBJECT_GET_CLASS(obj)));
}

static void fc_source_bin_finalize(GObject *obj) {
  fc_common_finalize(obj);
  G_OBJECT_CLASS(fc_source_bin_parent_class(obj))->finalize(obj);
}

static GstStateChangeReturn fc_source_bin_change_state(GstElement *e, GstStateChange t) {
  const FcElementSpec *spec = FC_SPEC(e);
  void *ctx = *fc_ctx_slot(e);
  GstStateChangeReturn r = spec->callbacks.change_state(ctx, t, 0, GST_STATE_CHANGE_SUCCESS);
  if (r == GST_STATE_CHANGE_FAILURE) return r;
  r = GST_ELEMENT_CLASS(fc_source_bin_parent_class(e))->change_state(e, t);
  return spec->callbacks.change_state(ctx, t, 1, r);
}

static void fc_source_bin_handle_message(GstBin *bin, GstMessage *m) {
  void *ctx = *fc_ctx_slot(bin);
  if (ctx && FC_SPEC(bin)->callbacks.filter_message(ctx, m)) {
    gst_message_unref(m);
    return;
  }
  fc_source_bin_parent_class(bin)->handle_message(bin, m);
}

static void fc_source_bin_class_init(gpointer klass, gpointer data) {
  fc_common_class_init(klass, data);
  G_OBJECT_CLASS(klass)->finalize = fc_source_bin_finalize;
  GST_ELEMENT_CLASS(klass)->change_state = fc_source_bin_change_state;
  GST_BIN_CLASS(klass)->handle_message = fc_source_bin_handle_message;
}

static void fc_source_bin_instance_init(GTypeInstance *instance, gpointer klass) {
  // A source bin stays a source (live, EOS handling); an inner sink must not make it a sink.
  gst_bin_set_suppressed_flags(GST_BIN(instance), GST_ELEMENT_FLAG_SINK);
  fc_common_instance_init(GST_ELEMENT(instance));
}

GType fc_source_bin_register_type(const char *name, const FcElementSpec *spec) {
  return fc_register_shell(GST_TYPE_BIN, name, spec, sizeof(GstBinClass), sizeof(FcSourceBin), fc_source_bin_class_init, fc_source_bin_instance_init);
}
