/* SPDX-License-Identifier: MIT */
/* query.h — internal: QueryExtension and BIG-REQUESTS round trips. */
#ifndef XW_SRC_QUERY_H
#define XW_SRC_QUERY_H

#include "base.h"

/* query.c (lock held; may release it for the round trip): ext's major opcode
 * (-ENOTSUP: absent), and the longest request in words (BIG-REQUESTS asked first). */
int xw__query_ext_major(xw_connection_t *c, xw_extension_t *ext, uint8_t *major);
int xw__query_bigreq_max(xw_connection_t *c, uint32_t *max_words);

#endif
