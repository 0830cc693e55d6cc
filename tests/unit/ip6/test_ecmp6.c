/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP over IPv6 (ip6/ecmp6.h, control/fwd_group.c), as IPv4's
 * (tests/unit/ip4/test_ecmp.c): a flow keeps its path; weights 1:3 are
 * honoured within 2 % over 10000 flows; the pieces of a fragmented
 * datagram and its first piece go together; a path whose port is down
 * or whose neighbour failed is left for another and taken again when it
 * recovers; route get names
 * the path a flow takes; a list and single packets meet the same paths.
 */
#include <string.h>

#include "unit_common.h"
#include "unit_ecmp.h"
#include "unit6.h"
#include "ip6/nd6_priv.h"

#define API(f, call) ({						\
	int rc_;							\
	lsk_worker_offline((f)->worker);				\
	rc_ = (call);							\
	unit6_sync(f);							\
	rc_;								\
})

/* 2001:db8:30::/48 */
#define ECMP6_PFX UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x30)

struct flow6 {
	struct lsk_ip6_addr src, dst;
	uint16_t sport, dport;
};

static struct flow6
flow6_rand(uint64_t *seed)
{
	uint64_t r = unit_rand(seed);
	struct flow6 fl = { .src = UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 5),
			    .dst = ECMP6_PFX };

	memcpy(&fl.src.a[12], &r, 4);
	memcpy(&fl.dst.a[8], (const uint8_t *)&r + 2, 4);
	fl.dst.a[15] = 1;
	fl.sport = (uint16_t)(1024 + ((r >> 32) & 0x7fff));
	fl.dport = (uint16_t)(1 + ((r >> 48) & 0x3fff));
	return fl;
}

static void
flow6_pkt(const struct flow6 *fl, struct unit6_pkt *p)
{
	unit6_pkt_init(p, fl->dst);
	p->src = fl->src;
	p->sport = fl->sport;
	p->dport = fl->dport;
	p->payload_len = 32;
}

static int
send_flow(struct unit_fixture *f, const struct flow6 *fl)
{
	struct unit6_pkt p;

	flow6_pkt(fl, &p);
	return unit_ecmp_send_one(f, unit6_pkt_mbuf(&p));
}

static int
send_rand(struct unit_fixture *f, uint64_t *seed)
{
	struct flow6 fl = flow6_rand(seed);

	return send_flow(f, &fl);
}

/* ECMP6_PFX/48 via A (port 0) weight wa and B (port 1) weight wb. */
static void
add_ecmp(struct unit_fixture *f, uint16_t wa, uint16_t wb)
{
	const struct lsk_ip6_addr pfx = ECMP6_PFX;
	struct lsk_route6_path p[2] = {
		{ .gateway = UNIT6_A, .iface = LSK_IFACE_ANY, .weight = wa },
		{ .gateway = UNIT6_B, .iface = LSK_IFACE_ANY, .weight = wb },
	};

	unit6_configure(f);
	assert_int_equal(API(f, lsk_route6_replace_paths(f->stack, &pfx, 48,
							 p, 2)), 0);
}

/* The port route get names for the flow. */
static int
get_port(struct unit_fixture *f, const struct flow6 *fl)
{
	struct lsk_route6_flow q = { .src = fl->src, .proto = IPPROTO_UDP,
				     .sport = fl->sport, .dport = fl->dport };
	const struct lsk_ip6_addr a = UNIT6_A, b = UNIT6_B;
	struct lsk_route6_answer ans;

	assert_int_equal(lsk_route6_get_flow(f->stack, &fl->dst,
					     LSK_IFACE_ANY, &q, &ans), 0);
	assert_int_equal(ans.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(ans.n_paths, 2);
	assert_memory_equal(&ans.next_hop, ans.path == 0 ? &a : &b,
			    sizeof(a));
	return ans.port;
}

static void
test_stable_weighted(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t seed = 1;
	unsigned int i, on1 = 0, n = 10000;

	add_ecmp(f, 1, 3);
	for (i = 0; i < n; i++) {
		struct flow6 fl = flow6_rand(&seed);
		int port = send_flow(f, &fl);

		assert_true(port == UNIT_P0 || port == UNIT_P1);
		/* the same flow again: the same path; route get agrees */
		assert_int_equal(send_flow(f, &fl), port);
		assert_int_equal(get_port(f, &fl), port);
		on1 += port == UNIT_P1;
	}
	/* 3/4 on B within 2 % */
	assert_true(on1 > n * 73 / 100 && on1 < n * 77 / 100);
}

/* A fragment of fl's datagram at off8 (8-byte units), more to come or
 * not; junk in where its ports would be. */
static struct rte_mbuf *
fragment_of(const struct flow6 *fl, uint16_t off8, bool more, uint8_t junk)
{
	uint8_t frag[8] = { 0 };
	struct unit6_pkt p;

	flow6_pkt(fl, &p);
	frag[2] = (uint8_t)(off8 >> 5);
	frag[3] = (uint8_t)((off8 << 3) | (more ? 1 : 0));
	frag[7] = 7;
	unit6_pkt_ext(&p, 44, frag, sizeof(frag));
	p.sport = (uint16_t)(junk * 257);
	p.dport = (uint16_t)(junk * 131);
	return unit6_pkt_mbuf(&p);
}

static void
test_fragments_together(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t seed = 7;
	unsigned int i, on1 = 0;

	add_ecmp(f, 1, 1);
	for (i = 0; i < 64; i++) {
		struct flow6 fl = flow6_rand(&seed);
		int first = unit_ecmp_send_one(f, fragment_of(&fl, 0, true,
							       1));

		assert_true(first == UNIT_P0 || first == UNIT_P1);
		assert_int_equal(unit_ecmp_send_one(f, fragment_of(&fl, 8,
					true, 2)), first);
		assert_int_equal(unit_ecmp_send_one(f, fragment_of(&fl, 16,
					false, 3)), first);
		on1 += first == UNIT_P1;
	}
	/* and the datagrams themselves are spread */
	assert_true(on1 > 8 && on1 < 56);
}

static void
test_port_down_skipped(void **state)
{
	struct unit_fixture *f = *state;

	add_ecmp(f, 1, 1);
	unit_ecmp_port_down(f, send_rand, unit6_sync);
}

/* What ND's timer does when the probes run out: failed, not tried
 * again for a while (IPv4's test_ecmp.c does the same to ARP's). */
static void
neigh6_fail(struct unit_fixture *f, struct lsk_ip6_addr addr, uint16_t iface)
{
	struct nd6_key k = nd6_key(&addr, iface);
	struct lsk_nd6_entry *e;
	uint32_t gen;

	e = nd6_lookup(f->stack->sh.nd6, &k, &gen);
	assert_non_null(e);
	unit_ecmp_neigh_fail(&e->word, &e->next_probe);
}

/* A path whose neighbour failed is left for another, and taken again
 * when the neighbour is known again; every path dead: the flow's own is
 * kept, its neighbour failed. */
static void
test_failed_neighbour_skipped(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_ip6_addr a = UNIT6_A, b = UNIT6_B;
	int before[UNIT_ECMP_FLOWS], failed[UNIT_ECMP_FLOWS],
	    after[UNIT_ECMP_FLOWS];
	struct lsk_route6_flow q = { .proto = IPPROTO_UDP };
	struct lsk_route6_answer ans;
	struct flow6 fl;
	uint64_t seed = 17;

	add_ecmp(f, 1, 1);
	unit_ecmp_ports_of(f, send_rand, 17, before, UNIT_ECMP_FLOWS);
	neigh6_fail(f, b, UNIT_P1);
	unit_ecmp_ports_of(f, send_rand, 17, failed, UNIT_ECMP_FLOWS);
	/* known again (as `neigh add` makes it): taken again */
	unit6_neigh(f, b, UNIT_P1, &unit_b_mac);
	unit_ecmp_ports_of(f, send_rand, 17, after, UNIT_ECMP_FLOWS);
	unit_ecmp_left_and_back(before, failed, after);
	neigh6_fail(f, a, UNIT_P0);
	neigh6_fail(f, b, UNIT_P1);
	fl = flow6_rand(&seed);
	assert_int_equal(lsk_route6_get_flow(f->stack, &fl.dst, LSK_IFACE_ANY,
					     &q, &ans), 0);
	assert_int_equal(ans.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(ans.neigh_state, LSK_RNEIGH_FAILED);
}

/* A list of flows through ip6_route meets the members single packets
 * meet, frame for frame. */
static void
test_list_equals_single(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 }, local = { .n = 0 };
	uint32_t want[32];
	uint64_t seed = 11;
	unsigned int i;

	add_ecmp(f, 2, 1);
	for (i = 0; i < 32; i++) {
		struct lsk_list one = { .n = 0 }, loc1 = { .n = 0 };
		struct flow6 fl = flow6_rand(&seed);
		struct unit6_pkt p;

		flow6_pkt(&fl, &p);
		lsk_list_push(&one, unit6_pkt_mbuf(&p), 0);
		lsk_ip6_route(f->worker, &one, &loc1);
		assert_int_equal(one.n, 1);
		want[i] = one.meta[0] & LSK_META_NH_MASK;
		assert_int_equal(f->worker->fwd6->nexthops[want[i]].type,
				 LSK_NH_FORWARD);
		unit_list_free(&one);
		lsk_list_push(&l, unit6_pkt_mbuf(&p), 0);
	}
	lsk_ip6_route(f->worker, &l, &local);
	assert_int_equal(l.n, 32);
	assert_int_equal(local.n, 0);
	for (i = 0; i < 32; i++)
		assert_int_equal(l.meta[i] & LSK_META_NH_MASK, want[i]);
	unit_list_free(&l);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_stable_weighted),
		T(test_fragments_together),
		T(test_port_down_skipped),
		T(test_failed_neighbour_skipped),
		T(test_list_equals_single),
	};

	return cmocka_run_group_tests_name("ecmp6", tests, unit_group_setup,
					   unit_group_teardown);
}
