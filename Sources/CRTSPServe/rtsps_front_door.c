// The rtsps port's door: connections are accepted here and handed to gst-rtsp-server only
// once the client has sent its whole TLS hello. gst-rtsp-server starts a connection's TLS
// handshake when it accepts it, and glib-networking runs every handshake on a thread of
// GLib's shared pool that waits for the client: 60 connections that said nothing (each
// held 10 s, until the idle rule closed it) took the pool's threads, and real viewers'
// handshakes queued behind them (a player gave up after 5 s). Waiting here costs no thread.
// Runs on the RTSP server's thread (the context given at opening).
#include "rtsps_front_door.h"
#include <errno.h>
#include <sys/socket.h>

// A connection that has not sent its hello by then is closed (as the idle rule would).
#define FC_HELLO_SECONDS 10
// A TLS record is at most 16 kB plus its 5-byte header; a hello fits in one.
#define FC_RECORD_MAX (5 + 16384 + 2048)

struct FcRtspsFrontDoor {
  GstRTSPServer *server;   // a reference
  GSocket *listening;
  GSource *accepting;
  GMainContext *context;
  GList *waiting;          // Waiting *
};

typedef struct {
  FcRtspsFrontDoor *door;
  GSocket *socket;
  GSource *readable, *timeout;
} Waiting;

static void waiting_end(Waiting *w, gboolean hand_over) {
  FcRtspsFrontDoor *door = w->door;
  door->waiting = g_list_remove(door->waiting, w);
  g_source_destroy(w->readable);
  g_source_unref(w->readable);
  g_source_destroy(w->timeout);
  g_source_unref(w->timeout);
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
  waiting_end(w, TRUE);
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
  if (!allowed) gst_rtsp_client_close(client);
}

void fc_rtsps_front_door_close(FcRtspsFrontDoor *door) {
  if (!door) return;
  while (door->waiting) waiting_end(door->waiting->data, FALSE);
  g_source_destroy(door->accepting);
  g_source_unref(door->accepting);
  g_socket_close(door->listening, NULL);
  g_object_unref(door->listening);
  g_main_context_unref(door->context);
  g_object_unref(door->server);
  g_free(door);
}
