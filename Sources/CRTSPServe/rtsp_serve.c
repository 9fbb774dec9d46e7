#include "rtsp_serve.h"
#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <string.h>

struct FcRtspServer {
  GstRTSPServer *server;
  guint source_id;
  GMutex lock;
  GstRTSPMedia *media;      // the shared media while it exists (weak: cleared on unprepared)
  int clients;
  int media_count;
};

static void on_media_unprepared(GstRTSPMedia *media, gpointer data) {
  FcRtspServer *s = data;
  g_mutex_lock(&s->lock);
  if (s->media == media) s->media = NULL;
  g_mutex_unlock(&s->lock);
}

static void on_media_configure(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data) {
  FcRtspServer *s = data;
  (void)factory;
  g_mutex_lock(&s->lock);
  s->media = media;
  s->media_count++;
  g_mutex_unlock(&s->lock);
  g_signal_connect(media, "unprepared", G_CALLBACK(on_media_unprepared), s);
}

static void on_client_closed(GstRTSPClient *client, gpointer data) {
  FcRtspServer *s = data;
  (void)client;
  g_mutex_lock(&s->lock);
  s->clients--;
  g_mutex_unlock(&s->lock);
}

static void on_client_connected(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
  FcRtspServer *s = data;
  (void)server;
  g_mutex_lock(&s->lock);
  s->clients++;
  g_mutex_unlock(&s->lock);
  g_signal_connect(client, "closed", G_CALLBACK(on_client_closed), s);
}

static char *fc_error(const char *format, const char *detail) {
  return g_strdup_printf(format, detail ? detail : "");
}

FcRtspServer *fc_rtsp_server_start(const FcRtspServerConfig *c, char **error) {
  FcRtspServer *s = g_new0(FcRtspServer, 1);
  g_mutex_init(&s->lock);
  s->server = gst_rtsp_server_new();
  char port[16];
  g_snprintf(port, sizeof port, "%d", c->port);
  gst_rtsp_server_set_address(s->server, c->address);
  gst_rtsp_server_set_service(s->server, port);

  GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
  gst_rtsp_media_factory_set_launch(factory, c->launch);
  // One camera, many viewers: the pipeline runs once, however many watch.
  gst_rtsp_media_factory_set_shared(factory, TRUE);
  g_signal_connect(factory, "media-configure", G_CALLBACK(on_media_configure), s);

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
      GError *err = NULL;
      GTlsCertificate *cert = g_tls_certificate_new_from_files(c->tls_cert, c->tls_key, &err);
      if (!cert) {
        *error = fc_error("cannot read the TLS certificate and key: %s", err ? err->message : "?");
        if (err) g_error_free(err);
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

  GError *err = NULL;
  GSource *source = gst_rtsp_server_create_source(s->server, NULL, &err);
  if (!source) {
    *error = fc_error("cannot listen: %s", err ? err->message : "?");
    if (err) g_error_free(err);
    fc_rtsp_server_stop(s);
    return NULL;
  }
  s->source_id = g_source_attach(source, NULL);
  g_source_unref(source);
  return s;
}

void fc_rtsp_server_iterate(void) {
  while (g_main_context_iteration(NULL, FALSE)) {}
}

int fc_rtsp_server_port(FcRtspServer *s) { return gst_rtsp_server_get_bound_port(s->server); }

int fc_rtsp_server_clients(FcRtspServer *s) {
  g_mutex_lock(&s->lock);
  int n = s->clients;
  g_mutex_unlock(&s->lock);
  return n;
}

int fc_rtsp_server_media_count(FcRtspServer *s) {
  g_mutex_lock(&s->lock);
  int n = s->media_count;
  g_mutex_unlock(&s->lock);
  return n;
}

void *fc_rtsp_server_media_element(FcRtspServer *s) {
  g_mutex_lock(&s->lock);
  GstElement *e = s->media ? gst_rtsp_media_get_element(s->media) : NULL;
  g_mutex_unlock(&s->lock);
  return e;
}

void fc_rtsp_server_stop(FcRtspServer *s) {
  if (!s) return;
  if (s->source_id) g_source_remove(s->source_id);
  if (s->server) {
    GstRTSPSessionPool *pool = gst_rtsp_server_get_session_pool(s->server);
    gst_rtsp_session_pool_cleanup(pool);
    g_object_unref(pool);
    g_object_unref(s->server);
  }
  g_mutex_clear(&s->lock);
  g_free(s);
}

void fc_rtsp_free(void *p) { g_free(p); }
