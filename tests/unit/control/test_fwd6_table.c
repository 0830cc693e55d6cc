/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd6_table: the IPv6 table the control thread builds and publishes
 * (control/fwd6_table.c, ifaces6.c, routes6.c), observed as the workers
 * see it: what the published FIB gives for a destination and which
 * addresses the table holds. A stack starts with one (each interface's
 * link-local address, made from its MAC and following it); addresses
 * add their connected prefix and /128; routes and their refusals; MTU
 * changes; `port N ra on`; a batch aborted, or whose commit cannot be
 * built, and a change without memory leave the old table and
 * configuration whole.
 */
#include <errno.h>
#include <string.h>

#include "stack6_fix.h"

/* What the published table gives for dst. */
static const struct lsk_nexthop6 *
lookup(const struct lsk_stack *s, const char *dst)
{
	struct lsk_ip6_addr d = a6(dst);

	assert_non_null(s->sh.fwd6);
	return lookup6_in(s->sh.fwd6, &d);
}

static void
assert_type(const struct lsk_stack *s, const char *dst, enum lsk_nh_type type)
{
	const struct lsk_nexthop6 *nh = lookup(s, dst);

	if (nh->type != type)
		print_error("%s: type %u, want %u\n", dst, nh->type, type);
	assert_int_equal(nh->type, type);
}

/* dst goes out of iface to gw (NULL: onlink, to dst itself). */
static void
assert_fwd(const struct lsk_stack *s, const char *dst, uint16_t iface,
	   const char *gw, uint16_t mtu)
{
	const struct lsk_nexthop6 *nh = lookup(s, dst);
	struct lsk_ip6_addr g;

	assert_int_equal(nh->type, LSK_NH_FORWARD);
	assert_int_equal(nh->iface, iface);
	assert_int_equal(nh->mtu, mtu);
	if (gw == NULL) {
		assert_int_equal(nh->onlink, 1);
		return;
	}
	g = a6(gw);
	assert_int_equal(nh->onlink, 0);
	assert_memory_equal(&nh->gateway, &g, sizeof(g));
}

static int
addr_add(struct lsk_stack *s, const char *addr, uint8_t depth, uint16_t iface)
{
	struct lsk_ip6_addr a = a6(addr);

	return lsk_address6_add(s, &a, depth, iface);
}

static int
addr_del(struct lsk_stack *s, const char *addr, uint8_t depth, uint16_t iface)
{
	struct lsk_ip6_addr a = a6(addr);

	return lsk_address6_del(s, &a, depth, iface);
}

static int
route_set(struct lsk_stack *s, bool replace, const char *prefix,
	  uint8_t depth, enum lsk_route_type type, const char *gw,
	  uint16_t iface)
{
	struct lsk_ip6_addr p = a6(prefix), g;

	if (gw != NULL)
		g = a6(gw);
	return (replace ? lsk_route6_replace : lsk_route6_add)(s, &p, depth,
		type, gw != NULL ? &g : NULL, iface);
}

static int
route_add(struct lsk_stack *s, const char *prefix, uint8_t depth,
	  const char *gw, uint16_t iface)
{
	return route_set(s, false, prefix, depth, LSK_ROUTE_VIA, gw, iface);
}

static int
route_del(struct lsk_stack *s, const char *prefix, uint8_t depth)
{
	struct lsk_ip6_addr p = a6(prefix);

	return lsk_route6_del(s, &p, depth);
}

static bool
ours(const struct lsk_stack *s, const char *addr, uint16_t iface)
{
	struct lsk_ip6_addr a = a6(addr);

	return lsk_fwd6_ours(s->sh.fwd6, &a, iface) != NULL;
}

/* Global addresses on both ports (2001:db8:0:1::1/64 on 0, :2::1/64 on
 * 1) and a route via a host on port 1. */
static void
fixture(struct lsk_stack *s)
{
	assert_int_equal(addr_add(s, "2001:db8:0:1::1", 64, 0), 0);
	assert_int_equal(addr_add(s, "2001:db8:0:2::1", 64, 1), 0);
	assert_int_equal(route_add(s, "2001:db8:100::", 48, "2001:db8:0:2::2",
				   LSK_IFACE_ANY), 0);
}

static void
assert_fixture(const struct lsk_stack *s)
{
	assert_type(s, "2001:db8:0:1::1", LSK_NH_LOCAL);
	assert_fwd(s, "2001:db8:0:1::9", 0, NULL, 1500);
	assert_fwd(s, "2001:db8:0:2::9", 1, NULL, 1500);
	assert_fwd(s, "2001:db8:100:5::1", 1, "2001:db8:0:2::2", 1500);
	assert_type(s, "2001:db8:77::1", LSK_NH_NONE);
	assert_int_equal(s->sh.fwd6->n_addrs, 4);
	assert_int_equal(s->sh.fwd6->ra_ifaces, 0);
}

static int
setup(void **state)
{
	*state = unit_bare_stack("fwd6");
	return 0;
}

static int
teardown(void **state)
{
	lsk_stack_destroy(*state);
	return 0;
}

/* A new stack has a table: each port's link-local address (MACs
 * 02:00:00:00:00:0P until set), nothing routed. */
static void
test_start(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *t = s->sh.fwd6;
	struct lsk_ip6_addr ll0 = a6("fe80::ff:fe00:0");
	struct lsk_ip6_addr ll1 = a6("fe80::ff:fe00:1");

	assert_non_null(t);
	assert_int_equal(t->n_addrs, 2);
	assert_memory_equal(&lsk_fwd6_linklocal(t, 0)->addr, &ll0, 16);
	assert_memory_equal(&lsk_fwd6_linklocal(t, 1)->addr, &ll1, 16);
	assert_int_equal(lsk_fwd6_linklocal(t, 0)->flags,
			 LSK_IFA6_LINKLOCAL | LSK_IFA6_AUTO);
	assert_true(ours(s, "fe80::ff:fe00:0", 0));
	assert_false(ours(s, "fe80::ff:fe00:0", 1));
	/* link-local destinations are not in the FIB */
	assert_type(s, "fe80::ff:fe00:0", LSK_NH_NONE);
	assert_type(s, "2001:db8::1", LSK_NH_NONE);
}

/* The link-local address follows the MAC (modified EUI-64), a VLAN has
 * its port's, and the table is a new one each time. */
static void
test_linklocal_follows_mac(void **state)
{
	struct lsk_stack *s = *state;
	struct rte_ether_addr mac = { { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 } };
	uint32_t gen = s->sh.fwd6->generation;
	int vlan;

	assert_int_equal(lsk_port_set(s, 0, &mac, 0), 0);
	assert_int_not_equal(s->sh.fwd6->generation, gen);
	assert_true(ours(s, "fe80::5054:ff:fe12:3456", 0));
	assert_false(ours(s, "fe80::ff:fe00:0", 0));
	vlan = lsk_vlan_iface(s, 0, 7);
	assert_int_equal(vlan, 2);
	assert_int_equal(lsk_stack_publish(s), 0);
	assert_true(ours(s, "fe80::5054:ff:fe12:3456", 2));
	assert_int_equal(s->sh.fwd6->n_addrs, 3);
	/* it cannot be removed, nor added again */
	assert_int_equal(addr_del(s, "fe80::5054:ff:fe12:3456", 64, 0), -EPERM);
	assert_int_equal(addr_add(s, "fe80::5054:ff:fe12:3456", 64, 0),
			 -EEXIST);
}

static void
test_addresses(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *t;

	fixture(s);
	assert_fixture(s);
	t = s->sh.fwd6;
	/* autos first, then as added */
	assert_int_equal(t->addrs[2].iface, 0);
	assert_int_equal(t->addrs[2].depth, 64);
	assert_int_equal(t->addrs[2].flags, 0);
	assert_int_equal(t->addrs[3].iface, 1);
	/* a global address is ours on any interface */
	assert_true(ours(s, "2001:db8:0:1::1", 1));
	/* a link-local one of our own: its link's only, once per link */
	assert_int_equal(addr_add(s, "fe80::1", 64, 0), 0);
	assert_int_equal(addr_add(s, "fe80::1", 64, 1), 0);
	assert_int_equal(addr_add(s, "fe80::1", 64, 0), -EEXIST);
	assert_true(ours(s, "fe80::1", 0));
	assert_int_equal(s->sh.fwd6->addrs[4].flags, LSK_IFA6_LINKLOCAL);
	assert_type(s, "fe80::1", LSK_NH_NONE);
	assert_int_equal(addr_del(s, "fe80::1", 64, 1), 0);
	assert_false(ours(s, "fe80::1", 1));
	assert_true(ours(s, "fe80::1", 0));
	/* a second address in the same prefix, on the same port */
	assert_int_equal(addr_add(s, "2001:db8:0:1::2", 64, 0), 0);
	assert_type(s, "2001:db8:0:1::2", LSK_NH_LOCAL);
	assert_int_equal(addr_del(s, "2001:db8:0:1::2", 64, 0), 0);
	assert_fwd(s, "2001:db8:0:1::2", 0, NULL, 1500);
}

static void
test_address_refusals(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *before;
	char a[64];
	unsigned int i;

	fixture(s);
	before = s->sh.fwd6;
	assert_int_equal(addr_add(s, "2001:db8:0:1::1", 64, 0), -EEXIST);
	assert_int_equal(addr_add(s, "2001:db8:0:1::1", 64, 1), -EEXIST);
	assert_int_equal(addr_add(s, "::", 64, 0), -EINVAL);
	assert_int_equal(addr_add(s, "::1", 128, 0), -EINVAL);
	assert_int_equal(addr_add(s, "ff02::5", 64, 0), -EINVAL);
	assert_int_equal(addr_add(s, "2001:db8:5::1", 129, 0), -EINVAL);
	assert_int_equal(addr_add(s, "2001:db8:5::1", 0, 0), -EINVAL);
	assert_int_equal(addr_add(s, "2001:db8:5::1", 64, 9), -ENODEV);
	/* overlapping another port's prefix, either way round */
	assert_int_equal(addr_add(s, "2001:db8:0:1::7", 80, 1), -EADDRINUSE);
	assert_int_equal(addr_add(s, "2001:db8::7", 48, 1), -EADDRINUSE);
	assert_int_equal(addr_del(s, "2001:db8:0:1::1", 64, 1),
			 -EADDRNOTAVAIL);
	assert_int_equal(addr_del(s, "2001:db8:0:1::1", 60, 0),
			 -EADDRNOTAVAIL);
	assert_int_equal(addr_del(s, "2001:db8:0:9::1", 64, 0),
			 -EADDRNOTAVAIL);
	/* nothing refused was published */
	assert_ptr_equal(s->sh.fwd6, before);
	assert_fixture(s);
	/* room for LSK_MAX_ADDRS6 */
	for (i = 2; i < LSK_MAX_ADDRS6; i++) {
		snprintf(a, sizeof(a), "2001:db8:1:%x::1", i);
		assert_int_equal(addr_add(s, a, 64, 0), 0);
	}
	assert_int_equal(addr_add(s, "2001:db8:2::1", 64, 0), -ENOSPC);
	assert_int_equal(s->sh.fwd6->n_addrs, 2 + LSK_MAX_ADDRS6);
	assert_type(s, "2001:db8:1:3f::1", LSK_NH_LOCAL);
	assert_fwd(s, "2001:db8:1:3f::2", 0, NULL, 1500);
}

static void
test_routes(void **state)
{
	struct lsk_stack *s = *state;

	fixture(s);
	/* more specific wins; the default route */
	assert_int_equal(route_add(s, "2001:db8:100:5::", 64, "2001:db8:0:1::7",
				   LSK_IFACE_ANY), 0);
	assert_int_equal(route_add(s, "::", 0, "2001:db8:0:1::8",
				   LSK_IFACE_ANY), 0);
	assert_fwd(s, "2001:db8:100:5::1", 0, "2001:db8:0:1::7", 1500);
	assert_fwd(s, "2001:db8:100:6::1", 1, "2001:db8:0:2::2", 1500);
	assert_fwd(s, "2001:db8:77::1", 0, "2001:db8:0:1::8", 1500);
	/* a link-local gateway with its port */
	assert_int_equal(route_add(s, "2001:db8:200::", 40, "fe80::2", 1), 0);
	assert_fwd(s, "2001:db8:200::1", 1, "fe80::2", 1500);
	/* the other types */
	assert_int_equal(route_set(s, false, "2001:db8:300::", 48,
				   LSK_ROUTE_BLACKHOLE, NULL, 0), 0);
	assert_int_equal(route_set(s, false, "2001:db8:301::", 48,
				   LSK_ROUTE_UNREACHABLE, NULL, 0), 0);
	assert_int_equal(route_set(s, false, "2001:db8:302::", 48,
				   LSK_ROUTE_PROHIBIT, NULL, 0), 0);
	assert_type(s, "2001:db8:300::1", LSK_NH_BLACKHOLE);
	assert_type(s, "2001:db8:301::1", LSK_NH_UNREACHABLE);
	assert_type(s, "2001:db8:302::1", LSK_NH_PROHIBIT);
	/* a /128 route to our address: ours wins, as Linux's local table */
	assert_int_equal(route_set(s, false, "2001:db8:0:1::1", 128,
				   LSK_ROUTE_BLACKHOLE, NULL, 0), 0);
	assert_type(s, "2001:db8:0:1::1", LSK_NH_LOCAL);
	/* replace, del */
	assert_int_equal(route_set(s, true, "2001:db8:100::", 48,
				   LSK_ROUTE_BLACKHOLE, NULL, 0), 0);
	assert_type(s, "2001:db8:100:6::1", LSK_NH_BLACKHOLE);
	assert_int_equal(route_set(s, true, "2001:db8:400::", 48,
				   LSK_ROUTE_VIA, "2001:db8:0:2::3",
				   LSK_IFACE_ANY), 0);
	assert_fwd(s, "2001:db8:400::1", 1, "2001:db8:0:2::3", 1500);
	assert_int_equal(route_del(s, "2001:db8:100:5::", 64), 0);
	assert_int_equal(route_del(s, "2001:db8:100:5::", 64), -ENOENT);
	assert_type(s, "2001:db8:100:5::1", LSK_NH_BLACKHOLE);
	assert_int_equal(route_del(s, "::", 0), 0);
	assert_type(s, "2001:db8:77::1", LSK_NH_NONE);
	/* next hops are shared */
	assert_int_equal(route_add(s, "2001:db8:500::", 48, "2001:db8:0:2::3",
				   LSK_IFACE_ANY), 0);
	assert_ptr_equal(lookup(s, "2001:db8:500::1"),
			 lookup(s, "2001:db8:400::1"));
}

static void
test_route_refusals(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *before;

	fixture(s);
	before = s->sh.fwd6;
	assert_int_equal(route_add(s, "2001:db8:100::", 48, "2001:db8:0:2::2",
				   LSK_IFACE_ANY), -EEXIST);
	/* connected */
	assert_int_equal(route_add(s, "2001:db8:0:1::", 64, "2001:db8:0:2::2",
				   LSK_IFACE_ANY), -EEXIST);
	assert_int_equal(route_set(s, true, "2001:db8:0:1::", 64,
				   LSK_ROUTE_BLACKHOLE, NULL, 0), -EEXIST);
	/* the gateway on no prefix of ours; link-local without its port */
	assert_int_equal(route_add(s, "2001:db8:9::", 48, "2001:db8:5::1",
				   LSK_IFACE_ANY), -ENETUNREACH);
	assert_int_equal(route_add(s, "2001:db8:9::", 48, "fe80::2",
				   LSK_IFACE_ANY), -EINVAL);
	assert_int_equal(route_add(s, "2001:db8:9::", 48, "fe80::2", 7),
			 -ENODEV);
	/* gateways that are no other node's */
	assert_int_equal(route_add(s, "2001:db8:9::", 48, "2001:db8:0:1::1",
				   LSK_IFACE_ANY), -EINVAL);
	assert_int_equal(route_add(s, "2001:db8:9::", 48, "fe80::ff:fe00:1",
				   1), -EINVAL);
	assert_int_equal(route_add(s, "2001:db8:9::", 48, "ff02::2", 1),
			 -EINVAL);
	assert_int_equal(route_add(s, "2001:db8:9::", 48, "::", 1), -EINVAL);
	assert_int_equal(route_set(s, false, "2001:db8:9::", 48, LSK_ROUTE_VIA,
				   NULL, 1), -EINVAL);
	/* prefixes: host bits, depth, scoped */
	assert_int_equal(route_add(s, "2001:db8:9::1", 48, "2001:db8:0:2::2",
				   LSK_IFACE_ANY), -EINVAL);
	assert_int_equal(route_add(s, "2001:db8:9::", 129, "2001:db8:0:2::2",
				   LSK_IFACE_ANY), -EINVAL);
	assert_int_equal(route_add(s, "ff00::", 8, "2001:db8:0:2::2",
				   LSK_IFACE_ANY), -EINVAL);
	assert_int_equal(route_add(s, "fe80::", 64, "2001:db8:0:2::2",
				   LSK_IFACE_ANY), -EINVAL);
	assert_int_equal(route_set(s, false, "2001:db8:9::", 48, 9, NULL, 0),
			 -EINVAL);
	assert_int_equal(route_del(s, "2001:db8:9::", 48), -ENOENT);
	assert_ptr_equal(s->sh.fwd6, before);
	assert_fixture(s);
}

/* An address that goes takes its prefix, its /128 and the routes via
 * gateways no prefix reaches any more (not those via a link-local
 * gateway, nor blackholes). */
static void
test_address_del_takes_routes(void **state)
{
	struct lsk_stack *s = *state;

	fixture(s);
	assert_int_equal(route_add(s, "2001:db8:200::", 40, "fe80::2", 1), 0);
	assert_int_equal(route_set(s, false, "2001:db8:300::", 48,
				   LSK_ROUTE_BLACKHOLE, NULL, 0), 0);
	assert_int_equal(addr_del(s, "2001:db8:0:2::1", 64, 1), 0);
	assert_int_equal(s->n_routes6, 2);
	assert_type(s, "2001:db8:0:2::1", LSK_NH_NONE);
	assert_type(s, "2001:db8:0:2::9", LSK_NH_NONE);
	assert_type(s, "2001:db8:100::1", LSK_NH_NONE);
	assert_int_equal(route_del(s, "2001:db8:100::", 48), -ENOENT);
	assert_fwd(s, "2001:db8:200::1", 1, "fe80::2", 1500);
	assert_type(s, "2001:db8:300::1", LSK_NH_BLACKHOLE);
	assert_false(ours(s, "2001:db8:0:2::1", LSK_IFACE_ANY));
	assert_true(ours(s, "2001:db8:0:1::1", LSK_IFACE_ANY));
}

/* A port's MTU is its next hops' (a VLAN's too). */
static void
test_mtu(void **state)
{
	struct lsk_stack *s = *state;

	fixture(s);
	assert_int_equal(lsk_port_set(s, 1, NULL, 9000), 0);
	assert_fwd(s, "2001:db8:0:2::9", 1, NULL, 9000);
	assert_fwd(s, "2001:db8:100::1", 1, "2001:db8:0:2::2", 9000);
	assert_fwd(s, "2001:db8:0:1::9", 0, NULL, 1500);
}

static void
test_ra(void **state)
{
	struct lsk_stack *s = *state;

	assert_int_equal(s->sh.fwd6->ra_ifaces, 0);
	assert_int_equal(lsk_port_ra_set(s, 1, true), 0);
	assert_int_equal(s->sh.fwd6->ra_ifaces, 2);
	assert_int_equal(lsk_port_ra_set(s, 0, true), 0);
	assert_int_equal(lsk_port_ra_set(s, 1, false), 0);
	assert_int_equal(s->sh.fwd6->ra_ifaces, 1);
	assert_int_equal(lsk_port_ra_set(s, 2, true), -ENODEV);
}

/* A batch aborted leaves the table published before it and puts the
 * IPv6 configuration back whole; one committed publishes it once. */
static void
test_batch(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *before;
	uint32_t gen;

	fixture(s);
	before = s->sh.fwd6;
	gen = before->generation;
	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(addr_add(s, "2001:db8:0:3::1", 64, 0), 0);
	assert_int_equal(route_add(s, "2001:db8:600::", 48, "2001:db8:0:3::2",
				   LSK_IFACE_ANY), 0);
	assert_int_equal(route_del(s, "2001:db8:100::", 48), 0);
	assert_int_equal(addr_del(s, "2001:db8:0:2::1", 64, 1), 0);
	assert_int_equal(lsk_port_ra_set(s, 1, true), 0);
	assert_ptr_equal(s->sh.fwd6, before);	/* nothing yet */
	assert_int_equal(s->sh.fwd6->generation, gen);
	lsk_config_abort(s);
	assert_ptr_equal(s->sh.fwd6, before);
	assert_fixture(s);
	assert_int_equal(s->n_addrs6, 2);
	assert_int_equal(s->n_routes6, 1);
	assert_int_equal(s->ra6, 0);
	assert_int_equal(route_del(s, "2001:db8:600::", 48), -ENOENT);

	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(addr_add(s, "2001:db8:0:3::1", 64, 0), 0);
	assert_int_equal(route_add(s, "2001:db8:600::", 48, "2001:db8:0:3::2",
				   LSK_IFACE_ANY), 0);
	assert_int_equal(lsk_port_ra_set(s, 1, true), 0);
	assert_int_equal(lsk_config_commit(s), 0);
	assert_fwd(s, "2001:db8:600::1", 0, "2001:db8:0:3::2", 1500);
	assert_type(s, "2001:db8:0:3::1", LSK_NH_LOCAL);
	assert_int_equal(s->sh.fwd6->ra_ifaces, 2);
}

/* A change whose table cannot be built (EAL memory used up) fails with
 * -ENOMEM and changes nothing: the table in force stays, and so does
 * the configuration. */
static void
test_no_memory_changes_nothing(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *before;
	struct rte_ether_addr mac = { { 0x02, 0, 0, 0, 0x09, 0x09 } };
	size_t heap;

	fixture(s);
	/* no standby: a route change builds whole (with one it is made in
	 * place, without memory: test_fwd6_update) */
	lsk_fwd6_standby_free(s);
	before = s->sh.fwd6;
	heap = unit_heap_allocated();
	unit_eat_memory();
	assert_int_equal(addr_add(s, "2001:db8:0:3::1", 64, 0), -ENOMEM);
	assert_int_equal(addr_del(s, "2001:db8:0:2::1", 64, 1), -ENOMEM);
	assert_int_equal(route_add(s, "2001:db8:600::", 48, "2001:db8:0:1::2",
				   LSK_IFACE_ANY), -ENOMEM);
	assert_int_equal(route_set(s, true, "2001:db8:100::", 48,
				   LSK_ROUTE_BLACKHOLE, NULL, 0), -ENOMEM);
	assert_int_equal(route_del(s, "2001:db8:100::", 48), -ENOMEM);
	assert_int_equal(lsk_port_ra_set(s, 1, true), -ENOMEM);
	assert_int_equal(lsk_port_set(s, 1, &mac, 9000), -ENOMEM);
	assert_ptr_equal(s->sh.fwd6, before);
	unit_free_memory();
	assert_int_equal(unit_heap_allocated(), heap);
	assert_fixture(s);
	assert_int_equal(s->n_addrs6, 2);
	assert_int_equal(s->n_routes6, 1);
	assert_int_equal(s->ra6, 0);
	assert_true(ours(s, "fe80::ff:fe00:1", 1));

	/* a batch whose commit cannot be built: the same */
	assert_int_equal(lsk_config_begin(s), 0);
	assert_int_equal(addr_add(s, "2001:db8:0:3::1", 64, 0), 0);
	assert_int_equal(route_del(s, "2001:db8:100::", 48), 0);
	assert_int_equal(lsk_port_ra_set(s, 1, true), 0);
	unit_eat_memory();
	assert_int_equal(lsk_config_commit(s), -ENOMEM);
	unit_free_memory();
	assert_ptr_equal(s->sh.fwd6, before);
	assert_fixture(s);
	assert_int_equal(s->n_addrs6, 2);
	assert_int_equal(s->n_routes6, 1);
	assert_int_equal(s->ra6, 0);
	/* and the changes go through once memory is back */
	assert_int_equal(addr_add(s, "2001:db8:0:3::1", 64, 0), 0);
	assert_type(s, "2001:db8:0:3::1", LSK_NH_LOCAL);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_start),
		T(test_linklocal_follows_mac),
		T(test_addresses),
		T(test_address_refusals),
		T(test_routes),
		T(test_route_refusals),
		T(test_address_del_takes_routes),
		T(test_mtu),
		T(test_ra),
		T(test_batch),
		T(test_no_memory_changes_nothing),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
