// The HTTP server of `filtercam serve --web` on libsoup 3: WHEP (RFC 9725) for WebRTC
// viewers, everything else through the application's handler. Runs on its own thread
// and main context, as the RTSP server does; a request waiting for its answer (a WHEP
// offer while ICE gathers, a still being written) is paused, not the server.
#include "web_server_private.h"
#include "tls_pair.h"
#include <gst/gst.h>
#include <libsoup/soup.h>
#include <string.h>
#include "web_access.h"

// An application request with no answer by then gets 504 (a still that never came).
#define FC_PENDING_US (30 * G_USEC_PER_SEC)

typedef struct {
  FcWebServer *server;
  guint64 id;
  SoupServerMessage *msg;    // a reference
  gulong finished;
  gint64 since;
} Pending;

static void pending_free(gpointer data) {
  Pending *p = data;
  g_signal_handler_disconnect(p->msg, p->finished);
  g_object_unref(p->msg);
  g_free(p);
}

static void on_finished(SoupServerMessage *msg, gpointer data) {
  (void)msg;
  Pending *p = data;
  g_hash_table_remove(p->server->pending, &p->id);   // the client left before its answer
}

guint64 fc_web_hold(FcWebServer *s, SoupServerMessage *msg) {
  Pending *p = g_new0(Pending, 1);
  p->server = s;
  p->id = ++s->next_request;
  p->msg = g_object_ref(msg);
  p->since = g_get_monotonic_time();
  p->finished = g_signal_connect(msg, "finished", G_CALLBACK(on_finished), p);
  g_hash_table_insert(s->pending, &p->id, p);
  soup_server_message_pause(msg);
  return p->id;
}

static void set_response(SoupServerMessage *msg, int status, const char *type, GBytes *body, const char *filename) {
  SoupMessageHeaders *headers = soup_server_message_get_response_headers(msg);
  soup_message_headers_replace(headers, "Cache-Control", "no-store");
  soup_message_headers_replace(headers, "X-Content-Type-Options", "nosniff");
  if (type && g_str_has_prefix(type, "text/html")) {
    // The page loads only its own script, pictures and video, and no other site may frame it.
    soup_message_headers_replace(headers, "Content-Security-Policy",
        "default-src 'self'; img-src 'self' blob:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    soup_message_headers_replace(headers, "X-Frame-Options", "DENY");
  }
  if (status == SOUP_STATUS_METHOD_NOT_ALLOWED && !soup_message_headers_get_one(headers, "Allow")) {
    // RFC 9110: a 405 says which methods the resource takes.
    const char *path = g_uri_get_path(soup_server_message_get_uri(msg));
    soup_message_headers_replace(headers, "Allow", strcmp(path, "/control") == 0 ? "POST" : "GET, HEAD");
  }
  if (filename) {
    char *disposition = g_strdup_printf("attachment; filename=\"%s\"", filename);
    soup_message_headers_replace(headers, "Content-Disposition", disposition);
    g_free(disposition);
  }
  soup_server_message_set_status(msg, status, NULL);
  gsize length = 0;
  const void *data = body ? g_bytes_get_data(body, &length) : NULL;
  if (type) soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, data, length);
}

void fc_web_respond_text(SoupServerMessage *msg, int status, const char *text) {
  GBytes *body = g_bytes_new(text, strlen(text));
  set_response(msg, status, "text/plain; charset=utf-8", body, NULL);
  g_bytes_unref(body);
}

// Answers a held request, if its client is still there; FALSE if not.
gboolean fc_web_respond(FcWebServer *s, guint64 id, int status, const char *type, GBytes *body,
                        const char *filename, const char *location) {
  Pending *p = g_hash_table_lookup(s->pending, &id);
  if (!p) return FALSE;
  SoupServerMessage *msg = g_object_ref(p->msg);
  g_hash_table_remove(s->pending, &id);
  set_response(msg, status, type, body, filename);
  if (location) soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Location", location);
  soup_server_message_unpause(msg);
  g_object_unref(msg);
  return TRUE;
}

char *fc_web_body_text(SoupServerMessage *msg, gsize *length) {
  GBytes *bytes = soup_message_body_flatten(soup_server_message_get_request_body(msg));
  gsize n = 0;
  const char *data = g_bytes_get_data(bytes, &n);
  char *text = g_strndup(data ? data : "", n);   // stops at a NUL: an SDP or a command line has none
  g_bytes_unref(bytes);
  if (length) *length = n;
  return text;
}

static void on_request(SoupServer *soup, SoupServerMessage *msg, const char *path, GHashTable *query, gpointer data) {
  (void)soup; (void)query;
  FcWebServer *s = data;
  if (!fc_access_check(msg, s->no_password, s->loopback_only, s->tls)) return;
  const char *method = soup_server_message_get_method(msg);
  if (fc_whep_route(s, msg, path)) return;
  gsize length = 0;
  char *body = fc_web_body_text(msg, &length);
  guint64 id = fc_web_hold(s, msg);
  s->handler(s->handler_data, s, id, method, path, body, length);
  g_free(body);
}

typedef struct {
  FcWebServer *server;
  guint64 id;
  int status;
  char *type, *filename;
  GBytes *body;
} Reply;

static void reply_free(gpointer data) {
  Reply *r = data;
  g_free(r->type);
  g_free(r->filename);
  if (r->body) g_bytes_unref(r->body);
  g_free(r);
}

static gboolean deliver_reply(gpointer data) {
  Reply *r = data;
  fc_web_respond(r->server, r->id, r->status, r->type, r->body, r->filename, NULL);
  return G_SOURCE_REMOVE;
}

void fc_web_server_reply(FcWebServer *s, uint64_t request, int status, const char *content_type,
                         const void *body, size_t length, const char *filename) {
  Reply *r = g_new0(Reply, 1);
  r->server = s;
  r->id = request;
  r->status = status;
  r->type = g_strdup(content_type);
  r->filename = g_strdup(filename);
  r->body = g_bytes_new(body, length);
  g_main_context_invoke_full(s->context, G_PRIORITY_DEFAULT, deliver_reply, r, reply_free);
}

// Once a second: viewers that left without DELETE go, requests left unanswered get 504.
static int on_second(void *data) {
  FcWebServer *s = data;
  fc_whep_sweep(s);
  GHashTableIter it;
  gpointer value;
  gint64 now = g_get_monotonic_time();
  GList *late = NULL;
  g_hash_table_iter_init(&it, s->pending);
  while (g_hash_table_iter_next(&it, NULL, &value))
    if (now - ((Pending *)value)->since > FC_PENDING_US) late = g_list_prepend(late, &((Pending *)value)->id);
  for (GList *l = late; l; l = l->next) {
    GBytes *body = g_bytes_new_static("no answer in time\n", 18);
    fc_web_respond(s, *(guint64 *)l->data, SOUP_STATUS_GATEWAY_TIMEOUT, "text/plain; charset=utf-8", body, NULL, NULL);
    g_bytes_unref(body);
  }
  g_list_free(late);
  return G_SOURCE_CONTINUE;
}

static gboolean listen_on(FcWebServer *s, const FcWebServerConfig *c, GTlsCertificate *certificate, char **error) {
  GError *err = NULL;
  GResolver *resolver = g_resolver_get_default();
  GList *addresses = g_resolver_lookup_by_name(resolver, c->address, NULL, &err);
  g_object_unref(resolver);
  if (!addresses) {
    *error = g_strdup_printf("cannot resolve the address: %s", err ? err->message : "?");
    g_clear_error(&err);
    return FALSE;
  }
  GSocketAddress *address = g_inet_socket_address_new(addresses->data, (guint16)c->port);
  if (!g_inet_address_get_is_any(addresses->data)) s->local = g_object_ref(addresses->data);
  g_resolver_free_addresses(addresses);
  if (certificate) {
    s->tls_door = fc_tls_front_door_open(s->soup, address, certificate, &s->port, &err);
    g_object_unref(address);
    if (!s->tls_door) {
      *error = g_strdup_printf("cannot listen: %s", err ? err->message : "?");
      g_clear_error(&err);
      return FALSE;
    }
    return TRUE;
  }
  gboolean listening = soup_server_listen(s->soup, address, 0, &err);
  g_object_unref(address);
  if (!listening) {
    *error = g_strdup_printf("cannot listen: %s", err ? err->message : "?");
    g_clear_error(&err);
    return FALSE;
  }
  GSList *listeners = soup_server_get_listeners(s->soup);
  GSocketAddress *bound = listeners ? g_socket_get_local_address(listeners->data, NULL) : NULL;
  if (bound) {
    s->port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
    g_object_unref(bound);
  }
  g_slist_free(listeners);
  return TRUE;
}

FcWebServer *fc_web_server_start(const FcWebServerConfig *c, char **error) {
  FcWebServer *s = g_new0(FcWebServer, 1);
  s->stream = fc_encoded_stream_ref(c->stream);
  s->handler = c->handler;
  s->handler_data = c->handler_data;
  s->loopback_only = c->loopback_only;
  s->no_password = c->n_users == 0;
  s->upnp = c->upnp;
  s->tls = c->tls_cert != NULL;
  g_mutex_init(&s->lock);
  s->pending = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, pending_free);
  s->peers = fc_whep_peers_new();
  s->loop = fc_server_loop_new();
  s->context = fc_server_loop_context(s->loop);
  GTlsCertificate *certificate = NULL;
  if (c->tls_cert) {
    certificate = fc_tls_certificate_load(c->tls_cert, c->tls_key, error);
    if (!certificate) {
      fc_web_server_stop(s);
      return NULL;
    }
  }
  // The server's sockets belong to the main context that is the thread's default now.
  g_main_context_push_thread_default(s->context);
  // TLS is done before libsoup sees a connection (tls_front_door.c), so its server has no certificate.
  s->soup = g_object_new(SOUP_TYPE_SERVER, "server-header", "filtercam", NULL);
  if (c->n_users > 0) fc_access_require_password(s->soup, c->users, c->passwords, c->n_users, s->tls);
  fc_access_limit_bodies(s->soup);
  soup_server_add_handler(s->soup, NULL, on_request, s, NULL);
  gboolean listening = listen_on(s, c, certificate, error);
  if (certificate) g_object_unref(certificate);
  g_main_context_pop_thread_default(s->context);
  if (!listening) {
    fc_web_server_stop(s);
    return NULL;
  }
  fc_server_loop_start(s->loop, "web-server", on_second, s);
  return s;
}

int fc_web_server_port(FcWebServer *s) { return s->port; }

int fc_web_server_watching(FcWebServer *s) {
  g_mutex_lock(&s->lock);
  int n = s->watching;
  g_mutex_unlock(&s->lock);
  return n;
}

void fc_web_server_stop(FcWebServer *s) {
  if (!s) return;
  fc_server_loop_stop(s->loop);
  fc_tls_front_door_close(s->tls_door);
  g_hash_table_unref(s->peers);
  g_hash_table_unref(s->pending);
  if (s->soup) {
    soup_server_disconnect(s->soup);
    g_object_unref(s->soup);
  }
  fc_server_loop_free(s->loop);
  fc_encoded_stream_unref(s->stream);
  g_clear_object(&s->local);
  g_mutex_clear(&s->lock);
  g_free(s);
}
