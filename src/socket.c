/* SPDX-License-Identifier: MIT */
/* socket.c — the own socket: opening it (Linux abstract, filesystem, TCP v4/v6). */
#include "socket.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define XW_UNIX_BASE "/tmp/.X11-unix/X"

/* Blocking and close-on-exec; also for fds handed to xw_connect_to_fd. Every call
 * that must not wait passes MSG_DONTWAIT; the rest of a big reply and a stream of
 * events are then read by one blocking recvmsg instead of poll and recvmsg.
 * The send buffer stays the system's (wmem_default, 208 KiB): a larger one (2 MiB)
 * saved wake-ups but cost both sides more CPU per byte, most likely because the
 * bytes in flight no longer stay in cache between the writer's copy and the
 * reader's (PutImage 4 MiB, drain server: 327 us of client CPU against 228 us
 * with the default). */
int xw__socket_prepare(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || ((fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0))
        return -errno;
    int fdfl = fcntl(fd, F_GETFD);
    if (fdfl < 0 || fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC) < 0)
        return -errno;
    return 0;
}

/* Connect a new socket; returns the fd or -errno (errno preserved for callers). */
static int connect_addr(int family, int type, const struct sockaddr *sa, socklen_t len)
{
    int fd = socket(family, type | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    while (connect(fd, sa, len) < 0) {
        if (errno == EINTR)
            continue;
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

static int open_unix(const char *path, int abstract)
{
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    size_t n = strlen(path);
    size_t off = abstract ? 1 : 0;
    if (n + off >= sizeof(sun.sun_path))
        return -ENAMETOOLONG;
    memcpy(sun.sun_path + off, path, n);
    /* The abstract name is exactly the path bytes after the leading NUL. */
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + off + n + (abstract ? 0 : 1));
    return connect_addr(AF_UNIX, SOCK_STREAM, (struct sockaddr *)&sun, len);
}

static int tcp_protocol_ok(const char *protocol, int *family)
{
    *family = AF_UNSPEC;
    if (!protocol || !strcmp(protocol, "tcp") || !strcmp(protocol, "inet"))
        return 1;
    if (!strcmp(protocol, "inet6")) {
        *family = AF_INET6;
        return 1;
    }
    return 0;
}

static int open_tcp(const char *host, const char *protocol, int display, char *why, size_t whycap)
{
    int family;
    if (!tcp_protocol_ok(protocol, &family)) {
        snprintf(why, whycap, "unknown protocol \"%s\"", protocol);
        return -EPROTONOSUPPORT;
    }
    if (display > 65535 - X_TCP_PORT) {
        snprintf(why, whycap, "display %d has no TCP port", display);
        return -EINVAL;
    }
    char name[256];
    size_t n = strlen(host);
    if (n > 0 && host[n - 1] == ':') {
        snprintf(why, whycap, "DECnet display \"%s:\" is not supported", host);
        return -EPROTONOSUPPORT;
    }
    /* "[::1]" keeps its brackets in the parsed host; getaddrinfo wants them off. */
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']' && n - 2 < sizeof(name)) {
        memcpy(name, host + 1, n - 2);
        name[n - 2] = '\0';
        host = name;
    }
    if (!*host)
        host = "localhost";
    char port[16];
    snprintf(port, sizeof(port), "%d", X_TCP_PORT + display);
    struct addrinfo hints = {.ai_family = family, .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG};
    struct addrinfo *res;
    int g = getaddrinfo(host, port, &hints, &res);
    if (g) {
        snprintf(why, whycap, "resolve %s: %s", host, gai_strerror(g));
        return -EHOSTUNREACH;
    }
    int fd = -ECONNREFUSED;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        fd = connect_addr(a->ai_family, a->ai_socktype, a->ai_addr, a->ai_addrlen);
        if (fd >= 0)
            break;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(why, whycap, "connect to %s:%s: %s", host, port, strerror(-fd));
        return fd;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

/* Local socket: abstract first, then the file, then (only for a bare ":N") TCP on
 * localhost — the order libxcb uses. A protocol other than "unix" reaches no local
 * socket, so "tcp/:0" and "tcp/unix:0" fail as they do with libxcb rather than
 * quietly connecting through the local socket. */
static int open_local(const char *host, const char *protocol, int display, char *why, size_t whycap)
{
    if (protocol && strcmp(protocol, "unix") != 0) {
        snprintf(why, whycap, "protocol \"%s\" cannot reach the local display %s:%d (only \"unix\" can)", protocol,
                 *host ? host : "", display);
        return -EPROTONOSUPPORT;
    }
    char path[64];
    snprintf(path, sizeof(path), XW_UNIX_BASE "%d", display);
    int fd = open_unix(path, 1);
    if (fd >= 0 || (fd != -ENOENT && fd != -ECONNREFUSED)) {
        if (fd < 0)
            snprintf(why, whycap, "connect to @%s: %s", path, strerror(-fd));
        return fd;
    }
    fd = open_unix(path, 0);
    if (fd >= 0)
        return fd;
    snprintf(why, whycap, "connect to %s: %s", path, strerror(-fd));
    if (!protocol && !*host) {
        char tcpwhy[256];
        int t = open_tcp(host, protocol, display, tcpwhy, sizeof(tcpwhy));
        if (t >= 0)
            return t;
    }
    return fd;
}

int xw__socket_open(const char *host, const char *protocol, int display, char *why, size_t whycap)
{
    int unix_proto = protocol && !strcmp(protocol, "unix");
    if (!unix_proto && *host && strcmp(host, "unix") != 0)
        return open_tcp(host, protocol, display, why, whycap);
    return open_local(host, protocol, display, why, whycap);
}
