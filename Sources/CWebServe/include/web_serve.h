// The web side of `filtercam serve --web`: an HTTP server (libsoup 3) that answers WHEP
// (WebRTC viewers, fed by the shared encoder) itself and hands every other request to the
// application (the page, its controls) through one callback. C because libsoup's and
// webrtcbin's set-up are signal- and macro-heavy; the header names no GStreamer or libsoup
// type, so Swift needs no second import of either.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include "encoded_stream.h"

typedef struct FcWebServer FcWebServer;

/// A request for the application, on the server's thread: answer it (now or later, from
/// any thread) with fc_web_server_reply, `server` and the same `request`. The request has
/// passed the password, the Host and Origin checks and the size limit.
typedef void (*FcWebRequestHandler)(void *data, FcWebServer *server, uint64_t request, const char *method,
                                    const char *path, const char *body, size_t body_length);

typedef struct {
  const char *address;       // e.g. "127.0.0.1"
  int port;                  // 0: any free port
  const char *const *users;  // n_users names and passwords; none: no authentication
  const char *const *passwords;
  int n_users;
  const char *tls_cert;      // PEM files; NULL: plain HTTP
  const char *tls_key;
  int loopback_only;         // no password on a loopback address: the Host must name this machine
  int upnp;                  // ask the router (UPnP) to open the viewers' ICE ports; never on loopback
                             // (the viewers' ICE is always on `address` alone, or every network for 0.0.0.0)
  FcEncodedStream *stream;   // what every WebRTC viewer is sent
  FcWebRequestHandler handler;
  void *handler_data;
} FcWebServerConfig;

/// Starts serving on a thread of its own. Returns NULL and sets *error (free with
/// fc_rtsp_free) when it cannot.
FcWebServer *fc_web_server_start(const FcWebServerConfig *config, char **error);

/// The port actually bound.
int fc_web_server_port(FcWebServer *server);

/// WebRTC viewers connected now (answered, and reporting reception).
int fc_web_server_watching(FcWebServer *server);

/// Says on stderr how many WebRTC viewers were turned away for want of room since the
/// last line that said one (those lines come at most every 10 s); from any thread.
void fc_web_server_say_turned_away(FcWebServer *server);

/// Answers a request handed to the application; `filename`, when given, makes the body a
/// download (Content-Disposition: attachment). A request whose client left is ignored.
void fc_web_server_reply(FcWebServer *server, uint64_t request, int status, const char *content_type,
                         const void *body, size_t length, const char *filename);

void fc_web_server_stop(FcWebServer *server);
