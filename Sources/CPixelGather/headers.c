// The headers are the whole module (static inline functions Swift inlines into FilterCore's
// loops). This file compiles them once more so that a header edit rebuilds FilterCore:
// SwiftPM tracks the headers a C target's own files include, not those of a header-only
// system library (a header change used to leave a stale build that benchmarks then measured).
#include "pixel_gather.h"
#include "plane_transpose.h"
#include "packed_turn.h"
#include "row_reverse.h"
#include "colour_matrix_rows.h"
