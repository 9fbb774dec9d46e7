#include "fc_v4l2.h"
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

static int xioctl(int fd, unsigned long request, void *arg) {
  int r;
  do { r = ioctl(fd, request, arg); } while (r == -1 && errno == EINTR);
  return r == -1 ? errno : 0;
}

int fc_v4l2_query_controls(int fd, FcV4L2Control *out, int capacity) {
  int n = 0;
  struct v4l2_queryctrl q;
  memset(&q, 0, sizeof q);
  q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
  while (n < capacity) {
    int e = xioctl(fd, VIDIOC_QUERYCTRL, &q);
    if (e == EINVAL) break;          // no more controls
    if (e) return n ? n : -e;
    if (q.type != V4L2_CTRL_TYPE_CTRL_CLASS && !(q.flags & V4L2_CTRL_FLAG_DISABLED)) {
      FcV4L2Control *c = &out[n++];
      c->id = q.id;
      memcpy(c->name, q.name, sizeof c->name);
      c->name[sizeof c->name - 1] = 0;
      c->type = (int32_t)q.type;
      c->minimum = q.minimum;
      c->maximum = q.maximum;
      c->step = q.step;
      c->default_value = q.default_value;
      c->flags = q.flags;
    }
    q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
  }
  return n;
}

int fc_v4l2_query_menu(int fd, uint32_t id, uint32_t index, int64_t *value, char *name, int name_capacity) {
  struct v4l2_querymenu m;
  memset(&m, 0, sizeof m);
  m.id = id;
  m.index = index;
  int e = xioctl(fd, VIDIOC_QUERYMENU, &m);
  if (e) return e;
  if (value) *value = m.value;
  if (name && name_capacity > 0) {
    strncpy(name, (const char *)m.name, (size_t)name_capacity - 1);
    name[name_capacity - 1] = 0;
  }
  return 0;
}

int fc_v4l2_set_control(int fd, uint32_t id, int32_t value) {
  struct v4l2_control c = { .id = id, .value = value };
  return xioctl(fd, VIDIOC_S_CTRL, &c);
}

int fc_v4l2_query_capabilities(int fd, char *card, int card_capacity, uint32_t *capabilities) {
  struct v4l2_capability cap;
  memset(&cap, 0, sizeof cap);
  int e = xioctl(fd, VIDIOC_QUERYCAP, &cap);
  if (e) return e;
  if (card && card_capacity > 0) {
    strncpy(card, (const char *)cap.card, (size_t)card_capacity - 1);
    card[card_capacity - 1] = 0;
  }
  if (capabilities)
    *capabilities = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
  return 0;
}

int fc_v4l2_can_capture(uint32_t capabilities) {
  return (capabilities & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)) != 0;
}
