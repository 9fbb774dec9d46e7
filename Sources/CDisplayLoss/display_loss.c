#define _GNU_SOURCE
#include "display_loss.h"

#include <X11/Xlib.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

// Xlib answers a lost X server connection with exit(1), from whichever thread noticed it:
// a video sink's, mid-frame, so a recording from the window never got its index (Ctrl-C
// under xvfb-run stops the virtual display with the program). libX11 1.7 lets a display
// have an exit handler that returns instead; the window sinks open their displays
// themselves (glimagesink's GL display, ximagesink's and xvimagesink's own), so every
// display this program opens gets one here, where it is opened: this XOpenDisplay takes
// the place of libX11's for the whole process (the executable's symbols come first) and
// calls it. After the handler the display only fails (Xlib checks its error flag); the
// session sees the loss, stops feeding the windows, finishes recordings and ends.

static atomic_int lost;
static atomic_int claimed;
static char lost_name[128];

// The session says it once, in its words (Xlib's own lines come once per connection).
static int quiet_io_error(Display *display) {
  (void)display;
  return 0;
}

static void display_lost(Display *display, void *data) {
  (void)data;
  if (atomic_exchange(&claimed, 1) == 0) {
    const char *name = DisplayString(display);
    strncpy(lost_name, name ? name : "", sizeof lost_name - 1);
    atomic_store(&lost, 1);
  }
  // Xlib took the display's user lock for exit() and keeps it: given back, other threads'
  // calls on the dead display fail at once instead of waiting for it forever (seen: exit()
  // hung in libGLX's clean-up, XCloseDisplay waiting for the sink's thread's lock).
  XUnlockDisplay(display);
}

// A request the server refused: Xlib's default handler exits too. While the server goes
// away a request can name a window another connection of the same sink already lost
// (glimagesink: GLXBadDrawable on its swap), so a refusal ends the app the same way.
static atomic_int refused;
static atomic_int refusal_claimed;
static char refusal[160];

static int note_refusal(Display *display, XErrorEvent *event) {
  if (atomic_exchange(&refusal_claimed, 1) == 0) {
    char text[96] = "";
    XGetErrorText(display, event->error_code, text, sizeof text);
    snprintf(refusal, sizeof refusal, "%s, request %d.%d", text, event->request_code, event->minor_code);
    atomic_store(&refused, 1);
  }
  return 0;
}

typedef Display *(*OpenDisplay)(const char *);
static OpenDisplay xlib_open_display;

static void find_xlib(void) {
  xlib_open_display = (OpenDisplay)dlsym(RTLD_NEXT, "XOpenDisplay");
  XSetIOErrorHandler(quiet_io_error);
  XSetErrorHandler(note_refusal);
}

Display *XOpenDisplay(const char *name) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, find_xlib);
  Display *display = xlib_open_display ? xlib_open_display(name) : NULL;
  if (display) XSetIOErrorExitHandler(display, display_lost, NULL);
  return display;
}

// What happened, for the session: 1 and the text once `flag` is raised.
static int report(atomic_int *flag, const char *what, char *text, size_t size) {
  if (!atomic_load(flag)) return 0;
  if (size > 0) {
    strncpy(text, what, size - 1);
    text[size - 1] = '\0';
  }
  return 1;
}

int fc_display_lost(char *name, size_t size) { return report(&lost, lost_name, name, size); }

int fc_display_refused(char *text, size_t size) { return report(&refused, refusal, text, size); }
