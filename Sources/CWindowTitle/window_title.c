#include "window_title.h"

#include <gst/gst.h>
#include <gst/gl/gl.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <string.h>

// One connection for every title change: the app's own, not the sink's (whose display
// connection belongs to its GL thread).
static Display *title_display(void) {
  static Display *display;
  if (!display) display = XOpenDisplay(NULL);
  return display;
}

static int set_x11_title(Window window, const char *title) {
  Display *display = title_display();
  if (!display || window == 0) return 0;
  // WM_NAME (what xwininfo, xprop and old window managers read) and _NET_WM_NAME (what
  // current window managers show), both the title's UTF-8 bytes typed UTF8_STRING: stored
  // as Latin-1 text (XStoreName) they read back garbled ("FilterCam \342\200\224 Sepia"), and
  // Xlib's own conversions dropped the em dash outside a UTF-8 locale.
  Atom utf8 = XInternAtom(display, "UTF8_STRING", False);
  const char *names[] = {"WM_NAME", "_NET_WM_NAME"};
  for (int i = 0; i < 2; i++) {
    XChangeProperty(display, window, XInternAtom(display, names[i], False), utf8, 8, PropModeReplace,
                    (const unsigned char *)title, (int)strlen(title));
  }
  XFlush(display);
  return 1;
}

static int set_gl_window_title(GstElement *sink, const char *title) {
  GstGLContext *context = NULL;
  g_object_get(sink, "context", &context, NULL);
  if (!context) return 0;   // no frame yet
  int done = 0;
  GstGLWindow *window = gst_gl_context_get_window(context);
  if (window) {
    GstGLDisplay *display = gst_gl_context_get_display(context);
    if (display && (gst_gl_display_get_handle_type(display) & GST_GL_DISPLAY_TYPE_X11))
      done = set_x11_title((Window)gst_gl_window_get_window_handle(window), title);
    if (display) gst_object_unref(display);
    gst_object_unref(window);
  }
  gst_object_unref(context);
  return done;
}

static int send_title_tag(GstElement *sink, const char *title) {
  GstPad *pad = gst_element_get_static_pad(sink, "sink");
  if (!pad) return 0;
  GstTagList *tags = gst_tag_list_new(GST_TAG_TITLE, title, NULL);
  gst_tag_list_set_scope(tags, GST_TAG_SCOPE_STREAM);
  gboolean sent = gst_pad_send_event(pad, gst_event_new_tag(tags));
  gst_object_unref(pad);
  return sent ? 1 : 0;
}

int fc_window_title_set(void *sink, const char *title) {
  GstElement *element = GST_ELEMENT(sink);
  GParamSpec *context = g_object_class_find_property(G_OBJECT_GET_CLASS(element), "context");
  if (context && g_type_is_a(context->value_type, GST_TYPE_GL_CONTEXT))
    return set_gl_window_title(element, title);
  return send_title_tag(element, title);
}
