/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_route: one bulk FIB lookup per list, the split into forward (in
 * place, next hop in the meta), local and counted drops, in arrival
 * order; scoped destinations decided by the interface they came in on
 * (link-local: ours there or dropped, beyond scope; multicast: the
 * groups joined, else dropped silently); no route, blackhole,
 * unreachable and prohibit as Linux answers them.
 */
#include <string.h>

#include "unit_common.h"
#include "unit6.h"

static struct rte_mbuf *
pkt_to(struct lsk_ip6_addr dst, uint16_t port)
{
	struct unit6_pkt p;

	unit6_pkt_init(&p, dst);
	p.port = port;
	p.payload_len = 20;
	return unit6_pkt_mbuf(&p);
}

static void
icmp6_out_send(struct unit_fixture *f)
{
	if (f->worker->icmp6_out.n != 0)
		lsk_icmp6_output(f->worker);
	lsk_worker_flush(f->worker);
}

/* The solicited-node group of a (ff02::1:ffXX:XXXX). */
static struct lsk_ip6_addr
solicited(const struct lsk_ip6_addr *a)
{
	struct lsk_ip6_addr g = UNIT6(0xff, 0x02, [11] = 1, [12] = 0xff);

	memcpy(&g.a[13], &a->a[13], 3);
	return g;
}

/* One destination through ip6_route alone: 'f'orward, 'l'ocal or
 * 'd'rop, its ICMPv6 sent. */
static char
route_of(struct unit_fixture *f, struct lsk_ip6_addr dst, uint16_t port)
{
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	char v;

	lsk_list_push(&l, pkt_to(dst, port), 0);
	lsk_ip6_route(f->worker, &l, &local);
	assert_true(l.n + local.n <= 1);
	v = l.n ? 'f' : local.n ? 'l' : 'd';
	unit_list_free(&l);
	unit_list_free(&local);
	icmp6_out_send(f);
	return v;
}

static void
test_verdicts(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_ifaddr6 *ll0, *ll1;
	struct lsk_ip6_addr p0 = UNIT6_P0, ll0a, ll1a;
	struct lsk_stats st;

	unit6_configure(f);
	ll0 = lsk_fwd6_linklocal(f->worker->fwd6, UNIT_P0);
	ll1 = lsk_fwd6_linklocal(f->worker->fwd6, UNIT_P1);
	assert_non_null(ll0);
	assert_non_null(ll1);
	ll0a = ll0->addr;
	ll1a = ll1->addr;

	assert_int_equal(route_of(f, UNIT6_FAR, UNIT_P0), 'f');
	assert_int_equal(route_of(f, UNIT6_B, UNIT_P0), 'f');
	assert_int_equal(route_of(f, UNIT6_P0, UNIT_P0), 'l');
	assert_int_equal(route_of(f, UNIT6_P1, UNIT_P0), 'l');
	/* link-local: ours on the link it came in on only */
	assert_int_equal(route_of(f, ll0a, UNIT_P0), 'l');
	assert_int_equal(route_of(f, ll1a, UNIT_P0), 'd');
	assert_int_equal(route_of(f, UNIT6_A_LL, UNIT_P0), 'd');
	/* groups: all-nodes, all-routers, our solicited-node ones */
	assert_int_equal(route_of(f, UNIT6_ALL_NODES, UNIT_P0), 'l');
	assert_int_equal(route_of(f, UNIT6(0xff, 0x02, [15] = 2), UNIT_P0),
			 'l');
	assert_int_equal(route_of(f, solicited(&p0), UNIT_P0), 'l');
	assert_int_equal(route_of(f, solicited(&ll0a), UNIT_P0), 'l');
	assert_int_equal(route_of(f, UNIT6(0xff, 0x02, [14] = 0x12,
					   [15] = 0x34), UNIT_P0), 'd');
	assert_int_equal(route_of(f, UNIT6(0xff, 0x0e, [15] = 0x99), UNIT_P0),
			 'd');
	assert_int_equal(route_of(f, UNIT6(0), UNIT_P0), 'd');
	assert_int_equal(route_of(f, UNIT6_NOWHERE, UNIT_P0), 'd');

	st = unit_stats(f);
	assert_int_equal(st.ip6.InMcastPkts, 6);
	assert_int_equal(st.ip6.InDiscards, 2);	/* the groups not joined */
	assert_int_equal(st.ip6.InAddrErrors, 3);	/* 2 scope, :: */
	assert_int_equal(st.ip6.InNoRoutes, 1);
	/* beyond scope twice, no route once, all to A from P0 */
	assert_int_equal(unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_DST_UNREACH,
				       LSK_ICMP6_NOT_NEIGHBOUR), 2);
	assert_int_equal(unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_DST_UNREACH,
				       LSK_ICMP6_NOROUTE), 1);
	assert_int_equal(unit_tx_count(f), 3);
	assert_int_equal(st.icmp6.OutDestUnreachs, 3);
	unit_tx_free(f);
}

/* The reject routes: blackhole silent (InDiscards), unreachable no
 * route, prohibit administratively prohibited (InNoRoutes both). */
static void
test_reject_routes(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	uint8_t orig[UNIT_FRAME_MAX];
	struct rte_mbuf *m;
	struct unit6_pkt p;
	size_t len;

	unit6_configure(f);
	unit6_route(f, UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x61), 48,
		    LSK_ROUTE_BLACKHOLE);
	unit6_route(f, UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x62), 48,
		    LSK_ROUTE_UNREACHABLE);
	unit6_route(f, UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x63), 48,
		    LSK_ROUTE_PROHIBIT);
	assert_int_equal(route_of(f, UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x61,
					   [15] = 1), UNIT_P0), 'd');
	assert_int_equal(route_of(f, UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x62,
					   [15] = 1), UNIT_P0), 'd');
	assert_int_equal(route_of(f, UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x63,
					   [15] = 1), UNIT_P0), 'd');
	st = unit_stats(f);
	assert_int_equal(st.ip6.InDiscards, 1);
	assert_int_equal(st.ip6.InNoRoutes, 2);
	assert_int_equal(unit_tx_count(f), 2);
	unit6_pkt_init(&p, UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x63, [15] = 1));
	p.payload_len = 20;
	len = unit6_pkt_build(&p, orig, sizeof(orig));
	m = unit6_tx_icmp_nth(f, UNIT_P0, LSK_ICMP6_DST_UNREACH, 1);
	unit6_assert_error(m, LSK_ICMP6_DST_UNREACH, LSK_ICMP6_ADM_PROHIBITED,
			   0, &UNIT6_P0, &unit_a_mac, &unit_p0_mac,
			   orig + UNIT_ETH_LEN, len - UNIT_ETH_LEN);
	unit_tx_free(f);
}

/* Mixed verdicts in one list: both outputs keep arrival order and the
 * meta flags; the home run leaves a list as it was. */
static void
test_split_keeps_order(void **state)
{
	static const struct {
		struct lsk_ip6_addr dst;
		char v;
	} in[] = {
		{ UNIT6_FAR, 'f' }, { UNIT6_P0, 'l' }, { UNIT6_B, 'f' },
		{ UNIT6_NOWHERE, 'd' }, { UNIT6_ALL_NODES, 'l' },
		{ UNIT6_A_LL, 'd' }, { UNIT6_FAR, 'f' }, { UNIT6_P1, 'l' },
	};
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	struct rte_mbuf *fw[16], *lo[RTE_DIM(in)];
	unsigned int i, nf = 0, nl = 0;

	unit6_configure(f);
	for (i = 0; i < RTE_DIM(in); i++) {
		struct rte_mbuf *m = pkt_to(in[i].dst, UNIT_P0);

		lsk_list_push(&l, m, i & 1 ? LSK_META_L2_BCAST : 0);
		if (in[i].v == 'f')
			fw[nf++] = m;
		else if (in[i].v == 'l')
			lo[nl++] = m;
	}
	lsk_ip6_route(f->worker, &l, &local);
	assert_int_equal(l.n, nf);
	assert_int_equal(local.n, nl);
	for (i = 0; i < nf; i++) {
		const struct lsk_nexthop6 *nh = &f->worker->fwd6->nexthops[
			l.meta[i] & LSK_META_NH_MASK];
		const struct lsk_ip6_addr b = UNIT6_B;

		assert_ptr_equal(l.pkts[i], fw[i]);
		assert_int_equal(nh->type, LSK_NH_FORWARD);
		assert_int_equal(nh->iface, UNIT_P1);
		assert_true(nh->onlink || lsk_ip6_equal(&nh->gateway, &b));
	}
	for (i = 0; i < nl; i++)
		assert_ptr_equal(local.pkts[i], lo[i]);
	assert_int_equal(local.meta[0] & LSK_META_L2_BCAST, LSK_META_L2_BCAST);
	unit_list_free(&l);
	unit_list_free(&local);
	icmp6_out_send(f);
	unit_tx_free(f);

	/* one destination: in place, one next hop for all */
	for (i = 0; i < 16; i++)
		lsk_list_push(&l, fw[i] = pkt_to(UNIT6_FAR, UNIT_P0), 0);
	lsk_ip6_route(f->worker, &l, &local);
	assert_int_equal(l.n, 16);
	assert_int_equal(local.n, 0);
	for (i = 0; i < 16; i++) {
		assert_ptr_equal(l.pkts[i], fw[i]);
		assert_int_equal(l.meta[i], l.meta[0]);
	}
	unit_list_free(&l);
}

/* Through the worker, list and single mode: the same frames out (to B,
 * the errors to A) and the same counters. */
static void
test_list_equals_single(void **state)
{
	static const struct lsk_ip6_addr dsts[] = {
		UNIT6_FAR, UNIT6_NOWHERE, UNIT6_FAR, UNIT6_B,
		UNIT6_A_LL, UNIT6_FAR, UNIT6(0xff, 0x02, [15] = 0x77),
		UNIT6_B, UNIT6(0), UNIT6_FAR,
	};
	struct unit_fixture *a = *state, *b;
	struct rte_mbuf *pa[RTE_DIM(dsts)], *pb[RTE_DIM(dsts)];
	unsigned int i;

	b = unit_fixture_create(LSK_MODE_SINGLE);
	assert_non_null(b);
	unit6_configure(a);
	unit6_configure(b);
	for (i = 0; i < RTE_DIM(dsts); i++) {
		pa[i] = pkt_to(dsts[i], UNIT_P0);
		pb[i] = pkt_to(dsts[i], UNIT_P0);
	}
	unit_input(a, pa, RTE_DIM(dsts));
	unit_input(b, pb, RTE_DIM(dsts));
	unit6_assert_same_frames(a, b);
	unit6_assert_same_counters(a, b);
	assert_int_equal(a->tx.n[UNIT_P1], 6);
	assert_int_equal(unit6_tx_icmp(a, UNIT_P0, LSK_ICMP6_DST_UNREACH, -1),
			 2);
	unit_tx_free(a);
	unit_tx_free(b);
	unit_fixture_destroy(b);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_verdicts),
		T(test_reject_routes),
		T(test_split_keeps_order),
		T(test_list_equals_single),
	};

	return cmocka_run_group_tests_name("ip6_route", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
