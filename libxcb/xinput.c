/* SPDX-License-Identifier: MIT */
/* xinput.c — libxcb's form of the one XInput accessor whose xwire form differs. */
#include <xw/xinput.h>

XW_EXPORT int32_t *xcb_input_device_time_coord_axisvalues(const xw_input_device_time_coord_t *R);

/** libxcb's xcb_input_device_time_coord_axisvalues(R): the axis values follow the
 * fixed part, wherever the list ends (xwire's xw_ form also takes num_axes, which the
 * start does not depend on). */
int32_t *xcb_input_device_time_coord_axisvalues(const xw_input_device_time_coord_t *R)
{
    return xw_input_device_time_coord_axisvalues(R, 0);
}
