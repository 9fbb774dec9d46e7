// The web side's TLS, done here and not by libsoup: libsoup 3.2 (Debian 12) keeps every
// connection that closes before its TLS handshake is done (a port scan, an http:// typed
// to the https port, a browser's unused pre-connect), ~21 kB each, for good; the same
// connections handshaken here and handed over only once they speak TLS cost nothing.
// Each handshake holds a thread of GLib's shared pool (glib-networking's) until it ends,
// also the RTSP side's: 60 clients that sent their hello and then stalled kept every page
// and viewer out. So one client address has at most FC_HANDSHAKES_PER_ADDRESS handshakes
// under way; its further hellos wait their turn here, costing no thread.
// Runs on the web server's thread (the main context that is thread-default when opened).
#include "tls_front_door.h"
#include <string.h>
#include <sys/socket.h>

// A client that connects and says nothing, or waits that long for its turn, is let go.
#define FC_SILENT_SECONDS 10
// A handshake under way is called off after this long (a real one takes milliseconds).
#define FC_HANDSHAKE_SECONDS 5
// Handshakes under way for one client address.
#define FC_HANDSHAKES_PER_ADDRESS 4

// Handshakes under way per address and the hellos waiting for their address's turn;
// shared (g_rc_box) by the door and every Handshake, which may outlive the door.
typedef struct {
  GHashTable *under_way;       // address → count (GUINT_TO_POINTER)
  GList *queued;               // Handshake *, newest first
  gboolean closed;             // the door closed: no turn is given any more
} Turns;

static void turns_clear(gpointer data) {
  g_hash_table_unref(((Turns *)data)->under_way);
}

struct FcTlsFrontDoor {
  GSocketService *service;
  SoupServer *soup;            // a reference
  GTlsCertificate *certificate;
  GCancellable *closing;       // cancels the handshakes under way when the door closes
  Turns *turns;                // a reference
};

typedef struct {
  Turns *turns;                // a reference
  char *address;               // the client's, once its hello began
  gboolean counted;            // among its address's handshakes under way
  SoupServer *soup;            // a reference
  GTlsCertificate *certificate;  // a reference
  GSocketConnection *connection;
  GSource *waiting;            // for the client's first bytes
  GIOStream *tls;              // NULL until they begin a TLS handshake
  GCancellable *cancellable;   // this handshake's: its time ran out, or the door closed
  GSource *timeout;
  gulong closing_handler;
  GCancellable *closing;       // a reference
} Handshake;

static void start_handshake(Handshake *h);

static guint under_way(Turns *turns, const char *address) {
  return GPOINTER_TO_UINT(g_hash_table_lookup(turns->under_way, address));
}

// Its handshake ended, or it waited too long, or the door closed: the oldest hello of the
// same address waiting its turn starts.
static void handshake_free(Handshake *h) {
  Turns *turns = h->turns;
  turns->queued = g_list_remove(turns->queued, h);
  Handshake *next = NULL;
  if (h->counted) {
    guint n = under_way(turns, h->address) - 1;
    if (n) g_hash_table_insert(turns->under_way, g_strdup(h->address), GUINT_TO_POINTER(n));
    else g_hash_table_remove(turns->under_way, h->address);
    for (GList *l = g_list_last(turns->queued); l && !turns->closed; l = l->prev) {
      Handshake *q = l->data;
      if (strcmp(q->address, h->address) == 0) {
        next = q;
        break;
      }
    }
  }
  if (h->timeout) {
    g_source_destroy(h->timeout);
    g_source_unref(h->timeout);
  }
  if (h->waiting) {
    g_source_destroy(h->waiting);
    g_source_unref(h->waiting);
  }
  g_cancellable_disconnect(h->closing, h->closing_handler);
  g_object_unref(h->closing);
  g_object_unref(h->cancellable);
  g_clear_object(&h->tls);
  g_object_unref(h->certificate);
  g_object_unref(h->connection);
  g_object_unref(h->soup);
  g_free(h->address);
  g_rc_box_release_full(turns, turns_clear);
  g_free(h);
  if (next) {
    next->turns->queued = g_list_remove(next->turns->queued, next);
    g_source_destroy(next->timeout);
    g_source_unref(next->timeout);
    next->timeout = NULL;
    start_handshake(next);
  }
}

static gboolean on_time_out(gpointer data) {
  g_cancellable_cancel(((Handshake *)data)->cancellable);
  return G_SOURCE_REMOVE;
}

// Nothing came from the client in time: let go.
static gboolean on_silent(gpointer data) {
  Handshake *h = data;
  g_source_unref(h->timeout);   // destroyed by returning REMOVE
  h->timeout = NULL;
  g_io_stream_close(G_IO_STREAM(h->connection), NULL, NULL);
  handshake_free(h);
  return G_SOURCE_REMOVE;
}

static void on_door_closing(GCancellable *closing, gpointer data) {
  (void)closing;
  g_cancellable_cancel(data);
}

static void on_handshake(GObject *source, GAsyncResult *result, gpointer data) {
  Handshake *h = data;
  GError *err = NULL;
  if (g_tls_connection_handshake_finish(G_TLS_CONNECTION(source), result, &err)) {
    GSocketAddress *local = g_socket_connection_get_local_address(h->connection, NULL);
    GSocketAddress *remote = g_socket_connection_get_remote_address(h->connection, NULL);
    if (!soup_server_accept_iostream(h->soup, h->tls, local, remote, &err)) {
      g_clear_error(&err);
      g_io_stream_close(G_IO_STREAM(h->connection), NULL, NULL);
    }
    g_clear_object(&local);
    g_clear_object(&remote);
  } else {
    g_clear_error(&err);
    g_io_stream_close(G_IO_STREAM(h->connection), NULL, NULL);   // the socket, not a TLS goodbye
  }
  handshake_free(h);
}

// What a browser gets for http:// typed to the https port (it showed nothing, or "the
// connection was reset").
#define FC_WRONG_SCHEME_TEXT "This server speaks HTTPS: open the same address with https:// in front.\n"
static const char wrong_scheme[] =
  "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
  "Content-Length: 72\r\n\r\n" FC_WRONG_SCHEME_TEXT;
_Static_assert(sizeof FC_WRONG_SCHEME_TEXT - 1 == 72, "Content-Length is the text's length");

// The client's first bytes have come (or its end): the TLS handshake starts only for one
// that begins a TLS record (0x16, a handshake). Making the TLS connection costs ~7 ms of
// the server's thread: a port scan or a closed pre-connect is let go without it.
static gboolean on_first_bytes(GSocket *socket, GIOCondition condition, gpointer data) {
  (void)condition;
  Handshake *h = data;
  g_source_unref(h->waiting);   // destroyed by returning REMOVE
  h->waiting = NULL;
  g_source_destroy(h->timeout);
  g_source_unref(h->timeout);
  h->timeout = NULL;
  unsigned char first = 0;
  gssize peeked = recv(g_socket_get_fd(socket), &first, 1, MSG_PEEK | MSG_DONTWAIT);
  if (peeked == 1 && first == 0x16) {
    GSocketAddress *remote = g_socket_connection_get_remote_address(h->connection, NULL);
    if (remote && G_IS_INET_SOCKET_ADDRESS(remote)) {
      h->address = g_inet_address_to_string(g_inet_socket_address_get_address(G_INET_SOCKET_ADDRESS(remote)));
    }
    g_clear_object(&remote);
    if (h->address && under_way(h->turns, h->address) >= FC_HANDSHAKES_PER_ADDRESS) {
      // Its turn comes when one of its address's handshakes ends (handshake_free).
      h->turns->queued = g_list_prepend(h->turns->queued, h);
      h->timeout = g_timeout_source_new_seconds(FC_SILENT_SECONDS);
      g_source_set_callback(h->timeout, on_silent, h, NULL);
      g_source_attach(h->timeout, g_main_context_get_thread_default());
    } else {
      start_handshake(h);
    }
    return G_SOURCE_REMOVE;
  }
  if (peeked == 1) {
    // The request is read first: a socket closed with bytes unread is reset, and the
    // browser then shows its own error page, not this answer.
    int fd = g_socket_get_fd(socket);
    char request[8192];
    (void)recv(fd, request, sizeof request, MSG_DONTWAIT);
    (void)send(fd, wrong_scheme, sizeof wrong_scheme - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    shutdown(fd, SHUT_WR);
  }
  g_io_stream_close(G_IO_STREAM(h->connection), NULL, NULL);
  handshake_free(h);
  return G_SOURCE_REMOVE;
}

static void start_handshake(Handshake *h) {
  GError *err = NULL;
  h->tls = g_tls_server_connection_new(G_IO_STREAM(h->connection), h->certificate, &err);
  if (!h->tls) {
    g_clear_error(&err);
    g_io_stream_close(G_IO_STREAM(h->connection), NULL, NULL);
    handshake_free(h);
    return;
  }
  if (h->address) {
    g_hash_table_insert(h->turns->under_way, g_strdup(h->address), GUINT_TO_POINTER(under_way(h->turns, h->address) + 1));
    h->counted = TRUE;
  }
  h->timeout = g_timeout_source_new_seconds(FC_HANDSHAKE_SECONDS);
  g_source_set_callback(h->timeout, on_time_out, h, NULL);
  g_source_attach(h->timeout, g_main_context_get_thread_default());
  g_tls_connection_handshake_async(G_TLS_CONNECTION(h->tls), G_PRIORITY_DEFAULT, h->cancellable, on_handshake, h);
}

static gboolean on_incoming(GSocketService *service, GSocketConnection *connection, GObject *source, gpointer data) {
  (void)service;
  (void)source;
  FcTlsFrontDoor *door = data;
  Handshake *h = g_new0(Handshake, 1);
  h->turns = g_rc_box_acquire(door->turns);
  h->soup = g_object_ref(door->soup);
  h->certificate = g_object_ref(door->certificate);
  h->connection = g_object_ref(connection);
  h->cancellable = g_cancellable_new();
  h->closing = g_object_ref(door->closing);
  h->closing_handler = g_cancellable_connect(door->closing, G_CALLBACK(on_door_closing), g_object_ref(h->cancellable), g_object_unref);
  h->timeout = g_timeout_source_new_seconds(FC_SILENT_SECONDS);
  g_source_set_callback(h->timeout, on_silent, h, NULL);
  g_source_attach(h->timeout, g_main_context_get_thread_default());
  h->waiting = g_socket_create_source(g_socket_connection_get_socket(connection), G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
  g_source_set_callback(h->waiting, G_SOURCE_FUNC(on_first_bytes), h, NULL);
  g_source_attach(h->waiting, g_main_context_get_thread_default());
  return TRUE;
}

FcTlsFrontDoor *fc_tls_front_door_open(SoupServer *soup, GSocketAddress *address, GTlsCertificate *certificate,
                                       int *port, GError **error) {
  GSocketService *service = g_socket_service_new();
  // As the RTSP port: a burst of connections waits in the queue, not for a TCP retry (1 s)
  // once 10 wait (the default). Set before the address is added, or it does nothing.
  g_socket_listener_set_backlog(G_SOCKET_LISTENER(service), 256);
  GSocketAddress *bound = NULL;
  if (!g_socket_listener_add_address(G_SOCKET_LISTENER(service), address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                     NULL, &bound, error)) {
    g_object_unref(service);
    return NULL;
  }
  *port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
  g_object_unref(bound);
  FcTlsFrontDoor *door = g_new0(FcTlsFrontDoor, 1);
  door->service = service;
  door->soup = g_object_ref(soup);
  door->certificate = g_object_ref(certificate);
  door->closing = g_cancellable_new();
  door->turns = g_rc_box_new0(Turns);
  door->turns->under_way = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_signal_connect(service, "incoming", G_CALLBACK(on_incoming), door);
  g_socket_service_start(service);
  return door;
}

void fc_tls_front_door_close(FcTlsFrontDoor *door) {
  if (!door) return;
  g_signal_handlers_disconnect_by_data(door->service, door);
  g_socket_service_stop(door->service);
  g_socket_listener_close(G_SOCKET_LISTENER(door->service));
  door->turns->closed = TRUE;
  while (door->turns->queued) {
    Handshake *h = door->turns->queued->data;
    g_io_stream_close(G_IO_STREAM(h->connection), NULL, NULL);
    handshake_free(h);
  }
  g_rc_box_release_full(door->turns, turns_clear);
  g_cancellable_cancel(door->closing);
  g_object_unref(door->closing);
  g_object_unref(door->service);
  g_object_unref(door->certificate);
  g_object_unref(door->soup);
  g_free(door);
}
