/* SPDX-License-Identifier: MIT */
/* test_des.c — DES against the standard's known answers, XDM-AUTHORIZATION-1 credentials against libXdmcp. */
#include <check.h>
#include <errno.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define HASXDMAUTH 1 /* declares XdmcpWrap and XdmcpUnwrap, which Debian's libXdmcp exports */
#include <X11/Xdmcp.h>

#include "des.h"
#include "auth.h"
#include "xwtest.h"

static void hex8(const char *hex, uint8_t out[8])
{
    for (int i = 0; i < 8; i++) {
        unsigned v;
        ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

/* key, plaintext, ciphertext: the worked example of the DES literature, the
 * "Now is t" example of FIPS 81's tables, and entries of NBS Special Publication
 * 500-20's variable-plaintext, variable-key, permutation and substitution tests. */
static const char *const known[][3] = {
    {"133457799BBCDFF1", "0123456789ABCDEF", "85E813540F0AB405"},
    {"0123456789ABCDEF", "4E6F772069732074", "3FA40E8A984D4815"},
    {"0101010101010101", "8000000000000000", "95F8A5E5DD31D900"},
    {"0101010101010101", "4000000000000000", "DD7F121CA5015619"},
    {"0101010101010101", "0000000000000001", "166B40B44ABA4BD6"},
    {"8001010101010101", "0000000000000000", "95A8D72813DAA94D"},
    {"4001010101010101", "0000000000000000", "0EEC1487DD8C26D5"},
    {"1046913489980131", "0000000000000000", "88D55E54F54C97B4"},
    {"1007103489988020", "0000000000000000", "0C0CC00C83EA48FD"},
    {"7CA110454A1A6E57", "01A1D6D039776742", "690F5B0D9A26939B"},
    {"0131D9619DC1376E", "5CD54CA83DEF57DA", "7A389D10354BD271"},
};

START_TEST(des_known_answers)
{
    uint8_t key[8], in[8], want[8], got[8];
    struct xw_des ks;
    hex8(known[_i][0], key);
    hex8(known[_i][1], in);
    hex8(known[_i][2], want);
    xw__des_setkey(&ks, key);
    xw__des_encrypt(&ks, in, got);
    ck_assert_mem_eq(got, want, 8);
    xw__des_encrypt(&ks, in, in); /* in place */
    ck_assert_mem_eq(in, want, 8);
}
END_TEST

/* The parity bits (the low bit of each key byte) change nothing. */
START_TEST(des_ignores_parity)
{
    uint8_t key[8], in[8], a[8], b[8];
    struct xw_des ks;
    hex8("133457799BBCDFF1", key);
    hex8("0123456789ABCDEF", in);
    xw__des_setkey(&ks, key);
    xw__des_encrypt(&ks, in, a);
    for (int i = 0; i < 8; i++)
        key[i] ^= 1;
    xw__des_setkey(&ks, key);
    xw__des_encrypt(&ks, in, b);
    ck_assert_mem_eq(a, b, 8);
}
END_TEST

static void fill(uint8_t *p, size_t n, unsigned *seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rand_r(seed) >> 7);
}

/* Byte for byte what libXdmcp's XdmcpWrap makes, over keys and inputs of 8 to 64 bytes. */
START_TEST(wrap_matches_libxdmcp)
{
    unsigned seed = 25;
    for (int n = 0; n < 500; n++) {
        uint8_t key[8], in[64], want[64], got[64];
        size_t len = 8 * (size_t)(1 + n % 8);
        fill(key, sizeof(key), &seed);
        fill(in, len, &seed);
        XdmcpWrap(in, key, want, (int)len);
        xw__auth_xdm_wrap(key, in, got, len);
        ck_assert_mem_eq(got, want, len);
        xw__auth_xdm_wrap(key, in, in, len); /* in place, as the credentials are built */
        ck_assert_mem_eq(in, want, len);
    }
}
END_TEST

static const uint8_t entry[16] = {'r', 'h', 'o', '-', 'r', 'h', 'o', '!', 0, 0x5a, 0xa5, 1, 2, 3, 4, 0xfe};

/* The credentials unwrapped by libXdmcp: rho, the 6 address bytes, the time, zeros. */
static void open_credentials(const struct sockaddr *self, uint32_t now, uint8_t addr6[6])
{
    uint8_t out[XW_XDM_AUTH_LEN], plain[XW_XDM_AUTH_LEN];
    ck_assert_int_eq(xw__auth_xdm(entry, sizeof(entry), self, now, out), 0);
    XdmcpUnwrap(out, (uint8_t *)entry + 8, plain, sizeof(out));
    ck_assert_mem_eq(plain, entry, 8);
    memcpy(addr6, plain + 8, 6);
    uint32_t t = (uint32_t)plain[14] << 24 | (uint32_t)plain[15] << 16 | (uint32_t)plain[16] << 8 | plain[17];
    ck_assert_uint_eq(t, now);
    static const uint8_t zeros[6];
    ck_assert_mem_eq(plain + 18, zeros, 6);
}

START_TEST(credentials_ipv4_carry_address_and_port)
{
    struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = htons(40123)};
    inet_pton(AF_INET, "192.0.2.7", &in.sin_addr);
    uint8_t a[6];
    open_credentials((struct sockaddr *)&in, 0x65432109u, a);
    ck_assert_mem_eq(a, ((const uint8_t[]){192, 0, 2, 7, 40123 >> 8, 40123 & 0xff}), 6);
}
END_TEST

START_TEST(credentials_ipv6_v4_mapped_carry_address_and_port)
{
    struct sockaddr_in6 in6 = {.sin6_family = AF_INET6, .sin6_port = htons(6001)};
    inet_pton(AF_INET6, "::ffff:198.51.100.9", &in6.sin6_addr);
    uint8_t a[6];
    open_credentials((struct sockaddr *)&in6, 7, a);
    ck_assert_mem_eq(a, ((const uint8_t[]){198, 51, 100, 9, 6001 >> 8, 6001 & 0xff}), 6);
}
END_TEST

/* No room for an IPv6 address: zeros, as libxcb and Xlib send. */
START_TEST(credentials_ipv6_are_zeros)
{
    struct sockaddr_in6 in6 = {.sin6_family = AF_INET6, .sin6_port = htons(6001)};
    inet_pton(AF_INET6, "2001:db8::1", &in6.sin6_addr);
    uint8_t a[6];
    open_credentials((struct sockaddr *)&in6, 7, a);
    ck_assert_mem_eq(a, ((const uint8_t[6]){0}), 6);
}
END_TEST

/* Unix sockets: 0xffffffff less a count that goes up per connection, and the pid. */
START_TEST(credentials_unix_count_down_with_pid)
{
    struct sockaddr_un un = {.sun_family = AF_UNIX};
    uint8_t a[6], b[6];
    open_credentials((struct sockaddr *)&un, 1, a);
    open_credentials((struct sockaddr *)&un, 1, b);
    uint32_t ia = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
    uint32_t ib = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    ck_assert_uint_ge(ia, 0xffff0000u);
    ck_assert_uint_eq(ib, ia - 1);
    uint16_t pid = (uint16_t)getpid();
    ck_assert_mem_eq(a + 4, ((const uint8_t[]){pid >> 8, pid & 0xff}), 2);
    ck_assert_mem_eq(b + 4, a + 4, 2);
}
END_TEST

START_TEST(credentials_refuse_short_entry_and_other_families)
{
    struct sockaddr_in in = {.sin_family = AF_INET};
    struct sockaddr other = {.sa_family = AF_APPLETALK};
    uint8_t out[XW_XDM_AUTH_LEN];
    ck_assert_int_eq(xw__auth_xdm(entry, 15, (struct sockaddr *)&in, 0, out), -EINVAL);
    ck_assert_int_eq(xw__auth_xdm(entry, 16, &other, 0, out), -EAFNOSUPPORT);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("des");
    TCase *tc = tcase_create("des");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, des_known_answers, 0, (int)(sizeof(known) / sizeof(known[0])));
    tcase_add_test(tc, des_ignores_parity);
    tcase_add_test(tc, wrap_matches_libxdmcp);
    tcase_add_test(tc, credentials_ipv4_carry_address_and_port);
    tcase_add_test(tc, credentials_ipv6_v4_mapped_carry_address_and_port);
    tcase_add_test(tc, credentials_ipv6_are_zeros);
    tcase_add_test(tc, credentials_unix_count_down_with_pid);
    tcase_add_test(tc, credentials_refuse_short_entry_and_other_families);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
