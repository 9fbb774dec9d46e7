// Pango (text layout) and Cairo (drawing): the on-screen display's text and PNG looks.
// Not linked: libpangocairo brings ~30 libraries (HarfBuzz, fontconfig, FreeType, X11,
// xcb, …) whose loading every pipeline would pay at start, so it is loaded on first use
// and called through this table, each function typed as its own header declares it.
#pragma once
#include <pango/pangocairo.h>
#include <stddef.h>

#define FC_PANGO_CAIRO_FUNCTIONS(X) \
  X(cairo_create) X(cairo_destroy) X(cairo_translate) X(cairo_set_line_width) X(cairo_set_source_rgba) \
  X(cairo_rectangle) X(cairo_arc) X(cairo_move_to) X(cairo_stroke) X(cairo_fill) \
  X(cairo_format_stride_for_width) X(cairo_image_surface_create) X(cairo_image_surface_create_for_data) \
  X(cairo_image_surface_create_from_png) X(cairo_image_surface_get_data) X(cairo_image_surface_get_format) \
  X(cairo_image_surface_get_width) X(cairo_image_surface_get_height) X(cairo_image_surface_get_stride) \
  X(cairo_surface_status) X(cairo_status_to_string) X(cairo_surface_flush) X(cairo_surface_mark_dirty) \
  X(cairo_surface_destroy) \
  X(pango_cairo_create_layout) X(pango_cairo_show_layout) X(pango_layout_set_text) \
  X(pango_layout_set_font_description) X(pango_layout_set_width) X(pango_layout_set_ellipsize) \
  X(pango_layout_get_pixel_extents) X(pango_font_description_from_string) \
  X(pango_font_description_set_absolute_size) X(pango_font_description_free)

/// The functions FilterCam calls, one field per function, named after it.
typedef struct {
#define FC_PANGO_CAIRO_FIELD(name) __typeof__(name) *name;
  FC_PANGO_CAIRO_FUNCTIONS(FC_PANGO_CAIRO_FIELD)
#undef FC_PANGO_CAIRO_FIELD
} FcPangoCairo;

/// Loads libpangocairo (and through it Pango and Cairo) on the first call, once per
/// process. The table, or NULL with the reason (naming the library) in `error`.
const FcPangoCairo *fc_pango_cairo_load(char *error, size_t error_size);
