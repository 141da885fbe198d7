/* SPDX-License-Identifier: MIT */
/* present.c — libxcb's form of the one Present function whose xwire form differs. */
#include <xw/present.h>

XW_EXPORT int xcb_present_redirect_notify_sizeof(const void *buffer, uint32_t notifies_len);

/** libxcb's xcb_present_redirect_notify_sizeof(): the size of a RedirectNotify event
 * with notifies_len notifies, as the caller says (xwire's xw_ form reads the count
 * from the event's length field instead). Pure arithmetic. */
int xcb_present_redirect_notify_sizeof(const void *buffer, uint32_t notifies_len)
{
    (void)buffer;
    return (int)(sizeof(xw_present_redirect_notify_event_t) + notifies_len * sizeof(xw_present_notify_t));
}
