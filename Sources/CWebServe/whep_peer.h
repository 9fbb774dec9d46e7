// One WebRTC viewer of `filtercam serve` (whep_peer.c); private to this target.
#pragma once
#include <gio/gio.h>
#include "encoded_stream.h"

typedef struct FcWhepPeer FcWhepPeer;

/// Called once, from one of the peer's threads: the answer SDP with the server's ICE
/// candidates (owned by the callee), or NULL and why not.
typedef void (*FcWhepAnswered)(const char *peer_id, char *answer, const char *error, void *data);

/// Checks the offer and starts answering it: the peer's own pipeline (an appsrc fed by
/// `stream`, rtph264pay, webrtcbin) answers with H.264 on the offer's payload type.
/// Its ICE candidates are on `local`, the address the server serves on (a loopback one:
/// 127.0.0.1 and ::1), or on every network of this machine when `local` is NULL (the
/// server serves on all of them); with `upnp`, also on the public address the router's
/// UPnP port mapping gives (never for loopback). Returns NULL and sets *error (the reason
/// for a 400) when the offer cannot be answered.
FcWhepPeer *fc_whep_peer_new(FcEncodedStream *stream, const char *offer, GInetAddress *local, gboolean upnp,
                             const char *id, FcWhepAnswered answered, void *data, char **error);

/// Answers now with the candidates gathered so far (gathering took too long).
void fc_whep_peer_answer_now(FcWhepPeer *peer);

/// Adds the remote candidates of a trickle-ICE fragment (`a=candidate:` lines).
/// FALSE when the fragment holds neither a candidate nor the end of candidates (RFC 8840).
gboolean fc_whep_peer_add_candidates(FcWhepPeer *peer, const char *fragment);

/// Whether the viewer is still there: it sent RTCP within the last 10 s (within 20 s of
/// the offer for the first), and neither said goodbye nor failed.
gboolean fc_whep_peer_alive(FcWhepPeer *peer);

/// Microseconds since the offer of a viewer that has sent no RTCP yet (not connected, or
/// never going to), or -1 for one that has.
gint64 fc_whep_peer_unconnected_for(FcWhepPeer *peer);

/// Stops the peer's pipeline and drops the caller's reference.
void fc_whep_peer_close(FcWhepPeer *peer);
