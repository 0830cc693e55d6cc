/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping's data path (core/ping.h, control/ping.c): an echo request the
 * control thread queues leaves from worker 0 as ICMP (counted OutEchos,
 * not a sent datagram); what answers it (an echo reply with its id, a
 * time exceeded or unreachable quoting it) reaches the sink as a record;
 * an echo reply nobody waits for is counted InEchoRepsUnmatched. Every
 * packet is freed by the worker (the fixture checks no mbuf leaked).
 */
#include <errno.h>
#include <string.h>

#include <rte_ring.h>

#include "unit_common.h"
#include "unit_ping.h"
#include "core/ping.h"
#include "control/ping.h"

#define IP(b) ((b) + UNIT_ETH_LEN)
#define IDENT 0x4242

static struct lsk_ping_sink sink;

static int
setup(void **state)
{
	return unit_ping_setup(state, NULL, &sink, "test_ping", IDENT);
}

static int
teardown(void **state)
{
	return unit_ping_teardown(state, &sink);
}

/* An echo reply from A to P0's address with id and seq. */
static struct rte_mbuf *
echo_reply(uint16_t ident, uint16_t seq, uint8_t ttl)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 56;
	p.ttl = ttl;
	len = unit_icmp_build(&p, 0, 0, (uint32_t)ident << 16 | seq, b,
			      sizeof(b));
	return unit_mbuf_from_bytes(b, len, UNIT_P0);
}

/* An ICMP error from A quoting a datagram of proto with the 8 bytes
 * first (an echo request's type 8, code, checksum, id, seq). */
static struct rte_mbuf *
error_about(uint8_t type, uint8_t code, uint8_t proto, uint8_t qtype,
	    uint16_t ident, uint16_t seq)
{
	uint8_t b[UNIT_FRAME_MAX], *q;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 28;
	len = unit_icmp_build(&p, type, code, 0, b, sizeof(b));
	q = IP(b) + 28;
	memset(q, 0, 28);
	q[0] = 0x45;
	q[8] = 1;
	q[9] = proto;
	put32(q + 12, UNIT_P0_IP);
	put32(q + 16, UNIT_FAR_IP);
	q[20] = qtype;
	put16(q + 24, ident);
	put16(q + 26, seq);
	put16(IP(b) + 22, 0);
	put16(IP(b) + 22, (uint16_t)~fold(sum16(IP(b) + 20, 36, 0)));
	return unit_mbuf_from_bytes(b, len, UNIT_P0);
}

static unsigned int
take(struct lsk_ping_reply *r, unsigned int n)
{
	return unit_ping_take(&sink, r, n);
}

static void
test_echo_reply_matched(void **state)
{
	struct lsk_ping_reply r;
	struct lsk_stats st;

	unit_ping_matched(*state, &sink, echo_reply, 0, &r, &st);
	assert_int_equal(r.from, UNIT_A_IP);
	assert_int_equal(st.icmp.InEchoReps, 1);
	assert_int_equal(st.icmp.InEchoRepsUnmatched, 0);
}

static void
test_echo_reply_other_id_unmatched(void **state)
{
	struct lsk_stats st;

	unit_ping_unmatched(*state, &sink, echo_reply, &st);
	assert_int_equal(st.icmp.InEchoReps, 2);
	assert_int_equal(st.icmp.InEchoRepsUnmatched, 2);
}

static void
test_errors_quoting_our_probe(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_ping_reply r[8];
	struct lsk_stats st;

	unit_input_one(f, error_about(11, 0, IPPROTO_ICMP, 8, IDENT, 9));
	unit_input_one(f, error_about(3, 1, IPPROTO_ICMP, 8, IDENT, 10));
	/* not ours: another id, a UDP datagram, an echo reply quoted */
	unit_input_one(f, error_about(11, 0, IPPROTO_ICMP, 8, IDENT + 1, 9));
	unit_input_one(f, error_about(3, 3, IPPROTO_UDP, 8, IDENT, 9));
	unit_input_one(f, error_about(11, 0, IPPROTO_ICMP, 0, IDENT, 9));
	assert_int_equal(take(r, 8), 2);
	assert_int_equal(r[0].type, 11);
	assert_int_equal(r[0].seq, 9);
	assert_int_equal(r[0].from, UNIT_A_IP);
	assert_int_equal(r[1].type, 3);
	assert_int_equal(r[1].code, 1);
	assert_int_equal(r[1].seq, 10);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.icmp.InTimeExcds, 3);
	assert_int_equal(st.icmp.InDestUnreachs, 2);
	assert_int_equal(st.icmp.InEchoRepsUnmatched, 0);
}

/* A short quote (no room for the probe's id) matches nothing. */
static void
test_short_quote(void **state)
{
	struct lsk_ping_reply r;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;

	(void)state;
	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 24;
	unit_icmp_build(&p, 11, 0, 0, b, sizeof(b));
	IP(b)[28] = 0x45;
	IP(b)[28 + 9] = IPPROTO_ICMP;
	assert_false(lsk_ping_match(&sink, (const void *)IP(b), 8 + 24, &r));
	assert_false(lsk_ping_match(NULL, (const void *)IP(b), 8 + 24, &r));
}

/* The request leaves P0 to A as ICMP: id, seq, TTL, data, checksums. */
static void
test_request_sent(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_ping_probe pr = { .dst = UNIT_A_IP, .src = UNIT_P0_IP,
				     .size = 56, .seq = 3, .ttl = 5 };
	struct lsk_stats st;
	const uint8_t *b;
	uint64_t tsc;

	lsk_stack_set_send_pool(f->stack, NULL);
	assert_int_equal(lsk_ping_send(f->stack, &sink, &pr, &tsc), -ENOBUFS);
	lsk_stack_set_send_pool(f->stack, unit_pool);
	assert_int_equal(lsk_ping_send(f->stack, &sink, &pr, &tsc), 0);
	lsk_worker_flush(f->worker);
	lsk_stack_set_send_pool(f->stack, NULL);
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	b = rte_pktmbuf_mtod(f->tx.pkts[UNIT_P0][0], const uint8_t *);
	assert_memory_equal(b, &unit_a_mac, 6);
	assert_int_equal(get16(IP(b) + 2), 20 + 8 + 56);
	assert_int_equal(IP(b)[8], 5);
	assert_int_equal(IP(b)[9], IPPROTO_ICMP);
	assert_int_equal(unit_ip4_hdr_sum(IP(b)), 0);
	assert_int_equal(get32(IP(b) + 12), UNIT_P0_IP);
	assert_int_equal(get32(IP(b) + 16), UNIT_A_IP);
	assert_int_equal(IP(b)[20], 8);
	assert_int_equal(get16(IP(b) + 24), IDENT);
	assert_int_equal(get16(IP(b) + 26), 3);
	assert_int_equal(fold(sum16(IP(b) + 20, 8 + 56, 0)), 0xffff);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.icmp.OutEchos, 1);
	assert_int_equal(st.icmp.OutMsgs, 1);
	assert_int_equal(st.udp.OutDatagrams, 0);
	unit_tx_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_echo_reply_matched,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_echo_reply_other_id_unmatched, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors_quoting_our_probe,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_quote, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_request_sent, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
