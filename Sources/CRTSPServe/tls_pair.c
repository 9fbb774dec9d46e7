// Reads a server's TLS certificate and key and checks that they belong together, by a
// handshake between a server and a client on a socket pair (tls_pair.h).
#include "tls_pair.h"
#include <gio/gio.h>
#include <sys/socket.h>
#include <unistd.h>

static gboolean accept_any(GTlsConnection *connection, GTlsCertificate *peer, GTlsCertificateFlags errors, gpointer data) {
  (void)connection; (void)peer; (void)errors; (void)data;
  return TRUE;   // a self-signed certificate is fine here: only the key's signature is checked
}

static gpointer serve_handshake(gpointer server) {
  GError *err = NULL;
  g_tls_connection_handshake(G_TLS_CONNECTION(server), NULL, &err);
  g_clear_error(&err);   // the client's side says what went wrong
  return NULL;
}

// One end of the socket pair as a stream (10 s timeout: a handshake never hangs start-up).
static GIOStream *stream_on(int fd) {
  GSocket *socket = g_socket_new_from_fd(fd, NULL);
  if (!socket) return NULL;
  g_socket_set_timeout(socket, 10);
  GSocketConnection *connection = g_socket_connection_factory_create_connection(socket);
  g_object_unref(socket);
  return G_IO_STREAM(connection);
}

// NULL when a handshake with `certificate` succeeds, else why not.
static char *handshake_fails(GTlsCertificate *certificate) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return NULL;   // cannot check: not the files' fault
  GIOStream *a = stream_on(fds[0]), *b = stream_on(fds[1]);
  char *why = NULL;
  GError *err = NULL;
  GIOStream *server = a ? g_tls_server_connection_new(a, certificate, &err) : NULL;
  g_clear_error(&err);
  GIOStream *client = b ? g_tls_client_connection_new(b, NULL, &err) : NULL;
  g_clear_error(&err);
  if (server && client) {
    g_signal_connect(client, "accept-certificate", G_CALLBACK(accept_any), NULL);
    GThread *thread = g_thread_new("tls-check", serve_handshake, server);
    if (!g_tls_connection_handshake(G_TLS_CONNECTION(client), NULL, &err)) why = g_strdup(err ? err->message : "?");
    g_clear_error(&err);
    // The server's side ends with the client's (or with the socket's timeout).
    g_io_stream_close(client, NULL, NULL);
    g_thread_join(thread);
  }
  if (client) g_object_unref(client);
  if (server) g_object_unref(server);
  if (a) g_object_unref(a); else close(fds[0]);
  if (b) g_object_unref(b); else close(fds[1]);
  return why;
}

GTlsCertificate *fc_tls_certificate_load(const char *certificate_file, const char *key_file, char **error) {
  GError *err = NULL;
  GTlsCertificate *certificate = g_tls_certificate_new_from_files(certificate_file, key_file, &err);
  if (!certificate) {
    *error = g_strdup_printf("cannot read the TLS certificate and key: %s", err ? err->message : "?");
    g_clear_error(&err);
    return NULL;
  }
  char *why = handshake_fails(certificate);
  if (why) {
    *error = g_strdup_printf("the TLS key %s does not belong to the certificate %s (a test handshake failed: %s)",
                             key_file, certificate_file, why);
    g_free(why);
    g_object_unref(certificate);
    return NULL;
  }
  return certificate;
}
