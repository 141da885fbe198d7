/* SPDX-License-Identifier: MIT */
/* inputs.h — what every library's cases send (inputs.c). */
#ifndef XWBENCH_INPUTS_H
#define XWBENCH_INPUTS_H

#include <stddef.h>
#include <stdint.h>

/* The shared 4 MiB image for PutImage, static so no case allocates it. */
#define IMAGE_W 1024
#define IMAGE_H 1024
extern uint32_t bench_image[IMAGE_W * IMAGE_H];
void bench_image_init(void);

/* Names for InternAtom cases: a fixed set cycled through, so Xvfb's atom table does
 * not grow without bound from run to run. */
#define ATOM_NAMES 1024
const char *atom_name(long i);
size_t atom_name_len(long i);
void atom_names_init(void);

#endif
