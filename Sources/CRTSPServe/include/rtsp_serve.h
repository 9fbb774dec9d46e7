// GStreamer's RTSP server (gst-rtsp-server) behind a plain C API, for `filtercam serve`.
// C because its set-up is variadic (roles, tokens) and macro-heavy; the header names no
// GStreamer type, so the Swift side needs no second import of the GStreamer headers.
#pragma once
#include <stdint.h>
#include "encoded_stream.h"

typedef struct FcRtspServer FcRtspServer;

typedef struct {
  const char *address;      // e.g. "127.0.0.1"
  int port;                 // 0: any free port
  const char *path;         // e.g. "/filtercam"
  const char *launch;       // the media's launch line, "( appsrc name=encoded ! … rtph264pay name=pay0 … )"
  FcEncodedStream *stream;  // what feeds the media's appsrc "encoded"
  const char *const *users; // n_users names and passwords; none: no authentication
  const char *const *passwords;
  int n_users;
  const char *tls_cert;     // PEM files; NULL: no TLS
  const char *tls_key;
} FcRtspServerConfig;

/// Starts serving on a thread of its own. Returns NULL and sets *error (free with
/// fc_rtsp_free) when it cannot.
FcRtspServer *fc_rtsp_server_start(const FcRtspServerConfig *config, char **error);

/// The port actually bound.
int fc_rtsp_server_port(FcRtspServer *server);

/// Connections with at least one authenticated session playing now (not sockets: a
/// connection that failed its password or only connected does not count).
int fc_rtsp_server_watching(FcRtspServer *server);

/// Open connections that have set up a session, playing or not: the viewers that have not
/// left yet (the end of the stream waits for them, so a player's PAUSE and TEARDOWN are answered).
int fc_rtsp_server_still_connected(FcRtspServer *server);

void fc_rtsp_server_stop(FcRtspServer *server);
void fc_rtsp_free(void *p);
