/* SPDX-License-Identifier: MIT */
/* test_xdm.c — XDM-AUTHORIZATION-1 against Xvfb started with -auth, each case beside libxcb's result. */
#include <check.h>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <X11/X.h>
#include <X11/Xauth.h>
#include <xcb/xcb.h>
#include <xw/xw.h>

#include "xvfb.h"
#include "xvfb_suite.h"
#include "xwtest.h"

#define XDM "XDM-AUTHORIZATION-1"
#define MIT "MIT-MAGIC-COOKIE-1"

/* An XDM entry is rho then the DES key; Xvfb takes a key only when its first
 * byte (the entry's 9th) is zero. The wrong key keeps that rule and the rho. */
static const char xdm_right[16] = "rho-rho!\0K3y-56";
static const char xdm_wrong[16] = "rho-rho!\0k3Y-65";
static const char mit_right[16] = "cookie-cookie-16";
static const char mit_wrong[16] = "cookie-cookie-61";

struct entry {
    const char *name, *data; /* data 16 bytes */
};

/* What the client's Xauthority holds, and whether libxcb connects with it. The
 * entries go in the file in this order, so a wrong MIT entry comes first. */
static const struct xdm_case {
    const char *name;
    struct entry entries[2];
    int connects;
} cases[] = {
    {"XDM alone", {{XDM, xdm_right}}, 1},
    {"XDM beside a wrong MIT", {{MIT, mit_wrong}, {XDM, xdm_right}}, 1},
    {"wrong XDM key", {{XDM, xdm_wrong}}, 0},
    {"wrong XDM key beside a right MIT", {{MIT, mit_right}, {XDM, xdm_wrong}}, 0},
};

/* How the client reaches the server. Unix sockets and loopback TCP are looked up
 * by host name (FamilyLocal, as xauth writes them); the machine's own non-loopback
 * addresses by address, and over IPv4 the server also checks the address that the
 * credentials carry against the connection's. */
struct transport {
    const char *name;
    int family;     /* AF_UNIX, or AF_INET/AF_INET6 for TCP */
    int by_address; /* keyed by address (FamilyInternet, FamilyInternet6), not host name */
    char host[64];  /* the display name's host part; empty: none found */
    uint8_t addr[16];
};
enum { OWN_IPV4 = 3, OWN_IPV6 = 4, TRANSPORTS = 6 }; /* OWN_*: filled in by find_own_addresses */
static struct transport transports[TRANSPORTS] = {
    {"unix", AF_UNIX, 0, "", {0}},
    {"127.0.0.1", AF_INET, 0, "127.0.0.1", {0}},
    {"::1", AF_INET6, 0, "[::1]", {0}},
    {"own IPv4", AF_INET, 1, "", {0}},
    {"own IPv6", AF_INET6, 1, "", {0}},
    {"127.0.0.2", AF_INET, 1, "127.0.0.2", {127, 0, 0, 2}}, /* loopback, but libxcb keys it by address */
};

/* The machine's first up, non-loopback, non-link-local address of each family, only
 * when XW_TEST_OWN_ADDRESSES is set: by default the test keeps its traffic on the
 * loopback addresses, since a machine's own interface may be one it must not use. */
static void find_own_addresses(void)
{
    struct ifaddrs *list, *i;
    if (!getenv("XW_TEST_OWN_ADDRESSES") || getifaddrs(&list) < 0)
        return;
    for (i = list; i; i = i->ifa_next) {
        if (!i->ifa_addr || !(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK))
            continue;
        int v6 = i->ifa_addr->sa_family == AF_INET6;
        struct transport *t = &transports[v6 ? OWN_IPV6 : OWN_IPV4];
        if (t->host[0] || (!v6 && i->ifa_addr->sa_family != AF_INET))
            continue;
        const void *a = v6 ? (const void *)&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr
                           : (const void *)&((struct sockaddr_in *)i->ifa_addr)->sin_addr;
        if (v6 && IN6_IS_ADDR_LINKLOCAL((const struct in6_addr *)a))
            continue;
        char text[INET6_ADDRSTRLEN];
        inet_ntop(t->family, a, text, sizeof(text));
        snprintf(t->host, sizeof(t->host), v6 ? "[%s]" : "%s", text);
        memcpy(t->addr, a, v6 ? 16 : 4);
    }
    freeifaddrs(list);
}

static char dir[32];
static char server_file[64], client_file[64];
static struct xvfb server;

/* Writes entries for the display as reached over t (NULL: the server's file, whose
 * entries it reads all, whatever their address). */
static void write_auth(const char *path, const struct entry *e, int n, const struct transport *t)
{
    char host[256], num[16];
    ck_assert_int_eq(gethostname(host, sizeof(host)), 0);
    snprintf(num, sizeof(num), "%d", t ? server.display : 0);
    int by_addr = t && t->by_address, v6 = by_addr && t->family == AF_INET6;
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < n && e[i].name; i++) {
        Xauth a = {
            .family = by_addr ? (v6 ? FamilyInternet6 : FamilyInternet) : FamilyLocal,
            .address_length = (unsigned short)(by_addr ? (v6 ? 16 : 4) : strlen(host)),
            .address = by_addr ? (char *)t->addr : host,
            .number_length = (unsigned short)strlen(num),
            .number = num,
            .name_length = (unsigned short)strlen(e[i].name),
            .name = (char *)e[i].name,
            .data_length = 16,
            .data = (char *)e[i].data,
        };
        ck_assert_int_eq(XauWriteAuth(f, &a), 1);
    }
    ck_assert_int_eq(fclose(f), 0);
}

/* A fresh server that knows the right XDM key and the right cookie. Each library
 * gets its own: the server refuses an XDM credential it has seen, and IPv6
 * credentials carry no address, so two in one second would collide. */
static void start_server(int tcp)
{
    static const struct entry both[] = {{XDM, xdm_right}, {MIT, mit_right}};
    write_auth(server_file, both, 2, NULL);
    const char *args[] = {"-auth", server_file, tcp ? "-listen" : NULL, "tcp", NULL};
    ck_assert_msg(xvfb_start_with(&server, args) == 0, "cannot start Xvfb (set $XVFB)");
}

static void display_name(char *buf, size_t cap, const struct transport *t)
{
    snprintf(buf, cap, "%s:%d", t->family == AF_UNIX ? "" : t->host, server.display);
}

/* 1 when xwire connects with the case's Xauthority; a refusal must be the server's. */
static int xwire_connects(const struct transport *t, char *why, size_t cap)
{
    char name[96];
    display_name(name, sizeof(name), t);
    xw_connection_t *c = xw_connect(name, NULL);
    int ok = !xw_connection_has_error(c);
    snprintf(why, cap, "%s", ok ? "" : xw_connection_error_string(c));
    xw_disconnect(c);
    return ok;
}

static int libxcb_connects(const struct transport *t)
{
    char name[96];
    display_name(name, sizeof(name), t);
    xcb_connection_t *c = xcb_connect(name, NULL);
    int ok = !xcb_connection_has_error(c);
    xcb_disconnect(c);
    return ok;
}

/* 0 when the transport has no address here or the server does not listen there. */
static int reachable(const struct transport *t)
{
    if (t->family == AF_UNIX)
        return 1;
    if (!t->host[0])
        return 0;
    char port[16];
    snprintf(port, sizeof(port), "%d", 6000 + server.display);
    char host[64];
    snprintf(host, sizeof(host), "%.*s", (int)strcspn(t->host + (t->host[0] == '['), "]"),
             t->host + (t->host[0] == '['));
    struct addrinfo hints = {.ai_family = t->family, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST}, *ai;
    if (getaddrinfo(host, port, &hints, &ai) != 0)
        return 0;
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int ok = fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0;
    if (fd >= 0)
        close(fd);
    freeaddrinfo(ai);
    return ok;
}

static void setup(void)
{
    xwtest_fds_begin();
}

static void teardown(void)
{
    xvfb_stop(&server);
    unlink(server_file);
    unlink(client_file);
    xwtest_fds_end();
}

/* One case over one transport: xwire and libxcb, each against its own server. */
START_TEST(xdm_case)
{
    const struct xdm_case *k = &cases[_i / TRANSPORTS];
    const struct transport *t = &transports[_i % TRANSPORTS];
    int got[2];
    char why[256];
    for (int lib = 0; lib < 2; lib++) {
        start_server(t->family != AF_UNIX);
        if (!reachable(t)) {
            fprintf(stderr, "SKIP xdm %s over %s: no such address, or Xvfb does not listen there\n", k->name, t->name);
            return;
        }
        write_auth(client_file, k->entries, 2, t);
        got[lib] = lib ? libxcb_connects(t) : xwire_connects(t, why, sizeof(why));
        xvfb_stop(&server);
    }
    fprintf(stderr, "xdm | %-32s | %-9s | xwire %-8s | libxcb %s\n", k->name, t->name, got[0] ? "connects" : "refused",
            got[1] ? "connects" : "refused");
    ck_assert_int_eq(got[1], k->connects);
    ck_assert_msg(got[0] == got[1], "xwire %s where libxcb %s: %s", got[0] ? "connects" : "is refused",
                  got[1] ? "connects" : "is refused", why);
    if (!got[0]) /* the server's reason for the XDM credentials it refused */
        ck_assert_msg(strstr(why, XDM) != NULL, "%s", why);
}
END_TEST

/* Two connections in one second from one process: the credentials differ (the
 * nonce on Unix sockets, the port over IPv4), so the server takes both. Not over
 * IPv6, whose credentials carry zeros: there the second is refused as a replay
 * within the same second, with libxcb as with xwire. */
START_TEST(xdm_two_connections_at_once)
{
    const struct transport *t = &transports[_i];
    static const struct entry xdm[] = {{XDM, xdm_right}};
    if (t->family == AF_INET6)
        return;
    start_server(t->family != AF_UNIX);
    if (!reachable(t))
        return;
    write_auth(client_file, xdm, 1, t);
    char name[96];
    display_name(name, sizeof(name), t);
    xw_connection_t *a = xw_connect(name, NULL), *b = xw_connect(name, NULL);
    ck_assert_msg(!xw_connection_has_error(a), "%s", xw_connection_error_string(a));
    ck_assert_msg(!xw_connection_has_error(b), "%s", xw_connection_error_string(b));
    xw_disconnect(a);
    xw_disconnect(b);
}
END_TEST

int main(void)
{
    if (xvfb_missing("xdm"))
        return 77;
    find_own_addresses();
    /* One directory for the run, emptied again by main: a test that fails in its
     * own process skips its teardown. */
    snprintf(dir, sizeof(dir), "/tmp/xw-xdm-XXXXXX");
    if (!mkdtemp(dir))
        return EXIT_FAILURE;
    snprintf(server_file, sizeof(server_file), "%s/server", dir);
    snprintf(client_file, sizeof(client_file), "%s/client", dir);
    setenv("XAUTHORITY", client_file, 1);
    Suite *s = xwtest_suite("xdm");
    TCase *tc = tcase_create("xdm");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, xdm_case, 0, (int)(sizeof(cases) / sizeof(cases[0])) * TRANSPORTS);
    tcase_add_loop_test(tc, xdm_two_connections_at_once, 0, TRANSPORTS);
    suite_add_tcase(s, tc);
    int status = xwtest_run(s);
    unlink(server_file);
    unlink(client_file);
    rmdir(dir);
    return status;
}
