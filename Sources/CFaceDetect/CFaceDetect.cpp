// OpenCV's CascadeClassifier behind a C API (see include/CFaceDetect.h),
// built as its own shared library (libfiltercamfaces.so) that the elements load on the
// first face search. Every entry point catches everything: a C++ exception must not
// unwind into Swift.
#include "CFaceDetect.h"

#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <sys/stat.h>
#include <type_traits>
#include <vector>

// The loader calls these through the header's function types: they must match.
static_assert(std::is_same<decltype(&cfd_detector_create), cfd_detector_create_fn>::value, "cfd_detector_create");
static_assert(std::is_same<decltype(&cfd_detector_free), cfd_detector_free_fn>::value, "cfd_detector_free");
static_assert(std::is_same<decltype(&cfd_detect), cfd_detect_fn>::value, "cfd_detect");
static_assert(std::is_same<decltype(&cfd_rects_free), cfd_rects_free_fn>::value, "cfd_rects_free");
static_assert(std::is_same<decltype(&cfd_set_num_threads), cfd_set_num_threads_fn>::value, "cfd_set_num_threads");

struct CFDDetector {
  cv::CascadeClassifier cascade;
};

namespace {

void writeError(char *error, size_t size, const std::string &text) {
  if (!error || size == 0) return;
  std::snprintf(error, size, "%s", text.c_str());
}

std::string describe(const cv::Exception &e) {
  // e.what() repeats file/line; the short message is enough for users.
  return e.err.empty() ? std::string(e.what()) : e.err;
}

}  // namespace

extern "C" CFDDetector *cfd_detector_create(const char *path, char *error, size_t error_size) {
  const std::string p = path ? path : "";
  try {
    struct stat st;
    if (p.empty()) {
      writeError(error, error_size, "face cascade path is empty");
      return nullptr;
    }
    if (stat(p.c_str(), &st) != 0) {
      writeError(error, error_size, "face cascade '" + p + "': " + std::strerror(errno));
      return nullptr;
    }
    if (!S_ISREG(st.st_mode)) {
      writeError(error, error_size, "face cascade '" + p + "' is not a regular file");
      return nullptr;
    }
    auto *d = new (std::nothrow) CFDDetector();
    if (!d) {
      writeError(error, error_size, "face cascade '" + p + "': out of memory");
      return nullptr;
    }
    bool loaded = false;
    std::string why = "not a valid OpenCV cascade file";
    try {
      loaded = d->cascade.load(p) && !d->cascade.empty();
    } catch (const cv::Exception &e) {
      why = "not a valid OpenCV cascade file (" + describe(e) + ")";
    }
    if (!loaded) {
      delete d;
      writeError(error, error_size, "face cascade '" + p + "': " + why);
      return nullptr;
    }
    return d;
  } catch (const std::exception &e) {
    writeError(error, error_size, "face cascade '" + p + "': " + e.what());
  } catch (...) {
    writeError(error, error_size, "face cascade '" + p + "': unknown error");
  }
  return nullptr;
}

extern "C" void cfd_detector_free(CFDDetector *detector) {
  try {
    delete detector;
  } catch (...) {
  }
}

extern "C" int32_t cfd_detect(CFDDetector *detector, const uint8_t *grey, int32_t width, int32_t height,
                              int32_t stride, CFDParams params, CFDRect **rects, char *error,
                              size_t error_size) {
  if (rects) *rects = nullptr;
  if (!detector || !grey || !rects || width <= 0 || height <= 0 || stride < width) {
    writeError(error, error_size, "face detection: invalid arguments");
    return -1;
  }
  if (!(params.scale_factor > 1.0)) {
    writeError(error, error_size, "face detection: scale factor must be > 1");
    return -1;
  }
  try {
    // A header over the caller's memory: no copy.
    const cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(grey), static_cast<size_t>(stride));
    std::vector<cv::Rect> found, seeds;
    std::vector<int> neighbors, seedNeighbors;
    const bool withSeeds = params.seed_group_eps > 0;
    // With seeds: the raw windows (minNeighbors 0 leaves them ungrouped), grouped twice;
    // detectMultiScale's own grouping is groupRectangles(minNeighbors, 0.2).
    detector->cascade.detectMultiScale(image, found, neighbors, params.scale_factor, withSeeds ? 0 : params.min_neighbors,
                                       0, cv::Size(params.min_width, params.min_height),
                                       cv::Size(params.max_width, params.max_height));
    if (withSeeds) {
      seeds = found;
      if (params.min_neighbors > 0) cv::groupRectangles(found, neighbors, params.min_neighbors, 0.2);
      cv::groupRectangles(seeds, seedNeighbors, std::max(1, params.seed_min_neighbors), params.seed_group_eps);
    }
    const size_t count = found.size() + seeds.size();
    if (count == 0) return 0;
    auto *out = static_cast<CFDRect *>(std::malloc(count * sizeof(CFDRect)));
    if (!out) {
      writeError(error, error_size, "face detection: out of memory");
      return -1;
    }
    for (size_t i = 0; i < found.size(); i++) {
      const int32_t n = i < neighbors.size() ? neighbors[i] : 0;
      out[i] = CFDRect{found[i].x, found[i].y, found[i].width, found[i].height, n, 0};
    }
    for (size_t i = 0; i < seeds.size(); i++) {
      const int32_t n = i < seedNeighbors.size() ? seedNeighbors[i] : 0;
      out[found.size() + i] = CFDRect{seeds[i].x, seeds[i].y, seeds[i].width, seeds[i].height, n, 1};
    }
    *rects = out;
    return static_cast<int32_t>(count);
  } catch (const cv::Exception &e) {
    writeError(error, error_size, "face detection: " + describe(e));
  } catch (const std::exception &e) {
    writeError(error, error_size, std::string("face detection: ") + e.what());
  } catch (...) {
    writeError(error, error_size, "face detection: unknown error");
  }
  return -1;
}

extern "C" void cfd_rects_free(CFDRect *rects) { std::free(rects); }

extern "C" void cfd_set_num_threads(int32_t threads) {
  try {
    cv::setNumThreads(threads);
  } catch (...) {
  }
}
