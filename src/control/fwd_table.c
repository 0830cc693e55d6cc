/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding table: an rte_fib (DIR-24-8) whose values index a next hop
 * array, built from the stack's configuration (addresses, routes,
 * neighbours). A build makes a whole new table; a route change is made to
 * a table no worker sees (lsk_fwd_route_set, control/fwd_update.c). The
 * FIB is sized from what it holds, with room for changes made in place.
 *
 * Precedence, as Linux's local table before its main table: connected
 * subnets, then routes (more specific wins in the FIB), then a /32 for each
 * neighbour whose best route is its connected subnet (so a forwarded packet
 * finds its Ethernet header in one lookup), then our own addresses and
 * broadcasts, which always win.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_fib.h>
#include <rte_malloc.h>

#include "core/fwd.h"
#include "control/control.h"
#include "ip4/fib4_prefetch.h"

/* 2-byte next hops keep tbl24 at 32 MiB; the top bit is the FIB's own. */
#define FWD_MAX_NEXTHOPS 32767
#define FWD_MAX_NEXTHOPS_1B 127

struct fwd_builder {
	struct lsk_stack *s;
	struct lsk_fwd_table *t;
};

static const struct lsk_neigh *
neigh_find(const struct lsk_stack *s, uint32_t addr)
{
	unsigned int i;

	for (i = 0; i < s->n_neighs; i++)
		if (s->neighs[i].addr == addr)
			return &s->neighs[i];
	return NULL;
}

const struct lsk_ifaddr *
lsk_connected_lookup(const struct lsk_stack *s, uint32_t addr)
{
	return lsk_ifaddr_connected(s->addrs, s->n_addrs, addr);
}

/* Find or append the next hop; returns its index or a negative errno. */
static int
nh_get(struct fwd_builder *b, const struct lsk_nexthop *want)
{
	struct lsk_fwd_table *t = b->t;
	uint32_t i;

	for (i = 1; i < t->n_nexthops; i++)
		if (memcmp(&t->nexthops[i], want, sizeof(*want)) == 0)
			return (int)i;
	if (t->n_nexthops == t->nh_cap)
		return -ENOSPC;
	t->nexthops[t->n_nexthops] = *want;
	return (int)t->n_nexthops++;
}

static int
nh_forward(struct fwd_builder *b, uint16_t port, uint32_t gateway)
{
	const struct lsk_stack *s = b->s;
	const struct lsk_neigh *n = neigh_find(s, gateway);
	struct lsk_nexthop nh;

	memset(&nh, 0, sizeof(nh));
	nh.type = LSK_NH_FORWARD;
	nh.port = port;
	nh.mtu = s->ports[port].mtu;
	nh.gateway = gateway;
	nh.src_mac = s->ports[port].mac;
	if (n != NULL) {
		nh.resolved = 1;
		nh.dst_mac = n->mac;
	}
	return nh_get(b, &nh);
}

static int
nh_simple(struct fwd_builder *b, enum lsk_nh_type type)
{
	struct lsk_nexthop nh;

	memset(&nh, 0, sizeof(nh));
	nh.type = type;
	return nh_get(b, &nh);
}

static int
fib_put(struct fwd_builder *b, uint32_t prefix, uint8_t depth, int nh)
{
	if (nh < 0)
		return nh;
	return rte_fib_add(b->t->fib, prefix & lsk_depth_mask(depth), depth,
			   (uint64_t)nh);
}

static bool
addr_has_broadcast(const struct lsk_ifaddr *a)
{
	return a->depth < 31;
}

static uint32_t
addr_broadcast(const struct lsk_ifaddr *a)
{
	return a->addr | ~lsk_depth_mask(a->depth);
}

static bool
subnet_seen_before(const struct lsk_stack *s, unsigned int i)
{
	uint32_t mask = lsk_depth_mask(s->addrs[i].depth);
	unsigned int j;

	for (j = 0; j < i; j++)
		if (s->addrs[j].depth == s->addrs[i].depth &&
		    (s->addrs[j].addr & mask) == (s->addrs[i].addr & mask))
			return true;
	return false;
}

static int
build_connected(struct fwd_builder *b)
{
	const struct lsk_stack *s = b->s;
	unsigned int i;
	int rc;

	for (i = 0; i < s->n_addrs; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];

		/* a subnet configured twice stays with its first port, as
		 * lsk_connected_lookup (and Linux's first route) has it */
		if (subnet_seen_before(s, i))
			continue;
		/* the host itself is the gateway of a connected route; the
		 * unresolved next hop stands for "any host on this subnet"
		 * until a neighbour /32 gives the real one */
		rc = fib_put(b, a->addr, a->depth, nh_forward(b, a->port, 0));
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The next hop of one path: -ENETUNREACH when no iface is given and
 * the gateway is on no connected subnet. */
static int
nh_path(struct fwd_builder *b, const struct lsk_route_path *p)
{
	const struct lsk_ifaddr *a;

	if (p->iface != LSK_IFACE_ANY)
		return p->iface < b->s->n_ifaces ?
		       nh_forward(b, p->iface, p->gateway) : -ENETUNREACH;
	a = lsk_connected_lookup(b->s, p->gateway);
	if (a == NULL)
		return -ENETUNREACH;
	return nh_forward(b, a->port, p->gateway);
}

/* The next hop of route r in b's table: a group for several paths
 * (control/fwd_group.c); a path that cannot be had is left out. */
static int
nh_route(struct fwd_builder *b, const struct lsk_route *r)
{
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
	uint32_t members[LSK_ROUTE_MAX_PATHS];
	uint16_t weights[LSK_ROUTE_MAX_PATHS];
	unsigned int i, n, k = 0;
	int nh = -ENETUNREACH;

	switch (r->type) {
	case LSK_ROUTE_BLACKHOLE:
		return nh_simple(b, LSK_NH_BLACKHOLE);
	case LSK_ROUTE_UNREACHABLE:
		return nh_simple(b, LSK_NH_UNREACHABLE);
	case LSK_ROUTE_PROHIBIT:
		return nh_simple(b, LSK_NH_PROHIBIT);
	default:
		break;
	}
	n = lsk_route_paths(b->s, r, p);
	for (i = 0; i < n; i++) {
		nh = nh_path(b, &p[i]);
		if (nh == -ENETUNREACH)
			continue;
		if (nh < 0)
			return nh;
		members[k] = (uint32_t)nh;
		weights[k++] = p[i].weight ? p[i].weight : 1;
	}
	if (k <= 1)
		return nh;
	return lsk_fwd_group_get(b->t, members, weights, k);
}

static int
build_routes(struct fwd_builder *b)
{
	const struct lsk_stack *s = b->s;
	unsigned int i;
	int rc;

	for (i = 0; i < s->n_routes; i++) {
		const struct lsk_route *r = &s->routes[i];

		rc = fib_put(b, r->prefix, r->depth, nh_route(b, r));
		if (rc < 0)
			return rc;
	}
	/* learned routes, but those a configured one stands in front of;
	 * one whose paths went (an address deleted) is left out */
	for (i = 0; i < s->n_learned; i++) {
		const struct lsk_route *r = &s->learned[i];

		if (lsk_route_find(s, r->prefix, r->depth) != NULL)
			continue;
		rc = fib_put(b, r->prefix, r->depth, nh_route(b, r));
		if (rc < 0 && rc != -ENETUNREACH)
			return rc;
	}
	return 0;
}

int
lsk_fwd_route_set(struct lsk_stack *s, struct lsk_fwd_table *t,
		  const struct lsk_route *r)
{
	struct fwd_builder b = { .s = s, .t = t };
	uint32_t n_nexthops = t->n_nexthops;
	uint32_t n_words = t->n_group_words;
	int rc = fib_put(&b, r->prefix, r->depth, nh_route(&b, r));

	/* a failed rte_fib_add leaves the FIB as it was (its RIB node is
	 * taken back); a next hop or group appended for it goes too */
	if (rc < 0) {
		t->n_nexthops = n_nexthops;
		t->n_group_words = n_words;
	}
	return rc;
}

int
lsk_fwd_route_unset(struct lsk_fwd_table *t, uint32_t prefix, uint8_t depth)
{
	return rte_fib_delete(t->fib, prefix, depth);
}

/*
 * A change of (prefix, depth) that touches no other entry of a table
 * built whole: the neighbour /32s a build adds depend on which route is
 * best for the neighbour (build_neighbours), and our own /32s must win
 * (build_local).
 */
bool
lsk_fwd_route_isolated(const struct lsk_stack *s, uint32_t prefix,
		       uint8_t depth)
{
	uint32_t mask = lsk_depth_mask(depth);
	unsigned int i;

	if (depth == 32 && (prefix == UINT32_MAX || lsk_stack_is_own(s, prefix)
			    || lsk_stack_is_broadcast(s, prefix)))
		return false;
	for (i = 0; i < s->n_neighs; i++) {
		uint32_t addr = s->neighs[i].addr;
		const struct lsk_ifaddr *a;

		if ((addr & mask) != prefix)
			continue;
		a = lsk_connected_lookup(s, addr);
		if (a != NULL && depth > a->depth)
			return false;
	}
	return true;
}

static int
build_neighbours(struct fwd_builder *b)
{
	const struct lsk_stack *s = b->s;
	unsigned int i;
	int rc;

	for (i = 0; i < s->n_neighs; i++) {
		uint32_t addr = s->neighs[i].addr;
		const struct lsk_ifaddr *a = lsk_connected_lookup(s, addr);
		const struct lsk_nexthop *cur;
		uint64_t nh;

		if (a == NULL)
			continue;
		rte_fib_lookup_bulk(b->t->fib, &addr, &nh, 1);
		cur = &b->t->nexthops[nh];
		/* only where the neighbour is reached directly */
		if (cur->type != LSK_NH_FORWARD || cur->gateway != 0 ||
		    cur->port != a->port)
			continue;
		rc = fib_put(b, addr, 32, nh_forward(b, a->port, addr));
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
build_local(struct fwd_builder *b)
{
	const struct lsk_stack *s = b->s;
	struct lsk_fwd_table *t = b->t;
	int local = nh_simple(b, LSK_NH_LOCAL);
	int bcast = nh_simple(b, LSK_NH_LOCAL_BCAST);
	unsigned int i;
	int rc;

	rc = fib_put(b, UINT32_MAX, 32, bcast);
	/* broadcasts first: a /31 or /32 address is never one */
	for (i = 0; i < s->n_addrs && rc == 0; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];

		if (addr_has_broadcast(a)) {
			t->local_bloom |= lsk_local_bloom_bit(addr_broadcast(a));
			t->local_addrs[t->n_local++] = addr_broadcast(a);
			rc = fib_put(b, addr_broadcast(a), 32, bcast);
		}
	}
	t->n_bcast = t->n_local;
	for (i = 0; i < s->n_addrs && rc == 0; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];

		t->local_bloom |= lsk_local_bloom_bit(a->addr);
		t->local_addrs[t->n_local++] = a->addr;
		t->own_addrs[t->n_own++] = a->addr;
		rc = fib_put(b, a->addr, 32, local);
		if (t->port_addr[a->port] == 0)
			t->port_addr[a->port] = a->addr;
	}
	return rc;
}

/* tbl8 groups 2-byte entries can number (15 bits, the 16th marks them) */
#define FWD_TBL8_MAX_2B ((1u << 15) - 1)
/* room a table keeps for changes made in place, beyond what it holds */
#define FWD_ROOM(n) ((n) / 4 + 1024)
/* and for learned routes as much again as it holds: a routing daemon's
 * table grows by a run at a time, and a table built twice as big each
 * time it is full is built whole O(log n) times while a full Internet
 * table arrives, never once per run (1M routes in runs of 1000: 7
 * tables built whole, bench/RESULTS.md "Learned routes") */
#define FWD_ROOM_LEARNED(n) (n)

/* At most how many /24s hold longer prefixes (each takes a tbl8 group). */
static uint32_t
fwd_tbl8_needed(const struct lsk_stack *s)
{
	uint32_t n = 2 * s->n_addrs + s->n_neighs + 2;
	unsigned int i;

	for (i = 0; i < s->n_routes; i++)
		n += s->routes[i].depth > 24;
	for (i = 0; i < s->n_learned; i++)
		n += s->learned[i].depth > 24;
	return n;
}

/*
 * The FIB for what the stack holds now, and room for more: the smallest
 * entries (16 MiB of tbl24 for 1 byte, 32 for 2, 64 for 4) whose bits
 * hold both the next hop and the tbl8 group number of every /24 that has
 * longer prefixes. A change made in place that does not fit fails with
 * -ENOSPC, and the table is built again, bigger. The next hops are
 * counted as few (the gateways a table of many routes has are few)
 * unless many_nh: a build that finds more tries again with that.
 */
static void
fwd_size(const struct lsk_stack *s, bool many_nh, struct rte_fib_conf *conf,
	 uint32_t *nh_cap)
{
	uint32_t entries = s->n_routes + 3 * s->n_addrs + s->n_neighs + 2;
	uint32_t routes = s->n_routes + s->n_learned;
	/* routes share few gateways: tried first with room for 64 */
	uint32_t nh = (many_nh ? routes : RTE_MIN(routes, 64u)) +
		      2 * s->n_addrs + s->n_neighs + 5;
	uint32_t tbl8 = fwd_tbl8_needed(s);

	memset(conf, 0, sizeof(*conf));
	conf->type = RTE_FIB_DIR24_8;
	conf->default_nh = LSK_NH_IDX_NONE;
	conf->max_routes = (int)RTE_MAX(entries + FWD_ROOM(entries) +
					s->n_learned +
					FWD_ROOM_LEARNED(s->n_learned),
					s->max_routes);
	if (nh + 32 < FWD_MAX_NEXTHOPS_1B && tbl8 + 32 < FWD_MAX_NEXTHOPS_1B) {
		conf->dir24_8.nh_sz = RTE_FIB_DIR24_8_1B;
		conf->dir24_8.num_tbl8 = FWD_MAX_NEXTHOPS_1B;
		*nh_cap = FWD_MAX_NEXTHOPS_1B;
		return;
	}
	*nh_cap = RTE_MIN(nh + FWD_ROOM(nh), (uint32_t)FWD_MAX_NEXTHOPS);
	tbl8 += FWD_ROOM(tbl8);
	if (tbl8 < FWD_TBL8_MAX_2B) {
		conf->dir24_8.nh_sz = RTE_FIB_DIR24_8_2B;
		conf->dir24_8.num_tbl8 = RTE_MIN(RTE_MAX(1u << 12,
			rte_align32pow2(tbl8 + 1)), FWD_TBL8_MAX_2B);
	} else {
		conf->dir24_8.nh_sz = RTE_FIB_DIR24_8_4B;
		conf->dir24_8.num_tbl8 = tbl8 + 1;
	}
}

void
lsk_fwd_table_free(struct lsk_fwd_table *t)
{
	if (t == NULL)
		return;
	rte_fib_free(t->fib);
	rte_free(t->nexthops);
	rte_free(t->group_words);
	rte_free(t);
}

static int
fwd_table_build(struct lsk_stack *s, bool many_nh,
		struct lsk_fwd_table **out)
{
	struct rte_fib_conf conf;
	struct fwd_builder b = { .s = s };
	char name[64];
	unsigned int i;
	int rc;

	b.t = rte_zmalloc_socket("lsk_fwd", sizeof(*b.t) +
				 2 * LSK_MAX_ADDRS * sizeof(uint32_t),
				 RTE_CACHE_LINE_SIZE, s->sh.socket_id);
	if (b.t == NULL)
		return -ENOMEM;
	fwd_size(s, many_nh, &conf, &b.t->nh_cap);
	b.t->nexthops = rte_zmalloc_socket("lsk_nh", b.t->nh_cap *
					   sizeof(struct lsk_nexthop),
					   RTE_CACHE_LINE_SIZE,
					   s->sh.socket_id);
	if (b.t->nexthops == NULL) {
		rte_free(b.t);
		return -ENOMEM;
	}
	b.t->n_nexthops = 1; /* LSK_NH_IDX_NONE, zeroed = LSK_NH_NONE */
	b.t->group_cap = lsk_fwd_group_words_needed(s);
	b.t->group_words = rte_zmalloc_socket("lsk_groups", b.t->group_cap *
					      sizeof(uint16_t), 0,
					      s->sh.socket_id);
	if (b.t->group_words == NULL) {
		lsk_fwd_table_free(b.t);
		return -ENOMEM;
	}
	b.t->n_ports = (uint16_t)s->n_ports;
	b.t->n_ifaces = (uint16_t)s->n_ifaces;
	memcpy(b.t->ifaces, s->ports, sizeof(b.t->ifaces));
	for (i = 0; i < s->n_ports; i++)
		if (s->ports[i].down)
			b.t->ports_down |= (uint16_t)(1u << i);
	b.t->n_addrs = s->n_addrs;
	memcpy(b.t->addrs, s->addrs, sizeof(b.t->addrs));

	b.t->generation = ++s->fib_generation;
	snprintf(name, sizeof(name), "%.20s_fib%u", s->name,
		 b.t->generation);
	b.t->fib = rte_fib_create(name, s->sh.socket_id, &conf);
	if (b.t->fib == NULL) {
		rc = -(rte_errno ? rte_errno : ENOMEM);
		lsk_fwd_table_free(b.t);
		return rc;
	}
	b.t->fib_tbl24 = lsk_fib4_tbl24(b.t->fib, &conf,
					s->n_routes + s->n_learned,
					&b.t->fib_shift);

	rc = build_connected(&b);
	if (rc == 0)
		rc = build_routes(&b);
	if (rc == 0)
		rc = build_neighbours(&b);
	if (rc == 0)
		rc = build_local(&b);
	if (rc < 0) {
		lsk_fwd_table_free(b.t);
		return rc;
	}
	*out = b.t;
	return 0;
}

int
lsk_fwd_table_build(struct lsk_stack *s, struct lsk_fwd_table **out)
{
	int rc = fwd_table_build(s, false, out);

	return rc == -ENOSPC ? fwd_table_build(s, true, out) : rc;
}
