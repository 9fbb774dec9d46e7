// A client thread that makes its main context the thread default, and lives as long as
// the server.
//
// gst-rtsp-server's pool runs each client thread's main loop without making its context
// the thread default. Over TLS, glib-networking starts the handshake on the first read
// with a GTask bound to the thread-default context, which was then the process's global
// default that nothing in `filtercam serve` runs: the task's completion, and its reference
// to the TLS connection, waited there for good, so every rtsps connection (a viewer's, or
// one that only connected) kept its socket open after it ended. A handshake can also end
// after the connection's client left; the pool stops a client thread when its last client
// goes, and a completion sent to a context nobody runs any more keeps that socket too: so
// the (one, `max-threads` 1) client thread is kept until the server stops. (Serving every
// connection on the server's own thread instead also fixed the leak, but left a few of 50
// viewers joining at once on a loaded machine without a picture.)
#include "rtsp_thread_pool.h"

typedef struct {
  GstRTSPThreadPool parent;
  GMutex lock;
  GstRTSPThread *kept;   // the client thread held alive (a reuse of it), or NULL
} FcRtspThreadPool;
typedef struct { GstRTSPThreadPoolClass parent_class; } FcRtspThreadPoolClass;

G_DEFINE_TYPE(FcRtspThreadPool, fc_rtsp_thread_pool, GST_TYPE_RTSP_THREAD_POOL)

static void configure_thread(GstRTSPThreadPool *pool, GstRTSPThread *thread, GstRTSPContext *ctx) {
  (void)ctx;
  if (thread->type != GST_RTSP_THREAD_TYPE_CLIENT) return;
  FcRtspThreadPool *self = (FcRtspThreadPool *)pool;
  g_mutex_lock(&self->lock);
  if (!self->kept && gst_rtsp_thread_reuse(thread)) self->kept = thread;
  g_mutex_unlock(&self->lock);
}

static void thread_enter(GstRTSPThreadPool *pool, GstRTSPThread *thread) {
  (void)pool;
  g_main_context_push_thread_default(thread->context);
}

static void thread_leave(GstRTSPThreadPool *pool, GstRTSPThread *thread) {
  (void)pool;
  while (g_main_context_iteration(thread->context, FALSE)) {}   // what was handed over last
  g_main_context_pop_thread_default(thread->context);
}

GMainContext *fc_rtsp_thread_pool_client_context(GstRTSPThreadPool *pool) {
  FcRtspThreadPool *self = (FcRtspThreadPool *)pool;
  g_mutex_lock(&self->lock);
  GMainContext *context = self->kept ? g_main_context_ref(self->kept->context) : NULL;
  g_mutex_unlock(&self->lock);
  return context;
}

void fc_rtsp_thread_pool_release(GstRTSPThreadPool *pool) {
  FcRtspThreadPool *self = (FcRtspThreadPool *)pool;
  g_mutex_lock(&self->lock);
  GstRTSPThread *kept = self->kept;
  self->kept = NULL;
  g_mutex_unlock(&self->lock);
  if (kept) gst_rtsp_thread_stop(kept);
}

static void finalize(GObject *object) {
  fc_rtsp_thread_pool_release(GST_RTSP_THREAD_POOL(object));
  g_mutex_clear(&((FcRtspThreadPool *)object)->lock);
  G_OBJECT_CLASS(fc_rtsp_thread_pool_parent_class)->finalize(object);
}

static void fc_rtsp_thread_pool_class_init(FcRtspThreadPoolClass *klass) {
  GstRTSPThreadPoolClass *pool_class = GST_RTSP_THREAD_POOL_CLASS(klass);
  pool_class->configure_thread = configure_thread;
  pool_class->thread_enter = thread_enter;
  pool_class->thread_leave = thread_leave;
  G_OBJECT_CLASS(klass)->finalize = finalize;
}

static void fc_rtsp_thread_pool_init(FcRtspThreadPool *pool) { g_mutex_init(&pool->lock); }

GstRTSPThreadPool *fc_rtsp_thread_pool_new(void) {
  return g_object_new(fc_rtsp_thread_pool_get_type(), NULL);
}
