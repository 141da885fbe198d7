/* SPDX-License-Identifier: MIT */
/* queued.c — xwqueued: heap and RSS per event queued and unread, xwire beside libxcb in one process. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xw/xproto.h>

#include "drain.h"

/* Against the drain server (xwbench --serve drain): InternAtom of DRAIN_EVENTS_PREFIX
 * and a count makes it stream that many events after the reply; it reads the next
 * request only once they are all written, so a round trip after it returns with
 * every event read and queued. Heap (what malloc has handed out, mmap'd blocks
 * included) and resident size are taken before and after, then the events are
 * read (and checked) and the connection closed. */

struct usage {
    size_t heap, rss;
};

static struct usage now(void)
{
    struct mallinfo2 mi = mallinfo2();
    struct usage u = {mi.uordblks + mi.hblkhd, 0};
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size, res;
    if (f && fscanf(f, "%lu %lu", &size, &res) == 2)
        u.rss = res * (size_t)sysconf(_SC_PAGESIZE);
    if (f)
        fclose(f);
    return u;
}

static void report(const char *lib, long n, struct usage a, struct usage b, long got)
{
    printf("%-7s %ld events queued: heap %+.1f MB (%.1f bytes/event), RSS %+.1f MB (%.1f bytes/event); %ld read back\n",
           lib, n, ((double)b.heap - (double)a.heap) / 1e6, ((double)b.heap - (double)a.heap) / (double)n,
           ((double)b.rss - (double)a.rss) / 1e6, ((double)b.rss - (double)a.rss) / (double)n, got);
}

static int is_ours(const uint8_t *e)
{
    uint32_t magic;
    memcpy(&magic, e + 12, 4);
    return (e[0] & 0x7f) == 33 && magic == DRAIN_EVENT_MAGIC;
}

static int run_xcb(const char *display, long n)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(c))
        return -1;
    char name[64];
    int len = snprintf(name, sizeof name, DRAIN_EVENTS_PREFIX "%ld", n);
    struct usage a = now();
    free(xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, (uint16_t)len, name), NULL));
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    struct usage b = now();
    long got = 0;
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_queued_event(c))) {
        got += is_ours((const uint8_t *)e);
        free(e);
    }
    report("libxcb", n, a, b, got);
    xcb_disconnect(c);
    return got == n ? 0 : -1;
}

static int run_xw(const char *display, long n)
{
    xw_connection_t *c = xw_connect(display, NULL);
    if (xw_connection_has_error(c))
        return -1;
    char name[64];
    int len = snprintf(name, sizeof name, DRAIN_EVENTS_PREFIX "%ld", n);
    struct usage a = now();
    free(xw_intern_atom_reply(c, xw_intern_atom(c, 0, (uint16_t)len, name), NULL));
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
    struct usage b = now();
    long got = 0;
    xw_generic_event_t *e;
    while ((e = xw_poll_for_queued_event(c))) {
        got += is_ours((const uint8_t *)e);
        free(e);
    }
    report("xwire", n, a, b, got);
    xw_disconnect(c);
    return got == n ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: xwqueued DISPLAY [EVENTS] [xcb|xw]...\n"
                        "  DISPLAY of a drain server (xwbench --serve drain); EVENTS default 1000000\n");
        return 2;
    }
    long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1000000;
    int rc = 0;
    for (int i = 3; i < argc || i == 3; i++) {
        const char *lib = i < argc ? argv[i] : NULL;
        if ((!lib || !strcmp(lib, "xw")) && run_xw(argv[1], n) < 0)
            rc = 1;
        if ((!lib || !strcmp(lib, "xcb")) && run_xcb(argv[1], n) < 0)
            rc = 1;
    }
    return rc;
}
