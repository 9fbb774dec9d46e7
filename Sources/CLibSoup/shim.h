#define GST_USE_UNSTABLE_API
#include <libsoup/soup.h>
#include <gst/webrtc/webrtc.h>
#include <nice/agent.h>
