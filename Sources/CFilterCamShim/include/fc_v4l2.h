// V4L2 ioctls for the camera source (filtercamsrc, `filtercam devices`): ioctl is variadic
// and the VIDIOC_* request numbers are function-like macros, so Swift cannot call them.
#pragma once
#include <stdint.h>

/// One control as VIDIOC_QUERYCTRL reports it (type: V4L2_CTRL_TYPE_*).
typedef struct {
  uint32_t id;
  char name[32];
  int32_t type;
  int64_t minimum, maximum, step, default_value;
  uint32_t flags;
} FcV4L2Control;

/// The controls of an open device (class headers and disabled controls skipped), at most
/// `capacity`; returns how many, or -errno.
int fc_v4l2_query_controls(int fd, FcV4L2Control *out, int capacity);

/// The value (integer menus) or name (menus) of menu item `index`: 0, or errno when the
/// item does not exist.
int fc_v4l2_query_menu(int fd, uint32_t id, uint32_t index, int64_t *value, char *name, int name_capacity);

/// VIDIOC_S_CTRL: 0 or errno.
int fc_v4l2_set_control(int fd, uint32_t id, int32_t value);

/// VIDIOC_QUERYCAP: 0 or errno; `capabilities` are the node's device caps.
int fc_v4l2_query_capabilities(int fd, char *card, int card_capacity, uint32_t *capabilities);

/// Whether `capabilities` include single- or multi-planar video capture.
int fc_v4l2_can_capture(uint32_t capabilities);
