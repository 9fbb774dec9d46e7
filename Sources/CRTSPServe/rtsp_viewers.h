// The per-connection rules of `filtercam serve` (rtsp_viewers.c); private to this target.
#pragma once
#include <glib.h>

typedef struct FcViewers FcViewers;

FcViewers *fc_viewers_new(void);
/// Drops a reference (the server's, or a connection's when its client is finalized).
void fc_viewers_free(FcViewers *viewers);

/// Takes a new GstRTSPClient under the rules: sessions belong to the connection that
/// created them; re-SETUP refused; PLAY counts it as watching.
void fc_viewers_connected(FcViewers *viewers, void *rtsp_client);

/// A session left the pool (torn down or timed out).
void fc_viewers_session_removed(FcViewers *viewers, const char *session_id);

/// Connections with at least one authenticated session playing.
int fc_viewers_watching(FcViewers *viewers);

/// Open connections that have set up a session at some point, playing or not: the viewers
/// still to leave (a player pauses, then tears down, then closes its connection).
int fc_viewers_still_connected(FcViewers *viewers);

/// Closes connections that have created no session within the idle bound.
void fc_viewers_close_idle(FcViewers *viewers, gboolean tls, GMainContext *client_context);
