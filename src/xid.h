/* SPDX-License-Identifier: MIT */
/* xid.h — internal: resource ids. */
#ifndef XW_SRC_XID_H
#define XW_SRC_XID_H

#include "base.h"

/* xid.c: the id range from the setup (at connect); the own socket's generate_id. */
void xw__xid_init(xw_connection_t *c);
uint32_t xw__xid_generate(xw_connection_t *c);

#endif
