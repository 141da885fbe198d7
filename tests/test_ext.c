/* SPDX-License-Identifier: MIT */
/* test_ext.c — extension keys and request structs as code written for libxcb builds
 * them, against a scripted fake server: keys found by name (a freed key reused at the
 * same address, an extension xwire has no description of), reply facts from the
 * generated tables, and libxcb's send forms leaving the slots before vector alone. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <xw/randr.h>

#include "fake_conn.h"
#include "send.h" /* xw__send_lookup */

static const struct fake_ext key_exts[] = {
    {"RANDR", 140, 0, 0}, {"XFIXES", 141, 0, 0}, {"XWIRE-HAND", 142, 0, 0}, {NULL, 0, 0, 0}};

/* What the serving thread saw of the extensions' requests: major and minor opcodes. */
static uint8_t seen_ext[16][2];
static int nseen_ext;

/* Logs requests for the extensions above; answers the hand-written extension's
 * minor 9 with a reply of 32 + 8 bytes whose byte 32 is 0xab. */
static int log_ext_requests(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    if (req[0] < 140 || req[0] > 142)
        return 0;
    if (nseen_ext < 16) {
        seen_ext[nseen_ext][0] = req[0];
        seen_ext[nseen_ext][1] = req[1];
        nseen_ext++;
    }
    if (req[0] == 142 && req[1] == 9) {
        uint8_t out[64], extra[32] = {[24] = 0xab}; /* extra starts at byte 8 */
        fake_send(f, out, fake_reply(out, (uint16_t)f->seq, 0, extra, sizeof(extra)));
    }
    return 1;
}

START_TEST(extension_key_reused_at_one_address)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = key_exts;
    F.on_request = log_ext_requests;
    nseen_ext = 0;
    fake_serve_start(&F);
    /* one heap key and one name buffer, renamed in place: a key freed and allocated
     * again at the same address (xcffib makes one per call) naming another extension */
    char name[16] = "RANDR";
    xw_extension_t *key = malloc(sizeof(*key));
    ck_assert_ptr_nonnull(key);
    *key = (xw_extension_t){name, 0};
    ck_assert_uint_ne(send_req(0, 5, 0, 1, NULL, 0, key, NULL), 0);
    ck_assert_uint_ne(send_req(0, 6, 0, 1, NULL, 0, key, NULL), 0); /* a cache keyed by address would hit here */
    const xw_query_extension_reply_t *randr = xw_get_extension_data(c, key);
    free(key);
    key = malloc(sizeof(*key));
    ck_assert_ptr_nonnull(key);
    strcpy(name, "XFIXES");
    *key = (xw_extension_t){name, 0};
    ck_assert_uint_ne(send_req(0, 7, 0, 1, NULL, 0, key, NULL), 0);
    const xw_query_extension_reply_t *xfixes = xw_get_extension_data(c, key);
    ck_assert_ptr_nonnull(xfixes);
    ck_assert_uint_eq(xfixes->major_opcode, 141);
    strcpy(name, "RANDR");
    ck_assert_uint_ne(send_req(0, 8, 0, 1, NULL, 0, key, NULL), 0);
    /* the generated key of the same name shares what the connection knows */
    ck_assert_ptr_eq(xw_get_extension_data(c, &xw_randr_id), randr);
    ck_assert_uint_eq(randr->major_opcode, 140);
    ck_assert_uint_ne(send_req(0, 4, 0, 1, NULL, 0, &xw_randr_id, NULL), 0);
    ck_assert_uint_ne(send_req(0, 3, 0, 1, NULL, 0, &xw_randr_id, NULL), 0); /* its cached opcode */
    free(key);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    static const uint8_t want[][2] = {{140, 5}, {140, 6}, {141, 7}, {140, 8}, {140, 4}, {140, 3}};
    ck_assert_int_eq(nseen_ext, 6);
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(seen_ext[i][0], want[i][0]);
        ck_assert_uint_eq(seen_ext[i][1], want[i][1]);
    }
    ck_assert_uint_eq(F.opcode_count[98], 2); /* RANDR and XFIXES, each queried once */
}
END_TEST

START_TEST(extension_without_description_works_unvalidated)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = key_exts;
    F.on_request = log_ext_requests;
    nseen_ext = 0;
    fake_serve_start(&F);
    static xw_extension_t hand = {"XWIRE-HAND", 0};
    ck_assert_ptr_null(xw_ext_desc_find("XWIRE-HAND"));
    ck_assert_ptr_eq(xw_ext_desc_find("RANDR"), xw_ext_desc_find(xw_randr_id.name));
    ck_assert_ptr_eq(xw_ext_desc_find("RANDR")->key, &xw_randr_id);
    uint64_t s = send_req(0, 9, 0, 0, NULL, 0, &hand, NULL);
    ck_assert_uint_ne(s, 0);
    xw_generic_error_t *e = NULL;
    uint8_t *r = xw_wait_for_reply64(c, s, &e);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r[32], 0xab);
    free(r);
    hang_up();
    ck_assert_int_eq(nseen_ext, 1);
    ck_assert_uint_eq(seen_ext[0][0], 142);
    ck_assert_uint_eq(seen_ext[0][1], 9);
}
END_TEST

/* A request built elsewhere (as code written for libxcb builds it) gets its reply's
 * facts from the description of the extension of that name, by opcode. */
START_TEST(request_facts_by_name_and_opcode)
{
    struct xw_request rq;
    xw_protocol_request_t lfwi = {.count = 1, .opcode = XW_LIST_FONTS_WITH_INFO};
    xw__send_lookup(&lfwi, &rq);
    ck_assert_uint_eq(rq.pub.count, 1);
    ck_assert_uint_eq(rq.pub.opcode, XW_LIST_FONTS_WITH_INFO);
    ck_assert_uint_eq(rq.f.multi_reply, 1);
    ck_assert_uint_eq(rq.f.multi_end, 0);
    ck_assert_ptr_nonnull(rq.validate);
    char name[16] = "RANDR";
    xw_extension_t *key = malloc(sizeof(*key));
    ck_assert_ptr_nonnull(key);
    *key = (xw_extension_t){name, 0};
    xw_protocol_request_t res = {.count = 1, .ext = key, .opcode = XW_RANDR_GET_SCREEN_RESOURCES};
    xw__send_lookup(&res, &rq);
    ck_assert_ptr_eq(rq.pub.ext, key);
    ck_assert_ptr_nonnull(rq.validate);
    ck_assert_ptr_eq(rq.validate, xw_ext_desc_find("RANDR")->requests[XW_RANDR_GET_SCREEN_RESOURCES]->validate);
    ck_assert_uint_eq(rq.f.multi_reply, 0);
    strcpy(name, "XWIRE-HAND"); /* no description: nothing to check the reply with */
    xw__send_lookup(&res, &rq);
    ck_assert_ptr_null(rq.validate);
    xw_protocol_request_t map = {.count = 1, .opcode = XW_MAP_WINDOW, .isvoid = 1};
    xw__send_lookup(&map, &rq);
    ck_assert_ptr_null(rq.validate);
    ck_assert_uint_eq(rq.pub.isvoid, 1);
    free(key);
}
END_TEST

/* GetAtomName built by hand and sent through libxcb's form: the generated validator
 * still turns a reply whose name_len overruns it into an error. */
START_TEST(foreign_request_reply_is_validated)
{
    c = fake_connect(&F, NULL, 0);
    uint8_t body[8] = {XW_GET_ATOM_NAME, 0, 2, 0, 1, 0, 0, 0};
    struct iovec parts[3] = {{0}, {0}, {body, sizeof(body)}};
    xw_protocol_request_t req = {.count = 1, .opcode = XW_GET_ATOM_NAME};
    uint64_t s1 = xw_send_request64(c, XW_REQUEST_CHECKED, parts + 2, &req);
    uint64_t s2 = xw_send_request64(c, XW_REQUEST_CHECKED, parts + 2, &req);
    ck_assert_uint_ne(s1, 0);
    flush_to_server(2);
    uint8_t b[64], lies[24] = {100}, fits[28] = {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   0,   0,   0,
                                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'W', 'M', '_', 'X'};
    fake_send(&F, b, fake_reply(b, (uint16_t)s1, 0, lies, sizeof(lies))); /* name_len 100 in 32 bytes */
    fake_send(&F, b, fake_reply(b, (uint16_t)s2, 0, fits, sizeof(fits)));
    xw_generic_error_t *e = NULL;
    ck_assert_ptr_null(xw_wait_for_reply64(c, s1, &e));
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, XW_ERROR_MALFORMED_REPLY);
    free(e);
    e = NULL;
    uint8_t *r = xw_wait_for_reply64(c, s2, &e);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(memcmp(r + 32, "WM_X", 4), 0);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* libxcb would copy an 8000-byte request into its 16 KiB queue and leave vector[-1]
 * and vector[-2] alone; xwire's general path writes a slice that large in place
 * (with its buffer as vector[-1]), so libxcb's forms must work on a copy. */
START_TEST(libxcb_forms_leave_the_slots_before_vector)
{
    c = fake_connect(&F, NULL, 0);
    fake_serve_start(&F);
    static uint8_t noop[8000];
    noop[0] = XW_NO_OPERATION;
    struct iovec parts[3] = {{(void *)1, 11}, {(void *)2, 22}, {noop, sizeof(noop)}};
    xw_protocol_request_t req = {.count = 1, .opcode = XW_NO_OPERATION, .isvoid = 1};
    ck_assert_uint_ne(xw_send_request(c, 0, parts + 2, &req), 0);
    ck_assert_uint_ne(xw_send_request_with_fds64(c, 0, parts + 2, &req, 0, NULL), 0);
    ck_assert_ptr_eq(parts[0].iov_base, (void *)1);
    ck_assert_uint_eq(parts[0].iov_len, 11);
    ck_assert_ptr_eq(parts[1].iov_base, (void *)2);
    ck_assert_uint_eq(parts[1].iov_len, 22);
    ck_assert_ptr_eq(parts[2].iov_base, noop);
    ck_assert_uint_eq(parts[2].iov_len, sizeof(noop));
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    ck_assert_uint_eq(F.opcode_count[XW_NO_OPERATION], 2);
    ck_assert_uint_eq(F.big_bytes, sizeof(noop));
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("ext");
    fake_conn_tcase(s, "ext",
                    (const TTest *const[]){extension_key_reused_at_one_address,
                                           extension_without_description_works_unvalidated,
                                           request_facts_by_name_and_opcode, foreign_request_reply_is_validated,
                                           libxcb_forms_leave_the_slots_before_vector, NULL});
    return xwtest_run(s);
}
