// Who may use the web side of `filtercam serve` (web_access.c); private to this target.
#pragma once
#include <libsoup/soup.h>

/// The most a request body may hold (an SDP offer is a few kB; a command a line).
#define FC_WEB_BODY_LIMIT (64 * 1024)

/// Requires a password for every path: Digest always, Basic too over TLS (the password then
/// travels encrypted), as the RTSP side does; over TLS also a WHEP player's bearer token
/// USER:PASSWORD.
void fc_access_require_password(SoupServer *server, const char *const *users, const char *const *passwords,
                                int n_users, gboolean tls);

/// The user whose password a request gave ("" when the server takes none). Only for a
/// request past the password check (libsoup checked the name with the password).
const char *fc_access_user(SoupServerMessage *msg);

/// Refuses bodies over FC_WEB_BODY_LIMIT (413) and bodies of unknown length (411) once the
/// headers are in, and answers a request refused then (a password missing) at once and
/// closes its connection: its body is never read. A request not sent whole within 10 s
/// of its connection's start (trickled, or left half sent) is closed, over TLS too.
void fc_access_limit_bodies(SoupServer *server);

/// Whether the request may go on; if not, its status and reason are set. Without a
/// password the Host must name this machine (a page elsewhere cannot reach the server
/// through a name it controls): on loopback a loopback address or localhost; served to
/// the network (--no-auth) an address, localhost or this machine's own name. A request
/// that changes something must come from the server's own page (Origin) or from no page.
gboolean fc_access_check(SoupServerMessage *msg, gboolean no_password, gboolean loopback_only, gboolean tls);
