/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd_table: precedence as Linux's local table before its main table:
 * our addresses and broadcasts always win, then the most specific route or
 * connected subnet, with a neighbour /32 only where the neighbour is
 * reached directly; blackholes; route del; next hop sharing. Each case is
 * observed as a user would: where a packet to the destination goes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "unit_common.h"
#include "core/fwd.h"
#include "l2/l2.h"

/* What became of one packet. */
struct outcome {
	char kind;	/* 's'ent, 'l'ocal, 'n'o route, 'b'lackhole,
			 * 'u'nresolved next hop (waiting for ARP),
			 * '?' anything else */
	uint16_t port;
	struct rte_ether_addr dst_mac, src_mac;
	/* an ARP request the packet made the stack send */
	unsigned int n_arp;
	uint16_t arp_port;
	uint32_t arp_tip;
};

/* Note the ARP requests among the captured frames. */
static void
note_arp(struct unit_fixture *f, struct outcome *o)
{
	unsigned int port, i;

	for (port = 0; port < LSK_MAX_PORTS; port++) {
		for (i = 0; i < f->tx.n[port]; i++) {
			struct rte_mbuf *m = f->tx.pkts[port][i];
			const uint8_t *a;

			if (!unit_frame_is_arp(m))
				continue;
			a = rte_pktmbuf_mtod_offset(m, const uint8_t *,
						    UNIT_ETH_LEN);
			o->n_arp++;
			o->arp_port = (uint16_t)port;
			o->arp_tip = (uint32_t)a[24] << 24 |
				     (uint32_t)a[25] << 16 |
				     (uint32_t)a[26] << 8 | a[27];
		}
	}
}

/*
 * Send one packet to dst (from a far source, on P0) and see where it went.
 * Only the datagram itself counts as sent: frames the stack makes on its
 * own (ICMP errors, ARP requests) are not the packet. A packet waiting
 * for ARP is dropped at once (lsk_neigh_drop_held), so the next one to
 * the same hop waits alone.
 */
static struct outcome
where(struct unit_fixture *f, uint32_t dst)
{
	struct lsk_stats before = unit_stats(f), after;
	struct outcome o = { .kind = '?' };
	struct unit_pkt p;
	unsigned int port, i, sent = 0, held;

	unit_pkt_init(&p, dst);
	p.src = UNIT_IPV4(172, 16, 0, 1);
	p.payload_len = 18;
	unit_input_pkt(f, &p);
	held = lsk_neigh_drop_held(f->stack);
	after = unit_stats(f);
	note_arp(f, &o);

	for (port = 0; port < LSK_MAX_PORTS; port++) {
		for (i = 0; i < f->tx.n[port]; i++) {
			struct rte_mbuf *m = f->tx.pkts[port][i];
			const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m,
				const struct rte_ether_hdr *);

			if (eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
			    unit_ip4(m)->next_proto_id != IPPROTO_UDP ||
			    unit_ip4(m)->dst_addr != rte_cpu_to_be_32(dst))
				continue;
			sent++;
			o.port = (uint16_t)port;
			o.dst_mac = eh->dst_addr;
			o.src_mac = eh->src_addr;
		}
	}
	unit_tx_free(f);

	if (sent == 1 && held == 0)
		o.kind = 's';
	else if (sent > 1 || held > 1)
		o.kind = '?';
	else if (held == 1)
		o.kind = 'u';
	else if (after.ip.InDelivers > before.ip.InDelivers)
		o.kind = 'l';
	else if (after.ip.InNoRoutes > before.ip.InNoRoutes)
		o.kind = 'n';
	else if (after.ip.InDiscards > before.ip.InDiscards)
		o.kind = 'b';
	return o;
}

static void
assert_kind(struct unit_fixture *f, uint32_t dst, char kind)
{
	struct outcome o = where(f, dst);

	if (o.kind != kind)
		print_error("%u.%u.%u.%u: '%c', expected '%c'\n", dst >> 24,
			    (dst >> 16) & 0xff, (dst >> 8) & 0xff, dst & 0xff,
			    o.kind, kind);
	assert_int_equal(o.kind, kind);
}

/*
 * dst waits for ARP to find next_hop out of port: the stack asks for it
 * unless it asked already (one request per resolution, retries by timer).
 */
static void
assert_unresolved(struct unit_fixture *f, uint32_t dst, uint16_t port,
		  uint32_t next_hop)
{
	struct outcome o = where(f, dst);
	const struct lsk_neigh_entry *e;

	if (o.kind != 'u')
		print_error("%u.%u.%u.%u: '%c', expected 'u'\n", dst >> 24,
			    (dst >> 16) & 0xff, (dst >> 8) & 0xff, dst & 0xff,
			    o.kind);
	assert_int_equal(o.kind, 'u');
	assert_true(o.n_arp <= 1);
	if (o.n_arp == 1) {
		assert_int_equal(o.arp_port, port);
		assert_int_equal(o.arp_tip, next_hop);
	}
	e = lsk_neigh_lookup(f->stack->sh.neigh, next_hop);
	assert_non_null(e);
	assert_int_equal(e->word >> 56, LSK_NEIGH_INCOMPLETE);
	assert_int_equal(e->port, port);
}

/* dst leaves by port, to mac, from the port's MAC. */
static void
assert_sent(struct unit_fixture *f, uint32_t dst, uint16_t port,
	    const struct rte_ether_addr *mac)
{
	struct rte_ether_addr port_mac;
	struct outcome o;

	assert_kind(f, dst, 's');
	o = where(f, dst);
	assert_int_equal(o.port, port);
	assert_memory_equal(&o.dst_mac, mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(lsk_port_get(f->stack, port, &port_mac, NULL), 0);
	assert_memory_equal(&o.src_mac, &port_mac, RTE_ETHER_ADDR_LEN);
}

static const struct rte_ether_addr mac_h7 = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07 } };
static const struct rte_ether_addr mac_gw2 = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x02 } };

/* Connected subnets: a host goes out its port once its MAC is known. */
static void
test_connected(void **state)
{
	struct unit_fixture *f = *state;

	assert_sent(f, UNIT_A_IP, UNIT_P0, &unit_a_mac);
	assert_sent(f, UNIT_B_IP, UNIT_P1, &unit_b_mac);
	assert_unresolved(f, UNIT_IPV4(10, 0, 0, 7), UNIT_P0,
			  UNIT_IPV4(10, 0, 0, 7));
	assert_unresolved(f, UNIT_IPV4(10, 0, 1, 7), UNIT_P1,
			  UNIT_IPV4(10, 0, 1, 7));
	unit_cmd(f, "neigh add 10.0.0.7 lladdr 02:00:00:00:00:07");
	assert_sent(f, UNIT_IPV4(10, 0, 0, 7), UNIT_P0, &mac_h7);
	/* a neighbour on the other subnet is not this one */
	assert_unresolved(f, UNIT_IPV4(10, 0, 1, 7), UNIT_P1,
			  UNIT_IPV4(10, 0, 1, 7));
}

/* Routes via a gateway take the gateway's MAC; unknown gateway, then
 * known. */
static void
test_via_routes(void **state)
{
	struct unit_fixture *f = *state;

	assert_sent(f, UNIT_FAR_IP, UNIT_P1, &unit_b_mac);
	assert_sent(f, UNIT_IPV4(10, 9, 255, 255), UNIT_P1, &unit_b_mac);
	assert_kind(f, UNIT_IPV4(10, 10, 0, 1), 'n');

	unit_cmd(f, "route add 10.8.0.0/16 via 10.0.1.2");
	assert_unresolved(f, UNIT_IPV4(10, 8, 0, 1), UNIT_P1,
			  UNIT_IPV4(10, 0, 1, 2));
	unit_cmd(f, "neigh add 10.0.1.2 lladdr 02:00:00:00:01:02");
	assert_sent(f, UNIT_IPV4(10, 8, 0, 1), UNIT_P1, &mac_gw2);
	assert_sent(f, UNIT_IPV4(10, 0, 1, 2), UNIT_P1, &mac_gw2);
}

/*
 * A route more specific than a connected subnet wins over it, and over
 * the neighbour entries inside it; deleting the route gives the subnet
 * back, neighbours included.
 */
static void
test_route_more_specific_than_connected(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "route add 10.0.0.0/25 via 10.0.1.1");
	assert_sent(f, UNIT_A_IP, UNIT_P1, &unit_b_mac);
	assert_sent(f, UNIT_IPV4(10, 0, 0, 127), UNIT_P1, &unit_b_mac);
	assert_unresolved(f, UNIT_IPV4(10, 0, 0, 128), UNIT_P0,
			  UNIT_IPV4(10, 0, 0, 128));	/* connected */
	assert_kind(f, UNIT_P0_IP, 'l');
	assert_kind(f, UNIT_IPV4(10, 0, 0, 255), 'l');

	unit_cmd(f, "route del 10.0.0.0/25");
	assert_sent(f, UNIT_A_IP, UNIT_P0, &unit_a_mac);
	assert_unresolved(f, UNIT_IPV4(10, 0, 0, 127), UNIT_P0,
			  UNIT_IPV4(10, 0, 0, 127));
}

/* A host route to a neighbour beats the neighbour's own entry. */
static void
test_host_route_beats_neighbour(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "route add 10.0.0.1/32 via 10.0.1.1");
	assert_sent(f, UNIT_A_IP, UNIT_P1, &unit_b_mac);
	unit_cmd(f, "route del 10.0.0.1/32");
	assert_sent(f, UNIT_A_IP, UNIT_P0, &unit_a_mac);
}

/* Our addresses and broadcasts are local whatever the routes say. */
static void
test_local_always_wins(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "route add 10.0.0.252/30 via 10.0.1.1");
	unit_cmd(f, "route add 10.0.1.254/32 blackhole");
	unit_cmd(f, "route add default via 10.0.1.1");
	assert_kind(f, UNIT_P0_IP, 'l');
	assert_kind(f, UNIT_IPV4(10, 0, 0, 255), 'l');
	assert_sent(f, UNIT_IPV4(10, 0, 0, 253), UNIT_P1, &unit_b_mac);
	assert_kind(f, UNIT_P1_IP, 'l');
	assert_kind(f, UINT32_MAX, 'l');
	assert_sent(f, UNIT_IPV4(192, 168, 77, 1), UNIT_P1, &unit_b_mac);
}

/* B19, C23: the limited broadcast and the other port's address and
 * broadcast are local. */
static void
test_broadcasts_and_weak_host(void **state)
{
	struct unit_fixture *f = *state;

	assert_kind(f, UINT32_MAX, 'l');
	assert_kind(f, UNIT_P1_IP, 'l');
	assert_kind(f, UNIT_IPV4(10, 0, 1, 255), 'l');
}

/* route del: the prefix goes back to whatever covers it, or to no route;
 * only added routes can be deleted. */
static void
test_route_del(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "route add 10.8.0.0/16 via 10.0.0.1");
	assert_sent(f, UNIT_IPV4(10, 8, 1, 1), UNIT_P0, &unit_a_mac);
	unit_cmd(f, "route del 10.8.0.0/16");
	assert_kind(f, UNIT_IPV4(10, 8, 1, 1), 'n');
	assert_int_equal(unit_cmd_rc(f, "route del 10.8.0.0/16"), -ENOENT);
	assert_int_equal(unit_cmd_rc(f, "route del 10.0.0.0/24"), -ENOENT);

	/* a less specific route takes over, then nothing */
	unit_cmd(f, "route add 10.0.0.0/8 via 10.0.0.1");
	unit_cmd(f, "route del 10.9.0.0/16");
	assert_sent(f, UNIT_FAR_IP, UNIT_P0, &unit_a_mac);
	unit_cmd(f, "route del 10.0.0.0/8");
	assert_kind(f, UNIT_FAR_IP, 'n');
	/* the connected subnets and neighbours are untouched */
	assert_sent(f, UNIT_B_IP, UNIT_P1, &unit_b_mac);
}

/* Blackholes drop (InDiscards); a more specific route inside one wins,
 * and a blackhole inside a route wins there. */
static void
test_blackhole(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	unit_cmd(f, "route add 10.66.1.0/24 via 10.0.1.1");
	unit_cmd(f, "route add 10.9.0.5/32 blackhole");
	assert_kind(f, UNIT_IPV4(10, 66, 2, 1), 'b');
	assert_sent(f, UNIT_IPV4(10, 66, 1, 1), UNIT_P1, &unit_b_mac);
	assert_kind(f, UNIT_FAR_IP, 'b');
	assert_sent(f, UNIT_IPV4(10, 9, 0, 6), UNIT_P1, &unit_b_mac);

	unit_cmd(f, "route add default blackhole");
	assert_kind(f, UNIT_IPV4(192, 168, 77, 1), 'b');
	assert_kind(f, UNIT_P0_IP, 'l');
	unit_cmd(f, "route del default");
	assert_kind(f, UNIT_IPV4(192, 168, 77, 1), 'n');
}

/* Routes via the same gateway share one next hop, as do the gateway's
 * neighbour entry and every blackhole. */
static void
test_nexthop_dedup(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int base, i;
	char cmd[64];

	/* none, connected P0, connected P1, A, B (= via B), local, local
	 * broadcast */
	base = f->stack->sh.fwd->n_nexthops;
	assert_int_equal(base, 7);

	for (i = 0; i < 20; i++) {
		snprintf(cmd, sizeof(cmd), "route add 10.%u.0.0/16 via %s",
			 100 + i, i % 2 ? "10.0.1.1" : "10.0.0.1");
		unit_cmd(f, cmd);
	}
	assert_int_equal(f->stack->sh.fwd->n_nexthops, base);
	for (i = 0; i < 3; i++) {
		snprintf(cmd, sizeof(cmd), "route add 10.%u.0.0/16 blackhole",
			 200 + i);
		unit_cmd(f, cmd);
	}
	assert_int_equal(f->stack->sh.fwd->n_nexthops, base + 1);
	for (i = 0; i < 3; i++) {
		snprintf(cmd, sizeof(cmd), "route add 10.%u.0.0/16 via "
			 "10.0.1.2", 210 + i);
		unit_cmd(f, cmd);
	}
	assert_int_equal(f->stack->sh.fwd->n_nexthops, base + 2);

	/* shared or not, each still goes where it should */
	assert_sent(f, UNIT_IPV4(10, 100, 0, 1), UNIT_P0, &unit_a_mac);
	assert_sent(f, UNIT_IPV4(10, 101, 0, 1), UNIT_P1, &unit_b_mac);
	assert_kind(f, UNIT_IPV4(10, 201, 0, 1), 'b');
	assert_unresolved(f, UNIT_IPV4(10, 211, 0, 1), UNIT_P1,
			  UNIT_IPV4(10, 0, 1, 2));
}

/* A new MAC for a neighbour applies to its host entry and to every route
 * through it. */
static void
test_neighbour_mac_change(void **state)
{
	static const struct rte_ether_addr mac = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x42 } };
	struct unit_fixture *f = *state;

	unit_cmd(f, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:42");
	assert_sent(f, UNIT_B_IP, UNIT_P1, &mac);
	assert_sent(f, UNIT_FAR_IP, UNIT_P1, &mac);
	assert_sent(f, UNIT_A_IP, UNIT_P0, &unit_a_mac);
}

/* Port MAC and MTU changes reach the forwarded frames. */
static void
test_port_changes(void **state)
{
	static const struct rte_ether_addr mac = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x99 } };
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	struct rte_ether_addr now;
	struct outcome o;

	unit_cmd(f, "port 1 mac 02:00:00:00:01:99 mtu 1000");
	assert_int_equal(lsk_port_get(f->stack, UNIT_P1, &now, NULL), 0);
	assert_memory_equal(&now, &mac, RTE_ETHER_ADDR_LEN);
	assert_sent(f, UNIT_FAR_IP, UNIT_P1, &unit_b_mac);
	o = where(f, UNIT_FAR_IP);
	assert_memory_equal(&o.src_mac, &mac, RTE_ETHER_ADDR_LEN);
	unit_pkt_init(&p, UNIT_FAR_IP);			/* tot_len 1028 */
	unit_input_pkt(f, &p);
	assert_int_equal(unit_stats(f).ip.FragFails, 1);
	/* frames to the old MAC are no longer ours */
	unit_pkt_init(&p, UNIT_P1_IP);
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	unit_input_pkt(f, &p);
	assert_int_equal(unit_stats(f).eth.NotForUs, 1);
}

/* A new interface address brings its local, broadcast and subnet. */
static void
test_address_added(void **state)
{
	struct unit_fixture *f = *state;

	assert_kind(f, UNIT_IPV4(10, 0, 2, 254), 'n');
	unit_cmd(f, "address add 10.0.2.254/24 port 1");
	assert_kind(f, UNIT_IPV4(10, 0, 2, 254), 'l');
	assert_kind(f, UNIT_IPV4(10, 0, 2, 255), 'l');
	assert_unresolved(f, UNIT_IPV4(10, 0, 2, 7), UNIT_P1,
			  UNIT_IPV4(10, 0, 2, 7));
	unit_cmd(f, "neigh add 10.0.2.7 lladdr 02:00:00:00:00:07");
	assert_sent(f, UNIT_IPV4(10, 0, 2, 7), UNIT_P1, &mac_h7);
}

/*
 * The same subnet on a second port is refused (issue 22: which port
 * reaches its hosts would be a guess): the table stays as it was, a
 * neighbour with a static entry reachable by its port.
 */
static void
test_same_subnet_on_two_ports(void **state)
{
	struct unit_fixture *f = *state;
	struct outcome o;

	assert_int_equal(unit_cmd_rc(f, "address add 10.0.0.253/24 port 1"),
			 -EADDRINUSE);
	assert_unresolved(f, UNIT_IPV4(10, 0, 0, 253), UNIT_P0,
			  UNIT_IPV4(10, 0, 0, 253));
	assert_kind(f, UNIT_A_IP, 's');
	o = where(f, UNIT_A_IP);
	assert_memory_equal(&o.dst_mac, &unit_a_mac, RTE_ETHER_ADDR_LEN);
}

/* Refused changes leave the table as it was. */
static void
test_refused_changes(void **state)
{
	struct unit_fixture *f = *state;

	assert_int_equal(unit_cmd_rc(f, "route add 10.9.0.0/16 via 10.0.0.1"),
			 -EEXIST);
	assert_int_equal(unit_cmd_rc(f, "route add 10.7.0.0/16 via 10.5.0.1"),
			 -ENETUNREACH);
	assert_int_equal(unit_cmd_rc(f, "neigh add 10.5.0.1 lladdr "
				     "02:00:00:00:05:01"), -ENETUNREACH);
	assert_int_equal(unit_cmd_rc(f, "address add 10.0.0.254/16 port 1"),
			 -EEXIST);
	assert_sent(f, UNIT_FAR_IP, UNIT_P1, &unit_b_mac);
	assert_kind(f, UNIT_IPV4(10, 7, 0, 1), 'n');
	assert_kind(f, UNIT_IPV4(10, 5, 0, 1), 'n');
}

/*
 * Prefixes longer than /24 each take a DIR-24-8 second-level group: many
 * host routes (here 6000 /32s, each in its own /24, some via one gateway,
 * some blackholed) all go in and each answers for its address only.
 */
static void
test_many_host_routes(void **state)
{
	struct unit_fixture *f = *state;
	const uint32_t n = 6000;
	uint32_t i;

	unit_cmd(f, "neigh add 10.0.1.2 lladdr 02:00:00:00:01:02");
	lsk_config_begin(f->stack);
	for (i = 0; i < n; i++)
		assert_int_equal(lsk_route_add(f->stack,
			UNIT_IPV4(100, 64, 0, 9) + (i << 8), 32,
			i % 3 ? LSK_ROUTE_VIA : LSK_ROUTE_BLACKHOLE,
			UNIT_IPV4(10, 0, 1, 2)), 0);
	assert_int_equal(lsk_config_commit(f->stack), 0);
	unit_worker_sync(f);
	for (i = 0; i < n; i += 997) {
		uint32_t a = UNIT_IPV4(100, 64, 0, 9) + (i << 8);

		if (i % 3)
			assert_sent(f, a, UNIT_P1, &mac_gw2);
		else
			assert_kind(f, a, 'b');
		/* the next address of its /24 has no route */
		assert_kind(f, a + 1, 'n');
	}
}


static const struct rte_ether_addr mac_b42 = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x42 } };

/* What the fixture forwards, and that 10.77/16 and 10.0.2/24 are not
 * routed (the failed changes below would have routed them). */
static void
assert_fixture_forwarding(struct unit_fixture *f)
{
	assert_sent(f, UNIT_A_IP, UNIT_P0, &unit_a_mac);
	assert_sent(f, UNIT_B_IP, UNIT_P1, &unit_b_mac);
	assert_sent(f, UNIT_FAR_IP, UNIT_P1, &unit_b_mac);
	assert_unresolved(f, UNIT_IPV4(10, 0, 1, 7), UNIT_P1,
			  UNIT_IPV4(10, 0, 1, 7));
	assert_kind(f, UNIT_IPV4(10, 77, 0, 1), 'n');
	assert_kind(f, UNIT_IPV4(10, 0, 2, 254), 'n');
}

/*
 * Finding 9: a change whose table cannot be built (EAL memory used up)
 * fails with -ENOMEM and changes nothing: the table published before
 * stays in force, whole, and the configuration is as it was (the same
 * change succeeds once memory is back, the inverse ones still fail).
 */
static void
test_change_without_memory_changes_nothing(void **state)
{
	static const char *const changes[] = {
		"route add 10.77.0.0/16 via 10.0.1.1",
		"route add 10.0.1.7/32 blackhole",
		"route del 10.9.0.0/16",
		"address add 10.0.2.254/24 port 0",
		"neigh add 10.0.1.1 lladdr 02:00:00:00:01:42",
		"neigh add 10.0.1.7 lladdr 02:00:00:00:01:42",
		"port 1 mtu 1000",
		"port 1 mac 02:00:00:00:01:99",
	};
	struct unit_fixture *f = *state;
	const struct lsk_fwd_table *before = f->stack->sh.fwd;
	struct rte_ether_addr mac;
	size_t heap = unit_heap_allocated();
	unsigned int i;
	uint16_t mtu;

	unit_eat_memory();
	for (i = 0; i < RTE_DIM(changes); i++) {
		int rc = unit_cmd_rc(f, changes[i]);

		if (rc != -ENOMEM)
			print_error("'%s': %d\n", changes[i], rc);
		assert_int_equal(rc, -ENOMEM);
		assert_ptr_equal(f->stack->sh.fwd, before);
	}
	assert_fixture_forwarding(f);
	assert_int_equal(lsk_port_get(f->stack, UNIT_P1, &mac, &mtu), 0);
	assert_memory_equal(&mac, &unit_p1_mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(mtu, 1500);
	unit_free_memory();
	assert_int_equal(unit_heap_allocated(), heap);

	/* the configuration is the fixture's: what failed was never kept */
	assert_int_equal(unit_cmd_rc(f, "route del 10.77.0.0/16"), -ENOENT);
	assert_int_equal(unit_cmd_rc(f, "route del 10.0.1.7/32"), -ENOENT);
	for (i = 0; i < RTE_DIM(changes); i++)
		unit_cmd(f, changes[i]);
	assert_sent(f, UNIT_IPV4(10, 77, 0, 1), UNIT_P1, &mac_b42);
	assert_kind(f, UNIT_IPV4(10, 0, 2, 254), 'l');
}

/*
 * The same for a batch (lsk_config_begin ... lsk_config_commit): a commit
 * whose tables cannot be built leaves the tables in force and the whole
 * configuration as it was at lsk_config_begin.
 */
static void
test_batch_without_memory_changes_nothing(void **state)
{
	static const char *const batch[] = {
		"route add 10.77.0.0/16 via 10.0.1.1",
		"route del 10.9.0.0/16",
		"address add 10.0.2.254/24 port 0 vlan 7",
		"neigh add 10.0.1.7 lladdr 02:00:00:00:01:42",
		"port 1 mtu 1000",
		"filter add drop proto udp dport 9",
	};
	struct unit_fixture *f = *state;
	const struct lsk_fwd_table *before = f->stack->sh.fwd;
	size_t heap = unit_heap_allocated();
	char err[256];
	unsigned int i;
	uint16_t mtu;

	lsk_worker_offline(f->worker);
	lsk_config_begin(f->stack);
	for (i = 0; i < RTE_DIM(batch); i++)
		assert_int_equal(lsk_config_exec(f->stack, batch[i], "b", i + 1,
						 err, sizeof(err)), 0);
	unit_eat_memory();
	assert_int_equal(lsk_config_commit(f->stack), -ENOMEM);
	unit_free_memory();
	unit_worker_sync(f);
	assert_ptr_equal(f->stack->sh.fwd, before);
	assert_null(f->stack->sh.filter);
	assert_int_equal(unit_heap_allocated(), heap);
	assert_fixture_forwarding(f);
	assert_int_equal(lsk_port_get(f->stack, UNIT_P1, NULL, &mtu), 0);
	assert_int_equal(mtu, 1500);
	assert_int_equal(f->stack->n_ifaces, 2);
	assert_int_equal(f->stack->n_filters, 0);

	/* the batch again, one command at a time: each finds the fixture */
	for (i = 0; i < RTE_DIM(batch); i++)
		unit_cmd(f, batch[i]);
	assert_sent(f, UNIT_IPV4(10, 0, 1, 7), UNIT_P1, &mac_b42);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_connected),
		T(test_via_routes),
		T(test_route_more_specific_than_connected),
		T(test_host_route_beats_neighbour),
		T(test_local_always_wins),
		T(test_broadcasts_and_weak_host),
		T(test_route_del),
		T(test_blackhole),
		T(test_nexthop_dedup),
		T(test_neighbour_mac_change),
		T(test_port_changes),
		T(test_address_added),
		T(test_same_subnet_on_two_ports),
		T(test_refused_changes),
		T(test_many_host_routes),
		T(test_change_without_memory_changes_nothing),
		T(test_batch_without_memory_changes_nothing),
	};

	return cmocka_run_group_tests_name("fwd_table", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
