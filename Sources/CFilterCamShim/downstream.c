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

static void queue_src_pads(GQueue *pads, GstElement *element) {
  GstIterator *it = gst_element_iterate_src_pads(element);
  GValue value = G_VALUE_INIT;
  while (gst_iterator_next(it, &value) == GST_ITERATOR_OK) {
    g_queue_push_tail(pads, gst_object_ref(g_value_get_object(&value)));
    g_value_reset(&value);
  }
  g_value_unset(&value);
  gst_iterator_free(it);
}

char *fc_downstream_element_of_factory(GstElement *start, const char *const *factories) {
  GQueue pads = G_QUEUE_INIT;
  GHashTable *seen = g_hash_table_new(NULL, NULL);
  char *found = NULL;
  queue_src_pads(&pads, start);
  // Bounded: a description has tens of elements, not thousands.
  for (int steps = 0; !found && steps < 1000 && !g_queue_is_empty(&pads); steps++) {
    GstPad *pad = g_queue_pop_head(&pads);
    GstPad *peer = gst_pad_get_peer(pad);
    gst_object_unref(pad);
    if (!peer) continue;
    GstObject *parent = gst_object_get_parent(GST_OBJECT(peer));
    if (is_ghost_pad(parent)) {
      // The inside of a bin's src ghost pad: on outside the bin.
      g_queue_push_tail(&pads, parent);
      gst_object_unref(peer);
      continue;
    }
    if (parent) gst_object_unref(parent);
    GstPad *into = peer;
    if (GST_IS_GHOST_PAD(peer)) {
      // A bin's sink ghost pad: the bin counts (splitmuxsink), and its inside too.
      GstElement *bin = gst_pad_get_parent_element(peer);
      if (bin) {
        found = made_by(bin, factories);
        gst_object_unref(bin);
      }
      into = gst_ghost_pad_get_target(GST_GHOST_PAD(peer));
      gst_object_unref(peer);
      if (!into) continue;
    }
    GstElement *element = gst_pad_get_parent_element(into);
    gst_object_unref(into);
    if (!element) continue;
    if (!found && !g_hash_table_contains(seen, element)) {
      g_hash_table_add(seen, element);
      found = made_by(element, factories);
      queue_src_pads(&pads, element);
    }
    gst_object_unref(element);   // the set holds the pointer only as a key: the pipeline keeps the element
  }
  g_queue_clear_full(&pads, gst_object_unref);
  g_hash_table_unref(seen);
  return found;
}
