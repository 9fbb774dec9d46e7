// The rtsps port's door: connections are accepted here and handed to gst-rtsp-server only
// once the client has sent its whole TLS hello. gst-rtsp-server starts a connection's TLS
// handshake when it accepts it, and glib-networking runs every handshake on a thread of
// GLib's shared pool that waits for the client: 60 connections that said nothing (each
// held 10 s, until the idle rule closed it) took the pool's threads, and real viewers'
// handshakes queued behind them (a player gave up after 5 s). Waiting here costs no thread.
// A client that sends its hello and then stalls holds a thread until its handshake ends, so
// handshakes handed over are watched too: one not done within FC_HANDSHAKE_SECONDS has its
// socket shut (the thread's read ends), and one address has at most
// FC_HANDSHAKES_PER_ADDRESS under way; its further hellos wait here, costing no thread
// (60 stalling clients from one address kept every viewer out).
// Runs on the RTSP server's thread (the context given at opening).
#include "rtsps_front_door.h"
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

// A connection that has not sent its hello by then is closed (as the idle rule would).
#define FC_HELLO_SECONDS 10
// A TLS record is at most 16 kB plus its 5-byte header; a hello fits in one.
#define FC_RECORD_MAX (5 + 16384 + 2048)
// A handshake handed over is done within this (a real client's takes milliseconds).
#define FC_HANDSHAKE_SECONDS 5
// Handshakes under way for one client address; its further hellos wait their turn.
#define FC_HANDSHAKES_PER_ADDRESS 4
// How often handshakes under way are looked at (only while there are some).
#define FC_HANDSHAKE_CHECK_MS 50

struct FcRtspsFrontDoor {
  GstRTSPServer *server;   // a reference
  GSocket *listening;
  GSource *accepting;
  GMainContext *context;
  GList *waiting;          // Waiting *, newest first
  GList *handshaking;      // Handshaking *
  GSource *checking;       // while handshaking is not empty
};

typedef struct {
  FcRtspsFrontDoor *door;
  GSocket *socket;
  GSource *readable, *timeout;
  char *address;           // once its hello is in and it waits for its address's turn
} Waiting;

// A connection handed over whose TLS handshake is under way.
typedef struct {
  GSocket *socket;         // a reference (gst-rtsp-server's connection holds it)
  GTlsConnection *tls;     // a reference
  char *address;
  gint64 deadline;         // monotonic µs
} Handshaking;

static void handshaking_free(Handshaking *h) {
  g_object_unref(h->socket);
  g_object_unref(h->tls);
  g_free(h->address);
  g_free(h);
}

static guint handshakes_from(FcRtspsFrontDoor *door, const char *address) {
  guint n = 0;
  for (GList *l = door->handshaking; l; l = l->next) n += strcmp(((Handshaking *)l->data)->address, address) == 0;
  return n;
}

// The client's address, or NULL.
static char *address_of(GSocket *socket) {
  GSocketAddress *remote = g_socket_get_remote_address(socket, NULL);
  char *ip = remote && G_IS_INET_SOCKET_ADDRESS(remote)
    ? g_inet_address_to_string(g_inet_socket_address_get_address(G_INET_SOCKET_ADDRESS(remote))) : NULL;
  if (remote) g_object_unref(remote);
  return ip;
}

static void waiting_end(Waiting *w, gboolean hand_over) {
  FcRtspsFrontDoor *door = w->door;
  door->waiting = g_list_remove(door->waiting, w);
  if (w->readable) {
    g_source_destroy(w->readable);
    g_source_unref(w->readable);
  }
  g_source_destroy(w->timeout);
  g_source_unref(w->timeout);
  g_free(w->address);
  GSocketAddress *remote = hand_over ? g_socket_get_remote_address(w->socket, NULL) : NULL;
  if (remote && G_IS_INET_SOCKET_ADDRESS(remote)) {
    GInetSocketAddress *inet = G_INET_SOCKET_ADDRESS(remote);
    char *ip = g_inet_address_to_string(g_inet_socket_address_get_address(inet));
    // The server sets the connection's TLS up as it is handed over (fc_rtsps_front_door_secure).
    gst_rtsp_server_transfer_connection(door->server, w->socket, ip, g_inet_socket_address_get_port(inet), NULL);
    g_free(ip);
  } else {
    // What the client sent is taken first: closed with bytes unread, the socket would be
    // reset rather than ended (the client read an error, not the end).
    char skipped[4096];
    for (int i = 0; i < 16 && recv(g_socket_get_fd(w->socket), skipped, sizeof skipped, MSG_DONTWAIT) > 0; i++) {}
    g_socket_close(w->socket, NULL);
    g_object_unref(w->socket);
  }
  if (remote) g_object_unref(remote);
  g_free(w);
}

static gboolean hello_too_late(gpointer data) {
  waiting_end(data, FALSE);
  return G_SOURCE_REMOVE;
}

// Whether the bytes in the socket's queue (peeked, not taken) are a whole TLS handshake
// record: a hello gst-rtsp-server's handshake can answer at once.
static gboolean on_readable(GSocket *socket, GIOCondition condition, gpointer data) {
  (void)condition;
  Waiting *w = data;
  static char head[FC_RECORD_MAX];   // only this thread peeks
  gssize n = recv(g_socket_get_fd(socket), head, sizeof head, MSG_PEEK | MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return G_SOURCE_CONTINUE;
  if (n <= 0 || (guchar)head[0] != 0x16) {   // gone, or not TLS (rtsp:// to the rtsps port)
    waiting_end(w, FALSE);
    return G_SOURCE_REMOVE;
  }
  if (n < 5) return G_SOURCE_CONTINUE;
  gssize record = 5 + (((guchar)head[3] << 8) | (guchar)head[4]);
  if (record > FC_RECORD_MAX) {
    waiting_end(w, FALSE);
    return G_SOURCE_REMOVE;
  }
  if (n < record) return G_SOURCE_CONTINUE;   // level-triggered: called again as more comes
  char *address = address_of(socket);
  if (address && handshakes_from(w->door, address) >= FC_HANDSHAKES_PER_ADDRESS) {
    // Its turn comes when one of its address's handshakes ends (handshake_ended).
    w->address = address;
    g_source_destroy(w->readable);   // the hello stays queued in the socket
    g_source_unref(w->readable);
    w->readable = NULL;
    return G_SOURCE_REMOVE;
  }
  g_free(address);
  waiting_end(w, TRUE);
  return G_SOURCE_REMOVE;
}

// A handshake under way ended (done, failed, or its time ran out): the oldest hello of the
// same address waiting its turn goes next.
static void handshake_ended(FcRtspsFrontDoor *door, Handshaking *h) {
  door->handshaking = g_list_remove(door->handshaking, h);
  for (GList *l = g_list_last(door->waiting); l; l = l->prev) {
    Waiting *w = l->data;
    if (w->address && strcmp(w->address, h->address) == 0) {
      waiting_end(w, TRUE);
      break;
    }
  }
  handshaking_free(h);
}

static gboolean check_handshakes(gpointer data) {
  FcRtspsFrontDoor *door = data;
  gint64 now = g_get_monotonic_time();
  GList *l = door->handshaking;
  while (l) {
    Handshaking *h = l->data;
    l = l->next;
    gboolean done = g_socket_is_closed(h->socket)
      || g_tls_connection_get_protocol_version(h->tls) != G_TLS_PROTOCOL_VERSION_UNKNOWN;
    if (!done && now < h->deadline) continue;
    // Shut, not closed: gst-rtsp-server owns the socket; the handshake's read ends and the
    // client is let go as after any failed handshake.
    if (!done) g_socket_shutdown(h->socket, TRUE, TRUE, NULL);
    handshake_ended(door, h);
  }
  if (door->handshaking) return G_SOURCE_CONTINUE;
  g_source_unref(door->checking);
  door->checking = NULL;
  return G_SOURCE_REMOVE;
}

static gboolean on_incoming(GSocket *listening, GIOCondition condition, gpointer data) {
  (void)condition;
  FcRtspsFrontDoor *door = data;
  for (;;) {
    GSocket *socket = g_socket_accept(listening, NULL, NULL);
    if (!socket) break;   // none left (would block), or a failed accept
    g_socket_set_blocking(socket, FALSE);
    Waiting *w = g_new0(Waiting, 1);
    w->door = door;
    w->socket = socket;
    w->readable = g_socket_create_source(socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
    g_source_set_callback(w->readable, (GSourceFunc)(void (*)(void))on_readable, w, NULL);
    g_source_attach(w->readable, door->context);
    w->timeout = g_timeout_source_new_seconds(FC_HELLO_SECONDS);
    g_source_set_callback(w->timeout, hello_too_late, w, NULL);
    g_source_attach(w->timeout, door->context);
    door->waiting = g_list_prepend(door->waiting, w);
  }
  return G_SOURCE_CONTINUE;
}

FcRtspsFrontDoor *fc_rtsps_front_door_open(GstRTSPServer *server, GMainContext *context, GError **error) {
  GSocket *listening = gst_rtsp_server_create_socket(server, NULL, error);   // address, port, backlog
  if (!listening) return NULL;
  g_socket_set_blocking(listening, FALSE);
  FcRtspsFrontDoor *door = g_new0(FcRtspsFrontDoor, 1);
  door->server = g_object_ref(server);
  g_object_set_data(G_OBJECT(server), "fc-rtsps-front-door", door);
  door->listening = listening;
  door->context = g_main_context_ref(context);
  door->accepting = g_socket_create_source(listening, G_IO_IN, NULL);
  g_source_set_callback(door->accepting, (GSourceFunc)(void (*)(void))on_incoming, door, NULL);
  g_source_attach(door->accepting, context);
  return door;
}

int fc_rtsps_front_door_port(FcRtspsFrontDoor *door) {
  GSocketAddress *address = g_socket_get_local_address(door->listening, NULL);
  int port = address && G_IS_INET_SOCKET_ADDRESS(address) ? g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(address)) : -1;
  if (address) g_object_unref(address);
  return port;
}

// Watches the client's handshake (check_handshakes).
static void watch_handshake(FcRtspsFrontDoor *door, GstRTSPConnection *conn) {
  GTlsConnection *tls = gst_rtsp_connection_get_tls(conn, NULL);
  GSocket *socket = gst_rtsp_connection_get_read_socket(conn);
  char *address = socket ? address_of(socket) : NULL;
  if (!tls || !address) {
    g_free(address);
    return;
  }
  Handshaking *h = g_new0(Handshaking, 1);
  h->socket = g_object_ref(socket);
  h->tls = g_object_ref(tls);
  h->address = address;
  h->deadline = g_get_monotonic_time() + FC_HANDSHAKE_SECONDS * G_USEC_PER_SEC;
  door->handshaking = g_list_prepend(door->handshaking, h);
  if (!door->checking) {
    door->checking = g_timeout_source_new(FC_HANDSHAKE_CHECK_MS);
    g_source_set_callback(door->checking, check_handshakes, door, NULL);
    g_source_attach(door->checking, door->context);
  }
}

void fc_rtsps_front_door_secure(GstRTSPServer *server, GstRTSPClient *client) {
  // What gst-rtsp-server's own accept does before it makes a client: the auth's connect
  // check gives the connection the certificate (a handed-over connection skips it). The
  // client is not reading yet: "client-connected" comes before it is attached.
  GstRTSPContext ctx = {0};
  ctx.server = server;
  ctx.conn = gst_rtsp_client_get_connection(client);
  ctx.auth = gst_rtsp_server_get_auth(server);
  gst_rtsp_context_push_current(&ctx);
  gboolean allowed = gst_rtsp_auth_check(GST_RTSP_AUTH_CHECK_CONNECT);
  gst_rtsp_context_pop_current(&ctx);
  if (ctx.auth) g_object_unref(ctx.auth);
  if (!allowed) {
    gst_rtsp_client_close(client);
    return;
  }
  FcRtspsFrontDoor *door = g_object_get_data(G_OBJECT(server), "fc-rtsps-front-door");
  if (door) watch_handshake(door, ctx.conn);
}

void fc_rtsps_front_door_close(FcRtspsFrontDoor *door) {
  if (!door) return;
  while (door->waiting) waiting_end(door->waiting->data, FALSE);
  while (door->handshaking) {
    Handshaking *h = door->handshaking->data;
    door->handshaking = g_list_remove(door->handshaking, h);
    handshaking_free(h);
  }
  if (door->checking) {
    g_source_destroy(door->checking);
    g_source_unref(door->checking);
  }
  g_object_set_data(G_OBJECT(door->server), "fc-rtsps-front-door", NULL);
  g_source_destroy(door->accepting);
  g_source_unref(door->accepting);
  g_socket_close(door->listening, NULL);
  g_object_unref(door->listening);
  g_main_context_unref(door->context);
  g_object_unref(door->server);
  g_free(door);
}
