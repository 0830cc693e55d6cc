/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd6: the read side of the IPv6 table (core/fwd6.c) on tables made by
 * hand: which addresses are ours on which interface (link-local ones
 * only on their own), each interface's link-local address, the source
 * our packets get (RFC 6724 in short), the groups an interface listens
 * to (all-nodes, all-routers, its addresses' solicited-node groups).
 */
#include <arpa/inet.h>
#include <string.h>

#include "unit_common.h"
#include "core/fwd6.h"

static struct lsk_ip6_addr
a6(const char *s)
{
	struct lsk_ip6_addr a;

	assert_int_equal(inet_pton(AF_INET6, s, a.a), 1);
	return a;
}

static void
add(struct lsk_fwd6_table *t, const char *addr, uint8_t depth,
    uint8_t flags, uint16_t iface)
{
	struct lsk_ifaddr6 *a = &t->addrs[t->n_addrs++];

	a->addr = a6(addr);
	a->depth = depth;
	a->flags = flags;
	a->iface = iface;
}

#define LL (LSK_IFA6_LINKLOCAL | LSK_IFA6_AUTO)

/* Two ports and a VLAN of port 0 (iface 2, the same MAC: the same
 * link-local address), global addresses on ports 0 and 1, a configured
 * link-local one on port 1. */
static struct lsk_fwd6_table *
table(void)
{
	static struct lsk_fwd6_table t;

	memset(&t, 0, sizeof(t));
	add(&t, "fe80::ff:fe00:0", 64, LL, 0);
	add(&t, "fe80::ff:fe00:1", 64, LL, 1);
	add(&t, "fe80::ff:fe00:0", 64, LL, 2);
	add(&t, "2001:db8:0:1::1", 64, 0, 0);
	add(&t, "2001:db8:0:1:8000::1", 65, 0, 0);
	add(&t, "2001:db8:0:2::1", 64, 0, 1);
	add(&t, "fe80::1", 64, LSK_IFA6_LINKLOCAL, 1);
	return &t;
}

static void
assert_addr(const struct lsk_ifaddr6 *a, const char *want, uint16_t iface)
{
	struct lsk_ip6_addr w = a6(want);

	assert_non_null(a);
	assert_memory_equal(&a->addr, &w, sizeof(w));
	assert_int_equal(a->iface, iface);
}

static void
test_ours(void **state)
{
	const struct lsk_fwd6_table *t = table();
	struct lsk_ip6_addr x;

	(void)state;
	/* global: ours whichever interface it came in on */
	x = a6("2001:db8:0:1::1");
	assert_addr(lsk_fwd6_ours(t, &x, 0), "2001:db8:0:1::1", 0);
	assert_addr(lsk_fwd6_ours(t, &x, 1), "2001:db8:0:1::1", 0);
	assert_addr(lsk_fwd6_ours(t, &x, LSK_IFACE_ANY), "2001:db8:0:1::1", 0);
	/* link-local: only on its link (a port and its VLAN each) */
	x = a6("fe80::ff:fe00:0");
	assert_addr(lsk_fwd6_ours(t, &x, 0), "fe80::ff:fe00:0", 0);
	assert_addr(lsk_fwd6_ours(t, &x, 2), "fe80::ff:fe00:0", 2);
	assert_null(lsk_fwd6_ours(t, &x, 1));
	assert_non_null(lsk_fwd6_ours(t, &x, LSK_IFACE_ANY));
	x = a6("fe80::1");
	assert_addr(lsk_fwd6_ours(t, &x, 1), "fe80::1", 1);
	assert_null(lsk_fwd6_ours(t, &x, 0));
	/* others' */
	x = a6("2001:db8:0:1::2");
	assert_null(lsk_fwd6_ours(t, &x, 0));
	x = a6("fe80::ff:fe00:2");
	assert_null(lsk_fwd6_ours(t, &x, LSK_IFACE_ANY));
}

static void
test_linklocal(void **state)
{
	const struct lsk_fwd6_table *t = table();

	(void)state;
	assert_addr(lsk_fwd6_linklocal(t, 0), "fe80::ff:fe00:0", 0);
	assert_addr(lsk_fwd6_linklocal(t, 1), "fe80::ff:fe00:1", 1);
	assert_addr(lsk_fwd6_linklocal(t, 2), "fe80::ff:fe00:0", 2);
	assert_null(lsk_fwd6_linklocal(t, 3));
}

static void
test_source(void **state)
{
	const struct lsk_fwd6_table *t = table();
	struct lsk_ip6_addr d;
	struct lsk_fwd6_table empty;

	(void)state;
	/* link-local and link-scoped multicast: iface's link-local */
	d = a6("fe80::99");
	assert_addr(lsk_fwd6_source(t, &d, 1), "fe80::ff:fe00:1", 1);
	d = a6("ff02::1:ff00:5");
	assert_addr(lsk_fwd6_source(t, &d, 0), "fe80::ff:fe00:0", 0);
	/* the longest prefix of iface that holds dst */
	d = a6("2001:db8:0:1::5");
	assert_addr(lsk_fwd6_source(t, &d, 0), "2001:db8:0:1::1", 0);
	d = a6("2001:db8:0:1:8000::5");
	assert_addr(lsk_fwd6_source(t, &d, 0), "2001:db8:0:1:8000::1", 0);
	/* else iface's first global, else any global */
	d = a6("2001:db8:77::1");
	assert_addr(lsk_fwd6_source(t, &d, 0), "2001:db8:0:1::1", 0);
	assert_addr(lsk_fwd6_source(t, &d, 1), "2001:db8:0:2::1", 1);
	assert_addr(lsk_fwd6_source(t, &d, 2), "2001:db8:0:1::1", 0);
	/* none global: iface's link-local; nothing at all: NULL */
	memset(&empty, 0, sizeof(empty));
	add(&empty, "fe80::ff:fe00:0", 64, LL, 0);
	assert_addr(lsk_fwd6_source(&empty, &d, 0), "fe80::ff:fe00:0", 0);
	assert_null(lsk_fwd6_source(&empty, &d, 1));
}

static void
test_joined(void **state)
{
	const struct lsk_fwd6_table *t = table();
	struct lsk_ip6_addr g;

	(void)state;
	g = a6("ff02::1");
	assert_true(lsk_fwd6_joined(t, &g, 0));
	assert_true(lsk_fwd6_joined(t, &g, 2));
	assert_false(lsk_fwd6_joined(t, &g, 5));	/* no such iface */
	g = a6("ff02::2");
	assert_true(lsk_fwd6_joined(t, &g, 1));
	g = a6("ff05::2");	/* site scope: not joined */
	assert_false(lsk_fwd6_joined(t, &g, 1));
	g = a6("ff02::3");
	assert_false(lsk_fwd6_joined(t, &g, 1));
	/* solicited-node groups of iface's addresses, and only iface's */
	g = a6("ff02::1:ff00:1");	/* fe80::ff:fe00:1, ::1 of 0 and 1 */
	assert_true(lsk_fwd6_joined(t, &g, 1));
	assert_true(lsk_fwd6_joined(t, &g, 0));
	assert_false(lsk_fwd6_joined(t, &g, 2));
	g = a6("ff02::1:ff00:0");
	assert_true(lsk_fwd6_joined(t, &g, 2));
	assert_false(lsk_fwd6_joined(t, &g, 1));
	g = a6("ff02::1:fe00:1");	/* not ff in byte 12 */
	assert_false(lsk_fwd6_joined(t, &g, 1));
	g = a6("ff02::2:ff00:1");
	assert_false(lsk_fwd6_joined(t, &g, 1));
}

static void
test_prefix_match(void **state)
{
	struct lsk_ip6_addr a = a6("2001:db8::1"), b = a6("2001:db9::1");

	(void)state;
	assert_true(lsk_ip6_prefix_match(&a, &b, 0));
	assert_true(lsk_ip6_prefix_match(&a, &b, 31));
	assert_false(lsk_ip6_prefix_match(&a, &b, 32));
	assert_true(lsk_ip6_prefix_match(&a, &a, 128));
	assert_false(lsk_ip6_prefix_match(&a, &a, 129));
	b = a6("2001:db8::");
	assert_true(lsk_ip6_prefix_match(&a, &b, 127));
	assert_false(lsk_ip6_prefix_match(&a, &b, 128));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ours),
		cmocka_unit_test(test_linklocal),
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_joined),
		cmocka_unit_test(test_prefix_match),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
