// Who may touch a session, who counts as watching, and how long a stranger may idle:
// the per-connection rules of `filtercam serve`, on gst-rtsp-server's own client signals.
#include "rtsp_viewers.h"
#include "wrong_passwords.h"
#include <gst/rtsp-server/rtsp-server.h>
#include <string.h>

// A connection that has created no session by then is closed (the library's own bound is 60 s).
#define FC_IDLE_SECONDS 10

typedef struct {
  FcViewers *viewers;     // a reference
  GstRTSPClient *client;  // weak: the record lives as long as the client (object data)
  GHashTable *owned;      // ids of the sessions this connection created
  GHashTable *playing;    // the owned ones between PLAY and PAUSE/TEARDOWN
  gint64 connected_at;    // monotonic µs
  gboolean had_session;   // created one at some point: a viewer, not a stranger
  gboolean closed;
  gboolean closing;       // its close is on its way (on the client thread)
} FcConnection;

struct FcViewers {
  GMutex lock;
  GList *connections;     // FcConnection *, open ones
  int watching;           // connections with at least one playing session
};

// Reference-counted: each connection holds one, so a client thread still running a
// handler while the server stops never touches freed memory.
FcViewers *fc_viewers_new(void) {
  FcViewers *v = g_atomic_rc_box_new0(FcViewers);
  g_mutex_init(&v->lock);
  return v;
}

static void viewers_clear(gpointer p) {
  FcViewers *v = p;
  g_list_free(v->connections);
  g_mutex_clear(&v->lock);
}

void fc_viewers_free(FcViewers *v) {
  g_atomic_rc_box_release_full(v, viewers_clear);
}

int fc_viewers_watching(FcViewers *v) {
  g_mutex_lock(&v->lock);
  int n = v->watching;
  g_mutex_unlock(&v->lock);
  return n;
}

int fc_viewers_still_connected(FcViewers *v) {
  g_mutex_lock(&v->lock);
  int n = 0;
  for (GList *l = v->connections; l; l = l->next) {
    FcConnection *c = l->data;
    if (!c->closed && c->had_session) n++;
  }
  g_mutex_unlock(&v->lock);
  return n;
}

static FcConnection *connection_of(GstRTSPClient *client) {
  return g_object_get_data(G_OBJECT(client), "fc-connection");
}

static void connection_free(gpointer p) {
  FcConnection *c = p;
  fc_viewers_free(c->viewers);
  g_hash_table_unref(c->owned);
  g_hash_table_unref(c->playing);
  g_free(c);
}

// Call with the lock held.
static void set_playing(FcConnection *c, const char *id, gboolean playing) {
  guint before = g_hash_table_size(c->playing);
  if (playing) g_hash_table_add(c->playing, g_strdup(id));
  else g_hash_table_remove(c->playing, id);
  guint after = g_hash_table_size(c->playing);
  if (before == 0 && after > 0) c->viewers->watching++;
  if (before > 0 && after == 0) c->viewers->watching--;
}

static gboolean owns(FcConnection *c, GstRTSPSession *session) {
  g_mutex_lock(&c->viewers->lock);
  gboolean yes = g_hash_table_contains(c->owned, gst_rtsp_session_get_sessionid(session));
  g_mutex_unlock(&c->viewers->lock);
  return yes;
}

static GstRTSPFilterResult keep_only_owned(GstRTSPClient *client, GstRTSPSession *session, gpointer data) {
  (void)data;
  FcConnection *c = connection_of(client);
  return c && owns(c, session) ? GST_RTSP_FILTER_KEEP : GST_RTSP_FILTER_REMOVE;
}

// gst-rtsp-server 1.22 makes a connection "watch" any session whose id it names, before
// any hook runs; when that connection closes, it tears down the session's TCP media. So
// after each request (and each response a client sends) the connection stops watching the
// sessions it did not create. With the default drop-backlog, unwatching touches no media.
static void forget_foreign_sessions(GstRTSPClient *client) {
  GList *kept = gst_rtsp_client_session_filter(client, keep_only_owned, NULL);
  g_list_free_full(kept, g_object_unref);
}

// Every pre-request hook: a Session id this connection did not create is "not found" (454),
// so nothing of another viewer's session can be played, paused or torn down from here.
static GstRTSPStatusCode on_pre_request(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
  (void)data;
  FcConnection *c = connection_of(client);
  forget_foreign_sessions(client);
  if (ctx->session && !(c && owns(c, ctx->session))) return GST_RTSP_STS_SESSION_NOT_FOUND;
  return GST_RTSP_STS_OK;
}

// SETUP again on a stream already set up in this session (e.g. UDP for a TCP viewer) makes
// gst-rtsp-server 1.22 abort (get_data_seq: 'data_seq' should not be NULL): refused.
// The served media has one stream, so a session that holds any media is set up already.
static GstRTSPStatusCode on_pre_setup(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
  GstRTSPStatusCode code = on_pre_request(client, ctx, data);
  if (code != GST_RTSP_STS_OK || !ctx->session) return code;
  GList *media = gst_rtsp_session_filter(ctx->session, NULL, NULL);
  gboolean again = media != NULL;
  g_list_free_full(media, g_object_unref);
  return again ? GST_RTSP_STS_METHOD_NOT_VALID_IN_THIS_STATE : GST_RTSP_STS_OK;
}

// The user a request's Authorization header names (Digest's username; over TLS Basic's,
// before the colon), or NULL.
static char *request_user(GstRTSPMessage *request) {
  GstRTSPAuthCredential **credentials = gst_rtsp_message_parse_auth_credentials(request, GST_RTSP_HDR_AUTHORIZATION);
  char *user = NULL;
  for (GstRTSPAuthCredential **c = credentials; c && *c && !user; c++) {
    if ((*c)->scheme == GST_RTSP_AUTH_DIGEST) {
      for (GstRTSPAuthParam **p = (*c)->params; p && *p; p++) {
        if (g_ascii_strcasecmp((*p)->name, "username") == 0) { user = g_strdup((*p)->value); break; }
      }
    } else if ((*c)->scheme == GST_RTSP_AUTH_BASIC && (*c)->authorization) {
      gsize length = 0;
      guchar *decoded = g_base64_decode((*c)->authorization, &length);
      char *text = g_strndup((const char *)decoded, length);
      user = g_strndup(text, strcspn(text, ":"));
      g_free(text);
      g_free(decoded);
    }
  }
  if (credentials) gst_rtsp_auth_credentials_free(credentials);
  return user;
}

static void on_send_message(GstRTSPClient *client, GstRTSPContext *ctx, gpointer message, gpointer data) {
  (void)data;
  forget_foreign_sessions(client);
  // A 401 to a request that gave a password: a wrong one (or an unknown user).
  GstRTSPStatusCode code = 0;
  gchar *authorization = NULL;
  if (message && ctx && ctx->request && gst_rtsp_message_get_type(message) == GST_RTSP_MESSAGE_RESPONSE &&
      gst_rtsp_message_parse_response(message, &code, NULL, NULL) == GST_RTSP_OK && code == GST_RTSP_STS_UNAUTHORIZED &&
      gst_rtsp_message_get_header(ctx->request, GST_RTSP_HDR_AUTHORIZATION, &authorization, 0) == GST_RTSP_OK) {
    GstRTSPConnection *connection = gst_rtsp_client_get_connection(client);
    char *user = request_user(ctx->request);
    fc_note_wrong_password("RTSP", connection ? gst_rtsp_connection_get_ip(connection) : NULL, user);
    g_free(user);
  }
}

static void on_handle_response(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
  (void)ctx; (void)data;
  forget_foreign_sessions(client);
}

static void on_new_session(GstRTSPClient *client, GstRTSPSession *session, gpointer data) {
  (void)data;
  FcConnection *c = connection_of(client);
  if (!c) return;
  g_mutex_lock(&c->viewers->lock);
  g_hash_table_add(c->owned, g_strdup(gst_rtsp_session_get_sessionid(session)));
  c->had_session = TRUE;
  g_mutex_unlock(&c->viewers->lock);
}

// A new viewer gets a key frame now rather than at the next one (up to a second later).
static void request_key_frame(GstRTSPContext *ctx) {
  GstRTSPMedia *media = ctx->sessmedia ? gst_rtsp_session_media_get_media(ctx->sessmedia) : ctx->media;
  GstElement *pipeline = media ? gst_rtsp_media_get_element(media) : NULL;
  if (!pipeline) return;
  GstElement *pay = gst_bin_get_by_name(GST_BIN(pipeline), "pay0");
  if (pay) {
    GstStructure *s = gst_structure_new("GstForceKeyUnit", "all-headers", G_TYPE_BOOLEAN, TRUE,
                                        "count", G_TYPE_UINT, 0, "running-time", G_TYPE_UINT64, GST_CLOCK_TIME_NONE, NULL);
    gst_element_send_event(pay, gst_event_new_custom(GST_EVENT_CUSTOM_UPSTREAM, s));
    gst_object_unref(pay);
  }
  gst_object_unref(pipeline);
}

static void mark(GstRTSPClient *client, GstRTSPContext *ctx, gboolean playing) {
  FcConnection *c = connection_of(client);
  if (!c || !ctx->session) return;
  g_mutex_lock(&c->viewers->lock);
  const char *id = gst_rtsp_session_get_sessionid(ctx->session);
  if (!c->closed && g_hash_table_contains(c->owned, id)) set_playing(c, id, playing);
  g_mutex_unlock(&c->viewers->lock);
}

static void on_play(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
  (void)data;
  mark(client, ctx, TRUE);
  request_key_frame(ctx);
}

static void on_stop(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
  (void)data;
  mark(client, ctx, FALSE);
}

static void on_closed(GstRTSPClient *client, gpointer data) {
  (void)data;
  FcConnection *c = connection_of(client);
  if (!c) return;
  FcViewers *v = c->viewers;
  g_mutex_lock(&v->lock);
  if (!c->closed) {
    c->closed = TRUE;
    if (g_hash_table_size(c->playing) > 0) v->watching--;
    g_hash_table_remove_all(c->playing);
    v->connections = g_list_remove(v->connections, c);
  }
  g_mutex_unlock(&v->lock);
}

void fc_viewers_session_removed(FcViewers *v, const char *id) {
  g_mutex_lock(&v->lock);
  for (GList *l = v->connections; l; l = l->next) {
    FcConnection *c = l->data;
    set_playing(c, id, FALSE);
    g_hash_table_remove(c->owned, id);
  }
  g_mutex_unlock(&v->lock);
}

void fc_viewers_connected(FcViewers *v, void *rtsp_client) {
  GstRTSPClient *client = rtsp_client;
  FcConnection *c = g_new0(FcConnection, 1);
  c->viewers = g_atomic_rc_box_acquire(v);
  c->client = client;
  c->owned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  c->playing = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  c->connected_at = g_get_monotonic_time();
  g_object_set_data_full(G_OBJECT(client), "fc-connection", c, connection_free);
  g_mutex_lock(&v->lock);
  v->connections = g_list_prepend(v->connections, c);
  g_mutex_unlock(&v->lock);

  static const char *const pre[] = {"pre-options-request", "pre-describe-request", "pre-play-request",
      "pre-pause-request", "pre-teardown-request", "pre-set-parameter-request", "pre-get-parameter-request",
      "pre-announce-request", "pre-record-request"};
  for (guint i = 0; i < G_N_ELEMENTS(pre); i++) g_signal_connect(client, pre[i], G_CALLBACK(on_pre_request), v);
  g_signal_connect(client, "pre-setup-request", G_CALLBACK(on_pre_setup), v);
  g_signal_connect(client, "send-message", G_CALLBACK(on_send_message), v);
  g_signal_connect(client, "handle-response", G_CALLBACK(on_handle_response), v);
  g_signal_connect(client, "new-session", G_CALLBACK(on_new_session), v);
  g_signal_connect(client, "play-request", G_CALLBACK(on_play), v);
  g_signal_connect(client, "pause-request", G_CALLBACK(on_stop), v);
  g_signal_connect(client, "teardown-request", G_CALLBACK(on_stop), v);
  g_signal_connect(client, "closed", G_CALLBACK(on_closed), v);
}

// The close itself, on the client's own thread (a source on its context): closed from
// another thread while its watch was reading (a client sending without pause), the
// connection's streams were freed under the read, which then failed at once, for ever:
// a core at 100 %, GLib-GIO-CRITICALs by the thousand a millisecond, and no new
// connection answered. gst-rtsp-server closes a client in its watch context too.
typedef struct {
  GstRTSPClient *client;  // a reference
  gboolean tls;
} FcIdleClose;

static gboolean close_in_client_thread(gpointer data) {
  FcIdleClose *request = data;
  GstRTSPConnection *connection = gst_rtsp_client_get_connection(request->client);
  // Over TLS the handshake started by the first read and the connection hold each other
  // until an operation finishes it, and gst-rtsp-server only lets go of the stream: closed
  // here (each such connection kept its socket and ~3.6 MB for good).
  GTlsConnection *secure = request->tls && connection ? gst_rtsp_connection_get_tls(connection, NULL) : NULL;
  if (secure) g_io_stream_close(G_IO_STREAM(secure), NULL, NULL);
  gst_rtsp_client_close(request->client);
  return G_SOURCE_REMOVE;
}

static void idle_close_free(gpointer data) {
  FcIdleClose *request = data;
  g_object_unref(request->client);
  g_free(request);
}

void fc_viewers_close_idle(FcViewers *v, gboolean tls, GMainContext *client_context) {
  if (!client_context) return;   // no client thread: no client
  gint64 now = g_get_monotonic_time();
  GList *idle = NULL;
  g_mutex_lock(&v->lock);
  for (GList *l = v->connections; l; l = l->next) {
    FcConnection *c = l->data;
    if (!c->closed && !c->closing && g_hash_table_size(c->owned) == 0 && now - c->connected_at > FC_IDLE_SECONDS * G_USEC_PER_SEC) {
      c->closing = TRUE;
      idle = g_list_prepend(idle, g_object_ref(c->client));
    }
  }
  g_mutex_unlock(&v->lock);
  for (GList *l = idle; l; l = l->next) {
    // The socket is shut here at once (the kernel's side, safe from any thread): over TLS
    // a silent client leaves glib-networking's handshake thread waiting in a read, and a
    // client that floods stops being read.
    GstRTSPConnection *connection = gst_rtsp_client_get_connection(l->data);
    GSocket *socket = connection ? gst_rtsp_connection_get_read_socket(connection) : NULL;
    if (socket) g_socket_shutdown(socket, TRUE, TRUE, NULL);
    FcIdleClose *request = g_new0(FcIdleClose, 1);
    request->client = g_object_ref(l->data);
    request->tls = tls;
    GSource *source = g_idle_source_new();
    g_source_set_priority(source, G_PRIORITY_HIGH);   // before the reads of a client that floods
    g_source_set_callback(source, close_in_client_thread, request, idle_close_free);
    g_source_attach(source, client_context);
    g_source_unref(source);
  }
  g_list_free_full(idle, g_object_unref);
}
