/* SPDX-License-Identifier: MIT */
/* inputs.c — what every library's cases send: the shared PutImage image and the InternAtom names. */
#include "inputs.h"

#include <stdio.h>

uint32_t bench_image[IMAGE_W * IMAGE_H];

void bench_image_init(void)
{
    for (size_t i = 0; i < IMAGE_W * IMAGE_H; i++)
        bench_image[i] = (uint32_t)(i * 2654435761u) & 0xffffff;
}

static char atom_names[ATOM_NAMES][24];
static size_t atom_lens[ATOM_NAMES];

void atom_names_init(void)
{
    for (int i = 0; i < ATOM_NAMES; i++)
        atom_lens[i] = (size_t)snprintf(atom_names[i], sizeof atom_names[i], "XWBENCH_ATOM_%d", i);
}

const char *atom_name(long i)
{
    return atom_names[i % ATOM_NAMES];
}

size_t atom_name_len(long i)
{
    return atom_lens[i % ATOM_NAMES];
}
