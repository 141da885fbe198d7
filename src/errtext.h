/* SPDX-License-Identifier: MIT */
/* errtext.h — internal: X errors shown as they arrive (XWIRE_ERRORS=callsite). */
#ifndef XW_SRC_ERRTEXT_H
#define XW_SRC_ERRTEXT_H

#include "base.h"

/* Lock held, call sites on: prints the error w (32 wire bytes) that
 * has just arrived for request seq, with its call site, to stderr. */
void xw__errtext_shown(xw_connection_t *c, const uint8_t *w, uint64_t seq) __attribute__((cold));

#endif
