/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * route_learn, route_paths, fwd_group: routes a routing daemon gives
 * (learn, withdraw, dump and sweep, flush), the configured route standing
 * in front of a learned one and the learned one taking its place, ECMP
 * routes added by hand (errors as Linux's), path sets shared and taken
 * back, a run published once, and 20k routes learned in runs of 1000
 * giving the lookups of a table built whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "core/fwd.h"

#define API(f, call) ({						\
	int rc_;							\
	lsk_worker_offline((f)->worker);				\
	rc_ = (call);							\
	unit_worker_sync(f);						\
	rc_;								\
})

#define PROTO_BGP 186
#define PROTO_OSPF 188
#define GW_A2 UNIT_IPV4(10, 0, 0, 2)

/* freed by the teardown, whether the test passed or not */
static void *test_free_later;

static struct lsk_route_answer
get(struct unit_fixture *f, uint32_t addr)
{
	struct lsk_route_answer a;

	assert_int_equal(lsk_route_get(f->stack, addr, &a), 0);
	return a;
}

static struct lsk_route_learned
via(uint32_t prefix, uint8_t depth, uint8_t proto, uint32_t gw)
{
	struct lsk_route_learned r;

	memset(&r, 0, sizeof(r));
	r.prefix = prefix;
	r.depth = depth;
	r.type = LSK_ROUTE_VIA;
	r.proto = proto;
	r.n_paths = 1;
	r.paths[0] = (struct lsk_route_path){ .gateway = gw,
					      .iface = LSK_IFACE_ANY };
	return r;
}

static struct lsk_route_learned
withdraw(uint32_t prefix, uint8_t depth)
{
	struct lsk_route_learned r;

	memset(&r, 0, sizeof(r));
	r.prefix = prefix;
	r.depth = depth;
	r.withdraw = 1;
	return r;
}

static int
learn1(struct unit_fixture *f, struct lsk_route_learned r)
{
	return API(f, lsk_route_learn(f->stack, &r, 1));
}

static void
assert_via(struct unit_fixture *f, uint32_t dst, uint32_t gw, bool learned)
{
	struct lsk_route_answer a = get(f, dst);

	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.next_hop, gw);
	assert_int_equal(a.learned, learned);
}

static void
test_learn_types(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_route_learned r = via(UNIT_IPV4(20, 0, 0, 0), 8,
					 PROTO_BGP, UNIT_B_IP);
	struct lsk_route_answer a;

	assert_int_equal(learn1(f, r), 0);
	a = get(f, UNIT_IPV4(20, 1, 2, 3));
	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.next_hop, UNIT_B_IP);
	assert_int_equal(a.port, UNIT_P1);
	assert_int_equal(a.learned, 1);
	assert_int_equal(a.proto, PROTO_BGP);
	assert_int_equal(a.n_paths, 1);
	assert_int_equal(a.origin, LSK_ORIGIN_ROUTE);

	r = via(UNIT_IPV4(21, 0, 0, 0), 8, PROTO_OSPF, 0);
	r.type = LSK_ROUTE_BLACKHOLE;
	r.n_paths = 0;
	assert_int_equal(learn1(f, r), 0);
	assert_int_equal(get(f, UNIT_IPV4(21, 0, 0, 1)).verdict,
			 LSK_VERDICT_BLACKHOLE);
	r.prefix = UNIT_IPV4(22, 0, 0, 0);
	r.type = LSK_ROUTE_UNREACHABLE;
	assert_int_equal(learn1(f, r), 0);
	assert_int_equal(get(f, UNIT_IPV4(22, 0, 0, 1)).verdict,
			 LSK_VERDICT_UNREACHABLE);
	r.prefix = UNIT_IPV4(23, 0, 0, 0);
	r.type = LSK_ROUTE_PROHIBIT;
	assert_int_equal(learn1(f, r), 0);
	a = get(f, UNIT_IPV4(23, 0, 0, 1));
	assert_int_equal(a.verdict, LSK_VERDICT_PROHIBIT);
	assert_int_equal(a.proto, PROTO_OSPF);

	/* an on-link path by its iface: no connected subnet needed */
	r = via(UNIT_IPV4(24, 0, 0, 0), 8, PROTO_BGP, UNIT_IPV4(99, 0, 0, 1));
	assert_int_equal(learn1(f, r), 1);	/* no iface: skipped */
	r.paths[0].iface = UNIT_P0;
	assert_int_equal(learn1(f, r), 0);
	a = get(f, UNIT_IPV4(24, 0, 0, 9));
	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.next_hop, UNIT_IPV4(99, 0, 0, 1));
	assert_int_equal(a.port, UNIT_P0);

	/* replaced by a later entry, then withdrawn */
	assert_int_equal(learn1(f, via(UNIT_IPV4(20, 0, 0, 0), 8, PROTO_BGP,
				       UNIT_A_IP)), 0);
	assert_via(f, UNIT_IPV4(20, 1, 2, 3), UNIT_A_IP, true);
	assert_int_equal(learn1(f, withdraw(UNIT_IPV4(20, 0, 0, 0), 8)), 0);
	assert_int_equal(get(f, UNIT_IPV4(20, 1, 2, 3)).verdict,
			 LSK_VERDICT_NO_ROUTE);
	assert_int_equal(f->stack->n_learned, 4);
	assert_int_equal(f->stack->n_routes, 1);	/* the fixture's */
}

static void
test_skipped(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_route_learned r[6];

	r[0] = via(UNIT_IPV4(30, 0, 0, 0), 8, PROTO_BGP,
		   UNIT_IPV4(192, 168, 0, 1));	/* on no subnet */
	r[1] = via(UNIT_IPV4(30, 0, 0, 1), 8, PROTO_BGP, UNIT_A_IP);	/* host
									 * bits */
	r[2] = withdraw(UNIT_IPV4(31, 0, 0, 0), 8);	/* nothing */
	r[3] = via(UNIT_IPV4(32, 0, 0, 0), 8, PROTO_BGP, UNIT_A_IP);
	r[3].n_paths = 2;
	r[3].paths[1] = r[3].paths[0];	/* a path given twice */
	r[4] = via(UNIT_IPV4(33, 0, 0, 0), 8, PROTO_BGP, UNIT_A_IP);
	r[5] = via(UNIT_IPV4(10, 0, 0, 0), 24, PROTO_BGP, UNIT_A_IP);
	assert_int_equal(API(f, lsk_route_learn(f->stack, r, 6)), 5);
	assert_int_equal(f->stack->n_learned, 1);
	assert_via(f, UNIT_IPV4(33, 0, 0, 1), UNIT_A_IP, true);
	assert_int_equal(API(f, lsk_route_learn(f->stack, NULL, 1)), -EINVAL);
}

/* The configured route wins; the learned one waits behind it, follows
 * the daemon meanwhile, and takes the place when it goes. */
static void
test_configured_wins(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	uint32_t p = UNIT_IPV4(40, 0, 0, 0), dst = UNIT_IPV4(40, 0, 0, 7);

	assert_int_equal(learn1(f, via(p, 16, PROTO_BGP, UNIT_A_IP)), 0);
	assert_via(f, dst, UNIT_A_IP, true);
	/* added by hand over a learned route: no EEXIST */
	assert_int_equal(API(f, lsk_route_add(s, p, 16, LSK_ROUTE_VIA,
					      UNIT_B_IP)), 0);
	assert_via(f, dst, UNIT_B_IP, false);
	assert_int_equal(API(f, lsk_route_add(s, p, 16, LSK_ROUTE_VIA,
					      UNIT_B_IP)), -EEXIST);
	/* the daemon changes its route: still behind */
	assert_int_equal(learn1(f, via(p, 16, PROTO_BGP, GW_A2)), 0);
	assert_via(f, dst, UNIT_B_IP, false);
	assert_non_null(lsk_learned_find(s, p, 16));
	/* the configured one goes: the learned one's latest takes over */
	assert_int_equal(API(f, lsk_route_del(s, p, 16)), 0);
	assert_via(f, dst, GW_A2, true);
	/* configured then learned: still the configured one */
	assert_int_equal(API(f, lsk_route_replace(s, p, 16,
						  LSK_ROUTE_BLACKHOLE, 0)), 0);
	assert_int_equal(get(f, dst).verdict, LSK_VERDICT_BLACKHOLE);
	assert_int_equal(learn1(f, via(p, 16, PROTO_BGP, UNIT_A_IP)), 0);
	assert_int_equal(get(f, dst).verdict, LSK_VERDICT_BLACKHOLE);
	/* the learned one withdrawn behind: the configured one stays */
	assert_int_equal(learn1(f, withdraw(p, 16)), 0);
	assert_int_equal(get(f, dst).verdict, LSK_VERDICT_BLACKHOLE);
	assert_int_equal(learn1(f, via(p, 16, PROTO_BGP, UNIT_A_IP)), 0);
	/* route flush takes the configured ones only */
	assert_int_equal(API(f, lsk_route_flush(s)), 2);	/* and the
								 * fixture's */
	assert_via(f, dst, UNIT_A_IP, true);
	/* a batch that deletes the configured one, then is undone */
	assert_int_equal(API(f, lsk_route_add(s, p, 16, LSK_ROUTE_VIA,
					      UNIT_B_IP)), 0);
	unit_cmd(f, "route del 40.0.0.0/16");
	assert_via(f, dst, UNIT_A_IP, true);
	/* the learned store is no batch's: refused while one is open */
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(lsk_route_learn(s, NULL, 0), -EBUSY);
	lsk_config_abort(s);
	unit_worker_sync(f);
	assert_via(f, dst, UNIT_A_IP, true);
}

static void
test_dump_sweep_flush(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	struct lsk_route_learned r[3];
	unsigned int i;

	for (i = 0; i < 3; i++)
		r[i] = via(UNIT_IPV4(50 + i, 0, 0, 0), 8, PROTO_BGP,
			   UNIT_A_IP);
	assert_int_equal(API(f, lsk_route_learn(s, r, 3)), 0);
	API(f, (lsk_route_learn_begin_dump(s), 0));
	/* the dump repeats 50/8 as it was, changes 52/8, not 51/8 */
	r[2].paths[0].gateway = UNIT_B_IP;
	assert_int_equal(learn1(f, r[0]), 0);
	assert_int_equal(learn1(f, r[2]), 0);
	/* until the sweep, what was not repeated still forwards */
	assert_via(f, UNIT_IPV4(51, 0, 0, 1), UNIT_A_IP, true);
	assert_int_equal(API(f, lsk_route_learn_sweep(s)), 1);
	assert_int_equal(get(f, UNIT_IPV4(51, 0, 0, 1)).verdict,
			 LSK_VERDICT_NO_ROUTE);
	assert_via(f, UNIT_IPV4(50, 0, 0, 1), UNIT_A_IP, true);
	assert_via(f, UNIT_IPV4(52, 0, 0, 1), UNIT_B_IP, true);
	assert_int_equal(API(f, lsk_route_learn_sweep(s)), 0);
	/* a configured route survives the learned flush */
	assert_int_equal(API(f, lsk_route_add(s, UNIT_IPV4(50, 0, 0, 0), 8,
					      LSK_ROUTE_VIA, UNIT_B_IP)), 0);
	assert_int_equal(API(f, lsk_route_learn_flush(s)), 2);
	assert_int_equal(s->n_learned, 0);
	assert_via(f, UNIT_IPV4(50, 0, 0, 1), UNIT_B_IP, false);
	assert_int_equal(get(f, UNIT_IPV4(52, 0, 0, 1)).verdict,
			 LSK_VERDICT_NO_ROUTE);
}

/* ECMP by hand: errors, the paths in route get, replace. */
static void
test_paths_config(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS + 1];
	uint32_t pfx = UNIT_IPV4(60, 0, 0, 0);
	struct lsk_route_answer a;
	unsigned int i;

	for (i = 0; i <= LSK_ROUTE_MAX_PATHS; i++)
		p[i] = (struct lsk_route_path){
			.gateway = UNIT_IPV4(10, 0, 0, 10 + i),
			.iface = LSK_IFACE_ANY, .weight = 1 };
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 0)),
			 -EINVAL);
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 17)),
			 -EINVAL);
	p[1].gateway = p[0].gateway;
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 2)),
			 -EINVAL);	/* given twice */
	p[1].gateway = UNIT_IPV4(192, 168, 1, 1);
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 2)),
			 -ENETUNREACH);
	p[1].gateway = UNIT_P1_IP;
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 2)),
			 -EINVAL);	/* ours */
	p[1].gateway = UNIT_B_IP;
	p[1].weight = 257;
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 2)),
			 -EINVAL);
	p[1].weight = 3;
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 2)), 0);
	assert_int_equal(API(f, lsk_route_add_paths(s, pfx, 8, p, 2)),
			 -EEXIST);
	a = get(f, UNIT_IPV4(60, 0, 0, 1));
	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.n_paths, 2);
	assert_int_equal(a.learned, 0);
	assert_true(a.next_hop == p[0].gateway || a.next_hop == UNIT_B_IP);
	assert_int_equal(a.next_hop, a.path == 0 ? p[0].gateway : UNIT_B_IP);
	/* sixteen paths, then one again */
	p[1].gateway = UNIT_IPV4(10, 0, 0, 11);
	assert_int_equal(API(f, lsk_route_replace_paths(s, pfx, 8, p, 16)),
			 0);
	assert_int_equal(get(f, UNIT_IPV4(60, 0, 0, 1)).n_paths, 16);
	assert_int_equal(API(f, lsk_route_replace_paths(s, pfx, 8, p, 1)),
			 0);
	assert_via(f, UNIT_IPV4(60, 0, 0, 1), p[0].gateway, false);
	assert_int_equal(API(f, lsk_route_del(s, pfx, 8)), 0);
}

/* Routes with the same paths share one set; a set no route holds is
 * taken back for the next. */
static void
test_path_sets_shared(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	struct lsk_route_learned *r = calloc(1000, sizeof(*r));
	unsigned int i;

	assert_non_null(r);
	test_free_later = r;
	for (i = 0; i < 1000; i++) {
		r[i] = via(UNIT_IPV4(70, i >> 8, i & 255, 0), 24, PROTO_BGP,
			   UNIT_A_IP);
		r[i].n_paths = 2;
		r[i].paths[1] = (struct lsk_route_path){ .gateway = UNIT_B_IP,
			.iface = LSK_IFACE_ANY, .weight = 1 };
	}
	assert_int_equal(API(f, lsk_route_learn(s, r, 1000)), 0);
	assert_int_equal(s->n_psets, 2);	/* id 0 and the one set */
	assert_int_equal(s->psets[1].refs, 1000);
	assert_int_equal(API(f, lsk_route_learn_flush(s)), 1000);
	assert_int_equal(s->psets[1].refs, 0);
	/* another set takes its slot */
	r[0].paths[1].gateway = GW_A2;
	assert_int_equal(API(f, lsk_route_learn(s, r, 1)), 0);
	assert_int_equal(s->n_psets, 2);
	assert_int_equal(s->psets[1].refs, 1);
	assert_int_equal(s->psets[1].p[1].gateway, GW_A2);
}

/* A run is published once (one new table generation), not per route. */
static void
test_run_published_once(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	struct lsk_route_learned r[100];
	uint32_t gen;
	unsigned int i;

	assert_int_equal(learn1(f, via(UNIT_IPV4(80, 0, 0, 0), 8, PROTO_BGP,
				       UNIT_A_IP)), 0);
	assert_non_null(s->fwd_standby);
	gen = s->sh.fwd->generation;
	for (i = 0; i < 100; i++)
		r[i] = via(UNIT_IPV4(81, i, 0, 0), 16, PROTO_BGP, UNIT_B_IP);
	assert_int_equal(API(f, lsk_route_learn(s, r, 100)), 0);
	assert_int_equal(s->sh.fwd->generation, gen + 1);
	assert_via(f, UNIT_IPV4(81, 99, 3, 4), UNIT_B_IP, true);
}

/* 20k routes in runs of 1000 (in place, the FIB growing), some withdrawn:
 * the same lookups as a table built whole from the same routes. */
static void
test_many_runs_match_build(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	struct lsk_route_learned *r = calloc(1000, sizeof(*r));
	struct lsk_route_answer a[64];
	uint64_t seed = 7;
	uint32_t probe[64];
	unsigned int i, k;

	assert_non_null(r);
	test_free_later = r;
	for (k = 0; k < 20; k++) {
		for (i = 0; i < 1000; i++) {
			uint32_t n = k * 1000 + i;

			r[i] = via(UNIT_IPV4(100 + (n >> 16), (n >> 8) & 255,
					     n & 255, 0), 24, PROTO_BGP,
				   n % 3 ? UNIT_A_IP : UNIT_B_IP);
			if (n % 7 == 0) {
				r[i].n_paths = 2;
				r[i].paths[1].gateway = UNIT_B_IP;
				r[i].paths[1].iface = LSK_IFACE_ANY;
				r[i].paths[0].gateway = UNIT_A_IP;
			}
			if (k > 0 && n % 11 == 0)
				r[i] = withdraw(UNIT_IPV4(100 + ((n - 1000) >>
					16), ((n - 1000) >> 8) & 255,
					(n - 1000) & 255, 0), 24);
		}
		assert_int_equal(API(f, lsk_route_learn(s, r, 1000)), 0);
	}
	/* 1728 multiples of 11 in [1000, 20000): not learned, and each
	 * withdraws one that was */
	assert_int_equal(s->n_learned, 20000 - 2 * 1728);
	for (i = 0; i < 64; i++) {
		uint32_t n = unit_rand(&seed) % 21000;

		probe[i] = UNIT_IPV4(100 + (n >> 16), (n >> 8) & 255, n & 255,
				     9);
		a[i] = get(f, probe[i]);
	}
	/* the same from a table built whole */
	assert_int_equal(API(f, lsk_stack_publish(s)), 0);
	for (i = 0; i < 64; i++) {
		struct lsk_route_answer b = get(f, probe[i]);

		assert_int_equal(a[i].verdict, b.verdict);
		assert_int_equal(a[i].next_hop, b.next_hop);
		assert_int_equal(a[i].n_paths, b.n_paths);
	}
}

static int
teardown(void **state)
{
	free(test_free_later);
	test_free_later = NULL;
	return unit_teardown(state);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_learn_types),
		T(test_skipped),
		T(test_configured_wins),
		T(test_dump_sweep_flush),
		T(test_paths_config),
		T(test_path_sets_shared),
		T(test_run_published_once),
		T(test_many_runs_match_build),
	};

	return cmocka_run_group_tests_name("route_learn", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
