/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 forms of the grammar (cli/cmd_ip6.c) and views
 * (cli/route_show6.c, show config, config reload's difference): IPv4's
 * words with IPv6 addresses. Each command's effect is checked in the
 * published table or a view, each refusal by its whole message (the
 * command and the reason), and `show config` loaded into a fresh stack
 * gives the same `show config` back.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_fib6.h>

#include "unit_common.h"
#include "cli_run.h"
#include "cli/cli.h"
#include "cli/config_diff.h"
#include "control/control.h"
#include "core/fwd6.h"
#include "l2/l2.h"
#include "ip6/nd6.h"

static int
ip6(const char *text, struct lsk_ip6_addr *a)
{
	return inet_pton(AF_INET6, text, a->a) == 1 ? 0 : -EINVAL;
}

static const struct lsk_nexthop6 *
lookup(const struct lsk_stack *s, const char *dst)
{
	const struct lsk_fwd6_table *t = s->sh.fwd6;
	uint8_t ips[1][16];
	uint64_t nh;

	assert_int_equal(inet_pton(AF_INET6, dst, ips[0]), 1);
	rte_fib6_lookup_bulk(t->fib, ips, &nh, 1);
	assert_true(nh < t->n_nexthops);
	return &t->nexthops[nh];
}

static const char conf6[] =
	"address add 10.0.0.254/24 port 0\n"
	"address add 2001:db8:0:1::1/64 port 0\n"
	"address add 2001:db8:0:2::1/64 port 1\n"
	"route add 2001:db8:100::/48 via 2001:db8:0:2::2\n"
	"route add 2001:db8:200::/40 via fe80::2 port 1\n"
	"route add 2001:db8:300::/48 blackhole\n";

static int
setup(void **state)
{
	*state = unit_bare_stack("cmd6");
	return 0;
}

static int
teardown(void **state)
{
	lsk_stack_destroy(*state);
	return 0;
}

static void
test_address(void **state)
{
	static const struct cli_refusal address_refusals[] = {
		{ "address add 2001:db8:0:1::1/64 port 0", -EEXIST,
		  "t:1: address 2001:db8:0:1::1/64 is already configured" },
		{ "address add 2001:db8:0:1::9/48 port 1", -EADDRINUSE,
		  "t:1: 2001:db8:0:1::9/48 overlaps 2001:db8:0:1::1/64 on "
		  "port 0 (a prefix is connected on one interface only)" },
		{ "address add ff02::1/64 port 0", -EINVAL,
		  "t:1: ff02::1/64 cannot be an interface address "
		  "(multicast)" },
		{ "address add ::1/128 port 0", -EINVAL,
		  "t:1: ::1/128 cannot be an interface address (the "
		  "unspecified or loopback address)" },
		{ "address add 2001:db8::1/129 port 0", -EINVAL,
		  "t:1: bad address '2001:db8::1/129' (want ADDRESS6/LEN, "
		  "LEN 1-128)" },
		{ "address add 2001:db8::1 port 0", -EINVAL,
		  "t:1: bad address '2001:db8::1' (want ADDRESS6/LEN, LEN "
		  "1-128)" },
		{ "address add 2001:db8::1/64", -EINVAL,
		  "t:1: usage: address add|del ADDRESS6/LEN port N [vlan V]" },
		{ "address add 2001:db8::1/64 port 7", -ENODEV,
		  "t:1: port 7 does not exist (2 ports)" },
		{ "address del 2001:db8:0:1::1/64 port 1", -EADDRNOTAVAIL,
		  "t:1: no address 2001:db8:0:1::1/64 on port 1" },
		{ "address del 2001:db8:0:1::1/64 port 1 vlan 9", -ENODEV,
		  "t:1: port 1 has no vlan 9" },
		{ "address del fe80::ff:fe00:1/64 port 1", -EPERM,
		  "t:1: fe80::ff:fe00:1/64 is the link-local address port 1 "
		  "has from its MAC: it cannot be deleted" },
	};
	struct lsk_stack *s = *state;

	cli_ok(s, "address add 2001:db8:0:1::1/64 port 0");
	assert_int_equal(lookup(s, "2001:db8:0:1::1")->type, LSK_NH_LOCAL);
	assert_int_equal(lookup(s, "2001:db8:0:1::7")->type, LSK_NH_FORWARD);
	/* on a VLAN, made for it; by a port's name */
	cli_ok(s, "port 1 name wan");
	cli_ok(s, "address add 2001:db8:0:5::1/64 port wan vlan 5");
	assert_int_equal(s->n_ifaces, 3);
	assert_int_equal(s->sh.fwd->n_ifaces, 3);	/* IPv4's has it too */
	assert_int_equal(s->sh.fwd->ifaces[2].vlan, 5);
	assert_int_equal(lookup(s, "2001:db8:0:5::9")->iface, 2);
	cli_ok(s, "address del 2001:db8:0:5::1/64 port 1 vlan 5");
	assert_int_equal(lookup(s, "2001:db8:0:5::9")->type, LSK_NH_NONE);
	/* a link-local one of our own */
	cli_ok(s, "address add fe80::1/64 port 0");
	cli_ok(s, "address del fe80::1/64 port 0");

	cli_refused_all(s, address_refusals, RTE_DIM(address_refusals));
}

static void
test_route(void **state)
{
	static const struct cli_refusal route_refusals[] = {
		{ "route add 2001:db8:100::/48 via 2001:db8:0:2::3", -EEXIST,
		  "t:1: route 2001:db8:100::/48 exists already" },
		{ "route replace 2001:db8:0:1::/64 blackhole", -EEXIST,
		  "t:1: 2001:db8:0:1::/64 is a connected prefix" },
		{ "route add 2001:db8:9::/48 via 2001:db8:7::1", -ENETUNREACH,
		  "t:1: gateway 2001:db8:7::1 is not on a connected prefix" },
		{ "route add 2001:db8:9::/48 via fe80::2", -EINVAL,
		  "t:1: gateway fe80::2 is link-local: name its port (via "
		  "fe80::2 port N)" },
		{ "route add 2001:db8:9::/48 via 2001:db8:0:1::1", -EINVAL,
		  "t:1: gateway 2001:db8:0:1::1 is one of our addresses" },
		{ "route add 2001:db8:9::/48 via ff02::2 port 0", -EINVAL,
		  "t:1: gateway ff02::2 is not a unicast address" },
		{ "route add 2001:db8:9::/48 via fe80::2 port 0 vlan 3",
		  -ENODEV,
		  "t:1: port 0 has no vlan 3" },
		{ "route add 2001:db8:9::/48 via 2001:db8:0:2::2 via "
		  "2001:db8:0:2::2", -EINVAL,
		  "t:1: gateway 2001:db8:0:2::2 given twice" },
		{ "route add 2001:db8:9::1/48 blackhole", -EINVAL,
		  "t:1: prefix 2001:db8:9::1/48 has host bits set (the "
		  "prefix is 2001:db8:9::/48)" },
		{ "route add 2001:db8:9::1 blackhole", -EINVAL,
		  "t:1: route needs a prefix length: 2001:db8:9::1/LEN (a "
		  "host route is 2001:db8:9::1/128)" },
		{ "route add fe80::/64 blackhole", -EINVAL,
		  "t:1: fe80::/64 is not routed: link-local and multicast "
		  "destinations belong to a link" },
		{ "route add 2001:db8:9::/48 via nothere", -EINVAL,
		  "t:1: bad gateway 'nothere' (want an IPv6 address)" },
		{ "route del 2001:db8:9::/48", -ENOENT,
		  "t:1: no route 2001:db8:9::/48 to delete" },
		{ "route del 2001:db8:100::/48 via 2001:db8:0:2::9", -ENOENT,
		  "t:1: route 2001:db8:100::/48 is via 2001:db8:0:2::2, not "
		  "via 2001:db8:0:2::9" },
		{ "route del 2001:db8:100::/48 blackhole", -ENOENT,
		  "t:1: route 2001:db8:100::/48 is via 2001:db8:0:2::2, not "
		  "blackhole" },
	};
	struct lsk_stack *s = *state;
	const struct lsk_nexthop6 *nh;

	cli_ok(s, conf6);
	nh = lookup(s, "2001:db8:100::5");
	assert_int_equal(nh->type, LSK_NH_FORWARD);
	assert_int_equal(nh->iface, 1);
	nh = lookup(s, "2001:db8:200::5");
	assert_int_equal(nh->iface, 1);
	assert_int_equal(nh->gateway.a[15], 2);
	assert_int_equal(lookup(s, "2001:db8:300::5")->type, LSK_NH_BLACKHOLE);
	cli_ok(s, "route replace 2001:db8:300::/48 prohibit");
	assert_int_equal(lookup(s, "2001:db8:300::5")->type, LSK_NH_PROHIBIT);
	cli_ok(s, "route add default via 2001:db8:0:1::fe");
	assert_int_equal(lookup(s, "2001:db8:999::1")->iface, 0);
	cli_ok(s, "route del ::/0");
	assert_int_equal(lookup(s, "2001:db8:999::1")->type, LSK_NH_NONE);
	cli_ok(s, "route add 2001:db8:400::/48 unreachable");
	assert_int_equal(lookup(s, "2001:db8:400::5")->type,
			 LSK_NH_UNREACHABLE);
	cli_ok(s, "route del 2001:db8:400::/48 unreachable");
	cli_ok(s, "route del 2001:db8:200::/40 via fe80::2 port 1");
	assert_int_equal(lookup(s, "2001:db8:200::5")->type, LSK_NH_NONE);

	cli_refused_all(s, route_refusals, RTE_DIM(route_refusals));
}

static void
test_ra(void **state)
{
	struct lsk_stack *s = *state;

	cli_ok(s, "port 1 ra on");
	assert_int_equal(s->sh.fwd6->ra_ifaces, 2);
	cli_ok(s, "port 0 mtu 9000 ra on");
	assert_int_equal(s->sh.fwd6->ra_ifaces, 3);
	cli_ok(s, "port 1 ra off");
	assert_int_equal(s->sh.fwd6->ra_ifaces, 1);
	cli_refused(s, "port 1 ra maybe", -EINVAL,
		"t:1: bad ra 'maybe' (on or off)");
}

/* A batch refused at a later line leaves the IPv6 configuration and the
 * published table as they were. */
static void
test_batch_refused(void **state)
{
	struct lsk_stack *s = *state;
	const struct lsk_fwd6_table *before;
	char *a, *b;

	cli_ok(s, conf6);
	before = s->sh.fwd6;
	a = cli_run(s, "show config", 0, false);
	free(cli_run(s, "address add 2001:db8:0:3::1/64 port 0\n"
		     "route del 2001:db8:100::/48\n"
		     "port 1 ra on\n"
		     "route add 2001:db8:9::/48 via 2001:db8:7::1\n",
		     -ENETUNREACH, false));
	assert_ptr_equal(s->sh.fwd6, before);
	b = cli_run(s, "show config", 0, false);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void
test_show_config_round_trip(void **state)
{
	struct lsk_stack *s = *state, *fresh;
	char *a, *b;

	cli_ok(s, conf6);
	cli_ok(s, "address add 2001:db8:0:5::1/64 port 1 vlan 5\n"
	       "route add 2001:db8:500::/48 via fe80::5 port 1 vlan 5\n"
	       "route add 2001:db8:600::/48 via 2001:db8:0:2::2 weight 3 "
	       "via fe80::5 port 1 vlan 5\n"
	       "address add fe80::1/64 port 0\n"
	       "neigh add fe80::5 02:00:00:00:05:05 port 1 vlan 5\n"
	       "neigh add 2001:db8:0:2::2 lladdr 02:00:00:00:02:02 port 1\n"
	       "port 1 ra on\n");
	a = cli_run(s, "show config", 0, false);
	assert_non_null(strstr(a,
		"port 1 vlan 5\n"
		"port 1 ra on\n"
		"address add 10.0.0.254/24 port 0\n"
		"address add 2001:db8:0:1::1/64 port 0\n"
		"address add 2001:db8:0:2::1/64 port 1\n"
		"address add 2001:db8:0:5::1/64 port 1 vlan 5\n"
		"address add fe80::1/64 port 0\n"
		"route add 2001:db8:100::/48 via 2001:db8:0:2::2\n"
		"route add 2001:db8:200::/40 via fe80::2 port 1\n"
		"route add 2001:db8:300::/48 blackhole\n"
		"route add 2001:db8:500::/48 via fe80::5 port 1 vlan 5\n"
		"route add 2001:db8:600::/48 via 2001:db8:0:2::2 weight 3 "
		"via fe80::5 port 1 vlan 5 weight 1\n"
		"neigh add fe80::5 lladdr 02:00:00:00:05:05 port 1 vlan 5\n"
		"neigh add 2001:db8:0:2::2 lladdr 02:00:00:00:02:02\n"));
	fresh = unit_bare_stack("cmd6f");
	cli_ok(fresh, a);
	b = cli_run(fresh, "show config", 0, false);
	assert_string_equal(a, b);
	free(b);
	/* and the same table */
	assert_int_equal(fresh->sh.fwd6->n_addrs, s->sh.fwd6->n_addrs);
	assert_int_equal(fresh->sh.fwd6->ra_ifaces, 2);
	assert_int_equal(lookup(fresh, "2001:db8:500::1")->iface, 2);
	assert_int_equal(lookup(fresh, "2001:db8:600::1")->type, LSK_NH_GROUP);
	assert_int_equal(lookup(fresh, "2001:db8:600::1")->n_buckets, 4);
	lsk_stack_destroy(fresh);
	free(a);
}

/* config reload's difference on IPv6 lines: each kind added, removed,
 * changed; `port N ra on` is a setting of its own, beside the port's
 * line; a link-local neighbour goes with its port. */
static void
test_diff(void **state)
{
	static const char running[] =
		"port 0 mtu 1500\n"
		"port 1 mtu 1500\n"
		"port 1 ra on\n"
		"address add 2001:db8:0:1::1/64 port 0\n"
		"address add 2001:db8:0:2::1/64 port 1\n"
		"route add 2001:db8:100::/48 via 2001:db8:0:2::2\n"
		"route add 2001:db8:200::/40 via fe80::2 port 1\n"
		"neigh add fe80::2 lladdr 02:00:00:00:02:02 port 1\n";
	static const char wanted[] =
		"port 0 mtu 1500\n"
		"port 1 mtu 1500\n"
		"port 0 ra on\n"
		"address add 2001:db8:0:1::1/64 port 0\n"
		"address add 2001:db8:0:3::1/64 port 1\n"
		"route add 2001:db8:100::/48 via 2001:db8:0:3::2\n"
		"route add 2001:db8:300::/48 blackhole\n";
	struct lsk_config_diff_counts n;
	char *d;

	(void)state;
	d = cli_diff(running, wanted, &n);
	assert_string_equal(d,
		"neigh del fe80::2 port 1\n"
		"route del 2001:db8:200::/40\n"
		"address add 2001:db8:0:3::1/64 port 1\n"
		"address del 2001:db8:0:2::1/64 port 1\n"
		"route replace 2001:db8:100::/48 via 2001:db8:0:3::2\n"
		"route add 2001:db8:300::/48 blackhole\n"
		"port 1 ra off\n"
		"port 0 ra on\n");
	assert_int_equal(n.added, 3);
	assert_int_equal(n.removed, 4);
	assert_int_equal(n.changed, 1);
	free(d);
}

/* Learned routes (lsk_route6_learn) in `show routes` with their
 * protocol, "shadowed" behind a configured one of the same prefix, as
 * IPv4's; never in `show config`. */
static void
test_show_learned(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_route6_learned r[2];
	char *a;

	cli_ok(s, conf6);
	memset(r, 0, sizeof(r));
	assert_int_equal(ip6("2001:db8:100::", &r[0].prefix), 0);
	r[0].depth = 48;
	r[0].proto = 186;	/* bgp */
	r[0].n_paths = 1;
	assert_int_equal(ip6("2001:db8:0:1::9", &r[0].paths[0].gateway), 0);
	r[0].paths[0].iface = LSK_IFACE_ANY;
	r[1] = r[0];
	assert_int_equal(ip6("2001:db8:500::", &r[1].prefix), 0);
	assert_int_equal(lsk_route6_learn(s, r, 2), 0);
	cli_answer(s, "show routes 2001:db8:100::/48", false,
		"the longest match for 2001:db8:100::/48:\n"
		"destination         type       gateway          interface\n"
		"2001:db8:100::/48   via        2001:db8:0:2::2  port1\n"
		"2001:db8:100::/48   via        2001:db8:0:1::9  port0"
		"  proto bgp shadowed\n");
	cli_answer(s, "show routes 2001:db8:500::/48", true,
		"[{\"dst\":\"2001:db8:500::/48\",\"type\":\"via\","
		"\"gateway\":\"2001:db8:0:1::9\",\"dev\":\"port0\","
		"\"proto\":\"bgp\"}]\n");
	a = cli_run(s, "show config", 0, false);
	assert_null(strstr(a, "2001:db8:500::"));
	assert_non_null(strstr(a, "2001:db8:100::/48"));
	free(a);
}

static void
test_show_routes(void **state)
{
	struct lsk_stack *s = *state;

	cli_ok(s, conf6);
	cli_answer(s, "show routes", false,
		"destination         type       gateway          interface\n"
		"10.0.0.0/24         connected  -                port0\n"
		"10.0.0.254/32       local      -                port0\n"
		"2001:db8:0:1::/64   connected  -                port0\n"
		"2001:db8:0:1::1/128  local      -                port0\n"
		"2001:db8:0:2::/64   connected  -                port1\n"
		"2001:db8:0:2::1/128  local      -                port1\n"
		"2001:db8:100::/48   via        2001:db8:0:2::2  port1\n"
		"2001:db8:200::/40   via        fe80::2          port1\n"
		"2001:db8:300::/48   blackhole  -                -\n");
	cli_answer(s, "show routes 2001:db8:100:7::/64", false,
		"the longest match for 2001:db8:100:7::/64:\n"
		"destination         type       gateway          interface\n"
		"2001:db8:100::/48   via        2001:db8:0:2::2  port1\n");
	cli_answer(s, "show routes 2001:db8:999::1", false,
		"no route covers 2001:db8:999::1\n");
	cli_answer(s, "show routes 2001:db8:300::/48", true,
		"[{\"dst\":\"2001:db8:300::/48\",\"type\":\"blackhole\","
		"\"gateway\":null,\"dev\":null}]\n");
	cli_answer(s, "show routes", true,
		"[{\"dst\":\"10.0.0.0/24\",\"type\":\"connected\","
		"\"gateway\":null,\"dev\":\"port0\"},"
		"{\"dst\":\"10.0.0.254/32\",\"type\":\"local\","
		"\"gateway\":null,\"dev\":\"port0\"},"
		"{\"dst\":\"2001:db8:0:1::/64\",\"type\":\"connected\","
		"\"gateway\":null,\"dev\":\"port0\"},"
		"{\"dst\":\"2001:db8:0:1::1/128\",\"type\":\"local\","
		"\"gateway\":null,\"dev\":\"port0\"},"
		"{\"dst\":\"2001:db8:0:2::/64\",\"type\":\"connected\","
		"\"gateway\":null,\"dev\":\"port1\"},"
		"{\"dst\":\"2001:db8:0:2::1/128\",\"type\":\"local\","
		"\"gateway\":null,\"dev\":\"port1\"},"
		"{\"dst\":\"2001:db8:100::/48\",\"type\":\"via\","
		"\"gateway\":\"2001:db8:0:2::2\",\"dev\":\"port1\"},"
		"{\"dst\":\"2001:db8:200::/40\",\"type\":\"via\","
		"\"gateway\":\"fe80::2\",\"dev\":\"port1\"},"
		"{\"dst\":\"2001:db8:300::/48\",\"type\":\"blackhole\","
		"\"gateway\":null,\"dev\":null}]\n");
	cli_refused(s, "show routes 2001:db8::1/48", -EINVAL,
		"t:1: bad prefix '2001:db8::1/48' (want ADDRESS6/LEN)");
}

static void
test_route_get(void **state)
{
	static const struct cli_reply route_get_replies[] = {
		{ "route get 2001:db8:100::5",
		  "2001:db8:100::5 via 2001:db8:0:2::2 dev port1 src "
		  "2001:db8:0:2::1 mtu 1500 prefix 2001:db8:100::/48 route "
		  "neigh none\n" },
		{ "route get 2001:db8:0:1::9",
		  "2001:db8:0:1::9 via 2001:db8:0:1::9 dev port0 src "
		  "2001:db8:0:1::1 mtu 1500 prefix 2001:db8:0:1::/64 "
		  "connected neigh none\n" },
		{ "route get 2001:db8:200::1",
		  "2001:db8:200::1 via fe80::2 dev port1 src 2001:db8:0:2::1 "
		  "mtu 1500 prefix 2001:db8:200::/40 route neigh none\n" },
		{ "route get 2001:db8:0:1::1",
		  "2001:db8:0:1::1 local prefix 2001:db8:0:1::1/128\n" },
		{ "route get 2001:db8:300::1",
		  "2001:db8:300::1 blackhole prefix 2001:db8:300::/48\n" },
		{ "route get 2001:db8:999::1",
		  "2001:db8:999::1 unreachable\n" },
		/* link-local: ours on its port, a neighbour on the port
		 * asked */
		{ "route get fe80::ff:fe00:1 port 1",
		  "fe80::ff:fe00:1 local prefix fe80::ff:fe00:1/128\n" },
		{ "route get fe80::ff:fe00:1",
		  "fe80::ff:fe00:1 local prefix fe80::ff:fe00:1/128\n" },
		{ "route get fe80::ff:fe00:1 port 0",
		  "fe80::ff:fe00:1 via fe80::ff:fe00:1 dev port0 src "
		  "fe80::ff:fe00:0 mtu 1500 prefix fe80::/64 connected neigh "
		  "none\n" },
		{ "route get fe80::9",
		  "fe80::9 unreachable\n" },
	};
	struct lsk_stack *s = *state;
	char *a;

	cli_ok(s, conf6);
	cli_answer_all(s, route_get_replies, RTE_DIM(route_get_replies));
	a = cli_run(s, "route get 2001:db8:100::5", 0, true);
	assert_non_null(strstr(a, "{\"dst\":\"2001:db8:100::5\","
		"\"verdict\":\"forward\",\"origin\":\"route\","
		"\"prefix\":\"2001:db8:100::/48\",\"gateway\":\"2001:db8:0:2::2\","
		"\"iface\":1,\"dev\":\"port1\",\"port\":1,\"vlan\":0,"
		"\"mtu\":1500,\"src\":\"2001:db8:0:2::1\",\"neigh\":\"none\","
		"\"lladdr\":\"\",\"table\":"));
	free(a);
	cli_refused(s, "route get 2001:db8::1 port 9", -ENODEV,
		"t:1: port 9 does not exist (2 ports)");
	cli_refused(s, "route get 2001:db8::1 size 2", -EINVAL,
		"t:1: unknown word 'size' (port, from, proto, sport, dport)");
}


/* Static IPv6 neighbours: in the ND table, in show neigh, route get
 * and show config; refusals; del; flush forgets both families'. */
static void
test_neigh(void **state)
{
	static const struct cli_refusal neigh_refusals[] = {
		{ "neigh add fe80::9 lladdr 02:00:00:00:02:09", -EINVAL,
		  "t:1: fe80::9 is link-local: name its port (fe80::9 port "
		  "N)" },
		{ "neigh add 2001:db8:7::9 lladdr 02:00:00:00:02:09",
		  -ENETUNREACH,
		  "t:1: 2001:db8:7::9 is not on a connected prefix" },
		{ "neigh add 2001:db8:0:2::1 lladdr 02:00:00:00:02:09", -EINVAL,
		  "t:1: 2001:db8:0:2::1 is one of our addresses" },
		{ "neigh add ff02::1 lladdr 02:00:00:00:02:09 port 0", -EINVAL,
		  "t:1: ff02::1 is not a unicast address" },
		{ "neigh add 2001:db8:0:2::9 lladdr 01:00:00:00:02:09", -EINVAL,
		  "t:1: MAC address 01:00:00:00:02:09 is not a unicast "
		  "address" },
		{ "neigh add 2001:db8:0:2::9", -EINVAL,
		  "t:1: usage: neigh add ADDRESS6 lladdr MAC [port N [vlan "
		  "V]] | neigh del ADDRESS6 [port N [vlan V]]" },
		{ "neigh del fe80::2 port 1 vlan 4", -ENODEV,
		  "t:1: port 1 has no vlan 4" },
		{ "neigh del fe80::77 port 1", -ENOENT,
		  "t:1: no neighbour fe80::77 on port 1" },
		{ "neigh del 2001:db8:0:2::77", -ENOENT,
		  "t:1: no neighbour 2001:db8:0:2::77" },
	};
	struct lsk_stack *s = *state;
	struct lsk_ip6_addr a;
	struct rte_ether_addr mac;

	cli_ok(s, conf6);
	cli_ok(s, "neigh add 10.0.0.7 lladdr 02:00:00:00:00:07\n"
	       "neigh add 2001:db8:0:2::2 lladdr 02:00:00:00:02:02\n"
	       "neigh add fe80::2 lladdr 02:00:00:00:02:03 port 1\n"
	       "neigh add fe80::2 02:00:00:00:02:04 port 0\n");
	assert_int_equal(ip6("2001:db8:0:2::2", &a), 0);
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &a, 1, &mac),
			 LSK_NEIGH_STATIC);
	assert_int_equal(mac.addr_bytes[5], 2);
	cli_answer(s, "show neigh", false,
		"ADDRESS          IFACE  MAC                STATE   HELD\n"
		"10.0.0.7         port0  02:00:00:00:00:07  static  0\n"
		"2001:db8:0:2::2  port1  02:00:00:00:02:02  static  0\n"
		"fe80::2          port0  02:00:00:00:02:04  static  0\n"
		"fe80::2          port1  02:00:00:00:02:03  static  0\n");
	cli_answer(s, "route get 2001:db8:100::5", false,
		"2001:db8:100::5 via 2001:db8:0:2::2 dev port1 src "
		"2001:db8:0:2::1 mtu 1500 prefix 2001:db8:100::/48 route "
		"neigh static lladdr 02:00:00:00:02:02\n");
	cli_answer(s, "route get 2001:db8:200::1", false,
		"2001:db8:200::1 via fe80::2 dev port1 src 2001:db8:0:2::1 "
		"mtu 1500 prefix 2001:db8:200::/40 route neigh static lladdr "
		"02:00:00:00:02:03\n");

	cli_refused_all(s, neigh_refusals, RTE_DIM(neigh_refusals));

	cli_ok(s, "neigh del fe80::2 port 0");
	assert_int_equal(ip6("fe80::2", &a), 0);
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &a, 0, &mac), 0);
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &a, 1, &mac),
			 LSK_NEIGH_STATIC);
	assert_int_equal(s->n_neighs6, 2);
	cli_ok(s, "neigh flush");
	assert_int_equal(s->n_neighs6, 0);
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &a, 1, &mac), 0);
	cli_answer(s, "show neigh", false,
		"ADDRESS  IFACE  MAC  STATE  HELD\n");
}

/* A batch sets its neighbours at its commit, and one aborted leaves
 * the ND table and the list as they were; an address deleted takes the
 * static neighbours on its prefix. */
static void
test_neigh_batch(void **state)
{
	struct lsk_stack *s = *state;
	struct lsk_ip6_addr a, b;
	struct rte_ether_addr mac;

	cli_ok(s, conf6);
	cli_ok(s, "neigh add 2001:db8:0:2::2 lladdr 02:00:00:00:02:02\n"
	       "neigh add fe80::2 lladdr 02:00:00:00:02:03 port 1\n");
	assert_int_equal(ip6("2001:db8:0:2::2", &a), 0);
	assert_int_equal(ip6("2001:db8:0:1::5", &b), 0);
	free(cli_run(s, "neigh del 2001:db8:0:2::2\n"
		     "neigh add 2001:db8:0:1::5 lladdr 02:00:00:00:01:05\n"
		     "route add 2001:db8:9::/48 via 2001:db8:7::1\n",
		     -ENETUNREACH, false));
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &a, 1, &mac),
			 LSK_NEIGH_STATIC);
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &b, 0, &mac), 0);
	assert_int_equal(s->n_neighs6, 2);
	cli_ok(s, "neigh del 2001:db8:0:2::2\n"
	       "neigh add 2001:db8:0:1::5 lladdr 02:00:00:00:01:05\n");
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &a, 1, &mac), 0);
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &b, 0, &mac),
			 LSK_NEIGH_STATIC);
	/* the address goes, its neighbour with it; the link-local stays */
	cli_ok(s, "address del 2001:db8:0:1::1/64 port 0");
	assert_int_equal(lsk_nd6_state_of(s->sh.nd6, &b, 0, &mac), 0);
	assert_int_equal(s->n_neighs6, 1);
	assert_int_equal(s->neighs6[0].iface, 1);
}

/* show addresses: IPv6's after IPv4's, each with its DAD state. */
static void
test_show_addresses(void **state)
{
	struct lsk_stack *s = *state;

	cli_ok(s, "address add 10.0.0.254/24 port 0\n"
	       "address add 2001:db8:0:1::1/64 port 0\n");
	cli_answer(s, "show addresses", false,
		"IFACE  ADDRESS             BROADCAST   STATE\n"
		"port0  10.0.0.254/24       10.0.0.255  -\n"
		"port0  fe80::ff:fe00:0/64  -           tentative\n"
		"port1  fe80::ff:fe00:1/64  -           tentative\n"
		"port0  2001:db8:0:1::1/64  -           tentative\n");
	cli_answer(s, "show addresses", true,
		"[{\"iface\": \"port0\", \"address\": \"10.0.0.254/24\", "
		"\"broadcast\": \"10.0.0.255\"}, "
		"{\"iface\": \"port0\", \"address\": \"fe80::ff:fe00:0/64\", "
		"\"broadcast\": null, \"scope\": \"link\", \"state\": "
		"\"tentative\"}, "
		"{\"iface\": \"port1\", \"address\": \"fe80::ff:fe00:1/64\", "
		"\"broadcast\": null, \"scope\": \"link\", \"state\": "
		"\"tentative\"}, "
		"{\"iface\": \"port0\", \"address\": \"2001:db8:0:1::1/64\", "
		"\"broadcast\": null, \"scope\": \"global\", \"state\": "
		"\"tentative\"}]\n");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_address),
		T(test_route),
		T(test_ra),
		T(test_batch_refused),
		T(test_show_config_round_trip),
		cmocka_unit_test(test_diff),
		T(test_show_routes),
		T(test_show_learned),
		T(test_route_get),
		T(test_neigh),
		T(test_neigh_batch),
		T(test_show_addresses),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
