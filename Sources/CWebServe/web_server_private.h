// What the web server's two files share (web_server.c: the server and the application's
// requests; web_whep.c: WHEP); private to this target. Everything here runs on the
// server's thread unless said otherwise.
#pragma once
#include <libsoup/soup.h>
#include "server_loop.h"
#include "tls_front_door.h"
#include "web_serve.h"

struct FcWebServer {
  SoupServer *soup;
  FcTlsFrontDoor *tls_door;  // with a certificate: the TLS handshakes (libsoup listens on nothing then)
  FcServerLoop *loop;
  GMainContext *context;     // the loop's
  FcEncodedStream *stream;   // a reference
  FcWebRequestHandler handler;
  void *handler_data;
  gboolean loopback_only, upnp, tls, no_password;
  GInetAddress *local;       // the address served on, where WebRTC viewers' ICE is; NULL: every network
  int port;
  guint64 next_request;
  GHashTable *pending;       // request id → a request waiting for its answer
  GHashTable *peers;         // WHEP resource id → a WebRTC viewer (web_whep.c)
  GMutex lock;               // watching, read from other threads
  int watching;
  gint64 turned_away_said_at; // WebRTC viewers turned away for want of room (web_whep.c):
  gint turned_away_unsaid;    // when the last line said one (server thread), how many since (atomic)
};

/// Pauses the request until fc_web_respond is given the returned id.
guint64 fc_web_hold(FcWebServer *server, SoupServerMessage *msg);

/// Answers a held request, if its client is still there; FALSE if it left.
gboolean fc_web_respond(FcWebServer *server, guint64 id, int status, const char *type, GBytes *body,
                        const char *filename, const char *location);

/// Answers a request now with a line of text.
void fc_web_respond_text(SoupServerMessage *msg, int status, const char *text);

/// The request's body as text, and its length.
char *fc_web_body_text(SoupServerMessage *msg, gsize *length);

/// Handles /whep and /whep/ID; FALSE for any other path.
gboolean fc_whep_route(FcWebServer *server, SoupServerMessage *msg, const char *path);

/// The table of WebRTC viewers, for fc_web_server_start.
GHashTable *fc_whep_peers_new(void);

/// Forgets viewers that left without DELETE and counts those watching; says the viewers
/// turned away that no line has said yet, 10 s after the last such line.
void fc_whep_sweep(FcWebServer *server);

