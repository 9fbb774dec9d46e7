// The file the running FilterCam code was loaded from: the plugin (libgstfiltercam.so),
// or the program that links it. Files shipped beside it (the face detector's library)
// are looked for there. dladdr needs _GNU_SOURCE, which Swift's Glibc module lacks.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include "shim.h"

char *fc_own_file_path(void) {
  Dl_info info;
  struct link_map *map = NULL;
  if (!dladdr1((const void *)&fc_own_file_path, &info, (void **)&map, RTLD_DL_LINKMAP)) return NULL;
  // The main program's link map has an empty name (dladdr then gives argv[0], which may
  // be a bare name found on PATH): the kernel's link to the executable is exact.
  if (!map || !map->l_name || !map->l_name[0]) return realpath("/proc/self/exe", NULL);
  return realpath(map->l_name, NULL);
}
