/* SPDX-License-Identifier: MIT */
/* xw.h — the xwire connection API: libxcb's xcb.h with xw_ in place of xcb_. */
#ifndef XW_H
#define XW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(XW_BUILDING) && defined(__GNUC__)
#define XW_EXPORT __attribute__((visibility("default")))
#else
#define XW_EXPORT
#endif

#define X_PROTOCOL 11
#define X_PROTOCOL_REVISION 0
#define X_TCP_PORT 6000

/* Connection error codes, identical in value to libxcb's. */
#define XW_CONN_ERROR 1
#define XW_CONN_CLOSED_EXT_NOTSUPPORTED 2
#define XW_CONN_CLOSED_MEM_INSUFFICIENT 3
#define XW_CONN_CLOSED_REQ_LEN_EXCEED 4
#define XW_CONN_CLOSED_PARSE_ERR 5
#define XW_CONN_CLOSED_INVALID_SCREEN 6
#define XW_CONN_CLOSED_FDPASSING_FAILED 7
/* xwire only: the server sent bytes that break the protocol (a length that lies,
 * a truncated packet, an unknown sequence number). */
#define XW_CONN_CLOSED_MALFORMED 8

/* Error code xwire puts in an xw_generic_error_t when a reply arrived whole but
 * its counts claim more data than it carries; error_code 0 is never used by a
 * server (Success), so this cannot collide with a real X error. */
#define XW_ERROR_MALFORMED_REPLY 0

/** Opaque connection. */
typedef struct xw_connection_t xw_connection_t;

typedef struct {
    void *data;
    int rem;
    int index;
} xw_generic_iterator_t;

typedef struct {
    uint8_t response_type;
    uint8_t pad0;
    uint16_t sequence;
    uint32_t length;
} xw_generic_reply_t;

typedef struct {
    uint8_t response_type;
    uint8_t pad0;
    uint16_t sequence;
    uint32_t pad[7];
    uint32_t full_sequence;
} xw_generic_event_t;

typedef struct {
    uint8_t response_type;
    uint8_t pad0;
    uint16_t sequence;
    uint32_t pad[7];
} xw_raw_generic_event_t;

typedef struct {
    uint8_t response_type;
    uint8_t pad0;
    uint16_t sequence;
    uint32_t length;
    uint16_t event_type;
    uint16_t pad1;
    uint32_t pad[5];
    uint32_t full_sequence;
} xw_ge_event_t;

typedef struct {
    uint8_t response_type;
    uint8_t error_code;
    uint16_t sequence;
    uint32_t resource_id;
    uint16_t minor_code;
    uint8_t major_code;
    uint8_t pad0;
    uint32_t pad[5];
    uint32_t full_sequence;
} xw_generic_error_t;

typedef struct {
    unsigned int sequence;
} xw_void_cookie_t;

/** Opaque key for an extension; generated headers declare one per extension
 * (xw_randr_id, ...). */
typedef struct xw_extension_t xw_extension_t;

#include <xw/xproto.h>

#define XW_NONE 0L
#define XW_COPY_FROM_PARENT 0L
#define XW_CURRENT_TIME 0L
#define XW_NO_SYMBOL 0L

typedef struct xw_auth_info_t {
    int namelen;
    char *name;
    int datalen;
    char *data;
} xw_auth_info_t;

typedef struct xw_special_event xw_special_event_t;

/* ---- connection lifecycle ---- */

/** Parse a display string as libxcb 1.15 does, but reject ":+1", ": 1", ":-1" and
 * numbers that overflow. On success returns 1 and *host is malloc'd (caller frees);
 * returns 0 on a malformed string (nothing allocated). name NULL means $DISPLAY.
 * screen may be NULL. Touches no connection; thread-safe. */
XW_EXPORT int xw_parse_display(const char *name, char **host, int *display, int *screen);
/** Connect to a display (NULL or "": $DISPLAY), authenticating with the entry
 * $XAUTHORITY (or ~/.Xauthority) holds for it; *screenp, when given, gets the
 * display string's screen number. Never returns NULL: on failure the connection
 * is in error (xw_connection_has_error() gives the XW_CONN_* code,
 * xw_connection_error_string() says why: no display, socket missing, refused
 * by the server with its reason, ...). The caller owns the connection and frees
 * it with xw_disconnect(), also after a failure. */
XW_EXPORT xw_connection_t *xw_connect(const char *displayname, int *screenp);
/** As xw_connect() with the given authorization (auth NULL: look it up as
 * xw_connect does). auth is only read during the call; the caller keeps it. */
XW_EXPORT xw_connection_t *xw_connect_to_display_with_auth_info(const char *display, xw_auth_info_t *auth, int *screen);
/** Use an already connected socket; the connection owns fd from now on, also on
 * failure (it is closed by xw_disconnect). auth_info as above (NULL: none). */
XW_EXPORT xw_connection_t *xw_connect_to_fd(int fd, xw_auth_info_t *auth_info);
/** Closes the socket and any fds not yet sent or claimed, and frees the
 * connection with every queued reply and event. Replies, events and errors already
 * handed to the caller stay the caller's. NULL is ignored. No other thread may
 * use c during or after the call. */
XW_EXPORT void xw_disconnect(xw_connection_t *c);
/** 0 while the connection is usable, else the XW_CONN_* code of its first fatal
 * error (it never recovers: disconnect and connect again). X errors for single
 * requests are not connection errors. Thread-safe, no lock. */
XW_EXPORT int xw_connection_has_error(xw_connection_t *c);
/** Human-readable reason for the connection's first fatal error, or NULL if none.
 * The string is owned by the connection and lives until xw_disconnect(). */
XW_EXPORT const char *xw_connection_error_string(xw_connection_t *c);
/** The server's setup reply, parsed and bounds-checked at connect; owned by the
 * connection until xw_disconnect(). Walk it with the generated iterators
 * (xw_setup_roots_iterator, ...). NULL after a failed connect. Thread-safe. */
XW_EXPORT const struct xw_setup_t *xw_get_setup(xw_connection_t *c);
/** The socket, for poll()/epoll in an event loop; the connection keeps owning it.
 * Rule: events may already sit in xwire's queue (read along with a reply), so drain
 * it with xw_poll_for_queued_event() before waiting on the fd, or an event that
 * arrived earlier waits for the next byte from the server. -1 after a failed connect. */
XW_EXPORT int xw_get_file_descriptor(xw_connection_t *c);
/** A fresh resource id from the setup's base and mask; when they run out, asks
 * XC-MISC for a new range. Returns (uint32_t)-1 on failure. Thread-safe. */
XW_EXPORT uint32_t xw_generate_id(xw_connection_t *c);
/** Bytes read from and written to the server so far (written: handed to the
 * kernel, not what is still queued). Thread-safe. */
XW_EXPORT uint64_t xw_total_read(xw_connection_t *c);
XW_EXPORT uint64_t xw_total_written(xw_connection_t *c);

/* ---- output ---- */

/** Writes everything queued. Returns > 0 on success, <= 0 when the connection has
 * failed (as libxcb). Thread-safe. */
XW_EXPORT int xw_flush(xw_connection_t *c);
/** The longest request the server takes, in 4-byte units, enabling BIG-REQUESTS
 * when the server has it (one round trip the first time). A longer request fails
 * alone (sequence 0), never the connection. */
XW_EXPORT uint32_t xw_get_maximum_request_length(xw_connection_t *c);
/** Sends the BIG-REQUESTS query without waiting for its answer. */
XW_EXPORT void xw_prefetch_maximum_request_length(xw_connection_t *c);

/* ---- input ---- */

/** The next event or unchecked error (response_type 0), waiting for one; malloc'd,
 * the caller frees it (36 bytes: 32 wire bytes and full_sequence; generic events
 * longer, in libxcb's layout). NULL when the connection fails. Buffered requests
 * are flushed before it blocks (an event already queued is returned without a
 * flush, as libxcb never flushes here). Thread-safe: each event goes to exactly
 * one caller. */
XW_EXPORT xw_generic_event_t *xw_wait_for_event(xw_connection_t *c);
/** As xw_wait_for_event() but never blocks: reads what the socket has, NULL if no
 * event is there. */
XW_EXPORT xw_generic_event_t *xw_poll_for_event(xw_connection_t *c);
/** As xw_poll_for_event() but never reads the socket: only what is queued. */
XW_EXPORT xw_generic_event_t *xw_poll_for_queued_event(xw_connection_t *c);
/** Waits until the server has finished a void request, as libxcb does. Checked
 * (sent with a _checked function): its error (malloc'd, the caller frees it) or
 * NULL when it succeeded. Unchecked: always NULL, and its error, if any, is in the
 * event queue; the call still returns only once the request is known finished,
 * so it serves as a barrier. Sends a sync (GetInputFocus) when no later
 * reply-bearing request would tell, and flushes up to that request. NULL at once
 * after a connection error. Thread-safe. */
XW_EXPORT xw_generic_error_t *xw_request_check(xw_connection_t *c, xw_void_cookie_t cookie);
/** The reply (and error) of this request will be dropped when it arrives, or
 * now if it already has; nobody may wait for it afterwards. For a cookie the
 * caller will not claim, so the reply does not stay queued until disconnect.
 * Thread-safe. The 64-bit form takes the full sequence number. */
XW_EXPORT void xw_discard_reply(xw_connection_t *c, unsigned int sequence);
XW_EXPORT void xw_discard_reply64(xw_connection_t *c, uint64_t sequence);

/** Generic events of ext whose event id (bytes 12..15) is eid go to a queue of their
 * own (as Present needs); *stamp, when given, is incremented for each. Returns
 * NULL when ext is not on the server (asks QueryExtension once) or memory runs
 * out. The caller owns the queue: free it with xw_unregister_for_special_event()
 * before xw_disconnect(). Thread-safe. */
XW_EXPORT xw_special_event_t *xw_register_for_special_xge(xw_connection_t *c, xw_extension_t *ext, uint32_t eid,
                                                          uint32_t *stamp);
/** Stops routing to se and frees it with the events still in it; se NULL is
 * ignored. No thread may be waiting on se. */
XW_EXPORT void xw_unregister_for_special_event(xw_connection_t *c, xw_special_event_t *se);
/** The next event of se's queue, without waiting (reads what the socket has);
 * malloc'd, the caller frees it. NULL when none or after a connection error. */
XW_EXPORT xw_generic_event_t *xw_poll_for_special_event(xw_connection_t *c, xw_special_event_t *se);
/** As xw_poll_for_special_event() but waits for one; NULL only when the
 * connection fails. Thread-safe: each event goes to exactly one caller. */
XW_EXPORT xw_generic_event_t *xw_wait_for_special_event(xw_connection_t *c, xw_special_event_t *se);

/* ---- extensions ---- */

/** The QueryExtension reply for ext, asked once per connection and cached (owned
 * by the connection); later requests of ext make no round trip. NULL on failure;
 * check ->present. */
XW_EXPORT const struct xw_query_extension_reply_t *xw_get_extension_data(xw_connection_t *c, xw_extension_t *ext);
/** Sends the QueryExtension for ext without waiting for it. */
XW_EXPORT void xw_prefetch_extension_data(xw_connection_t *c, xw_extension_t *ext);

/* ---- xwire only ---- */

/** Threading mode. By default a connection is safe to use from several threads at
 * once (a futex lock around every call; one thread reads at a time while the
 * others sleep on a condition). With on != 0 all locking is skipped: the caller
 * promises that only one thread at a time calls into c (handing c to another
 * thread is fine with the caller's own synchronisation). Call it before other
 * threads can see c. Returns 0, or -EINVAL for the static out-of-memory connection. */
XW_EXPORT int xw_connection_set_single_threaded(xw_connection_t *c, int on);

/** xw_trace_set flags: JSON lines (one object per packet) instead of text lines;
 * values as plain numbers (no enum, mask, atom or boolean names, ids in decimal),
 * for tools that compare values. */
#define XW_TRACE_JSON 1u
#define XW_TRACE_NUMBERS 2u

/** Traces c's protocol to fd: one line per request written and per reply, error and
 * event read, decoded field by field from the bytes on the wire (see docs/tracing.md).
 * fd < 0 turns tracing off. The caller keeps fd open while tracing and closes it;
 * lines are written with one write() each batch, under a process-wide lock, so
 * lines from connections or threads sharing fd never interleave. The filters and
 * list length come from XWIRE_TRACE_FILTER and XWIRE_TRACE_MAXLIST. Tracing starts
 * with the next request written and never changes the bytes sent. Returns 0, or
 * -ENOMEM / -EINVAL. Thread-safe. */
XW_EXPORT int xw_trace_set(xw_connection_t *c, int fd, unsigned flags);

/** xw_wait_for_event with a timeout in milliseconds (-1: forever, 0: read what is
 * available without blocking). Returns a malloc'd event (caller frees) or NULL on
 * timeout or connection error (check xw_connection_has_error). */
XW_EXPORT xw_generic_event_t *xw_wait_for_event_timeout(xw_connection_t *c, int timeout_ms);

/** Zero-allocation event path. Copies the next event (or unchecked error) into the
 * caller's buf in the same layout xw_wait_for_event returns (36 bytes: 32 wire
 * bytes and full_sequence; XGE events longer) and sets *len. timeout_ms: -1 waits
 * forever, 0 reads what is available without blocking, > 0 waits at most that long.
 * Returns 1 when an event was copied, 0 when none came in time, -ENOSPC when cap is
 * too small (*len is set to the size needed and the event STAYS QUEUED), -EPIPE
 * after a connection error. Never allocates once the connection's packet store has
 * warmed up. Threads: safe; each event goes to exactly one caller, so after -ENOSPC
 * another thread may take that event before this one retries. */
XW_EXPORT int xw_wait_for_event_into(xw_connection_t *c, void *buf, size_t cap, size_t *len, int timeout_ms);
/** As xw_wait_for_event_into but never reads the socket. */
XW_EXPORT int xw_poll_for_queued_event_into(xw_connection_t *c, void *buf, size_t cap, size_t *len);

/** Writes e as text, e.g. "BadWindow (3) in CreateWindow (major 1, minor 0),
 * resource 0x1200005", using the core tables and those of every extension this
 * connection has queried (others print as "UnknownRequest"/"UnknownError").
 * Writes at most cap bytes into the caller's buf, always NUL-terminated when cap
 * > 0; returns what snprintf would (the full length). e stays the caller's.
 * With XWIRE_ERRORS=callsite in the environment at connect, the text goes on with
 * where the request was sent from: ", sent from f (file.c:42)" (docs/callsite.md).
 * Works on a connection in error too. Thread-safe. */
XW_EXPORT int xw_error_text(xw_connection_t *c, const xw_generic_error_t *e, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
