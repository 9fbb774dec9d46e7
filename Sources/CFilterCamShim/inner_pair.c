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

static gboolean fc_forgive_refusal(GstPad *pad, FcInnerPair *pair);

static gboolean fc_from_src_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  FcInnerPair *pair = g_object_get_data(G_OBJECT(pad), "fc-inner-pair");
  if (pair && fc_is_inner_latency_probe(pair, event)) {
    gst_event_unref(event);
    return TRUE;
  }
  if (pair && GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {   // a flush throws the old frames away
    __atomic_store_n(&pair->renegotiation_budget, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&pair->caps_check_pending, 0, __ATOMIC_RELAXED);
  }
  gboolean is_caps = GST_EVENT_TYPE(event) == GST_EVENT_CAPS;
  gboolean taken = fc_forward_event(pad, parent, event);
  // Caps upstream made for an earlier RECONFIGURE, refused because downstream changed
  // again meanwhile: taken as a refused frame is (the appsrc ended the stream on them),
  // while upstream makes the caps for the last one. The caps stay on the element's pad
  // and are offered again with the next frame.
  if (!taken && is_caps && pair && fc_forgive_refusal(pad, pair)) return TRUE;
  return taken;
}

// Frames made for the caps before a RECONFIGURE that may be refused: those inside the
// element then (one waiting, one filtered, one in the appsrc, one on its way) and a few
// more while upstream's new caps travel.
#define FC_RENEGOTIATION_FRAMES 8

void fc_inner_note_renegotiation(FcInnerPair *pair) {
  __atomic_store_n(&pair->renegotiation_budget, FC_RENEGOTIATION_FRAMES, __ATOMIC_RELAXED);
  __atomic_store_n(&pair->caps_check_pending, 1, __ATOMIC_RELAXED);
}

guint64 fc_inner_renegotiation_drops(FcInnerPair *pair) {
  return __atomic_load_n(&pair->renegotiation_drops, __ATOMIC_RELAXED);
}

// A refusal within the budget is forgiven (the budget spent by one).
static gboolean fc_forgive_refusal(GstPad *pad, FcInnerPair *pair) {
  gint budget = __atomic_load_n(&pair->renegotiation_budget, __ATOMIC_RELAXED);
  while (budget > 0) {
    if (__atomic_compare_exchange_n(&pair->renegotiation_budget, &budget, budget - 1, FALSE, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      GST_DEBUG_OBJECT(pad, "refused while upstream renegotiates: forgiven, %d more", budget - 1);
      return TRUE;
    }
  }
  return FALSE;
}

// After a push: a refusal within the budget is forgiven (the frame counted as dropped).
// The budget is not ended by new caps going out: caps made for an earlier RECONFIGURE
// cannot be told from those for the last (changes 50 ms apart ended the stream so). What
// is left of it only delays a later refusal's error by as many frames.
static GstFlowReturn fc_after_push(GstPad *pad, GstFlowReturn result) {
  FcInnerPair *pair = g_object_get_data(G_OBJECT(pad), "fc-inner-pair");
  if (!pair || result != GST_FLOW_NOT_NEGOTIATED || !fc_forgive_refusal(pad, pair)) return result;
  __atomic_add_fetch(&pair->renegotiation_drops, 1, __ATOMIC_RELAXED);
  return GST_FLOW_OK;
}

// Before a push, after a RECONFIGURE: does downstream still take the caps this frame is
// in? Pushed and refused, the frame would be forgiven too, but a `queue` on the way keeps
// the refusal it got from the element after it and refuses every later frame (the stream
// ended there where `identity` alone carried on). So a frame downstream will not take
// now is dropped here, within the same budget, until one is seen taken.
static gboolean fc_drop_before_push(GstPad *pad, FcInnerPair *pair) {
  if (!__atomic_load_n(&pair->caps_check_pending, __ATOMIC_RELAXED)) return FALSE;
  GstPad *element_src = fc_partner(pad);
  GstCaps *caps = gst_pad_get_current_caps(element_src);
  if (!caps) return FALSE;
  GstCaps *taken = gst_pad_peer_query_caps(element_src, caps);
  gboolean refused = gst_caps_is_empty(taken);
  gst_caps_unref(taken);
  gst_caps_unref(caps);
  if (!refused) {
    __atomic_store_n(&pair->caps_check_pending, 0, __ATOMIC_RELAXED);
    return FALSE;
  }
  if (!fc_forgive_refusal(pad, pair)) return FALSE;   // past the budget: pushed, and the refusal ends the stream
  __atomic_add_fetch(&pair->renegotiation_drops, 1, __ATOMIC_RELAXED);
  return TRUE;
}

static GstFlowReturn fc_from_src_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  FcInnerPair *pair = g_object_get_data(G_OBJECT(pad), "fc-inner-pair");
  if (pair && fc_drop_before_push(pad, pair)) {
    gst_buffer_unref(buffer);
    return GST_FLOW_OK;
  }
  return fc_after_push(pad, fc_forward_chain(pad, parent, buffer));
}

static GstFlowReturn fc_from_src_chain_list(GstPad *pad, GstObject *parent, GstBufferList *list) {
  FcInnerPair *pair = g_object_get_data(G_OBJECT(pad), "fc-inner-pair");
  if (pair && fc_drop_before_push(pad, pair)) {
    gst_buffer_list_unref(list);
    return GST_FLOW_OK;
  }
  return fc_after_push(pad, fc_forward_chain_list(pad, parent, list));
}

// Caps refused downstream while the budget lasts are "accepted" here, so that they reach
// the event function above (the pad checks them before it and failed the appsrc there).
static gboolean fc_from_src_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  gboolean answered = fc_forward_query(pad, parent, query);
  if (GST_QUERY_TYPE(query) != GST_QUERY_ACCEPT_CAPS) return answered;
  gboolean accepted = FALSE;
  if (answered) gst_query_parse_accept_caps_result(query, &accepted);
  FcInnerPair *pair = g_object_get_data(G_OBJECT(pad), "fc-inner-pair");
  if (!accepted && pair && __atomic_load_n(&pair->renegotiation_budget, __ATOMIC_RELAXED) > 0) {
    gst_query_set_accept_caps_result(query, TRUE);
    return TRUE;
  }
  return answered;
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
  gst_pad_set_query_function(pair->from_src, fc_from_src_query);
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
  __atomic_store_n(&pair->renegotiation_budget, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&pair->renegotiation_drops, 0, __ATOMIC_RELAXED);   // counted from the start, as the worker's counters
  __atomic_store_n(&pair->caps_check_pending, 0, __ATOMIC_RELAXED);
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
