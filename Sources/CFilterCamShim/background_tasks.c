#include "shim.h"
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>

// ---------------------------------------------------------------------------
// Streaming threads that yield the CPU: a task pool whose every task runs on a new thread
// of its own, niced, and ends with its task. A recording's encoder runs on the thread of
// its appsrc (x264enc opens its own threads from there, and they inherit the nice value),
// so on two busy cores the live preview gets the CPU first and the encoder the rest (it
// has up to two seconds of frames to catch up with). GStreamer's default pool hands threads
// on to other tasks, and a thread cannot be un-niced without privilege: hence a thread
// per task, never reused.

typedef struct {
  GstTaskPool parent;
  int nice;
} FcBackgroundPool;

typedef struct {
  GstTaskPoolClass parent_class;
} FcBackgroundPoolClass;

static void fc_background_pool_class_init(FcBackgroundPoolClass *klass);
static void fc_background_pool_init(FcBackgroundPool *pool);

/* As G_DEFINE_TYPE, but a type another copy of this shim registered (a filter plugin of
 * your own loaded beside FilterCam's) is taken by its name instead of failing. */
static GType fc_background_pool_get_type(void) {
  static gsize type = 0;
  if (g_once_init_enter(&type)) {
    GType registered = g_type_from_name("FcBackgroundPool");
    if (!registered) {
      registered = g_type_register_static_simple(GST_TYPE_TASK_POOL, "FcBackgroundPool", sizeof(FcBackgroundPoolClass),
                                                 (GClassInitFunc)(void (*)(void))fc_background_pool_class_init,
                                                 sizeof(FcBackgroundPool), (GInstanceInitFunc)(void (*)(void))fc_background_pool_init, 0);
    }
    g_once_init_leave(&type, registered);
  }
  return type;
}

typedef struct {
  GstTaskPoolFunction func;
  gpointer data;
  int nice;
} FcBackgroundJob;

static void *fc_background_run(void *argument) {
  FcBackgroundJob *job = argument;
  // On Linux the nice value is the calling thread's (PRIO_PROCESS, 0).
  errno = 0;
  int current = getpriority(PRIO_PROCESS, 0);
  if (errno == 0) setpriority(PRIO_PROCESS, 0, current + job->nice);
  job->func(job->data);
  g_free(job);
  return NULL;
}

static void fc_background_prepare(GstTaskPool *pool, GError **error) {
  (void)pool;
  (void)error;   // nothing to prepare: threads are made per task
}

static void fc_background_cleanup(GstTaskPool *pool) {
  (void)pool;
}

static gpointer fc_background_push(GstTaskPool *pool, GstTaskPoolFunction func, gpointer data, GError **error) {
  FcBackgroundJob *job = g_new(FcBackgroundJob, 1);
  job->func = func;
  job->data = data;
  job->nice = ((FcBackgroundPool *)pool)->nice;
  pthread_t *thread = g_new(pthread_t, 1);
  int failed = pthread_create(thread, NULL, fc_background_run, job);
  if (failed) {
    g_free(job);
    g_free(thread);
    g_set_error(error, G_THREAD_ERROR, G_THREAD_ERROR_AGAIN, "could not start a streaming thread: %s", g_strerror(failed));
    return NULL;
  }
  return thread;
}

static void fc_background_join(GstTaskPool *pool, gpointer id) {
  (void)pool;
  if (!id) return;
  pthread_join(*(pthread_t *)id, NULL);
  g_free(id);
}

static void fc_background_pool_class_init(FcBackgroundPoolClass *klass) {
  GstTaskPoolClass *pool_class = GST_TASK_POOL_CLASS(klass);
  pool_class->prepare = fc_background_prepare;
  pool_class->cleanup = fc_background_cleanup;
  pool_class->push = fc_background_push;
  pool_class->join = fc_background_join;
}

static void fc_background_pool_init(FcBackgroundPool *pool) {
  pool->nice = 0;
}

typedef struct {
  GstTaskPool *pool;
  GstElement *owner;
} FcBackgroundWatch;

static void fc_background_watch_free(gpointer data) {
  FcBackgroundWatch *watch = data;
  gst_object_unref(watch->pool);
  g_free(watch);
}

// STREAM_STATUS CREATE comes (synchronously, from the thread making it) before a task
// starts: the owner's tasks get the background pool.
static GstBusSyncReply fc_background_on_message(GstBus *bus, GstMessage *message, gpointer data) {
  (void)bus;
  FcBackgroundWatch *watch = data;
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_STREAM_STATUS) return GST_BUS_PASS;
  GstStreamStatusType type;
  GstElement *owner = NULL;
  gst_message_parse_stream_status(message, &type, &owner);
  if (type != GST_STREAM_STATUS_TYPE_CREATE || owner != watch->owner) return GST_BUS_PASS;
  const GValue *value = gst_message_get_stream_status_object(message);
  if (value && G_VALUE_HOLDS(value, GST_TYPE_TASK)) {
    gst_task_set_pool(GST_TASK(g_value_get_object(value)), watch->pool);
  }
  return GST_BUS_PASS;
}

void fc_run_tasks_in_background(GstElement *pipeline, GstElement *owner, int nice) {
  FcBackgroundPool *pool = g_object_new(fc_background_pool_get_type(), NULL);
  gst_object_ref_sink(pool);
  pool->nice = nice;
  FcBackgroundWatch *watch = g_new(FcBackgroundWatch, 1);
  watch->pool = GST_TASK_POOL(pool);
  watch->owner = owner;
  GstBus *bus = gst_element_get_bus(pipeline);
  gst_bus_set_sync_handler(bus, fc_background_on_message, watch, fc_background_watch_free);
  gst_object_unref(bus);
}
