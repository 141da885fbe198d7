/* SPDX-License-Identifier: MIT */
/* test_trace.c — the protocol tracer: lines for requests, replies, errors and events over a fake
 * server, the same lines however the bytes are cut, BIG-REQUESTS framing, and every generated decoder. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <xw/dri3.h>
#include <xw/xproto.h>

#include "fake_conn.h"
#include "conn.h"
#include "trace.h"

/* Everything written to fd so far, NUL-terminated (static: one at a time). */
static const char *contents(int fd)
{
    static char buf[1 << 16];
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    return buf;
}

/* The lines of text without their first two columns (time, connection). */
static char *strip(const char *text)
{
    size_t n = strlen(text);
    char *out = calloc(1, n + 1), *o = out;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        const char *s = p;
        for (int col = 0; col < 2 && s < p + len; s++)
            col += *s == ' ';
        memcpy(o, s, len - (size_t)(s - p));
        o += len - (size_t)(s - p);
        p += len;
    }
    return out;
}

static void serve_one(uint8_t *buf, size_t cap)
{
    ck_assert_int_gt(fake_read_request(&F, buf, cap, NULL, NULL), 0);
}

START_TEST(lines_for_request_reply_error_event)
{
    c = fake_connect(&F, NULL, 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    int fd = memfd_create("trace", MFD_CLOEXEC);
    ck_assert_int_eq(xw_trace_set(c, fd, 0), 0);
    uint8_t req[4096], out[64];

    xw_intern_atom_cookie_t ck = xw_intern_atom(c, 0, 8, "WM_STATE");
    xw_flush(c);
    serve_one(req, sizeof(req));
    uint32_t atom = 300;
    fake_send(&F, out, fake_reply(out, 1, 0, &atom, 4));
    free(xw_intern_atom_reply(c, ck, NULL));

    xw_map_window(c, 0x1234);
    xw_flush(c);
    serve_one(req, sizeof(req));
    fake_error(out, 2, 3, 0x1234, 8, 0);
    fake_send(&F, out, 32);
    fake_event(out, 12, 2, 0x1234);
    fake_send(&F, out, 32);
    free(xw_wait_for_event(c));
    free(xw_wait_for_event(c));

    xw_get_property_cookie_t gp = xw_get_property(c, 0, FAKE_ROOT, 300, 31, 0, 10);
    xw_flush(c);
    serve_one(req, sizeof(req));
    ck_assert_int_eq(xw_trace_set(c, -1, 0), 0);
    xw_discard_reply(c, gp.sequence);

    const char *t = contents(fd);
    ck_assert_ptr_nonnull(strstr(t, " c"));
    ck_assert_msg(strstr(t, " #1 > request InternAtom only_if_exists=false name_len=8 name=\"WM_STATE\"\n"), "%s", t);
    ck_assert_msg(strstr(t, " #1 < reply InternAtom atom=WM_STATE(300)\n"), "%s", t);
    ck_assert_msg(strstr(t, " #2 > request MapWindow window=0x1234\n"), "%s", t);
    ck_assert_msg(strstr(t, " #2 < error Window bad_value=0x1234 request=MapWindow(8.0)"), "%s", t);
    ck_assert_msg(strstr(t, " #2 < event Expose window=0x1234 x=0 y=0 width=0 height=0 count=0\n"), "%s", t);
    ck_assert_msg(
        strstr(t, " #3 > request GetProperty delete=false window=0x100 property=WM_STATE(300) type=STRING(31)"), "%s",
        t);
    close(fd);
}
END_TEST

/* fds in both directions: DRI3 PixmapFromBuffer's, and the one Open's reply brings. */
static const struct fake_ext dri3_ext[] = {{"DRI3", 149, 0, 0}, {NULL, 0, 0, 0}};

/* DRI3 Open (minor 1): a reply with one fd (/dev/null). */
static int answer_open(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    if (req[0] != 149 || req[1] != 1)
        return 0;
    uint8_t out[32];
    int dn = open("/dev/null", O_RDONLY | O_CLOEXEC);
    fake_send_fds(f, out, fake_reply(out, (uint16_t)f->seq, 1, NULL, 0), &dn, 1);
    close(dn);
    return 1;
}

START_TEST(fds_passed_either_way)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = dri3_ext;
    F.on_request = answer_open;
    ck_assert_int_eq(fake_serve_start(&F), 0);
    int fd = memfd_create("trace", MFD_CLOEXEC);
    ck_assert_int_eq(xw_trace_set(c, fd, 0), 0);
    xw_generic_error_t *e = NULL;
    xw_dri3_open_reply_t *r = xw_dri3_open_reply(c, xw_dri3_open(c, FAKE_ROOT, 0), &e);
    ck_assert_msg(r != NULL, "error %d, connection %d: %s\n%s", e ? e->error_code : -1, xw_connection_has_error(c),
                  xw_connection_error_string(c), contents(fd));
    close(*xw_dri3_open_reply_fds(c, r));
    free(r);
    int mine = open("/dev/null", O_RDONLY | O_CLOEXEC);
    char want[80];
    snprintf(want, sizeof(want), " stride=4 depth=24 bpp=32 pixmap_fd=fd:%d\n", mine);
    xw_dri3_pixmap_from_buffer(c, 0x200001, FAKE_ROOT, 4096, 32, 32, 4, 24, 32, mine);
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
    ck_assert_int_eq(xw_trace_set(c, -1, 0), 0);
    const char *t = contents(fd);
    ck_assert_msg(strstr(t, " < reply DRI3:Open nfd=1 device_fd=fd:"), "%s", t);
    ck_assert_msg(strstr(t, want), "%s", t);
    close(fd);
}
END_TEST

#define FLOOD 20000

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

static void *flood(void *arg)
{
    xw_connection_t *cc = arg;
    for (int i = 0; i < FLOOD; i++)
        xw_no_operation(cc);
    free(xw_get_input_focus_reply(cc, xw_get_input_focus(cc), NULL));
    return NULL;
}

/* Two connections on two threads tracing into one file, one in each form: every
 * line whole, none lost. */
START_TEST(lines_never_interleave)
{
    struct fake_server f2 = {.fd = -1};
    c = fake_connect(&F, NULL, 0);
    xw_connection_t *c2 = fake_connect(&f2, NULL, 0);
    ck_assert_int_eq(fake_serve_start(&F), 0);
    ck_assert_int_eq(fake_serve_start(&f2), 0);
    int fd = memfd_create("trace", MFD_CLOEXEC);
    ck_assert_int_eq(xw_trace_set(c, fd, 0), 0);
    ck_assert_int_eq(xw_trace_set(c2, fd, XW_TRACE_JSON), 0);
    pthread_t a, b;
    pthread_create(&a, NULL, flood, c);
    pthread_create(&b, NULL, flood, c2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    ck_assert_int_eq(xw_trace_set(c, -1, 0), 0);
    ck_assert_int_eq(xw_trace_set(c2, -1, 0), 0);
    xw_disconnect(c2);
    fake_stop(&f2);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    char *all = malloc((size_t)st.st_size + 1);
    ck_assert_int_eq(pread(fd, all, (size_t)st.st_size, 0), st.st_size);
    all[st.st_size] = 0;
    close(fd);
    int text = 0, json = 0, other = 0;
    for (char *p = all, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        ck_assert_ptr_nonnull(nl);
        *nl = 0;
        if (p[0] == '{' && ends_with(p, "\"dir\":\">\",\"kind\":\"request\",\"name\":\"NoOperation\",\"fields\":{}}"))
            json++;
        else if (p[0] != '{' && ends_with(p, " > request NoOperation"))
            text++;
        else if (strstr(p, "GetInputFocus"))
            other++;
        else
            ck_abort_msg("a line cut or mixed: %s", p);
    }
    free(all);
    ck_assert_int_eq(text, FLOOD);
    ck_assert_int_eq(json, FLOOD);
    ck_assert_int_eq(other, 4);
}
END_TEST

/* A request stream: InternAtom, NoOperation, ChangeProperty in the usual framing,
 * the same ChangeProperty in BIG-REQUESTS framing, NoOperation. */
static size_t request_stream(uint8_t *b)
{
    static const uint8_t intern[16] = {16, 0, 4, 0, 8, 0, 0, 0, 'W', 'M', '_', 'S', 'T', 'A', 'T', 'E'};
    static const uint8_t noop[4] = {127, 0, 1, 0};
    uint8_t prop[32] = {18, 0, 8, 0};
    const uint32_t w[5] = {0x100, 39, 31, 8, 5};
    memcpy(prop + 4, w, 12);
    prop[16] = 8;
    memcpy(prop + 20, &w[4], 4);
    memcpy(prop + 24, "hello", 5);
    size_t n = 0;
    memcpy(b + n, intern, 16), n += 16;
    memcpy(b + n, noop, 4), n += 4;
    memcpy(b + n, prop, 32), n += 32;
    uint32_t big = 9;
    memcpy(b + n, prop, 4), b[n + 2] = 0, b[n + 3] = 0;
    memcpy(b + n + 4, &big, 4);
    memcpy(b + n + 8, prop + 4, 28), n += 36;
    memcpy(b + n, noop, 4), n += 4;
    return n;
}

/* The stripped lines of the stream cut at the given points (ascending, 0 ends). */
static char *traced_out(const uint8_t *b, size_t n, const size_t *cuts)
{
    int fd = memfd_create("trace", MFD_CLOEXEC);
    ck_assert_int_eq(xw_trace_set(c, fd, 0), 0);
    xw__conn_lock(c);
    size_t at = 0;
    for (int i = 0; at < n; i++) {
        size_t to = cuts[i] ? cuts[i] : n;
        /* each piece as two slices, so cuts inside one write count too */
        size_t mid = at + (to - at) / 2;
        struct iovec iov[2] = {{(void *)(b + at), mid - at}, {(void *)(b + mid), to - mid}};
        xw__trace_out(c, iov, 2, to - at, NULL, 0);
        at = to;
    }
    xw__conn_unlock(c);
    ck_assert_int_eq(xw_trace_set(c, -1, 0), 0);
    char *s = strip(contents(fd));
    close(fd);
    return s;
}

START_TEST(same_lines_wherever_the_bytes_are_cut)
{
    c = fake_connect(&F, NULL, 0);
    uint8_t b[256];
    size_t n = request_stream(b);
    size_t none[1] = {0};
    char *whole = traced_out(b, n, none);
    ck_assert_msg(strstr(whole, "#1 > request InternAtom only_if_exists=false name_len=8 name=\"WM_STATE\"\n"), "%s",
                  whole);
    ck_assert_msg(strstr(whole, "#2 > request NoOperation\n"), "%s", whole);
    const char *cp = "request ChangeProperty mode=Replace window=0x100 property=WM_NAME(39) type=STRING(31) format=8 "
                     "data_len=5 data=[5]{104 101 108 108 111}\n";
    char l3[256], l4[256];
    snprintf(l3, sizeof(l3), "#3 > %s", cp);
    snprintf(l4, sizeof(l4), "#4 > %s", cp);
    ck_assert_msg(strstr(whole, l3), "%s", whole);
    ck_assert_msg(strstr(whole, l4), "BIG-REQUESTS framing decodes alike:\n%s", whole);
    ck_assert_msg(strstr(whole, "#5 > request NoOperation\n"), "%s", whole);
    for (size_t k = 1; k < n; k++) {
        size_t cuts[3] = {k, k + 3 < n ? k + 3 : 0, 0};
        char *s = traced_out(b, n, cuts);
        ck_assert_msg(!strcmp(s, whole), "cut at %zu:\n%s\nwhole:\n%s", k, s, whole);
        free(s);
    }
    free(whole);
}
END_TEST

/* Replies, errors and events cut anywhere, including a generic event. */
START_TEST(received_bytes_cut_anywhere)
{
    c = fake_connect(&F, NULL, 0);
    uint8_t b[256] = {0};
    size_t n = 0;
    uint32_t atom = 39;
    n += fake_reply(b + n, 0, 0, &atom, 4);
    fake_error(b + n, 0, 2, 77, 18, 0), n += 32;
    fake_event(b + n, 12, 0, 0x55), n += 32;
    b[n] = 35, b[n + 1] = 200, b[n + 4] = 2, n += 40; /* GenericEvent of an unknown extension, 8 more bytes */
    char *ref = NULL;
    for (size_t k = 0; k < n; k++) {
        int fd = memfd_create("trace", MFD_CLOEXEC);
        ck_assert_int_eq(xw_trace_set(c, fd, 0), 0);
        xw__conn_lock(c);
        struct iovec a = {b, k}, z = {b + k, n - k};
        xw__trace_in(c, &a, 1, k, NULL, 0);
        xw__trace_in(c, &z, 1, n - k, NULL, 0);
        xw__conn_unlock(c);
        ck_assert_int_eq(xw_trace_set(c, -1, 0), 0);
        char *s = strip(contents(fd));
        close(fd);
        if (!ref) {
            ref = s;
            ck_assert_msg(strstr(ref, "< reply Unknown length=32\n"), "%s", ref);
            ck_assert_msg(strstr(ref, "< error Value bad_value=0x4d request=ChangeProperty(18.0)"), "%s", ref);
            ck_assert_msg(strstr(ref, "< event Expose window=0x55"), "%s", ref);
            ck_assert_msg(strstr(ref, "< event GenericEvent:0"), "%s", ref);
            continue;
        }
        ck_assert_msg(!strcmp(s, ref), "cut at %zu:\n%s\nwhole:\n%s", k, s, ref);
        free(s);
    }
    free(ref);
}
END_TEST

static struct xw_trl l;
static int nshort;

/* What fn takes of n bytes; a packet whose own counts run past its end is short,
 * said on the line, and counted. */
static long decode(xw_tr_fn fn, const uint8_t *b, size_t n, size_t len)
{
    memset(&l, 0, offsetof(struct xw_trl, buf));
    l.kept = n;
    l.p = l.buf;
    l.end = l.buf + XW_TRL_SIZE;
    l.maxlist = 16;
    l.len = len;
    xw__trace_line_fields(&l);
    long r = fn(&l, (const char *)b, n);
    xw__trace_line_end(&l);
    ck_assert_int_eq(r < 0, l.shorted);
    nshort += l.shorted;
    return r < 0 ? (long)n : r;
}

/* Every decoder of every description on zeroed bytes of the right framing: events
 * and errors take no more than their 32 bytes (the description leaves the tail's
 * padding out); replies, generic events and requests
 * take no more than they are given. */
START_TEST(every_decoder_of_every_description)
{
    size_t nd;
    const struct xw_tr_desc *const *d = xw__trace_descs(&nd);
    ck_assert_uint_eq(nd, 32);
    static uint8_t b[4096];
    int counts[5] = {0};
    for (size_t i = 0; i < nd; i++) {
        for (int k = 0; k < d[i]->n_events; k++) {
            if (!d[i]->events[k].fn)
                continue;
            memset(b, 0, sizeof(b));
            b[0] = (uint8_t)(64 + k);
            long r = decode(d[i]->events[k].fn, b, 32, 32);
            ck_assert_msg(r > 0 && r <= 32, "%s event %s: %ld", d[i]->xname, d[i]->events[k].name, r);
            counts[0]++;
        }
        for (int k = 0; k < d[i]->n_errors; k++) {
            if (!d[i]->errors[k].fn)
                continue;
            memset(b, 0, sizeof(b));
            long r = decode(d[i]->errors[k].fn, b, 32, 32);
            ck_assert_msg(r > 0 && r <= 32, "%s error %s: %ld", d[i]->xname, d[i]->errors[k].name, r);
            counts[1]++;
        }
        for (int k = 0; k < d[i]->n_xge; k++) {
            if (!d[i]->xge[k].fn)
                continue;
            memset(b, 0, sizeof(b));
            b[0] = 35, b[4] = 64; /* 32 + 256 bytes */
            long r = decode(d[i]->xge[k].fn, b, 288, 288);
            ck_assert_msg(r >= 10 && r <= 288, "%s generic event %s: %ld", d[i]->xname, d[i]->xge[k].name, r);
            counts[2]++;
        }
        for (int k = 0; k < d[i]->n_replies; k++) {
            if (!d[i]->replies[k].fn)
                continue;
            memset(b, 0, sizeof(b));
            b[0] = 1, b[4] = 64;
            long r = decode(d[i]->replies[k].fn, b, 288, 288);
            ck_assert_msg(r >= 8 && r <= 288, "%s %s reply: %ld", d[i]->xname, d[i]->replies[k].name, r);
            counts[3]++;
        }
        for (int k = 0; k < d[i]->n_requests; k++) {
            if (!d[i]->requests[k].fn)
                continue;
            memset(b, 0, sizeof(b));
            b[2] = 64; /* 256 bytes */
            long r = decode(d[i]->requests[k].fn, b, 256, 256);
            ck_assert_msg(r >= 4 && r <= 256, "%s %s request: %ld", d[i]->xname, d[i]->requests[k].name, r);
            counts[4]++;
        }
    }
    fprintf(stderr, "trace decoders: %d events, %d errors, %d generic events, %d replies, %d requests; %d short\n",
            counts[0], counts[1], counts[2], counts[3], counts[4], nshort);
    /* zeroed counts fit nearly everything: only lists sized by the whole length run over */
    ck_assert_int_lt(nshort, 20);
}
END_TEST

/* For tests/trace_forms.py: a scripted session traced as XWIRE_TRACE* say. */
static int scenario(void)
{
    struct fake_server f = {.fd = -1};
    xw_connection_t *cc = fake_connect(&f, NULL, 0);
    if (xw_connection_has_error(cc))
        return 1;
    uint8_t req[4096], out[64];
    xw_intern_atom_cookie_t ck = xw_intern_atom(cc, 0, 8, "WM_STATE");
    xw_flush(cc);
    fake_read_request(&f, req, sizeof(req), NULL, NULL);
    uint32_t atom = 300;
    fake_send(&f, out, fake_reply(out, 1, 0, &atom, 4));
    free(xw_intern_atom_reply(cc, ck, NULL));
    for (int i = 0; i < 3; i++)
        xw_no_operation(cc);
    xw_point_t pts[40];
    for (int i = 0; i < 40; i++)
        pts[i] = (xw_point_t){(int16_t)i, (int16_t)-i};
    xw_poly_point(cc, XW_COORD_MODE_ORIGIN, FAKE_ROOT, 0x200001, 40, pts);
    xw_map_window(cc, 0x1234);
    xw_flush(cc);
    for (int i = 0; i < 5; i++)
        fake_read_request(&f, req, sizeof(req), NULL, NULL);
    fake_error(out, 6, 3, 0x1234, 8, 0);
    fake_send(&f, out, 32);
    fake_event(out, 12, 6, 0x1234);
    fake_send(&f, out, 32);
    free(xw_wait_for_event(cc));
    free(xw_wait_for_event(cc));
    xw_disconnect(cc);
    fake_stop(&f);
    return 0;
}

/* The scenario, then again in a child forked after the parent's connection was traced
 * (XWIRE_TRACE=...%p gives each process its own file). */
static int scenario_fork(void)
{
    if (scenario())
        return 1;
    pid_t pid = fork();
    if (pid == 0)
        _exit(scenario());
    int st = 1;
    return pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--scenario"))
        return scenario();
    if (argc > 1 && !strcmp(argv[1], "--scenario-fork"))
        return scenario_fork();
    Suite *s = xwtest_suite("trace");
    fake_conn_tcase(s, "trace",
                    (const TTest *const[]){lines_for_request_reply_error_event, same_lines_wherever_the_bytes_are_cut,
                                           received_bytes_cut_anywhere, every_decoder_of_every_description,
                                           fds_passed_either_way, lines_never_interleave, NULL});
    return xwtest_run(s);
}
