/* SPDX-License-Identifier: MIT */
/* xwev.c — an event monitor in the spirit of xev: a window (or, with -id, someone
 * else's) whose events are printed one per line, decoded with names. When the
 * server has XInput 2, raw key, button and motion events from all master devices
 * are printed too (selected on the root window, where XI2 sends raw events; they
 * do not take the core events away from the window).
 * Usage: xwev [-display NAME] [-id WINDOW]
 * Stops when its window is closed (WM_DELETE_WINDOW) or the server goes away. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xw/xinput.h>

#include "exutil.h"

static const char *prog = "xwev";

struct mon {
    xw_connection_t *c;
    xw_window_t win;
    struct ex_keymap keys;
    xw_atom_t wm_protocols, wm_delete_window;
    uint8_t xi_opcode; /* XInput's major opcode; 0 when XI2 is not in use */
};

static const char *const event_names[] = {
    [2] = "KeyPress",  "KeyRelease",       "ButtonPress",     "ButtonRelease",    "MotionNotify",     "EnterNotify",
    "LeaveNotify",     "FocusIn",          "FocusOut",        "KeymapNotify",     "Expose",           "GraphicsExpose",
    "NoExpose",        "VisibilityNotify", "CreateNotify",    "DestroyNotify",    "UnmapNotify",      "MapNotify",
    "MapRequest",      "ReparentNotify",   "ConfigureNotify", "ConfigureRequest", "GravityNotify",    "ResizeRequest",
    "CirculateNotify", "CirculateRequest", "PropertyNotify",  "SelectionClear",   "SelectionRequest", "SelectionNotify",
    "ColormapNotify",  "ClientMessage",    "MappingNotify",   "GenericEvent",
};
static const char *const xi_names[] = {
    [1] = "DeviceChanged",
    "KeyPress",
    "KeyRelease",
    "ButtonPress",
    "ButtonRelease",
    "Motion",
    "Enter",
    "Leave",
    "FocusIn",
    "FocusOut",
    "HierarchyChanged",
    "Property",
    "RawKeyPress",
    "RawKeyRelease",
    "RawButtonPress",
    "RawButtonRelease",
    "RawMotion",
    "TouchBegin",
    "TouchUpdate",
    "TouchEnd",
    "TouchOwnership",
    "RawTouchBegin",
    "RawTouchUpdate",
    "RawTouchEnd",
    "BarrierHit",
    "BarrierLeave",
};
static const char *const crossing_modes[] = {"Normal", "Grab", "Ungrab", "WhileGrabbed"};
static const char *const crossing_details[] = {"Ancestor",         "Virtual", "Inferior",    "Nonlinear",
                                               "NonlinearVirtual", "Pointer", "PointerRoot", "None"};

/* GetAtomName: a round trip per PropertyNotify, as xev does; fine for a monitor. */
static void atom_name(struct mon *m, xw_atom_t atom, char *buf, size_t cap)
{
    xw_generic_error_t *e = NULL;
    xw_get_atom_name_reply_t *r = xw_get_atom_name_reply(m->c, xw_get_atom_name(m->c, atom), &e);
    if (ex_report(m->c, prog, "GetAtomName", e) || !r)
        snprintf(buf, cap, "?");
    else
        snprintf(buf, cap, "%.*s", xw_get_atom_name_name_length(r), xw_get_atom_name_name(r));
    free(r);
}

/* KeyPress, KeyRelease, ButtonPress, ButtonRelease and MotionNotify share one layout. */
static void print_input(struct mon *m, const char *name, const xw_key_press_event_t *k, int type)
{
    char buf[16];
    printf("%s window 0x%x", name, k->event);
    if (type == XW_KEY_PRESS || type == XW_KEY_RELEASE) {
        xw_keysym_t ks = ex_keysym(&m->keys, k->detail, k->state);
        printf(" keycode %u (keysym 0x%x, %s)", k->detail, (unsigned)ks, ex_keysym_name(ks, buf, sizeof(buf)));
    } else if (type != XW_MOTION_NOTIFY) {
        printf(" button %u", k->detail);
    }
    printf(" state 0x%x (%d,%d) root (%d,%d) time %u\n", k->state, k->event_x, k->event_y, k->root_x, k->root_y,
           k->time);
}

/* XI2 events come as GenericEvent (35) with the extension's opcode in byte 1. */
static void print_xi2(struct mon *m, const xw_ge_event_t *ge)
{
    const char *name = ge->event_type < sizeof(xi_names) / sizeof(xi_names[0]) ? xi_names[ge->event_type] : NULL;
    printf("XI_%s", name ? name : "Unknown");
    if (ge->event_type >= XW_INPUT_RAW_KEY_PRESS && ge->event_type <= XW_INPUT_RAW_MOTION) {
        /* the raw events share the layout of RawKeyPress */
        const xw_input_raw_key_press_event_t *r = (const xw_input_raw_key_press_event_t *)ge;
        printf(" device %u source %u detail %u time %u", r->deviceid, r->sourceid, r->detail, r->time);
    }
    printf("\n");
    (void)m;
}

/* Returns 1 when the monitor should stop. */
static int print_event(struct mon *m, xw_generic_event_t *ev)
{
    int type = ev->response_type & 0x7f;
    const char *name = type < 36 && event_names[type] ? event_names[type] : "UnknownEvent";
    char buf[128];
    if (ev->response_type & 0x80)
        printf("(sent) ");
    switch (type) {
    case XW_KEY_PRESS:
    case XW_KEY_RELEASE:
    case XW_BUTTON_PRESS:
    case XW_BUTTON_RELEASE:
    case XW_MOTION_NOTIFY:
        print_input(m, name, (xw_key_press_event_t *)ev, type);
        break;
    case XW_ENTER_NOTIFY:
    case XW_LEAVE_NOTIFY: {
        xw_enter_notify_event_t *e = (xw_enter_notify_event_t *)ev;
        printf("%s window 0x%x (%d,%d) root (%d,%d) mode %s detail %s\n", name, e->event, e->event_x, e->event_y,
               e->root_x, e->root_y, e->mode < 4 ? crossing_modes[e->mode] : "?",
               e->detail < 8 ? crossing_details[e->detail] : "?");
        break;
    }
    case XW_FOCUS_IN:
    case XW_FOCUS_OUT: {
        xw_focus_in_event_t *f = (xw_focus_in_event_t *)ev;
        printf("%s window 0x%x mode %s detail %s\n", name, f->event, f->mode < 4 ? crossing_modes[f->mode] : "?",
               f->detail < 8 ? crossing_details[f->detail] : "?");
        break;
    }
    case XW_EXPOSE: {
        xw_expose_event_t *x = (xw_expose_event_t *)ev;
        printf("%s window 0x%x (%u,%u) %ux%u count %u\n", name, x->window, x->x, x->y, x->width, x->height, x->count);
        break;
    }
    case XW_CONFIGURE_NOTIFY: {
        xw_configure_notify_event_t *cn = (xw_configure_notify_event_t *)ev;
        printf("%s window 0x%x (%d,%d) %ux%u border %u above 0x%x override %s\n", name, cn->window, cn->x, cn->y,
               cn->width, cn->height, cn->border_width, cn->above_sibling, cn->override_redirect ? "YES" : "NO");
        break;
    }
    case XW_MAP_NOTIFY:
    case XW_UNMAP_NOTIFY:
    case XW_DESTROY_NOTIFY:
        /* event and window are the first two members of all three */
        printf("%s event 0x%x window 0x%x\n", name, ((xw_map_notify_event_t *)ev)->event,
               ((xw_map_notify_event_t *)ev)->window);
        break;
    case XW_VISIBILITY_NOTIFY: {
        static const char *const states[] = {"Unobscured", "PartiallyObscured", "FullyObscured"};
        xw_visibility_notify_event_t *v = (xw_visibility_notify_event_t *)ev;
        printf("%s window 0x%x state %s\n", name, v->window, v->state < 3 ? states[v->state] : "?");
        break;
    }
    case XW_PROPERTY_NOTIFY: {
        xw_property_notify_event_t *p = (xw_property_notify_event_t *)ev;
        atom_name(m, p->atom, buf, sizeof(buf));
        printf("%s window 0x%x atom 0x%x (%s) %s time %u\n", name, p->window, p->atom, buf,
               p->state == XW_PROPERTY_NEW_VALUE ? "NewValue" : "Deleted", p->time);
        break;
    }
    case XW_CLIENT_MESSAGE: {
        xw_client_message_event_t *cm = (xw_client_message_event_t *)ev;
        atom_name(m, cm->type, buf, sizeof(buf));
        printf("%s window 0x%x type 0x%x (%s) format %u\n", name, cm->window, cm->type, buf, cm->format);
        if (cm->type == m->wm_protocols && cm->format == 32 && cm->data.data32[0] == m->wm_delete_window)
            return 1;
        break;
    }
    case XW_MAPPING_NOTIFY: {
        static const char *const req[] = {"Modifier", "Keyboard", "Pointer"};
        xw_mapping_notify_event_t *mn = (xw_mapping_notify_event_t *)ev;
        printf("%s request %s first_keycode %u count %u\n", name, mn->request < 3 ? req[mn->request] : "?",
               mn->first_keycode, mn->count);
        if (mn->request == XW_MAPPING_KEYBOARD) { /* the keycode -> keysym table changed */
            ex_keymap_free(&m->keys);
            ex_keymap_load(m->c, &m->keys, prog);
        }
        break;
    }
    case XW_GE_GENERIC:
        if (m->xi_opcode && ((xw_ge_event_t *)ev)->pad0 == m->xi_opcode) {
            print_xi2(m, (xw_ge_event_t *)ev);
            break;
        }
        /* fall through */
    default:
        printf("%s\n", name);
    }
    return 0;
}

/* XI2 raw events on the root: XIQueryVersion must come first (the server answers
 * what it supports), then XISelectEvents with a one-word mask per device. */
static void select_xi2(struct mon *m, xw_window_t root)
{
    const xw_query_extension_reply_t *q = xw_get_extension_data(m->c, &xw_input_id);
    if (!q || !q->present) {
        printf("XInput: not present\n");
        return;
    }
    xw_generic_error_t *e = NULL;
    xw_input_xi_query_version_reply_t *v =
        xw_input_xi_query_version_reply(m->c, xw_input_xi_query_version(m->c, 2, 2), &e);
    if (ex_report(m->c, prog, "XIQueryVersion", e) || !v || v->major_version < 2) {
        printf("XInput 2: not available\n");
        free(v);
        return;
    }
    struct {
        xw_input_event_mask_t head;
        uint32_t mask;
    } sel = {{XW_INPUT_DEVICE_ALL_MASTER, 1},
             XW_INPUT_XI_EVENT_MASK_RAW_KEY_PRESS | XW_INPUT_XI_EVENT_MASK_RAW_KEY_RELEASE |
                 XW_INPUT_XI_EVENT_MASK_RAW_BUTTON_PRESS | XW_INPUT_XI_EVENT_MASK_RAW_BUTTON_RELEASE |
                 XW_INPUT_XI_EVENT_MASK_RAW_MOTION};
    xw_void_cookie_t ck = xw_input_xi_select_events_checked(m->c, root, 1, &sel.head);
    if (!ex_report(m->c, prog, "XISelectEvents", xw_request_check(m->c, ck))) {
        m->xi_opcode = q->major_opcode;
        printf("XInput %u.%u: raw events from all master devices\n", v->major_version, v->minor_version);
    }
    free(v);
}

/* Our own window, named, with WM_DELETE_WINDOW so a window manager (or a test)
 * can ask us to quit. */
static void create_window(struct mon *m, const xw_screen_t *scr, uint32_t mask)
{
    m->win = xw_generate_id(m->c);
    uint32_t values[] = {scr->white_pixel, mask};
    xw_create_window(m->c, XW_COPY_FROM_PARENT, m->win, scr->root, 10, 10, 300, 200, 1, XW_WINDOW_CLASS_INPUT_OUTPUT,
                     scr->root_visual, XW_CW_BACK_PIXEL | XW_CW_EVENT_MASK, values);
    xw_change_property(m->c, XW_PROP_MODE_REPLACE, m->win, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, 4, "xwev");
    xw_change_property(m->c, XW_PROP_MODE_REPLACE, m->win, m->wm_protocols, XW_ATOM_ATOM, 32, 1, &m->wm_delete_window);
    xw_map_window(m->c, m->win);
}

int main(int argc, char **argv)
{
    xw_window_t other = 0;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-id"))
            other = (xw_window_t)strtoul(argv[i + 1], NULL, 0);
    int screen = 0, status = 1;
    struct mon m = {0};
    m.c = ex_connect(prog, ex_display_arg(argc, argv), &screen);
    const xw_screen_t *scr = ex_screen(m.c, screen);
    if (ex_keymap_load(m.c, &m.keys, prog) < 0)
        goto out;
    m.wm_protocols = ex_atom(m.c, prog, "WM_PROTOCOLS");
    m.wm_delete_window = ex_atom(m.c, prog, "WM_DELETE_WINDOW");

    uint32_t mask = XW_EVENT_MASK_KEY_PRESS | XW_EVENT_MASK_KEY_RELEASE | XW_EVENT_MASK_BUTTON_PRESS |
                    XW_EVENT_MASK_BUTTON_RELEASE | XW_EVENT_MASK_POINTER_MOTION | XW_EVENT_MASK_ENTER_WINDOW |
                    XW_EVENT_MASK_LEAVE_WINDOW | XW_EVENT_MASK_EXPOSURE | XW_EVENT_MASK_VISIBILITY_CHANGE |
                    XW_EVENT_MASK_STRUCTURE_NOTIFY | XW_EVENT_MASK_FOCUS_CHANGE | XW_EVENT_MASK_PROPERTY_CHANGE;
    if (other) {
        /* Only one client may select button presses on a window (its owner
         * usually has): leave them out, as xev does. Checked, so that a wrong id
         * is reported here, by name. */
        mask &= ~(uint32_t)(XW_EVENT_MASK_BUTTON_PRESS | XW_EVENT_MASK_BUTTON_RELEASE);
        xw_void_cookie_t ck = xw_change_window_attributes_checked(m.c, other, XW_CW_EVENT_MASK, &mask);
        if (ex_report(m.c, prog, "select events", xw_request_check(m.c, ck)))
            goto out;
        m.win = other;
    } else {
        create_window(&m, scr, mask);
    }
    select_xi2(&m, scr->root);
    printf("window 0x%x\n", m.win);
    fflush(stdout);

    xw_generic_event_t *ev;
    while ((ev = xw_wait_for_event(m.c))) {
        int stop = 0;
        if (ev->response_type == 0)
            ex_report(m.c, prog, "error", (xw_generic_error_t *)ev); /* frees it */
        else {
            stop = print_event(&m, ev);
            free(ev);
        }
        fflush(stdout);
        if (stop) {
            status = 0;
            break;
        }
    }
    if (xw_connection_has_error(m.c))
        fprintf(stderr, "%s: connection lost: %s\n", prog, xw_connection_error_string(m.c));
out:
    ex_keymap_free(&m.keys);
    xw_disconnect(m.c);
    return status;
}
