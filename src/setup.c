/* SPDX-License-Identifier: MIT */
/* setup.c — the connection handshake: send the setup request, read and check the reply. */
#include "setup.h"
#include "base.h"
#include "conn.h"
#include "fail.h"
#include "hooks.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

static size_t pad4(size_t n)
{
    return (4 - (n & 3)) & 3;
}

/* Blocking write of the whole iovec list (the socket is blocking, but a caller's
 * fd may have been made non-blocking again: EAGAIN waits with poll). */
static int write_all(xw_connection_t *c, struct iovec *iov, int n)
{
    while (n > 0) {
        struct msghdr m = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        ssize_t r = sendmsg(c->fd, &m, MSG_NOSIGNAL);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN)
                return xw__fail_sys(c, errno, "write setup request");
            struct pollfd p = {.fd = c->fd, .events = POLLOUT};
            poll(&p, 1, -1);
            continue;
        }
        c->total_written += (uint64_t)r;
        while (n > 0 && (size_t)r >= iov->iov_len) {
            r -= (ssize_t)iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (uint8_t *)iov->iov_base + r;
            iov->iov_len -= (size_t)r;
        }
    }
    return 0;
}

static int read_all(xw_connection_t *c, uint8_t *buf, size_t n)
{
    while (n > 0) {
        ssize_t r = recv(c->fd, buf, n, 0);
        if (r > 0) {
            c->total_read += (uint64_t)r;
            buf += r;
            n -= (size_t)r;
        } else if (r == 0) {
            return xw__fail_conn(c, XW_CONN_ERROR, "server closed the connection during setup");
        } else if (errno == EAGAIN) {
            struct pollfd p = {.fd = c->fd, .events = POLLIN};
            poll(&p, 1, -1);
        } else if (errno != EINTR) {
            return xw__fail_sys(c, errno, "read setup reply");
        }
    }
    return 0;
}

static int send_request(xw_connection_t *c, const xw_auth_info_t *auth)
{
    uint8_t hdr[12] = {0};
    uint16_t one = 1;
    hdr[0] = *(uint8_t *)&one ? 'l' : 'B';
    xw__wr16(hdr + 2, X_PROTOCOL);
    xw__wr16(hdr + 4, X_PROTOCOL_REVISION);
    size_t nl = 0, dl = 0;
    if (auth && auth->namelen > 0 && auth->datalen >= 0 && auth->namelen <= 65535 && auth->datalen <= 65535) {
        nl = (size_t)auth->namelen;
        dl = (size_t)auth->datalen;
    }
    xw__wr16(hdr + 6, (uint16_t)nl);
    xw__wr16(hdr + 8, (uint16_t)dl);
    static const uint8_t zero[4];
    struct iovec iov[5] = {
        {hdr, 12},
        {nl ? auth->name : NULL, nl},
        {(void *)zero, pad4(nl)},
        {dl ? auth->data : NULL, dl},
        {(void *)zero, pad4(dl)},
    };
    return write_all(c, iov, 5);
}

/* The reason text of a refused setup, stripped of NUL padding. */
static int refused(xw_connection_t *c, const char *what, const uint8_t *s, size_t n)
{
    while (n > 0 && (s[n - 1] == '\0' || s[n - 1] == '\n'))
        n--;
    if (n > 200)
        n = 200;
    if (n == 0) /* a reason is optional for Authenticate, and a server may send none */
        return xw__fail_conn(c, XW_CONN_ERROR, "server refused%s, no reason given", what);
    return xw__fail_conn(c, XW_CONN_ERROR, "server refused%s: %.*s", what, (int)n, (const char *)s);
}

int xw__setup_handshake(xw_connection_t *c, const xw_auth_info_t *auth)
{
    uint8_t head[8];
    if (send_request(c, auth) < 0 || read_all(c, head, 8) < 0)
        return -EPIPE;
    size_t len = 8 + 4 * (size_t)xw__rd16(head + 6);
    uint8_t *s = malloc(len);
    if (!s)
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for the setup reply");
    memcpy(s, head, 8);
    if (read_all(c, s + 8, len - 8) < 0) {
        free(s);
        return -EPIPE;
    }
    c->setup = s;
    c->setup_len = len;
    if ((s[0] == 0 || s[0] == 2) && xw__hooks.setup_refused)
        xw__hooks.setup_refused(s, len);
    if (s[0] == 0) {
        size_t rl = s[1] <= len - 8 ? s[1] : len - 8;
        return refused(c, "", s + 8, rl);
    }
    if (s[0] == 2)
        return refused(c, " (authenticate)", s + 8, len - 8);
    /* The protocol defines statuses 0 (Failed), 1 (Success) and 2 (Authenticate).
     * libxcb refuses only 0 and 2 and takes any other as success, and programs work
     * on it, so any other is read as a success too: its bytes must then hold a
     * well-formed success setup (checked below), else nothing of it can be used. */
    char why[128];
    if (xw__setup_check(s, len, why, sizeof(why)) < 0)
        return xw__fail_conn(c, XW_CONN_CLOSED_PARSE_ERR, "malformed setup: %s", why);
    return 0;
}

/* Walk every variable-length part so the generated iterators cannot run past the
 * bytes we hold. Offsets are the protocol's: 40-byte fixed part, vendor, 8-byte
 * formats, 40-byte screens each with 8-byte depths of 24-byte visuals. */
int xw__setup_check(const uint8_t *s, size_t len, char *why, size_t whycap)
{
    if (len < 40) {
        snprintf(why, whycap, "%zu bytes, fixed part needs 40", len);
        return -EPROTO;
    }
    size_t off = 40 + xw__rd16(s + 24) + pad4(xw__rd16(s + 24)) + 8 * (size_t)s[29];
    for (unsigned i = 0; i < s[28]; i++) {
        if (off + 40 > len) {
            snprintf(why, whycap, "screen %u past the end (%zu > %zu)", i, off + 40, len);
            return -EPROTO;
        }
        unsigned ndepths = s[off + 39];
        off += 40;
        for (unsigned d = 0; d < ndepths; d++) {
            if (off + 8 > len) {
                snprintf(why, whycap, "screen %u depth %u past the end", i, d);
                return -EPROTO;
            }
            off += 8 + 24 * (size_t)xw__rd16(s + off + 2);
        }
    }
    if (off > len) {
        snprintf(why, whycap, "lists end at %zu, setup has %zu bytes", off, len);
        return -EPROTO;
    }
    if (s[28] == 0) {
        snprintf(why, whycap, "no screens");
        return -EPROTO;
    }
    return 0;
}
