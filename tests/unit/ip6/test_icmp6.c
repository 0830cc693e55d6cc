/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * icmp6: echo requests answered (from the address they were sent to, a
 * group's from our address on the link), the checksum checked, every
 * message counted by type; the errors' rules (RFC 4443 2.4: never about
 * an ICMPv6 error, a group but for too big, an unspecified source), the
 * rate limit (packet too big exempt), address unreachable for what
 * waited for a neighbour in vain.
 */
#include <string.h>

#include "unit_common.h"
#include "unit6.h"
#include "unit6_modes.h"

#define ECHO_REST 0x12340007u	/* identifier 0x1234, sequence 7 */

static struct rte_mbuf *
echo_to(struct lsk_ip6_addr dst, struct lsk_ip6_addr src, uint8_t *frame,
	size_t *len)
{
	struct unit6_pkt p;

	unit6_pkt_init(&p, dst);
	p.src = src;
	p.payload_len = 56;
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, ECHO_REST);
	*len = unit6_pkt_build(&p, frame, UNIT_FRAME_MAX);
	return unit_mbuf_from_bytes(frame, *len, p.port);
}

/* e is the reply to the request in frame (ICMPv6 right behind the
 * header): from src to the request's source, the same data. */
static void
assert_reply(const struct rte_mbuf *e, const uint8_t *req, size_t len,
	     const struct lsk_ip6_addr *src)
{
	const uint8_t *b = rte_pktmbuf_mtod(e, const uint8_t *);
	const uint8_t *ip = b + UNIT_ETH_LEN;
	uint32_t sum;

	assert_int_equal(e->pkt_len, len);
	assert_memory_equal(b, &unit_a_mac, 6);
	assert_memory_equal(b + 6, &unit_p0_mac, 6);
	assert_int_equal(get16(ip + 4), len - UNIT_ETH_LEN - 40);
	assert_int_equal(ip[6], 58);
	assert_int_equal(ip[7], 64);
	assert_memory_equal(ip + 8, src, 16);
	assert_memory_equal(ip + 24, req + UNIT_ETH_LEN + 8, 16);
	assert_int_equal(ip[40], LSK_ICMP6_ECHO_REPLY);
	assert_int_equal(ip[41], 0);
	assert_memory_equal(ip + 44, req + UNIT_ETH_LEN + 44,
			    len - UNIT_ETH_LEN - 44);
	sum = unit6_sum(ip + 8, 32, 0) + (uint32_t)(len - UNIT_ETH_LEN - 40) +
	      58;
	sum = unit6_sum(ip + 40, len - UNIT_ETH_LEN - 40, sum);
	assert_int_equal(fold(sum), 0xffff);
}

static void
test_echo(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_ip6_addr a_ll = UNIT6_A_LL;
	struct lsk_ip6_addr ll0;
	uint8_t frame[UNIT_FRAME_MAX], opt[8] = { 0, 0, 1, 4 };
	struct unit6_pkt p;
	struct lsk_stats st;
	size_t len;

	unit6_configure(f);
	unit6_neigh(f, a_ll, UNIT_P0, &unit_a_mac);
	ll0 = lsk_fwd6_linklocal(f->worker->fwd6, UNIT_P0)->addr;

	/* to our global address, from it */
	unit_input_one(f, echo_to(UNIT6_P1, UNIT6_A, frame, &len));
	assert_int_equal(unit_tx_count(f), 1);
	assert_reply(f->tx.pkts[UNIT_P0][0], frame, len, &UNIT6_P1);
	unit_tx_free(f);
	/* to our link-local address, from a link-local one */
	unit_input_one(f, echo_to(ll0, UNIT6_A_LL, frame, &len));
	assert_int_equal(unit_tx_count(f), 1);
	assert_reply(f->tx.pkts[UNIT_P0][0], frame, len, &ll0);
	unit_tx_free(f);
	/* to all-nodes: from our address on that link toward A */
	unit_input_one(f, echo_to(UNIT6_ALL_NODES, UNIT6_A, frame, &len));
	assert_int_equal(unit_tx_count(f), 1);
	assert_reply(f->tx.pkts[UNIT_P0][0], frame, len, &UNIT6_P0);
	unit_tx_free(f);

	/* with a destination options header: the reply has none */
	unit6_pkt_init(&p, UNIT6_P0);
	p.payload_len = 24;
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, ECHO_REST);
	unit6_pkt_ext(&p, 60, opt, sizeof(opt));
	len = unit6_pkt_build(&p, frame, sizeof(frame));
	unit_input_one(f, unit_mbuf_from_bytes(frame, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 1);
	{
		const uint8_t *b = rte_pktmbuf_mtod(f->tx.pkts[UNIT_P0][0],
						    const uint8_t *);

		assert_int_equal(f->tx.pkts[UNIT_P0][0]->pkt_len, len - 8);
		assert_int_equal(b[UNIT_ETH_LEN + 6], 58);
		assert_int_equal(b[UNIT_ETH_LEN + 40], LSK_ICMP6_ECHO_REPLY);
		assert_memory_equal(b + UNIT_ETH_LEN + 44,
				    frame + UNIT_ETH_LEN + 52, 24 + 4);
	}
	unit_tx_free(f);

	st = unit_stats(f);
	assert_int_equal(st.icmp6.InMsgs, 4);
	assert_int_equal(st.icmp6.InEchos, 4);
	assert_int_equal(st.icmp6.OutMsgs, 4);
	assert_int_equal(st.icmp6.OutEchoReplies, 4);
	assert_int_equal(st.ip6.InDelivers, 4);
	assert_int_equal(st.ip6.OutRequests, 4);
}

/* Checksums, lengths and the types that end here. */
static void
test_counted(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t frame[UNIT_FRAME_MAX];
	struct unit6_pkt p;
	struct lsk_stats st;
	size_t len;

	unit6_configure(f);
	rte_pktmbuf_free(echo_to(UNIT6_P0, UNIT6_A, frame, &len));
	frame[len - 1] ^= 0x40;	/* the checksum no longer holds */
	unit_input_one(f, unit_mbuf_from_bytes(frame, len, UNIT_P0));
	/* two bytes of ICMPv6 */
	unit6_pkt_init(&p, UNIT6_P0);
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, 0);
	p.payload_len = 0;
	p.plen_delta = -6;
	len = unit6_pkt_build(&p, frame, sizeof(frame));
	unit_input_one(f, unit_mbuf_from_bytes(frame, len - 6, UNIT_P0));
	/* a reply, an error, an unknown informational type */
	unit6_pkt_init(&p, UNIT6_P0);
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REPLY, 0, ECHO_REST);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	unit6_pkt_icmp(&p, LSK_ICMP6_DST_UNREACH, 4, 0);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	unit6_pkt_icmp(&p, LSK_ICMP6_PKT_TOO_BIG, 0, 1280);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	unit6_pkt_icmp(&p, 200, 0, 0);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	assert_int_equal(unit_tx_count(f), 0);
	st = unit_stats(f);
	assert_int_equal(st.icmp6.InMsgs, 6);
	assert_int_equal(st.icmp6.InCsumErrors, 1);
	assert_int_equal(st.icmp6.InErrors, 2);
	assert_int_equal(st.icmp6.InEchoReplies, 1);
	assert_int_equal(st.icmp6.InDestUnreachs, 1);
	assert_int_equal(st.icmp6.InPktTooBigs, 1);
	assert_int_equal(st.icmp6.InEchos, 0);
	assert_int_equal(st.icmp6.OutMsgs, 0);
}

/* RFC 4443 2.4 (e): what no error is sent about. */
static void
test_error_rules(void **state)
{
	struct unit_fixture *f = *state;
	struct unit6_pkt p;
	struct rte_mbuf *m;
	struct lsk_stats st;

	unit6_configure(f);
	/* an ICMPv6 error, a redirect: none; an echo request: one */
	unit6_pkt_init(&p, UNIT6_FAR);
	p.hlim = 1;
	unit6_pkt_icmp(&p, LSK_ICMP6_TIME_EXCEEDED, 0, 0);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	unit6_pkt_icmp(&p, 137, 0, 0);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	assert_int_equal(unit_tx_count(f), 0);
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, 0);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	assert_int_equal(unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_TIME_EXCEEDED,
				       0), 1);
	unit_tx_free(f);

	/* about a datagram to a group: packet too big only */
	unit6_pkt_init(&p, UNIT6_ALL_NODES);
	m = unit6_pkt_mbuf(&p);
	rte_pktmbuf_adj(m, UNIT_ETH_LEN);
	lsk_icmp6_error(f->worker, m, 0, LSK_ICMP6_DST_UNREACH, 0, 0);
	lsk_icmp6_error(f->worker, m, 0, LSK_ICMP6_PARAM_PROB, 0, 6);
	assert_int_equal(f->worker->icmp6_out.n, 0);
	lsk_icmp6_error(f->worker, m, 0, LSK_ICMP6_PKT_TOO_BIG, 0, 1280);
	lsk_icmp6_error(f->worker, m, 0, LSK_ICMP6_PARAM_PROB, 2, 42);
	assert_int_equal(f->worker->icmp6_out.n, 2);
	rte_pktmbuf_free(m);
	/* in an L2 broadcast: the same rule */
	unit6_pkt_init(&p, UNIT6_FAR);
	m = unit6_pkt_mbuf(&p);
	rte_pktmbuf_adj(m, UNIT_ETH_LEN);
	lsk_icmp6_error(f->worker, m, LSK_META_L2_BCAST, LSK_ICMP6_DST_UNREACH,
			0, 0);
	assert_int_equal(f->worker->icmp6_out.n, 2);
	rte_pktmbuf_free(m);
	/* from :: or a group: none ever */
	unit6_pkt_init(&p, UNIT6_FAR);
	p.src = UNIT6(0);
	m = unit6_pkt_mbuf(&p);
	rte_pktmbuf_adj(m, UNIT_ETH_LEN);
	lsk_icmp6_error(f->worker, m, 0, LSK_ICMP6_PKT_TOO_BIG, 0, 1280);
	assert_int_equal(f->worker->icmp6_out.n, 2);
	rte_pktmbuf_free(m);
	lsk_icmp6_output(f->worker);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_PKT_TOO_BIG, 0),
			 1);
	assert_int_equal(unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_PARAM_PROB, 2),
			 1);
	unit_tx_free(f);
	st = unit_stats(f);
	assert_int_equal(st.icmp6.OutMsgs, 3);
}

/* 60 errors at once: 50 leave, 10 are rate-limited; packet too big
 * is never limited. */
static void
test_rate_limit(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[60];
	struct unit6_pkt p;
	struct lsk_stats st;
	unsigned int i;

	unit6_configure(f);
	unit6_pkt_init(&p, UNIT6_NOWHERE);
	for (i = 0; i < RTE_DIM(pkts); i++)
		pkts[i] = unit6_pkt_mbuf(&p);
	unit_input(f, pkts, RTE_DIM(pkts));
	st = unit_stats(f);
	assert_int_equal(st.ip6.InNoRoutes, 60);
	assert_int_equal(st.icmp6.OutDestUnreachs + st.icmp6.OutRateLimited,
			 60);
	/* the bucket holds 50 and gains one a millisecond */
	assert_true(st.icmp6.OutRateLimited >= 5 &&
		    st.icmp6.OutRateLimited <= 10);
	assert_int_equal(unit_tx_count(f), st.icmp6.OutDestUnreachs);
	unit_tx_free(f);

	unit6_pkt_init(&p, UNIT6_FAR);
	p.payload_len = 1500;
	for (i = 0; i < RTE_DIM(pkts); i++)
		pkts[i] = unit6_pkt_mbuf(&p);
	unit_input(f, pkts, RTE_DIM(pkts));
	assert_int_equal(unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_PKT_TOO_BIG, 0),
			 60);
	unit_tx_free(f);
}

/* What waited in vain for a neighbour: address unreachable each. */
static void
test_unreach_addr(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 };
	uint8_t frame[UNIT_FRAME_MAX];
	struct unit6_pkt p;
	size_t len;

	unit6_configure(f);
	unit6_pkt_init(&p, UNIT6_FAR);
	len = unit6_pkt_build(&p, frame, sizeof(frame));
	lsk_list_push(&l, unit_mbuf_from_bytes(frame, len, UNIT_P0), 0);
	lsk_list_push(&l, unit_mbuf_from_bytes(frame, len, UNIT_P0), 0);
	lsk_icmp6_unreach_addr(f->worker, &l);
	assert_int_equal(l.n, 0);
	lsk_icmp6_output(f->worker);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 2);
	unit6_assert_error(f->tx.pkts[UNIT_P0][1], LSK_ICMP6_DST_UNREACH,
			   LSK_ICMP6_ADDR_UNREACH, 0, &UNIT6_P0, &unit_a_mac,
			   &unit_p0_mac, frame + UNIT_ETH_LEN,
			   len - UNIT_ETH_LEN);
	/* counted where the entry failed (nd), not here */
	assert_int_equal(unit_stats(f).nd.UnresolvedDiscards, 0);
	unit_tx_free(f);
}

/* Packet i of test_list_equals_single's burst. */
static struct rte_mbuf *
mixed_echo(unsigned int i)
{
	uint8_t frame[UNIT_FRAME_MAX];
	size_t len;

	return echo_to(i % 3 == 0 ? UNIT6_P0 : i % 3 == 1 ? UNIT6_NOWHERE :
		       UNIT6_ALL_NODES, UNIT6_A, frame, &len);
}

/* Echoes and errors in one burst, list and single mode alike. */
static void
test_list_equals_single(void **state)
{
	static const struct unit6_icmp_sent sent[] = {
		{ LSK_ICMP6_ECHO_REPLY, 0, 7 }, { LSK_ICMP6_DST_UNREACH, 0, 3 },
	};

	unit6_modes_done(*state, unit6_list_and_single(*state, 10, mixed_echo,
						       sent, RTE_DIM(sent)));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_echo),
		T(test_counted),
		T(test_error_rules),
		T(test_rate_limit),
		T(test_unreach_addr),
		T(test_list_equals_single),
	};

	return cmocka_run_group_tests_name("icmp6", tests, unit_group_setup,
					   unit_group_teardown);
}
