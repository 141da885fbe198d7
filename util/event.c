/* SPDX-License-Identifier: MIT */
/* event.c — xcb-util's event, error and request labels, from the core protocol's name tables. */
#include <xw/xw_event.h>
#include <xw/xwext.h>

#include <pthread.h>
#include <stdio.h>

/* xcb-util's labels are Xlib's traditional names; where those differ from the
 * protocol description's (the table the runtime already has), the label wins here. */
struct label {
    uint8_t code;
    const char *text;
};

static const struct label event_labels[] = {
    {0, "error"},
    {1, "reply"},
    {13, "GraphicsExpose"},
    {14, "NoExpose"},
};

static const struct label request_labels[] = {
    {0, "no request"},  {40, "TranslateCoords"}, {74, "PolyText"},   {75, "PolyText"},   {76, "ImageText"},
    {77, "ImageText"},  {120, "major 120"},      {121, "major 121"}, {122, "major 122"}, {123, "major 123"},
    {124, "major 124"}, {125, "major 125"},      {126, "major 126"},
};

static const struct label error_labels[] = {
    {0, "Success"},
    {12, "BadColor"},
    {13, "BadGC"},
};

static const char * override(const struct label *l, size_t n, uint8_t code)
{
    for (size_t i = 0; i < n; i++)
        if (l[i].code == code)
            return l[i].text;
    return NULL;
}

static const char *table(const char *const *names, unsigned n, uint8_t code)
{
    return names && code < n ? names[code] : NULL;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The core's events end at MappingNotify (34); the generic event (35) has no label. */
#define LAST_CORE_EVENT 34

XW_EXPORT const char *xw_event_get_label(uint8_t type)
{
    const char *s = override(event_labels, COUNT(event_labels), type);
    if (s || type > LAST_CORE_EVENT)
        return s;
    return table(xw_xproto_desc.event_names, xw_xproto_desc.n_events, type);
}

/* "Bad" + the description's error name, built once into static storage. */
static char bad_names[32][24];
static pthread_once_t bad_once = PTHREAD_ONCE_INIT;

static void build_bad_names(void)
{
    for (unsigned i = 0; i < xw_xproto_desc.n_errors && i < COUNT(bad_names); i++)
        if (xw_xproto_desc.error_names[i])
            snprintf(bad_names[i], sizeof(bad_names[i]), "Bad%s", xw_xproto_desc.error_names[i]);
}

XW_EXPORT const char *xw_event_get_error_label(uint8_t type)
{
    const char *s = override(error_labels, COUNT(error_labels), type);
    if (s)
        return s;
    pthread_once(&bad_once, build_bad_names);
    return type < COUNT(bad_names) && bad_names[type][0] ? bad_names[type] : NULL;
}

XW_EXPORT const char *xw_event_get_request_label(uint8_t type)
{
    const char *s = override(request_labels, COUNT(request_labels), type);
    if (s)
        return s;
    return table(xw_xproto_desc.request_names, xw_xproto_desc.n_requests, type);
}
