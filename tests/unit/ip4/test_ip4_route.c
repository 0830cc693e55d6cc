/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_route: one FIB lookup per list, then the split into forward (kept in
 * place, next hop in meta), local, and counted drops (no route, blackhole),
 * with arrival order kept on both sides (Linux cases A15, C9, C12, C22,
 * C23). No route is answered with ICMP net unreachable, a blackhole is
 * silent.
 */
#include <string.h>

#include "unit_common.h"
#include "core/fwd.h"
#include "ip4/ip4.h"

static struct rte_mbuf *
pkt_to(uint32_t dst)
{
	struct unit_pkt p;

	unit_pkt_init(&p, dst);
	p.payload_len = 18;
	return unit_pkt_mbuf(&p);
}

/* The next hop a forwarded packet carries in its meta word. */
static const struct lsk_nexthop *
meta_nexthop(const struct unit_fixture *f, uint32_t meta)
{
	const struct lsk_fwd_table *t = f->worker->fwd;
	uint32_t idx = meta & LSK_META_NH_MASK;

	assert_true(idx != LSK_NH_IDX_NONE && idx < t->n_nexthops);
	return &t->nexthops[idx];
}

static void
assert_nexthop(const struct lsk_nexthop *nh, uint16_t port,
	       const struct rte_ether_addr *dst_mac,
	       const struct rte_ether_addr *src_mac)
{
	assert_int_equal(nh->type, LSK_NH_FORWARD);
	assert_int_equal(nh->port, port);
	assert_true(nh->resolved);
	assert_memory_equal(&nh->dst_mac, dst_mac, RTE_ETHER_ADDR_LEN);
	assert_memory_equal(&nh->src_mac, src_mac, RTE_ETHER_ADDR_LEN);
}

/*
 * One destination through ip4_route alone: 'f'orward, 'l'ocal, or 'd'rop.
 * The ICMP the stage queued is sent and captured (unit_icmp_out_send).
 */
static char
route_of(struct unit_fixture *f, uint32_t dst)
{
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	char verdict;

	lsk_list_push(&l, pkt_to(dst), 0);
	lsk_ip4_route(f->worker, &l, &local);
	assert_true(l.n + local.n <= 1);
	verdict = l.n ? 'f' : local.n ? 'l' : 'd';
	unit_list_free(&l);
	unit_list_free(&local);
	unit_icmp_out_send(f);
	return verdict;
}

/* A15: forward, local and dropped packets interleaved; both outputs keep
 * arrival order and the L2 broadcast flag, forwards carry their hop. */
static void
test_split_keeps_order(void **state)
{
	static const struct {
		uint32_t dst, meta;
		char verdict;
	} in[] = {
		{ UNIT_FAR_IP, 0, 'f' },
		{ UNIT_P0_IP, 0, 'l' },
		{ UNIT_A_IP, LSK_META_L2_BCAST, 'f' },
		{ UNIT_IPV4(192, 168, 77, 1), 0, 'd' },
		{ UNIT_IPV4(10, 0, 1, 255), LSK_META_L2_BCAST, 'l' },
		{ UNIT_IPV4(10, 66, 0, 1), 0, 'd' },
		{ UNIT_B_IP, 0, 'f' },
		{ UINT32_MAX, LSK_META_L2_BCAST, 'l' },
	};
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	struct rte_mbuf *fwd[RTE_DIM(in)], *loc[RTE_DIM(in)];
	uint32_t fwd_meta[RTE_DIM(in)], loc_meta[RTE_DIM(in)];
	unsigned int i, n_fwd = 0, n_loc = 0;
	uint8_t dropped[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	for (i = 0; i < RTE_DIM(in); i++) {
		struct rte_mbuf *m = pkt_to(in[i].dst);

		lsk_list_push(&l, m, in[i].meta);
		if (in[i].verdict == 'f') {
			fwd_meta[n_fwd] = in[i].meta;
			fwd[n_fwd++] = m;
		} else if (in[i].verdict == 'l') {
			loc_meta[n_loc] = in[i].meta;
			loc[n_loc++] = m;
		}
	}

	lsk_ip4_route(f->worker, &l, &local);

	assert_int_equal(l.n, n_fwd);
	for (i = 0; i < n_fwd; i++) {
		assert_ptr_equal(l.pkts[i], fwd[i]);
		assert_int_equal(l.meta[i] & ~LSK_META_NH_MASK, fwd_meta[i]);
	}
	assert_nexthop(meta_nexthop(f, l.meta[0]), UNIT_P1, &unit_b_mac,
		       &unit_p1_mac);
	assert_nexthop(meta_nexthop(f, l.meta[1]), UNIT_P0, &unit_a_mac,
		       &unit_p0_mac);
	assert_nexthop(meta_nexthop(f, l.meta[2]), UNIT_P1, &unit_b_mac,
		       &unit_p1_mac);

	assert_int_equal(local.n, n_loc);
	for (i = 0; i < n_loc; i++) {
		assert_ptr_equal(local.pkts[i], loc[i]);
		assert_int_equal(local.meta[i] & ~LSK_META_NH_MASK,
				 loc_meta[i]);
	}
	unit_list_free(&l);
	unit_list_free(&local);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InNoRoutes = 1, .InDiscards = 1 });

	/* C9: one net unreachable, about the no-route packet, from P0's
	 * address back to A; the blackhole is silent */
	assert_int_equal(f->worker->icmp_out.n, 1);
	unit_icmp_out_send(f);
	assert_int_equal(unit_tx_count(f), 1);
	unit_pkt_init(&p, UNIT_IPV4(192, 168, 77, 1));
	p.payload_len = 18;
	len = unit_pkt_build(&p, dropped, sizeof(dropped));
	unit_assert_icmp_error(unit_tx_icmp_nth(f, UNIT_P0, 3, 0, 0),
		&(struct unit_icmp_want){ .type = 3, .code = 0,
			.src = UNIT_P0_IP, .dst_mac = &unit_a_mac,
			.src_mac = &unit_p0_mac },
		dropped + UNIT_ETH_LEN, len - UNIT_ETH_LEN);
	assert_int_equal(unit_stats(f).icmp.OutDestUnreachs, 1);
	unit_tx_free(f);
}

/* A full burst alternating local and forwarded: order holds on both. */
static void
test_split_full_burst(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	struct rte_mbuf *in[LSK_BURST_MAX];
	unsigned int i;

	for (i = 0; i < LSK_BURST_MAX; i++) {
		in[i] = pkt_to(i % 2 ? UNIT_P0_IP : UNIT_FAR_IP);
		lsk_list_push(&l, in[i], 0);
	}
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(l.n, LSK_BURST_MAX / 2);
	assert_int_equal(local.n, LSK_BURST_MAX / 2);
	for (i = 0; i < LSK_BURST_MAX / 2; i++) {
		assert_ptr_equal(l.pkts[i], in[2 * i]);
		assert_ptr_equal(local.pkts[i], in[2 * i + 1]);
	}
	unit_list_free(&l);
	unit_list_free(&local);
}

/* The home run: when all are forwarded the list is left as it was. */
static void
test_all_forwarded_in_place(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	struct rte_mbuf *in[32];
	unsigned int i;

	for (i = 0; i < RTE_DIM(in); i++) {
		in[i] = pkt_to(UNIT_FAR_IP);
		lsk_list_push(&l, in[i], 0);
	}
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(local.n, 0);
	assert_int_equal(l.n, RTE_DIM(in));
	for (i = 0; i < RTE_DIM(in); i++) {
		assert_ptr_equal(l.pkts[i], in[i]);
		assert_int_equal(l.meta[i], l.meta[0]);
	}
	unit_list_free(&l);
	unit_assert_ip(f, (struct lsk_ip_stats){ 0 });
}

/* Lists to one destination, each verdict, and one whose last entry goes
 * elsewhere: each entry keeps its meta flags beside the next hop, each
 * drop is counted once. */
static void
test_one_destination_lists(void **state)
{
	static const uint32_t flags[4] = { 0, LSK_META_L2_BCAST, 0,
					   LSK_META_L2_BCAST };
	struct unit_fixture *f = *state;
	struct lsk_list l, local;
	struct rte_mbuf *in[4];
	unsigned int i;

	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	/* forwarded: in place, one next hop */
	l.n = local.n = 0;
	for (i = 0; i < 4; i++)
		lsk_list_push(&l, in[i] = pkt_to(UNIT_FAR_IP), flags[i]);
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(l.n, 4);
	assert_int_equal(local.n, 0);
	for (i = 0; i < 4; i++) {
		assert_ptr_equal(l.pkts[i], in[i]);
		assert_int_equal(l.meta[i] & ~LSK_META_NH_MASK, flags[i]);
		assert_nexthop(meta_nexthop(f, l.meta[i]), UNIT_P1,
			       &unit_b_mac, &unit_p1_mac);
	}
	unit_list_free(&l);

	/* local: all moved, in order */
	for (i = 0; i < 4; i++)
		lsk_list_push(&l, in[i] = pkt_to(UNIT_P0_IP), flags[i]);
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(l.n, 0);
	assert_int_equal(local.n, 4);
	for (i = 0; i < 4; i++) {
		assert_ptr_equal(local.pkts[i], in[i]);
		assert_int_equal(local.meta[i] & ~LSK_META_NH_MASK, flags[i]);
	}
	unit_list_free(&local);

	/* blackhole, then no route: every one counted, one ICMP for each
	 * no route but those that came as L2 broadcasts */
	for (i = 0; i < 4; i++)
		lsk_list_push(&l, pkt_to(UNIT_IPV4(10, 66, 0, 1)), flags[i]);
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(l.n + local.n, 0);
	for (i = 0; i < 4; i++)
		lsk_list_push(&l, pkt_to(UNIT_IPV4(192, 168, 77, 1)), flags[i]);
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(l.n + local.n, 0);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InNoRoutes = 4, .InDiscards = 4 });
	assert_int_equal(f->worker->icmp_out.n, 2);
	unit_icmp_out_send(f);
	unit_tx_free(f);

	/* the same but the last */
	for (i = 0; i < 3; i++)
		lsk_list_push(&l, in[i] = pkt_to(UNIT_FAR_IP), 0);
	lsk_list_push(&l, in[3] = pkt_to(UNIT_P0_IP), 0);
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(l.n, 3);
	assert_int_equal(local.n, 1);
	assert_ptr_equal(local.pkts[0], in[3]);
	for (i = 0; i < 3; i++) {
		assert_ptr_equal(l.pkts[i], in[i]);
		assert_nexthop(meta_nexthop(f, l.meta[i]), UNIT_P1,
			       &unit_b_mac, &unit_p1_mac);
	}
	unit_list_free(&l);
	unit_list_free(&local);
}

/* B18, B19, C23: our addresses on any port and the broadcasts are local. */
static void
test_local_destinations(void **state)
{
	static const uint32_t dst[] = {
		UNIT_P0_IP, UNIT_P1_IP, UNIT_IPV4(10, 0, 0, 255),
		UNIT_IPV4(10, 0, 1, 255), UINT32_MAX,
	};
	struct unit_fixture *f = *state;
	unsigned int i;

	for (i = 0; i < RTE_DIM(dst); i++)
		assert_int_equal(route_of(f, dst[i]), 'l');
	unit_assert_ip(f, (struct lsk_ip_stats){ 0 });
}

/* C9: no route (no default route in the fixture), each answered with
 * one ICMP net unreachable to the sender. */
static void
test_no_route(void **state)
{
	static const uint32_t dst[] = {
		UNIT_IPV4(192, 168, 77, 1), UNIT_IPV4(11, 0, 0, 1),
		UNIT_IPV4(10, 10, 0, 1), UNIT_IPV4(240, 0, 0, 1),
	};
	struct unit_fixture *f = *state;
	unsigned int i;

	for (i = 0; i < RTE_DIM(dst); i++) {
		assert_int_equal(route_of(f, dst[i]), 'd');
		if (dst[i] < UNIT_IPV4(224, 0, 0, 0)) {
			assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 0,
							    dst[i]), 1);
			assert_int_equal(unit_tx_count(f), 1);
		}
		unit_tx_free(f);
	}
	unit_assert_ip(f, (struct lsk_ip_stats){ .InNoRoutes = RTE_DIM(dst) });
}

/* C12: a blackhole route drops silently, counted InDiscards. */
static void
test_blackhole(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	assert_int_equal(route_of(f, UNIT_IPV4(10, 66, 0, 1)), 'd');
	assert_int_equal(route_of(f, UNIT_IPV4(10, 66, 255, 255)), 'd');
	assert_int_equal(unit_tx_count(f), 0);		/* silent */
	assert_int_equal(route_of(f, UNIT_IPV4(10, 67, 0, 1)), 'd');
	assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 0,
					    UNIT_IPV4(10, 67, 0, 1)), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InDiscards = 2, .InNoRoutes = 1 });
}

/* As Linux: route lookup comes before the TTL test, so TTL 1 with no
 * route is a no-route drop, and into a blackhole a discard. */
static void
test_route_before_ttl(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	unit_pkt_init(&p, UNIT_IPV4(192, 168, 77, 1));
	p.ttl = 1;
	unit_input_pkt(f, &p);
	p.dst = UNIT_IPV4(10, 66, 0, 1);
	unit_input_pkt(f, &p);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.InNoRoutes = 1, .InDiscards = 1 });
	assert_int_equal(unit_tx_udp_to(f, UNIT_P0, 0) +
			 unit_tx_udp_to(f, UNIT_P1, 0), 0);
	/* no route: net unreachable, not time exceeded; blackhole: nothing */
	assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 0,
					    UNIT_IPV4(192, 168, 77, 1)), 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 11, -1), 0);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);
}

/* C22: a table change applies from the next burst, no stale result. */
static void
test_table_change_applies(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_int_equal(f->tx.n[UNIT_P0], 0);

	unit_cmd(f, "route del 10.9.0.0/16");
	unit_cmd(f, "route add 10.9.0.0/16 via 10.0.0.1");
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	assert_memory_equal(rte_pktmbuf_mtod(f->tx.pkts[UNIT_P0][0], void *),
			    &unit_a_mac, RTE_ETHER_ADDR_LEN);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .ForwDatagrams = 2 });
}

/* With the route cache on, the same outcomes, and no stale entry after a
 * table change (C22 again). */
static void
test_route_cache(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	unit_cmd(f, "route-cache on entries 64");
	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	for (i = 0; i < 3; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		unit_input_pkt(f, &p);
		p.dst = UNIT_P0_IP;
		unit_input_pkt(f, &p);
		p.dst = UNIT_IPV4(10, 66, 0, 1);
		unit_input_pkt(f, &p);
		p.dst = UNIT_IPV4(192, 168, 77, 1);
		unit_input_pkt(f, &p);
	}
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 3);
	assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 0,
					    UNIT_IPV4(192, 168, 77, 1)), 3);
	/* and the locals: port unreachable, nothing listens on 2000 */
	assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 3, UNIT_P0_IP), 3);
	assert_int_equal(unit_tx_count(f), 9);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 12,
		.ForwDatagrams = 3, .InDelivers = 3, .InDiscards = 3,
		.InNoRoutes = 3 });
	st = unit_stats(f);
	assert_true(st.route_cache.Hits > 0);

	unit_cmd(f, "route del 10.9.0.0/16");
	unit_cmd(f, "route add 10.9.0.0/16 via 10.0.0.1");
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P0, UNIT_FAR_IP), 1);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 0);
	unit_tx_free(f);
}

/* The stage counters: one call per list, every packet counted; the
 * forwarded one by the fast path (ip4/fwd_fast.c), which hands the two
 * others on to ip4_route. */
static void
test_stage_accounting(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];
	struct lsk_stats st;

	pkts[0] = pkt_to(UNIT_P0_IP);
	pkts[1] = pkt_to(UNIT_FAR_IP);
	pkts[2] = pkt_to(UNIT_IPV4(192, 168, 77, 1));
	unit_input(f, pkts, 3);
	st = unit_stats(f);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].calls, 1);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 1);
	assert_int_equal(st.stages[LSK_STAGE_IP4_ROUTE].calls, 1);
	assert_int_equal(st.stages[LSK_STAGE_IP4_ROUTE].packets, 2);
	assert_int_equal(st.stages[LSK_STAGE_IP4_LOCAL].packets, 1);
	assert_int_equal(st.stages[LSK_STAGE_IP4_FORWARD].packets, 0);
	assert_int_equal(st.ip.ForwDatagrams, 1);
	assert_int_equal(st.ip.InNoRoutes, 1);
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_split_keeps_order),
		T(test_split_full_burst),
		T(test_all_forwarded_in_place),
		T(test_one_destination_lists),
		T(test_local_destinations),
		T(test_no_route),
		T(test_blackhole),
		T(test_route_before_ttl),
		T(test_table_change_applies),
		T(test_route_cache),
		T(test_stage_accounting),
	};

	return cmocka_run_group_tests_name("ip4_route", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
