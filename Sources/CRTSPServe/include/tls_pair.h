// A TLS certificate and its key, read for a server and checked to belong together. The
// header names no GLib type but the certificate's (opaque here), as server_loop.h.
#pragma once

struct _GTlsCertificate;

/// The certificate and key in the PEM files `certificate_file` and `key_file`, once a TLS
/// handshake made with them on this machine has succeeded: GLib reads any certificate with
/// any key, and a server given the key of another certificate served handshakes no client
/// could finish, saying nothing. NULL and *error (free with g_free) when they cannot be
/// read or do not belong together.
struct _GTlsCertificate *fc_tls_certificate_load(const char *certificate_file, const char *key_file, char **error);
