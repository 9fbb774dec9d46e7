#include "fc_element.h"
#include <string.h>

// ---------------------------------------------------------------------------
// The filter's private appsink and appsrc, joined to the element's pads by two internal
// pads without a parent. Each of the four pads forwards to its partner (kept as the pad's
// element_private), as a ghost pad and its proxy do, but without making the element a bin:
//   element sink  → to_sink  → appsink        (buffers, downstream events, queries)
//   element sink  ← to_sink  ← appsink        (upstream events and queries: seeks, latency)
//   appsrc → from_src → element src           (buffers, downstream events, queries)
//   appsrc ← from_src ← element src           (upstream events and queries)

static GstPad *fc_partner(GstPad *pad) { return gst_pad_get_element_private(pad); }

static GstFlowReturn fc_forward_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  (void)parent;
  return gst_pad_push(fc_partner(pad), buffer);
}

static GstFlowReturn fc_forward_chain_list(GstPad *pad, GstObject *parent, GstBufferList *list) {
  (void)parent;
  return gst_pad_push_list(fc_partner(pad), list);
}

static gboolean fc_forward_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  (void)parent;
  return gst_pad_push_event(fc_partner(pad), event);
}

static gboolean fc_forward_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  (void)parent;
  return gst_pad_peer_query(fc_partner(pad), query);
}

// The latency tracer sends its probes from every pad it sees pushing: the appsrc (a source
// to it) starts a "pipeline" there, and the internal pad into the appsink asks for the
// appsink's own latency. Both name an inner element (latency_probe.element_id, "%p") and
// mean nothing outside; the probes from upstream name upstream and this element, and pass.
static gboolean fc_is_inner_latency_probe(const FcInnerPair *pair, GstEvent *event) {
  if (GST_EVENT_TYPE(event) != GST_EVENT_CUSTOM_DOWNSTREAM) return FALSE;
  const GstStructure *s = gst_event_get_structure(event);
  if (!s || !(gst_structure_has_name(s, "latency_probe.id") || gst_structure_has_name(s, "sub_latency_probe.id")))
    return FALSE;
  const char *id = gst_structure_get_string(s, "latency_probe.element_id");
  if (!id) return FALSE;
  char sink_id[32], src_id[32];
  g_snprintf(sink_id, sizeof sink_id, "%p", (void *)pair->sink);
  g_snprintf(src_id, sizeof src_id, "%p", (void *)pair->src);
  return strcmp(id, sink_id) == 0 || strcmp(id, src_id) == 0;
}

static gboolean fc_from_src_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  FcInnerPair *pair = g_object_get_data(G_OBJECT(pad), "fc-inner-pair");
  if (pair && fc_is_inner_latency_probe(pair, event)) {
    gst_event_unref(event);
    return TRUE;
  }
  // New caps out of the appsrc: the renegotiation asked for has come (refused too, they
  // end the stream as before). A flush ends the wait as well.
  if (pair && (GST_EVENT_TYPE(event) == GST_EVENT_CAPS || GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP))
    __atomic_store_n(&pair->renegotiation_asked_at, 0, __ATOMIC_RELAXED);
  return fc_forward_event(pad, parent, event);
}

// How long frames made for the caps before may be refused after a RECONFIGURE (µs).
#define FC_RENEGOTIATION_WAIT (2 * G_USEC_PER_SEC)

void fc_inner_note_renegotiation(FcInnerPair *pair) {
  __atomic_store_n(&pair->renegotiation_asked_at, g_get_monotonic_time(), __ATOMIC_RELAXED);
}

static gboolean fc_renegotiating(GstPad *pad) {
  FcInnerPair *pair = g_object_get_data(G_OBJECT(pad), "fc-inner-pair");
  if (!pair) return FALSE;
  gint64 asked = __atomic_load_n(&pair->renegotiation_asked_at, __ATOMIC_RELAXED);
  return asked != 0 && g_get_monotonic_time() - asked < FC_RENEGOTIATION_WAIT;
}

static GstFlowReturn fc_from_src_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  GstFlowReturn result = fc_forward_chain(pad, parent, buffer);
  if (result == GST_FLOW_NOT_NEGOTIATED && fc_renegotiating(pad)) {
    GST_DEBUG_OBJECT(pad, "a frame of the caps before the renegotiation refused: dropped");
    return GST_FLOW_OK;
  }
  return result;
}

static GstFlowReturn fc_from_src_chain_list(GstPad *pad, GstObject *parent, GstBufferList *list) {
  GstFlowReturn result = fc_forward_chain_list(pad, parent, list);
  return result == GST_FLOW_NOT_NEGOTIATED && fc_renegotiating(pad) ? GST_FLOW_OK : result;
}

static void fc_forward_to(GstPad *pad, GstPad *partner) {
  gst_pad_set_element_private(pad, partner);
  if (GST_PAD_IS_SINK(pad)) {
    gst_pad_set_chain_function(pad, fc_forward_chain);
    gst_pad_set_chain_list_function(pad, fc_forward_chain_list);
  }
  gst_pad_set_event_function(pad, fc_forward_event);
  gst_pad_set_query_function(pad, fc_forward_query);
}

void fc_inner_init(FcInnerPair *pair, GstPad *element_sink, GstPad *element_src) {
  memset(pair, 0, sizeof *pair);
  pair->to_sink = gst_object_ref_sink(gst_pad_new("to-sink", GST_PAD_SRC));
  pair->from_src = gst_object_ref_sink(gst_pad_new("from-src", GST_PAD_SINK));
  fc_forward_to(element_sink, pair->to_sink);
  fc_forward_to(pair->to_sink, element_sink);
  fc_forward_to(element_src, pair->from_src);
  fc_forward_to(pair->from_src, element_src);
  gst_pad_set_event_function(pair->from_src, fc_from_src_event);
  gst_pad_set_chain_function(pair->from_src, fc_from_src_chain);
  gst_pad_set_chain_list_function(pair->from_src, fc_from_src_chain_list);
  g_object_set_data(G_OBJECT(pair->from_src), "fc-inner-pair", pair);
}

void fc_inner_adopt(FcInnerPair *pair, GstElement *sink, GstElement *src,
                    GstBusSyncHandler on_message, gpointer data) {
  g_return_if_fail(pair->sink == NULL && pair->src == NULL);
  pair->sink = gst_object_ref_sink(sink);
  pair->src = gst_object_ref_sink(src);
  GstPad *sink_pad = gst_element_get_static_pad(sink, "sink");
  GstPad *src_pad = gst_element_get_static_pad(src, "src");
  gst_pad_link(pair->to_sink, sink_pad);
  gst_pad_link(src_pad, pair->from_src);
  gst_object_unref(sink_pad);
  gst_object_unref(src_pad);
  pair->bus = gst_bus_new();
  gst_bus_set_sync_handler(pair->bus, on_message, data, NULL);
  gst_element_set_bus(sink, pair->bus);
  gst_element_set_bus(src, pair->bus);
}

void fc_inner_name_after(FcInnerPair *pair, GstElement *element) {
  if (!pair->sink) return;
  gchar *name = gst_element_get_name(element);
  gchar *in = g_strdup_printf("%s-in", name), *out = g_strdup_printf("%s-out", name);
  gst_object_set_name(GST_OBJECT(pair->sink), in);
  gst_object_set_name(GST_OBJECT(pair->src), out);
  g_free(in);
  g_free(out);
  g_free(name);
}

gboolean fc_inner_set_state(FcInnerPair *pair, GstState state) {
  if (!pair->sink) return TRUE;
  gboolean ok = gst_element_set_state(pair->sink, state) != GST_STATE_CHANGE_FAILURE;
  return gst_element_set_state(pair->src, state) != GST_STATE_CHANGE_FAILURE && ok;
}

gboolean fc_inner_start(FcInnerPair *pair) {
  if (!pair->sink) return TRUE;
  gst_pad_set_active(pair->to_sink, TRUE);
  gst_pad_set_active(pair->from_src, TRUE);
  return fc_inner_set_state(pair, GST_STATE_PLAYING);
}

void fc_inner_stop(FcInnerPair *pair) {
  if (!pair->sink) return;
  fc_inner_set_state(pair, GST_STATE_READY);
  gst_pad_set_active(pair->to_sink, FALSE);
  gst_pad_set_active(pair->from_src, FALSE);
}

void fc_inner_clear(FcInnerPair *pair) {
  if (pair->sink) {
    fc_inner_set_state(pair, GST_STATE_NULL);
    gst_element_set_bus(pair->sink, NULL);
    gst_element_set_bus(pair->src, NULL);
    gst_object_unref(pair->sink);
    gst_object_unref(pair->src);
  }
  if (pair->bus) {
    gst_bus_set_sync_handler(pair->bus, NULL, NULL, NULL);
    gst_object_unref(pair->bus);
  }
  // Unlinked by the inner elements' disposal; the element's own pads went with it.
  if (pair->to_sink) gst_object_unref(pair->to_sink);
  if (pair->from_src) gst_object_unref(pair->from_src);
  memset(pair, 0, sizeof *pair);
}
