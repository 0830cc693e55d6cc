/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * route_table, fwd_update, route_show: the semantics of route add, del,
 * replace and flush (errors as Linux's), what lsk_route_get answers for
 * each verdict, changes made in place giving the very lookups a table
 * built whole gives, a failed change leaving the routes, their index and
 * both tables as they were, and a 100k-route table changed one route at a
 * time.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_fib.h>

#include "unit_common.h"
#include "core/fwd.h"
#include "cli/cli.h"

/* Call the API as a control thread does: the worker off line meanwhile
 * (a publication waits for it otherwise). */
#define API(f, call) ({						\
	int rc_;							\
	lsk_worker_offline((f)->worker);				\
	rc_ = (call);							\
	unit_worker_sync(f);						\
	rc_;								\
})

static struct lsk_route_answer
get(struct unit_fixture *f, uint32_t addr)
{
	struct lsk_route_answer a;

	assert_int_equal(lsk_route_get(f->stack, addr, &a), 0);
	return a;
}

static void
assert_via(struct unit_fixture *f, uint32_t dst, uint32_t gw)
{
	struct lsk_route_answer a = get(f, dst);

	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.next_hop, gw);
}

static void
test_errors_as_linux(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	uint32_t p = UNIT_IPV4(10, 20, 0, 0);

	assert_int_equal(API(f, lsk_route_add(s, p, 16, LSK_ROUTE_VIA,
					      UNIT_A_IP)), 0);
	assert_int_equal(API(f, lsk_route_add(s, p, 16, LSK_ROUTE_VIA,
					      UNIT_B_IP)), -EEXIST);
	assert_int_equal(API(f, lsk_route_add(s, UNIT_IPV4(10, 0, 0, 0), 24,
					      LSK_ROUTE_BLACKHOLE, 0)),
			 -EEXIST);	/* a connected subnet */
	assert_int_equal(API(f, lsk_route_replace(s, UNIT_IPV4(10, 0, 0, 0),
						  24, LSK_ROUTE_BLACKHOLE, 0)),
			 -EEXIST);
	assert_int_equal(API(f, lsk_route_add(s, UNIT_IPV4(10, 21, 0, 0), 16,
					      LSK_ROUTE_VIA,
					      UNIT_IPV4(192, 168, 0, 1))),
			 -ENETUNREACH);
	assert_int_equal(API(f, lsk_route_add(s, UNIT_IPV4(10, 21, 0, 0), 16,
					      LSK_ROUTE_VIA, UNIT_P0_IP)),
			 -EINVAL);	/* ours */
	assert_int_equal(API(f, lsk_route_add(s, UNIT_IPV4(10, 21, 0, 0), 16,
					      LSK_ROUTE_VIA,
					      UNIT_IPV4(10, 0, 0, 255))),
			 -EINVAL);	/* a broadcast */
	assert_int_equal(API(f, lsk_route_add(s, UNIT_IPV4(10, 21, 0, 1), 16,
					      LSK_ROUTE_BLACKHOLE, 0)),
			 -EINVAL);	/* host bits */
	assert_int_equal(API(f, lsk_route_add(s, 0, 33, LSK_ROUTE_BLACKHOLE,
					      0)), -EINVAL);
	assert_int_equal(API(f, lsk_route_add(s, 0, 0, 7, 0)), -EINVAL);
	assert_int_equal(API(f, lsk_route_del(s, UNIT_IPV4(10, 21, 0, 0),
					      16)), -ENOENT);
	assert_int_equal(API(f, lsk_route_del(s, UNIT_IPV4(10, 0, 0, 0),
					      24)), -ENOENT);
	/* a refused change changed nothing */
	assert_int_equal(f->stack->n_routes, 2);
	assert_via(f, UNIT_IPV4(10, 20, 3, 4), UNIT_A_IP);
	assert_int_equal(get(f, UNIT_IPV4(10, 21, 0, 1)).verdict,
			 LSK_VERDICT_NO_ROUTE);
}

static void
test_replace_del_flush(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	uint32_t p = UNIT_IPV4(10, 20, 0, 0);

	/* replace adds what is not there, replaces what is */
	assert_int_equal(API(f, lsk_route_replace(s, p, 16, LSK_ROUTE_VIA,
						  UNIT_A_IP)), 0);
	assert_via(f, UNIT_IPV4(10, 20, 0, 1), UNIT_A_IP);
	assert_int_equal(API(f, lsk_route_replace(s, p, 16, LSK_ROUTE_VIA,
						  UNIT_B_IP)), 0);
	assert_via(f, UNIT_IPV4(10, 20, 0, 1), UNIT_B_IP);
	assert_int_equal(get(f, UNIT_IPV4(10, 20, 0, 1)).iface, UNIT_P1);
	assert_int_equal(API(f, lsk_route_replace(s, p, 16,
						  LSK_ROUTE_BLACKHOLE, 0)), 0);
	assert_int_equal(get(f, UNIT_IPV4(10, 20, 0, 1)).verdict,
			 LSK_VERDICT_BLACKHOLE);
	assert_int_equal(s->n_routes, 2);

	/* del: the more specific goes, the less specific shows again */
	assert_int_equal(API(f, lsk_route_add(s, UNIT_IPV4(10, 9, 1, 0), 24,
					      LSK_ROUTE_VIA, UNIT_A_IP)), 0);
	assert_via(f, UNIT_IPV4(10, 9, 1, 1), UNIT_A_IP);
	assert_int_equal(API(f, lsk_route_del(s, UNIT_IPV4(10, 9, 1, 0), 24)),
			 0);
	assert_via(f, UNIT_IPV4(10, 9, 1, 1), UNIT_B_IP);
	assert_int_equal(API(f, lsk_route_del(s, UNIT_IPV4(10, 9, 1, 0), 24)),
			 -ENOENT);

	/* flush: routes go, connected subnets and addresses stay */
	assert_int_equal(API(f, lsk_route_flush(s)), 2);
	assert_int_equal(s->n_routes, 0);
	assert_int_equal(get(f, UNIT_IPV4(10, 9, 0, 1)).verdict,
			 LSK_VERDICT_NO_ROUTE);
	assert_int_equal(get(f, UNIT_IPV4(10, 20, 0, 1)).verdict,
			 LSK_VERDICT_NO_ROUTE);
	assert_int_equal(get(f, UNIT_P0_IP).verdict, LSK_VERDICT_LOCAL);
	assert_via(f, UNIT_A_IP, UNIT_A_IP);
	assert_int_equal(API(f, lsk_route_flush(s)), 0);
	/* and the index is empty too: the same routes add again */
	assert_int_equal(API(f, lsk_route_add(s, p, 16, LSK_ROUTE_VIA,
					      UNIT_A_IP)), 0);
	assert_via(f, UNIT_IPV4(10, 20, 0, 1), UNIT_A_IP);
}

static void
test_get_verdicts(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_route_answer a;
	struct unit_pkt p;

	a = get(f, UNIT_P1_IP);
	assert_int_equal(a.verdict, LSK_VERDICT_LOCAL);
	assert_int_equal(a.origin, LSK_ORIGIN_LOCAL);
	assert_int_equal(a.iface, UNIT_P1);
	assert_int_equal(a.prefix, UNIT_P1_IP);
	assert_int_equal(a.depth, 32);

	assert_int_equal(get(f, UNIT_IPV4(10, 0, 1, 255)).verdict,
			 LSK_VERDICT_BROADCAST);
	assert_int_equal(get(f, UINT32_MAX).verdict, LSK_VERDICT_BROADCAST);
	a = get(f, UNIT_IPV4(192, 168, 7, 7));
	assert_int_equal(a.verdict, LSK_VERDICT_NO_ROUTE);
	assert_int_equal(a.origin, LSK_ORIGIN_NONE);

	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	a = get(f, UNIT_IPV4(10, 66, 1, 2));
	assert_int_equal(a.verdict, LSK_VERDICT_BLACKHOLE);
	assert_int_equal(a.prefix, UNIT_IPV4(10, 66, 0, 0));
	assert_int_equal(a.depth, 16);

	/* via a gateway that is a static neighbour */
	a = get(f, UNIT_FAR_IP);
	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.origin, LSK_ORIGIN_ROUTE);
	assert_int_equal(a.prefix, UNIT_IPV4(10, 9, 0, 0));
	assert_int_equal(a.depth, 16);
	assert_int_equal(a.next_hop, UNIT_B_IP);
	assert_int_equal(a.iface, UNIT_P1);
	assert_int_equal(a.port, UNIT_P1);
	assert_int_equal(a.vlan, 0);
	assert_int_equal(a.mtu, 1500);
	assert_int_equal(a.src, UNIT_P1_IP);
	assert_int_equal(a.neigh_state, LSK_RNEIGH_STATIC);
	assert_memory_equal(&a.neigh_mac, &unit_b_mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(a.generation, f->stack->sh.fwd->generation);

	/* a neighbour's own /32 is its connected subnet */
	a = get(f, UNIT_A_IP);
	assert_int_equal(a.origin, LSK_ORIGIN_CONNECTED);
	assert_int_equal(a.prefix, UNIT_IPV4(10, 0, 0, 0));
	assert_int_equal(a.depth, 24);
	assert_int_equal(a.next_hop, UNIT_A_IP);
	assert_int_equal(a.neigh_state, LSK_RNEIGH_STATIC);

	/* a host on a connected subnet: no entry, then one waiting */
	a = get(f, UNIT_IPV4(10, 0, 1, 7));
	assert_int_equal(a.origin, LSK_ORIGIN_CONNECTED);
	assert_int_equal(a.next_hop, UNIT_IPV4(10, 0, 1, 7));
	assert_int_equal(a.neigh_state, LSK_RNEIGH_NONE);
	unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 7));
	unit_input_pkt(f, &p);
	assert_int_equal(get(f, UNIT_IPV4(10, 0, 1, 7)).neigh_state,
			 LSK_RNEIGH_INCOMPLETE);
	lsk_neigh_drop_held(f->stack);

	/* a gateway on a VLAN sub-interface */
	unit_cmd(f, "address add 10.0.5.254/24 port 1 vlan 7");
	unit_cmd(f, "route add 10.55.0.0/16 via 10.0.5.1");
	a = get(f, UNIT_IPV4(10, 55, 0, 9));
	assert_int_equal(a.verdict, LSK_VERDICT_FORWARD);
	assert_int_equal(a.iface, 2);
	assert_int_equal(a.port, UNIT_P1);
	assert_int_equal(a.vlan, 7);
	assert_int_equal(a.src, UNIT_IPV4(10, 0, 5, 254));
	assert_int_equal(lsk_route_get(f->stack, 1, NULL), -EINVAL);
}

/* The next hops two tables give for addr are the same (their indexes
 * may differ: each table has its own array). */
static void
assert_same_lookup(const struct lsk_fwd_table *x,
		   const struct lsk_fwd_table *y, const uint32_t *addrs,
		   unsigned int n)
{
	uint64_t nx[64], ny[64];
	unsigned int i, j;

	for (i = 0; i < n; i += j) {
		unsigned int k = RTE_MIN(n - i, 64u);

		rte_fib_lookup_bulk(x->fib, (uint32_t *)&addrs[i], nx, (int)k);
		rte_fib_lookup_bulk(y->fib, (uint32_t *)&addrs[i], ny, (int)k);
		for (j = 0; j < k; j++) {
			if (memcmp(&x->nexthops[nx[j]], &y->nexthops[ny[j]],
				   sizeof(struct lsk_nexthop)) != 0)
				print_error("%08x: %u vs %u\n", addrs[i + j],
					    x->nexthops[nx[j]].type,
					    y->nexthops[ny[j]].type);
			assert_memory_equal(&x->nexthops[nx[j]],
					    &y->nexthops[ny[j]],
					    sizeof(struct lsk_nexthop));
		}
	}
}

/* Both tables of the stack against one built whole now. */
static void
assert_tables_as_built(struct unit_fixture *f, const uint32_t *addrs,
		       unsigned int n)
{
	struct lsk_fwd_table *t;

	assert_int_equal(lsk_fwd_table_build(f->stack, &t), 0);
	assert_same_lookup(f->stack->sh.fwd, t, addrs, n);
	if (f->stack->fwd_standby != NULL)
		assert_same_lookup(f->stack->fwd_standby, t, addrs, n);
	lsk_fwd_table_free(t);
}

#define N_PROBES 20000

static void
random_probes(uint32_t *addrs, unsigned int n, uint64_t *seed)
{
	unsigned int i;

	/* mostly where the routes are: 10/8, around the connected ones */
	for (i = 0; i < n; i++) {
		uint32_t r = (uint32_t)unit_rand(seed);

		addrs[i] = i % 4 == 0 ? r : UNIT_IPV4(10, 0, 0, 0) |
			   (r & (i % 4 == 1 ? 0xffff : 0xffffff));
	}
}

static const uint32_t gateways[] = {
	UNIT_A_IP, UNIT_B_IP, UNIT_IPV4(10, 0, 1, 7), 0 /* blackhole */
};

/* A random route in 10/8: depths 8 to 32, some covering neighbours. */
static void
random_route(uint64_t *seed, uint32_t *prefix, uint8_t *depth,
	     enum lsk_route_type *type, uint32_t *gw)
{
	uint64_t r = unit_rand(seed);

	*depth = (uint8_t)(9 + r % 24);
	*prefix = (UNIT_IPV4(10, 0, 0, 0) | (uint32_t)(r >> 8 & 0xffffff) %
		   (1u << 18)) & lsk_depth_mask(*depth);
	if ((r >> 40) % 8 == 0)	/* some around the connected subnets */
		*prefix = (UNIT_IPV4(10, 0, 0, 0) |
			   (uint32_t)(r >> 8 & 0x1ff)) & lsk_depth_mask(*depth);
	*gw = gateways[(r >> 50) % RTE_DIM(gateways)];
	*type = *gw == 0 ? LSK_ROUTE_BLACKHOLE : LSK_ROUTE_VIA;
}

/*
 * Random adds, replaces and dels, one at a time: after every hundred,
 * both tables (published and standby) look up what a table built whole
 * from the routes looks up; and they were made in place (the two
 * tables take turns) but for the changes that touch neighbour entries.
 */
static void
test_in_place_matches_build(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	static uint32_t addrs[N_PROBES];
	uint64_t seed = 42;
	unsigned int i, in_place = 0;

	random_probes(addrs, N_PROBES, &seed);
	for (i = 0; i < 3000; i++) {
		const struct lsk_fwd_table *before = s->fwd_standby;
		enum lsk_route_type type;
		uint32_t prefix, gw;
		uint8_t depth;
		int rc;

		random_route(&seed, &prefix, &depth, &type, &gw);
		switch (i % 3) {
		case 0:
			rc = API(f, lsk_route_add(s, prefix, depth, type, gw));
			assert_true(rc == 0 || rc == -EEXIST);
			break;
		case 1:
			rc = API(f, lsk_route_replace(s, prefix, depth, type,
						      gw));
			assert_true(rc == 0 || rc == -EEXIST);
			break;
		default:
			if (s->n_routes == 0)
				continue;
			/* one that exists, picked at random */
			{
				const struct lsk_route *r = &s->routes[
					unit_rand(&seed) % s->n_routes];

				prefix = r->prefix;
				depth = r->depth;
			}
			rc = API(f, lsk_route_del(s, prefix, depth));
			assert_true(rc == 0 || rc == -ENOENT);
			break;
		}
		if (rc == 0 && before != NULL && s->sh.fwd == before)
			in_place++;
		if (i % 100 == 99)
			assert_tables_as_built(f, addrs, N_PROBES);
	}
	assert_tables_as_built(f, addrs, N_PROBES);
	assert_non_null(s->fwd_standby);
	/* most were made in place */
	assert_true(in_place > 1000);
}

/*
 * A change that the standby cannot take in place (tbl8 groups used up
 * by /32s in distinct /24s) builds a table whole; without memory for it,
 * it fails with -ENOMEM, and the routes, their index and both tables are
 * as they were. With memory back, the same change succeeds (the new
 * table is bigger).
 */
static void
test_failure_leaves_state_whole(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	static uint32_t addrs[N_PROBES];
	const struct lsk_fwd_table *fwd, *standby;
	unsigned int i, n_routes;
	uint64_t seed = 7;
	uint32_t prefix = 0;
	int rc = 0;

	random_probes(addrs, N_PROBES, &seed);
	/* one change made alone gives the stack its standby */
	unit_cmd(f, "route add 10.30.0.0/16 via 10.0.0.1");
	assert_non_null(s->fwd_standby);
	unit_eat_memory();
	for (i = 0; i < 4096; i++) {
		prefix = UNIT_IPV4(10, 40, 0, 1) + (i << 8);
		fwd = s->sh.fwd;
		standby = s->fwd_standby;
		n_routes = s->n_routes;
		rc = API(f, lsk_route_add(s, prefix, 32, LSK_ROUTE_VIA,
					  UNIT_B_IP));
		if (rc != 0)
			break;
		/* made in place, without memory: the tables swapped */
		assert_ptr_equal(s->sh.fwd, standby);
		assert_ptr_equal(s->fwd_standby, fwd);
	}
	assert_int_equal(rc, -ENOMEM);
	assert_ptr_equal(s->sh.fwd, fwd);
	assert_ptr_equal(s->fwd_standby, standby);
	assert_int_equal(s->n_routes, n_routes);
	assert_null(lsk_route_find(s, prefix, 32));
	assert_int_equal(get(f, prefix).verdict, LSK_VERDICT_NO_ROUTE);
	/* nor a change not isolated (a route over a neighbour), nor a
	 * flush: each needs a table built whole */
	assert_int_equal(API(f, lsk_route_add(s, UNIT_A_IP, 32,
					      LSK_ROUTE_BLACKHOLE, 0)),
			 -ENOMEM);
	assert_int_equal(API(f, lsk_route_flush(s)), -ENOMEM);
	assert_ptr_equal(s->sh.fwd, fwd);
	assert_ptr_equal(s->fwd_standby, standby);
	assert_int_equal(s->n_routes, n_routes);
	unit_free_memory();
	assert_tables_as_built(f, addrs, N_PROBES);
	for (i = 0; i < n_routes; i++)
		assert_ptr_equal(lsk_route_find(s, s->routes[i].prefix,
						s->routes[i].depth),
				 &s->routes[i]);
	/* what failed was kept nowhere: it adds now */
	assert_int_equal(API(f, lsk_route_add(s, prefix, 32, LSK_ROUTE_VIA,
					      UNIT_B_IP)), 0);
	assert_via(f, prefix, UNIT_B_IP);
	assert_int_equal(API(f, lsk_route_add(s, UNIT_A_IP, 32,
					      LSK_ROUTE_BLACKHOLE, 0)), 0);
	assert_int_equal(get(f, UNIT_A_IP).verdict, LSK_VERDICT_BLACKHOLE);
	assert_tables_as_built(f, addrs, N_PROBES);
}

/* 100k routes in a batch; then dels and adds one at a time, in place. */
static void
test_100k_routes(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	static uint32_t addrs[N_PROBES];
	uint64_t seed = 99;
	unsigned int i, in_place = 0;

	random_probes(addrs, N_PROBES, &seed);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_config_begin(s), 0);
	for (i = 0; i < 100000; i++)
		assert_int_equal(lsk_route_add(s, UNIT_IPV4(11, 0, 0, 0) +
					       (i << 8), 24, LSK_ROUTE_VIA,
					       i % 2 ? UNIT_A_IP : UNIT_B_IP),
				 0);
	assert_int_equal(lsk_config_commit(s), 0);
	unit_worker_sync(f);
	assert_int_equal(s->n_routes, 100001);
	/* a table this big has its standby from the start */
	assert_non_null(s->fwd_standby);
	for (i = 0; i < N_PROBES; i++)
		if (i % 2)
			addrs[i] = UNIT_IPV4(11, 0, 0, 0) +
				   (uint32_t)(unit_rand(&seed) % (100000 << 8));
	assert_tables_as_built(f, addrs, N_PROBES);
	for (i = 0; i < 2000; i++) {
		const struct lsk_fwd_table *standby = s->fwd_standby;
		uint32_t p = UNIT_IPV4(11, 0, 0, 0) +
			     ((uint32_t)(unit_rand(&seed) % 100000) << 8);

		if (lsk_route_find(s, p, 24) != NULL)
			assert_int_equal(API(f, lsk_route_del(s, p, 24)), 0);
		else
			assert_int_equal(API(f, lsk_route_add(s, p, 24,
				LSK_ROUTE_BLACKHOLE, 0)), 0);
		in_place += s->sh.fwd == standby;
	}
	assert_int_equal(in_place, 2000);
	assert_tables_as_built(f, addrs, N_PROBES);
	assert_true(API(f, lsk_route_flush(s)) > 90000);
	assert_int_equal(get(f, UNIT_IPV4(11, 0, 5, 1)).verdict,
			 LSK_VERDICT_NO_ROUTE);
}

/* The list and its index are exactly as saved (n routes, in order). */
static void
assert_routes_are(struct lsk_stack *s, const struct lsk_route *saved,
		  unsigned int n)
{
	unsigned int i;

	assert_int_equal(s->n_routes, n);
	assert_memory_equal(s->routes, saved, n * sizeof(*saved));
	for (i = 0; i < n; i++)
		assert_ptr_equal(lsk_route_find(s, saved[i].prefix,
						saved[i].depth),
				 &s->routes[i]);
}

/* Random adds, replaces and dels in a batch, a flush among them. */
static void
batch_churn(struct lsk_stack *s, uint64_t *seed, unsigned int n, bool flush)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		enum lsk_route_type type;
		uint32_t prefix, gw;
		uint8_t depth;

		random_route(seed, &prefix, &depth, &type, &gw);
		if (flush && i == n / 2)
			assert_true(lsk_route_flush(s) >= 0);
		else if (i % 3 == 2 && s->n_routes != 0)
			assert_int_equal(lsk_route_del(s,
				s->routes[i % s->n_routes].prefix,
				s->routes[i % s->n_routes].depth), 0);
		else if (i % 3 == 1)
			lsk_route_replace(s, prefix, depth, type, gw);
		else
			lsk_route_add(s, prefix, depth, type, gw);
	}
}

/*
 * A batch refused (lsk_config_abort), or whose table cannot be built,
 * puts the list back by undoing its changes: the same routes in the same
 * places, each found by the index, whatever the batch did (adds,
 * replaces, dels, a flush and adds over it).
 */
static void
test_batch_undone(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stack *s = f->stack;
	static struct lsk_route saved[2048];
	static uint32_t addrs[N_PROBES];
	uint64_t seed = 5;
	unsigned int n, round;

	random_probes(addrs, N_PROBES, &seed);
	lsk_worker_offline(f->worker);
	batch_churn(s, &seed, 1200, false);
	n = s->n_routes;
	assert_true(n > 100 && n <= RTE_DIM(saved));
	memcpy(saved, s->routes, n * sizeof(*saved));
	for (round = 0; round < 4; round++) {
		assert_int_equal(lsk_config_begin(s), 0);
		batch_churn(s, &seed, 500, round % 2 == 1);
		if (round < 2) {
			lsk_config_abort(s);
		} else {
			/* a commit that builds whole (a flush, or more
			 * changes than it makes in place) without memory */
			unit_eat_memory();
			assert_int_equal(lsk_config_commit(s), -ENOMEM);
			unit_free_memory();
		}
		assert_routes_are(s, saved, n);
	}
	unit_worker_sync(f);
	assert_tables_as_built(f, addrs, N_PROBES);
	/* and the batch, committed, is there */
	assert_int_equal(lsk_config_begin(s), 0);
	batch_churn(s, &seed, 500, true);
	n = s->n_routes;
	memcpy(saved, s->routes, n * sizeof(*saved));
	assert_int_equal(lsk_config_commit(s), 0);
	unit_worker_sync(f);
	assert_routes_are(s, saved, n);
	assert_tables_as_built(f, addrs, N_PROBES);
}

/* The commands: route replace, del with its target, get, flush, and the
 * view show routes, as text and JSON. */
static void
test_commands(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_out o;
	static const char cmds[] =
		"route replace 10.9.0.0/16 via 10.0.0.1\n"
		"route add 10.66.0.0/16 blackhole\n"
		"route get 10.9.3.3\n";

	lsk_worker_offline(f->worker);
	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, cmds, strlen(cmds), "t",
					 &o), 0);
	/* in the batch, what the workers do until its commit */
	assert_string_equal(o.buf, "10.9.3.3 via 10.0.1.1 dev port1 src "
			    "10.0.1.254 mtu 1500 prefix 10.9.0.0/16 route "
			    "neigh static lladdr 02:00:00:00:01:01\n");
	lsk_out_free(&o);
	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "route get 10.9.3.3", 18,
					 "t", &o), 0);
	assert_string_equal(o.buf, "10.9.3.3 via 10.0.0.1 dev port0 src "
			    "10.0.0.254 mtu 1500 prefix 10.9.0.0/16 route "
			    "neigh static lladdr 02:00:00:00:00:01\n");
	lsk_out_free(&o);

	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "route del 10.66.0.0/16 "
					 "via 10.0.0.1", 35, "t", &o), -ENOENT);
	assert_non_null(strstr(o.err, "route 10.66.0.0/16 is blackhole, not "
			       "via 10.0.0.1"));
	lsk_out_free(&o);
	/* the error names the gateway the route has (issue 22) */
	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "route del 10.9.0.0/16 "
					 "via 10.0.1.1", 34, "t", &o), -ENOENT);
	assert_non_null(strstr(o.err, "route 10.9.0.0/16 is via 10.0.0.1, "
			       "not 10.0.1.1"));
	lsk_out_free(&o);
	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "route del 10.9.0.0/16 "
					 "blackhole", 31, "t", &o), -ENOENT);
	assert_non_null(strstr(o.err, "route 10.9.0.0/16 is via 10.0.0.1, "
			       "not blackhole"));
	assert_int_equal(lsk_route_show(f->stack, &o, NULL), 0);
	assert_non_null(strstr(o.buf, "destination"));
	assert_non_null(strstr(o.buf, "10.0.0.0/24         connected  -  "));
	assert_non_null(strstr(o.buf, "10.0.0.254/32       local      -  "));
	assert_non_null(strstr(o.buf, "10.9.0.0/16         via        "
			       "10.0.0.1         port0\n"));
	assert_non_null(strstr(o.buf, "10.66.0.0/16        blackhole  -"));
	lsk_out_free(&o);

	lsk_out_init(&o, true);
	assert_int_equal(lsk_route_show(f->stack, &o, "10.9.0.0/16"), 0);
	assert_string_equal(o.buf, "[{\"dst\":\"10.9.0.0/16\",\"type\":\"via\","
			    "\"gateway\":\"10.0.0.1\",\"dev\":\"port0\"}]\n");
	assert_int_equal(lsk_route_show(f->stack, &o, "10.9.0.1/16"),
			 -EINVAL);
	lsk_out_free(&o);

	lsk_out_init(&o, true);
	assert_int_equal(lsk_command_run(f->stack, "route get 10.66.1.1", 19,
					 "t", &o), 0);
	assert_non_null(strstr(o.buf, "\"verdict\":\"blackhole\""));
	lsk_out_free(&o);

	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "route flush", 11, "t",
					 &o), 0);
	assert_int_equal(f->stack->n_routes, 0);
	assert_int_equal(lsk_command_run(f->stack, "route get 1.2.3", 15, "t",
					 &o), -EINVAL);
	assert_int_equal(lsk_command_run(f->stack, "route frob 1.2.3.0/24", 21,
					 "t", &o), -EINVAL);
	lsk_out_free(&o);
	unit_worker_sync(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_errors_as_linux),
		T(test_replace_del_flush),
		T(test_get_verdicts),
		T(test_in_place_matches_build),
		T(test_failure_leaves_state_whole),
		T(test_100k_routes),
		T(test_batch_undone),
		T(test_commands),
	};

	return cmocka_run_group_tests_name("route_table", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
