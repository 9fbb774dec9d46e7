// The title of a video sink's own window, for the `filtercam` app ("FilterCam - Sepia").
// C because it needs Xlib and GStreamer's GL library, which the loadable plugin should not
// link; the header names no GStreamer or X type.
#pragma once

/// Sets the title of the window `sink` (a GstElement *) shows its picture in.
/// glimagesink: its GL window's X11 title (glimagesink has no title of its own; it calls
/// every window "OpenGL renderer"). ximagesink, xvimagesink and other sinks that title
/// their window from the stream's tags: a `title` tag sent to their sink pad.
/// Returns 1 when the title was set, 0 when the sink has no window yet (call again after
/// its first frame) or no way to title it.
int fc_window_title_set(void *sink, const char *title);
