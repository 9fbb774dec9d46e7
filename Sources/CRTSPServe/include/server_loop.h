// A server's own thread: a main context of its own, run on a thread, with a tick once a
// second. The RTSP and web servers of `filtercam serve` each run on one, so connections
// are taken as they come, not on the session's tick. The header names no GLib type but
// the context's (opaque here).
#pragma once

struct _GMainContext;
typedef struct FcServerLoop FcServerLoop;

/// A new main context with its loop, not yet running.
FcServerLoop *fc_server_loop_new(void);

/// The loop's main context (GMainContext *), for the server's sources; the loop owns it.
struct _GMainContext *fc_server_loop_context(FcServerLoop *loop);

/// Runs the loop on a thread named `name`, its context the thread's default, calling
/// `every_second(data)` once a second there.
void fc_server_loop_start(FcServerLoop *loop, const char *name, int (*every_second)(void *data), void *data);

/// Stops the loop and waits for its thread, if it was started; again does nothing.
void fc_server_loop_stop(FcServerLoop *loop);

/// Stops it (if running) and frees it and its context.
void fc_server_loop_free(FcServerLoop *loop);
