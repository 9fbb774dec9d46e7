// The RTSP server's client threads (rtsp_thread_pool.c); private to this target.
#pragma once
#include <gst/rtsp-server/rtsp-server.h>

/// gst-rtsp-server's thread pool whose client thread runs with its own main context as the
/// thread default and lives until `fc_rtsp_thread_pool_release`.
GstRTSPThreadPool *fc_rtsp_thread_pool_new(void);

/// The client thread's context (a reference), where a client's own work runs; NULL before
/// the first client came.
GMainContext *fc_rtsp_thread_pool_client_context(GstRTSPThreadPool *pool);

/// Lets the client thread end once its clients are gone (the server stops).
void fc_rtsp_thread_pool_release(GstRTSPThreadPool *pool);
