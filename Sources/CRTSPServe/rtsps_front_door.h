// The rtsps port's door (rtsps_front_door.c); private to this target.
#pragma once
#include <gst/rtsp-server/rtsp-server.h>

typedef struct FcRtspsFrontDoor FcRtspsFrontDoor;

/// Listens on the server's address and port (in place of gst_rtsp_server_create_source),
/// on CONTEXT; each connection is handed to the server once its TLS hello is in, or
/// closed after 10 s without one.
FcRtspsFrontDoor *fc_rtsps_front_door_open(GstRTSPServer *server, GMainContext *context, GError **error);

/// The port bound.
int fc_rtsps_front_door_port(FcRtspsFrontDoor *door);

/// Gives a handed-over client's connection its TLS (call from "client-connected").
void fc_rtsps_front_door_secure(GstRTSPServer *server, GstRTSPClient *client);

/// Stops listening and closes the connections still waiting (after the context stops).
void fc_rtsps_front_door_close(FcRtspsFrontDoor *door);
