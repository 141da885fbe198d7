/* SPDX-License-Identifier: MIT */
/* trace_atom.c — the atom names a traced connection has seen, for lines that show atoms by name. */
#include "trace.h"

#include <string.h>

/* The core's decoders carry its predefined atoms. */
extern const struct xw_tr_desc xw__tr_xproto;

static uint32_t slot(uint32_t a)
{
    return (a * 2654435761u) & (XW_TR_ATOMS - 1);
}

void xw__trace_atom_learn(struct xw_tr_atoms *t, uint32_t a, const char *name, size_t n)
{
    if (!a || n == 0 || t->pos + n + 1 > XW_TR_ARENA)
        return;
    /* half full at most, so a lookup of an unknown atom ends soon */
    for (uint32_t i = slot(a), k = 0; k < XW_TR_ATOMS / 2; i = (i + 1) & (XW_TR_ATOMS - 1), k++) {
        if (t->key[i] == a)
            return;
        if (!t->key[i]) {
            t->key[i] = a;
            t->off[i] = (uint32_t)t->pos;
            memcpy(t->arena + t->pos, name, n);
            t->arena[t->pos + n] = 0;
            t->pos += n + 1;
            return;
        }
    }
}

const char *xw__trace_atom_name(const struct xw_tr_atoms *t, uint32_t a)
{
    const struct xw_tr_desc *core = &xw__tr_xproto;
    if (a >= 1 && a <= (uint32_t)core->n_atoms && core->atoms[a - 1].value == a) /* numbered 1.. in order */
        return core->atoms[a - 1].name;
    if (!t)
        return NULL;
    for (uint32_t i = slot(a), k = 0; k < XW_TR_ATOMS / 2 && t->key[i]; i = (i + 1) & (XW_TR_ATOMS - 1), k++)
        if (t->key[i] == a)
            return t->arena + t->off[i];
    return NULL;
}
