// The file the running FilterCam code was loaded from: the plugin (libgstfiltercam.so),
// or the program that links it. Files shipped beside it (the face detector's library)
// are looked for there. dladdr needs _GNU_SOURCE, which Swift's Glibc module lacks.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "shim.h"

// The running executable's path. A binary replaced since it started (a rebuild, an
// upgrade) reads as "PATH (deleted)", which realpath refuses: its folder still holds
// what was shipped beside it, so the path without the suffix is given.
static char *running_program_path(void) {
  char *resolved = realpath("/proc/self/exe", NULL);
  if (resolved) return resolved;
  char link[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", link, sizeof link - 1);
  if (n <= 0) return NULL;
  link[n] = 0;
  static const char deleted[] = " (deleted)";
  size_t length = (size_t)n, suffix = sizeof deleted - 1;
  if (length > suffix && strcmp(link + length - suffix, deleted) == 0) link[length - suffix] = 0;
  return strdup(link);
}

char *fc_own_file_path(void) {
  Dl_info info;
  struct link_map *map = NULL;
  if (!dladdr1((const void *)&fc_own_file_path, &info, (void **)&map, RTLD_DL_LINKMAP)) return NULL;
  // The main program's link map has an empty name (dladdr then gives argv[0], which may
  // be a bare name found on PATH): the kernel's link to the executable is exact.
  if (!map || !map->l_name || !map->l_name[0]) return running_program_path();
  return realpath(map->l_name, NULL);
}
