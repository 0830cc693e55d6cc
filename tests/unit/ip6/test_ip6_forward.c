/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_forward: the hop limit (time exceeded), the source's scope
 * (beyond scope for a link-local source, silence for ::), L2
 * broadcasts never forwarded, the MTU (never fragmented: packet too big
 * with the egress MTU, InTooBigErrors and FragFails), then the hop limit
 * decreased and the MACs the neighbour's: byte for byte what Linux sends.
 */
#include <string.h>

#include "unit_common.h"
#include "unit6.h"
#include "unit6_modes.h"
#include "core/trace.h"
#include "../core/trace_records.h"

static struct rte_mbuf *
pkt(struct unit6_pkt *p, uint8_t *frame, size_t *len)
{
	*len = unit6_pkt_build(p, frame, UNIT_FRAME_MAX);
	return unit_mbuf_from_bytes(frame, *len, p->port);
}

/* The forwarded frame: the input with hop limit - 1 and the MACs of
 * the hop out of P1 to B. */
static void
assert_forwarded(const struct rte_mbuf *m, const uint8_t *in, size_t len)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

	assert_int_equal(m->pkt_len, len);
	assert_memory_equal(b, &unit_b_mac, 6);
	assert_memory_equal(b + 6, &unit_p1_mac, 6);
	assert_memory_equal(b + 12, in + 12, 2 + 7);
	assert_int_equal(b[UNIT_ETH_LEN + 7], in[UNIT_ETH_LEN + 7] - 1);
	assert_memory_equal(b + UNIT_ETH_LEN + 8, in + UNIT_ETH_LEN + 8,
			    len - UNIT_ETH_LEN - 8);
}

static void
test_forwarded(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t frame[UNIT_FRAME_MAX];
	struct unit6_pkt p;
	struct lsk_stats st;
	size_t len;

	unit6_configure(f);
	unit6_pkt_init(&p, UNIT6_FAR);
	p.hlim = 2;
	unit_input_one(f, pkt(&p, frame, &len));
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_forwarded(f->tx.pkts[UNIT_P1][0], frame, len);
	st = unit_stats(f);
	assert_int_equal(st.ip6.InReceives, 1);
	assert_int_equal(st.ip6.OutForwDatagrams, 1);
	unit_tx_free(f);
}

/* Every refusal with its counter and its error (or none). */
static void
test_refusals(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_ip6_addr a_ll = UNIT6_A_LL;
	uint8_t frame[UNIT_FRAME_MAX];
	struct unit6_pkt p;
	struct lsk_stats st;
	struct rte_mbuf *m;
	size_t len;

	unit6_configure(f);
	unit6_neigh(f, a_ll, UNIT_P0, &unit_a_mac);

	/* hop limit 1: time exceeded from P0, the quote as it came */
	unit6_pkt_init(&p, UNIT6_FAR);
	p.hlim = 1;
	unit_input_one(f, pkt(&p, frame, &len));
	assert_int_equal(unit_tx_count(f), 1);
	unit6_assert_error(f->tx.pkts[UNIT_P0][0], LSK_ICMP6_TIME_EXCEEDED,
			   LSK_ICMP6_EXC_HOPLIMIT, 0, &UNIT6_P0, &unit_a_mac,
			   &unit_p0_mac, frame + UNIT_ETH_LEN,
			   len - UNIT_ETH_LEN);
	unit_tx_free(f);

	/* a link-local source: beyond scope, back to it on its link from
	 * our link-local address there */
	unit6_pkt_init(&p, UNIT6_FAR);
	p.src = UNIT6_A_LL;
	unit_input_one(f, pkt(&p, frame, &len));
	assert_int_equal(unit_tx_count(f), 1);
	m = f->tx.pkts[UNIT_P0][0];
	unit6_assert_error(m, LSK_ICMP6_DST_UNREACH, LSK_ICMP6_NOT_NEIGHBOUR,
			   0, &lsk_fwd6_linklocal(f->worker->fwd6,
						  UNIT_P0)->addr,
			   &unit_a_mac, &unit_p0_mac, frame + UNIT_ETH_LEN,
			   len - UNIT_ETH_LEN);
	unit_tx_free(f);

	/* the unspecified source, an L2 broadcast: counted, no answer */
	unit6_pkt_init(&p, UNIT6_FAR);
	p.src = UNIT6(0);
	unit_input_one(f, pkt(&p, frame, &len));
	unit6_pkt_init(&p, UNIT6_FAR);
	p.dst_mac = unit_bcast_mac;
	unit_input_one(f, pkt(&p, frame, &len));
	assert_int_equal(unit_tx_count(f), 0);

	/* too big for P1's 1500: packet too big with 1500, nothing
	 * forwarded */
	unit6_pkt_init(&p, UNIT6_FAR);
	p.payload_len = 1500 - 40 - 8 + 1;
	unit_input_one(f, pkt(&p, frame, &len));
	assert_int_equal(unit_tx_count(f), 1);
	unit6_assert_error(f->tx.pkts[UNIT_P0][0], LSK_ICMP6_PKT_TOO_BIG, 0,
			   1500, &UNIT6_P0, &unit_a_mac, &unit_p0_mac,
			   frame + UNIT_ETH_LEN, len - UNIT_ETH_LEN);
	unit_tx_free(f);
	/* exactly the MTU: forwarded */
	p.payload_len = 1500 - 40 - 8;
	unit_input_one(f, pkt(&p, frame, &len));
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_forwarded(f->tx.pkts[UNIT_P1][0], frame, len);
	unit_tx_free(f);

	st = unit_stats(f);
	assert_int_equal(st.ip6.InReceives, 6);
	assert_int_equal(st.ip6.InHdrErrors, 1);
	assert_int_equal(st.ip6.InAddrErrors, 3);
	assert_int_equal(st.ip6.InTooBigErrors, 1);
	assert_int_equal(st.ip6.FragFails, 1);
	assert_int_equal(st.ip6.OutForwDatagrams, 1);
	assert_int_equal(st.icmp6.OutTimeExcds, 1);
	assert_int_equal(st.icmp6.OutDestUnreachs, 1);
	assert_int_equal(st.icmp6.OutPktTooBigs, 1);
}

/* Packet i of test_list_equals_single's burst. */
static struct rte_mbuf *
every_case(unsigned int i)
{
	uint8_t frame[UNIT_FRAME_MAX];
	struct unit6_pkt p;
	size_t len;

	unit6_pkt_init(&p, i % 4 == 3 ? UNIT6_B : UNIT6_FAR);
	p.hlim = (uint8_t)(i % 5 == 1 ? 1 : 64 - i);
	p.payload_len = (uint16_t)(i % 6 == 2 ? 1600 : 50 + i);
	return pkt(&p, frame, &len);
}

/* A burst of every case, list and single mode: the same frames and
 * counters. */
static void
test_list_equals_single(void **state)
{
	/* hop limit 1 three times, too big twice */
	static const struct unit6_icmp_sent sent[] = { { -1, -1, 5 } };
	struct unit_fixture *f = *state;
	struct unit_fixture *s = unit6_list_and_single(f, 12, every_case, sent,
						       RTE_DIM(sent));

	assert_int_equal(f->tx.n[UNIT_P1], 7);
	unit6_modes_done(f, s);
}

/* A traced datagram: each stage's record shows the IPv6 header and what
 * it decided on, ending at tx; one that expires ends as its drop. */
static void
test_traced(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_trace_pkt *t = NULL;
	struct unit6_pkt p;
	unsigned int j;

	unit6_configure(f);
	unit_cmd(f, "trace add 2");
	unit6_sync(f);
	unit6_pkt_init(&p, UNIT6_FAR);
	unit_input_one(f, unit6_pkt_mbuf(&p));
	p.hlim = 1;
	unit_input_one(f, unit6_pkt_mbuf(&p));
	for (j = 0; j < 2; j++)
		assert_int_equal(f->stack->sh.trace->w[0].pkt[j].state,
				 LSK_TRACE_DONE);
	t = &f->stack->sh.trace->w[0].pkt[0];
	/* the neighbour's record is nd's (ip6/nd6.h) */
	assert_string_equal(stages(t), "rx eth_input ip6_input ip6_route "
			    "ip6_forward neigh tx");
	assert_string_equal(t->rec[1].text, "02:00:00:00:00:01 > "
			    "02:00:00:00:00:FE vlan 0 type 0x86dd: ip6");
	assert_string_equal(t->rec[2].text, "2001:db8::1 > 2001:db8:9::5 "
			    "next 17 hlim 64 plen 108");
	assert_non_null(strstr(t->rec[3].text, "2001:db8:9::/48 via "
			       "2001:db8:1::1 iface 1 mtu 1500, next hop "));
	assert_string_equal(t->rec[4].text, "hlim 64 -> 63");
	t = &f->stack->sh.trace->w[0].pkt[1];
	assert_string_equal(stages(t), "rx eth_input ip6_input ip6_route "
			    "ip6_forward icmp6 drop");
	assert_string_equal(t->rec[5].text, "error type 3 code 0: made");
	assert_string_equal(last_text(t), "ip6.InHdrErrors");
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_forwarded),
		T(test_refusals),
		T(test_list_equals_single),
		T(test_traced),
	};

	return cmocka_run_group_tests_name("ip6_forward", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
