// A server's own thread and main context (server_loop.h).
#include "server_loop.h"
#include <glib.h>

struct FcServerLoop {
  GMainContext *context;
  GMainLoop *loop;
  GThread *thread;
};

FcServerLoop *fc_server_loop_new(void) {
  FcServerLoop *l = g_new0(FcServerLoop, 1);
  l->context = g_main_context_new();
  l->loop = g_main_loop_new(l->context, FALSE);
  return l;
}

GMainContext *fc_server_loop_context(FcServerLoop *l) { return l->context; }

static gpointer run(gpointer data) {
  FcServerLoop *l = data;
  g_main_context_push_thread_default(l->context);
  g_main_loop_run(l->loop);
  g_main_context_pop_thread_default(l->context);
  return NULL;
}

void fc_server_loop_start(FcServerLoop *l, const char *name, int (*every_second)(void *data), void *data) {
  GSource *tick = g_timeout_source_new_seconds(1);
  g_source_set_callback(tick, (GSourceFunc)every_second, data, NULL);
  g_source_attach(tick, l->context);
  g_source_unref(tick);
  l->thread = g_thread_new(name, run, l);
}

void fc_server_loop_stop(FcServerLoop *l) {
  if (!l->thread) return;
  g_main_loop_quit(l->loop);
  g_thread_join(l->thread);
  l->thread = NULL;
}

void fc_server_loop_free(FcServerLoop *l) {
  if (!l) return;
  fc_server_loop_stop(l);
  g_main_loop_unref(l->loop);
  g_main_context_unref(l->context);
  g_free(l);
}
