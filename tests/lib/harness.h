/* SPDX-License-Identifier: MIT */
/* harness.h — small pieces the libxcb comparison tests (conform, decode) share. */
#ifndef XW_TEST_HARNESS_H
#define XW_TEST_HARNESS_H

#include <stddef.h> /* NULL */
#include <stdint.h>

/* Every extension xcb-proto describes, by the name QueryExtension takes: the fake
 * servers answer extension i with major opcode 128 + i and first event 64 + i. */
static const char *const harness_ext_names[] = {
    "BIG-REQUESTS",
    "Composite",
    "DAMAGE",
    "DOUBLE-BUFFER",
    "DPMS",
    "DRI2",
    "DRI3",
    "Generic Event Extension",
    "GLX",
    "Present",
    "RANDR",
    "RECORD",
    "RENDER",
    "X-Resource",
    "MIT-SCREEN-SAVER",
    "SHAPE",
    "MIT-SHM",
    "SYNC",
    "XC-MISC",
    "XEVIE",
    "XFree86-DRI",
    "XFree86-VidModeExtension",
    "XFIXES",
    "XINERAMA",
    "XInputExtension",
    "XKEYBOARD",
    "XpExtension",
    "SELinux",
    "XTEST",
    "XVideo",
    "XVideo-MotionCompensation",
    NULL,
};

/* A seed from a case's names, so each case's arguments stay the same between runs. */
static inline uint64_t harness_seed(const char *a, const char *b)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = a; *p; p++)
        h = (h ^ (uint8_t)*p) * 1099511628211ULL;
    for (const char *p = b; *p; p++)
        h = (h ^ (uint8_t)*p) * 1099511628211ULL;
    return h;
}

#endif
