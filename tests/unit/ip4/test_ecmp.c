/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP (ip4/ecmp.h, control/fwd_group.c): a flow keeps its path; weights
 * 1:3 are honoured within 2 % over 10000 flows; the fragments of one
 * datagram go together (their ports are not read), and so do a train's
 * members (decided by its head); the NIC's RSS hash decides when the
 * mbuf has one; a path whose neighbour failed or whose port is down is
 * left for another and taken again when it recovers; route get names the
 * path a flow takes; the fast path, the stages and the route cache agree.
 * And the route types unreachable and prohibit, with their ICMP errors.
 */
#include <string.h>

#include <rte_cycles.h>

#include "unit_common.h"
#include "unit_ecmp.h"
#include "core/fwd.h"
#include "l2/neigh.h"
#include "ip4/ecmp.h"
#include "ip4/ip4.h"

#define API(f, call) ({						\
	int rc_;							\
	lsk_worker_offline((f)->worker);				\
	rc_ = (call);							\
	unit_worker_sync(f);						\
	rc_;								\
})

#define ECMP_PFX UNIT_IPV4(30, 0, 0, 0)

struct flow {
	uint32_t src, dst;
	uint16_t sport, dport;
};

static struct flow
flow_rand(uint64_t *seed)
{
	uint64_t r = unit_rand(seed);

	return (struct flow){
		.src = UNIT_IPV4(172, 16, (r >> 8) & 255, (r & 254) + 1),
		.dst = ECMP_PFX | (uint32_t)((r >> 16) & 0xffff) << 4 | 1,
		.sport = (uint16_t)(1024 + ((r >> 32) & 0x7fff)),
		.dport = (uint16_t)(1 + ((r >> 48) & 0x3fff)) };
}

static struct rte_mbuf *
flow_mbuf(const struct flow *fl)
{
	struct unit_pkt p;

	unit_pkt_init(&p, fl->dst);
	p.src = fl->src;
	p.sport = fl->sport;
	p.dport = fl->dport;
	p.payload_len = 32;
	return unit_pkt_mbuf(&p);
}

static int
send_flow(struct unit_fixture *f, const struct flow *fl)
{
	return unit_ecmp_send_one(f, flow_mbuf(fl));
}

static int
send_rand(struct unit_fixture *f, uint64_t *seed)
{
	struct flow fl = flow_rand(seed);

	return send_flow(f, &fl);
}

/* 30.0.0.0/8 via A (port 0) weight wa and B (port 1) weight wb. */
static void
add_ecmp(struct unit_fixture *f, uint16_t wa, uint16_t wb)
{
	struct lsk_route_path p[2] = {
		{ .gateway = UNIT_A_IP, .iface = LSK_IFACE_ANY, .weight = wa },
		{ .gateway = UNIT_B_IP, .iface = LSK_IFACE_ANY, .weight = wb },
	};

	assert_int_equal(API(f, lsk_route_replace_paths(f->stack, ECMP_PFX, 8,
							p, 2)), 0);
}

/* The port route get names for the flow. */
static int
get_port(struct unit_fixture *f, const struct flow *fl)
{
	struct lsk_route_flow q = { .src = fl->src, .proto = IPPROTO_UDP,
				    .sport = fl->sport, .dport = fl->dport };
	struct lsk_route_answer a;

	assert_int_equal(lsk_route_get_flow(f->stack, fl->dst, &q, &a), 0);
	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.n_paths, 2);
	assert_int_equal(a.next_hop, a.path == 0 ? UNIT_A_IP : UNIT_B_IP);
	return a.port;
}

static void
test_stable_weighted(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int i, on[2] = { 0, 0 };
	uint64_t seed = 23;

	add_ecmp(f, 1, 3);
	for (i = 0; i < 10000; i++) {
		struct flow fl = flow_rand(&seed);
		int port = send_flow(f, &fl);

		assert_true(port == UNIT_P0 || port == UNIT_P1);
		on[port]++;
		/* the same flow again, and what route get says of it */
		if (i % 16 == 0) {
			assert_int_equal(send_flow(f, &fl), port);
			assert_int_equal(get_port(f, &fl), port);
		}
	}
	/* 3/4 of the flows on B's path, within 2 % */
	assert_in_range(on[UNIT_P1], 7300, 7700);
	assert_int_equal(on[UNIT_P0] + on[UNIT_P1], 10000);
}

/*
 * The stages (single mode) choose as the fast path; so does the fast path
 * with the route cache on, which caches the group, not a path. The fast
 * path takes the same flows with the cache as without (its row; not
 * all: flow_rand's sources may be ones it leaves to the stages).
 */
static void
test_cache_and_stages_agree(void **state)
{
	struct unit_fixture *f = *state;
	int fast[64];
	uint64_t seed = 5, before, fast0;
	unsigned int i;

	add_ecmp(f, 1, 1);
	for (i = 0; i < 64; i++) {
		struct flow fl = flow_rand(&seed);

		fast[i] = send_flow(f, &fl);
	}
	fast0 = unit_stats(f).stages[LSK_STAGE_FWD_FAST].packets;
	assert_true(fast0 > 0);
	unit_cmd(f, "mode single");
	seed = 5;
	for (i = 0; i < 64; i++) {
		struct flow fl = flow_rand(&seed);

		assert_int_equal(send_flow(f, &fl), fast[i]);
	}
	unit_cmd(f, "mode list");
	unit_cmd(f, "route-cache on");
	before = unit_stats(f).stages[LSK_STAGE_FWD_FAST].packets;
	seed = 5;
	for (i = 0; i < 64; i++) {
		struct flow fl = flow_rand(&seed);

		/* twice: a miss, then a hit caches the group, not a path */
		assert_int_equal(send_flow(f, &fl), fast[i]);
		assert_int_equal(send_flow(f, &fl), fast[i]);
	}
	assert_true(f->worker->stats.route_cache.Hits > 0);
	/* the flows the fast path took alone, each twice */
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_FWD_FAST].packets,
			 before + 2 * fast0);
}

/* Fragment m: MF and offset (8-byte units), its ports overwritten when
 * not the first. */
static struct rte_mbuf *
fragment_of(const struct flow *fl, uint16_t off8, bool more, uint32_t junk)
{
	struct rte_mbuf *m = flow_mbuf(fl);
	struct rte_ipv4_hdr *ip = unit_ip4(m);

	ip->fragment_offset = rte_cpu_to_be_16((uint16_t)((more ?
		RTE_IPV4_HDR_MF_FLAG : 0) | off8));
	if (off8 != 0)
		put32((uint8_t *)(ip + 1), junk);	/* data, not ports */
	unit_ip4_fix_cksum((uint8_t *)ip);
	return m;
}

static void
test_fragments_together(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t seed = 9;
	unsigned int i, moved = 0;

	add_ecmp(f, 1, 1);
	for (i = 0; i < 200; i++) {
		struct flow fl = flow_rand(&seed);
		uint32_t junk = (uint32_t)unit_rand(&seed);
		int first = unit_ecmp_send_one(f, fragment_of(&fl, 0, true,
							       0));

		assert_true(first >= 0);
		assert_int_equal(unit_ecmp_send_one(f, fragment_of(&fl, 4,
					true, junk)), first);
		assert_int_equal(unit_ecmp_send_one(f, fragment_of(&fl, 8,
					false, ~junk)), first);
		/* what the whole datagram would take may differ: the
		 * ports decide it, not the fragments' */
		moved += send_flow(f, &fl) != first;
	}
	assert_true(moved > 0);
}

/* A train is decided by its head: its members, alone, would go
 * elsewhere. */
static void
test_train_by_head(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_fwd_table *t;
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	struct rte_mbuf *head, *m, **link;
	struct flow fl = { .src = UNIT_A_IP, .dst = ECMP_PFX | 7,
			   .sport = 1000, .dport = 2000 };
	uint32_t nh;
	uint16_t sport;
	unsigned int k = 0;

	add_ecmp(f, 1, 1);
	t = f->worker->fwd;
	if (lsk_train_next_offset < 0)	/* as `gro fraglist` does */
		assert_int_equal(lsk_train_register(), 0);
	head = flow_mbuf(&fl);
	/* members whose own flow takes the other path */
	link = lsk_train_next(head);
	for (sport = 1001; k < 3 && sport < 2000; sport++) {
		struct flow o = fl;

		o.sport = sport;
		m = flow_mbuf(&o);
		if (get_port(f, &o) == get_port(f, &fl)) {
			rte_pktmbuf_free(m);
			continue;
		}
		*lsk_train_next(m) = NULL;
		*link = m;
		link = lsk_train_next(m);
		k++;
	}
	assert_int_equal(k, 3);
	*link = NULL;
	lsk_list_push(&l, head, 3u << LSK_META_COUNT_SHIFT);
	lsk_ip4_route(f->worker, &l, &local);
	assert_int_equal(l.n, 1);
	nh = l.meta[0] & LSK_META_NH_MASK;
	assert_int_equal(t->nexthops[nh].type, LSK_NH_FORWARD);
	assert_int_equal(t->nexthops[nh].port, get_port(f, &fl));
	lsk_entry_free(l.pkts[0], l.meta[0]);
}

/* The NIC's RSS hash decides when the mbuf has one. */
static void
test_rss_hash(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t seed = 11;
	unsigned int i, differ = 0;

	add_ecmp(f, 1, 1);
	for (i = 0; i < 64; i++) {
		struct flow a = flow_rand(&seed), b = flow_rand(&seed);
		struct rte_mbuf *ma = flow_mbuf(&a), *mb = flow_mbuf(&b);
		uint32_t rss = (uint32_t)unit_rand(&seed);
		int pa, pb;

		differ += send_flow(f, &a) != send_flow(f, &b);
		ma->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		mb->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		ma->hash.rss = mb->hash.rss = rss;
		pa = unit_ecmp_send_one(f, ma);
		pb = unit_ecmp_send_one(f, mb);
		assert_true(pa >= 0);
		assert_int_equal(pa, pb);
	}
	assert_true(differ > 0);	/* without it, they would not */
}

static void
ports_of(struct unit_fixture *f, uint64_t seed, int *ports, unsigned int n)
{
	unit_ecmp_ports_of(f, send_rand, seed, ports, n);
}

static void
test_port_down_skipped(void **state)
{
	struct unit_fixture *f = *state;

	add_ecmp(f, 1, 1);
	unit_ecmp_port_down(f, send_rand, NULL);
}

/* Learn 10.0.x.2's MAC as its ARP request to us would. */
static void
neigh_learn(struct unit_fixture *f, uint16_t port, uint32_t addr,
	    uint32_t ours)
{
	struct rte_ether_addr mac = { .addr_bytes = { 2, 0, 0, 0,
		(uint8_t)port, 2 } };

	unit_input_one(f, unit_arp_mbuf(port, 1, &unit_bcast_mac, &mac, addr,
					NULL, ours));
	unit_tx_free(f);	/* our reply */
}

/* What l2's timer does when the probes run out: failed, not tried
 * again for a while. */
static void
neigh_fail(struct unit_fixture *f, uint32_t addr)
{
	struct lsk_neigh_entry *e = lsk_neigh_lookup(f->stack->sh.neigh, addr);

	assert_non_null(e);
	unit_ecmp_neigh_fail(&e->word, &e->next_probe);
}

static void
test_failed_neighbour_skipped(void **state)
{
	struct unit_fixture *f = *state;
	const uint32_t g0 = UNIT_IPV4(10, 0, 0, 2), g1 = UNIT_IPV4(10, 0, 1, 2);
	struct lsk_route_path p[2] = {
		{ .gateway = g0, .iface = LSK_IFACE_ANY, .weight = 1 },
		{ .gateway = g1, .iface = LSK_IFACE_ANY, .weight = 1 },
	};
	int before[UNIT_ECMP_FLOWS], failed[UNIT_ECMP_FLOWS],
	    after[UNIT_ECMP_FLOWS];

	neigh_learn(f, UNIT_P0, g0, UNIT_P0_IP);
	neigh_learn(f, UNIT_P1, g1, UNIT_P1_IP);
	assert_int_equal(API(f, lsk_route_add_paths(f->stack, ECMP_PFX, 8, p,
						    2)), 0);
	ports_of(f, 17, before, UNIT_ECMP_FLOWS);
	neigh_fail(f, g1);
	ports_of(f, 17, failed, UNIT_ECMP_FLOWS);
	/* it answers again: taken again */
	neigh_learn(f, UNIT_P1, g1, UNIT_P1_IP);
	ports_of(f, 17, after, UNIT_ECMP_FLOWS);
	unit_ecmp_left_and_back(before, failed, after);
	/* every path dead: the flow's own is kept (and its packets meet
	 * the failed entry: dropped and counted there) */
	neigh_fail(f, g0);
	neigh_fail(f, g1);
	{
		struct lsk_route_answer a;
		struct lsk_route_flow q = { .proto = IPPROTO_UDP };

		assert_int_equal(lsk_route_get_flow(f->stack, ECMP_PFX | 1, &q,
						    &a), 0);
		assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
		assert_int_equal(a.neigh_state, LSK_RNEIGH_FAILED);
	}
}

/* unreachable and prohibit routes: dropped (ip.InDiscards), answered
 * ICMP host unreachable and administratively prohibited, as Linux;
 * blackhole silent. Through the fast path's hand-over and the stages. */
static void
test_route_types(void **state)
{
	struct unit_fixture *f = *state;
	static const struct {
		const char *line;
		uint32_t dst;
		int code;	/* -1: no ICMP */
	} cases[] = {
		{ "route add 31.0.0.0/8 unreachable", UNIT_IPV4(31, 0, 0, 1),
		  1 },
		{ "route add 32.0.0.0/8 prohibit", UNIT_IPV4(32, 0, 0, 1), 13 },
		{ "route add 33.0.0.0/8 blackhole", UNIT_IPV4(33, 0, 0, 1), -1 },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		struct unit_pkt p;
		uint64_t discards = f->worker->stats.ip.InDiscards;

		unit_cmd(f, cases[i].line);
		unit_pkt_init(&p, cases[i].dst);
		unit_input_pkt(f, &p);
		assert_int_equal(f->worker->stats.ip.InDiscards, discards + 1);
		assert_int_equal(unit_tx_icmp(f, UNIT_P0, -1, -1),
				 cases[i].code < 0 ? 0 : 1);
		if (cases[i].code >= 0)
			assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3,
				cases[i].code, cases[i].dst), 1);
		assert_int_equal(unit_tx_count(f), cases[i].code < 0 ? 0 : 1);
		unit_tx_free(f);
	}
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_stable_weighted),
		T(test_cache_and_stages_agree),
		T(test_fragments_together),
		T(test_train_by_head),
		T(test_rss_hash),
		T(test_port_down_skipped),
		T(test_failed_neighbour_skipped),
		T(test_route_types),
	};

	return cmocka_run_group_tests_name("ecmp", tests, unit_group_setup,
					   unit_group_teardown);
}
