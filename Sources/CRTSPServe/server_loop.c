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

static gboolean quit_loop(gpointer loop) {
  g_main_loop_quit(loop);
  return G_SOURCE_REMOVE;
}

void fc_server_loop_stop(FcServerLoop *l) {
  if (!l->thread) return;
  // Quit from inside the loop: a g_main_loop_quit() from here before the new thread has
  // entered g_main_loop_run() is lost (run sets the loop running again), and the join
  // then waits for good (a server stopped right after it started: a web port in use).
  GSource *quit = g_idle_source_new();
  g_source_set_priority(quit, G_PRIORITY_HIGH);
  g_source_set_callback(quit, quit_loop, l->loop, NULL);
  g_source_attach(quit, l->context);
  g_source_unref(quit);
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
