/* SPDX-License-Identifier: MIT */
/* display.h — internal: display strings. */
#ifndef XW_SRC_DISPLAY_H
#define XW_SRC_DISPLAY_H

#include "base.h"

/* display.c */
int xw__display_parse(const char *name, char **protocol, char **host, int *display, int *screen);

#endif
