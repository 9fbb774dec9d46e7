// WHEP (RFC 9725) on the web server: POST /whep with an SDP offer makes a WebRTC viewer
// and answers 201 with the SDP answer and the viewer's resource (Location); DELETE on the
// resource leaves; PATCH trickles ICE candidates. Answers wait (the request is paused)
// until the viewer's candidates are gathered.
#include <string.h>
#include "web_access.h"
#include "web_server_private.h"
#include "whep_peer.h"

#define FC_WHEP_PATH "/whep"
#define FC_MAX_PEERS 16
// WHEP without trickle answers with every candidate; on a LAN they are in within
// milliseconds, so a gathering that takes longer answers with what it has.
#define FC_GATHERING_MS 3000
// A browser's viewer connects within a second or two of its answer; with every place
// taken, one that has not after this long (an offer that will never connect) makes room.
#define FC_UNCONNECTED_EVICT_US (5 * G_USEC_PER_SEC)

typedef struct {
  FcWhepPeer *peer;
  guint64 offer;             // the POST waiting for the answer; 0 once answered
  char *owner;               // the user who made it ("" without passwords): only they may end it
} Peer;

static void peer_free(gpointer data) {
  Peer *p = data;
  fc_whep_peer_close(p->peer);
  g_free(p->owner);
  g_free(p);
}

GHashTable *fc_whep_peers_new(void) {
  return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, peer_free);
}

// A viewer counts as watching (the camera runs for it) once its offer is answered, until
// it leaves; one that has not connected within FC_UNCONNECTED_EVICT_US of its answer no
// longer does: an offer that never connects kept the camera running until its viewer was
// dropped, 20 s on (the sweep, once a second, counts again).
static void count_watching(FcWebServer *s) {
  int n = 0;
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init(&it, s->peers);
  while (g_hash_table_iter_next(&it, NULL, &value)) {
    Peer *peer = value;
    n += peer->offer == 0 && fc_whep_peer_unconnected_for(peer->peer) < FC_UNCONNECTED_EVICT_US;
  }
  g_mutex_lock(&s->lock);
  s->watching = n;
  g_mutex_unlock(&s->lock);
}

static gboolean say_more_turned_away(FcWebServer *s, const char *since);

void fc_whep_sweep(FcWebServer *s) {
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init(&it, s->peers);
  while (g_hash_table_iter_next(&it, NULL, &value)) {
    Peer *peer = value;
    if (!peer->offer && !fc_whep_peer_alive(peer->peer)) g_hash_table_iter_remove(&it);
  }
  count_watching(s);
  gint64 now = g_get_monotonic_time();
  if (now - s->turned_away_said_at >= 10 * G_USEC_PER_SEC) {
    char since[80];
    g_snprintf(since, sizeof since, "in the %d s since (%d watch already, the most)",
               (int)((now - s->turned_away_said_at) / G_USEC_PER_SEC), FC_MAX_PEERS);
    if (say_more_turned_away(s, since)) s->turned_away_said_at = now;
  }
}

// "N more WebRTC viewers turned away SINCE" for those no line said yet; FALSE if none.
static gboolean say_more_turned_away(FcWebServer *s, const char *since) {
  int unsaid = g_atomic_int_exchange(&s->turned_away_unsaid, 0);
  if (unsaid) g_printerr("filtercam serve: %d more WebRTC viewer%s turned away %s\n", unsaid, unsaid == 1 ? "" : "s", since);
  return unsaid > 0;
}

void fc_web_server_say_turned_away(FcWebServer *s) { say_more_turned_away(s, "since the last such line"); }

typedef struct {
  FcWebServer *server;
  char *id, *answer, *error;
} Answer;

static void answer_free(gpointer data) {
  Answer *a = data;
  g_free(a->id);
  g_free(a->answer);
  g_free(a->error);
  g_free(a);
}

// On the server's thread: the peer's answer goes to the POST waiting for it.
static gboolean deliver_answer(gpointer data) {
  Answer *a = data;
  FcWebServer *s = a->server;
  Peer *peer = g_hash_table_lookup(s->peers, a->id);
  if (!peer || !peer->offer) return G_SOURCE_REMOVE;
  guint64 offer = peer->offer;
  peer->offer = 0;
  gboolean delivered;
  if (a->answer) {
    char *location = g_strdup_printf(FC_WHEP_PATH "/%s", a->id);
    GBytes *body = g_bytes_new(a->answer, strlen(a->answer));
    delivered = fc_web_respond(s, offer, SOUP_STATUS_CREATED, "application/sdp", body, NULL, location);
    g_bytes_unref(body);
    g_free(location);
  } else {
    char *text = g_strdup_printf("cannot answer the offer: %s\n", a->error);
    GBytes *body = g_bytes_new(text, strlen(text));
    fc_web_respond(s, offer, SOUP_STATUS_BAD_REQUEST, "text/plain; charset=utf-8", body, NULL, NULL);
    g_bytes_unref(body);
    g_free(text);
    delivered = FALSE;
  }
  if (!delivered) g_hash_table_remove(s->peers, a->id);   // refused, or the viewer left before its answer
  count_watching(s);
  return G_SOURCE_REMOVE;
}

static void on_answered(const char *peer_id, char *answer, const char *error, void *data) {
  Answer *a = g_new0(Answer, 1);
  a->server = data;
  a->id = g_strdup(peer_id);
  a->answer = answer;
  a->error = g_strdup(error);
  g_main_context_invoke_full(a->server->context, G_PRIORITY_DEFAULT, deliver_answer, a, answer_free);
}

typedef struct {
  FcWebServer *server;
  char *id;
} PeerTimer;

static void peer_timer_free(gpointer data) {
  PeerTimer *t = data;
  g_free(t->id);
  g_free(t);
}

static gboolean on_gathering_too_long(gpointer data) {
  PeerTimer *t = data;
  Peer *peer = g_hash_table_lookup(t->server->peers, t->id);
  if (peer && peer->offer) fc_whep_peer_answer_now(peer->peer);
  return G_SOURCE_REMOVE;
}

static gboolean has_type(SoupServerMessage *msg, const char *type) {
  const char *given = soup_message_headers_get_content_type(soup_server_message_get_request_headers(msg), NULL);
  return given && g_ascii_strcasecmp(given, type) == 0;
}

// Offers answered long ago whose viewer never connected must not keep real viewers out:
// the one waiting longest (past FC_UNCONNECTED_EVICT_US) goes.
static void evict_the_longest_unconnected(FcWebServer *s) {
  GHashTableIter it;
  gpointer key, value;
  const char *oldest = NULL;
  gint64 longest = FC_UNCONNECTED_EVICT_US;
  g_hash_table_iter_init(&it, s->peers);
  while (g_hash_table_iter_next(&it, &key, &value)) {
    Peer *peer = value;
    gint64 waited = peer->offer ? -1 : fc_whep_peer_unconnected_for(peer->peer);
    if (waited >= longest) longest = waited, oldest = key;
  }
  if (oldest) {
    g_hash_table_remove(s->peers, oldest);
    count_watching(s);
  }
}

// A viewer turned away for want of room is said on the server's terminal (whoever runs
// it learned nothing of it): the first at once, then at most a line every 10 s with how
// many more there were (fc_whep_sweep; fc_web_server_say_turned_away when serve ends).
// On the server's thread.
static void say_turned_away(FcWebServer *s, SoupServerMessage *msg) {
  gint64 now = g_get_monotonic_time();
  if (s->turned_away_said_at && now - s->turned_away_said_at < 10 * G_USEC_PER_SEC) {
    g_atomic_int_inc(&s->turned_away_unsaid);
    return;
  }
  const char *address = soup_server_message_get_remote_host(msg);
  g_printerr("filtercam serve: a WebRTC viewer turned away (from %s): %d watch already, the most\n", address ? address : "?",
             FC_MAX_PEERS);
  s->turned_away_said_at = now;
}

// POST /whep: an offer in, a viewer out (201, the answer, Location of the viewer's resource).
static void whep_offer(FcWebServer *s, SoupServerMessage *msg) {
  if (!has_type(msg, "application/sdp")) {
    fc_web_respond_text(msg, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE, "a WHEP offer is Content-Type: application/sdp\n");
    return;
  }
  if (g_hash_table_size(s->peers) >= FC_MAX_PEERS) evict_the_longest_unconnected(s);
  if (g_hash_table_size(s->peers) >= FC_MAX_PEERS) {
    fc_web_respond_text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "too many WebRTC viewers (16); try again later\n");
    say_turned_away(s, msg);
    return;
  }
  gsize length = 0;
  char *offer = fc_web_body_text(msg, &length), *error = NULL;
  // Bytes that are not text (a NUL, not UTF-8) were said to be "empty" or to have no m= line.
  if (strlen(offer) != length || !g_utf8_validate(offer, -1, NULL)) {
    g_free(offer);
    fc_web_respond_text(msg, SOUP_STATUS_BAD_REQUEST, "the body is not text: a WHEP offer is an SDP document (UTF-8 text)\n");
    return;
  }
  char *id = g_uuid_string_random();
  FcWhepPeer *whep = fc_whep_peer_new(s->stream, offer, s->local, s->upnp, id, on_answered, s, &error);
  g_free(offer);
  if (!whep) {
    char *text = g_strdup_printf("%s\n", error);
    fc_web_respond_text(msg, SOUP_STATUS_BAD_REQUEST, text);
    g_free(text);
    g_free(error);
    g_free(id);
    return;
  }
  Peer *peer = g_new0(Peer, 1);
  peer->peer = whep;
  peer->owner = g_strdup(fc_access_user(msg));
  peer->offer = fc_web_hold(s, msg);
  g_hash_table_insert(s->peers, g_strdup(id), peer);
  PeerTimer *timer = g_new0(PeerTimer, 1);
  timer->server = s;
  timer->id = id;
  GSource *source = g_timeout_source_new(FC_GATHERING_MS);
  g_source_set_callback(source, on_gathering_too_long, timer, peer_timer_free);
  g_source_attach(source, s->context);
  g_source_unref(source);
}

// The first a=candidate: line of FRAGMENT that is not one (RFC 8839: foundation, component,
// transport, priority, address, port, "typ", type), newly allocated; NULL when all are.
// webrtcbin ignores what it cannot read, and a PATCH of garbage was answered 204.
static char *first_bad_candidate(const char *fragment) {
  char **lines = g_strsplit(fragment, "\n", -1);
  char *bad = NULL;
  for (char **line = lines; *line && !bad; line++) {
    char *text = g_strstrip(*line);
    if (!g_str_has_prefix(text, "a=candidate:")) continue;
    char **f = g_strsplit_set(text + strlen("a=candidate:"), " ", -1);
    guint n = g_strv_length(f);
    char *end = NULL;
    gboolean good = n >= 8 && *f[0];
    if (good) {
      guint64 component = g_ascii_strtoull(f[1], &end, 10);
      good = *end == '\0' && component >= 1 && component <= 256;
    }
    good = good && (g_ascii_strcasecmp(f[2], "udp") == 0 || g_ascii_strcasecmp(f[2], "tcp") == 0);
    if (good) {
      g_ascii_strtoull(f[3], &end, 10);
      good = *f[3] && *end == '\0';
    }
    if (good) {
      GInetAddress *address = g_inet_address_new_from_string(f[4]);
      good = address || g_str_has_suffix(f[4], ".local");   // an mDNS name hides a host's address
      g_clear_object(&address);
    }
    if (good) {
      guint64 port = g_ascii_strtoull(f[5], &end, 10);
      good = *f[5] && *end == '\0' && port <= 65535;
    }
    good = good && strcmp(f[6], "typ") == 0
      && (strcmp(f[7], "host") == 0 || strcmp(f[7], "srflx") == 0 || strcmp(f[7], "prflx") == 0 || strcmp(f[7], "relay") == 0);
    if (!good) bad = g_strdup(text);
    g_strfreev(f);
  }
  g_strfreev(lines);
  return bad;
}

// /whep/ID: DELETE leaves; PATCH trickles candidates.
static void whep_resource(FcWebServer *s, SoupServerMessage *msg, const char *id) {
  const char *method = soup_server_message_get_method(msg);
  Peer *peer = g_hash_table_lookup(s->peers, id);
  if (!peer) {
    fc_web_respond_text(msg, SOUP_STATUS_NOT_FOUND, "no such WebRTC viewer\n");
  } else if (strcmp(peer->owner, fc_access_user(msg)) != 0) {
    // As RTSP answers 454 for another connection's session: the resource's URL travels
    // in the clear without TLS, and one user could end (or feed candidates to) another's.
    fc_web_respond_text(msg, SOUP_STATUS_FORBIDDEN, "this WebRTC viewer was started by another user\n");
  } else if (strcmp(method, "DELETE") == 0) {
    g_hash_table_remove(s->peers, id);
    count_watching(s);
    fc_web_respond_text(msg, SOUP_STATUS_OK, "left\n");
  } else if (strcmp(method, "PATCH") == 0) {
    if (!has_type(msg, "application/trickle-ice-sdpfrag")) {
      fc_web_respond_text(msg, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE, "trickle ICE is Content-Type: application/trickle-ice-sdpfrag\n");
      return;
    }
    char *fragment = fc_web_body_text(msg, NULL);
    char *bad = first_bad_candidate(fragment);
    if (bad) {
      char *text = g_strdup_printf("not an ICE candidate (RFC 8839: a=candidate:FOUNDATION COMPONENT udp|tcp PRIORITY "
                                   "ADDRESS PORT typ host|srflx|prflx|relay): %.200s\n", bad);
      fc_web_respond_text(msg, SOUP_STATUS_BAD_REQUEST, text);
      g_free(text);
      g_free(bad);
      g_free(fragment);
      return;
    }
    gboolean trickles = fc_whep_peer_add_candidates(peer->peer, fragment);
    g_free(fragment);
    if (trickles) {
      soup_server_message_set_status(msg, SOUP_STATUS_NO_CONTENT, NULL);
    } else {
      fc_web_respond_text(msg, SOUP_STATUS_BAD_REQUEST,
                          "a trickle ICE fragment holds a=candidate: or a=end-of-candidates lines (RFC 8840)\n");
    }
  } else {
    soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Allow", "DELETE, PATCH");
    fc_web_respond_text(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "a WebRTC viewer's resource takes DELETE (leave) or PATCH (trickle ICE)\n");
  }
}

gboolean fc_whep_route(FcWebServer *s, SoupServerMessage *msg, const char *path) {
  if (strcmp(path, FC_WHEP_PATH) == 0) {
    if (strcmp(soup_server_message_get_method(msg), "POST") == 0) {
      whep_offer(s, msg);
    } else {
      soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Allow", "POST");
      fc_web_respond_text(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "WHEP takes an SDP offer by POST\n");
    }
    return TRUE;
  }
  if (g_str_has_prefix(path, FC_WHEP_PATH "/")) {
    whep_resource(s, msg, path + strlen(FC_WHEP_PATH "/"));
    return TRUE;
  }
  return FALSE;
}
