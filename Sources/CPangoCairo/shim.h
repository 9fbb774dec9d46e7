// Pango (text layout) drawing through Cairo: the on-screen display's text.
#include <pango/pangocairo.h>
