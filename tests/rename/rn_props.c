/* SPDX-License-Identifier: MIT */
/* rn_props.c — rename-test client: atoms and properties of every format, written against libxcb. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>

static xcb_connection_t *c;
static uint32_t base;

/* A window id no client owns: the top of our own id range is never handed out
 * this early, so requests on it fail with BadWindow on every run. */
#define BAD_WINDOW(b) ((b) + 0x1ffff0)
#define BAD_ATOM 0x7ffffff0u

static const char *const names[] = {
    "PRIMARY",   "WM_NAME",   "RN_ALPHA", "RN_BETA",  "RN_STRING",
    "RN_LIST16", "RN_LIST32", "RN_BIG8",  "RN_BIG32", "A_rather_long_atom_name_that_needs_several_words_of_padding_xyz",
};
enum { N_NAMES = sizeof(names) / sizeof(names[0]) };
static xcb_atom_t atoms[N_NAMES];

enum { BIG8_LEN = 100 * 1024, BIG32_LEN = 75 * 1024 }; /* 100 KiB; 300 KiB needs BIG-REQUESTS */

static void die(const char *what)
{
    printf("FATAL: %s (connection error %d)\n", what, xcb_connection_has_error(c));
    exit(1);
}

static uint32_t fnv1a(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void print_error(const char *what, const xcb_generic_error_t *e)
{
    if (!e) {
        printf("%s: no error\n", what);
        return;
    }
    printf("%s: error code=%u major=%u minor=%u bad=0x%x\n", what, e->error_code, e->major_code, e->minor_code,
           e->resource_id);
}

/* Interns everything pipelined, then probes only_if_exists for a known and an
 * unknown name. */
static void intern_all(void)
{
    xcb_intern_atom_cookie_t ck[N_NAMES];
    for (int i = 0; i < N_NAMES; i++)
        ck[i] = xcb_intern_atom(c, 0, (uint16_t)strlen(names[i]), names[i]);
    xcb_intern_atom_cookie_t known = xcb_intern_atom(c, 1, 8, "RN_ALPHA");
    xcb_intern_atom_cookie_t unknown = xcb_intern_atom(c, 1, 13, "RN_NOT_THERE_");
    for (int i = 0; i < N_NAMES; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, ck[i], NULL);
        if (!r)
            die("InternAtom");
        atoms[i] = r->atom;
        free(r);
    }
    xcb_intern_atom_reply_t *k = xcb_intern_atom_reply(c, known, NULL);
    xcb_intern_atom_reply_t *u = xcb_intern_atom_reply(c, unknown, NULL);
    if (!k || !u)
        die("InternAtom only_if_exists");
    printf("only_if_exists RN_ALPHA=%s RN_NOT_THERE_=%u\n", k->atom == atoms[2] ? "same" : "DIFFERENT", u->atom);
    free(k);
    free(u);
}

static void print_names(void)
{
    xcb_get_atom_name_cookie_t ck[N_NAMES];
    for (int i = 0; i < N_NAMES; i++)
        ck[i] = xcb_get_atom_name(c, atoms[i]);
    for (int i = 0; i < N_NAMES; i++) {
        xcb_get_atom_name_reply_t *r = xcb_get_atom_name_reply(c, ck[i], NULL);
        if (!r)
            die("GetAtomName");
        int n = xcb_get_atom_name_name_length(r);
        printf("atom %u = '%.*s'%s\n", atoms[i], n, xcb_get_atom_name_name(r),
               (size_t)n == strlen(names[i]) && !memcmp(xcb_get_atom_name_name(r), names[i], (size_t)n) ? ""
                                                                                                        : " MISMATCH");
        free(r);
    }
}

static const char *atom_label(xcb_atom_t a)
{
    static char buf[32];
    for (int i = 0; i < N_NAMES; i++)
        if (atoms[i] == a)
            return names[i];
    snprintf(buf, sizeof(buf), "atom#%u", (unsigned)a);
    return buf;
}

/* Reads a property (offset and length in 32-bit units) and prints its header, a
 * few leading values and a checksum of the whole value. */
static void show(xcb_window_t w, xcb_atom_t prop, uint32_t offset, uint32_t length, int del)
{
    xcb_get_property_cookie_t ck =
        xcb_get_property(c, (uint8_t)del, w, prop, XCB_GET_PROPERTY_TYPE_ANY, offset, length);
    xcb_generic_error_t *e = NULL;
    xcb_get_property_reply_t *r = xcb_get_property_reply(c, ck, &e);
    if (!r) {
        print_error("GetProperty", e);
        free(e);
        return;
    }
    int len = xcb_get_property_value_length(r);
    const uint8_t *v = xcb_get_property_value(r);
    printf("%s[%u+%u]%s: type=%s format=%u items=%u after=%u bytes=%d fnv=0x%08x first:", atom_label(prop), offset,
           length, del ? " (delete)" : "", r->type ? atom_label(r->type) : "None", r->format, r->value_len,
           r->bytes_after, len, fnv1a(v, (size_t)len));
    for (int i = 0; i < 6 && r->format && i < (int)r->value_len; i++) {
        uint32_t x = 0;
        memcpy(&x, v + i * (r->format / 8), r->format / 8);
        printf(" %u", x);
    }
    printf("\n");
    free(r);
}

static void set_properties(xcb_window_t w)
{
    static const uint16_t l16[] = {1, 2, 3, 65535, 32768, 0, 7};
    static const uint32_t l32[] = {10, 20, 30, 0xffffffffu, 0x80000000u};
    static const uint32_t more32[] = {40, 50};
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, atoms[4], XCB_ATOM_STRING, 8, 12, "hello, xwire");
    xcb_change_property(c, XCB_PROP_MODE_PREPEND, w, atoms[4], XCB_ATOM_STRING, 8, 3, ">> ");
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, atoms[5], XCB_ATOM_INTEGER, 16, 7, l16);
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, atoms[6], XCB_ATOM_CARDINAL, 32, 5, l32);
    xcb_change_property(c, XCB_PROP_MODE_APPEND, w, atoms[6], XCB_ATOM_CARDINAL, 32, 2, more32);
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, atoms[3], XCB_ATOM_ATOM, 32, 1, &atoms[2]);

    uint8_t *big8 = malloc(BIG8_LEN);
    uint32_t *big32 = malloc(BIG32_LEN * sizeof(uint32_t));
    if (!big8 || !big32)
        die("malloc");
    for (uint32_t i = 0; i < BIG8_LEN; i++)
        big8[i] = (uint8_t)(i * 7 + 3);
    for (uint32_t i = 0; i < BIG32_LEN; i++)
        big32[i] = i * 2654435761u;
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, atoms[7], XCB_ATOM_STRING, 8, BIG8_LEN, big8);
    /* 300 KiB is past the 256 KiB core limit: the library must use BIG-REQUESTS. */
    xcb_void_cookie_t ck =
        xcb_change_property_checked(c, XCB_PROP_MODE_REPLACE, w, atoms[8], XCB_ATOM_CARDINAL, 32, BIG32_LEN, big32);
    xcb_generic_error_t *e = xcb_request_check(c, ck);
    print_error("ChangeProperty 300 KiB", e);
    free(e);
    printf("big8 fnv=0x%08x big32 fnv=0x%08x\n", fnv1a(big8, BIG8_LEN), fnv1a(big32, BIG32_LEN * 4u));
    free(big8);
    free(big32);
}

static void list_properties(xcb_window_t w)
{
    xcb_list_properties_reply_t *r = xcb_list_properties_reply(c, xcb_list_properties(c, w), NULL);
    if (!r)
        die("ListProperties");
    int n = xcb_list_properties_atoms_length(r);
    const xcb_atom_t *a = xcb_list_properties_atoms(r);
    printf("ListProperties: %d:", n);
    for (int i = 0; i < n; i++)
        printf(" %s", atom_label(a[i]));
    printf("\n");
    free(r);
}

/* Errors through every route: checked void request, reply-bearing request,
 * unchecked void request (the error comes back as an event). */
static void errors(xcb_window_t w)
{
    xcb_window_t bad = BAD_WINDOW(base);
    xcb_generic_error_t *e = xcb_request_check(
        c, xcb_change_property_checked(c, XCB_PROP_MODE_REPLACE, bad, atoms[4], XCB_ATOM_STRING, 8, 1, "x"));
    print_error("ChangeProperty bad window", e);
    free(e);
    e = xcb_request_check(c, xcb_delete_property_checked(c, w, BAD_ATOM));
    print_error("DeleteProperty bad atom", e);
    free(e);
    e = xcb_request_check(c, xcb_change_property_checked(c, 7, w, atoms[4], XCB_ATOM_STRING, 8, 1, "x"));
    print_error("ChangeProperty bad mode", e);
    free(e);
    e = NULL;
    xcb_get_atom_name_reply_t *n = xcb_get_atom_name_reply(c, xcb_get_atom_name(c, BAD_ATOM), &e);
    printf("GetAtomName bad atom: reply=%s\n", n ? "yes" : "no");
    print_error("GetAtomName bad atom", e);
    free(n);
    free(e);
    show(bad, atoms[4], 0, 10, 0);

    xcb_delete_property(c, bad, atoms[4]); /* unchecked: error goes to the event queue */
    e = xcb_request_check(c, xcb_delete_property_checked(c, w, atoms[4]));
    print_error("DeleteProperty checked ok", e);
    free(e);
    xcb_generic_event_t *ev = xcb_poll_for_event(c);
    if (ev && ev->response_type == 0)
        print_error("queued error", (xcb_generic_error_t *)ev);
    else
        printf("queued error: %s\n", ev ? "other event" : "none");
    free(ev);
}

int main(void)
{
    /* Line-buffered, so a run killed on timeout still shows how far it got. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    int screen_num = 0;
    c = xcb_connect(NULL, &screen_num);
    if (xcb_connection_has_error(c))
        die("connect");
    base = xcb_get_setup(c)->resource_id_base;
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;

    intern_all();
    print_names();
    xcb_window_t w = xcb_generate_id(c);
    xcb_create_window(c, 0, w, s->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, 0, NULL);
    printf("window +%u\n", w - base);
    set_properties(w);
    list_properties(w);

    show(w, atoms[4], 0, 100, 0);
    show(w, atoms[4], 1, 2, 0);
    show(w, atoms[5], 0, 100, 0);
    show(w, atoms[6], 0, 100, 0);
    show(w, atoms[6], 2, 1, 0);
    show(w, atoms[3], 0, 1, 0);
    show(w, atoms[7], 0, BIG8_LEN / 4, 0);
    show(w, atoms[7], 100, 10, 0);
    show(w, atoms[8], 0, BIG32_LEN, 0);
    show(w, atoms[8], 0, 1000, 0);
    show(w, atoms[9], 0, 10, 0);

    show(w, atoms[5], 0, 100, 1); /* delete on read */
    xcb_delete_property(c, w, atoms[3]);
    list_properties(w);
    errors(w);
    list_properties(w);

    xcb_destroy_window(c, w);
    show(w, atoms[6], 0, 1, 0);
    int cerr = xcb_connection_has_error(c);
    printf("connection error: %d\n", cerr);
    xcb_disconnect(c);
    return cerr ? 1 : 0;
}
