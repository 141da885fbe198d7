/* SPDX-License-Identifier: MIT */
/* test_xlib_ext.c — a second byte oracle for the XKB, XInput and RandR request forms that
 * libxcb gets wrong or aborts on (the conformance test checks those against their length
 * field only, see known[] in tests/conform/conform.c), and for the other XKB Set* requests
 * (SetNames, SetCompatMap, SetIndicatorMap, SetNamedIndicator, SetControls, SetDeviceInfo):
 * libX11's own XKB, libXi and libXrandr. Xlib and xwire connect to one fake server on ":N"
 * (dpyserver.c), which answers what those libraries ask first (XKB UseExtension; XInput
 * GetExtensionVersion, OpenDevice, the ChangeDeviceControl reply; RandR QueryVersion) and
 * records every request; each case compares the one request of interest that Xlib sent with
 * the one xwire sent for the same values, in every xwire form (unchecked and _checked; the
 * plain form with a caller-built or _serialize'd list, and the _aux form).
 *
 * Pad bytes: Xlib's output buffer is cleared before each call by the capture harness, so the pads
 * Xlib never writes read as zero; the few pads Xlib copies from an uninitialised stack
 * struct (libXi's control and feedback blocks) are listed per case and compared as zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XInput.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/Xrandr.h>

#include <xw/xw.h>
#include <xw/xinput.h>
#include <xw/xkb.h>
#include <xw/randr.h>

#include "fake_server.h" /* count_open_fds, fs_wr16, fs_wr32 */
#include "tally.h"
#include "xlcapture.h"

#define XKB DPY_XKB_MAJOR
#define XI DPY_XI_MAJOR
#define RR DPY_RANDR_MAJOR

static struct req_mark marks[] = {
    {"xkb", "SelectEvents", 0, 0, 0},
    {"xkb", "SelectEvents (aux)", 0, 0, 0},
    {"xkb", "SetMap", 0, 0, 0},
    {"xkb", "SetMap (aux)", 0, 0, 0},
    {"Input", "XIChangeProperty", 0, 0, 0},
    {"Input", "XIChangeProperty (aux)", 0, 0, 0},
    {"Input", "ChangeDeviceProperty", 0, 0, 0},
    {"Input", "ChangeDeviceProperty (aux)", 0, 0, 0},
    {"Input", "ChangeFeedbackControl", 0, 0, 0},
    {"Input", "ChangeDeviceControl", 0, 0, 0},
    {"RandR", "SetMonitor", 0, 0, 0},
    {"RandR", "SetCrtcGamma", 0, 0, 0},
    {"xkb", "SetIndicatorMap", 0, 0, 0},
    {"xkb", "SetNamedIndicator", 0, 0, 0},
    {"xkb", "SetNames", 0, 0, 0},
    {"xkb", "SetNames (aux)", 0, 0, 0},
    {"xkb", "SetCompatMap", 0, 0, 0},
    {"xkb", "SetControls", 0, 0, 0},
    {"xkb", "SetDeviceInfo", 0, 0, 0},
};

/* A byte range [from, to) of the request that Xlib copies from an uninitialised struct:
 * Xlib's bytes there are replaced by zero, so xwire must send zero. */
struct uninit {
    size_t from, to;
};

/* A listed exception: Xlib (with the protocol and the X server) and the XML description
 * disagree; xwire follows the XML, so its bytes must be exactly `bytes`, the XML layout. */
struct xml_layout {
    const uint8_t *bytes;
    size_t len;
    const char *why;
};

/* One form (slot v) of one xwire call against Xlib's request xl (pads already cleared). */
static void compare_form(struct req_mark *m, const char *what, int v, const uint8_t *xl, size_t ll, int major,
                         int minor, const struct xml_layout *alt)
{
    const char *form = v ? "second form" : "default form";
    char label[256];
    size_t wl = 0;
    const uint8_t *w = xlc_only(xlc.xw[v], xlc.xw_len[v], major, minor, &wl);
    snprintf(label, sizeof(label), "%s (%s): call and round trip", what, form);
    tally_case(m, xlc.xw_ok[v], label);
    int same = w && wl == ll && !memcmp(w, xl, ll);
    int as_xml = !same && alt && w && wl == alt->len && !memcmp(w, alt->bytes, wl);
    snprintf(label, sizeof(label), "%s (%s): bytes vs Xlib", what, form);
    if (as_xml) {
        snprintf(label, sizeof(label), "%s (%s): differs from Xlib, exactly the XML layout", what, form);
        tally_exception(m, label, alt->why);
        return;
    }
    tally_bytes(m, label, xl, ll, w, w ? wl : 0);
}

/* The case's verdict: Xlib's request (major, minor) against both xwire forms. */
static void compare_alt(const char *ext, const char *name, const char *what, int major, int minor,
                        const struct uninit *un, size_t nun, const struct xml_layout *alt)
{
    struct req_mark *m = tally_find(ext, name);
    size_t ll = 0;
    const uint8_t *xl = xlc_only(xlc.xl, xlc.xl_len, major, minor, &ll);
    if (!xl) {
        char label[200];
        snprintf(label, sizeof(label), "%s: Xlib did not send exactly one request %d.%d", what, major, minor);
        tally_case(m, 0, label);
        return;
    }
    static uint8_t masked[XLC_CAP];
    memcpy(masked, xl, ll);
    for (size_t i = 0; i < nun; i++)
        for (size_t at = un[i].from; at < un[i].to && at < ll; at++)
            masked[at] = 0;
    for (int v = 0; v < 2; v++)
        compare_form(m, what, v, masked, ll, major, minor, alt);
}

static void compare(const char *ext, const char *name, const char *what, int major, int minor, const struct uninit *un,
                    size_t nun)
{
    compare_alt(ext, name, what, major, minor, un, nun, NULL);
}

/* ---- XKB SelectEvents ---- */

/* The size of one event type's details block in SelectEvents (0: none; 1, 2 or 4: the
 * affect/details pair's field size), as xkb.xml and the XKB protocol give it. */
static int detail_size(int type)
{
    switch (type) {
    case XkbNewKeyboardNotify:
    case XkbStateNotify:
    case XkbNamesNotify:
    case XkbAccessXNotify:
    case XkbExtensionDeviceNotify:
        return 2;
    case XkbControlsNotify:
    case XkbIndicatorStateNotify:
    case XkbIndicatorMapNotify:
        return 4;
    case XkbCompatMapNotify:
    case XkbBellNotify:
    case XkbActionMessage:
        return 1;
    }
    return 0;
}

/* The _aux struct's member pair for one event type. */
static void detail_aux(xw_xkb_select_events_details_t *d, int type, uint32_t affect, uint32_t details)
{
    switch (type) {
    case XkbNewKeyboardNotify:
        d->affectNewKeyboard = (uint16_t)affect, d->newKeyboardDetails = (uint16_t)details;
        break;
    case XkbStateNotify:
        d->affectState = (uint16_t)affect, d->stateDetails = (uint16_t)details;
        break;
    case XkbControlsNotify:
        d->affectCtrls = affect, d->ctrlDetails = details;
        break;
    case XkbIndicatorStateNotify:
        d->affectIndicatorState = affect, d->indicatorStateDetails = details;
        break;
    case XkbIndicatorMapNotify:
        d->affectIndicatorMap = affect, d->indicatorMapDetails = details;
        break;
    case XkbNamesNotify:
        d->affectNames = (uint16_t)affect, d->namesDetails = (uint16_t)details;
        break;
    case XkbCompatMapNotify:
        d->affectCompat = (uint8_t)affect, d->compatDetails = (uint8_t)details;
        break;
    case XkbBellNotify:
        d->affectBell = (uint8_t)affect, d->bellDetails = (uint8_t)details;
        break;
    case XkbActionMessage:
        d->affectMsgDetails = (uint8_t)affect, d->msgDetails = (uint8_t)details;
        break;
    case XkbAccessXNotify:
        d->affectAccessX = (uint16_t)affect, d->accessXDetails = (uint16_t)details;
        break;
    case XkbExtensionDeviceNotify:
        d->affectExtDev = (uint16_t)affect, d->extdevDetails = (uint16_t)details;
        break;
    }
}

/* One details block as the plain form takes it: affect then details, each `size` bytes. */
static size_t detail_bytes(uint8_t *p, int size, uint32_t affect, uint32_t details)
{
    if (size == 1) {
        p[0] = (uint8_t)affect, p[1] = (uint8_t)details;
    } else if (size == 2) {
        fs_wr16(p, (uint16_t)affect), fs_wr16(p + 2, (uint16_t)details);
    } else {
        fs_wr32(p, affect), fs_wr32(p + 4, details);
    }
    return 2 * (size_t)size;
}

static void select_events_detail_case(unsigned spec, int type, uint32_t affect, uint32_t details)
{
    char what[96];
    snprintf(what, sizeof(what), "XkbSelectEventDetails, event type %d, device 0x%x", type, spec);
    xlc_xl_begin();
    Bool ok = XkbSelectEventDetails(xlc.dpy, spec, (unsigned)type, affect, details);
    xlc_xl_end();
    tally_case(tally_find("xkb", "SelectEvents"), ok, "XkbSelectEventDetails returned True");

    uint16_t which = (uint16_t)(1u << type), amap = 0, map = 0;
    uint8_t raw[8] = {0};
    xw_xkb_select_events_details_t aux;
    memset(&aux, 0, sizeof(aux));
    if (type == XkbMapNotify) {
        /* libX11 always asks for the client-info parts it needs itself (XKB.c) */
        amap = (uint16_t)affect, map = (uint16_t)(details | (XkbAllClientInfoMask & affect));
    } else {
        detail_bytes(raw, detail_size(type), affect, details);
        detail_aux(&aux, type, affect, details);
    }
    XLC_VOID(xw_xkb_select_events, (xlc.c, (uint16_t)spec, which, 0, 0, amap, map, raw));
    compare("xkb", "SelectEvents", what, XKB, 1, NULL, 0);
    XLC_VOID(xw_xkb_select_events_aux, (xlc.c, (uint16_t)spec, which, 0, 0, amap, map, &aux));
    compare("xkb", "SelectEvents (aux)", what, XKB, 1, NULL, 0);
}

static void select_events_cases(void)
{
    /* XkbSelectEventDetails for NewKeyboardNotify replaces the details by all of `affect`
     * unless the Xlib control IgnoreNewKeyboards is set; set it so the values pass through. */
    XkbSetXlibControls(xlc.dpy, XkbLC_IgnoreNewKeyboards, XkbLC_IgnoreNewKeyboards);
    static const struct {
        int type;
        uint32_t affect, details;
    } d[] = {
        {XkbNewKeyboardNotify, 0x0005, 0x0004},
        {XkbMapNotify, 0x00f3, 0x0050},
        {XkbStateNotify, 0x3fff, 0x2a05},
        {XkbControlsNotify, 0xf8001fff, 0x80000101},
        {XkbIndicatorStateNotify, 0xffffffff, 0x00010203},
        {XkbIndicatorMapNotify, 0x0000000f, 0x00000009},
        {XkbNamesNotify, 0x3fff, 0x1001},
        {XkbCompatMapNotify, 0x03, 0x02},
        {XkbBellNotify, 0x01, 0x01},
        {XkbActionMessage, 0x01, 0x00},
        {XkbAccessXNotify, 0x007f, 0x0055},
        {XkbExtensionDeviceNotify, 0x001f, 0x0014},
    };
    for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
        select_events_detail_case(i % 2 ? XkbUseCoreKbd : 3, d[i].type, d[i].affect, d[i].details);

    /* XkbSelectEvents: no details block (every affected event is cleared or selected whole);
     * MapNotify among them sets affectMap/map in the fixed part. */
    static const struct {
        unsigned affect, all;
    } s[] = {
        {XkbStateNotifyMask | XkbBellNotifyMask, XkbBellNotifyMask},
        {XkbMapNotifyMask | XkbControlsNotifyMask | XkbAccessXNotifyMask, XkbMapNotifyMask | XkbAccessXNotifyMask},
        {XkbMapNotifyMask | XkbNamesNotifyMask, 0},
    };
    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
        char what[96];
        snprintf(what, sizeof(what), "XkbSelectEvents, affect 0x%x, select all 0x%x", s[i].affect, s[i].all);
        xlc_xl_begin();
        XkbSelectEvents(xlc.dpy, XkbUseCoreKbd, s[i].affect, s[i].all);
        xlc_xl_end();
        uint16_t amap = 0, map = 0;
        if (s[i].affect & XkbMapNotifyMask) {
            amap = XkbAllMapComponentsMask;
            map = s[i].all & XkbMapNotifyMask ? XkbAllMapEventsMask : XkbAllClientInfoMask;
        }
        uint16_t affect = (uint16_t)s[i].affect, clear = (uint16_t)(s[i].affect & ~s[i].all),
                 all = (uint16_t)(s[i].affect & s[i].all);
        xw_xkb_select_events_details_t aux;
        memset(&aux, 0, sizeof(aux));
        XLC_VOID(xw_xkb_select_events, (xlc.c, XkbUseCoreKbd, affect, clear, all, amap, map, NULL));
        compare("xkb", "SelectEvents", what, XKB, 1, NULL, 0);
        XLC_VOID(xw_xkb_select_events_aux, (xlc.c, XkbUseCoreKbd, affect, clear, all, amap, map, &aux));
        compare("xkb", "SelectEvents (aux)", what, XKB, 1, NULL, 0);
    }
}

/* ---- XKB SetMap (through XkbChangeMap, which sends the ranges it is given) ---- */

/* A keyboard description built by hand: the parts XkbChangeMap reads, keycodes 8..255. */
static XkbKeyTypeRec kb_types[8];
static XkbKTMapEntryRec kb_entries[3];
static XkbModsRec kb_preserve[2];
static KeySym kb_syms[64];
static XkbSymMapRec kb_symmap[256];
static unsigned char kb_modmap[256], kb_explicit[256];
static unsigned short kb_key_acts[256], kb_vmodmap[256];
static XkbAction kb_acts[8];
static XkbBehavior kb_behaviors[256];
static XkbClientMapRec kb_map;
static XkbServerMapRec kb_server;
static XkbDescRec kb;

static void kb_reset(void)
{
    memset(&kb, 0, sizeof(kb));
    kb.dpy = xlc.dpy; /* XkbSetCompatMap insists on it */
    memset(&kb_map, 0, sizeof(kb_map));
    memset(&kb_server, 0, sizeof(kb_server));
    memset(kb_symmap, 0, sizeof(kb_symmap));
    memset(kb_modmap, 0, sizeof(kb_modmap));
    memset(kb_explicit, 0, sizeof(kb_explicit));
    memset(kb_key_acts, 0, sizeof(kb_key_acts));
    memset(kb_vmodmap, 0, sizeof(kb_vmodmap));
    memset(kb_behaviors, 0, sizeof(kb_behaviors));
    kb.device_spec = XkbUseCoreKbd;
    kb.min_key_code = 8;
    kb.max_key_code = 255;
    kb.map = &kb_map;
    kb.server = &kb_server;
    kb_map.types = kb_types;
    kb_map.num_types = kb_map.size_types = 8;
    kb_map.syms = kb_syms;
    kb_map.num_syms = kb_map.size_syms = 64;
    kb_map.key_sym_map = kb_symmap;
    kb_map.modmap = kb_modmap;
    kb_server.acts = kb_acts;
    kb_server.num_acts = kb_server.size_acts = 8;
    kb_server.key_acts = kb_key_acts;
    kb_server.explicit = kb_explicit;
    kb_server.vmodmap = kb_vmodmap;
    kb_server.behaviors = kb_behaviors;
}

/* Key `key` gets `groups` groups of `width` levels, symbols from kb_syms[offset], key
 * types 1, 2, 3, 0. */
static void kb_key(int key, int groups, int width, int offset)
{
    XkbSymMapRec *m = &kb_symmap[key];
    m->kt_index[0] = 1, m->kt_index[1] = 2, m->kt_index[2] = 3, m->kt_index[3] = 0;
    m->group_info = (unsigned char)XkbSetNumGroups(0, groups);
    m->width = (unsigned char)width;
    m->offset = (unsigned short)offset;
}

/* xwire's bytes for KeySymMaps of keys first..first+n-1 of kb, as the syms list. */
static size_t wire_syms(uint8_t *p, int first, int n)
{
    size_t at = 0;
    for (int k = first; k < first + n; k++) {
        const XkbSymMapRec *m = &kb_symmap[k];
        int ns = XkbNumGroups(m->group_info) * m->width;
        memcpy(p + at, m->kt_index, 4);
        p[at + 4] = m->group_info, p[at + 5] = m->width;
        fs_wr16(p + at + 6, (uint16_t)ns);
        at += 8;
        for (int i = 0; i < ns; i++, at += 4)
            fs_wr32(p + at, (uint32_t)kb_syms[m->offset + i]);
    }
    return at;
}

/* The values of one SetMap, for both xwire forms. */
struct set_map {
    uint16_t present, flags;
    uint8_t first_type, n_types;
    uint8_t first_sym, n_syms;
    uint16_t total_syms;
    uint8_t first_act, n_acts;
    uint16_t total_acts;
    uint8_t first_beh, n_beh, total_beh;
    uint8_t first_expl, n_expl, total_expl;
    uint8_t first_mod, n_mod, total_mod;
    uint8_t first_vmod, n_vmod, total_vmod;
    uint16_t vmods;
    size_t types_len, syms_len; /* bytes of the types and syms lists */
    uint8_t types[64], syms[256], acts_count[8], acts[64], beh[64], vmod_values[16], expl[64], modmap[64], vmodmap[64];
};

static size_t wire_types(uint8_t *p, int first, int n)
{
    size_t at = 0;
    for (int t = first; t < first + n; t++) {
        const XkbKeyTypeRec *k = &kb_types[t];
        p[at] = k->mods.mask, p[at + 1] = k->mods.real_mods;
        fs_wr16(p + at + 2, k->mods.vmods);
        p[at + 4] = k->num_levels, p[at + 5] = k->map_count, p[at + 6] = k->preserve != NULL, p[at + 7] = 0;
        at += 8;
        for (int i = 0; i < k->map_count; i++, at += 4) {
            p[at] = k->map[i].level, p[at + 1] = k->map[i].mods.real_mods;
            fs_wr16(p + at + 2, k->map[i].mods.vmods);
        }
        for (int i = 0; k->preserve && i < k->map_count; i++, at += 4) {
            p[at] = 0, p[at + 1] = k->preserve[i].real_mods; /* KTSetMapEntry.level: unused here */
            fs_wr16(p + at + 2, k->preserve[i].vmods);
        }
    }
    return at;
}

/* Fills the xwire side of s from kb and the ranges already in s. */
static void set_map_values(struct set_map *s)
{
    if (s->present & XkbKeyTypesMask)
        s->types_len = wire_types(s->types, s->first_type, s->n_types);
    if (s->present & XkbKeySymsMask)
        s->syms_len = wire_syms(s->syms, s->first_sym, s->n_syms);
    size_t na = 0;
    for (int i = 0; (s->present & XkbKeyActionsMask) && i < s->n_acts; i++) {
        int k = s->first_act + i;
        s->acts_count[i] = (uint8_t)(kb_key_acts[k] ? XkbKeyNumActions(&kb, k) : 0);
        memcpy(s->acts + 8 * na, &kb_acts[kb_key_acts[k]], 8u * s->acts_count[i]);
        na += s->acts_count[i];
    }
    s->total_acts = (uint16_t)na;
    size_t nb = 0, ne = 0, nm = 0, nv = 0;
    for (int k = s->first_beh; (s->present & XkbKeyBehaviorsMask) && k < s->first_beh + s->n_beh; k++)
        if (kb_behaviors[k].type) {
            uint8_t *p = s->beh + 4 * nb++;
            p[0] = (uint8_t)k, p[1] = kb_behaviors[k].type, p[2] = kb_behaviors[k].data, p[3] = 0;
        }
    for (int i = 0, n = 0; i < XkbNumVirtualMods; i++)
        if (s->vmods >> i & 1)
            s->vmod_values[n++] = kb_server.vmods[i];
    for (int k = s->first_expl; (s->present & XkbExplicitComponentsMask) && k < s->first_expl + s->n_expl; k++)
        if (kb_explicit[k])
            s->expl[2 * ne] = (uint8_t)k, s->expl[2 * ne + 1] = kb_explicit[k], ne++;
    for (int k = s->first_mod; (s->present & XkbModifierMapMask) && k < s->first_mod + s->n_mod; k++)
        if (kb_modmap[k])
            s->modmap[2 * nm] = (uint8_t)k, s->modmap[2 * nm + 1] = kb_modmap[k], nm++;
    for (int k = s->first_vmod; (s->present & XkbVirtualModMapMask) && k < s->first_vmod + s->n_vmod; k++)
        if (kb_vmodmap[k]) {
            uint8_t *p = s->vmodmap + 4 * nv++;
            p[0] = (uint8_t)k, p[1] = 0;
            fs_wr16(p + 2, kb_vmodmap[k]);
        }
    s->total_beh = (uint8_t)nb, s->total_expl = (uint8_t)ne, s->total_mod = (uint8_t)nm, s->total_vmod = (uint8_t)nv;
    s->total_syms = 0;
    for (int k = s->first_sym; (s->present & XkbKeySymsMask) && k < s->first_sym + s->n_syms; k++)
        s->total_syms = (uint16_t)(s->total_syms + XkbKeyNumSyms(&kb, k));
}

#define SET_MAP_ARGS(s, values)                                                                                        \
    (xlc.c, XkbUseCoreKbd, (s)->present, (s)->flags, 8, 255, (s)->first_type, (s)->n_types, (s)->first_sym,            \
     (s)->n_syms, (s)->total_syms, (s)->first_act, (s)->n_acts, (s)->total_acts, (s)->first_beh, (s)->n_beh,           \
     (s)->total_beh, (s)->first_expl, (s)->n_expl, (s)->total_expl, (s)->first_mod, (s)->n_mod, (s)->total_mod,        \
     (s)->first_vmod, (s)->n_vmod, (s)->total_vmod, (s)->vmods, values)

/* XkbChangeMap with the ranges of s against both xwire forms: the plain form with the
 * values from xw_xkb_set_map_values_serialize, and the _aux form. */
static void set_map_case(struct set_map *s, const char *what)
{
    XkbMapChangesRec ch;
    memset(&ch, 0, sizeof(ch));
    ch.changed = s->present;
    ch.first_type = s->first_type, ch.num_types = s->n_types;
    ch.first_key_sym = s->first_sym, ch.num_key_syms = s->n_syms;
    ch.first_key_act = s->first_act, ch.num_key_acts = s->n_acts;
    ch.first_key_behavior = s->first_beh, ch.num_key_behaviors = s->n_beh;
    ch.vmods = s->vmods;
    ch.first_key_explicit = s->first_expl, ch.num_key_explicit = s->n_expl;
    ch.first_modmap_key = s->first_mod, ch.num_modmap_keys = s->n_mod;
    ch.first_vmodmap_key = s->first_vmod, ch.num_vmodmap_keys = s->n_vmod;
    xlc_xl_begin();
    Bool ok = XkbChangeMap(xlc.dpy, &kb, &ch);
    xlc_xl_end();
    tally_case(tally_find("xkb", "SetMap"), ok, "XkbChangeMap returned True");

    s->flags = XW_XKB_SET_MAP_FLAGS_RECOMPUTE_ACTIONS; /* what XkbChangeMap sends */
    set_map_values(s);
    xw_xkb_set_map_values_t v = {.types = (void *)s->types,
                                 .syms = (void *)s->syms,
                                 .actionsCount = s->acts_count,
                                 .actions = (void *)s->acts,
                                 .behaviors = (void *)s->beh,
                                 .vmods = s->vmod_values,
                                 .explicit = (void *)s->expl,
                                 .modmap = (void *)s->modmap,
                                 .vmodmap = (void *)s->vmodmap};
    void *buf = NULL;
    int n = xw_xkb_set_map_values_serialize(&buf, s->n_types, s->n_syms, s->n_acts, s->total_acts, s->total_beh,
                                            s->vmods, s->total_expl, s->total_mod, s->total_vmod, s->present, &v);
    tally_case(tally_find("xkb", "SetMap"), n > 0 && buf, "xw_xkb_set_map_values_serialize");
    /* xkb.xml leaves SetMap's explicit and modmap lists unpadded; the protocol, libX11 and
     * the X server pad each to 4 bytes, and so does xwire (gen/fixes.c): Xlib's bytes exactly. */
    XLC_VOID(xw_xkb_set_map, SET_MAP_ARGS(s, buf));
    compare_alt("xkb", "SetMap", what, XKB, 9, NULL, 0, NULL);
    free(buf);
    XLC_VOID(xw_xkb_set_map_aux, SET_MAP_ARGS(s, &v));
    compare_alt("xkb", "SetMap (aux)", what, XKB, 9, NULL, 0, NULL);
}

static void set_map_cases(void)
{
    /* The case libxcb's _aux form gets wrong: KeySyms|KeyActions|VirtualMods|Explicit|ModifierMap|VirtualModMap;
     * key syms 38/2/4 (two KeySymMaps of 2 syms, of different shapes), key actions 38/3/2,
     * explicit 38/3/3, modmap 50/2/1, vmodmap 64/1/1, virtual mods 0x0013. */
    kb_reset();
    for (int i = 0; i < 64; i++)
        kb_syms[i] = 0x1000000 + 0x101 * (KeySym)i;
    kb_key(38, 1, 2, 0); /* one group, two levels */
    kb_key(39, 2, 1, 2); /* two groups, one level */
    kb_key(40, 1, 1, 4);
    kb_key_acts[39] = 1; /* key 39: 2 actions (one per symbol); keys 38 and 40: none */
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            ((unsigned char *)&kb_acts[i])[j] = (unsigned char)(0x10 * i + j + 1);
    kb_explicit[38] = 0x01, kb_explicit[39] = 0x12, kb_explicit[40] = 0x80;
    kb_modmap[51] = 0x04;
    kb_vmodmap[64] = 0x8001;
    kb_server.vmods[0] = 0x11, kb_server.vmods[1] = 0x22, kb_server.vmods[4] = 0x44;
    struct set_map s;
    memset(&s, 0, sizeof(s));
    s.present = XkbKeySymsMask | XkbKeyActionsMask | XkbVirtualModsMask | XkbExplicitComponentsMask |
                XkbModifierMapMask | XkbVirtualModMapMask;
    s.first_sym = 38, s.n_syms = 2;
    s.first_act = 38, s.n_acts = 3;
    s.first_expl = 38, s.n_expl = 3;
    s.first_mod = 50, s.n_mod = 2;
    s.first_vmod = 64, s.n_vmod = 1;
    s.vmods = 0x0013;
    set_map_case(&s, "two KeySymMaps of 2 syms each, of different shapes");

    /* Key types (one with preserve entries), three KeySymMaps of 1, 0 and 6 symbols, and
     * behaviors on two of four keys. */
    kb_reset();
    kb_entries[0] = (XkbKTMapEntryRec){True, 1, {0x01, 0x01, 0}};
    kb_entries[1] = (XkbKTMapEntryRec){True, 2, {0x04, 0x04, 0x0100}};
    kb_entries[2] = (XkbKTMapEntryRec){True, 1, {0x02, 0x02, 0}};
    kb_preserve[0] = (XkbModsRec){0x01, 0x01, 0};
    kb_preserve[1] = (XkbModsRec){0x04, 0x04, 0x0100};
    memset(kb_types, 0, sizeof(kb_types));
    kb_types[1] = (XkbKeyTypeRec){{0x05, 0x01, 0x0102}, 3, 2, &kb_entries[0], kb_preserve, 0, NULL};
    kb_types[2] = (XkbKeyTypeRec){{0x02, 0x02, 0}, 2, 1, &kb_entries[2], NULL, 0, NULL};
    kb_key(10, 1, 1, 0);
    kb_key(11, 0, 0, 0);
    kb_key(12, 2, 3, 1);
    kb_behaviors[21] = (XkbBehavior){XkbKB_Lock, 0};
    kb_behaviors[23] = (XkbBehavior){XkbKB_RadioGroup, 0x81};
    memset(&s, 0, sizeof(s));
    s.present = XkbKeyTypesMask | XkbKeySymsMask | XkbKeyBehaviorsMask;
    s.first_type = 1, s.n_types = 2;
    s.first_sym = 10, s.n_syms = 3;
    s.first_beh = 20, s.n_beh = 4;
    set_map_case(&s, "2 key types (preserve), KeySymMaps of 1, 0 and 6 syms, 2 behaviors");
}

/* ---- XKB indicators ---- */

static void indicator_map_fill(XkbIndicatorMapRec *m, int i)
{
    m->flags = (unsigned char)(0x80 | i);
    m->which_groups = (unsigned char)(1 + i % 7), m->groups = (unsigned char)(0xf0 >> (i % 4));
    m->which_mods = (unsigned char)(0x1f - i), m->mods.mask = (unsigned char)(0x40 + i);
    m->mods.real_mods = (unsigned char)(0x20 + i), m->mods.vmods = (unsigned short)(0x8000 | i);
    m->ctrls = 0x10000000u * (unsigned)(i % 16) + (unsigned)i;
}

/* libX11 (XKBleds.c) puts a map's real modifiers in the IndicatorMap's `mods` byte and never
 * writes `realMods` (zero in its cleared buffer); xwire is given those values. */
static xw_xkb_indicator_map_t indicator_map_wire(const XkbIndicatorMapRec *m)
{
    xw_xkb_indicator_map_t w = {m->flags, m->which_groups, m->groups, m->which_mods, m->mods.real_mods,
                                0,        m->mods.vmods,   m->ctrls};
    return w;
}

static void indicator_cases(void)
{
    static XkbIndicatorRec ind;
    static const unsigned long which[] = {0x1, 0x80000005, 0xffffffff};
    for (size_t k = 0; k < 3; k++) {
        kb_reset();
        kb.indicators = &ind;
        xw_xkb_indicator_map_t maps[32];
        int n = 0;
        for (int i = 0; i < 32; i++) {
            indicator_map_fill(&ind.maps[i], i);
            if (which[k] >> i & 1)
                maps[n++] = indicator_map_wire(&ind.maps[i]);
        }
        char what[48];
        snprintf(what, sizeof(what), "which 0x%lx (%d maps)", which[k], n);
        xlc_xl_begin();
        Bool ok = XkbSetIndicatorMap(xlc.dpy, which[k], &kb);
        xlc_xl_end();
        tally_case(tally_find("xkb", "SetIndicatorMap"), ok, "XkbSetIndicatorMap returned True");
        XLC_VOID(xw_xkb_set_indicator_map, (xlc.c, XkbUseCoreKbd, (uint32_t)which[k], maps));
        compare("xkb", "SetIndicatorMap", what, XKB, 14, NULL, 0);
    }

    /* SetNamedIndicator: with a map (create it, set the state on) and without one (libX11
     * then sends `on` as 0 whatever the state asked) */
    for (int k = 0; k < 2; k++) {
        XkbIndicatorMapRec m;
        indicator_map_fill(&m, 5 + k);
        xw_xkb_indicator_map_t w = indicator_map_wire(&m);
        if (k)
            memset(&w, 0, sizeof(w));
        unsigned spec = k ? 3 : XkbUseCoreKbd, cls = k ? KbdFeedbackClass : LedFeedbackClass, id = k ? 2 : 0;
        xlc_xl_begin();
        Bool ok = XkbSetNamedDeviceIndicator(xlc.dpy, spec, cls, id, 0x88 + k, !k, True, !k, k ? NULL : &m);
        xlc_xl_end();
        tally_case(tally_find("xkb", "SetNamedIndicator"), ok, "XkbSetNamedDeviceIndicator returned True");
        XLC_VOID(xw_xkb_set_named_indicator,
                 (xlc.c, (uint16_t)spec, (uint16_t)cls, (uint16_t)id, 0x88 + (uint32_t)k, !k, !k, !k, !k, w.flags,
                  w.whichGroups, w.groups, w.whichMods, k ? 0 : m.mods.real_mods, w.vmods, w.ctrls));
        compare("xkb", "SetNamedIndicator", k ? "no map, state only" : "create a map, state on", XKB, 16, NULL, 0);
    }
}

/* ---- XKB SetNames (XkbChangeNames, XkbSetNames) ---- */

static XkbNamesRec kb_names;
static XkbKeyNameRec kb_keynames[256];
static XkbKeyAliasRec kb_aliases[3];
static Atom kb_rg[2], kb_lvl[3][3];

static void names_reset(void)
{
    kb_reset();
    memset(&kb_names, 0, sizeof(kb_names));
    kb.names = &kb_names;
    kb_names.keycodes = 0x101, kb_names.geometry = 0x102, kb_names.symbols = 0x103;
    kb_names.phys_symbols = 0x104, kb_names.types = 0x105, kb_names.compat = 0x106;
    for (int i = 0; i < XkbNumIndicators; i++)
        kb_names.indicators[i] = 0x300 + (Atom)i;
    for (int i = 0; i < XkbNumVirtualMods; i++)
        kb_names.vmods[i] = 0x400 + (Atom)i;
    for (int i = 0; i < XkbNumKbdGroups; i++)
        kb_names.groups[i] = 0x500 + (Atom)i;
    for (int k = 0; k < 256; k++)
        memcpy(kb_keynames[k].name,
               (char[4]){'K', (char)('0' + k / 100), (char)('0' + k / 10 % 10), (char)('0' + k % 10)}, 4);
    kb_names.keys = kb_keynames;
    for (int i = 0; i < 3; i++) {
        memcpy(kb_aliases[i].real, (char[4]){'R', 'E', 'A', (char)('a' + i)}, 4);
        memcpy(kb_aliases[i].alias, (char[4]){'A', 'L', (char)('x' + i), 0}, 4);
    }
    kb_names.key_aliases = kb_aliases;
    kb_names.num_key_aliases = 3;
    kb_rg[0] = 0x601, kb_rg[1] = 0x602;
    kb_names.radio_groups = kb_rg;
    static const int levels[3] = {3, 1, 2}; /* types 4, 5, 6 */
    for (int t = 0; t < 3; t++) {
        kb_types[4 + t].name = 0x201 + (Atom)t;
        kb_types[4 + t].num_levels = (unsigned char)levels[t];
        for (int l = 0; l < levels[t]; l++)
            kb_lvl[t][l] = 0x700 + 0x10 * (Atom)t + (Atom)l;
        kb_types[4 + t].level_names = kb_lvl[t];
    }
}

/* The values of one SetNames, for both xwire forms (atoms as CARD32). */
struct set_names {
    uint32_t which, indicators;
    uint16_t vmods;
    uint8_t groups, first_type, n_types, first_lvl, n_lvls, first_key, n_keys, n_aliases, n_rg;
    uint32_t type_names[8], lvl_names[16], ind_names[32], vmod_names[16], group_names[4], rg_names[4];
    uint8_t n_levels[8];
    xw_xkb_key_name_t keys[16];
    xw_xkb_key_alias_t aliases[4];
};

static int collect_atoms(uint32_t *out, const Atom *atoms, uint32_t mask, int max)
{
    int n = 0;
    for (int i = 0; i < max; i++)
        if (mask >> i & 1)
            out[n++] = (uint32_t)atoms[i];
    return n;
}

static void set_names_values(struct set_names *s)
{
    for (int i = 0; i < s->n_types; i++)
        s->type_names[i] = (uint32_t)kb_types[s->first_type + i].name;
    int nl = 0;
    for (int i = 0; i < s->n_lvls; i++) {
        const XkbKeyTypeRec *t = &kb_types[s->first_lvl + i];
        s->n_levels[i] = t->num_levels;
        for (int l = 0; l < t->num_levels; l++)
            s->lvl_names[nl++] = (uint32_t)t->level_names[l];
    }
    collect_atoms(s->ind_names, kb_names.indicators, s->indicators, XkbNumIndicators);
    collect_atoms(s->vmod_names, kb_names.vmods, s->vmods, XkbNumVirtualMods);
    collect_atoms(s->group_names, kb_names.groups, s->groups, XkbNumKbdGroups);
    for (int i = 0; i < s->n_keys && i < 16; i++)
        memcpy(s->keys[i].name, kb_keynames[s->first_key + i].name, 4);
    for (int i = 0; i < s->n_aliases; i++) {
        memcpy(s->aliases[i].real, kb_aliases[i].real, 4);
        memcpy(s->aliases[i].alias, kb_aliases[i].alias, 4);
    }
    for (int i = 0; i < s->n_rg; i++)
        s->rg_names[i] = (uint32_t)kb_rg[i];
}

/* libX11 never writes SetNames' totalKTLevelNames (zero in its cleared buffer; the X server
 * sizes the level names from nLevelsPerType), so xwire is given 0 there too. */
#define SET_NAMES_ARGS(s, values)                                                                                      \
    (xlc.c, XkbUseCoreKbd, (s)->vmods, (s)->which, (s)->first_type, (s)->n_types, (s)->first_lvl, (s)->n_lvls,         \
     (s)->indicators, (s)->groups, (s)->n_rg, (s)->first_key, (s)->n_keys, (s)->n_aliases, 0, values)

static const char set_names_levels[] =
    "xkb.xml sizes SetNames' nLevelsPerType by nTypes (and so the level names by the first nTypes counts); "
    "libX11 (XkbSetNames, XkbChangeNames) and the X server (xkb.c, ProcXkbSetNames: a width array of "
    "XkbPaddedSize(nKTLevels) bytes, then the names of nKTLevels types from firstKTLevel) size it by "
    "nKTLevels, as the XKB protocol does. Xlib is right: with nTypes != nKTLevels a real server misreads "
    "xwire's request (Xvfb 21.1.7 answers BadLength to nTypes 0, nKTLevels 1 from xwire and takes libX11's)";

/* SetNames' bytes as xkb.xml lays them out: Xlib's fixed part (28 bytes, length replaced),
 * then the values with nLevelsPerType counted by nTypes. Returns the length. */
static size_t set_names_xml(const struct set_names *s, const uint8_t *fixed, uint8_t *out)
{
    static const uint32_t single[] = {XkbKeycodesNameMask,    XkbGeometryNameMask, XkbSymbolsNameMask,
                                      XkbPhysSymbolsNameMask, XkbTypesNameMask,    XkbCompatNameMask};
    const Atom atoms[] = {kb_names.keycodes,     kb_names.geometry, kb_names.symbols,
                          kb_names.phys_symbols, kb_names.types,    kb_names.compat};
    size_t at = 28;
    memcpy(out, fixed, 28);
    for (int i = 0; i < 6; i++)
        if (s->which & single[i])
            fs_wr32(out + at, (uint32_t)atoms[i]), at += 4;
#define PUT(p, n) (memcpy(out + at, (p), (n)), at += (n))
    if (s->which & XkbKeyTypeNamesMask)
        PUT(s->type_names, 4u * s->n_types);
    if (s->which & XkbKTLevelNamesMask) {
        size_t sum = 0;
        for (int i = 0; i < s->n_types; i++)
            sum += s->n_levels[i];
        PUT(s->n_levels, s->n_types);
        memset(out + at, 0, -at & 3), at += -at & 3;
        PUT(s->lvl_names, 4 * sum);
    }
    if (s->which & XkbIndicatorNamesMask)
        PUT(s->ind_names, 4u * (unsigned)__builtin_popcount(s->indicators));
    if (s->which & XkbVirtualModNamesMask)
        PUT(s->vmod_names, 4u * (unsigned)__builtin_popcount(s->vmods));
    if (s->which & XkbGroupNamesMask)
        PUT(s->group_names, 4u * (unsigned)__builtin_popcount(s->groups));
    if (s->which & XkbKeyNamesMask)
        PUT(s->keys, 4u * s->n_keys);
    if (s->which & XkbKeyAliasesMask)
        PUT(s->aliases, 8u * s->n_aliases);
    if (s->which & XkbRGNamesMask)
        PUT(s->rg_names, 4u * s->n_rg);
#undef PUT
    fs_wr16(out + 2, (uint16_t)(at / 4));
    return at;
}

static void set_names_compare(struct set_names *s, const char *what)
{
    set_names_values(s);
    xw_xkb_set_names_values_t v = {(uint32_t)kb_names.keycodes,
                                   (uint32_t)kb_names.geometry,
                                   (uint32_t)kb_names.symbols,
                                   (uint32_t)kb_names.phys_symbols,
                                   (uint32_t)kb_names.types,
                                   (uint32_t)kb_names.compat,
                                   s->type_names,
                                   s->n_levels,
                                   s->lvl_names,
                                   s->ind_names,
                                   s->vmod_names,
                                   s->group_names,
                                   s->keys,
                                   s->aliases,
                                   s->rg_names};
    void *buf = NULL;
    int n = xw_xkb_set_names_values_serialize(&buf, s->n_types, s->indicators, s->vmods, s->groups, s->n_keys,
                                              s->n_aliases, s->n_rg, s->which, &v);
    tally_case(tally_find("xkb", "SetNames"), n > 0 && buf, "xw_xkb_set_names_values_serialize");
    static uint8_t xml[2048];
    size_t ll = 0;
    const uint8_t *xl = xlc_only(xlc.xl, xlc.xl_len, XKB, 18, &ll);
    struct xml_layout alt = {xml, xl && ll >= 28 ? set_names_xml(s, xl, xml) : 0, set_names_levels};
    XLC_VOID(xw_xkb_set_names, SET_NAMES_ARGS(s, buf));
    compare_alt("xkb", "SetNames", what, XKB, 18, NULL, 0, &alt);
    free(buf);
    XLC_VOID(xw_xkb_set_names_aux, SET_NAMES_ARGS(s, &v));
    compare_alt("xkb", "SetNames (aux)", what, XKB, 18, NULL, 0, &alt);
}

static void names_cases(void)
{
    /* XkbChangeNames: every part but key aliases (XkbChangeNames sends the aliases but never
     * sets nKeyAliases), 2 type names from type 4, level names of types 4..6 (3, 1 and 2
     * levels), 3 indicator names, 2 virtual modifier names, 2 group names, 3 key names, 1
     * radio group. */
    names_reset();
    kb_names.num_rg = 1;
    XkbNameChangesRec ch;
    memset(&ch, 0, sizeof(ch));
    ch.changed = XkbAllNamesMask & ~XkbKeyAliasesMask;
    ch.first_type = 4, ch.num_types = 2;
    ch.first_lvl = 4, ch.num_lvls = 3;
    ch.changed_indicators = 0x80000003;
    ch.changed_vmods = 0x0005;
    ch.changed_groups = 0x9;
    ch.first_key = 20, ch.num_keys = 3;
    xlc_xl_begin();
    Bool ok = XkbChangeNames(xlc.dpy, &kb, &ch);
    xlc_xl_end();
    tally_case(tally_find("xkb", "SetNames"), ok, "XkbChangeNames returned True");
    struct set_names s;
    memset(&s, 0, sizeof(s));
    s.which = XkbAllNamesMask & ~XkbKeyAliasesMask;
    s.first_type = 4, s.n_types = 2, s.first_lvl = 4, s.n_lvls = 3;
    s.indicators = 0x80000003, s.vmods = 0x0005, s.groups = 0x9;
    s.first_key = 20, s.n_keys = 3, s.n_rg = 1;
    set_names_compare(&s, "all but key aliases, odd counts");

    /* XkbChangeNames with as many type names as level-name types (where the XML and the
     * protocol agree), and 5 key names */
    names_reset();
    memset(&ch, 0, sizeof(ch));
    ch.changed = XkbKeyTypeNamesMask | XkbKTLevelNamesMask | XkbKeyNamesMask;
    ch.first_type = 4, ch.num_types = 3, ch.first_lvl = 4, ch.num_lvls = 3;
    ch.first_key = 250, ch.num_keys = 5;
    xlc_xl_begin();
    ok = XkbChangeNames(xlc.dpy, &kb, &ch);
    xlc_xl_end();
    tally_case(tally_find("xkb", "SetNames"), ok, "XkbChangeNames returned True");
    memset(&s, 0, sizeof(s));
    s.which = ch.changed;
    s.first_type = 4, s.n_types = 3, s.first_lvl = 4, s.n_lvls = 3;
    s.first_key = 250, s.n_keys = 5;
    set_names_compare(&s, "3 type names, level names of the same 3 types, 5 key names");

    /* XkbSetNames: keycodes name, 3 key aliases, 2 radio groups (it always sends the whole
     * key range, 8..255, in firstKey/nKeys) */
    names_reset();
    kb_names.num_rg = 2;
    xlc_xl_begin();
    ok = XkbSetNames(xlc.dpy, XkbKeycodesNameMask | XkbKeyAliasesMask | XkbRGNamesMask, 0, 0, &kb);
    xlc_xl_end();
    tally_case(tally_find("xkb", "SetNames"), ok, "XkbSetNames returned True");
    memset(&s, 0, sizeof(s));
    s.which = XkbKeycodesNameMask | XkbKeyAliasesMask | XkbRGNamesMask;
    s.first_key = 8, s.n_keys = 248, s.n_aliases = 3, s.n_rg = 2;
    set_names_compare(&s, "keycodes name, 3 key aliases, 2 radio groups");
}

/* ---- XKB SetCompatMap, SetControls, SetDeviceInfo ---- */

static void compat_cases(void)
{
    static XkbSymInterpretRec si[3];
    static XkbCompatMapRec compat;
    memset(si, 0, sizeof(si));
    for (int i = 0; i < 3; i++) {
        si[i].sym = 0xffe1 + (KeySym)i;
        si[i].flags = (unsigned char)(1 + i), si[i].match = (unsigned char)(0x80 | i);
        si[i].mods = (unsigned char)(1 << i), si[i].virtual_mod = (unsigned char)(i ? i : XkbNoModifier);
        si[i].act.type = (unsigned char)(XkbSA_SetMods + i);
        for (int j = 0; j < XkbAnyActionDataSize; j++)
            si[i].act.data[j] = (unsigned char)(0x10 * i + j + 1);
    }
    compat.sym_interpret = si;
    compat.num_si = compat.size_si = 3;
    for (int g = 0; g < XkbNumKbdGroups; g++)
        compat.groups[g] =
            (XkbModsRec){(unsigned char)(0x11 * g), (unsigned char)(0x01 << g), (unsigned short)(0x100 * g)};
    xw_xkb_sym_interpret_t wsi[3];
    for (int i = 0; i < 3; i++) {
        wsi[i].sym = (uint32_t)si[i].sym, wsi[i].mods = si[i].mods, wsi[i].match = si[i].match;
        wsi[i].virtualMod = si[i].virtual_mod, wsi[i].flags = si[i].flags;
        memcpy(&wsi[i].action, &si[i].act, 8);
    }
    xw_xkb_mod_def_t wg[4];
    for (int g = 0; g < 4; g++)
        wg[g] = (xw_xkb_mod_def_t){compat.groups[g].mask, compat.groups[g].real_mods, compat.groups[g].vmods};
    static const struct {
        unsigned which;
        Bool update;
        const char *what;
    } c[] = {{XkbSymInterpMask | XkbGroupCompatMask, True, "3 interpretations, 4 group maps"},
             {XkbGroupCompatMask, False, "group maps only"},
             {XkbSymInterpMask, False, "interpretations only"}};
    for (size_t k = 0; k < 3; k++) {
        kb_reset();
        kb.compat = &compat;
        xlc_xl_begin();
        Bool ok = XkbSetCompatMap(xlc.dpy, c[k].which, &kb, c[k].update);
        xlc_xl_end();
        tally_case(tally_find("xkb", "SetCompatMap"), ok, "XkbSetCompatMap returned True");
        int interp = (c[k].which & XkbSymInterpMask) != 0;
        uint8_t groups = c[k].which & XkbGroupCompatMask ? XkbAllGroupsMask : 0;
        XLC_VOID(xw_xkb_set_compat_map,
                 (xlc.c, XkbUseCoreKbd, (uint8_t)c[k].update, (uint8_t)interp, groups, 0, interp ? 3 : 0, wsi, wg));
        compare("xkb", "SetCompatMap", c[k].what, XKB, 11, NULL, 0);
    }
}

/* XkbSetControls for `which`, and the same request through xwire with the fields libX11
 * sets for it (XKBCtrls.c: an affected modifier set is affected whole, the enabled controls
 * affect every boolean control; every other field is 0). */
static void controls_case(XkbControlsRec *x, unsigned long which, const char *what)
{
    kb_reset();
    kb.ctrls = x;
    xlc_xl_begin();
    Bool ok = XkbSetControls(xlc.dpy, which, &kb);
    xlc_xl_end();
    tally_case(tally_find("xkb", "SetControls"), ok, "XkbSetControls returned True");
    int im = !!(which & XkbInternalModsMask), il = !!(which & XkbIgnoreLockModsMask);
    int en = !!(which & XkbControlsEnabledMask), rk = !!(which & XkbRepeatKeysMask);
    int mka = !!(which & XkbMouseKeysAccelMask), axt = !!(which & XkbAccessXTimeoutMask);
    int ax = !!(which & (XkbAccessXKeysMask | XkbStickyKeysMask | XkbAccessXFeedbackMask));
    uint8_t zero_keys[XkbPerKeyBitArraySize] = {0};
    XLC_VOID(xw_xkb_set_controls,
             (xlc.c, XkbUseCoreKbd, im ? 0xff : 0, im ? x->internal.real_mods : 0, il ? 0xff : 0,
              il ? x->ignore_lock.real_mods : 0, im ? 0xffff : 0, im ? x->internal.vmods : 0, il ? 0xffff : 0,
              il ? x->ignore_lock.vmods : 0, which & XkbMouseKeysMask ? x->mk_dflt_btn : 0,
              which & XkbGroupsWrapMask ? x->groups_wrap : 0, ax ? x->ax_options : 0, en ? XkbAllBooleanCtrlsMask : 0,
              en ? x->enabled_ctrls : 0, (uint32_t)which, rk ? x->repeat_delay : 0, rk ? x->repeat_interval : 0,
              which & XkbSlowKeysMask ? x->slow_keys_delay : 0, which & XkbBounceKeysMask ? x->debounce_delay : 0,
              mka ? x->mk_delay : 0, mka ? x->mk_interval : 0, mka ? x->mk_time_to_max : 0, mka ? x->mk_max_speed : 0,
              mka ? x->mk_curve : 0, axt ? x->ax_timeout : 0, axt ? x->axt_ctrls_mask : 0,
              axt ? x->axt_ctrls_values : 0, axt ? x->axt_opts_mask : 0, axt ? x->axt_opts_values : 0,
              which & XkbPerKeyRepeatMask ? x->per_key_repeat : zero_keys));
    compare("xkb", "SetControls", what, XKB, 7, NULL, 0);
}

static void controls_cases(void)
{
    XkbControlsRec x;
    memset(&x, 0, sizeof(x));
    x.mk_dflt_btn = 3, x.groups_wrap = 0x82;
    x.internal = (XkbModsRec){0x0d, 0x05, 0x8001};
    x.ignore_lock = (XkbModsRec){0x12, 0x12, 0x0010};
    x.enabled_ctrls = 0x1a5f;
    x.repeat_delay = 660, x.repeat_interval = 25, x.slow_keys_delay = 300, x.debounce_delay = 40;
    x.mk_delay = 160, x.mk_interval = 16, x.mk_time_to_max = 30, x.mk_max_speed = 500, x.mk_curve = -1000;
    x.ax_options = 0x0fff, x.ax_timeout = 120, x.axt_opts_mask = 0x00f0, x.axt_opts_values = 0x0050;
    x.axt_ctrls_mask = 0x0000ffff, x.axt_ctrls_values = 0x00001234;
    for (int i = 0; i < XkbPerKeyBitArraySize; i++)
        x.per_key_repeat[i] = (unsigned char)(0xff - 7 * i);
    controls_case(&x, XkbAllControlsMask, "every control");
    controls_case(&x, XkbRepeatKeysMask | XkbPerKeyRepeatMask, "repeat keys and per-key repeat");
    controls_case(&x, XkbInternalModsMask | XkbStickyKeysMask | XkbMouseKeysAccelMask,
                  "internal mods, sticky keys, "
                  "mouse keys acceleration");
}

/* One DeviceLedInfo as the wire has it; returns its length. */
static size_t led_wire(uint8_t *p, const XkbDeviceLedInfoRec *l)
{
    fs_wr16(p, l->led_class), fs_wr16(p + 2, l->led_id);
    fs_wr32(p + 4, l->names_present), fs_wr32(p + 8, l->maps_present);
    fs_wr32(p + 12, l->phys_indicators), fs_wr32(p + 16, l->state);
    size_t at = 20;
    for (int i = 0; i < XkbNumIndicators; i++)
        if (l->names_present >> i & 1)
            fs_wr32(p + at, (uint32_t)l->names[i]), at += 4;
    for (int i = 0; i < XkbNumIndicators; i++)
        if (l->maps_present >> i & 1) {
            const XkbIndicatorMapRec *m = &l->maps[i];
            p[at] = m->flags, p[at + 1] = m->which_groups, p[at + 2] = m->groups, p[at + 3] = m->which_mods;
            p[at + 4] = m->mods.mask, p[at + 5] = m->mods.real_mods;
            fs_wr16(p + at + 6, m->mods.vmods), fs_wr32(p + at + 8, m->ctrls);
            at += 12;
        }
    return at;
}

static void device_info_cases(void)
{
    static XkbAction acts[3];
    static XkbDeviceLedInfoRec leds[2];
    XkbDeviceInfoRec d;
    memset(&d, 0, sizeof(d));
    memset(leds, 0, sizeof(leds));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 8; j++)
            ((unsigned char *)&acts[i])[j] = (unsigned char)(0xa0 + 8 * i + j);
    leds[0].led_class = KbdFeedbackClass, leds[0].led_id = 0;
    leds[0].names_present = 0x80000005, leds[0].maps_present = 0x3, leds[0].phys_indicators = 0x7;
    leds[0].state = 0x1;
    leds[1].led_class = LedFeedbackClass, leds[1].led_id = 4;
    leds[1].maps_present = 0x10, leds[1].state = 0x10;
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < XkbNumIndicators; i++) {
            leds[l].names[i] = 0x800 + 0x40 * (Atom)l + (Atom)i;
            indicator_map_fill(&leds[l].maps[i], i + 3 * l);
        }
    d.device_spec = 3;
    d.num_btns = 3, d.btn_acts = acts;
    d.num_leds = d.sz_leds = 2, d.leds = leds;
    d.dflt_kbd_fb = 0, d.dflt_led_fb = 4;
    static const struct {
        unsigned which;
        const char *what;
    } c[] = {{XkbXI_ButtonActionsMask | XkbXI_IndicatorNamesMask | XkbXI_IndicatorMapsMask,
              "3 button actions, 2 LED feedbacks (3 names + 2 maps, 1 map)"},
             {XkbXI_IndicatorMapsMask, "2 LED feedbacks, maps only"},
             {XkbXI_ButtonActionsMask, "3 button actions"}};
    for (size_t k = 0; k < 3; k++) {
        xlc_xl_begin();
        Bool ok = XkbSetDeviceInfo(xlc.dpy, c[k].which, &d);
        xlc_xl_end();
        tally_case(tally_find("xkb", "SetDeviceInfo"), ok, "XkbSetDeviceInfo returned True");
        uint8_t w[512];
        size_t at = 0;
        int nleds = c[k].which & (XkbXI_IndicatorNamesMask | XkbXI_IndicatorMapsMask) ? 2 : 0;
        for (int l = 0; l < nleds; l++) {
            XkbDeviceLedInfoRec only = leds[l];
            if (!(c[k].which & XkbXI_IndicatorNamesMask))
                only.names_present = 0;
            if (!(c[k].which & XkbXI_IndicatorMapsMask))
                only.maps_present = 0;
            at += led_wire(w + at, &only);
        }
        int nb = c[k].which & XkbXI_ButtonActionsMask ? 3 : 0;
        XLC_VOID(xw_xkb_set_device_info,
                 (xlc.c, 3, 0, (uint8_t)nb, (uint16_t)c[k].which, (uint16_t)nleds,
                  (const xw_xkb_action_t *)(const void *)acts, (const xw_xkb_device_led_info_t *)(const void *)w));
        compare("xkb", "SetDeviceInfo", c[k].what, XKB, 25, NULL, 0);
    }
}

/* ---- XInput ---- */

static XDevice *xi_device; /* opened through libXi (OpenDevice), id 5 */

/* XIChangeProperty and ChangeDeviceProperty: formats 8, 16 and 32 with odd counts. */
static void property_cases(void)
{
    static const uint8_t d8[7] = {'a', 'b', 'c', 'd', 'e', 'f', 'g'};
    static const uint16_t d16[3] = {0x1234, 0xfffe, 0x0001};
    static const uint32_t d32[3] = {0xdeadbeef, 0x00000001, 0x80000000};
    static const long l32[3] = {(long)0xdeadbeef, 1, (long)0x80000000}; /* Data32 reads longs */
    static const short s16[3] = {0x1234, (short)0xfffe, 0x0001};
    static const struct {
        int format, n, mode;
    } p[] = {{8, 7, PropModeReplace},
             {8, 0, PropModeAppend},
             {16, 3, PropModePrepend},
             {32, 3, PropModeAppend},
             {16, 1, PropModeReplace}};
    for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
        const void *data = p[i].format == 8 ? (const void *)d8 : p[i].format == 16 ? (const void *)d16 : d32;
        xw_input_xi_change_property_items_t xi = {(uint8_t *)d8, (uint16_t *)d16, (uint32_t *)d32};
        xw_input_change_device_property_items_t dp = {(uint8_t *)d8, (uint16_t *)d16, (uint32_t *)d32};
        char what[64];
        snprintf(what, sizeof(what), "format %d, %d items, mode %d", p[i].format, p[i].n, p[i].mode);
        xlc_xl_begin();
        XIChangeProperty(xlc.dpy, 7, 0x45, 0x13, p[i].format, p[i].mode, (unsigned char *)(uintptr_t)data, p[i].n);
        xlc_xl_end();
        /* the plain form takes the serialized switch (the items and their pad) */
        void *ser = NULL;
        xw_input_xi_change_property_items_serialize(&ser, (uint32_t)p[i].n, (uint8_t)p[i].format, &xi);
        XLC_VOID(xw_input_xi_change_property,
                 (xlc.c, 7, (uint8_t)p[i].mode, (uint8_t)p[i].format, 0x45, 0x13, (uint32_t)p[i].n, ser));
        free(ser);
        compare("Input", "XIChangeProperty", what, XI, 57, NULL, 0);
        XLC_VOID(xw_input_xi_change_property_aux,
                 (xlc.c, 7, (uint8_t)p[i].mode, (uint8_t)p[i].format, 0x45, 0x13, (uint32_t)p[i].n, &xi));
        compare("Input", "XIChangeProperty (aux)", what, XI, 57, NULL, 0);

        const void *xdata = p[i].format == 8 ? (const void *)d8 : p[i].format == 16 ? (const void *)s16 : l32;
        xlc_xl_begin();
        XChangeDeviceProperty(xlc.dpy, xi_device, 0x46, 0x14, p[i].format, p[i].mode, xdata, p[i].n);
        xlc_xl_end();
        ser = NULL;
        xw_input_change_device_property_items_serialize(&ser, (uint32_t)p[i].n, (uint8_t)p[i].format, &dp);
        XLC_VOID(xw_input_change_device_property, (xlc.c, 0x46, 0x14, (uint8_t)xi_device->device_id,
                                                   (uint8_t)p[i].format, (uint8_t)p[i].mode, (uint32_t)p[i].n, ser));
        free(ser);
        compare("Input", "ChangeDeviceProperty", what, XI, 37, NULL, 0);
        XLC_VOID(xw_input_change_device_property_aux,
                 (xlc.c, 0x46, 0x14, (uint8_t)xi_device->device_id, (uint8_t)p[i].format, (uint8_t)p[i].mode,
                  (uint32_t)p[i].n, &dp));
        compare("Input", "ChangeDeviceProperty (aux)", what, XI, 37, NULL, 0);
    }
}

/* ChangeFeedbackControl: the request header is 12 bytes, the FeedbackCtl follows. libXi
 * puts the feedback's class in the request's feedback_id (the X server reads it as the
 * class, and the id from the FeedbackCtl), so xwire is given the class there too. */
static void feedback_case(XFeedbackControl *f, unsigned long mask, const uint8_t *ctl, size_t n, const char *what,
                          const struct uninit *un, size_t nun)
{
    xlc_xl_begin();
    XChangeFeedbackControl(xlc.dpy, xi_device, mask, f);
    xlc_xl_end();
    static uint8_t buf[64];
    memcpy(buf, ctl, n);
    XLC_VOID(xw_input_change_feedback_control, (xlc.c, (uint32_t)mask, (uint8_t)xi_device->device_id, (uint8_t)f->class,
                                                (xw_input_feedback_ctl_t *)(void *)buf));
    compare("Input", "ChangeFeedbackControl", what, XI, 23, un, nun);
}

static void feedback_cases(void)
{
    uint8_t w[64];
    XKbdFeedbackControl k = {KbdFeedbackClass, sizeof(k), 9, -1, 55, 440, 120, 0x3, 0x1, 38, AutoRepeatModeOff};
    memset(w, 0, sizeof(w));
    w[0] = KbdFeedbackClass, w[1] = 9, fs_wr16(w + 2, 20);
    w[4] = 38, w[5] = AutoRepeatModeOff, w[6] = 0xff, w[7] = 55;
    fs_wr16(w + 8, 440), fs_wr16(w + 10, 120), fs_wr32(w + 12, 3), fs_wr32(w + 16, 1);
    feedback_case((XFeedbackControl *)&k, 0xff, w, 20, "keyboard feedback", NULL, 0);

    XPtrFeedbackControl pf = {PtrFeedbackClass, sizeof(pf), 2, 3, 2, -1};
    memset(w, 0, sizeof(w));
    w[0] = PtrFeedbackClass, w[1] = 2, fs_wr16(w + 2, 12);
    fs_wr16(w + 6, 3), fs_wr16(w + 8, 2), fs_wr16(w + 10, 0xffff);
    static const struct uninit ptr_pad[] = {{12 + 4, 12 + 6}}; /* xPtrFeedbackCtl pad1, pad2 */
    feedback_case((XFeedbackControl *)&pf, 0x7, w, 12, "pointer feedback", ptr_pad, 1);

    XIntegerFeedbackControl in = {IntegerFeedbackClass, sizeof(in), 4, -123456};
    memset(w, 0, sizeof(w));
    w[0] = IntegerFeedbackClass, w[1] = 4, fs_wr16(w + 2, 8), fs_wr32(w + 4, (uint32_t)-123456);
    feedback_case((XFeedbackControl *)&in, 0x1, w, 8, "integer feedback", NULL, 0);

    XLedFeedbackControl led = {LedFeedbackClass, sizeof(led), 6, 0xf0f0, 0x00ff};
    memset(w, 0, sizeof(w));
    w[0] = LedFeedbackClass, w[1] = 6, fs_wr16(w + 2, 12), fs_wr32(w + 4, 0xf0f0), fs_wr32(w + 8, 0x00ff);
    feedback_case((XFeedbackControl *)&led, 0x30, w, 12, "led feedback", NULL, 0);

    XBellFeedbackControl bell = {BellFeedbackClass, sizeof(bell), 1, -20, 880, 33};
    memset(w, 0, sizeof(w));
    w[0] = BellFeedbackClass, w[1] = 1, fs_wr16(w + 2, 12);
    w[4] = (uint8_t)-20, fs_wr16(w + 8, 880), fs_wr16(w + 10, 33);
    static const struct uninit bell_pad[] = {{12 + 5, 12 + 8}}; /* xBellFeedbackCtl pad1..3 */
    feedback_case((XFeedbackControl *)&bell, 0xe, w, 12, "bell feedback", bell_pad, 1);
}

/* ChangeDeviceControl: the request header is 8 bytes, the DeviceCtl follows; reply status. */
static void device_control_case(int control, XDeviceControl *d, const uint8_t *ctl, size_t n, const char *what,
                                const struct uninit *un, size_t nun)
{
    xlc_xl_begin();
    int st = XChangeDeviceControl(xlc.dpy, xi_device, control, d);
    xlc_xl_end();
    tally_case(tally_find("Input", "ChangeDeviceControl"), st == Success, "libXi read the reply (status Success)");
    static uint8_t buf[64];
    memcpy(buf, ctl, n);
    XLC_REPLY(xw_input_change_device_control,
              (xlc.c, (uint16_t)control, (uint8_t)xi_device->device_id, (xw_input_device_ctl_t *)(void *)buf),
              r->status == 0);
    compare("Input", "ChangeDeviceControl", what, XI, 35, un, nun);
}

static void device_control_cases(void)
{
    uint8_t w[64];
    int res[3] = {100, 200000, 7};
    XDeviceResolutionControl r = {DEVICE_RESOLUTION, sizeof(r), 1, 3, res};
    memset(w, 0, sizeof(w));
    fs_wr16(w, DEVICE_RESOLUTION), fs_wr16(w + 2, 20), w[4] = 1, w[5] = 3;
    fs_wr32(w + 8, 100), fs_wr32(w + 12, 200000), fs_wr32(w + 16, 7);
    static const struct uninit res_pad[] = {{8 + 6, 8 + 8}}; /* xDeviceResolutionCtl pad1, pad2 */
    device_control_case(DEVICE_RESOLUTION, (XDeviceControl *)&r, w, 20, "resolution, 3 valuators", res_pad, 1);

    int res1[1] = {-1};
    XDeviceResolutionControl r1 = {DEVICE_RESOLUTION, sizeof(r1), 0, 1, res1};
    memset(w, 0, sizeof(w));
    fs_wr16(w, DEVICE_RESOLUTION), fs_wr16(w + 2, 12), w[4] = 0, w[5] = 1, fs_wr32(w + 8, 0xffffffff);
    device_control_case(DEVICE_RESOLUTION, (XDeviceControl *)&r1, w, 12, "resolution, 1 valuator", res_pad, 1);

    XDeviceAbsCalibControl cal = {DEVICE_ABS_CALIB, sizeof(cal), -5, 4000, 10, 3000, 1, 0, 90, 12};
    memset(w, 0, sizeof(w));
    fs_wr16(w, DEVICE_ABS_CALIB), fs_wr16(w + 2, 36);
    fs_wr32(w + 4, (uint32_t)-5), fs_wr32(w + 8, 4000), fs_wr32(w + 12, 10), fs_wr32(w + 16, 3000);
    fs_wr32(w + 20, 1), fs_wr32(w + 24, 0), fs_wr32(w + 28, 90), fs_wr32(w + 32, 12);
    device_control_case(DEVICE_ABS_CALIB, (XDeviceControl *)&cal, w, 36, "absolute calibration", NULL, 0);

    XDeviceCoreControl core = {DEVICE_CORE, sizeof(core), 1};
    memset(w, 0, sizeof(w));
    fs_wr16(w, DEVICE_CORE), fs_wr16(w + 2, 8), w[4] = 1;
    static const struct uninit core_pad[] = {{8 + 5, 8 + 8}}; /* pad0, pad1 */
    device_control_case(DEVICE_CORE, (XDeviceControl *)&core, w, 8, "core", core_pad, 1);

    XDeviceEnableControl en = {DEVICE_ENABLE, sizeof(en), 1};
    memset(w, 0, sizeof(w));
    fs_wr16(w, DEVICE_ENABLE), fs_wr16(w + 2, 8), w[4] = 1;
    device_control_case(DEVICE_ENABLE, (XDeviceControl *)&en, w, 8, "enable", core_pad, 1);

    XDeviceAbsAreaControl area = {DEVICE_ABS_AREA, sizeof(area), 10, 20, 640, 480, 1, 0x11};
    memset(w, 0, sizeof(w));
    fs_wr16(w, DEVICE_ABS_AREA), fs_wr16(w + 2, 28);
    fs_wr32(w + 4, 10), fs_wr32(w + 8, 20), fs_wr32(w + 12, 640), fs_wr32(w + 16, 480), fs_wr32(w + 20, 1),
        fs_wr32(w + 24, 0x11);
    device_control_case(DEVICE_ABS_AREA, (XDeviceControl *)&area, w, 28, "absolute area", NULL, 0);
}

static void xinput_cases(void)
{
    xlc_xl_begin();
    xi_device = XOpenDevice(xlc.dpy, 5);
    xlc_xl_end();
    if (!tally_extra(xi_device && xi_device->device_id == 5 && xi_device->num_classes == 2,
                     "XOpenDevice(5) parsed the fake server's reply"))
        return;
    property_cases();
    feedback_cases();
    device_control_cases();
    XCloseDevice(xlc.dpy, xi_device);
}

/* ---- RandR ---- */

static void randr_cases(void)
{
    /* SetMonitor with 0, 1 and 3 outputs */
    RROutput outs[3] = {0x51, 0x7f000001, 0x53};
    for (int n = 0; n < 4; n += n ? 2 : 1) {
        XRRMonitorInfo mi = {0x99, True, False, n, -10, 20, 1920, 1080, 520, 290, outs};
        char what[32];
        snprintf(what, sizeof(what), "%d outputs", n);
        xlc_xl_begin();
        XRRSetMonitor(xlc.dpy, 0x100, &mi);
        xlc_xl_end();
        uint8_t buf[64];
        memset(buf, 0, sizeof(buf));
        fs_wr32(buf, 0x99), buf[4] = 1, buf[5] = 0, fs_wr16(buf + 6, (uint16_t)n);
        fs_wr16(buf + 8, (uint16_t)-10), fs_wr16(buf + 10, 20), fs_wr16(buf + 12, 1920), fs_wr16(buf + 14, 1080);
        fs_wr32(buf + 16, 520), fs_wr32(buf + 20, 290);
        for (int i = 0; i < n; i++)
            fs_wr32(buf + 24 + 4 * i, (uint32_t)outs[i]);
        XLC_VOID(xw_randr_set_monitor, (xlc.c, 0x100, (xw_randr_monitor_info_t *)(void *)buf));
        compare("RandR", "SetMonitor", what, RR, 43, NULL, 0);
    }

    /* SetCrtcGamma, sizes 1, 3 (odd: red, green and blue back to back, one pad at the end)
     * and 4 */
    static const int sizes[] = {1, 3, 4};
    for (size_t k = 0; k < 3; k++) {
        int size = sizes[k];
        XRRCrtcGamma *g = XRRAllocGamma(size);
        uint16_t r[4], gr[4], b[4];
        for (int i = 0; i < size; i++) {
            g->red[i] = r[i] = (uint16_t)(0x1111 * (i + 1));
            g->green[i] = gr[i] = (uint16_t)(0x2000 + i);
            g->blue[i] = b[i] = (uint16_t)(0xff00 | i);
        }
        char what[32];
        snprintf(what, sizeof(what), "size %d", size);
        xlc_xl_begin();
        XRRSetCrtcGamma(xlc.dpy, 0x77, g);
        xlc_xl_end();
        XRRFreeGamma(g);
        XLC_VOID(xw_randr_set_crtc_gamma, (xlc.c, 0x77, (uint16_t)size, r, gr, b));
        compare("RandR", "SetCrtcGamma", what, RR, 24, NULL, 0);
    }
}

/* Printed with the results: forms no Xlib-side library can produce, so without this oracle. */
static const char *const no_oracle[] = {
    "xkb SelectEvents (both forms) with several details blocks: libX11 sends one block per request "
    "(XkbSelectEventDetails) and none from XkbSelectEvents",
    "xkb SetMap with a range other than XkbChangeMap's (it sends only keys with a non-zero explicit, modmap or "
    "vmodmap entry, and libX11 computes every total itself)",
    "Input ChangeFeedbackControl, string feedback: libXi copies KeySyms as C longs (8 bytes on LP64) where the "
    "protocol has 4-byte KEYSYMs, so its bytes are no oracle there",
    "Input XIChangeProperty / ChangeDeviceProperty with format 0 or a negative count (libXi sends format 0)",
    "xkb SetIndicatorMap, IndicatorMap's realMods byte: libX11 sends the real modifiers in `mods` and never "
    "writes `realMods`",
    "xkb SetNames: key aliases through XkbChangeNames (libX11 sends them but never sets nKeyAliases), "
    "totalKTLevelNames (libX11 never writes it; xwire is given 0 too), type names from a required type (0..3: "
    "libX11 skips them)",
    "xkb SetCompatMap with firstSI other than 0 (XkbSetCompatMap always sends interpretations from 0)",
    "xkb SetNamedIndicator with setState 0 and on 1: libX11 sends on = 0 unless it changes the state",
};

int main(void)
{
    xlc_watchdog("xlib-ext", 50);
    tally_begin("Xlib (libX11 XKB, libXi, libXrandr)", marks, sizeof(marks) / sizeof(marks[0]));
    int fds_at_start = count_open_fds();
    if (xlc_open() < 0)
        return 1;
    select_events_cases();
    set_map_cases();
    indicator_cases();
    names_cases();
    compat_cases();
    controls_cases();
    device_info_cases();
    xinput_cases();
    randr_cases();
    tally_extra(xlc.xlib_errors == 0, "no X errors reported to Xlib");
    xlc_close();
    tally_extra(count_open_fds() == fds_at_start, "no file descriptor left open at the end");
    printf("\nWithout an Xlib-side oracle:\n");
    for (size_t i = 0; i < sizeof(no_oracle) / sizeof(no_oracle[0]); i++)
        printf("  - %s\n", no_oracle[i]);
    return tally_end();
}
