/* SPDX-License-Identifier: MIT */
/* hooks.c — what a layer built over the runtime (libxcb.so.1 from xwire) registers to be told. */
#include "hooks.h"

struct xw_hooks xw__hooks;

void xw__hooks_register(const struct xw_hooks *h)
{
    if (h->setup_refused)
        xw__hooks.setup_refused = h->setup_refused;
    if (h->lent)
        xw__hooks.lent = h->lent;
}
