/* SPDX-License-Identifier: MIT */
/* fake_server.h — a scripted X server over socketpair() for driving a real xwire connection. */
#ifndef XW_TEST_FAKE_SERVER_H
#define XW_TEST_FAKE_SERVER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <xw/xw.h>

/* 16- and 32-bit fields of packets in the test's own byte order (the fake servers
 * and the seed builders speak the client's order). */
static inline void fs_wr16(void *p, uint16_t v)
{
    memcpy(p, &v, 2);
}

static inline void fs_wr32(void *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static inline uint16_t fs_rd16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static inline uint32_t fs_rd32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The default setup reply the fake server answers with. */
#define FAKE_XID_BASE 0x00200000u
#define FAKE_XID_MASK 0x001fffffu
#define FAKE_ROOT 0x00000100u

struct fake_ext {
    const char *name;
    uint8_t major, first_event, first_error;
};

struct fake_server {
    int fd;       /* the server's end (blocking); closed by fake_stop */
    uint64_t seq; /* requests parsed so far by fake_read_request (the server's sequence) */
    /* For the serving thread (fake_serve_start): */
    pthread_t thread;
    int thread_running;
    const struct fake_ext *exts; /* answered by QueryExtension; NULL-name terminated */
    uint32_t bigreq_max;         /* BigReqEnable answer when an ext named BIG-REQUESTS is listed */
    uint64_t nrequests;          /* requests seen by the serving thread */
    uint64_t opcode_count[256];  /* per major opcode */
    uint64_t first_sync_at;      /* sequence of the first GetInputFocus, 0 if none */
    uint64_t big_requests;       /* requests that came in BIG-REQUESTS framing */
    uint64_t big_bytes;          /* bytes of the largest request */
    int (*on_request)(struct fake_server *f, const uint8_t *req, size_t len); /* optional: 1 = handled */
};

/* Builds the default setup success reply (one screen, one depth, one visual,
 * maximum request length max_req words). Returns its length. */
size_t fake_setup_success(uint8_t *buf, size_t cap, uint16_t max_req);
/* A refused setup (status 0) or an authenticate reply (status 2) with reason. */
size_t fake_setup_refused(uint8_t *buf, size_t cap, int status, const char *reason);

/* socketpair; the given setup bytes are written before the client connects (the
 * socket buffer holds them), the client's setup request is read and checked.
 * setup NULL: the default success reply. Returns the connection (check its error). */
xw_connection_t *fake_connect(struct fake_server *f, const void *setup, size_t len);
/* Stops the serving thread if any and closes the server end. */
void fake_stop(struct fake_server *f);

/* Blocking helpers for scripts run on the test's own thread. */
int fake_send(struct fake_server *f, const void *buf, size_t len);
/* The same on any socket: all len bytes, 0; -1 when the peer is gone. */
int fake_write_all(int fd, const void *buf, size_t len);
/* Sends bytes with fds attached (SCM_RIGHTS). */
int fake_send_fds(struct fake_server *f, const void *buf, size_t len, const int *fds, int nfds);
/* Reads one request (normal or BIG-REQUESTS framing) into buf; returns its length
 * in bytes (header included, as on the wire), 0 on EOF, -1 on error or when it does
 * not fit (the bytes are then skipped). Fds that came along are stored in *fds. */
long fake_read_request(struct fake_server *f, uint8_t *buf, size_t cap, int *fds, int *nfds);

/* 32-byte packets: a reply (extra bytes follow, length set from extra_len), an
 * error, an event. */
size_t fake_reply(uint8_t *buf, uint16_t seq, uint8_t byte1, const void *extra, size_t extra_len);
void fake_error(uint8_t *buf, uint16_t seq, uint8_t code, uint32_t resource, uint8_t major, uint16_t minor);
void fake_event(uint8_t *buf, uint8_t code, uint16_t seq, uint32_t word);

/* A thread that reads requests and answers QueryExtension, GetInputFocus,
 * BigReqEnable and (by default) nothing else; counts what it saw. */
int fake_serve_start(struct fake_server *f);

/* Number of open file descriptors of this process (for leak checks). */
int count_open_fds(void);

#endif
