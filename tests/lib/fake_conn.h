/* SPDX-License-Identifier: MIT */
/* fake_conn.h — the fixture of the connection tests (setup, read, write, fds): one
 * client connection per test to a scripted fake server over a socketpair, and the
 * small steps those tests share. They fail the test through Check: call them on the
 * test's thread. */
#ifndef XW_TEST_FAKE_CONN_H
#define XW_TEST_FAKE_CONN_H

#include <check.h>
#include <stdint.h>

#include <xw/xwext.h>

#include "fake_server.h"
#include "xwtest.h"

/* The test's fake server and the client connected to it; the test makes them (c by
 * fake_connect or xw_connect_to_fd), the fixture's teardown ends both. */
extern struct fake_server F;
extern xw_connection_t *c;

/* Adds to s a test case called name holding tests (NULL-terminated), each with a
 * 60 s timeout and the fixture: the per-test fd check around it, c and F ended
 * after it. */
void fake_conn_tcase(Suite *s, const char *name, const TTest *const *tests);

/* Disconnects c and stops F: the end of each test, and of each round in tests that
 * connect more than once. */
void hang_up(void);

/* Sends a hand-built request through xw_send with flags: a 4-byte header (byte 1 =
 * data) then body_len bytes of body. Returns its sequence number (0 if refused). */
uint64_t send_req(int flags, uint8_t opcode, uint8_t data, int isvoid, const void *body, size_t body_len,
                  xw_extension_t *ext, xw_validate_fn validate);
/* A bare core request with no reply, and one with a reply. */
uint64_t send_void(int flags, uint8_t opcode);
uint64_t send_reply_req(int flags, uint8_t opcode);

/* The server reads n requests; flush_to_server flushes c first. */
void expect_requests(int n);
void flush_to_server(int n);

/* Connects c to a default F and sends one reply-bearing request, which F reads:
 * its sequence number. */
uint64_t connect_and_ask(int flags, uint8_t opcode);

/* 32-byte server packets for seq: a reply with no extra data, an error, an event. */
void send_reply(uint64_t seq, uint8_t byte1);
void send_error(uint64_t seq, uint8_t code, uint32_t resource, uint8_t major);
void send_event(uint8_t code, uint64_t seq, uint32_t word);

/* c is dead with code: the reason it gives. */
const char *dead_with(int code);
/* Waiting for seq's reply ends c with code: the reason it gives. */
const char *wait_ends_connection(uint64_t seq, int code);
/* Every entry point of the dead c returns at once with its failure value. */
void check_dead_connection_returns_at_once(void);

#endif
