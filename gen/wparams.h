/* SPDX-License-Identifier: MIT */
/* wparams.h — stage 2, last step: what each variable-size type's walker takes from outside. */
#ifndef XWGEN_WPARAMS_H
#define XWGEN_WPARAMS_H

#include "model.h"

void module_wparams(struct module *m);

#endif
