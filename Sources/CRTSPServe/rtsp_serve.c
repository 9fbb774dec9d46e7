#include "rtsp_serve.h"
#include "tls_pair.h"
#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <string.h>
#include "rtsp_thread_pool.h"
#include "wrong_passwords.h"
#include "rtsp_viewers.h"
#include "rtsps_front_door.h"
#include "server_loop.h"

struct FcRtspServer {
  GstRTSPServer *server;
  FcEncodedStream *stream;  // a reference
  FcServerLoop *loop;
  FcViewers *viewers;
  gboolean tls;             // every connection is TLS
  FcRtspsFrontDoor *door;   // with TLS: where connections wait for their hello
};

static void on_client_connected(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
  FcRtspServer *s = data;
  if (s->door) fc_rtsps_front_door_secure(server, client);
  fc_viewers_connected(s->viewers, client);
}

static void on_session_removed(GstRTSPSessionPool *pool, GstRTSPSession *session, gpointer data) {
  FcRtspServer *s = data;
  (void)pool;
  fc_viewers_session_removed(s->viewers, gst_rtsp_session_get_sessionid(session));
}

typedef struct {
  FcEncodedStream *stream;  // a reference
  GstElement *appsrc;       // a reference
} FcMediaFeed;

static void feed_free(gpointer data, GClosure *closure) {
  FcMediaFeed *feed = data;
  (void)closure;
  fc_encoded_stream_unref(feed->stream);
  gst_object_unref(feed->appsrc);
  g_free(feed);
}

static void on_media_unprepared(GstRTSPMedia *media, gpointer data) {
  FcMediaFeed *feed = data;
  (void)media;
  fc_encoded_stream_unsubscribe(feed->stream, feed->appsrc);
}

// The shared media is built when the first viewer comes (and again after the last one
// left): its appsrc joins the encoder's viewers until the media is taken down.
static void on_media_configure(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data) {
  FcRtspServer *s = data;
  (void)factory;
  GstElement *element = gst_rtsp_media_get_element(media);
  GstElement *appsrc = gst_bin_get_by_name(GST_BIN(element), "encoded");
  gst_object_unref(element);
  if (!appsrc) return;
  FcMediaFeed *feed = g_new0(FcMediaFeed, 1);
  feed->stream = fc_encoded_stream_ref(s->stream);
  feed->appsrc = appsrc;
  g_signal_connect_data(media, "unprepared", G_CALLBACK(on_media_unprepared), feed, feed_free, 0);
  fc_encoded_stream_subscribe(s->stream, appsrc);
}

static int on_second(void *data) {
  FcRtspServer *s = data;
  GstRTSPThreadPool *threads = gst_rtsp_server_get_thread_pool(s->server);
  GMainContext *clients = fc_rtsp_thread_pool_client_context(threads);
  fc_viewers_close_idle(s->viewers, s->tls, clients);
  if (clients) g_main_context_unref(clients);
  g_object_unref(threads);
  fc_wrong_passwords_tick();
  return G_SOURCE_CONTINUE;
}

static char *fc_error(const char *format, const char *detail) {
  return g_strdup_printf(format, detail ? detail : "");
}

FcRtspServer *fc_rtsp_server_start(const FcRtspServerConfig *c, char **error) {
  FcRtspServer *s = g_new0(FcRtspServer, 1);
  s->loop = fc_server_loop_new();
  s->viewers = fc_viewers_new();
  s->tls = c->tls_cert != NULL;
  s->stream = fc_encoded_stream_ref(c->stream);
  s->server = gst_rtsp_server_new();
  // 40 viewers connecting at once all wait in the queue rather than retrying SYNs (default 5).
  gst_rtsp_server_set_backlog(s->server, 256);
  // No request body is needed to watch; a bigger one is refused (413) before it is stored.
  gst_rtsp_server_set_content_length_limit(s->server, 64 * 1024);
  // Client threads whose context is their thread default (rtsp_thread_pool.c: rtsps
  // connections kept their sockets for good).
  GstRTSPThreadPool *threads = fc_rtsp_thread_pool_new();
  gst_rtsp_server_set_thread_pool(s->server, threads);
  g_object_unref(threads);
  char port[16];
  g_snprintf(port, sizeof port, "%d", c->port);
  gst_rtsp_server_set_address(s->server, c->address);
  gst_rtsp_server_set_service(s->server, port);

  GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
  gst_rtsp_media_factory_set_launch(factory, c->launch);
  // One camera, many viewers: the pipeline runs once, however many watch.
  gst_rtsp_media_factory_set_shared(factory, TRUE);
  g_signal_connect(factory, "media-configure", G_CALLBACK(on_media_configure), s);
  // Over TLS the media travels inside the encrypted connection only: a UDP SETUP gets 461.
  if (c->tls_cert) gst_rtsp_media_factory_set_protocols(factory, GST_RTSP_LOWER_TRANS_TCP);

  if (c->n_users > 0 || c->tls_cert) {
    GstRTSPAuth *auth = gst_rtsp_auth_new();
    GstRTSPToken *token = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, "viewer", NULL);
    for (int i = 0; i < c->n_users; i++) {
      // Digest always; over TLS, Basic too (the password travels encrypted).
      gst_rtsp_auth_add_digest(auth, c->users[i], c->passwords[i], token);
      if (c->tls_cert) {
        gchar *basic = gst_rtsp_auth_make_basic(c->users[i], c->passwords[i]);
        gst_rtsp_auth_add_basic(auth, basic, token);
        g_free(basic);
      }
    }
    if (c->n_users == 0) {
      // TLS without users: everyone may watch (the caller allowed it).
      gst_rtsp_auth_set_default_token(auth, token);
    }
    gst_rtsp_auth_set_supported_methods(auth, c->tls_cert ? (GST_RTSP_AUTH_BASIC | GST_RTSP_AUTH_DIGEST) : GST_RTSP_AUTH_DIGEST);
    gst_rtsp_token_unref(token);
    gst_rtsp_media_factory_add_role(factory, "viewer",
        GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
        GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
    if (c->tls_cert) {
      GTlsCertificate *cert = fc_tls_certificate_load(c->tls_cert, c->tls_key, error);
      if (!cert) {
        g_object_unref(auth);
        g_object_unref(factory);
        fc_rtsp_server_stop(s);
        return NULL;
      }
      gst_rtsp_auth_set_tls_certificate(auth, cert);
      g_object_unref(cert);
    }
    gst_rtsp_server_set_auth(s->server, auth);
    g_object_unref(auth);
  }

  GstRTSPMountPoints *mounts = gst_rtsp_server_get_mount_points(s->server);
  gst_rtsp_mount_points_add_factory(mounts, c->path, factory);
  g_object_unref(mounts);
  g_signal_connect(s->server, "client-connected", G_CALLBACK(on_client_connected), s);
  GstRTSPSessionPool *pool = gst_rtsp_server_get_session_pool(s->server);
  g_signal_connect(pool, "session-removed", G_CALLBACK(on_session_removed), s);
  g_object_unref(pool);

  GError *err = NULL;
  GMainContext *context = fc_server_loop_context(s->loop);
  GSource *source = NULL;
  if (s->tls) {
    s->door = fc_rtsps_front_door_open(s->server, context, &err);
  } else {
    source = gst_rtsp_server_create_source(s->server, NULL, &err);
  }
  if (!source && !s->door) {
    *error = fc_error("cannot listen: %s", err ? err->message : "?");
    if (err) g_error_free(err);
    fc_rtsp_server_stop(s);
    return NULL;
  }
  if (source) {
    g_source_attach(source, context);
    g_source_unref(source);
  }
  fc_server_loop_start(s->loop, "rtsp-server", on_second, s);
  return s;
}

int fc_rtsp_server_port(FcRtspServer *s) {
  return s->door ? fc_rtsps_front_door_port(s->door) : gst_rtsp_server_get_bound_port(s->server);
}

int fc_rtsp_server_watching(FcRtspServer *s) { return fc_viewers_watching(s->viewers); }

int fc_rtsp_server_still_connected(FcRtspServer *s) { return fc_viewers_still_connected(s->viewers); }

void fc_rtsp_server_stop(FcRtspServer *s) {
  if (!s) return;
  fc_server_loop_stop(s->loop);
  fc_rtsps_front_door_close(s->door);
  if (s->server) {
    GstRTSPSessionPool *pool = gst_rtsp_server_get_session_pool(s->server);
    gst_rtsp_session_pool_cleanup(pool);
    g_object_unref(pool);
    GstRTSPThreadPool *threads = gst_rtsp_server_get_thread_pool(s->server);
    fc_rtsp_thread_pool_release(threads);
    g_object_unref(threads);
    g_object_unref(s->server);
  }
  fc_server_loop_free(s->loop);
  fc_viewers_free(s->viewers);
  if (s->stream) fc_encoded_stream_unref(s->stream);
  g_free(s);
}

void fc_rtsp_free(void *p) { g_free(p); }
