#pragma once
#include <gst/gst.h>
