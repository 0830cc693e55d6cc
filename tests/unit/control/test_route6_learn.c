/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * route6_learn: IPv6 routes a routing daemon gives (lsk_route6_learn,
 * control/route6_learn.c), as IPv4's (test_route_learn): learn, replace
 * and withdraw, entries skipped and counted, the configured route
 * standing in front of a learned one and the learned one taking its
 * place when it goes, dump and sweep and flush covering both families,
 * a run published once, -EBUSY in a batch, and a run that cannot be
 * built changing nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_fib6.h>

#include "stack6_fix.h"

#define PROTO_BGP 186
#define PROTO_OSPF 188

/* freed by the teardown, whether the test passed or not */
static void *test_free_later;

/* What the published table gives for dst. */
static const struct lsk_nexthop6 *
lookup(const struct lsk_stack *s, const char *dst)
{
	struct lsk_ip6_addr d = a6(dst);

	return lookup6_in(s->sh.fwd6, &d);
}

static struct lsk_route6_learned
via(const char *prefix, uint8_t depth, uint8_t proto, const char *gw)
{
	struct lsk_route6_learned r;

	memset(&r, 0, sizeof(r));
	r.prefix = a6(prefix);
	r.depth = depth;
	r.type = LSK_ROUTE_VIA;
	r.proto = proto;
	r.n_paths = 1;
	r.paths[0].gateway = a6(gw);
	r.paths[0].iface = LSK_IFACE_ANY;
	return r;
}

static struct lsk_route6_learned
withdraw(const char *prefix, uint8_t depth)
{
	struct lsk_route6_learned r;

	memset(&r, 0, sizeof(r));
	r.prefix = a6(prefix);
	r.depth = depth;
	r.withdraw = 1;
	return r;
}

static int
learn1(struct lsk_stack *s, struct lsk_route6_learned r)
{
	return lsk_route6_learn(s, &r, 1);
}

static int
setup(void **state)
{
	return stack6_setup(state, "lr6");
}

static int
teardown(void **state)
{
	free(test_free_later);
	test_free_later = NULL;
	lsk_stack_destroy(*state);
	return 0;
}

/* Learned, replaced (another gateway), withdrawn; the types; on-link
 * gateways with their iface; repeated unchanged: no new table. */
static void
test_learn_replace_withdraw(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_learned r[3];
	uint32_t gen;

	assert_int_equal(learn1(s, via("2001:db8:100::", 48, PROTO_BGP,
				       "2001:db8:0:2::2")), 0);
	assert_via(s, "2001:db8:100::5", "2001:db8:0:2::2");
	assert_int_equal(s->n_learned6, 1);
	assert_int_equal(s->learned6[0].proto, PROTO_BGP);
	assert_int_equal(learn1(s, via("2001:db8:100::", 48, PROTO_BGP,
				       "2001:db8:0:1::7")), 0);
	assert_via(s, "2001:db8:100::5", "2001:db8:0:1::7");
	assert_int_equal(s->n_learned6, 1);
	/* the same again: nothing to publish */
	gen = s->sh.fwd6->generation;
	assert_int_equal(learn1(s, via("2001:db8:100::", 48, PROTO_BGP,
				       "2001:db8:0:1::7")), 0);
	assert_int_equal(s->sh.fwd6->generation, gen);
	/* the types, and a link-local gateway with its iface */
	r[0] = via("2001:db8:200::", 40, PROTO_OSPF, "2001:db8:0:1::7");
	r[0].type = LSK_ROUTE_BLACKHOLE;
	r[0].n_paths = 0;
	r[1] = via("2001:db8:300::", 40, PROTO_OSPF, "fe80::1");
	r[1].paths[0].iface = 1;
	r[2] = via("2001:db8:400::", 40, PROTO_OSPF, "2001:db8:0:1::7");
	r[2].type = LSK_ROUTE_PROHIBIT;
	assert_int_equal(lsk_route6_learn(s, r, 3), 0);
	assert_int_equal(lookup(s, "2001:db8:200::1")->type, LSK_NH_BLACKHOLE);
	assert_int_equal(lookup(s, "2001:db8:400::1")->type, LSK_NH_PROHIBIT);
	assert_via(s, "2001:db8:300::1", "fe80::1");
	assert_int_equal(lookup(s, "2001:db8:300::1")->iface, 1);
	assert_int_equal(learn1(s, withdraw("2001:db8:100::", 48)), 0);
	assert_via(s, "2001:db8:100::5", NULL);
	assert_int_equal(s->n_learned6, 3);
	/* a later entry of a run for the same prefix wins */
	r[0] = via("2001:db8:500::", 48, PROTO_BGP, "2001:db8:0:1::7");
	r[1] = via("2001:db8:500::", 48, PROTO_BGP, "2001:db8:0:2::9");
	r[2] = withdraw("2001:db8:200::", 40);
	assert_int_equal(lsk_route6_learn(s, r, 3), 0);
	assert_via(s, "2001:db8:500::1", "2001:db8:0:2::9");
	assert_int_equal(lookup(s, "2001:db8:200::1")->type, LSK_NH_NONE);
}

/* What cannot be taken is skipped and counted; the rest goes in. */
static void
test_skipped(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_learned r[6];
	uint64_t before = s->learn_skipped;

	r[0] = via("2001:db8:100::", 48, PROTO_BGP, "2001:db8:9::1"); /* off */
	r[1] = withdraw("2001:db8:777::", 48);			/* nothing */
	r[2] = via("2001:db8:100::1", 48, PROTO_BGP, "2001:db8:0:1::7");
	r[3] = via("2001:db8:0:1::", 64, PROTO_BGP, "2001:db8:0:2::7");
	r[4] = via("2001:db8:600::", 48, PROTO_BGP, "fe80::1"); /* no iface */
	r[5] = via("2001:db8:700::", 48, PROTO_BGP, "2001:db8:0:2::2");
	assert_int_equal(lsk_route6_learn(s, r, 6), 5);
	assert_int_equal(s->learn_skipped, before + 5);
	assert_int_equal(s->n_learned6, 1);
	assert_via(s, "2001:db8:700::1", "2001:db8:0:2::2");
	assert_int_equal(lsk_route6_learn(s, NULL, 1), -EINVAL);
	assert_int_equal(lsk_route6_learn(s, r, 0), 0);
}

/* A configured route of the prefix stands in front; the learned one
 * takes its place when it goes, and is not in the configuration. */
static void
test_configured_wins(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_ip6_addr p = a6("2001:db8:100::"), g = a6("2001:db8:0:1::7");

	assert_int_equal(lsk_route6_add(s, &p, 48, LSK_ROUTE_VIA, &g,
					LSK_IFACE_ANY), 0);
	assert_int_equal(learn1(s, via("2001:db8:100::", 48, PROTO_BGP,
				       "2001:db8:0:2::2")), 0);
	assert_via(s, "2001:db8:100::5", "2001:db8:0:1::7");
	assert_int_equal(s->n_routes6, 1);
	assert_int_equal(s->n_learned6, 1);
	assert_int_equal(lsk_route6_del(s, &p, 48), 0);
	assert_via(s, "2001:db8:100::5", "2001:db8:0:2::2");
	/* a configured one added over the learned one wins again */
	assert_int_equal(lsk_route6_add(s, &p, 48, LSK_ROUTE_BLACKHOLE, NULL,
					LSK_IFACE_ANY), 0);
	assert_int_equal(lookup(s, "2001:db8:100::5")->type,
			 LSK_NH_BLACKHOLE);
	/* withdrawing the learned one leaves the configured one */
	assert_int_equal(learn1(s, withdraw("2001:db8:100::", 48)), 0);
	assert_int_equal(lookup(s, "2001:db8:100::5")->type,
			 LSK_NH_BLACKHOLE);
	assert_int_equal(s->n_learned6, 0);
}

/* A dump marks both families stale; the sweep withdraws what was not
 * learned again, the flush every learned route, of both families. */
static void
test_dump_sweep_flush(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route_learned r4;
	uint32_t a4 = UNIT_IPV4(10, 0, 0, 1);

	assert_int_equal(lsk_address_add(s, a4, 24, 0), 0);
	memset(&r4, 0, sizeof(r4));
	r4.prefix = UNIT_IPV4(192, 0, 2, 0);
	r4.depth = 24;
	r4.proto = PROTO_BGP;
	r4.n_paths = 1;
	r4.paths[0] = (struct lsk_route_path){ .gateway = UNIT_IPV4(10, 0, 0, 2),
					       .iface = LSK_IFACE_ANY };
	assert_int_equal(lsk_route_learn(s, &r4, 1), 0);
	assert_int_equal(learn1(s, via("2001:db8:100::", 48, PROTO_BGP,
				       "2001:db8:0:2::2")), 0);
	assert_int_equal(learn1(s, via("2001:db8:200::", 48, PROTO_BGP,
				       "2001:db8:0:2::2")), 0);
	lsk_route_learn_begin_dump(s);
	assert_int_equal(learn1(s, via("2001:db8:200::", 48, PROTO_BGP,
				       "2001:db8:0:2::2")), 0);
	/* the IPv4 one and 2001:db8:100::/48 */
	assert_int_equal(lsk_route_learn_sweep(s), 2);
	assert_int_equal(s->n_learned, 0);
	assert_int_equal(s->n_learned6, 1);
	assert_via(s, "2001:db8:100::1", NULL);
	assert_via(s, "2001:db8:200::1", "2001:db8:0:2::2");
	assert_int_equal(lsk_route_learn(s, &r4, 1), 0);
	assert_int_equal(lsk_route_learn_flush(s), 2);
	assert_int_equal(s->n_learned6, 0);
	assert_via(s, "2001:db8:200::1", NULL);
	assert_int_equal(lsk_route_learn_flush(s), 0);
}

/* -EBUSY in a batch; an address deleted leaves its learned routes out
 * of the table (kept: back when the address is). */
static void
test_batch_and_address(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_ip6_addr a = a6("2001:db8:0:2::1");

	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(learn1(s, via("2001:db8:100::", 48, PROTO_BGP,
				       "2001:db8:0:2::2")), -EBUSY);
	assert_int_equal(lsk_route_learn_flush(s), -EBUSY);
	lsk_config_abort(s);
	assert_int_equal(learn1(s, via("2001:db8:100::", 48, PROTO_BGP,
				       "2001:db8:0:2::2")), 0);
	assert_int_equal(lsk_address6_del(s, &a, 64, 1), 0);
	assert_via(s, "2001:db8:100::1", NULL);
	assert_int_equal(s->n_learned6, 1);
	assert_int_equal(lsk_address6_add(s, &a, 64, 1), 0);
	assert_via(s, "2001:db8:100::1", "2001:db8:0:2::2");
}

/* 6000 routes in runs of 1000, 1000 withdrawn: the table holds exactly
 * what was learned last. (Past ~6300 /56s, 4 tbl8 groups each and a
 * quarter more of room (control/fwd6_table.c, fwd6_size), the table
 * takes 4-byte trie entries, 64 MiB and more, which the unit tests' EAL
 * memory cannot hold: DPDK says "FIB dataplane struct ... memory
 * allocation failed" and the run is refused with -EINVAL, nothing
 * changed.) */
static void
test_many_runs(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_learned *r = calloc(1000, sizeof(*r));
	char p[64];
	unsigned int run, i;
	int rc;

	assert_non_null(r);
	test_free_later = r;
	for (run = 0; run < 6; run++) {
		for (i = 0; i < 1000; i++) {
			unsigned int k = run * 1000 + i;

			snprintf(p, sizeof(p), "2001:db8:%x:%x::", 0x1000 +
				 k / 256, (k % 256) << 8);
			r[i] = via(p, 56, PROTO_BGP, k % 2 ?
				   "2001:db8:0:1::7" : "2001:db8:0:2::7");
		}
		rc = lsk_route6_learn(s, r, 1000);
		if (rc != 0)
			print_error("run %u: %d\n", run, rc);
		assert_int_equal(rc, 0);
	}
	for (i = 0; i < 1000; i++) {
		snprintf(p, sizeof(p), "2001:db8:%x:%x::", 0x1000 + i / 256,
			 (i % 256) << 8);
		r[i] = withdraw(p, 56);
	}
	assert_int_equal(lsk_route6_learn(s, r, 1000), 0);
	assert_int_equal(s->n_learned6, 5000);
	assert_via(s, "2001:db8:1000:100::1", NULL);
	assert_via(s, "2001:db8:1004:100::1", "2001:db8:0:1::7");
	assert_via(s, "2001:db8:1017:6e00::1", "2001:db8:0:2::7");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_learn_replace_withdraw),
		T(test_skipped),
		T(test_configured_wins),
		T(test_dump_sweep_flush),
		T(test_batch_and_address),
		T(test_many_runs),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
