/* test_xdm.c — XDM-AUTHORIZATION-1 against Xvfb started with -auth, each case beside libxcb's result. */
#include <check.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

enum { UNIX_SOCKET, TCP4, TCP6, TRANSPORTS };
static const char *const transport_names[] = {"unix", "127.0.0.1", "::1"};

static char dir[32];
static char server_file[64], client_file[64];
static struct xvfb server;

/* Writes entries for this host's display (FamilyLocal keyed by host name, as xauth
 * writes them and as both libraries look up Unix and loopback connections). */
static void write_auth(const char *path, const struct entry *e, int n, int display)
{
    char host[256], num[16];
    ck_assert_int_eq(gethostname(host, sizeof(host)), 0);
    snprintf(num, sizeof(num), "%d", display);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < n && e[i].name; i++) {
        Xauth a = {
            .family = FamilyLocal,
            .address_length = (unsigned short)strlen(host), .address = host,
            .number_length = (unsigned short)strlen(num), .number = num,
            .name_length = (unsigned short)strlen(e[i].name), .name = (char *)e[i].name,
            .data_length = 16, .data = (char *)e[i].data,
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
    write_auth(server_file, both, 2, 0); /* the server reads every entry, whatever its address */
    const char *args[] = {"-auth", server_file, tcp ? "-listen" : NULL, "tcp", NULL};
    ck_assert_msg(xvfb_start_with(&server, args) == 0, "cannot start Xvfb (set $XVFB)");
}

static void display_name(char *buf, size_t cap, int transport)
{
    static const char *const prefix[] = {"", "127.0.0.1", "[::1]"};
    snprintf(buf, cap, "%s:%d", prefix[transport], server.display);
}

/* 1 when xwire connects with the case's Xauthority; a refusal must be the server's. */
static int xwire_connects(int transport, char *why, size_t cap)
{
    char name[64];
    display_name(name, sizeof(name), transport);
    xw_connection_t *c = xw_connect(name, NULL);
    int ok = !xw_connection_has_error(c);
    snprintf(why, cap, "%s", ok ? "" : xw_connection_error_string(c));
    xw_disconnect(c);
    return ok;
}

static int libxcb_connects(int transport)
{
    char name[64];
    display_name(name, sizeof(name), transport);
    xcb_connection_t *c = xcb_connect(name, NULL);
    int ok = !xcb_connection_has_error(c);
    xcb_disconnect(c);
    return ok;
}

/* 0 when nothing answers on [::1] at the display's port (no IPv6 here). */
static int ipv6_loopback_listens(int display)
{
    struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)(6000 + display)),
                             .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

static void setup(void)
{
    xwtest_fds_begin();
    snprintf(dir, sizeof(dir), "/tmp/xw-xdm-XXXXXX"); /* mkdtemp fills the template in */
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(server_file, sizeof(server_file), "%s/server", dir);
    snprintf(client_file, sizeof(client_file), "%s/client", dir);
    setenv("XAUTHORITY", client_file, 1);
}

static void teardown(void)
{
    xvfb_stop(&server);
    unlink(server_file);
    unlink(client_file);
    rmdir(dir);
    xwtest_fds_end();
}

/* One case over one transport: xwire and libxcb, each against its own server. */
START_TEST(xdm_case)
{
    const struct xdm_case *k = &cases[_i / TRANSPORTS];
    int transport = _i % TRANSPORTS;
    int got[2];
    char why[256];
    for (int lib = 0; lib < 2; lib++) {
        start_server(transport != UNIX_SOCKET);
        if (transport == TCP6 && !ipv6_loopback_listens(server.display)) {
            fprintf(stderr, "SKIP xdm %s over ::1: Xvfb does not listen there\n", k->name);
            return;
        }
        write_auth(client_file, k->entries, 2, server.display);
        got[lib] = lib ? libxcb_connects(transport) : xwire_connects(transport, why, sizeof(why));
        xvfb_stop(&server);
    }
    fprintf(stderr, "xdm | %-33s | %-9s | xwire %-9s | libxcb %s\n", k->name, transport_names[transport],
            got[0] ? "connects" : "refused", got[1] ? "connects" : "refused");
    ck_assert_int_eq(got[1], k->connects);
    ck_assert_msg(got[0] == got[1], "xwire %s where libxcb %s: %s", got[0] ? "connects" : "is refused",
                  got[1] ? "connects" : "is refused", why);
    if (!got[0]) /* the server's reason for the XDM credentials it refused */
        ck_assert_msg(strstr(why, XDM) != NULL, "%s", why);
}
END_TEST

/* Two connections in one second from one process: the credentials differ (the
 * nonce on Unix sockets, the port over TCP), so the server takes both. */
START_TEST(xdm_two_connections_at_once)
{
    int transport = _i;
    static const struct entry xdm[] = {{XDM, xdm_right}};
    start_server(transport != UNIX_SOCKET);
    write_auth(client_file, xdm, 1, server.display);
    char name[64];
    display_name(name, sizeof(name), transport);
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
    Suite *s = xwtest_suite("xdm");
    TCase *tc = tcase_create("xdm");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, xdm_case, 0, (int)(sizeof(cases) / sizeof(cases[0])) * TRANSPORTS);
    tcase_add_loop_test(tc, xdm_two_connections_at_once, UNIX_SOCKET, TCP6);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
