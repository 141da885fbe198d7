/* SPDX-License-Identifier: MIT */
/* rn_query.c — rename-test client: extension, RandR, XInput 2, XFixes and Render queries, written against libxcb. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/randr.h>
#include <xcb/render.h>
#include <xcb/xcb.h>
#include <xcb/xfixes.h>
#include <xcb/xinput.h>

static xcb_connection_t *c;

static void die(const char *what)
{
    printf("FATAL: %s (connection error %d)\n", what, xcb_connection_has_error(c));
    exit(1);
}

/* ListExtensions, then QueryExtension for each listed name and one unknown
 * name, all pipelined. */
static void extensions(void)
{
    xcb_list_extensions_reply_t *l = xcb_list_extensions_reply(c, xcb_list_extensions(c), NULL);
    if (!l)
        die("ListExtensions");
    int n = xcb_list_extensions_names_length(l);
    printf("extensions: %d\n", n);
    xcb_query_extension_cookie_t *ck = calloc((size_t)n + 1, sizeof(*ck));
    if (!ck)
        die("calloc");
    int i = 0;
    for (xcb_str_iterator_t it = xcb_list_extensions_names_iterator(l); it.rem; xcb_str_next(&it), i++)
        ck[i] = xcb_query_extension(c, xcb_str_name_length(it.data), xcb_str_name(it.data));
    ck[n] = xcb_query_extension(c, 11, "NO-SUCH-EXT");
    i = 0;
    for (xcb_str_iterator_t it = xcb_list_extensions_names_iterator(l); i <= n; i++) {
        xcb_query_extension_reply_t *r = xcb_query_extension_reply(c, ck[i], NULL);
        if (!r)
            die("QueryExtension");
        if (i < n)
            printf("  %-22.*s", xcb_str_name_length(it.data), xcb_str_name(it.data));
        else
            printf("  %-22s", "NO-SUCH-EXT");
        printf(" present=%u major=%u event=%u error=%u\n", r->present, r->major_opcode, r->first_event, r->first_error);
        free(r);
        if (i < n)
            xcb_str_next(&it);
    }
    free(ck);
    free(l);
}

static void randr_outputs(xcb_randr_get_screen_resources_current_reply_t *res)
{
    int n = xcb_randr_get_screen_resources_current_outputs_length(res);
    const xcb_randr_output_t *out = xcb_randr_get_screen_resources_current_outputs(res);
    for (int i = 0; i < n; i++) {
        xcb_randr_get_output_info_reply_t *o =
            xcb_randr_get_output_info_reply(c, xcb_randr_get_output_info(c, out[i], res->config_timestamp), NULL);
        if (!o)
            die("RRGetOutputInfo");
        printf("  output %u '%.*s' status=%u connection=%u crtc=%u mm=%ux%u crtcs=%d modes=%d preferred=%u "
               "clones=%d\n",
               out[i], xcb_randr_get_output_info_name_length(o), (const char *)xcb_randr_get_output_info_name(o),
               o->status, o->connection, o->crtc, o->mm_width, o->mm_height, xcb_randr_get_output_info_crtcs_length(o),
               xcb_randr_get_output_info_modes_length(o), o->num_preferred, xcb_randr_get_output_info_clones_length(o));
        free(o);
    }
}

static void randr_crtcs(xcb_randr_get_screen_resources_current_reply_t *res)
{
    int n = xcb_randr_get_screen_resources_current_crtcs_length(res);
    const xcb_randr_crtc_t *crtc = xcb_randr_get_screen_resources_current_crtcs(res);
    for (int i = 0; i < n; i++) {
        xcb_randr_get_crtc_info_reply_t *r =
            xcb_randr_get_crtc_info_reply(c, xcb_randr_get_crtc_info(c, crtc[i], res->config_timestamp), NULL);
        if (!r)
            die("RRGetCrtcInfo");
        printf("  crtc %u status=%u %ux%u+%d+%d mode=%u rotation=0x%x rotations=0x%x outputs=%d possible=%d\n", crtc[i],
               r->status, r->width, r->height, r->x, r->y, r->mode, r->rotation, r->rotations,
               xcb_randr_get_crtc_info_outputs_length(r), xcb_randr_get_crtc_info_possible_length(r));
        free(r);
    }
}

static void randr(xcb_window_t root)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_randr_id);
    printf("RandR extension data: present=%u\n", ext ? ext->present : 0);
    if (!ext || !ext->present)
        return;
    xcb_randr_query_version_reply_t *v = xcb_randr_query_version_reply(c, xcb_randr_query_version(c, 1, 3), NULL);
    if (!v)
        die("RRQueryVersion");
    printf("RandR %u.%u\n", v->major_version, v->minor_version);
    free(v);
    xcb_randr_get_screen_resources_current_reply_t *res =
        xcb_randr_get_screen_resources_current_reply(c, xcb_randr_get_screen_resources_current(c, root), NULL);
    if (!res)
        die("RRGetScreenResourcesCurrent");
    int nmodes = xcb_randr_get_screen_resources_current_modes_length(res);
    printf("resources: crtcs=%d outputs=%d modes=%d names=%d\n",
           xcb_randr_get_screen_resources_current_crtcs_length(res),
           xcb_randr_get_screen_resources_current_outputs_length(res), nmodes,
           xcb_randr_get_screen_resources_current_names_length(res));
    /* Mode names are packed back to back; each mode says how long its own is. */
    const char *names = (const char *)xcb_randr_get_screen_resources_current_names(res);
    const xcb_randr_mode_info_t *m = xcb_randr_get_screen_resources_current_modes(res);
    for (int i = 0; i < nmodes; i++) {
        printf("  mode %u '%.*s' %ux%u clock=%u\n", m[i].id, m[i].name_len, names, m[i].width, m[i].height,
               m[i].dot_clock);
        names += m[i].name_len;
    }
    randr_outputs(res);
    randr_crtcs(res);
    free(res);
    xcb_randr_get_output_primary_reply_t *p =
        xcb_randr_get_output_primary_reply(c, xcb_randr_get_output_primary(c, root), NULL);
    printf("primary output: %u\n", p ? p->output : 0);
    free(p);
}

static void xinput_class(const xcb_input_device_class_t *k)
{
    printf("    class type=%u len=%u source=%u", k->type, k->len, k->sourceid);
    switch (k->type) {
    case XCB_INPUT_DEVICE_CLASS_TYPE_KEY:
        printf(" keys=%u", ((const xcb_input_key_class_t *)k)->num_keys);
        break;
    case XCB_INPUT_DEVICE_CLASS_TYPE_BUTTON:
        printf(" buttons=%u", ((const xcb_input_button_class_t *)k)->num_buttons);
        break;
    case XCB_INPUT_DEVICE_CLASS_TYPE_VALUATOR: {
        const xcb_input_valuator_class_t *v = (const xcb_input_valuator_class_t *)k;
        printf(" valuator=%u label=%u min=%d max=%d resolution=%u mode=%u", v->number, v->label, v->min.integral,
               v->max.integral, v->resolution, v->mode);
        break;
    }
    default:
        break;
    }
    printf("\n");
}

static void xinput(void)
{
    xcb_input_xi_query_version_reply_t *v =
        xcb_input_xi_query_version_reply(c, xcb_input_xi_query_version(c, 2, 2), NULL);
    if (!v) {
        printf("XIQueryVersion failed\n");
        return;
    }
    printf("XInput %u.%u\n", v->major_version, v->minor_version);
    free(v);
    xcb_input_xi_query_device_reply_t *r =
        xcb_input_xi_query_device_reply(c, xcb_input_xi_query_device(c, XCB_INPUT_DEVICE_ALL), NULL);
    if (!r)
        die("XIQueryDevice");
    printf("devices: %d\n", xcb_input_xi_query_device_infos_length(r));
    for (xcb_input_xi_device_info_iterator_t it = xcb_input_xi_query_device_infos_iterator(r); it.rem;
         xcb_input_xi_device_info_next(&it)) {
        const xcb_input_xi_device_info_t *d = it.data;
        printf("  device %u '%.*s' type=%u attachment=%u enabled=%u classes=%u\n", d->deviceid,
               xcb_input_xi_device_info_name_length(d), xcb_input_xi_device_info_name(d), d->type, d->attachment,
               d->enabled, d->num_classes);
        for (xcb_input_device_class_iterator_t k = xcb_input_xi_device_info_classes_iterator(d); k.rem;
             xcb_input_device_class_next(&k))
            xinput_class(k.data);
    }
    free(r);
    xcb_input_xi_get_client_pointer_reply_t *p =
        xcb_input_xi_get_client_pointer_reply(c, xcb_input_xi_get_client_pointer(c, XCB_NONE), NULL);
    printf("client pointer: set=%u device=%u\n", p ? p->set : 0, p ? p->deviceid : 0);
    free(p);
}

static void xfixes_and_render(void)
{
    xcb_xfixes_query_version_reply_t *x = xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), NULL);
    printf("XFixes %u.%u\n", x ? x->major_version : 0, x ? x->minor_version : 0);
    free(x);
    xcb_render_query_version_reply_t *v = xcb_render_query_version_reply(c, xcb_render_query_version(c, 0, 11), NULL);
    printf("Render %u.%u\n", v ? v->major_version : 0, v ? v->minor_version : 0);
    free(v);
    xcb_render_query_pict_formats_reply_t *f =
        xcb_render_query_pict_formats_reply(c, xcb_render_query_pict_formats(c), NULL);
    if (!f)
        die("RenderQueryPictFormats");
    printf("pict formats=%d screens=%d depths=%u visuals=%u subpixels=%d\n",
           xcb_render_query_pict_formats_formats_length(f), xcb_render_query_pict_formats_screens_length(f),
           f->num_depths, f->num_visuals, xcb_render_query_pict_formats_subpixels_length(f));
    const xcb_render_pictforminfo_t *pf = xcb_render_query_pict_formats_formats(f);
    for (int i = 0; i < xcb_render_query_pict_formats_formats_length(f); i++)
        printf("  format %u type=%u depth=%u argb-shift=%u,%u,%u,%u\n", pf[i].id, pf[i].type, pf[i].depth,
               pf[i].direct.alpha_shift, pf[i].direct.red_shift, pf[i].direct.green_shift, pf[i].direct.blue_shift);
    int depths = 0;
    for (xcb_render_pictscreen_iterator_t s = xcb_render_query_pict_formats_screens_iterator(f); s.rem;
         xcb_render_pictscreen_next(&s))
        depths += xcb_render_pictscreen_depths_length(s.data);
    printf("depths walked: %d\n", depths);
    free(f);
}

int main(void)
{
    /* Line-buffered, so a run killed on timeout still shows how far it got. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    int screen_num = 0;
    c = xcb_connect(NULL, &screen_num);
    if (xcb_connection_has_error(c))
        die("connect");
    /* Ask for extension data up front, as toolkits do, so both libraries send
     * their QueryExtensions while other requests are in flight. */
    xcb_prefetch_extension_data(c, &xcb_input_id);
    xcb_prefetch_extension_data(c, &xcb_xfixes_id);
    xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    extensions();
    randr(root);
    xinput();
    xfixes_and_render();
    int cerr = xcb_connection_has_error(c);
    printf("connection error: %d\n", cerr);
    xcb_disconnect(c);
    return cerr ? 1 : 0;
}
