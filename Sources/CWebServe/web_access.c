// Passwords, request size, Host and Origin: the checks every web request of `filtercam
// serve` passes before anything is served or changed.
#include "web_access.h"
#include "wrong_passwords.h"
#include <string.h>

#define FC_REALM "filtercam"

static const char *password_of(SoupAuthDomain *domain, const char *user) {
  GHashTable *users = g_object_get_data(G_OBJECT(domain), "fc-users");
  return user ? g_hash_table_lookup(users, user) : NULL;
}

// libsoup's Digest takes any nonce it ever gave, with any request counter, so a request's
// Authorization header seen on the network could be sent again, with another body, for
// ever. Each accepted (nonce, nc, cnonce) is kept, and one used before is refused: a client
// counts nc up itself, and a new count needs the password.
static GHashTable *digest_uses;   // "nonce/nc/cnonce" -> 1; only touched on the server's thread

static char *digest_use(SoupServerMessage *msg) {
  const char *given = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), "Authorization");
  if (!given || g_ascii_strncasecmp(given, "Digest ", 7) != 0) return NULL;
  GHashTable *params = soup_header_parse_param_list(given + 7);
  const char *nonce = g_hash_table_lookup(params, "nonce"), *nc = g_hash_table_lookup(params, "nc"),
             *cnonce = g_hash_table_lookup(params, "cnonce");
  char *use = g_strdup_printf("%s/%s/%s", nonce ? nonce : "", nc ? nc : "", cnonce ? cnonce : "");
  soup_header_free_param_list(params);
  return use;
}

// libsoup's Digest also takes a nonce it never gave (one a client made up, or one given by
// an earlier run of the server: a request seen on the network was accepted again, with
// another body, after a restart). The nonces of this run's challenges are noted as they
// go out (`note_issued_nonce`), and a request must name one of them.
static GHashTable *issued_nonces;   // nonce -> 1; only touched on the server's thread

static void note_issued_nonce(SoupServerMessage *msg) {
  SoupMessageHeadersIter iter;
  const char *name, *value;
  soup_message_headers_iter_init(&iter, soup_server_message_get_response_headers(msg));
  while (soup_message_headers_iter_next(&iter, &name, &value)) {
    if (g_ascii_strcasecmp(name, "WWW-Authenticate") != 0 || g_ascii_strncasecmp(value, "Digest ", 7) != 0) continue;
    GHashTable *params = soup_header_parse_param_list(value + 7);
    const char *nonce = g_hash_table_lookup(params, "nonce");
    if (nonce) {
      if (!issued_nonces) issued_nonces = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
      // A client is challenged once and then counts with its nonce: a bound against a
      // flood of unanswered challenges (those clients are asked again).
      if (g_hash_table_size(issued_nonces) > 100000) g_hash_table_remove_all(issued_nonces);
      g_hash_table_add(issued_nonces, g_strdup(nonce));
    }
    soup_header_free_param_list(params);
  }
}

static gboolean nonce_was_issued(SoupServerMessage *msg) {
  const char *given = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), "Authorization");
  if (!given || g_ascii_strncasecmp(given, "Digest ", 7) != 0 || !issued_nonces) return FALSE;
  GHashTable *params = soup_header_parse_param_list(given + 7);
  const char *nonce = g_hash_table_lookup(params, "nonce");
  gboolean issued = nonce && g_hash_table_contains(issued_nonces, nonce);
  soup_header_free_param_list(params);
  return issued;
}

static char *digest_password(SoupAuthDomain *domain, SoupServerMessage *msg, const char *user, gpointer data) {
  (void)data;
  if (!nonce_was_issued(msg)) return NULL;   // as an unknown user: 401, with a nonce of this run
  char *use = digest_use(msg);
  gboolean replayed = use && digest_uses && g_hash_table_contains(digest_uses, use);
  g_free(use);
  if (replayed) return NULL;   // as an unknown user: 401
  const char *password = password_of(domain, user);
  return password ? soup_auth_domain_digest_encode_password(user, FC_REALM, password) : NULL;
}

// After libsoup accepted a request's password: its Digest use is spent.
static void spend_digest_use(SoupServerMessage *msg) {
  char *use = digest_use(msg);
  if (!use) return;
  if (!digest_uses) digest_uses = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_size(digest_uses) > 100000) g_hash_table_remove_all(digest_uses);   // only accepted requests get here
  g_hash_table_add(digest_uses, use);
}

// Compares every byte, so the time taken says nothing about how much of a guess was right.
static gboolean same_secret(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  unsigned char differ = la != lb;
  for (size_t i = 0; i < la; i++) differ |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
  return differ == 0;
}

static gboolean basic_password(SoupAuthDomain *domain, SoupServerMessage *msg, const char *user,
                               const char *password, gpointer data) {
  (void)msg; (void)data;
  const char *known = password_of(domain, user);
  return known && password && same_secret(known, password);
}

// WHEP players give a token (RFC 9725: Authorization: Bearer): USER:PASSWORD is accepted as
// one over TLS, where it travels encrypted as Basic does. A request with it needs no other.
static gboolean needs_password(SoupAuthDomain *domain, SoupServerMessage *msg, gpointer data) {
  (void)data;
  const char *given = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), "Authorization");
  if (!g_object_get_data(G_OBJECT(domain), "fc-tls") || !given || g_ascii_strncasecmp(given, "Bearer ", 7) != 0) return TRUE;
  const char *token = given + 7, *colon = strchr(token, ':');
  if (!colon) return TRUE;
  char *user = g_strndup(token, (gsize)(colon - token));
  const char *known = password_of(domain, user);
  gboolean accepted = known && same_secret(known, colon + 1);
  g_free(user);
  return !accepted;
}

static void add_domain(SoupServer *server, SoupAuthDomain *domain, GHashTable *users, gboolean tls) {
  g_object_set_data_full(G_OBJECT(domain), "fc-users", g_hash_table_ref(users), (GDestroyNotify)g_hash_table_unref);
  g_object_set_data(G_OBJECT(domain), "fc-tls", GINT_TO_POINTER(tls));
  soup_auth_domain_set_filter(domain, needs_password, NULL, NULL);
  soup_auth_domain_add_path(domain, "/");
  soup_server_add_auth_domain(server, domain);
  g_object_unref(domain);
}

void fc_access_require_password(SoupServer *server, const char *const *names, const char *const *passwords,
                                int n_users, gboolean tls) {
  GHashTable *users = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (int i = 0; i < n_users; i++) g_hash_table_replace(users, g_strdup(names[i]), g_strdup(passwords[i]));
  SoupAuthDomain *digest = soup_auth_domain_digest_new("realm", FC_REALM, NULL);
  soup_auth_domain_digest_set_auth_callback(digest, digest_password, NULL, NULL);
  add_domain(server, digest, users, tls);
  if (tls) {
    SoupAuthDomain *basic = soup_auth_domain_basic_new("realm", FC_REALM, NULL);
    soup_auth_domain_basic_set_auth_callback(basic, basic_password, NULL, NULL);
    add_domain(server, basic, users, tls);
  }
  g_hash_table_unref(users);
}

/// How long, and how much, of a refused request's body is read and thrown away after its
/// answer before the connection is closed.
#define FC_LINGER_US (2 * G_USEC_PER_SEC)
#define FC_LINGER_BYTES (1024 * 1024)

/// A connection answered early, read and thrown away for a while before it is closed.
typedef struct {
  GIOStream *stream;
  GSource *read, *timeout;
  gsize left;
} Linger;

static void linger_end(Linger *l) {
  g_source_destroy(l->read);
  g_source_unref(l->read);
  g_source_destroy(l->timeout);
  g_source_unref(l->timeout);
  g_io_stream_close(l->stream, NULL, NULL);
  g_object_unref(l->stream);
  g_free(l);
}

static gboolean linger_timeout(gpointer data) {
  linger_end(data);
  return G_SOURCE_REMOVE;   // (destroyed already by linger_end)
}

static gboolean linger_read(GObject *input, gpointer data) {
  Linger *l = data;
  char buffer[16384];
  for (;;) {
    GError *error = NULL;
    gssize n = g_pollable_input_stream_read_nonblocking(G_POLLABLE_INPUT_STREAM(input), buffer, sizeof buffer, NULL, &error);
    if (n > 0 && (gsize)n < l->left) {
      l->left -= (gsize)n;
      continue;
    }
    gboolean later = n < 0 && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
    g_clear_error(&error);
    if (later) return G_SOURCE_CONTINUE;
    linger_end(l);   // the client closed, failed, or sent more than is read
    return G_SOURCE_REMOVE;
  }
}

/// Seconds a client has to send its whole request, headers and body, from the start of
/// its connection. The socket's own timeout (below) bounds only a pause: a request
/// trickled a byte every few seconds kept its connection for ever, and over TLS, where
/// libsoup reads a stream handshaken by the front door and no socket timeout reaches it,
/// so did a request left half sent.
#define FC_WEB_REQUEST_SECONDS 10
#define FC_DEADLINE_KEY "fc-request-deadline"

static gboolean request_too_slow(gpointer data) {
  SoupServerMessage *msg = data;   // alive: the source goes with it (object data)
  GIOStream *stream = soup_server_message_steal_connection(msg);
  if (stream) {
    g_io_stream_close(stream, NULL, NULL);
    g_object_unref(stream);
  }
  return G_SOURCE_REMOVE;
}

static void drop_deadline(gpointer source) {
  g_source_destroy(source);
  g_source_unref(source);
}

static void start_request_deadline(SoupServerMessage *msg) {
  GSource *deadline = g_timeout_source_new_seconds(FC_WEB_REQUEST_SECONDS);
  g_source_set_callback(deadline, request_too_slow, msg, NULL);
  g_source_attach(deadline, g_main_context_get_thread_default());   // the server's own
  g_object_set_data_full(G_OBJECT(msg), FC_DEADLINE_KEY, deadline, drop_deadline);
}

/// The request is in (or answered without its body): no deadline any more.
static void end_request_deadline(SoupServerMessage *msg) {
  g_object_set_data(G_OBJECT(msg), FC_DEADLINE_KEY, NULL);
}

// A refused request's answer, written now on a connection taken from libsoup: libsoup 3.2
// reads a request's whole body into memory before it answers, whatever the status already
// set, so a 300 MB body sent without the password was held in memory. The status line and
// libsoup's own response headers (a 401's challenge) go out as they are, with the short
// text as the body. Then the connection lingers (RFC 9112 9.6): its writing side is shut
// and what the client still sends is read and thrown away, up to 2 s or 1 MB, so that a
// client busy sending its body reads the answer instead of a reset.
static void answer_now_and_close(SoupServerMessage *msg, guint status, const char *text) {
  GString *response = g_string_new(NULL);
  g_string_append_printf(response, "HTTP/1.1 %u %s\r\n", status, soup_status_get_phrase(status));
  SoupMessageHeadersIter iter;
  const char *name, *value;
  soup_message_headers_iter_init(&iter, soup_server_message_get_response_headers(msg));
  while (soup_message_headers_iter_next(&iter, &name, &value)) {
    if (g_ascii_strcasecmp(name, "Content-Length") == 0 || g_ascii_strcasecmp(name, "Connection") == 0) continue;
    g_string_append_printf(response, "%s: %s\r\n", name, value);
  }
  g_string_append_printf(response, "Content-Type: text/plain\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                         strlen(text), text);
  end_request_deadline(msg);
  GIOStream *stream = soup_server_message_steal_connection(msg);
  if (!stream) {
    g_string_free(response, TRUE);
    return;
  }
  // A few hundred bytes: they fit the socket's buffer, so this does not wait on the client.
  g_output_stream_write_all(g_io_stream_get_output_stream(stream), response->str, response->len, NULL, NULL, NULL);
  g_string_free(response, TRUE);
  if (G_IS_SOCKET_CONNECTION(stream)) g_socket_shutdown(g_socket_connection_get_socket(G_SOCKET_CONNECTION(stream)), FALSE, TRUE, NULL);
  GInputStream *input = g_io_stream_get_input_stream(stream);
  if (!G_IS_POLLABLE_INPUT_STREAM(input)) {
    g_io_stream_close(stream, NULL, NULL);
    g_object_unref(stream);
    return;
  }
  Linger *l = g_new0(Linger, 1);
  l->stream = stream;
  l->left = FC_LINGER_BYTES;
  GMainContext *context = g_main_context_get_thread_default();   // the server's own
  l->read = g_pollable_input_stream_create_source(G_POLLABLE_INPUT_STREAM(input), NULL);
  g_source_set_callback(l->read, (GSourceFunc)(void (*)(void))linger_read, l, NULL);
  g_source_attach(l->read, context);
  l->timeout = g_timeout_source_new(FC_LINGER_US / 1000);
  g_source_set_callback(l->timeout, linger_timeout, l, NULL);
  g_source_attach(l->timeout, context);
}

// The name in a request's Authorization header (Digest's username, Basic's or a bearer
// token's USER before the colon), or NULL.
static char *authorization_user(SoupServerMessage *msg) {
  const char *given = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), "Authorization");
  char *user = NULL;
  if (given && g_ascii_strncasecmp(given, "Digest ", 7) == 0) {
    GHashTable *params = soup_header_parse_param_list(given + 7);
    user = g_strdup(g_hash_table_lookup(params, "username"));
    soup_header_free_param_list(params);
  } else if (given && g_ascii_strncasecmp(given, "Basic ", 6) == 0) {
    gsize length = 0;
    guchar *decoded = g_base64_decode(given + 6, &length);
    char *text = g_strndup((const char *)decoded, length);
    char *colon = strchr(text, ':');
    user = colon ? g_strndup(text, (gsize)(colon - text)) : NULL;
    g_free(text);
    g_free(decoded);
  } else if (given && g_ascii_strncasecmp(given, "Bearer ", 7) == 0) {
    const char *colon = strchr(given + 7, ':');
    user = colon ? g_strndup(given + 7, (gsize)(colon - (given + 7))) : NULL;
  }
  return user;
}

// The user, noted once libsoup has accepted it with its password: what a viewer's resource
// is checked against (one user cannot end another's viewer).
static void note_user(SoupServerMessage *msg) {
  char *user = authorization_user(msg);
  g_object_set_data_full(G_OBJECT(msg), "fc-user", user ? user : g_strdup(""), g_free);
}

const char *fc_access_user(SoupServerMessage *msg) {
  const char *user = g_object_get_data(G_OBJECT(msg), "fc-user");
  return user ? user : "";
}

// Runs after libsoup's own header handling (passwords), before the body is read.
static void on_headers(SoupServerMessage *msg, gpointer data) {
  (void)data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers(msg);
  SoupEncoding encoding = soup_message_headers_get_encoding(headers);
  gboolean has_body = encoding == SOUP_ENCODING_CHUNKED || encoding == SOUP_ENCODING_EOF
                      || (encoding == SOUP_ENCODING_CONTENT_LENGTH && soup_message_headers_get_content_length(headers) > 0);
  guint refused = soup_server_message_get_status(msg);   // a password missing or wrong
  if (refused == SOUP_STATUS_UNAUTHORIZED) note_issued_nonce(msg);
  if (refused == SOUP_STATUS_UNAUTHORIZED && soup_message_headers_get_one(headers, "Authorization")) {
    char *user = authorization_user(msg);   // one was given: wrong, or an unknown user
    fc_note_wrong_password("web", soup_server_message_get_remote_host(msg), user);
    g_free(user);
  }
  if (refused != 0) {
    // Words for the page a browser shows when its password prompt is cancelled (it was blank).
    static const char why[] = "this server needs the user name and password it was started with (filtercam serve --auth)\n";
    if (has_body) {
      answer_now_and_close(msg, refused, why);
    } else if (refused == SOUP_STATUS_UNAUTHORIZED) {
      soup_server_message_set_response(msg, "text/plain; charset=utf-8", SOUP_MEMORY_STATIC, why, sizeof why - 1);
    }
    return;
  }
  spend_digest_use(msg);
  note_user(msg);
  if (encoding == SOUP_ENCODING_CONTENT_LENGTH && soup_message_headers_get_content_length(headers) < 0) {
    // libsoup reads "-5" as a length of -5 and warns on the server's terminal when it
    // makes the body's stream: refused here, before it gets that far.
    answer_now_and_close(msg, SOUP_STATUS_BAD_REQUEST, "the Content-Length is not a length\n");
  } else if (encoding == SOUP_ENCODING_CONTENT_LENGTH && soup_message_headers_get_content_length(headers) > FC_WEB_BODY_LIMIT) {
    answer_now_and_close(msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "the body is over 64 kB\n");
  } else if (encoding != SOUP_ENCODING_CONTENT_LENGTH && encoding != SOUP_ENCODING_NONE) {
    answer_now_and_close(msg, SOUP_STATUS_LENGTH_REQUIRED, "the body needs a Content-Length (a chunked body is not taken)\n");
  }
}

/// Seconds a client may leave a request half sent (or a response unread) before its
/// plain (not TLS) connection is closed, as the RTSP side closes a silent one.
#define FC_WEB_STALL_SECONDS 10

static void on_request_started(SoupServer *server, SoupServerMessage *msg, gpointer data) {
  (void)server; (void)data;
  g_signal_connect(msg, "got-headers", G_CALLBACK(on_headers), NULL);
  g_signal_connect(msg, "got-body", G_CALLBACK(end_request_deadline), NULL);
  start_request_deadline(msg);
  // A read or write that waits longer fails (libsoup then closes the connection); a
  // request paused while the server works (a WHEP answer, a still) waits on nothing.
  GSocket *socket = soup_server_message_get_socket(msg);
  if (socket) g_socket_set_timeout(socket, FC_WEB_STALL_SECONDS);
  // One request a connection: libsoup before 3.3 (Debian 12 has 3.2) never frees an idle
  // kept-alive connection that the client closes, so each page load held a descriptor
  // for good, and a thousand requests left the server without any.
  soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Connection", "close");
}

void fc_access_limit_bodies(SoupServer *server) {
  g_signal_connect(server, "request-started", G_CALLBACK(on_request_started), NULL);
}

/// The name in a Host header: "name:port", "[v6]:port", or a bare name.
static char *host_name(const char *host) {
  return host[0] == '[' ? g_strndup(host + 1, strcspn(host + 1, "]")) : g_strndup(host, strcspn(host, ":"));
}

static gboolean is_loopback_host(const char *host) {
  if (!host) return FALSE;
  char *name = host_name(host);
  gboolean loopback = g_ascii_strcasecmp(name, "localhost") == 0 || strcmp(name, "::1") == 0;
  GInetAddress *address = loopback ? NULL : g_inet_address_new_from_string(name);
  if (address) {
    loopback = g_inet_address_get_is_loopback(address);
    g_object_unref(address);
  }
  g_free(name);
  return loopback;
}

/// A Host no other site's page can bring a browser to: an address, localhost, or this
/// machine's own name (also as NAME.local, as mDNS announces it). A name a page's owner
/// controls can be pointed at this machine (DNS rebinding); these cannot.
static gboolean is_this_machine_host(const char *host) {
  if (!host) return FALSE;
  char *name = host_name(host);
  GInetAddress *address = g_inet_address_new_from_string(name);
  const char *own = g_get_host_name();
  char *own_local = g_strconcat(own, ".local", NULL);
  gboolean ok = address != NULL || g_ascii_strcasecmp(name, "localhost") == 0 || g_ascii_strcasecmp(name, own) == 0
                || g_ascii_strcasecmp(name, own_local) == 0;
  if (address) g_object_unref(address);
  g_free(own_local);
  g_free(name);
  return ok;
}

static gboolean changes_something(const char *method) {
  return strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0 && strcmp(method, "OPTIONS") != 0;
}

static void refuse(SoupServerMessage *msg, const char *why) {
  soup_server_message_set_status(msg, SOUP_STATUS_FORBIDDEN, NULL);
  soup_server_message_set_response(msg, "text/plain", SOUP_MEMORY_COPY, why, strlen(why));
}

gboolean fc_access_check(SoupServerMessage *msg, gboolean no_password, gboolean loopback_only, gboolean tls) {
  SoupMessageHeaders *headers = soup_server_message_get_request_headers(msg);
  const char *host = soup_message_headers_get_one(headers, "Host");
  if (loopback_only && !is_loopback_host(host)) {
    refuse(msg, "this server answers only requests for this machine (Host: 127.0.0.1, localhost or [::1])\n");
    return FALSE;
  }
  if (no_password && !is_this_machine_host(host)) {
    refuse(msg, "without a password this server answers only requests that name it by address or by this "
                "machine's name (a name another site controls could lead a browser here); serve with --auth to be "
                "reached by any name\n");
    return FALSE;
  }
  const char *origin = soup_message_headers_get_one(headers, "Origin");
  if (origin && changes_something(soup_server_message_get_method(msg))) {
    char *own = g_strdup_printf("%s://%s", tls ? "https" : "http", host ? host : "");
    gboolean same = g_ascii_strcasecmp(origin, own) == 0;
    g_free(own);
    if (!same) {
      refuse(msg, "a request from another site's page is refused (Origin does not match this server)\n");
      return FALSE;
    }
  }
  return TRUE;
}
