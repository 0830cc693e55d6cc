/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the IPv6 route tests of the control layer share (test_route6_learn,
 * test_fwd6_update): an address from its text, a bare stack with a
 * global prefix on each port (2001:db8:0:1::1/64 on port 0,
 * 2001:db8:0:2::1/64 on port 1), and what a table looks up.
 */
#ifndef UNIT_STACK6_FIX_H
#define UNIT_STACK6_FIX_H

#include <arpa/inet.h>
#include <string.h>

#include <rte_fib6.h>

#include "unit_common.h"
#include "core/fwd6.h"

static inline struct lsk_ip6_addr
a6(const char *s)
{
	struct lsk_ip6_addr a;

	assert_int_equal(inet_pton(AF_INET6, s, a.a), 1);
	return a;
}

/* cmocka's setup: the stack in *state, named prefix. */
static inline int
stack6_setup(void **state, const char *prefix)
{
	struct lsk_stack *s = unit_bare_stack(prefix);
	struct lsk_ip6_addr a = a6("2001:db8:0:1::1"), b = a6("2001:db8:0:2::1");

	assert_int_equal(lsk_address6_add(s, &a, 64, 0), 0);
	assert_int_equal(lsk_address6_add(s, &b, 64, 1), 0);
	*state = s;
	return 0;
}

/* The next hop t gives for d. */
static inline const struct lsk_nexthop6 *
lookup6_in(const struct lsk_fwd6_table *t, const struct lsk_ip6_addr *d)
{
	uint8_t ips[1][16];
	uint64_t nh = 999;

	memcpy(ips[0], d->a, 16);
	assert_int_equal(rte_fib6_lookup_bulk(t->fib, ips, &nh, 1), 0);
	assert_true(nh < t->n_nexthops);
	return &t->nexthops[nh];
}

/* In the published table dst goes to gw (NULL: no route). */
static inline void
assert_via(const struct lsk_stack *s, const char *dst, const char *gw)
{
	struct lsk_ip6_addr d = a6(dst), g;
	const struct lsk_nexthop6 *nh = lookup6_in(s->sh.fwd6, &d);

	if (gw == NULL) {
		assert_int_equal(nh->type, LSK_NH_NONE);
		return;
	}
	g = a6(gw);
	assert_int_equal(nh->type, LSK_NH_FORWARD);
	assert_int_equal(nh->onlink, 0);
	assert_memory_equal(&nh->gateway, &g, sizeof(g));
}

#endif /* UNIT_STACK6_FIX_H */
