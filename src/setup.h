/* SPDX-License-Identifier: MIT */
/* setup.h — internal: the connection setup. */
#ifndef XW_SRC_SETUP_H
#define XW_SRC_SETUP_H

#include "base.h"

/* setup.c */
int xw__setup_check(const uint8_t *s, size_t len, char *why, size_t whycap);
int xw__setup_handshake(xw_connection_t *c, const xw_auth_info_t *auth);

#endif
