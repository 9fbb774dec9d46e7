// The web side's TLS handshakes, before libsoup sees a connection (tls_front_door.c);
// private to this target.
#pragma once
#include <libsoup/soup.h>

typedef struct FcTlsFrontDoor FcTlsFrontDoor;

/// Listens on `address` (port 0: any free one, written to `port`); each connection that
/// completes its TLS handshake with `certificate` is handed to `soup` as an HTTPS one.
FcTlsFrontDoor *fc_tls_front_door_open(SoupServer *soup, GSocketAddress *address, GTlsCertificate *certificate,
                                       int *port, GError **error);

/// Stops listening; handshakes under way are called off.
void fc_tls_front_door_close(FcTlsFrontDoor *door);
