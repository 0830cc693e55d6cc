/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd6_update: IPv6 route changes made in place (control/fwd6_update.c),
 * as IPv4's (test_route_table's standby cases): a change seen by a
 * lookup once published, made to the standby and then to the table it
 * replaced (the two take turns), both tables looking up what a table
 * built whole looks up, ECMP groups too; a change that cannot be made in place undone in
 * the standby and, without memory for a build, refused with the
 * published table whole; a batch's route deltas; learned runs, a dump
 * and its sweep.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_fib6.h>

#include "stack6_fix.h"

#define PROTO_BGP 186
#define N_PROBES 4000

static const char *const gateways[] = {
	"2001:db8:0:1::7", "2001:db8:0:2::7", "2001:db8:0:1::9",
};

/* Probes: random in 2001:db8:1000::/36, where the routes are (their
 * depths 32 to 128 cut it every way), and the connected prefixes. */
static void
random_probes(struct lsk_ip6_addr *p, unsigned int n, uint64_t *seed)
{
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		p[i] = a6(i % 8 ? "2001:db8:1000::" : "2001:db8:0:1::");
		for (k = 4; k < 16; k++)
			p[i].a[k] ^= (uint8_t)unit_rand(seed) &
				     (k == 4 ? 0x0f : 0xff);
		if (i % 8 == 0)
			memcpy(&p[i].a[4], "\0\0\0\x01", 4);
		/* a few at the start of a prefix a route names */
		if (i % 5 == 1)
			memset(&p[i].a[8], 0, 8);
	}
}

/* Both tables of the stack look up what one built whole now does. */
static void
assert_tables_as_built(struct lsk_stack *s, const struct lsk_ip6_addr *p,
		       unsigned int n)
{
	struct lsk_fwd6_table *t;
	unsigned int i;

	assert_int_equal(lsk_fwd6_table_build(s, &t), 0);
	for (i = 0; i < n; i++) {
		const struct lsk_nexthop6 *want = lookup6_in(t, &p[i]);

		assert_memory_equal(lookup6_in(s->sh.fwd6, &p[i]), want,
				    sizeof(*want));
		if (s->fwd6_standby != NULL)
			assert_memory_equal(lookup6_in(s->fwd6_standby, &p[i]),
					    want, sizeof(*want));
	}
	lsk_fwd6_table_free(t);
}

/* A random route in 2001:db8:1000::/36: depths 32 to 128. */
static void
random_route(uint64_t *seed, struct lsk_ip6_addr *prefix, uint8_t *depth,
	     enum lsk_route_type *type, struct lsk_ip6_addr *gw)
{
	uint64_t r = unit_rand(seed);
	struct lsk_ip6_addr p = a6("2001:db8:1000::");
	unsigned int k;

	*depth = (uint8_t)(36 + r % 93);
	/* few distinct bits, so that routes nest and repeat */
	for (k = 4; k < 16; k++)
		p.a[k] ^= (uint8_t)((r >> (8 + k)) & (k == 4 ? 0x03 : 0x01));
	lsk_ip6_mask(&p, *depth, prefix);
	*type = (r >> 40) % 6 == 0 ? LSK_ROUTE_BLACKHOLE : LSK_ROUTE_VIA;
	*gw = a6(gateways[(r >> 50) % RTE_DIM(gateways)]);
}

static int
setup(void **state)
{
	return stack6_setup(state, "fu6");
}

static int
teardown(void **state)
{
	lsk_stack_destroy(*state);
	return 0;
}

static int
add(struct lsk_stack *s, const char *prefix, uint8_t depth, const char *gw)
{
	struct lsk_ip6_addr p = a6(prefix), g;

	if (gw == NULL)
		return lsk_route6_add(s, &p, depth, LSK_ROUTE_BLACKHOLE, NULL,
				      LSK_IFACE_ANY);
	g = a6(gw);
	return lsk_route6_add(s, &p, depth, LSK_ROUTE_VIA, &g, LSK_IFACE_ANY);
}

static int
del(struct lsk_stack *s, const char *prefix, uint8_t depth)
{
	struct lsk_ip6_addr p = a6(prefix);

	return lsk_route6_del(s, &p, depth);
}

/*
 * The first change made alone builds whole and keeps a standby; the
 * next ones are made to it, published (it becomes the table the workers
 * read), and made to the table it replaced (the new standby). A change
 * over one of our /128s or a connected prefix is not made in place.
 */
static void
test_change_seen_after_publish(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *fwd, *standby;
	struct lsk_ip6_addr probes[64];
	uint64_t seed = 3;

	random_probes(probes, RTE_DIM(probes), &seed);
	assert_null(s->fwd6_standby);
	assert_int_equal(add(s, "2001:db8:1000::", 36, gateways[0]), 0);
	assert_non_null(s->fwd6_standby);
	assert_ptr_not_equal(s->fwd6_standby, s->sh.fwd6);
	assert_via(s, "2001:db8:1000::5", gateways[0]);

	fwd = s->sh.fwd6;
	standby = s->fwd6_standby;
	assert_int_equal(add(s, "2001:db8:1000:5::", 64, gateways[1]), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_ptr_equal(s->fwd6_standby, fwd);
	assert_via(s, "2001:db8:1000:5::1", gateways[1]);
	assert_via(s, "2001:db8:1000:6::1", gateways[0]);
	assert_tables_as_built(s, probes, RTE_DIM(probes));

	/* replaced, then deleted: in place each time */
	fwd = s->sh.fwd6;
	standby = s->fwd6_standby;
	{
		struct lsk_ip6_addr p = a6("2001:db8:1000:5::");
		struct lsk_ip6_addr g = a6(gateways[2]);

		assert_int_equal(lsk_route6_replace(s, &p, 64, LSK_ROUTE_VIA,
						    &g, LSK_IFACE_ANY), 0);
	}
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_via(s, "2001:db8:1000:5::1", gateways[2]);
	assert_int_equal(del(s, "2001:db8:1000:5::", 64), 0);
	assert_ptr_equal(s->sh.fwd6, fwd);
	assert_via(s, "2001:db8:1000:5::1", gateways[0]);
	assert_tables_as_built(s, probes, RTE_DIM(probes));

	/* over our own address: built whole, ours still */
	standby = s->fwd6_standby;
	assert_int_equal(add(s, "2001:db8:0:1::1", 128, NULL), 0);
	assert_ptr_not_equal(s->sh.fwd6, standby);
	{
		struct lsk_ip6_addr d = a6("2001:db8:0:1::1");

		assert_int_equal(lookup6_in(s->sh.fwd6, &d)->type,
				 LSK_NH_LOCAL);
		assert_int_equal(lookup6_in(s->fwd6_standby, &d)->type,
				 LSK_NH_LOCAL);
	}
	assert_tables_as_built(s, probes, RTE_DIM(probes));
}

/* The group a and b give for d: the same members and buckets, by the
 * next hops they name (each table numbers its next hops its own way). */
static void
assert_group_same(const struct lsk_fwd6_table *a,
		  const struct lsk_fwd6_table *b, const struct lsk_ip6_addr *d)
{
	const struct lsk_nexthop6 *ga = lookup6_in(a, d), *gb = lookup6_in(b, d);
	unsigned int i;

	assert_int_equal(gb->type, LSK_NH_GROUP);
	assert_int_equal(ga->n_members, gb->n_members);
	assert_int_equal(ga->n_buckets, gb->n_buckets);
	/* members, then buckets: next hop indexes all */
	for (i = 0; i < (unsigned int)ga->n_members + ga->n_buckets; i++) {
		uint16_t ia = a->group_words[ga->group + i];
		uint16_t ib = b->group_words[gb->group + i];

		assert_true(ia < a->n_nexthops && ib < b->n_nexthops);
		assert_memory_equal(&a->nexthops[ia], &b->nexthops[ib],
				    sizeof(a->nexthops[ia]));
	}
}

/*
 * A route of several paths made in place: its group's words appended to
 * the standby's own array, then to the table it replaced; both tables
 * give the group a table built whole gives. Deleted, in place too.
 */
static void
test_group_in_place(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_path paths[2] = {
		{ .gateway = a6(gateways[0]), .iface = LSK_IFACE_ANY,
		  .weight = 1 },
		{ .gateway = a6(gateways[1]), .iface = LSK_IFACE_ANY,
		  .weight = 3 },
	};
	struct lsk_ip6_addr p = a6("2001:db8:1000:9::"), probes[64];
	const struct lsk_fwd6_table *fwd, *standby;
	uint64_t seed = 13;

	random_probes(probes, RTE_DIM(probes), &seed);
	probes[0] = p;
	assert_int_equal(add(s, "2001:db8:1000::", 36, gateways[0]), 0);
	fwd = s->sh.fwd6;
	standby = s->fwd6_standby;
	assert_non_null(standby);
	assert_int_equal(standby->n_group_words, 0);
	assert_int_equal(lsk_route6_add_paths(s, &p, 64, paths, 2), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_ptr_equal(s->fwd6_standby, fwd);
	assert_int_equal(lookup6_in(s->sh.fwd6, &p)->type, LSK_NH_GROUP);
	assert_int_equal(lookup6_in(s->sh.fwd6, &p)->n_members, 2);
	assert_true(s->sh.fwd6->n_group_words > 0);
	/* the same group in the other table */
	assert_group_same(s->sh.fwd6, s->fwd6_standby, &p);
	assert_tables_as_built(s, probes, RTE_DIM(probes));
	standby = s->fwd6_standby;
	assert_int_equal(del(s, "2001:db8:1000:9::", 64), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_via(s, "2001:db8:1000:9::1", gateways[0]);
	assert_tables_as_built(s, probes, RTE_DIM(probes));
}

/*
 * Random adds, replaces and dels, one at a time: after every fifty, both
 * tables look up what a table built whole looks up; most were made in
 * place (the two tables take turns).
 */
static void
test_in_place_matches_build(void **state)
{
	struct lsk_stack *s = *state;
	static struct lsk_ip6_addr probes[N_PROBES];
	uint64_t seed = 42;
	unsigned int i, in_place = 0;

	random_probes(probes, N_PROBES, &seed);
	for (i = 0; i < 1500; i++) {
		const struct lsk_fwd6_table *before = s->fwd6_standby;
		struct lsk_ip6_addr prefix, gw;
		enum lsk_route_type type;
		uint8_t depth;
		int rc;

		random_route(&seed, &prefix, &depth, &type, &gw);
		switch (i % 3) {
		case 0:
			rc = lsk_route6_add(s, &prefix, depth, type, &gw,
					    LSK_IFACE_ANY);
			assert_true(rc == 0 || rc == -EEXIST);
			break;
		case 1:
			rc = lsk_route6_replace(s, &prefix, depth, type, &gw,
						LSK_IFACE_ANY);
			assert_int_equal(rc, 0);
			break;
		default:
			if (s->n_routes6 == 0)
				continue;
			prefix = s->routes6[unit_rand(&seed) %
					    s->n_routes6].prefix;
			depth = 0;	/* found below */
			{
				unsigned int k;

				for (k = 0; k < s->n_routes6; k++)
					if (lsk_ip6_equal(&s->routes6[k].prefix,
							  &prefix))
						depth = s->routes6[k].depth;
			}
			rc = lsk_route6_del(s, &prefix, depth);
			assert_int_equal(rc, 0);
			break;
		}
		if (rc == 0 && before != NULL && s->sh.fwd6 == before)
			in_place++;
		if (i % 50 == 49)
			assert_tables_as_built(s, probes, N_PROBES);
	}
	assert_tables_as_built(s, probes, N_PROBES);
	assert_non_null(s->fwd6_standby);
	assert_true(in_place > 1000);
}

/*
 * /128s in distinct /64s reserve 13 tbl8 groups each: the standby's
 * reserve runs out, the change that does not fit is undone in it and a
 * table is built whole, bigger. Without memory for that build the
 * change is refused with -ENOMEM: the routes, the published table and
 * the standby as they were (the standby undone: it still looks up what
 * the published one does). With memory back, the same change is made.
 */
static void
test_failure_leaves_state_whole(void **state)
{
	struct lsk_stack *s = *state;
	static struct lsk_ip6_addr probes[N_PROBES];
	const struct lsk_fwd6_table *fwd, *standby;
	struct lsk_ip6_addr g = a6(gateways[1]), p = a6("2001:db8:1000::1");
	struct lsk_ip6_addr g0;
	unsigned int i, n_routes;
	uint64_t seed = 7;
	int rc = 0;

	random_probes(probes, N_PROBES, &seed);
	assert_int_equal(add(s, "2001:db8:1000::", 36, gateways[0]), 0);
	assert_non_null(s->fwd6_standby);
	unit_eat_memory();
	for (i = 0; i < 20000; i++) {
		p.a[6] = (uint8_t)(i >> 8);
		p.a[7] = (uint8_t)i;
		fwd = s->sh.fwd6;
		standby = s->fwd6_standby;
		n_routes = s->n_routes6;
		rc = lsk_route6_add(s, &p, 128, LSK_ROUTE_VIA, &g,
				    LSK_IFACE_ANY);
		if (rc != 0)
			break;
		/* made in place, without memory: the tables swapped */
		assert_ptr_equal(s->sh.fwd6, standby);
		assert_ptr_equal(s->fwd6_standby, fwd);
	}
	assert_true(i > 100);
	assert_int_equal(rc, -ENOMEM);
	assert_ptr_equal(s->sh.fwd6, fwd);
	assert_ptr_equal(s->fwd6_standby, standby);
	assert_int_equal(s->n_routes6, n_routes);
	assert_null(lsk_route6_find(s, &p, 128));
	assert_non_null(lookup6_in(s->sh.fwd6, &p));
	assert_int_equal(lookup6_in(s->sh.fwd6, &p)->type, LSK_NH_FORWARD);
	g0 = a6(gateways[0]);
	assert_memory_equal(&lookup6_in(s->sh.fwd6, &p)->gateway, &g0, 16);
	unit_free_memory();
	assert_tables_as_built(s, probes, N_PROBES);
	/* what failed was kept nowhere: it adds now, in a bigger table */
	assert_int_equal(lsk_route6_add(s, &p, 128, LSK_ROUTE_VIA, &g,
					LSK_IFACE_ANY), 0);
	assert_memory_equal(&lookup6_in(s->sh.fwd6, &p)->gateway, &g, 16);
	assert_non_null(s->fwd6_standby);
	assert_tables_as_built(s, probes, N_PROBES);
}

/* r: a route learned from BGP to base with i in its bytes at and after
 * byte k, of depth, via gw. */
static void
learned(struct lsk_route6_learned *r, const char *base, unsigned int k,
	unsigned int i, uint8_t depth, const char *gw)
{
	memset(r, 0, sizeof(*r));
	r->prefix = a6(base);
	r->prefix.a[k] |= (uint8_t)(i >> 8);
	r->prefix.a[k + 1] |= (uint8_t)i;
	r->depth = depth;
	r->type = LSK_ROUTE_VIA;
	r->proto = PROTO_BGP;
	r->n_paths = 1;
	r->paths[0].gateway = a6(gw);
	r->paths[0].iface = LSK_IFACE_ANY;
}

/*
 * A learned run of several deltas the standby takes only in part (its
 * reserve runs out midway): the part made is undone, and without memory
 * for a build the run is refused and the store put back; with memory it
 * is built whole.
 */
static void
test_run_undone_in_standby(void **state)
{
	struct lsk_stack *s = *state;
	static struct lsk_ip6_addr probes[N_PROBES];
	static struct lsk_route6_learned r[1000];
	const struct lsk_fwd6_table *fwd, *standby;
	uint64_t seed = 11;
	unsigned int i;

	random_probes(probes, N_PROBES, &seed);
	assert_int_equal(add(s, "2001:db8:1000::", 36, gateways[0]), 0);
	for (i = 0; i < 1000; i++)
		learned(&r[i], "2001:db8:1000::1", 6, i, 128, gateways[1]);
	/* the store's room first (its index is EAL memory): withdrawals
	 * of routes it has not, all skipped, no table changed */
	for (i = 0; i < 1000; i++)
		r[i].withdraw = 1;
	assert_int_equal(lsk_route6_learn(s, r, 1000), 1000);
	for (i = 0; i < 1000; i++)
		r[i].withdraw = 0;
	fwd = s->sh.fwd6;
	standby = s->fwd6_standby;
	assert_non_null(standby);
	unit_eat_memory();
	assert_int_equal(lsk_route6_learn(s, r, 1000), -ENOMEM);
	assert_ptr_equal(s->sh.fwd6, fwd);
	assert_ptr_equal(s->fwd6_standby, standby);
	assert_int_equal(s->n_learned6, 0);
	unit_free_memory();
	assert_tables_as_built(s, probes, N_PROBES);
	assert_int_equal(lsk_route6_learn(s, r, 1000), 0);
	assert_int_equal(s->n_learned6, 1000);
	assert_memory_equal(&lookup6_in(s->sh.fwd6, &r[999].prefix)->gateway,
			    &r[0].paths[0].gateway, 16);
	assert_tables_as_built(s, probes, N_PROBES);
}

/* The batch's commit built the table whole (it is not the standby
 * before it), in which dst goes via the first gateway. */
static void
commit_built_whole(struct lsk_stack *s, const struct lsk_fwd6_table *standby,
		   const char *dst, const struct lsk_ip6_addr *probes,
		   unsigned int n)
{
	assert_int_equal(lsk_config_commit(s), 0);
	assert_ptr_not_equal(s->sh.fwd6, standby);
	assert_via(s, dst, gateways[0]);
	assert_tables_as_built(s, probes, n);
}

/*
 * A batch of a few IPv6 route changes is made in place at its commit;
 * one with IPv4's routes changed too, or one past the log's size, is
 * built whole; either way the table is the batch's.
 */
static void
test_batch_deltas(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_ip6_addr probes[256];
	const struct lsk_fwd6_table *standby;
	uint64_t seed = 5;
	unsigned int i;
	char p[64];

	random_probes(probes, RTE_DIM(probes), &seed);
	assert_int_equal(add(s, "2001:db8:1000::", 36, gateways[0]), 0);
	standby = s->fwd6_standby;
	assert_non_null(standby);
	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(add(s, "2001:db8:1000:1::", 64, gateways[1]), 0);
	assert_int_equal(add(s, "2001:db8:1000:2::", 64, NULL), 0);
	assert_int_equal(del(s, "2001:db8:1000:2::", 64), 0);
	assert_int_equal(add(s, "2001:db8:1000:3::", 64, gateways[2]), 0);
	/* nothing published before the commit */
	assert_via(s, "2001:db8:1000:1::1", gateways[0]);
	assert_int_equal(lsk_config_commit(s), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_via(s, "2001:db8:1000:1::1", gateways[1]);
	assert_via(s, "2001:db8:1000:2::1", gateways[0]);
	assert_via(s, "2001:db8:1000:3::1", gateways[2]);
	assert_tables_as_built(s, probes, RTE_DIM(probes));

	/* both families: built whole */
	standby = s->fwd6_standby;
	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(del(s, "2001:db8:1000:3::", 64), 0);
	assert_int_equal(lsk_route_add(s, UNIT_IPV4(10, 50, 0, 0), 16,
				       LSK_ROUTE_BLACKHOLE, 0), 0);
	commit_built_whole(s, standby, "2001:db8:1000:3::1", probes,
			   RTE_DIM(probes));

	/* past the log: built whole */
	standby = s->fwd6_standby;
	assert_int_equal(lsk_config_begin(s), 0);
	for (i = 0; i < LSK_ROUTE_LOG_MAX + 1; i++) {
		snprintf(p, sizeof(p), "2001:db8:1000:%x::", 0x100 + i);
		assert_int_equal(add(s, p, 64, gateways[i % 2]), 0);
	}
	commit_built_whole(s, standby, "2001:db8:1000:140::1", probes,
			   RTE_DIM(probes));

	/* aborted: nothing changed, the log gone */
	standby = s->fwd6_standby;
	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(add(s, "2001:db8:1000:7::", 64, gateways[1]), 0);
	lsk_config_abort(s);
	assert_int_equal(s->n_route6_log, 0);
	assert_int_equal(add(s, "2001:db8:1000:8::", 64, gateways[1]), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_via(s, "2001:db8:1000:7::1", gateways[0]);
	assert_tables_as_built(s, probes, RTE_DIM(probes));
}

/*
 * Learned runs are made in place, a configured route in front of a
 * learned one and the learned one back when it goes too; a dump that
 * repeats 9 in 10 and its sweep withdraw the rest in place.
 */
static void
test_learned_dump_sweep(void **state)
{
	struct lsk_stack *s = *state;
	static struct lsk_ip6_addr probes[N_PROBES];
	struct lsk_route6_learned *r = calloc(1000, sizeof(*r));
	const struct lsk_fwd6_table *standby;
	uint64_t seed = 9;
	unsigned int i, k;

	assert_non_null(r);
	random_probes(probes, N_PROBES, &seed);
	for (i = 0; i < 1000; i++)
		learned(&r[i], "2001:db8:1000::", 4, i, 48, gateways[i % 2]);
	assert_int_equal(lsk_route6_learn(s, r, 500), 0);
	assert_non_null(s->fwd6_standby);
	standby = s->fwd6_standby;
	assert_int_equal(lsk_route6_learn(s, r + 500, 500), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_tables_as_built(s, probes, N_PROBES);

	/* a configured route in front, then gone: in place both ways */
	standby = s->fwd6_standby;
	assert_int_equal(lsk_route6_add(s, &r[3].prefix, 48,
					LSK_ROUTE_BLACKHOLE, NULL,
					LSK_IFACE_ANY), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_int_equal(lookup6_in(s->sh.fwd6, &r[3].prefix)->type,
			 LSK_NH_BLACKHOLE);
	standby = s->fwd6_standby;
	assert_int_equal(lsk_route6_del(s, &r[3].prefix, 48), 0);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_memory_equal(&lookup6_in(s->sh.fwd6, &r[3].prefix)->gateway,
			    &r[3].paths[0].gateway, 16);

	/* a dump repeating all but every tenth, and its sweep */
	lsk_route_learn_begin_dump(s);
	for (i = 0, k = 0; i < 1000; i++)
		if (i % 10 != 0)
			r[k++] = r[i];
	assert_int_equal(lsk_route6_learn(s, r, k), 0);
	standby = s->fwd6_standby;
	assert_int_equal(lsk_route_learn_sweep(s), 100);
	assert_ptr_equal(s->sh.fwd6, standby);
	assert_int_equal(s->n_learned6, 900);
	{
		struct lsk_ip6_addr gone = a6("2001:db8:1000::");

		gone.a[4] = 0x10;
		gone.a[5] = 10;
		assert_int_equal(lookup6_in(s->sh.fwd6, &gone)->type,
				 LSK_NH_NONE);
	}
	assert_tables_as_built(s, probes, N_PROBES);
	assert_int_equal(lsk_route_learn_flush(s), 900);
	assert_tables_as_built(s, probes, N_PROBES);
	free(r);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_change_seen_after_publish),
		T(test_group_in_place),
		T(test_in_place_matches_build),
		T(test_failure_leaves_state_whole),
		T(test_run_undone_in_standby),
		T(test_batch_deltas),
		T(test_learned_dump_sweep),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
