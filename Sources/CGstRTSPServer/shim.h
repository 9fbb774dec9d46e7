#include <gst/rtsp-server/rtsp-server.h>
