/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping's IPv6 data path (core/ping.h, ip6/ping6_match.c, control/ping.c),
 * tests/unit/ip4/test_ping.c's twin: an ICMPv6 echo request the control
 * thread queues leaves from worker 0 as ICMPv6 (icmp6.OutEchos, not a
 * sent datagram), to a link-local destination out of the port it names;
 * what answers it (an echo reply with its id, a time exceeded or
 * unreachable quoting it) reaches the sink as a record with its IPv6
 * source; what does not is counted by type and freed (the fixture
 * checks no mbuf leaked).
 */
#include <errno.h>
#include <string.h>

#include <rte_ring.h>

#include "unit_common.h"
#include "unit_ping.h"
#include "unit6.h"
#include "core/ping.h"
#include "control/ping.h"

#define IDENT 0x4242

static struct lsk_ping_sink sink;

static int
setup(void **state)
{
	return unit_ping_setup(state, unit6_configure, &sink, "test_ping6", IDENT);
}

static int
teardown(void **state)
{
	return unit_ping_teardown(state, &sink);
}

/* An echo reply from A to P0's address with id and seq. */
static struct rte_mbuf *
echo_reply(uint16_t ident, uint16_t seq, uint8_t hlim)
{
	struct unit6_pkt p;

	unit6_pkt_init(&p, UNIT6_P0);
	p.payload_len = 56;
	p.hlim = hlim;
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REPLY, 0,
		       (uint32_t)ident << 16 | seq);
	return unit6_pkt_mbuf(&p);
}

/* An ICMPv6 error from B (on P1) quoting a packet of proto from P0 to
 * FAR whose first 8 bytes are an ICMPv6 header of qtype, id and seq. */
static struct rte_mbuf *
error_about(uint8_t type, uint8_t code, uint8_t proto, uint8_t qtype,
	    uint16_t ident, uint16_t seq, uint16_t quote)
{
	const struct lsk_ip6_addr p0 = UNIT6_P0, far = UNIT6_FAR;
	uint8_t b[UNIT_FRAME_MAX], *ip = b + UNIT_ETH_LEN, *x = ip + 40;
	struct unit6_pkt p;
	uint32_t sum;
	size_t len;

	unit6_pkt_init(&p, UNIT6_P1);
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	p.src_mac = unit_b_mac;
	p.src = UNIT6_B;
	p.payload_len = quote;
	unit6_pkt_icmp(&p, type, code, 0);
	len = unit6_pkt_build(&p, b, sizeof(b));
	memset(x + 8, 0, quote);
	if (quote >= 48) {
		put32(x + 8, 6u << 28);
		put16(x + 12, 64);
		x[14] = proto;
		x[15] = 1;
		memcpy(x + 16, &p0, 16);
		memcpy(x + 32, &far, 16);
		x[48] = qtype;
		put16(x + 52, ident);
		put16(x + 54, seq);
	}
	put16(x + 2, 0);
	sum = unit6_sum(ip + 8, 32, 0) + (uint32_t)(8 + quote) + 58;
	sum = unit6_sum(x, 8 + quote, sum);
	put16(x + 2, (uint16_t)~fold(sum));
	return unit_mbuf_from_bytes(b, len, UNIT_P1);
}

static unsigned int
take(struct lsk_ping_reply *r, unsigned int n)
{
	return unit_ping_take(&sink, r, n);
}

static void
test_echo_reply_matched(void **state)
{
	const struct lsk_ip6_addr a = UNIT6_A;
	struct lsk_ping_reply r;
	struct lsk_stats st;

	unit_ping_matched(*state, &sink, echo_reply, LSK_ICMP6_ECHO_REPLY, &r,
			  &st);
	assert_int_equal(r.v6, 1);
	assert_memory_equal(r.from6, &a, 16);
	assert_int_equal(st.icmp6.InEchoReplies, 1);
}

static void
test_echo_reply_other_id_unmatched(void **state)
{
	struct lsk_stats st;

	unit_ping_unmatched(*state, &sink, echo_reply, &st);
	assert_int_equal(st.icmp6.InEchoReplies, 2);
	assert_int_equal(st.icmp6.InMsgs, 2);
}

static void
test_errors_quoting_our_probe(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_ip6_addr b = UNIT6_B;
	struct lsk_ping_reply r[8];
	struct lsk_stats st;

	unit_input_one(f, error_about(LSK_ICMP6_TIME_EXCEEDED, 0, 58,
				      LSK_ICMP6_ECHO_REQUEST, IDENT, 9, 64));
	unit_input_one(f, error_about(LSK_ICMP6_DST_UNREACH, 3, 58,
				      LSK_ICMP6_ECHO_REQUEST, IDENT, 10, 64));
	/* not ours: another id, a UDP datagram, an echo reply quoted, a
	 * quote too short for the id, a packet too big */
	unit_input_one(f, error_about(LSK_ICMP6_TIME_EXCEEDED, 0, 58,
				      LSK_ICMP6_ECHO_REQUEST, IDENT + 1, 9,
				      64));
	unit_input_one(f, error_about(LSK_ICMP6_DST_UNREACH, 4, 17,
				      LSK_ICMP6_ECHO_REQUEST, IDENT, 9, 64));
	unit_input_one(f, error_about(LSK_ICMP6_TIME_EXCEEDED, 0, 58,
				      LSK_ICMP6_ECHO_REPLY, IDENT, 9, 64));
	unit_input_one(f, error_about(LSK_ICMP6_TIME_EXCEEDED, 0, 58,
				      LSK_ICMP6_ECHO_REQUEST, IDENT, 9, 44));
	unit_input_one(f, error_about(LSK_ICMP6_PKT_TOO_BIG, 0, 58,
				      LSK_ICMP6_ECHO_REQUEST, IDENT, 9, 64));
	assert_int_equal(take(r, 8), 2);
	assert_int_equal(r[0].type, LSK_ICMP6_TIME_EXCEEDED);
	assert_int_equal(r[0].seq, 9);
	assert_memory_equal(r[0].from6, &b, 16);
	assert_int_equal(r[0].len, 8 + 64);
	assert_int_equal(r[1].type, LSK_ICMP6_DST_UNREACH);
	assert_int_equal(r[1].code, 3);
	assert_int_equal(r[1].seq, 10);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.icmp6.InTimeExcds, 4);
	assert_int_equal(st.icmp6.InDestUnreachs, 2);
	assert_int_equal(st.icmp6.InPktTooBigs, 1);
	assert_int_equal(unit_tx_count(f), 0);
}

/* The matcher alone: no sink, a message shorter than its header. */
static void
test_match_bounds(void **state)
{
	struct lsk_ping_reply r;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit6_pkt p;

	(void)state;
	unit6_pkt_init(&p, UNIT6_P0);
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REPLY, 0, (uint32_t)IDENT << 16 | 1);
	p.payload_len = 0;
	unit6_pkt_build(&p, b, sizeof(b));
	assert_true(lsk_ping6_match(&sink, (const void *)(b + UNIT_ETH_LEN),
				    40, 8, &r));
	assert_false(lsk_ping6_match(NULL, (const void *)(b + UNIT_ETH_LEN),
				     40, 8, &r));
	assert_false(lsk_ping6_match(&sink, (const void *)(b + UNIT_ETH_LEN),
				     40, 7, &r));
	b[UNIT_ETH_LEN + 40] = LSK_ICMP6_TIME_EXCEEDED;
	assert_false(lsk_ping6_match(&sink, (const void *)(b + UNIT_ETH_LEN),
				     40, 8 + 47, &r));
}

/* Where a probe leaves: its frame is an echo request from src to dst
 * with the hop limit, id and seq, a valid checksum, out of port to mac. */
static void
assert_probe(const struct rte_mbuf *m, const struct lsk_ip6_addr *src,
	     const struct lsk_ip6_addr *dst, const struct rte_ether_addr *mac,
	     uint8_t hlim, uint16_t seq, uint16_t size)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint8_t *ip = b + UNIT_ETH_LEN;
	uint32_t sum;

	assert_int_equal(m->pkt_len, UNIT_ETH_LEN + 40 + 8 + size);
	assert_memory_equal(b, mac, 6);
	assert_int_equal(get16(b + 12), 0x86dd);
	assert_int_equal(get16(ip + 4), 8 + size);
	assert_int_equal(ip[6], 58);
	assert_int_equal(ip[7], hlim);
	assert_memory_equal(ip + 8, src, 16);
	assert_memory_equal(ip + 24, dst, 16);
	assert_int_equal(ip[40], LSK_ICMP6_ECHO_REQUEST);
	assert_int_equal(get16(ip + 44), IDENT);
	assert_int_equal(get16(ip + 46), seq);
	sum = unit6_sum(ip + 8, 32, 0) + (uint32_t)(8 + size) + 58;
	assert_int_equal(fold(unit6_sum(ip + 40, 8 + size, sum)), 0xffff);
}

/* The request leaves P1 toward FAR (via B) as ICMPv6, and one to A's
 * link-local address out of the port the probe names. */
static void
test_request_sent(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_ip6_addr a_ll = UNIT6_A_LL;
	struct lsk_ping_probe pr = { .v6 = true, .dst6 = UNIT6_FAR,
				     .src6 = UNIT6_P1, .size = 56, .seq = 3,
				     .ttl = 5, .iface = LSK_IFACE_ANY };
	struct lsk_ip6_addr ll0;
	struct lsk_stats st;
	uint64_t tsc;

	unit6_neigh(f, a_ll, UNIT_P0, &unit_a_mac);
	ll0 = lsk_fwd6_linklocal(f->worker->fwd6, UNIT_P0)->addr;
	lsk_stack_set_send_pool(f->stack, NULL);
	assert_int_equal(lsk_ping_send(f->stack, &sink, &pr, &tsc), -ENOBUFS);
	lsk_stack_set_send_pool(f->stack, unit_pool);
	assert_int_equal(lsk_ping_send(f->stack, &sink, &pr, &tsc), 0);
	pr.dst6 = a_ll;
	pr.src6 = ll0;
	pr.iface = UNIT_P0;
	pr.seq = 4;
	pr.ttl = 1;
	pr.size = 0;
	assert_int_equal(lsk_ping_send(f->stack, &sink, &pr, &tsc), 0);
	lsk_worker_flush(f->worker);
	lsk_stack_set_send_pool(f->stack, NULL);
	assert_int_equal(unit_tx_count(f), 2);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	assert_probe(f->tx.pkts[UNIT_P1][0], &UNIT6_P1, &UNIT6_FAR,
		     &unit_b_mac, 5, 3, 56);
	assert_probe(f->tx.pkts[UNIT_P0][0], &ll0, &a_ll, &unit_a_mac, 1, 4,
		     0);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.icmp6.OutEchos, 2);
	assert_int_equal(st.icmp6.OutMsgs, 2);
	assert_int_equal(st.udp6.OutDatagrams, 0);
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_echo_reply_matched),
		T(test_echo_reply_other_id_unmatched),
		T(test_errors_quoting_our_probe),
		T(test_match_bounds),
		T(test_request_sent),
	};

	return cmocka_run_group_tests_name("ping6", tests, unit_group_setup,
					   unit_group_teardown);
}
