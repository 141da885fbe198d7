/* SPDX-License-Identifier: MIT */
#ifndef XW_ERRORS_H
#define XW_ERRORS_H
/* xw_errors.h — xcb-util-errors (<xcb/xcb_errors.h>) on xwire: names of requests,
 * events and errors for the core protocol and every extension xwire knows, taken from
 * the protocol descriptions (the same tables xw_error_text uses). Part of
 * libxwire-util.
 *
 * Names are the descriptions' own: "CreateWindow", "Request" (error 1), RandR's
 * "BadOutput"; an extension is named by its description's extension-name ("RandR",
 * "Input", "xkb"). A code inside a table with no name is "Unknown (N)". All strings
 * are static. Except for xw_errors_context_free, every function is thread-safe, on one
 * context too, and never allocates. */
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The extensions present on one connection: their major opcodes and first event and
 * error codes. */
typedef struct xw_errors_context_t xw_errors_context_t;

/** Makes a context for `conn`: asks the server for every extension xwire has a
 * description of, in one pipelined batch (the answers are the connection's cached
 * extension data, so later xw_get_extension_data calls are free). Returns 0 and
 * *ctx, or -1 and *ctx = NULL when the connection has failed or memory ran out. The
 * context does not keep `conn`. Free it with xw_errors_context_free. */
XW_EXPORT int xw_errors_context_new(xw_connection_t *conn, xw_errors_context_t **ctx);

/** Frees `ctx` (NULL is fine). Not while another thread uses it. */
XW_EXPORT void xw_errors_context_free(xw_errors_context_t *ctx);

/** The name of a major opcode: the core request's ("CreateWindow"), the extension's
 * that owns it ("RandR"), else "Unknown (N)". Never NULL. */
XW_EXPORT const char *xw_errors_get_name_for_major_code(xw_errors_context_t *ctx, uint8_t major_code);

/** The name of an extension request, or NULL when `major_code` is no extension's or
 * `minor_code` is past its table. */
XW_EXPORT const char *xw_errors_get_name_for_minor_code(xw_errors_context_t *ctx, uint8_t major_code,
                                                        uint16_t minor_code);

/** The name of event code `event_code` (its SendEvent bit ignored): an extension's
 * event (*extension = its name) or a core one (*extension = NULL). Never NULL.
 * `extension` may be NULL. */
XW_EXPORT const char *xw_errors_get_name_for_core_event(xw_errors_context_t *ctx, uint8_t event_code,
                                                        const char **extension);

/** The name of generic event `event_type` of the extension with `major_code` (XKB's
 * events, which share one event code, count as its generic events, by xkbType), or
 * NULL when unknown. */
XW_EXPORT const char *xw_errors_get_name_for_xge_event(xw_errors_context_t *ctx, uint8_t major_code,
                                                       uint16_t event_type);

/** The name of `event`, whichever kind it is (core, extension, generic, XKB), with
 * its extension's name in *extension (NULL for core). NULL when unknown. */
XW_EXPORT const char *xw_errors_get_name_for_xcb_event(xw_errors_context_t *ctx, xw_generic_event_t *event,
                                                       const char **extension);

/** The name of error code `error_code` ("Request", "BadOutput", ...), with the
 * extension's name in *extension (NULL for core). Never NULL. */
XW_EXPORT const char *xw_errors_get_name_for_error(xw_errors_context_t *ctx, uint8_t error_code,
                                                   const char **extension);

#ifdef __cplusplus
}
#endif
#endif
