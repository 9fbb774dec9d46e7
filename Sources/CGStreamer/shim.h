#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
