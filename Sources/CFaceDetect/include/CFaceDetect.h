// C API over OpenCV's CascadeClassifier (Viola–Jones face detection) for Swift.
// Swift cannot import C++ classes here, so this header is plain C; the C++ lives in
// CFaceDetect.cpp and never lets an exception cross this boundary.
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
typedef struct {
  int32_t x, y, width, height;
  int32_t neighbors;
} CFDRect;

/// Loads the cascade at `path`. On failure returns NULL and writes a message (which
/// names the path) into `error` (`error_size` bytes, always NUL-terminated).
CFDDetector *cfd_detector_create(const char *path, char *error, size_t error_size);

/// Frees a detector (NULL is fine).
void cfd_detector_free(CFDDetector *detector);

/// Detection parameters, as cv::CascadeClassifier::detectMultiScale takes them.
/// Sizes of 0 mean "no limit" (min: the cascade's window size).
typedef struct {
  double scale_factor;   // > 1, e.g. 1.1
  int32_t min_neighbors; // e.g. 3
  int32_t min_width, min_height;
  int32_t max_width, max_height;
} CFDParams;

/// Detects on an 8-bit grey image (`stride` bytes per row, >= width). On success returns
/// the number of rects (>= 0) and, when > 0, a malloc'd array in `*rects` to be freed with
/// `cfd_rects_free`. On failure returns -1 and writes a message into `error`.
int32_t cfd_detect(CFDDetector *detector, const uint8_t *grey, int32_t width, int32_t height,
                   int32_t stride, CFDParams params, CFDRect **rects, char *error, size_t error_size);

void cfd_rects_free(CFDRect *rects);

/// OpenCV's worker thread count for its parallel loops (global; <= 0: OpenCV's default).
void cfd_set_num_threads(int32_t threads);
int32_t cfd_get_num_threads(void);

/// Sets the nice value of the calling thread only (Linux threads have their own; Swift
/// cannot see gettid() without _GNU_SOURCE). Returns 0 on success, -1 otherwise.
int32_t cfd_set_current_thread_nice(int32_t nice);

#ifdef __cplusplus
}
#endif
