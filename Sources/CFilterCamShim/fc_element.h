// Private to the shim: the two shells a Swift-backed element can have, and the state they share.
//   filter_element.c  a plain GstElement (every filter): own pads, a private inner pair
//   source_bin.c      a GstBin (the camera source): children and a ghost src pad
//   swift_element.c   what both share: registration, properties, action signals
//   inner_pair.c      the filter's private appsink/appsrc and the internal pads linking them
#pragma once
#include "shim.h"

/// The spec of a Swift-backed element type (type qdata), or NULL for any other type.
const FcElementSpec *fc_spec_of_type(GType type);
#define FC_SPEC(obj) fc_spec_of_type(G_OBJECT_TYPE(obj))

/// Where an instance keeps its Swift context.
void **fc_ctx_slot(gpointer obj);

/// Registers a shell type: `parent` (GstElement or GstBin) with the spec as class data.
GType fc_register_shell(GType parent, const char *name, const FcElementSpec *spec, guint16 class_size,
                        guint16 instance_size, GClassInitFunc class_init, GInstanceInitFunc instance_init);

/// Class setup and finalize shared by both shells.
void fc_common_class_init(gpointer klass, const FcElementSpec *spec);
void fc_common_instance_init(GstElement *element);
void fc_common_finalize(GObject *obj);

/// The private appsink → (Swift worker) → appsrc pair inside a filter element. Frames and
/// events reach the appsink through `to_sink` (an internal src pad without a parent, linked
/// to the appsink's sink pad) and leave the appsrc into `from_src` (an internal sink pad
/// without a parent), which forwards them out of the element's src pad. Being no children,
/// they do not make the element a bin, so tracers and the pipeline see one ordinary element.
typedef struct {
  GstElement *sink, *src;   // the appsink and the appsrc (owned)
  GstPad *to_sink, *from_src;
  GstBus *bus;              // theirs alone: their messages pass through the element's filter
  gint renegotiation_budget;       // refused frames still forgiven after a RECONFIGURE (atomic)
  guint64 renegotiation_drops;     // frames refused and forgiven (atomic)
  gint caps_check_pending;         // after a RECONFIGURE: ask downstream before the next push (atomic)
} FcInnerPair;

/// A RECONFIGURE from downstream went upstream: the frames already made for the caps
/// before it (at most FC_RENEGOTIATION_FRAMES) that downstream refuses (NOT_NEGOTIATED)
/// are dropped instead of ending the stream, as GstBaseSrc drops one and retries while its
/// pad needs reconfiguring (identity and videoflip, in the element's place, carried on).
/// Past that many a refusal ends the stream as before: an upstream that cannot renegotiate
/// (rawvideoparse, an appsrc with fixed caps) must not have the rest of its frames
/// dropped without a word. Until a frame's caps are seen taken, each frame is first checked
/// against what downstream takes now (a caps query) and, refused there, dropped within the
/// same budget without being pushed: an element past a `queue` that refuses one keeps the
/// queue refusing everything after it, so the frame must not reach it.
void fc_inner_note_renegotiation(FcInnerPair *pair);
/// Frames dropped that way (they count as dropped, not as processed).
guint64 fc_inner_renegotiation_drops(FcInnerPair *pair);


/// Makes the element's two pads forward into and out of the (still empty) inner pair.
void fc_inner_init(FcInnerPair *pair, GstPad *element_sink, GstPad *element_src);
/// Takes `sink` and `src` (floating refs are sunk), links them, and gives them a bus of
/// their own whose sync handler is `on_message` (called in the posting thread; it owns
/// the message and returns GST_BUS_DROP: nothing is queued).
void fc_inner_adopt(FcInnerPair *pair, GstElement *sink, GstElement *src,
                    GstBusSyncHandler on_message, gpointer data);
/// Names the pair after the element ("<name>-in", "<name>-out") for logs.
void fc_inner_name_after(FcInnerPair *pair, GstElement *element);
/// Both inner elements to `state` (READY or NULL).
gboolean fc_inner_set_state(FcInnerPair *pair, GstState state);
/// READY→PAUSED: internal pads active, both running (they have no clock: PLAYING is PAUSED).
gboolean fc_inner_start(FcInnerPair *pair);
/// PAUSED→READY: both to READY (unblocks their threads), internal pads inactive.
void fc_inner_stop(FcInnerPair *pair);
/// At finalize: unlinks and lets everything go.
void fc_inner_clear(FcInnerPair *pair);

/// A filter: a plain element with its own pads and a private inner pair.
typedef struct {
  GstElement parent;
  void *ctx;
  GstPad *sinkpad, *srcpad;
  FcInnerPair inner;
} FcFilterElement;

/// A source: a bin whose children Swift adds (a ghost src pad).
typedef struct {
  GstBin parent;
  void *ctx;
} FcSourceBin;

/// Registers the type of each shell for `spec` (kept for the type's lifetime).
GType fc_filter_element_register_type(const char *name, const FcElementSpec *spec);
GType fc_source_bin_register_type(const char *name, const FcElementSpec *spec);
