/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP groups in the IPv6 table (control/fwd6_table.c, fwd_group.c):
 * lsk_route6_add_paths and _replace_paths with IPv4's errors (nothing
 * changed by a refusal); the group's buckets by weight; paths that are
 * one next hop merged, one left being that next hop; a group shared by
 * the routes of the same paths; a learned route (lsk_route6_learn) keeps
 * every path, a repeat of it changes nothing, a change of weight does.
 */
#include <errno.h>
#include <string.h>

#include "stack6_fix.h"

static const struct lsk_nexthop6 *
lookup(const struct lsk_stack *s, const char *dst)
{
	struct lsk_ip6_addr d = a6(dst);

	return lookup6_in(s->sh.fwd6, &d);
}

static struct lsk_route6_path
path(const char *gw, uint16_t iface, uint16_t weight)
{
	return (struct lsk_route6_path){ .gateway = a6(gw), .iface = iface,
					 .weight = weight };
}

static int
paths_set(struct lsk_stack *s, bool replace, const char *prefix,
	  uint8_t depth, const struct lsk_route6_path *p, unsigned int n)
{
	struct lsk_ip6_addr pfx = a6(prefix);

	return (replace ? lsk_route6_replace_paths : lsk_route6_add_paths)(s,
		&pfx, depth, p, n);
}

static int
setup(void **state)
{
	return stack6_setup(state, "fwd6g");
}

static int
teardown(void **state)
{
	lsk_stack_destroy(*state);
	return 0;
}

/* How many of g's buckets are member nh. */
static unsigned int
buckets_of(const struct lsk_fwd6_table *t, const struct lsk_nexthop6 *g,
	   uint32_t nh)
{
	const uint16_t *b = &t->group_words[g->group + g->n_members];
	unsigned int i, k = 0;

	for (i = 0; i < g->n_buckets; i++)
		k += b[i] == nh;
	return k;
}

static void
test_weights(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_path p[3] = {
		path("2001:db8:0:1::2", LSK_IFACE_ANY, 1),
		path("2001:db8:0:2::2", LSK_IFACE_ANY, 3),
		path("fe80::9", 1, 0),	/* 0 taken as 1 */
	};
	const struct lsk_fwd6_table *t;
	const struct lsk_nexthop6 *g;
	const uint16_t *m;

	assert_int_equal(paths_set(s, false, "2001:db8:9::", 48, p, 3), 0);
	t = s->sh.fwd6;
	g = lookup(s, "2001:db8:9::1");
	assert_int_equal(g->type, LSK_NH_GROUP);
	assert_int_equal(g->n_members, 3);
	assert_int_equal(g->n_buckets, 5);
	m = &t->group_words[g->group];
	assert_int_equal(t->nexthops[m[0]].iface, 0);
	assert_int_equal(t->nexthops[m[1]].iface, 1);
	assert_int_equal(t->nexthops[m[2]].gateway.a[15], 9);
	assert_int_equal(buckets_of(t, g, m[0]), 1);
	assert_int_equal(buckets_of(t, g, m[1]), 3);
	assert_int_equal(buckets_of(t, g, m[2]), 1);
	/* the same paths elsewhere: the same group next hop */
	assert_int_equal(paths_set(s, false, "2001:db8:a::", 48, p, 3), 0);
	assert_ptr_equal(lookup(s, "2001:db8:a::1"),
			 lookup(s, "2001:db8:9::1"));
	/* replace by weights 2:2 (gcd: 1:1, two buckets) */
	p[0].weight = 2;
	p[1].weight = 2;
	assert_int_equal(paths_set(s, true, "2001:db8:9::", 48, p, 2), 0);
	g = lookup(s, "2001:db8:9::1");
	assert_int_equal(g->type, LSK_NH_GROUP);
	assert_int_equal(g->n_members, 2);
	assert_int_equal(g->n_buckets, 2);
	assert_int_equal(s->routes6[0].n_paths, 2);
}

/* Two paths that are one next hop (the gateway by its prefix and by
 * its port) are that next hop, no group. */
static void
test_one_member_left(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_path p[2] = {
		path("2001:db8:0:2::2", LSK_IFACE_ANY, 1),
		path("2001:db8:0:2::2", 1, 1),
	};
	const struct lsk_nexthop6 *nh;

	assert_int_equal(paths_set(s, false, "2001:db8:9::", 48, p, 2), 0);
	nh = lookup(s, "2001:db8:9::1");
	assert_int_equal(nh->type, LSK_NH_FORWARD);
	assert_int_equal(nh->iface, 1);
	assert_int_equal(s->sh.fwd6->n_group_words, 0);
}

static void
test_refusals(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_path p[LSK_ROUTE_MAX_PATHS + 1];
	const struct lsk_fwd6_table *before;
	unsigned int i;

	for (i = 0; i <= LSK_ROUTE_MAX_PATHS; i++) {
		char gw[32];

		snprintf(gw, sizeof(gw), "2001:db8:0:1::%x", i + 2);
		p[i] = path(gw, LSK_IFACE_ANY, 1);
	}
	assert_int_equal(paths_set(s, false, "2001:db8:9::", 48, p, 2), 0);
	before = s->sh.fwd6;
	assert_int_equal(paths_set(s, false, "2001:db8:8::", 48, p, 0),
			 -EINVAL);
	assert_int_equal(paths_set(s, false, "2001:db8:8::", 48, p,
				   LSK_ROUTE_MAX_PATHS + 1), -EINVAL);
	assert_int_equal(paths_set(s, false, "2001:db8:8::", 48, NULL, 1),
			 -EINVAL);
	p[1] = p[0];	/* a path twice */
	assert_int_equal(paths_set(s, false, "2001:db8:8::", 48, p, 2),
			 -EINVAL);
	p[1] = path("2001:db8:0:2::2", LSK_IFACE_ANY, 257);
	assert_int_equal(paths_set(s, false, "2001:db8:8::", 48, p, 2),
			 -EINVAL);
	p[1] = path("2001:db8:7::2", LSK_IFACE_ANY, 1);
	assert_int_equal(paths_set(s, false, "2001:db8:8::", 48, p, 2),
			 -ENETUNREACH);
	p[1] = path("fe80::2", LSK_IFACE_ANY, 1);
	assert_int_equal(paths_set(s, false, "2001:db8:8::", 48, p, 2),
			 -EINVAL);
	p[1] = path("2001:db8:0:2::1", LSK_IFACE_ANY, 1);	/* ours */
	assert_int_equal(paths_set(s, true, "2001:db8:9::", 48, p, 2),
			 -EINVAL);
	p[1] = path("2001:db8:0:2::2", LSK_IFACE_ANY, 1);
	assert_int_equal(paths_set(s, false, "2001:db8:9::", 48, p, 2),
			 -EEXIST);
	/* none of it changed anything */
	assert_ptr_equal(s->sh.fwd6, before);
	assert_int_equal(s->n_routes6, 1);
	assert_int_equal(s->routes6[0].n_paths, 2);
	assert_true(lsk_ip6_equal(&s->routes6[0].paths[1].gateway,
				  &(struct lsk_ip6_addr){ .a = { 0x20, 1, 0x0d,
				  0xb8, 0, 0, 0, 1, [15] = 3 } }));
}

/* An address deleted takes the routes one of whose paths it reached
 * (as IPv4's). */
static void
test_address_del(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_path p[2] = {
		path("2001:db8:0:1::2", LSK_IFACE_ANY, 1),
		path("2001:db8:0:2::2", LSK_IFACE_ANY, 1),
	};
	struct lsk_ip6_addr a1 = a6("2001:db8:0:2::1");

	assert_int_equal(paths_set(s, false, "2001:db8:9::", 48, p, 2), 0);
	assert_int_equal(lsk_address6_del(s, &a1, 64, 1), 0);
	assert_int_equal(s->n_routes6, 0);
	assert_int_equal(lookup(s, "2001:db8:9::1")->type, LSK_NH_NONE);
}

static void
test_learned(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_learned r = { .prefix = a6("2001:db8:40::"),
		.depth = 48, .type = LSK_ROUTE_VIA, .proto = 188,
		.n_paths = 2 };
	const struct lsk_route6 *l;
	const struct lsk_nexthop6 *g;
	uint32_t generation;

	r.paths[0] = path("2001:db8:0:1::2", LSK_IFACE_ANY, 1);
	r.paths[1] = path("fe80::7", 1, 3);
	assert_int_equal(lsk_route6_learn(s, &r, 1), 0);
	l = lsk_learned6_find(s, &r.prefix, 48);
	assert_non_null(l);
	assert_int_equal(l->n_paths, 2);
	assert_int_equal(l->paths[1].weight, 3);
	g = lookup(s, "2001:db8:40::1");
	assert_int_equal(g->type, LSK_NH_GROUP);
	assert_int_equal(g->n_members, 2);
	assert_int_equal(g->n_buckets, 4);
	/* the same again: nothing to publish */
	generation = s->sh.fwd6->generation;
	assert_int_equal(lsk_route6_learn(s, &r, 1), 0);
	assert_int_equal(s->sh.fwd6->generation, generation);
	/* another weight: another group */
	r.paths[1].weight = 1;
	assert_int_equal(lsk_route6_learn(s, &r, 1), 0);
	g = lookup(s, "2001:db8:40::1");
	assert_int_equal(g->type, LSK_NH_GROUP);
	assert_int_equal(g->n_buckets, 2);
	/* a bad path skips the entry, the route as it was */
	r.paths[1] = r.paths[0];
	assert_int_equal(lsk_route6_learn(s, &r, 1), 1);
	assert_int_equal(lookup(s, "2001:db8:40::1")->n_buckets, 2);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_weights),
		T(test_one_member_left),
		T(test_refusals),
		T(test_address_del),
		T(test_learned),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
