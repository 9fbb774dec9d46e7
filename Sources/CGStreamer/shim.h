#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
// GstHarness, for the element tests. Declarations only: the module map does not link
// libgstcheck, the test target that calls it does (Package.swift).
#include <gst/check/gstharness.h>
