// One WebRTC viewer, as WHEP answers it: the viewer's offer is checked, webrtcbin answers
// it (sending only, H.264 on the payload type the offer gave H.264), and the answer goes
// back once the server's ICE candidates are gathered (WHEP without trickle needs them in
// the answer). Each viewer has a pipeline of its own fed by the shared encoder, so one
// viewer's failure or slowness touches no other.
// webrtcbin's library is marked unstable API in 1.22; what is used here is what its own examples use.
#define GST_USE_UNSTABLE_API
#include "whep_peer.h"
#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>
#include <nice/agent.h>
#include <stdlib.h>
#include <string.h>

// Browsers report reception (RTCP) about every second; silence this long means gone
// (a tab closed without saying goodbye).
#define FC_SILENCE_US (10 * G_USEC_PER_SEC)
#define FC_FIRST_REPORT_US (20 * G_USEC_PER_SEC)

struct FcWhepPeer {
  char *id;
  GstElement *pipeline, *webrtc, *appsrc, *rtpbin;
  FcEncodedStream *stream;   // a reference
  FcWhepAnswered answered;
  void *data;
  gint answered_once, closed, gone;   // atomic flags
  gint64 created, last_report;        // monotonic µs; last_report read and written atomically
};

static FcWhepPeer *peer_ref(FcWhepPeer *p) { return g_atomic_rc_box_acquire(p); }

static void peer_clear(gpointer data) {
  FcWhepPeer *p = data;
  gst_clear_object(&p->rtpbin);
  gst_clear_object(&p->appsrc);
  gst_clear_object(&p->webrtc);
  gst_clear_object(&p->pipeline);
  fc_encoded_stream_unref(p->stream);
  g_free(p->id);
}

static void peer_unref(gpointer p) { g_atomic_rc_box_release_full(p, peer_clear); }

static void fail(FcWhepPeer *p, const char *why) {
  if (g_atomic_int_get(&p->closed) || !g_atomic_int_compare_and_exchange(&p->answered_once, 0, 1)) return;
  p->answered(p->id, NULL, why, p->data);
}

static void finish(FcWhepPeer *p) {
  if (g_atomic_int_get(&p->closed) || !g_atomic_int_compare_and_exchange(&p->answered_once, 0, 1)) return;
  GstWebRTCSessionDescription *local = NULL;
  g_object_get(p->webrtc, "local-description", &local, NULL);
  char *text = local ? gst_sdp_message_as_text(local->sdp) : NULL;
  if (local) gst_webrtc_session_description_free(local);
  p->answered(p->id, text, text ? NULL : "webrtcbin made no answer", p->data);
}

static gboolean gathered(FcWhepPeer *p) {
  GstWebRTCICEGatheringState state;
  g_object_get(p->webrtc, "ice-gathering-state", &state, NULL);
  return state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE;
}

// The error a webrtcbin promise replied with, or NULL.
static char *promise_error(GstPromise *promise) {
  const GstStructure *reply = gst_promise_get_reply(promise);
  GError *error = NULL;
  if (!reply || !gst_structure_has_field(reply, "error")) return NULL;
  gst_structure_get(reply, "error", G_TYPE_ERROR, &error, NULL);
  char *text = g_strdup(error ? error->message : "refused");
  g_clear_error(&error);
  return text;
}

static void on_local_set(GstPromise *promise, gpointer data) {
  FcWhepPeer *p = data;
  char *error = promise_error(promise);
  if (error) {
    fail(p, error);
  } else {
    // Only now: while answering, webrtcbin matches the offer's H.264 against the caps on
    // its sink pad, and the stream's (profile-level-id from the encoder's SPS, e.g. 42c015)
    // would not match the offer's (42e01f), though any such decoder takes it.
    if (!g_atomic_int_get(&p->closed)) fc_encoded_stream_subscribe(p->stream, p->appsrc);
    if (gathered(p)) finish(p);
  }
  g_free(error);
}

static void on_answer_created(GstPromise *promise, gpointer data) {
  FcWhepPeer *p = data;
  const GstStructure *reply = gst_promise_get_reply(promise);
  GstWebRTCSessionDescription *answer = NULL;
  if (reply && gst_structure_has_field(reply, "answer"))
    gst_structure_get(reply, "answer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &answer, NULL);
  if (!answer) {
    char *error = promise_error(promise);
    fail(p, error ? error : "webrtcbin made no answer to the offer");
    g_free(error);
    return;
  }
  GstPromise *set = gst_promise_new_with_change_func(on_local_set, peer_ref(p), peer_unref);
  g_signal_emit_by_name(p->webrtc, "set-local-description", answer, set);
  gst_promise_unref(set);
  gst_webrtc_session_description_free(answer);
}

static void on_remote_set(GstPromise *promise, gpointer data) {
  FcWhepPeer *p = data;
  char *error = promise_error(promise);
  if (error) {
    fail(p, error);
    g_free(error);
    return;
  }
  GstPromise *create = gst_promise_new_with_change_func(on_answer_created, peer_ref(p), peer_unref);
  g_signal_emit_by_name(p->webrtc, "create-answer", NULL, create);
  gst_promise_unref(create);
}

static void on_gathering(GObject *webrtc, GParamSpec *spec, gpointer data) {
  (void)webrtc; (void)spec;
  FcWhepPeer *p = data;
  GstWebRTCSessionDescription *local = NULL;
  g_object_get(p->webrtc, "local-description", &local, NULL);
  if (local && gathered(p)) finish(p);
  if (local) gst_webrtc_session_description_free(local);
}

static void on_connection_state(GObject *webrtc, GParamSpec *spec, gpointer data) {
  (void)spec;
  GstWebRTCICEConnectionState state;
  g_object_get(webrtc, "ice-connection-state", &state, NULL);
  if (state == GST_WEBRTC_ICE_CONNECTION_STATE_FAILED || state == GST_WEBRTC_ICE_CONNECTION_STATE_CLOSED)
    g_atomic_int_set(&((FcWhepPeer *)data)->gone, 1);
}

static void on_report(GstElement *rtpbin, guint session, guint ssrc, gpointer data) {
  (void)rtpbin; (void)session; (void)ssrc;
  __atomic_store_n(&((FcWhepPeer *)data)->last_report, g_get_monotonic_time(), __ATOMIC_RELAXED);
}

static void on_goodbye(GstElement *rtpbin, guint session, guint ssrc, gpointer data) {
  (void)rtpbin; (void)session; (void)ssrc;
  g_atomic_int_set(&((FcWhepPeer *)data)->gone, 1);
}

// Media the viewer sends (an offer that also sends) is not used: it goes nowhere rather
// than stopping the pipeline with not-linked.
static void on_pad_added(GstElement *webrtc, GstPad *pad, gpointer data) {
  (void)webrtc;
  FcWhepPeer *p = data;
  if (GST_PAD_DIRECTION(pad) != GST_PAD_SRC) return;
  GstElement *sink = gst_element_factory_make("fakesink", NULL);
  g_object_set(sink, "async", FALSE, "sync", FALSE, NULL);
  gst_bin_add(GST_BIN(p->pipeline), sink);
  gst_element_sync_state_with_parent(sink);
  GstPad *sink_pad = gst_element_get_static_pad(sink, "sink");
  gst_pad_link(pad, sink_pad);
  gst_object_unref(sink_pad);
}

// webrtcbin puts a clocksync behind each of its sink pads, which would make every viewer's thread
// sleep on the clock for every frame; the frames come live and stamped with the viewer's
// now, so there is nothing to wait for.
static void unsync(GstElement *element) {
  GstElementFactory *factory = gst_element_get_factory(element);
  if (factory && g_strcmp0(GST_OBJECT_NAME(factory), "clocksync") == 0)
    g_object_set(element, "sync", FALSE, NULL);
}

static void on_element_added(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer data) {
  (void)bin; (void)sub_bin; (void)data;
  unsync(element);
}

static void unsync_each(const GValue *item, gpointer data) {
  (void)data;
  unsync(g_value_get_object(item));
}

static void unsync_clocksyncs(GstElement *pipeline) {
  GstIterator *it = gst_bin_iterate_recurse(GST_BIN(pipeline));
  gst_iterator_foreach(it, unsync_each, NULL);
  gst_iterator_free(it);
  g_signal_connect(pipeline, "deep-element-added", G_CALLBACK(on_element_added), NULL);
}

// The viewer's ICE: its candidates only on the address the server serves on (libnice takes
// every network's address unless given some), so that a server on loopback opens no port
// beyond it, password or not; libnice's UPnP (on by default: it multicasts on every
// network, binds the network's address and asks the router to open ports to the internet)
// only when the user asked for it.
static void set_up_ice(GstElement *webrtc, GInetAddress *local, gboolean upnp) {
  GObject *ice = NULL;
  g_object_get(webrtc, "ice-agent", &ice, NULL);
  if (!ice) return;
  NiceAgent *agent = NULL;
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(ice), "agent")) g_object_get(ice, "agent", &agent, NULL);
  if (agent) {
    const gboolean loopback = local && g_inet_address_get_is_loopback(local);
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(agent), "upnp")) g_object_set(agent, "upnp", upnp && !loopback, NULL);
    char *named = local && !loopback ? g_inet_address_to_string(local) : NULL;
    const char *const addresses[] = {loopback ? "127.0.0.1" : named, loopback ? "::1" : NULL};
    for (guint i = 0; i < G_N_ELEMENTS(addresses) && addresses[i]; i++) {
      NiceAddress address;
      nice_address_init(&address);
      if (nice_address_set_from_string(&address, addresses[i])) nice_agent_add_local_address(agent, &address);
    }
    g_free(named);
    g_object_unref(agent);
  }
  g_object_unref(ice);
}

// A media-level attribute, or the session-level one.
static const char *attribute(const GstSDPMessage *sdp, const GstSDPMedia *media, const char *key) {
  const char *value = gst_sdp_media_get_attribute_val(media, key);
  return value ? value : gst_sdp_message_get_attribute_val(sdp, key);
}

// The payload type to send H.264 on: the offer's H.264 with packetization-mode=1,
// constrained baseline (what the encoder makes) preferred. -1 and *error when none.
static int h264_payload_type(const GstSDPMessage *sdp, char **error) {
  int best = -1, best_score = 0;
  for (guint i = 0; i < gst_sdp_message_medias_len(sdp); i++) {
    const GstSDPMedia *media = gst_sdp_message_get_media(sdp, i);
    if (g_strcmp0(gst_sdp_media_get_media(media), "video") != 0 || gst_sdp_media_get_port(media) == 0) continue;
    if (gst_sdp_media_get_attribute_val(media, "sendonly") || gst_sdp_media_get_attribute_val(media, "inactive")) continue;
    if (!attribute(sdp, media, "ice-ufrag") || !attribute(sdp, media, "ice-pwd") || !attribute(sdp, media, "fingerprint")) {
      *error = g_strdup("the offer's video has no ICE credentials (a=ice-ufrag, a=ice-pwd) or no DTLS fingerprint (a=fingerprint)");
      return -1;
    }
    for (guint f = 0; f < gst_sdp_media_formats_len(media); f++) {
      int pt = atoi(gst_sdp_media_get_format(media, f));
      GstCaps *caps = gst_sdp_media_get_caps_from_media(media, pt);
      if (!caps) continue;
      const GstStructure *s = gst_caps_get_structure(caps, 0);
      const char *encoding = gst_structure_get_string(s, "encoding-name");
      const char *mode = gst_structure_get_string(s, "packetization-mode");
      const char *profile = gst_structure_get_string(s, "profile-level-id");
      if (encoding && g_ascii_strcasecmp(encoding, "H264") == 0 && g_strcmp0(mode, "1") == 0) {
        int score = profile && g_str_has_prefix(profile, "42e0") ? 3 : profile && g_str_has_prefix(profile, "4200") ? 2 : 1;
        if (score > best_score) best = pt, best_score = score;
      }
      gst_caps_unref(caps);
    }
    if (best >= 0) return best;
  }
  *error = g_strdup("the offer receives no H.264 video with packetization-mode=1 (an m=video line with a=rtpmap:PT H264/90000)");
  return -1;
}

static GstWebRTCSessionDescription *parse_offer(const char *offer, int *pt, char **error) {
  // GStreamer's parser asserts (a CRITICAL on stderr) on an empty buffer.
  if (!offer || !*offer) {
    *error = g_strdup("the body is empty: a WHEP request carries the viewer's SDP offer");
    return NULL;
  }
  GstSDPMessage *sdp = NULL;
  gst_sdp_message_new(&sdp);
  if (gst_sdp_message_parse_buffer((const guint8 *)offer, strlen(offer), sdp) != GST_SDP_OK
      || gst_sdp_message_medias_len(sdp) == 0) {
    *error = g_strdup("the body is not an SDP offer (no m= line)");
    gst_sdp_message_free(sdp);
    return NULL;
  }
  *pt = h264_payload_type(sdp, error);
  if (*pt < 0) {
    gst_sdp_message_free(sdp);
    return NULL;
  }
  return gst_webrtc_session_description_new(GST_WEBRTC_SDP_TYPE_OFFER, sdp);
}

static gboolean build(FcWhepPeer *p, int pt, GInetAddress *local, gboolean upnp, char **error) {
  char *description = g_strdup_printf(
      "appsrc name=encoded is-live=true format=time ! rtph264pay config-interval=-1 aggregate-mode=zero-latency mtu=1200 pt=%d "
      "! application/x-rtp,media=video,encoding-name=H264,clock-rate=90000,payload=%d "
      "! webrtcbin name=peer bundle-policy=max-bundle", pt, pt);
  GError *err = NULL;
  p->pipeline = gst_parse_launch_full(description, NULL, GST_PARSE_FLAG_FATAL_ERRORS, &err);
  g_free(description);
  if (!p->pipeline) {
    *error = g_strdup_printf("cannot build a WebRTC peer: %s", err ? err->message : "?");
    g_clear_error(&err);
    return FALSE;
  }
  gst_object_ref_sink(p->pipeline);
  unsync_clocksyncs(p->pipeline);
  p->webrtc = gst_bin_get_by_name(GST_BIN(p->pipeline), "peer");
  p->appsrc = gst_bin_get_by_name(GST_BIN(p->pipeline), "encoded");
  p->rtpbin = gst_bin_get_by_name(GST_BIN(p->webrtc), "rtpbin");
  GstWebRTCRTPTransceiver *transceiver = NULL;
  g_signal_emit_by_name(p->webrtc, "get-transceiver", 0, &transceiver);
  if (transceiver) {
    g_object_set(transceiver, "direction", GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_SENDONLY, NULL);
    gst_object_unref(transceiver);
  }
  set_up_ice(p->webrtc, local, upnp);
  g_signal_connect(p->webrtc, "notify::ice-gathering-state", G_CALLBACK(on_gathering), p);
  g_signal_connect(p->webrtc, "notify::ice-connection-state", G_CALLBACK(on_connection_state), p);
  g_signal_connect(p->webrtc, "pad-added", G_CALLBACK(on_pad_added), p);
  if (p->rtpbin) {
    g_signal_connect(p->rtpbin, "on-ssrc-active", G_CALLBACK(on_report), p);
    g_signal_connect(p->rtpbin, "on-bye-ssrc", G_CALLBACK(on_goodbye), p);
  }
  return TRUE;
}

FcWhepPeer *fc_whep_peer_new(FcEncodedStream *stream, const char *offer, GInetAddress *local, gboolean upnp,
                             const char *id, FcWhepAnswered answered, void *data, char **error) {
  int pt = -1;
  GstWebRTCSessionDescription *remote = parse_offer(offer, &pt, error);
  if (!remote) return NULL;
  FcWhepPeer *p = g_atomic_rc_box_new0(FcWhepPeer);
  p->id = g_strdup(id);
  p->stream = fc_encoded_stream_ref(stream);
  p->answered = answered;
  p->data = data;
  p->created = g_get_monotonic_time();
  if (!build(p, pt, local, upnp, error)) {
    gst_webrtc_session_description_free(remote);
    peer_unref(p);
    return NULL;
  }
  gst_element_set_state(p->pipeline, GST_STATE_PLAYING);
  GstPromise *set = gst_promise_new_with_change_func(on_remote_set, peer_ref(p), peer_unref);
  g_signal_emit_by_name(p->webrtc, "set-remote-description", remote, set);
  gst_promise_unref(set);
  gst_webrtc_session_description_free(remote);
  return p;
}

void fc_whep_peer_answer_now(FcWhepPeer *p) {
  GstWebRTCSessionDescription *local = NULL;
  g_object_get(p->webrtc, "local-description", &local, NULL);
  if (local) {
    gst_webrtc_session_description_free(local);
    finish(p);
  } else {
    fail(p, "no answer in time");
  }
}

gboolean fc_whep_peer_add_candidates(FcWhepPeer *p, const char *fragment) {
  char **lines = g_strsplit(fragment, "\n", -1);
  gboolean trickles = FALSE;
  for (char **line = lines; *line; line++) {
    g_strstrip(*line);
    if (g_str_has_prefix(*line, "a=candidate:")) g_signal_emit_by_name(p->webrtc, "add-ice-candidate", 0, *line + 2);
    trickles |= g_str_has_prefix(*line, "a=candidate:") || g_str_has_prefix(*line, "a=end-of-candidates");
  }
  g_strfreev(lines);
  return trickles;
}

gboolean fc_whep_peer_alive(FcWhepPeer *p) {
  if (g_atomic_int_get(&p->gone)) return FALSE;
  gint64 now = g_get_monotonic_time(), last = __atomic_load_n(&p->last_report, __ATOMIC_RELAXED);
  return last ? now - last < FC_SILENCE_US : now - p->created < FC_FIRST_REPORT_US;
}

gint64 fc_whep_peer_unconnected_for(FcWhepPeer *p) {
  if (__atomic_load_n(&p->last_report, __ATOMIC_RELAXED)) return -1;
  return g_get_monotonic_time() - p->created;
}

void fc_whep_peer_close(FcWhepPeer *p) {
  g_atomic_int_set(&p->closed, 1);
  fc_encoded_stream_unsubscribe(p->stream, p->appsrc);
  gst_element_set_state(p->pipeline, GST_STATE_NULL);
  g_signal_handlers_disconnect_by_data(p->webrtc, p);
  if (p->rtpbin) g_signal_handlers_disconnect_by_data(p->rtpbin, p);
  peer_unref(p);
}
