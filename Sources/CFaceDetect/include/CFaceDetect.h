// C API over OpenCV's CascadeClassifier (Viola–Jones face detection) for Swift.
// Swift cannot import C++ classes here, so this header is plain C; the C++ lives in
// CFaceDetect.cpp (the shared library libfiltercamfaces.so) and never lets an exception
// cross this boundary. The elements do not link that library: they load it on the first
// face search, so OpenCV costs nothing to a pipeline without faces, and call it through
// the function types below (one per function, named after it).
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded cascade. Not thread-safe: detection keeps scratch state in the classifier, so
/// callers serialize detection on one detector (Swift's FaceDetector does).
typedef struct CFDDetector CFDDetector;

/// One detection in the pixels of the grey image it was found in, with the number of
/// raw candidate windows merged into it (OpenCV's `numDetections`: more is surer).
/// `seed`: 1 for a group of the looser seed grouping (CFDParams.seed_group_eps), 0 for
/// detectMultiScale's own groups.
typedef struct {
  int32_t x, y, width, height;
  int32_t neighbors;
  int32_t seed;
} CFDRect;

/// Loads the cascade at `path`. On failure returns NULL and writes a message (which
/// names the path) into `error` (`error_size` bytes, always NUL-terminated).
CFDDetector *cfd_detector_create(const char *path, char *error, size_t error_size);
typedef CFDDetector *(*cfd_detector_create_fn)(const char *path, char *error, size_t error_size);

/// Frees a detector (NULL is fine).
void cfd_detector_free(CFDDetector *detector);
typedef void (*cfd_detector_free_fn)(CFDDetector *detector);

/// Detection parameters, as cv::CascadeClassifier::detectMultiScale takes them.
/// Sizes of 0 mean "no limit" (min: the cascade's window size).
/// With `seed_group_eps` > 0 the same raw windows are also grouped with that similarity
/// (OpenCV's groupRectangles eps; detectMultiScale's own is 0.2), keeping groups of more
/// than `seed_min_neighbors` windows, returned after the usual groups with `seed` = 1:
/// one cascade pass, two groupings.
typedef struct {
  double scale_factor;   // > 1, e.g. 1.1
  int32_t min_neighbors; // e.g. 3
  int32_t min_width, min_height;
  int32_t max_width, max_height;
  double seed_group_eps;       // 0: no seed groups
  int32_t seed_min_neighbors;
} CFDParams;

/// Detects on an 8-bit grey image (`stride` bytes per row, >= width). On success returns
/// the number of rects (>= 0) and, when > 0, a malloc'd array in `*rects` to be freed with
/// `cfd_rects_free`. On failure returns -1 and writes a message into `error`.
int32_t cfd_detect(CFDDetector *detector, const uint8_t *grey, int32_t width, int32_t height,
                   int32_t stride, CFDParams params, CFDRect **rects, char *error, size_t error_size);
typedef int32_t (*cfd_detect_fn)(CFDDetector *detector, const uint8_t *grey, int32_t width, int32_t height,
                                 int32_t stride, CFDParams params, CFDRect **rects, char *error, size_t error_size);

void cfd_rects_free(CFDRect *rects);
typedef void (*cfd_rects_free_fn)(CFDRect *rects);

/// OpenCV's worker thread count for its parallel loops (global; <= 0: OpenCV's default).
void cfd_set_num_threads(int32_t threads);
typedef void (*cfd_set_num_threads_fn)(int32_t threads);

#ifdef __cplusplus
}
#endif
