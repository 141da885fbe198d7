/* SPDX-License-Identifier: MIT */
/* auth.c — Xauthority lookup through libXau: XDM-AUTHORIZATION-1 and MIT-MAGIC-COOKIE-1. */
#include "auth.h"
#include "des.h"

#include <X11/Xauth.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Address families as Xauthority stores them (X.h's values). */
#define FAMILY_INTERNET 0
#define FAMILY_INTERNET6 6

/* The protocols asked for, best first: libXau returns the first of these the file
 * holds for the address, so an XDM entry wins over an MIT one beside it. */
#define XDM_NAME "XDM-AUTHORIZATION-1"
#define MIT_NAME "MIT-MAGIC-COOKIE-1"
static char *auth_names[] = {XDM_NAME, MIT_NAME}; /* libXau's prototype is not const */
static const int auth_namelens[] = {sizeof(XDM_NAME) - 1, sizeof(MIT_NAME) - 1};

/* An XDM entry: 8 bytes the server checks (rho) then the 8-byte DES key. */
#define XDM_ENTRY_LEN 16

/* FamilyLocal entries are keyed by host name. */
static int local_address(char *buf, size_t cap, unsigned *len)
{
    if (gethostname(buf, cap) < 0)
        return 0;
    buf[cap - 1] = '\0';
    *len = (unsigned)strlen(buf);
    return 1;
}

/* The Xauthority family and address for a peer. Unix sockets and loopback TCP
 * count as local, since xauth writes those entries as FamilyLocal; as with libxcb,
 * loopback is 127.0.0.1 (plain or v4-mapped) and ::1 only, and other 127/8
 * addresses are keyed by address. Returns 0 for a family it cannot key. */
static int lookup_key(const struct sockaddr_storage *ss, unsigned short *family, char *addr, unsigned *len, size_t cap)
{
    const uint8_t *ip = NULL;
    if (ss->ss_family == AF_INET6) {
        const struct in6_addr *a6 = &((const struct sockaddr_in6 *)ss)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(a6)) {
            ip = a6->s6_addr + 12;
        } else if (!IN6_IS_ADDR_LOOPBACK(a6)) {
            memcpy(addr, a6, 16);
            *len = 16;
            *family = FAMILY_INTERNET6;
            return 1;
        }
    } else if (ss->ss_family == AF_INET) {
        ip = (const uint8_t *)&((const struct sockaddr_in *)ss)->sin_addr;
    } else if (ss->ss_family != AF_UNIX) {
        return 0;
    }
    static const uint8_t loopback[4] = {127, 0, 0, 1};
    if (ip && memcmp(ip, loopback, 4) != 0) {
        memcpy(addr, ip, 4);
        *len = 4;
        *family = FAMILY_INTERNET;
        return 1;
    }
    *family = FamilyLocal;
    return local_address(addr, cap, len);
}

/* The best entry for fd's server and display, or NULL. A socket without a peer
 * name can still be keyed when it is a Unix socket. */
static Xauth *best_entry(int fd, int display)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    if (getpeername(fd, (struct sockaddr *)&ss, &sl) < 0) {
        sl = sizeof(ss);
        if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 || ss.ss_family != AF_UNIX)
            return NULL;
    }
    char addr[256], num[16];
    unsigned addrlen;
    unsigned short family;
    if (!lookup_key(&ss, &family, addr, &addrlen, sizeof(addr)))
        return NULL;
    int numlen = snprintf(num, sizeof(num), "%d", display);
    return XauGetBestAuthByAddr(family, (unsigned short)addrlen, addr, (unsigned short)numlen, num, 2, auth_names,
                                auth_namelens);
}

/* XDMCP keys hold 56 bits in bytes 1..7; DES wants them as the top 7 bits of
 * each of 8 bytes (the low bit, parity, DES ignores). */
static void spread_key(const uint8_t xdm[8], uint8_t des[8])
{
    uint64_t bits = 0;
    for (int i = 1; i < 8; i++)
        bits = bits << 8 | xdm[i];
    for (int i = 0; i < 8; i++)
        des[i] = (uint8_t)(((bits >> (49 - 7 * i)) & 0x7f) << 1);
}

void xw__auth_xdm_wrap(const uint8_t key[8], const uint8_t *in, uint8_t *out, size_t len)
{
    uint8_t des_key[8], block[8] = {0};
    struct xw_des ks;
    spread_key(key, des_key);
    xw__des_setkey(&ks, des_key);
    /* Cipher-block chaining from a zero vector: each block is xored with the
     * previous block's output before encryption. */
    for (size_t j = 0; j + 8 <= len; j += 8) {
        for (int i = 0; i < 8; i++)
            block[i] ^= in[j + i];
        xw__des_encrypt(&ks, block, block);
        memcpy(out + j, block, 8);
    }
}

/* Stands in for the client address on Unix sockets, where there is none: each
 * connection of the process gets its own, so that the server, which refuses a
 * credential it has seen, takes two connections made in one second. */
static uint32_t next_nonce(void)
{
    static uint32_t nonce;
    return __atomic_fetch_add(&nonce, 1, __ATOMIC_RELAXED);
}

/* The 6 address bytes of the credential, in network order: IPv4 address and port;
 * for Unix sockets a per-connection nonce and the pid; zeros for IPv6, which the
 * protocol has no room for (the server checks the address for IPv4 only). */
static int client_bytes(const struct sockaddr *self, uint8_t out[6])
{
    uint32_t ip = 0;
    uint16_t port = 0;
    if (self->sa_family == AF_INET) {
        ip = ((const struct sockaddr_in *)self)->sin_addr.s_addr;
        port = ((const struct sockaddr_in *)self)->sin_port;
    } else if (self->sa_family == AF_INET6) {
        const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)self;
        if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
            memcpy(&ip, s6->sin6_addr.s6_addr + 12, 4);
            port = s6->sin6_port;
        }
    } else if (self->sa_family == AF_UNIX) {
        ip = htonl(0xffffffffu - next_nonce());
        port = htons((uint16_t)getpid());
    } else {
        return -EAFNOSUPPORT;
    }
    memcpy(out, &ip, 4);
    memcpy(out + 4, &port, 2);
    return 0;
}

int xw__auth_xdm(const uint8_t *entry, size_t len, const struct sockaddr *self, uint32_t now,
                 uint8_t out[XW_XDM_AUTH_LEN])
{
    if (len < XDM_ENTRY_LEN)
        return -EINVAL;
    /* rho (8 bytes), the client (6), the time (4, big-endian), zeros (6) */
    uint8_t plain[XW_XDM_AUTH_LEN] = {0};
    memcpy(plain, entry, 8);
    int r = client_bytes(self, plain + 8);
    if (r < 0)
        return r;
    for (int i = 0; i < 4; i++)
        plain[14 + i] = (uint8_t)(now >> (24 - 8 * i));
    xw__auth_xdm_wrap(entry + 8, plain, out, sizeof(plain));
    return 0;
}

static char *dup_bytes(const char *s, size_t n)
{
    char *d = malloc(n ? n : 1);
    if (d && n)
        memcpy(d, s, n);
    return d;
}

/* The credentials entry a (of one of the two names asked for) yields on fd: the
 * cookie itself, or XDM's DES of the entry's rho, this socket's address and the
 * time. Returns 0 or -errno. */
static int credentials(const Xauth *a, int fd, xw_auth_info_t *info)
{
    info->name = dup_bytes(a->name, a->name_length);
    info->namelen = a->name_length;
    if (!info->name)
        return -ENOMEM;
    if (a->name_length == sizeof(MIT_NAME) - 1 && !memcmp(a->name, MIT_NAME, sizeof(MIT_NAME) - 1)) {
        info->data = dup_bytes(a->data, a->data_length);
        info->datalen = a->data_length;
        return info->data ? 0 : -ENOMEM;
    }
    struct sockaddr_storage self;
    socklen_t sl = sizeof(self);
    if (getsockname(fd, (struct sockaddr *)&self, &sl) < 0)
        return -errno;
    info->data = malloc(XW_XDM_AUTH_LEN);
    if (!info->data)
        return -ENOMEM;
    info->datalen = XW_XDM_AUTH_LEN;
    return xw__auth_xdm((const uint8_t *)a->data, a->data_length, (struct sockaddr *)&self, (uint32_t)time(NULL),
                        (uint8_t *)info->data);
}

int xw__auth_get(int fd, int display, xw_auth_info_t *info)
{
    Xauth *a = best_entry(fd, display);
    if (!a)
        return 0;
    int r = credentials(a, fd, info);
    XauDisposeAuth(a);
    if (r < 0) {
        xw__auth_free(info);
        return 0;
    }
    return 1;
}

void xw__auth_free(xw_auth_info_t *info)
{
    free(info->name);
    free(info->data);
    info->name = info->data = NULL;
    info->namelen = info->datalen = 0;
}
