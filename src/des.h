/* SPDX-License-Identifier: MIT */
/* des.h — DES block encryption (FIPS 46-3), for XDM-AUTHORIZATION-1 credentials. */
#ifndef XW_DES_H
#define XW_DES_H

#include <stdint.h>

/* The 16 round keys of one DES key, 48 bits each in the low bits. */
struct xw_des {
    uint64_t round[16];
};

/* Expands an 8-byte DES key (parity bits, the low bit of each byte, ignored). */
void xw__des_setkey(struct xw_des *ks, const uint8_t key[8]);

/* Encrypts one 8-byte block; in and out may be the same buffer. */
void xw__des_encrypt(const struct xw_des *ks, const uint8_t in[8], uint8_t out[8]);

#endif
