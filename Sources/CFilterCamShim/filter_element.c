#include "fc_element.h"

// ---------------------------------------------------------------------------
// The shell of every filter element (filtercam, fc<id>): a plain GstElement with its own
// sink and src pads, so GStreamer's tracers (latency) and the pipeline see one ordinary
// element, as with identity. Frames still go appsink → Swift worker → appsrc: that pair is
// private (inner_pair.c), its states follow the element's, its messages come here.

static GstElementClass *fc_filter_parent_class(gpointer obj) {
  return GST_ELEMENT_CLASS(g_type_class_peek_parent(G_OBJECT_GET_CLASS(obj)));
}

static void fc_filter_finalize(GObject *obj) {
  fc_common_finalize(obj);
  fc_inner_clear(&((FcFilterElement *)obj)->inner);
  G_OBJECT_CLASS(fc_filter_parent_class(obj))->finalize(obj);
}

// The pair follows the element: it starts before the element's pads are activated (so the
// first frame finds it running) and stops before they are deactivated (its threads may be
// blocked pushing; stopping it unblocks them). Swift is called around both.
static GstStateChangeReturn fc_filter_change_state(GstElement *e, GstStateChange t) {
  FcFilterElement *self = (FcFilterElement *)e;
  const FcElementSpec *spec = FC_SPEC(e);
  GstStateChangeReturn r = spec->callbacks.change_state(self->ctx, t, 0, GST_STATE_CHANGE_SUCCESS);
  if (r == GST_STATE_CHANGE_FAILURE) return r;
  gboolean ok = TRUE;
  switch (t) {
  case GST_STATE_CHANGE_NULL_TO_READY:
    fc_inner_name_after(&self->inner, e);
    ok = fc_inner_set_state(&self->inner, GST_STATE_READY);
    break;
  case GST_STATE_CHANGE_READY_TO_PAUSED:
    ok = fc_inner_start(&self->inner);
    break;
  case GST_STATE_CHANGE_PAUSED_TO_READY:
    // The src pad first, as a stock element's pads go before its thread stops: a blocking
    // probe on it (the pad-blocking relink recipe) holds the inner appsrc's thread, which
    // the inner stop waits for; deactivated, the pad lets the probe go (FLUSHING). The
    // state change hung there for good.
    gst_pad_set_active(self->srcpad, FALSE);
    fc_inner_stop(&self->inner);
    break;
  case GST_STATE_CHANGE_READY_TO_NULL:
    fc_inner_set_state(&self->inner, GST_STATE_NULL);
    // A bin takes all its elements to READY before any to NULL, so by now every pool
    // in the pipeline has let go of its frames: the free memory they leave in the
    // allocator's per-thread arenas goes back to the system (see FrameMemory.swift).
    fc_return_free_memory();
    break;
  default:
    break;
  }
  if (!ok) return GST_STATE_CHANGE_FAILURE;
  r = fc_filter_parent_class(e)->change_state(e, t);
  return spec->callbacks.change_state(self->ctx, t, 1, r);
}

// A message from the inner pair goes to Swift's filter (inner EOS dropped, errors and
// warnings re-posted by the element under its own name); nothing else leaves the pair:
// its state changes and stream status are not the pipeline's business.
static GstBusSyncReply fc_filter_inner_message(GstBus *bus, GstMessage *m, gpointer element) {
  (void)bus;
  void *ctx = ((FcFilterElement *)element)->ctx;
  if (ctx) FC_SPEC(element)->callbacks.filter_message(ctx, m);
  gst_message_unref(m);   // a sync handler that drops a message owns it
  return GST_BUS_DROP;
}

GstCaps *fc_filter_output_caps(GstElement *element, GstCaps *input) {
  FcFilterElement *self = (FcFilterElement *)element;
  int geometry = self->ctx && FC_SPEC(self)->callbacks.caps_geometry ? FC_SPEC(self)->callbacks.caps_geometry(self->ctx) : 0;
  FcLensCrop crop = { FC_SPEC(self)->callbacks.lens_crop_length, FC_SPEC(self)->callbacks.lens_crop_range, self->ctx };
  if (!crop.length || !crop.range) geometry &= ~FC_CAPS_LENS_CROP;
  GstCaps *output = fc_caps_across_geometry(input, geometry, TRUE, crop);
  if (gst_caps_is_empty(output)) {
    gst_caps_unref(output);
    return NULL;
  }
  return gst_caps_fixate(output);
}

// CAPS queries on the element's own pads are answered as GstBaseTransform answers them
// (videoflip, videobalance): what the peer on the far side takes, carried across the
// element's turn or crop and kept within both sides' caps, so that a caps filter after
// the element chooses the format upstream. (The inner appsink alone answered with its
// template: `filtercam ! video/x-raw,format=I420` then failed with not-negotiated.)
static gboolean fc_filter_query_caps(FcFilterElement *self, GstPad *pad, GstQuery *query) {
  GstPad *far = pad == self->sinkpad ? self->srcpad : self->sinkpad;
  int geometry = self->ctx && FC_SPEC(self)->callbacks.caps_geometry
                   ? FC_SPEC(self)->callbacks.caps_geometry(self->ctx) : 0;
  FcLensCrop crop = { FC_SPEC(self)->callbacks.lens_crop_length, FC_SPEC(self)->callbacks.lens_crop_range, self->ctx };
  if (!crop.length || !crop.range) geometry &= ~FC_CAPS_LENS_CROP;
  // From the sink pad the near caps are the input's and the peer's the output's; from the
  // src pad the other way round.
  gboolean near_is_input = pad == self->sinkpad;
  GstCaps *filter = NULL, *near;
  gst_query_parse_caps(query, &filter);
  if (pad == self->sinkpad) {
    // The inner appsink's answer: the formats taken (a refusal is named there).
    if (!gst_pad_peer_query(gst_pad_get_element_private(pad), query)) return FALSE;
    GstCaps *answer = NULL;
    gst_query_parse_caps_result(query, &answer);
    near = answer ? gst_caps_ref(answer) : gst_caps_new_empty();
  } else {
    GstCaps *templ = gst_pad_get_pad_template_caps(pad);
    near = filter ? gst_caps_intersect_full(filter, templ, GST_CAPS_INTERSECT_FIRST) : gst_caps_ref(templ);
    gst_caps_unref(templ);
  }
  GstCaps *across = fc_caps_across_geometry(near, geometry, near_is_input, crop);
  GstCaps *far_templ = gst_pad_get_pad_template_caps(far);
  GstCaps *peer_filter = gst_caps_intersect_full(across, far_templ, GST_CAPS_INTERSECT_FIRST);
  GstCaps *peer = gst_pad_peer_query_caps(far, peer_filter);
  GstCaps *back = fc_caps_across_geometry(peer, geometry, !near_is_input, crop);
  GstCaps *result = gst_caps_intersect_full(near, back, GST_CAPS_INTERSECT_FIRST);
  gst_query_set_caps_result(query, result);
  GST_DEBUG_OBJECT(pad, "caps query answered %" GST_PTR_FORMAT, result);
  gst_caps_unref(result);
  gst_caps_unref(back);
  gst_caps_unref(peer);
  gst_caps_unref(peer_filter);
  gst_caps_unref(far_templ);
  gst_caps_unref(across);
  gst_caps_unref(near);
  return TRUE;
}

// Upstream queries that only upstream can answer (duration, position, seeking, convert,
// uri, segment, buffering, context…) cross the element as through identity. The inner
// appsrc answered them itself: no duration, seekable=false, so a player through the
// element could neither show the length nor seek. What the pair itself knows stays with
// it: latency (upstream's plus the filter's time), scheduling, accept-caps.
static gboolean fc_filter_query_goes_upstream(GstQuery *query) {
  switch (GST_QUERY_TYPE(query)) {
  case GST_QUERY_LATENCY:
  case GST_QUERY_SCHEDULING:
  case GST_QUERY_ACCEPT_CAPS:
  case GST_QUERY_ALLOCATION:
  case GST_QUERY_DRAIN:
    return FALSE;
  default:
    return TRUE;
  }
}

// Caps without a framerate (an application's appsrc often sends
// `video/x-raw,format=I420,width=64,height=48`) are taken as variable, 0/1, as
// GstVideoFilter takes them (videoflip gives them on as 0/1). The inner appsink takes only
// caps with every field it names, so they are completed before it sees them: NULL when
// nothing is missing.
static GstCaps *fc_caps_with_framerate(GstCaps *caps) {
  guint n = gst_caps_get_size(caps);
  gboolean missing = FALSE;
  for (guint i = 0; i < n && !missing; i++)
    missing = !gst_structure_has_field(gst_caps_get_structure(caps, i), "framerate");
  if (!missing || gst_caps_is_any(caps)) return NULL;
  GstCaps *completed = gst_caps_copy(caps);
  for (guint i = 0; i < n; i++) {
    GstStructure *s = gst_caps_get_structure(completed, i);
    if (!gst_structure_has_field(s, "framerate")) gst_structure_set(s, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  }
  return completed;
}

static gboolean fc_filter_accept_caps(GstPad *pad, GstQuery *query) {
  GstCaps *caps = NULL;
  gst_query_parse_accept_caps(query, &caps);
  GstCaps *completed = caps ? fc_caps_with_framerate(caps) : NULL;
  if (!completed) return gst_pad_peer_query(gst_pad_get_element_private(pad), query);
  GstQuery *inner = gst_query_new_accept_caps(completed);
  gboolean answered = gst_pad_peer_query(gst_pad_get_element_private(pad), inner), accepted = FALSE;
  if (answered) gst_query_parse_accept_caps_result(inner, &accepted);
  gst_query_set_accept_caps_result(query, accepted);
  gst_query_unref(inner);
  gst_caps_unref(completed);
  return answered;
}

// Downstream asking whether the element could give CAPS: what the src pad's CAPS query
// answers (upstream's formats carried across the element's turn or crop), as
// GstBaseTransform answers it. The inner appsrc refused even the caps it was giving.
static gboolean fc_filter_src_accept_caps(GstPad *pad, GstQuery *query) {
  GstCaps *caps = NULL;
  gst_query_parse_accept_caps(query, &caps);
  if (!caps) return FALSE;
  GstCaps *allowed = gst_pad_query_caps(pad, caps);
  gst_query_set_accept_caps_result(query, allowed && gst_caps_can_intersect(caps, allowed));
  if (allowed) gst_caps_unref(allowed);
  return TRUE;
}

static gboolean fc_filter_sink_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  (void)parent;
  GstCaps *caps = NULL;
  if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) gst_event_parse_caps(event, &caps);
  GstCaps *completed = caps ? fc_caps_with_framerate(caps) : NULL;
  if (completed) {
    GstEvent *replaced = gst_event_new_caps(completed);
    gst_event_set_seqnum(replaced, gst_event_get_seqnum(event));
    gst_caps_unref(completed);
    gst_event_unref(event);
    event = replaced;
  }
  return gst_pad_push_event(gst_pad_get_element_private(pad), event);
}

static gboolean fc_filter_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  FcFilterElement *self = (FcFilterElement *)parent;
  if (GST_QUERY_TYPE(query) == GST_QUERY_CAPS && self)
    return fc_filter_query_caps(self, pad, query);
  if (GST_QUERY_TYPE(query) == GST_QUERY_ACCEPT_CAPS && self)
    return pad == self->sinkpad ? fc_filter_accept_caps(pad, query) : fc_filter_src_accept_caps(pad, query);
  // Queries from upstream that are not in stream order (custom, context: a GL display
  // the window sink has, bitrate) are downstream's to answer, as through identity; the
  // appsink answered FALSE. Allocation stays with the appsink and a drain waits for the
  // frames before it (FrameWorker+Drain).
  if (self && pad == self->sinkpad && !GST_QUERY_IS_SERIALIZED(query))
    return gst_pad_peer_query(self->srcpad, query);
  if (self && pad == self->srcpad && fc_filter_query_goes_upstream(query))
    return gst_pad_peer_query(self->sinkpad, query);
  return gst_pad_peer_query(gst_pad_get_element_private(pad), query);
}

// The result of the upstream event the worker's probe passed on, on this thread (the probe
// runs inside the push below): a probe that handles an event can only say "handled", so
// a navigation event nobody upstream took returned TRUE (identity returns upstream's FALSE).
static _Thread_local int fc_upstream_result = -1;
void fc_note_upstream_event_result(gboolean result) { fc_upstream_result = result ? 1 : 0; }

// Upstream events the worker has no part in go straight to the element's sink pad, as
// through identity, so their result is upstream's: a seek the source refuses returns
// FALSE (through the appsrc every seek "succeeded"), a caps filter changed at run time
// after the element gets upstream to renegotiate (RECONFIGURE stopped at the appsrc), and
// an application's custom events reach the source. Latency, QoS and navigation still
// pass the worker (FrameWorker+Pads.swift), which notes or handles them.
static gboolean fc_filter_src_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  FcFilterElement *self = (FcFilterElement *)parent;
  switch (GST_EVENT_TYPE(event)) {
  case GST_EVENT_RECONFIGURE:
    if (self) fc_inner_note_renegotiation(&self->inner);
    return self ? gst_pad_push_event(self->sinkpad, event) : gst_pad_push_event(gst_pad_get_element_private(pad), event);
  case GST_EVENT_SEEK:
  case GST_EVENT_CUSTOM_UPSTREAM:
  case GST_EVENT_CUSTOM_BOTH:
  case GST_EVENT_CUSTOM_BOTH_OOB:
  case GST_EVENT_SELECT_STREAMS:
  case GST_EVENT_TOC_SELECT:
    if (self) return gst_pad_push_event(self->sinkpad, event);
    break;
  default:
    break;
  }
  fc_upstream_result = -1;
  gboolean pushed = gst_pad_push_event(gst_pad_get_element_private(pad), event);
  int passed_on = fc_upstream_result;
  fc_upstream_result = -1;
  return passed_on < 0 ? pushed : passed_on;
}

static void fc_filter_class_init(gpointer klass, gpointer data) {
  fc_common_class_init(klass, data);
  G_OBJECT_CLASS(klass)->finalize = fc_filter_finalize;
  GST_ELEMENT_CLASS(klass)->change_state = fc_filter_change_state;
}

static void fc_filter_instance_init(GTypeInstance *instance, gpointer klass) {
  FcFilterElement *self = (FcFilterElement *)instance;
  GstElementClass *ec = GST_ELEMENT_CLASS(klass);
  self->sinkpad = gst_pad_new_from_template(gst_element_class_get_pad_template(ec, "sink"), "sink");
  self->srcpad = gst_pad_new_from_template(gst_element_class_get_pad_template(ec, "src"), "src");
  fc_inner_init(&self->inner, self->sinkpad, self->srcpad);
  gst_pad_set_query_function(self->sinkpad, fc_filter_query);
  gst_pad_set_query_function(self->srcpad, fc_filter_query);
  gst_pad_set_event_function(self->srcpad, fc_filter_src_event);
  gst_pad_set_event_function(self->sinkpad, fc_filter_sink_event);
  gst_element_add_pad(GST_ELEMENT(self), self->sinkpad);
  gst_element_add_pad(GST_ELEMENT(self), self->srcpad);
  fc_common_instance_init(GST_ELEMENT(self));   // Swift adopts its appsink and appsrc here
}

GType fc_filter_element_register_type(const char *name, const FcElementSpec *spec) {
  return fc_register_shell(GST_TYPE_ELEMENT, name, spec, sizeof(GstElementClass), sizeof(FcFilterElement), fc_filter_class_init, fc_filter_instance_init);
}

guint64 fc_filter_renegotiation_drops(GstElement *element) {
  return FC_SPEC(element) && !GST_IS_BIN(element) ? fc_inner_renegotiation_drops(&((FcFilterElement *)element)->inner) : 0;
}

void fc_element_adopt_inner(GstElement *element, GstElement *sink, GstElement *src) {
  g_return_if_fail(FC_SPEC(element) && !GST_IS_BIN(element));
  fc_inner_adopt(&((FcFilterElement *)element)->inner, sink, src, fc_filter_inner_message, element);
}
