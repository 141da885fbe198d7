/* SPDX-License-Identifier: MIT */
/* base.h — internal: what every subsystem shares: the public headers, the limits, byte access
 * and sequence widening (never installed). */
#ifndef XW_SRC_BASE_H
#define XW_SRC_BASE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <xw/xw.h>
#include <xw/xwext.h>
#include <xw/xwborrow.h>
#include <xw/bigreq.h>
#include <xw/xc_misc.h>

#define XW_LIKELY(x) __builtin_expect(!!(x), 1)
#define XW_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Sizes. The write buffer is allocated once at connect and never grows; slices of
 * XW_COPY_MAX bytes or more are written from the caller's memory, never copied. */
#define XW_OUT_SIZE 16384u
#define XW_COPY_MAX 4096u
/* Spare bytes after the write buffer: the fast path stores padding 4 bytes at a time. */
#define XW_OUT_SLACK 16u
#define XW_IN_SIZE 65536u
/* What the first read asks for when a caller waits for a reply after the socket was
 * drained: a reply longer than this is then received in place (into its record or
 * the waiting caller's buffer) after at most this many bytes are copied. libxcb
 * reads 4 KiB at a time; a read that fills it is followed by full-size ones without
 * a poll between, so a pipeline's replies still come in 64 KiB reads. */
#define XW_IN_FIRST 4096u
/* A read of this many bytes or more says the server streams (it wrote more than we
 * waited for): the next wait blocks in recvmsg instead of polling. Small-buf's
 * reads are its 8 KiB socket buffer; Xvfb's mostly a few events (xw_in.stream). */
#define XW_IN_STREAM 4096u
/* The most fds one sendmsg/recvmsg carries, as in libxcb. */
#define XW_MAX_FDS 16u
/* Biggest packet we accept from a server, checked before anything is allocated. */
#define XW_PACKET_CAP (256u << 20)
/* A sync is inserted before this many void requests follow the last reply-bearing
 * one, so 16-bit sequence numbers on the wire can always be widened. */
#define XW_MAX_VOID_RUN 65534u

/* The runtime's own structures, declared here so a header that only names them (in
 * prototypes) need not include the subsystem that defines them. */
struct iovec;
struct xw_callsite;
struct xw_cond;
struct xw_ext_entry;
struct xw_ext_reg;
struct xw_in;
struct xw_lend;
struct xw_mutex;
struct xw_pend;
struct xw_pend_store;
struct xw_pkt;
struct xw_queue;
struct xw_request;
struct xw_store;
struct xw_trace;
struct xw_transport;

/* ---- helpers shared by the subsystems ---- */

static inline uint16_t xw__rd16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static inline uint32_t xw__rd32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline void xw__wr16(void *p, uint16_t v)
{
    memcpy(p, &v, 2);
}

static inline void xw__wr32(void *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* The latest 64-bit sequence number not above cur whose low 32 bits are seq: what a
 * 32-bit sequence of a request already sent stands for. */
static inline uint64_t xw__widen_below(uint64_t cur, uint32_t seq)
{
    return cur - (uint32_t)((uint32_t)cur - seq);
}

/* Division in generated length expressions: a zero divisor the server sent gives 0
 * instead of a trap. */
static inline int64_t xw__div(int64_t a, int64_t b)
{
    return b ? a / b : 0;
}

#endif
