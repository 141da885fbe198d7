/* auth.c — Xauthority lookup through libXau (MIT-MAGIC-COOKIE-1). */
#include "xwint.h"

#include <X11/Xauth.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* Address families as Xauthority stores them (X.h's values). */
#define FAMILY_INTERNET 0
#define FAMILY_INTERNET6 6

/* FamilyLocal entries are keyed by host name. */
static int local_address(char *buf, size_t cap, unsigned *len)
{
    if (gethostname(buf, cap) < 0)
        return 0;
    buf[cap - 1] = '\0';
    *len = (unsigned)strlen(buf);
    return 1;
}

/* The Xauthority family and address for the peer of fd. Loopback TCP counts as
 * local, as with libxcb, since xauth writes those entries as FamilyLocal. */
static int peer_address(int fd, unsigned short *family, char *addr, unsigned *len, size_t cap)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    if (getpeername(fd, (struct sockaddr *)&ss, &sl) < 0)
        return local_address(addr, cap, len) ? (*family = FamilyLocal, 1) : 0;
    if (ss.ss_family == AF_INET6) {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
        if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
            memcpy(addr, &s6->sin6_addr.s6_addr[12], 4);
            *len = 4;
            *family = FAMILY_INTERNET;
        } else if (IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr)) {
            *family = FamilyLocal;
            return local_address(addr, cap, len);
        } else {
            memcpy(addr, &s6->sin6_addr, 16);
            *len = 16;
            *family = FAMILY_INTERNET6;
            return 1;
        }
    } else if (ss.ss_family == AF_INET) {
        memcpy(addr, &((struct sockaddr_in *)&ss)->sin_addr, 4);
        *len = 4;
        *family = FAMILY_INTERNET;
    } else {
        *family = FamilyLocal;
        return local_address(addr, cap, len);
    }
    if ((uint8_t)addr[0] == 127) {
        *family = FamilyLocal;
        return local_address(addr, cap, len);
    }
    return 1;
}

static char *dup_bytes(const char *s, size_t n)
{
    char *d = malloc(n ? n : 1);
    if (d && n)
        memcpy(d, s, n);
    return d;
}

int xw__auth_get(int fd, int display, xw_auth_info_t *info)
{
    char addr[256];
    unsigned addrlen;
    unsigned short family;
    if (!peer_address(fd, &family, addr, &addrlen, sizeof(addr)))
        return 0;
    char num[16];
    int numlen = snprintf(num, sizeof(num), "%d", display);
    char *names[] = {"MIT-MAGIC-COOKIE-1"};
    int namelens[] = {18};
    Xauth *a = XauGetBestAuthByAddr(family, addrlen, addr, (unsigned)numlen, num, 1, names, namelens);
    if (!a)
        return 0;
    info->name = dup_bytes(a->name, a->name_length);
    info->data = dup_bytes(a->data, a->data_length);
    info->namelen = a->name_length;
    info->datalen = a->data_length;
    XauDisposeAuth(a);
    if (!info->name || !info->data) {
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
