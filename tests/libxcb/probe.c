/* SPDX-License-Identifier: MIT */
/* probe.c — a libxcb program built against Debian's headers and libraries, run by the
 * libxcb-family tests on Debian's libxcb, on xwire's, and on mixed sets. It prints
 * which file each library's functions came from, then what it did.
 * usage: probe randr | probe dlopen PATH | probe compat | probe conn-error FD | probe setup FD */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/randr.h>
#include <xcb/xcb.h>
#include <xcb/xinput.h>

/* The file that defines addr, so a test knows which libxcb it ran on. */
static void origin(const char *what, const void *addr)
{
    Dl_info info;
    printf("%s from %s\n", what, dladdr(addr, &info) && info.dli_fname ? info.dli_fname : "?");
}

static xcb_connection_t *open_display(void)
{
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "probe: cannot connect: %d\n", xcb_connection_has_error(c));
        exit(1);
    }
    return c;
}

/* RandR through Debian's libxcb-randr: version, resources, an output's name, an error. */
static int randr(void)
{
    origin("xcb_connect", (const void *)xcb_connect);
    origin("xcb_randr_get_screen_resources", (const void *)xcb_randr_get_screen_resources);
    xcb_connection_t *c = open_display();
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_randr_id);
    printf("RANDR present %d\n", ext && ext->present);
    xcb_randr_query_version_reply_t *v = xcb_randr_query_version_reply(c, xcb_randr_query_version(c, 1, 6), NULL);
    printf("version %u.%u\n", v ? v->major_version : 0, v ? v->minor_version : 0);
    free(v);
    xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    xcb_randr_get_screen_resources_reply_t *r =
        xcb_randr_get_screen_resources_reply(c, xcb_randr_get_screen_resources(c, root), NULL);
    if (!r)
        return 1;
    printf("crtcs %d outputs %d modes %d\n", xcb_randr_get_screen_resources_crtcs_length(r),
           xcb_randr_get_screen_resources_outputs_length(r), xcb_randr_get_screen_resources_modes_length(r));
    for (int i = 0; i < xcb_randr_get_screen_resources_outputs_length(r); i++) {
        xcb_randr_output_t o = xcb_randr_get_screen_resources_outputs(r)[i];
        xcb_randr_get_output_info_reply_t *oi =
            xcb_randr_get_output_info_reply(c, xcb_randr_get_output_info(c, o, r->config_timestamp), NULL);
        if (oi)
            printf("output %.*s connection %u\n", xcb_randr_get_output_info_name_length(oi),
                   (const char *)xcb_randr_get_output_info_name(oi), oi->connection);
        free(oi);
    }
    free(r);
    xcb_generic_error_t *e = NULL;
    free(xcb_randr_get_screen_resources_reply(c, xcb_randr_get_screen_resources(c, 0x1234567), &e));
    printf("bad window: error %d major %d\n", e ? e->error_code : -1, e ? e->major_code == ext->major_opcode : -1);
    free(e);
    xcb_disconnect(c);
    return 0;
}

/* Load a library in a process that already has a libxcb.so.1 (lazy binding asked). */
static int load(const char *path)
{
    origin("xcb_connect", (const void *)xcb_connect);
    void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    printf("dlopen %s\n", h ? "loaded" : "failed");
    if (!h)
        printf("dlerror: %s\n", dlerror());
    return 0;
}

/* The functions whose xwire form differs, given inputs where the forms disagree. */
static int compat(void)
{
    origin("xcb_present_redirect_notify_sizeof", (const void *)xcb_present_redirect_notify_sizeof);
    origin("xcb_input_device_time_coord_axisvalues", (const void *)xcb_input_device_time_coord_axisvalues);
    origin("xcb_dri3_buffers_from_pixmap_sizeof", (const void *)xcb_dri3_buffers_from_pixmap_sizeof);
    static uint32_t buf[64];
    xcb_present_redirect_notify_event_t *ev = (void *)buf;
    ev->length = 2 * 2 + (sizeof(*ev) - 32) / 4; /* the event's own count: two notifies */
    for (uint32_t n = 0; n < 6; n += 5)
        printf("present_redirect_notify_sizeof(n=%u) = %d\n", n, xcb_present_redirect_notify_sizeof(buf, n));
    const xcb_input_device_time_coord_t *tc = (const void *)buf;
    printf("device_time_coord_axisvalues at +%td\n",
           (const char *)xcb_input_device_time_coord_axisvalues(tc) - (const char *)tc);
    xcb_dri3_buffers_from_pixmap_reply_t *bp = (void *)buf;
    memset(buf, 0, sizeof(buf));
    bp->nfd = 3;
    printf("dri3_buffers_from_pixmap_sizeof(nfd=3, buffers=7) = %d\n", xcb_dri3_buffers_from_pixmap_sizeof(buf, 7));
    return 0;
}

/* A connection on fd whose server then breaks the protocol: libxcb's code for it. */
static int conn_error(int fd)
{
    origin("xcb_connection_has_error", (const void *)xcb_connection_has_error);
    xcb_connection_t *c = xcb_connect_to_fd(fd, NULL);
    printf("after setup: %d\n", xcb_connection_has_error(c));
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    printf("after the reply: %d\n", xcb_connection_has_error(c));
    xcb_disconnect(c);
    return 0;
}

/* A connection on fd to a server whose setup answer the test chose: the state it
 * leaves, and a round trip when it is up. What the library writes to stderr is the
 * test's to compare. */
static int setup_answer(int fd)
{
    origin("xcb_connect_to_fd", (const void *)xcb_connect_to_fd);
    xcb_connection_t *c = xcb_connect_to_fd(fd, NULL);
    printf("after setup: %d\n", xcb_connection_has_error(c));
    if (!xcb_connection_has_error(c)) {
        xcb_get_input_focus_reply_t *r = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
        printf("focus reply: %s\n", r ? "yes" : "no");
        free(r);
    }
    xcb_disconnect(c);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a test reads how far it got */
    printf("main\n");
    if (argc == 2 && !strcmp(argv[1], "randr"))
        return randr();
    if (argc == 3 && !strcmp(argv[1], "dlopen"))
        return load(argv[2]);
    if (argc == 2 && !strcmp(argv[1], "compat"))
        return compat();
    if (argc == 3 && !strcmp(argv[1], "conn-error"))
        return conn_error(atoi(argv[2]));
    if (argc == 3 && !strcmp(argv[1], "setup"))
        return setup_answer(atoi(argv[2]));
    fprintf(stderr, "usage: probe randr | dlopen PATH | compat | conn-error FD | setup FD\n");
    return 2;
}
