// Flushing the standard output at exit, for the `filtercam` program: Swift 6 cannot name
// C's `stdout` (a global variable), and fflush(NULL) would lock every stream, stdin
// included, on which the command reader's thread may be blocked.
#include <errno.h>
#include <stdio.h>
#include "shim.h"

int fc_flush_standard_output(void) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
  return errno != 0 ? errno : EIO;
}
