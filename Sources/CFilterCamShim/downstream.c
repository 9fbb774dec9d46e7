// What an element feeds: the elements its frames reach, followed link by link through
// tees and queues, into bins by their sink ghost pads and out of them by their src ones,
// as a pipeline description's `!` links them. The session asks it whether a live command
// would change the picture's size under a muxer that writes one size per file.
#include "shim.h"
#include <string.h>

static gboolean is_ghost_pad(GstObject *object) { return object && GST_IS_GHOST_PAD(object); }

// The element's name if one of `factories` made it.
static char *made_by(GstElement *element, const char *const *factories) {
  GstElementFactory *factory = gst_element_get_factory(element);
  for (int i = 0; factory && factories[i]; i++) {
    if (strcmp(GST_OBJECT_NAME(factory), factories[i]) == 0) return g_strdup(GST_OBJECT_NAME(element));
  }
  return NULL;
}

static void queue_pads(GQueue *pads, GstIterator *it) {
  GValue value = G_VALUE_INIT;
  while (gst_iterator_next(it, &value) == GST_ITERATOR_OK) {
    g_queue_push_tail(pads, gst_object_ref(g_value_get_object(&value)));
    g_value_reset(&value);
  }
  g_value_unset(&value);
  gst_iterator_free(it);
}

static void queue_src_pads(GQueue *pads, GstElement *element) { queue_pads(pads, gst_element_iterate_src_pads(element)); }
static void queue_sink_pads(GQueue *pads, GstElement *element) { queue_pads(pads, gst_element_iterate_sink_pads(element)); }

// Visits each element downstream of `start` (upstream: feeding it) once, nearest first,
// until `visit` says stop (TRUE).
typedef gboolean (*downstream_visitor)(GstElement *element, gpointer data);

static void walk(GstElement *start, gboolean upstream, downstream_visitor visit, gpointer data) {
  void (*queue_next)(GQueue *, GstElement *) = upstream ? queue_sink_pads : queue_src_pads;
  GQueue pads = G_QUEUE_INIT;
  GHashTable *seen = g_hash_table_new(NULL, NULL);
  gboolean stop = FALSE;
  queue_next(&pads, start);
  // Bounded: a description has tens of elements, not thousands.
  for (int steps = 0; !stop && steps < 1000 && !g_queue_is_empty(&pads); steps++) {
    GstPad *pad = g_queue_pop_head(&pads);
    GstPad *peer = gst_pad_get_peer(pad);
    gst_object_unref(pad);
    if (!peer) continue;
    GstObject *parent = gst_object_get_parent(GST_OBJECT(peer));
    if (is_ghost_pad(parent)) {
      // The inside of a bin's ghost pad (its src pad downstream, its sink pad upstream):
      // on outside the bin.
      g_queue_push_tail(&pads, parent);
      gst_object_unref(peer);
      continue;
    }
    if (parent) gst_object_unref(parent);
    GstPad *into = peer;
    if (GST_IS_GHOST_PAD(peer)) {
      // A bin's ghost pad (its sink pad downstream, its src pad upstream): the bin counts
      // (splitmuxsink), and its inside too.
      GstElement *bin = gst_pad_get_parent_element(peer);
      if (bin) {
        stop = visit(bin, data);
        gst_object_unref(bin);
      }
      into = gst_ghost_pad_get_target(GST_GHOST_PAD(peer));
      gst_object_unref(peer);
      if (!into) continue;
    }
    GstElement *element = gst_pad_get_parent_element(into);
    gst_object_unref(into);
    if (!element) continue;
    if (!stop && !g_hash_table_contains(seen, element)) {
      g_hash_table_add(seen, element);
      stop = visit(element, data);
      queue_next(&pads, element);
    }
    gst_object_unref(element);   // the set holds the pointer only as a key: the pipeline keeps the element
  }
  g_queue_clear_full(&pads, gst_object_unref);
  g_hash_table_unref(seen);
}

struct factory_search {
  const char *const *factories;
  char *found;
};

static gboolean find_factory(GstElement *element, gpointer data) {
  struct factory_search *search = data;
  search->found = made_by(element, search->factories);
  return search->found != NULL;
}

char *fc_downstream_element_of_factory(GstElement *start, const char *const *factories) {
  struct factory_search search = {factories, NULL};
  walk(start, FALSE, find_factory, &search);
  return search.found;
}

char *fc_upstream_element_of_factory(GstElement *start, const char *const *factories) {
  struct factory_search search = {factories, NULL};
  walk(start, TRUE, find_factory, &search);
  return search.found;
}

struct sink_offsets {
  gboolean any;
  gint64 smallest;
};

static gboolean note_sink_offset(GstElement *element, gpointer data) {
  struct sink_offsets *offsets = data;
  if (!GST_IS_BASE_SINK(element) || !gst_base_sink_get_sync(GST_BASE_SINK(element))) return FALSE;
  gint64 offset = gst_base_sink_get_ts_offset(GST_BASE_SINK(element));
  if (!offsets->any || offset < offsets->smallest) offsets->smallest = offset;
  offsets->any = TRUE;
  return FALSE;
}

gint64 fc_downstream_sink_ts_offset(GstElement *start) {
  struct sink_offsets offsets = {FALSE, 0};
  walk(start, FALSE, note_sink_offset, &offsets);
  return offsets.smallest;
}
