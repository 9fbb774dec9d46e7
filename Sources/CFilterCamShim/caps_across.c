// Caps carried across a filter element's geometry, for the CAPS queries on its pads
// (filter_element.c), as videoflip's and videocrop's transform_caps carry them: a 90° turn
// swaps width and height (and a fixed pixel aspect ratio); a lens crop maps each size to
// the lens's share of it on the way out, and back to the sizes that give it on the way in
// (Swift's LensCropSizes.swift does the arithmetic through the element's callbacks). The
// lens's edges snap to a grid of 2 on YUV frames, so a structure's formats are split into
// RGB and YUV ones, each carried with its own grid.
#include "shim.h"

static void swap_fields(GstStructure *s, const char *a, const char *b) {
  GValue va = G_VALUE_INIT, vb = G_VALUE_INIT;
  const GValue *pa = gst_structure_get_value(s, a), *pb = gst_structure_get_value(s, b);
  if (pa) {
    g_value_init(&va, G_VALUE_TYPE(pa));
    g_value_copy(pa, &va);
  }
  if (pb) {
    g_value_init(&vb, G_VALUE_TYPE(pb));
    g_value_copy(pb, &vb);
  }
  gst_structure_remove_fields(s, a, b, NULL);
  if (pb) gst_structure_take_value(s, a, &vb);
  if (pa) gst_structure_take_value(s, b, &va);
}

static gboolean format_is_yuv(const char *name) {
  GstVideoFormat format = gst_video_format_from_string(name);
  const GstVideoFormatInfo *info = format == GST_VIDEO_FORMAT_UNKNOWN ? NULL : gst_video_format_get_info(format);
  return info && GST_VIDEO_FORMAT_INFO_IS_YUV(info);
}

// The most sizes listed for one fixed size on the other side; more become a range.
#define FC_MOST_LISTED 64

static void set_int_or_range(GValue *out, int low, int high) {
  if (low == high) {
    g_value_init(out, G_TYPE_INT);
    g_value_set_int(out, low);
  } else {
    g_value_init(out, GST_TYPE_INT_RANGE);
    gst_value_set_int_range(out, low, high);
  }
}

// One size value (int, range or list) across the lens crop along `axis`; FALSE when no
// size on the other side fits it.
//
// A fixed size after the crop that no input size gives (an odd width on the chroma grid,
// where the lens's edges are even) is answered with the input sizes that come nearest,
// not refused: the element then names both sizes when its first frame is refused
// ("fc gives 320x240 I420, what follows it takes 321x241"). Refused here, the source
// failed before any frame, often while the pipeline was still starting, and stock
// gst-launch-1.0 waited for ever when that error came before its main loop ran.
static gboolean crop_value(const GValue *in, GValue *out, FcLensCrop crop, int axis, int grid, gboolean to_output) {
  if (G_VALUE_HOLDS_INT(in) || GST_VALUE_HOLDS_INT_RANGE(in)) {
    int low = G_VALUE_HOLDS_INT(in) ? g_value_get_int(in) : gst_value_get_int_range_min(in);
    int high = G_VALUE_HOLDS_INT(in) ? low : gst_value_get_int_range_max(in);
    if (to_output && low == high) {
      const int length = crop.length(crop.ctx, axis, low, grid);
      set_int_or_range(out, length, length);
      return TRUE;
    }
    int to_low = 0, to_high = 0;
    if (!crop.range(crop.ctx, axis, grid, to_output, low, high, &to_low, &to_high)) {
      if (to_output || low != high
          || !crop.range(crop.ctx, axis, grid, FALSE, MAX(1, low - grid), low + grid, &to_low, &to_high)) return FALSE;
      set_int_or_range(out, to_low, to_high);   // the nearest: see above
      return TRUE;
    }
    if (to_output || low != high || to_high - to_low >= FC_MOST_LISTED) {
      set_int_or_range(out, to_low, to_high);
      return TRUE;
    }
    // One size after the crop: exactly the sizes before it that give it. On the chroma
    // grid an odd size and the even one after it can both give it: the even ones come
    // first, as a source that takes the first of a list then gives what cameras give.
    GValue list = G_VALUE_INIT, one = G_VALUE_INIT;
    g_value_init(&list, GST_TYPE_LIST);
    g_value_init(&one, G_TYPE_INT);
    for (int odd = 0; odd <= 1; odd++) {
      for (gint64 size = to_low; size <= to_high; size++) {   // 64 bits: to_high may be G_MAXINT
        if (size % 2 != odd || crop.length(crop.ctx, axis, (int)size, grid) != low) continue;
        g_value_set_int(&one, (int)size);
        gst_value_list_append_value(&list, &one);
      }
    }
    g_value_unset(&one);
    if (gst_value_list_get_size(&list) == 0) {   // the range's ends fit, but not this one size
      g_value_unset(&list);
      set_int_or_range(out, to_low, to_high);   // the nearest: see above
      return TRUE;
    }
    if (gst_value_list_get_size(&list) == 1) {
      set_int_or_range(out, g_value_get_int(gst_value_list_get_value(&list, 0)), g_value_get_int(gst_value_list_get_value(&list, 0)));
      g_value_unset(&list);
    } else {
      *out = list;
    }
    return TRUE;
  }
  if (GST_VALUE_HOLDS_LIST(in)) {
    g_value_init(out, GST_TYPE_LIST);
    for (guint i = 0; i < gst_value_list_get_size(in); i++) {
      GValue each = G_VALUE_INIT;
      if (!crop_value(gst_value_list_get_value(in, i), &each, crop, axis, grid, to_output)) continue;
      if (GST_VALUE_HOLDS_LIST(&each)) {
        for (guint j = 0; j < gst_value_list_get_size(&each); j++) gst_value_list_append_value(out, gst_value_list_get_value(&each, j));
        g_value_unset(&each);
      } else {
        gst_value_list_append_and_take_value(out, &each);
      }
    }
    if (gst_value_list_get_size(out) > 0) return TRUE;
    g_value_unset(out);
    return FALSE;
  }
  set_int_or_range(out, 1, G_MAXINT);   // anything else: any size, as before
  return TRUE;
}

// `s` (its formats all of one grid) with its width and height across the lens crop, merged
// into `out`; dropped when a side fits no size.
static void add_cropped(GstCaps *out, GstStructure *s, GstCapsFeatures *features, FcLensCrop crop, int grid,
                        gboolean to_output) {
  static const char *const fields[2] = { "width", "height" };
  for (int axis = 0; axis < 2; axis++) {
    const GValue *in = gst_structure_get_value(s, fields[axis]);
    GValue value = G_VALUE_INIT;
    if (!in) {
      set_int_or_range(&value, 1, G_MAXINT);
    } else if (!crop_value(in, &value, crop, axis, grid, to_output)) {
      gst_structure_free(s);
      if (features) gst_caps_features_free(features);
      return;
    }
    gst_structure_take_value(s, fields[axis], &value);
  }
  gst_caps_append_structure_full(out, s, features);
}

// `s` across the lens crop: split by grid when its formats have both kinds.
static void add_cropped_by_grid(GstCaps *out, GstStructure *s, GstCapsFeatures *features, FcLensCrop crop,
                                gboolean to_output) {
  const GValue *formats = gst_structure_get_value(s, "format");
  if (formats && G_VALUE_HOLDS_STRING(formats)) {
    add_cropped(out, s, features, crop, format_is_yuv(g_value_get_string(formats)) ? 2 : 1, to_output);
    return;
  }
  if (!formats || !GST_VALUE_HOLDS_LIST(formats)) {   // no format named: either grid
    add_cropped(out, gst_structure_copy(s), features ? gst_caps_features_copy(features) : NULL, crop, 1, to_output);
    add_cropped(out, s, features, crop, 2, to_output);
    return;
  }
  GValue by_grid[2] = { G_VALUE_INIT, G_VALUE_INIT };
  g_value_init(&by_grid[0], GST_TYPE_LIST);
  g_value_init(&by_grid[1], GST_TYPE_LIST);
  for (guint i = 0; i < gst_value_list_get_size(formats); i++) {
    const GValue *format = gst_value_list_get_value(formats, i);
    gboolean yuv = G_VALUE_HOLDS_STRING(format) && format_is_yuv(g_value_get_string(format));
    gst_value_list_append_value(&by_grid[yuv ? 1 : 0], format);
  }
  for (int g = 0; g < 2; g++) {
    if (gst_value_list_get_size(&by_grid[g]) > 0) {
      GstStructure *part = gst_structure_copy(s);
      gst_structure_take_value(part, "format", &by_grid[g]);
      add_cropped(out, part, features ? gst_caps_features_copy(features) : NULL, crop, g + 1, to_output);
    } else {
      g_value_unset(&by_grid[g]);
    }
  }
  gst_structure_free(s);
  if (features) gst_caps_features_free(features);
}

GstCaps *fc_caps_across_geometry(GstCaps *caps, int geometry, gboolean to_output, FcLensCrop crop) {
  if (geometry == 0 || gst_caps_is_any(caps) || gst_caps_is_empty(caps)) return gst_caps_ref(caps);
  const gboolean turns = (geometry & FC_CAPS_SWAPS_AXES) != 0, crops = (geometry & FC_CAPS_LENS_CROP) != 0;
  GstCaps *out = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(caps); i++) {
    GstStructure *s = gst_structure_copy(gst_caps_get_structure(caps, i));
    GstCapsFeatures *features = gst_caps_get_features(caps, i);
    features = features ? gst_caps_features_copy(features) : NULL;
    gint par_n, par_d;
    if (turns) {
      if (gst_structure_get_fraction(s, "pixel-aspect-ratio", &par_n, &par_d))
        gst_structure_set(s, "pixel-aspect-ratio", GST_TYPE_FRACTION, par_d, par_n, NULL);
      // The lens is in the turned picture: turn before the crop on the way out, after it back.
      if (to_output || !crops) swap_fields(s, "width", "height");
    }
    if (!crops) {
      out = gst_caps_merge_structure_full(out, s, features);
      continue;
    }
    GstCaps *cropped = gst_caps_new_empty();
    add_cropped_by_grid(cropped, s, features, crop, to_output);
    if (turns && !to_output) {
      for (guint j = 0; j < gst_caps_get_size(cropped); j++) swap_fields(gst_caps_get_structure(cropped, j), "width", "height");
    }
    out = gst_caps_merge(out, cropped);
  }
  return out;
}
