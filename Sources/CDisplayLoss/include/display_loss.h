// Whether the X server of the program's windows went away (Xvfb stopped, an X session
// ended), for the `filtercam` app. C because it needs Xlib; the header names no X type.
#pragma once

#include <stddef.h>

/// 1 once any X display connection of this process was lost, with the display's name
/// (":99") written into `name` (`size` bytes, NUL-terminated); 0 while none was.
int fc_display_lost(char *name, size_t size);

/// 1 once the X server refused a request of this process (an X protocol error, which
/// Xlib would have ended the process for), with the error written into `text`.
int fc_display_refused(char *text, size_t size);
