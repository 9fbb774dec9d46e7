#include "pango_cairo.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static FcPangoCairo table;
static const FcPangoCairo *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  // The soname Debian's libpangocairo-1.0-0 installs; its dependencies (Pango, Cairo)
  // come with it, and dlsym on its handle finds their functions too.
  static const char library[] = "libpangocairo-1.0.so.0";
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(failure, sizeof failure, "%s (Debian: libpangocairo-1.0-0)", dlerror());
    return;
  }
#define FC_PANGO_CAIRO_RESOLVE(name)                                                   \
  if (!(table.name = (__typeof__(table.name))dlsym(handle, #name))) {                  \
    snprintf(failure, sizeof failure, "%s has no %s (too old?)", library, #name);      \
    return;                                                                            \
  }
  FC_PANGO_CAIRO_FUNCTIONS(FC_PANGO_CAIRO_RESOLVE)
#undef FC_PANGO_CAIRO_RESOLVE
  loaded = &table;
}

const FcPangoCairo *fc_pango_cairo_load(char *error, size_t error_size) {
  pthread_once(&once, load);
  if (!loaded && error && error_size) snprintf(error, error_size, "%s", failure);
  return loaded;
}
