/* SPDX-License-Identifier: MIT */
#ifndef XW_EVENT_H
#define XW_EVENT_H
/* xw_event.h — xcb-util's event helpers (<xcb/xcb_event.h>) on xwire: the response
 * type without its SendEvent bit, and labels for core events, errors and requests.
 * Part of libxwire-util. */
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The bits of response_type that give the event's code (the top bit marks an event
 * that came through SendEvent). */
#define XW_EVENT_RESPONSE_TYPE_MASK (0x7f)
/** The code of event `e` (a pointer to anything with a response_type). */
#define XW_EVENT_RESPONSE_TYPE(e) (e->response_type & XW_EVENT_RESPONSE_TYPE_MASK)
/** Non-zero when event `e` was sent with SendEvent. */
#define XW_EVENT_SENT(e) (e->response_type & ~XW_EVENT_RESPONSE_TYPE_MASK)

/* The core error codes, as older xcb-util releases named them (Debian 12's header no
 * longer has them; XW_ERROR_* of <xw/xproto.h> are the same numbers). The misspelt
 * SUCESS is theirs, kept so ported code builds; SUCCESS is the spelling to use. */
#define XW_EVENT_ERROR_SUCCESS 0
#define XW_EVENT_ERROR_SUCESS 0
#define XW_EVENT_ERROR_BAD_REQUEST 1
#define XW_EVENT_ERROR_BAD_VALUE 2
#define XW_EVENT_ERROR_BAD_WINDOW 3
#define XW_EVENT_ERROR_BAD_PIXMAP 4
#define XW_EVENT_ERROR_BAD_ATOM 5
#define XW_EVENT_ERROR_BAD_CURSOR 6
#define XW_EVENT_ERROR_BAD_FONT 7
#define XW_EVENT_ERROR_BAD_MATCH 8
#define XW_EVENT_ERROR_BAD_DRAWABLE 9
#define XW_EVENT_ERROR_BAD_ACCESS 10
#define XW_EVENT_ERROR_BAD_ALLOC 11
#define XW_EVENT_ERROR_BAD_COLOR 12
#define XW_EVENT_ERROR_BAD_GC 13
#define XW_EVENT_ERROR_BAD_ID_CHOICE 14
#define XW_EVENT_ERROR_BAD_NAME 15
#define XW_EVENT_ERROR_BAD_LENGTH 16
#define XW_EVENT_ERROR_BAD_IMPLEMENTATION 17

/** The label of core response type `type` ("error", "reply", "KeyPress", ...,
 * "MappingNotify"; Xlib's names, so 13 is "GraphicsExpose"), or NULL for any other
 * code (extension events included: see xw_errors.h). Static storage; thread-safe. */
XW_EXPORT const char *xw_event_get_label(uint8_t type);

/** The label of core error code `type` ("Success", "BadRequest", ...,
 * "BadImplementation"), or NULL past 17. Static storage; thread-safe. */
XW_EXPORT const char *xw_event_get_error_label(uint8_t type);

/** The label of core major opcode `type` ("no request" for 0, "CreateWindow", ...,
 * "major 120".."major 126" for the unused ones, "NoOperation"), or NULL from 128 on.
 * Static storage; thread-safe. */
XW_EXPORT const char *xw_event_get_request_label(uint8_t type);

#ifdef __cplusplus
}
#endif
#endif
