/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 forwarding table (core/fwd6.h): an rte_fib6 (a trie) whose
 * values index a next hop array, and our addresses. A build makes a
 * whole new table from the stack's IPv6 configuration and its
 * interfaces; a route change is made to a table no worker sees
 * (lsk_fwd6_route_set, control/fwd6_update.c), as IPv4's. The trie is
 * sized from what it holds, with room for changes made in place.
 *
 * Precedence, as Linux's local table before its main table: connected
 * prefixes (onlink next hops: the destination is the neighbour), then
 * routes (more specific wins in the FIB), then our addresses as /128s
 * of type LSK_NH_LOCAL, which always win. Link-local and multicast
 * destinations are not in the FIB: they are scoped to an interface.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_fib6.h>
#include <rte_malloc.h>

#include "core/fwd6.h"
#include "control/control.h"

/* 2-byte trie entries (32 MiB of tbl24): 15 bits for a next hop or a
 * tbl8 group; a table that needs more takes 4-byte ones (64 MiB). */
#define FWD6_MAX_2B ((1u << 15) - 1)
/* tbl8 groups a 2-byte trie has at least (2 MiB beside its 32) */
#define FWD6_TBL8_MIN_2B 4096u
/* room a table keeps for changes made in place, beyond what it holds
 * (IPv4's: control/fwd_table.c, FWD_ROOM) */
#define FWD6_ROOM(n) ((n) / 4 + 1024)

struct fwd6_builder {
	struct lsk_stack *s;
	struct lsk_fwd6_table *t;
};

void
lsk_ip6_linklocal_of(const struct rte_ether_addr *mac, struct lsk_ip6_addr *out)
{
	const uint8_t *m = mac->addr_bytes;

	memset(out, 0, sizeof(*out));
	out->a[0] = 0xfe;
	out->a[1] = 0x80;
	/* the universal/local bit inverted (RFC 4291 appendix A) */
	out->a[8] = m[0] ^ 0x02;
	out->a[9] = m[1];
	out->a[10] = m[2];
	out->a[11] = 0xff;
	out->a[12] = 0xfe;
	out->a[13] = m[3];
	out->a[14] = m[4];
	out->a[15] = m[5];
}

void
lsk_ip6_mask(const struct lsk_ip6_addr *addr, uint8_t depth,
	     struct lsk_ip6_addr *out)
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		int bits = (int)depth - (int)(8 * i);

		if (bits >= 8)
			out->a[i] = addr->a[i];
		else if (bits <= 0)
			out->a[i] = 0;
		else
			out->a[i] = addr->a[i] & (uint8_t)(0xff00 >> bits);
	}
}

const struct lsk_ifaddr6 *
lsk_connected6_lookup(const struct lsk_stack *s,
		      const struct lsk_ip6_addr *addr)
{
	const struct lsk_ifaddr6 *best = NULL;
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if ((a->flags & LSK_IFA6_LINKLOCAL) ||
		    !lsk_ip6_prefix_match(&a->addr, addr, a->depth))
			continue;
		if (best == NULL || a->depth > best->depth)
			best = a;
	}
	return best;
}

/* Find or append the next hop: its index or a negative errno. */
static int
nh_get(struct fwd6_builder *b, const struct lsk_nexthop6 *want)
{
	struct lsk_fwd6_table *t = b->t;
	uint32_t i;

	for (i = 1; i < t->n_nexthops; i++)
		if (memcmp(&t->nexthops[i], want, sizeof(*want)) == 0)
			return (int)i;
	if (t->n_nexthops == t->nh_cap)
		return -ENOSPC;
	t->nexthops[t->n_nexthops] = *want;
	return (int)t->n_nexthops++;
}

/* Out of iface to gateway (NULL: onlink, the destination itself). */
static int
nh_forward(struct fwd6_builder *b, uint16_t iface,
	   const struct lsk_ip6_addr *gateway)
{
	struct lsk_nexthop6 nh;

	memset(&nh, 0, sizeof(nh));
	nh.type = LSK_NH_FORWARD;
	nh.iface = iface;
	nh.mtu = b->s->ports[iface].mtu;
	if (gateway == NULL)
		nh.onlink = 1;
	else
		nh.gateway = *gateway;
	return nh_get(b, &nh);
}

static int
nh_simple(struct fwd6_builder *b, enum lsk_nh_type type)
{
	struct lsk_nexthop6 nh;

	memset(&nh, 0, sizeof(nh));
	nh.type = type;
	return nh_get(b, &nh);
}

static int
fib_put(struct fwd6_builder *b, const struct lsk_ip6_addr *prefix,
	uint8_t depth, int nh)
{
	struct lsk_ip6_addr p;

	if (nh < 0)
		return nh;
	lsk_ip6_mask(prefix, depth, &p);
	return rte_fib6_add(b->t->fib, p.a, depth, (uint64_t)nh);
}

/* Our addresses: each interface's automatic link-local one first (from
 * its MAC: a VLAN has its port's), then the configured ones as added. */
static void
build_addrs(struct fwd6_builder *b)
{
	const struct lsk_stack *s = b->s;
	struct lsk_fwd6_table *t = b->t;
	unsigned int i;

	for (i = 0; i < s->n_ifaces; i++) {
		struct lsk_ifaddr6 *a = &t->addrs[t->n_addrs++];

		lsk_ip6_linklocal_of(&s->ports[i].mac, &a->addr);
		a->depth = 64;
		a->flags = LSK_IFA6_LINKLOCAL | LSK_IFA6_AUTO;
		a->iface = (uint16_t)i;
	}
	for (i = 0; i < s->n_addrs6; i++)
		t->addrs[t->n_addrs++] = s->addrs6[i];
}

static int
build_connected(struct fwd6_builder *b)
{
	const struct lsk_stack *s = b->s;
	unsigned int i;
	int rc;

	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if (a->flags & LSK_IFA6_LINKLOCAL)
			continue;
		rc = fib_put(b, &a->addr, a->depth,
			     nh_forward(b, a->iface, NULL));
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The next hop of path p: -ENETUNREACH when its gateway is on no
 * connected prefix (an address deleted took the route with it: a
 * caller's bug). */
static int
nh_path(struct fwd6_builder *b, const struct lsk_route6_path *p)
{
	const struct lsk_ifaddr6 *a;

	if (p->iface != LSK_IFACE_ANY)
		return p->iface < b->s->n_ifaces ?
		       nh_forward(b, p->iface, &p->gateway) : -ENETUNREACH;
	a = lsk_connected6_lookup(b->s, &p->gateway);
	if (a == NULL)
		return -ENETUNREACH;
	return nh_forward(b, a->iface, &p->gateway);
}

/* The ECMP group of members[0, n) (control/fwd_group.c, shared with
 * IPv4): its next hop, found or appended; one member left (paths that
 * are one next hop) is that next hop. */
static int
nh_group(struct fwd6_builder *b, uint32_t *members, uint16_t *weights,
	 unsigned int n)
{
	struct lsk_fwd6_table *t = b->t;
	struct lsk_group_words gw = { .words = t->group_words,
				      .n = &t->n_group_words,
				      .cap = t->group_cap };
	struct lsk_group_ref ref;
	struct lsk_nexthop6 nh;
	int rc = lsk_fwd_group_place(&gw, members, weights, &n, &ref);

	if (rc < 0)
		return rc;
	if (n == 1)
		return (int)members[0];
	memset(&nh, 0, sizeof(nh));
	nh.type = LSK_NH_GROUP;
	nh.group = ref.group;
	nh.n_members = ref.n_members;
	nh.n_buckets = ref.n_buckets;
	return nh_get(b, &nh);
}

/* The next hop of r: a group for several paths; a path that cannot be
 * had is left out (-ENETUNREACH when none can). */
static int
nh_route(struct fwd6_builder *b, const struct lsk_route6 *r)
{
	uint32_t members[LSK_ROUTE_MAX_PATHS];
	uint16_t weights[LSK_ROUTE_MAX_PATHS];
	unsigned int i, k = 0;
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
	for (i = 0; i < r->n_paths; i++) {
		nh = nh_path(b, &r->paths[i]);
		if (nh == -ENETUNREACH)
			continue;
		if (nh < 0)
			return nh;
		members[k] = (uint32_t)nh;
		weights[k++] = r->paths[i].weight ? r->paths[i].weight : 1;
	}
	if (k <= 1)
		return k == 1 ? (int)members[0] : nh;
	return nh_group(b, members, weights, k);
}

static int
build_routes(struct fwd6_builder *b)
{
	const struct lsk_stack *s = b->s;
	unsigned int i;
	int rc;

	for (i = 0; i < s->n_routes6; i++) {
		const struct lsk_route6 *r = &s->routes6[i];

		rc = fib_put(b, &r->prefix, r->depth, nh_route(b, r));
		if (rc < 0)
			return rc;
	}
	/* learned routes (control/route6_learn.c), but those a configured
	 * one stands in front of; one whose gateway went (an address
	 * deleted) is left out */
	for (i = 0; i < s->n_learned6; i++) {
		const struct lsk_route6 *r = &s->learned6[i];

		if (lsk_route6_find(s, &r->prefix, r->depth) != NULL)
			continue;
		rc = fib_put(b, &r->prefix, r->depth, nh_route(b, r));
		if (rc < 0 && rc != -ENETUNREACH)
			return rc;
	}
	return 0;
}

int
lsk_fwd6_route_set(struct lsk_stack *s, struct lsk_fwd6_table *t,
		   const struct lsk_route6 *r)
{
	struct fwd6_builder b = { .s = s, .t = t };
	uint32_t n_nexthops = t->n_nexthops;
	uint32_t n_words = t->n_group_words;
	int rc;

	if (!t->trie)
		return -ENOSPC;	/* the RIB alone: built whole as a trie */
	rc = fib_put(&b, &r->prefix, r->depth, nh_route(&b, r));
	/* a failed rte_fib6_add leaves the FIB as it was (its RIB node is
	 * taken back); a next hop or group appended for it goes too */
	if (rc < 0) {
		t->n_nexthops = n_nexthops;
		t->n_group_words = n_words;
	}
	return rc;
}

int
lsk_fwd6_route_unset(struct lsk_fwd6_table *t,
		     const struct lsk_ip6_addr *prefix, uint8_t depth)
{
	struct lsk_ip6_addr p;

	if (!t->trie)
		return -ENOSPC;
	lsk_ip6_mask(prefix, depth, &p);
	return rte_fib6_delete(t->fib, p.a, depth);
}

/*
 * A change of (prefix, depth) that touches no other entry of a table
 * built whole: a connected prefix's entry (a route of the same prefix is
 * refused, but an address added later may take its place) and our own
 * /128s (build_local) are the build's. IPv6's table has no neighbour
 * entries (IPv4's: control/fwd_table.c): ND is looked up beside it.
 */
bool
lsk_fwd6_route_isolated(const struct lsk_stack *s,
			const struct lsk_ip6_addr *prefix, uint8_t depth)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if (a->flags & LSK_IFA6_LINKLOCAL)
			continue;
		if ((a->depth == depth || depth == 128) &&
		    lsk_ip6_prefix_match(&a->addr, prefix, depth))
			return false;
	}
	return true;
}

static int
build_local(struct fwd6_builder *b)
{
	const struct lsk_stack *s = b->s;
	int local = nh_simple(b, LSK_NH_LOCAL);
	unsigned int i;
	int rc = local < 0 ? local : 0;

	for (i = 0; i < s->n_addrs6 && rc == 0; i++)
		if (!(s->addrs6[i].flags & LSK_IFA6_LINKLOCAL))
			rc = fib_put(b, &s->addrs6[i].addr, 128, local);
	return rc;
}

/*
 * The tbl8 groups rte_fib6 reserves for a prefix (lib/fib/trie.c,
 * trie_modify): none when another prefix lies in the same whole bytes
 * (its groups are there), else one per byte past the third down to the
 * byte its depth ends in, less those of the route covering it. One per
 * byte past the third bounds it whatever the order prefixes come in, and
 * a table built whole adds them in its own order: the sum of these is
 * what a trie must have, although the groups it fills are fewer (a
 * /48's first two are shared with every /48 of its /32). An add that
 * finds the reserve spent fails with -ENOSPC, and in 22.11 a delete
 * gives none back (it finds the prefix itself in its bytes: seen here,
 * a /128 added and deleted three times spends 39 groups): the room is
 * spent by routes that come and go, and the table is then built whole,
 * counted afresh.
 */
static uint32_t
tbl8_of(uint8_t depth)
{
	return depth > 24 ? (uint32_t)(depth - 24 + 7) / 8 : 0;
}

/* Anything for the FIB: a global address or a route. */
static bool
fwd6_routes_any(const struct lsk_stack *s)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++)
		if (!(s->addrs6[i].flags & LSK_IFA6_LINKLOCAL))
			return true;
	return s->n_routes6 != 0 || s->n_learned6 != 0;
}

/* The group words the routes of the stack need (each route's group as
 * if it were its own), twice over for room. */
static uint32_t
fwd6_group_words(const struct lsk_stack *s)
{
	const struct lsk_route6 *lists[2] = { s->routes6, s->learned6 };
	const unsigned int counts[2] = { s->n_routes6, s->n_learned6 };
	uint32_t words = 0;
	unsigned int l, i, j;

	for (l = 0; l < 2; l++)
		for (i = 0; i < counts[l]; i++) {
			const struct lsk_route6 *r = &lists[l][i];
			uint16_t wt[LSK_ROUTE_MAX_PATHS];

			if (r->type != LSK_ROUTE_VIA || r->n_paths < 2)
				continue;
			for (j = 0; j < r->n_paths; j++)
				wt[j] = r->paths[j].weight;
			words += lsk_fwd_group_size(wt, r->n_paths);
		}
	return 2 * words + 64;
}

/*
 * A FIB for what the stack holds, and room for more: the smallest
 * entries (2 bytes: 32 MiB of tbl24 and 512 B a group; 4: 64 MiB and
 * 1 KiB) whose 15 or 31 bits hold both every next hop and the reserve of
 * tbl8 groups. 100,000 /48s reserve 300,000 groups: 4-byte entries,
 * ~440 MiB a table with room (bench/RESULTS.md, "IPv6 route changes").
 */
static void
fwd6_size(const struct lsk_stack *s, struct rte_fib6_conf *conf,
	  uint32_t *nh_cap)
{
	uint32_t tbl8 = 0, nh, entries;
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++)
		tbl8 += tbl8_of(s->addrs6[i].depth) + tbl8_of(128);
	for (i = 0; i < s->n_routes6; i++)
		tbl8 += tbl8_of(s->routes6[i].depth);
	for (i = 0; i < s->n_learned6; i++)
		tbl8 += tbl8_of(s->learned6[i].depth);
	tbl8 += 16 + FWD6_ROOM(tbl8);
	entries = 2 * s->n_addrs6 + s->n_routes6 + s->n_learned6 + 16;
	nh = s->n_routes6 + s->n_learned6 + s->n_addrs6 + 8;
	nh += FWD6_ROOM(nh);
	memset(conf, 0, sizeof(*conf));
	conf->default_nh = LSK_NH_IDX_NONE;
	conf->max_routes = (int)(entries + FWD6_ROOM(entries));
	*nh_cap = nh;
	/* nothing to route (no global address, no route: a stack that
	 * speaks IPv4 only, or not yet IPv6): the RIB alone, a few KB,
	 * answers "no route" as the trie would, without its 32 MiB */
	if (!fwd6_routes_any(s)) {
		conf->type = RTE_FIB6_DUMMY;
		return;
	}
	conf->type = RTE_FIB6_TRIE;
	if (tbl8 < FWD6_MAX_2B && nh < FWD6_MAX_2B) {
		conf->trie.nh_sz = RTE_FIB6_TRIE_2B;
		conf->trie.num_tbl8 = RTE_MIN(RTE_MAX(tbl8, FWD6_TBL8_MIN_2B),
					      FWD6_MAX_2B);
	} else {
		conf->trie.nh_sz = RTE_FIB6_TRIE_4B;
		conf->trie.num_tbl8 = tbl8;
	}
}

void
lsk_fwd6_table_free(struct lsk_fwd6_table *t)
{
	if (t == NULL)
		return;
	rte_fib6_free(t->fib);
	rte_free(t->nexthops);
	rte_free(t->group_words);
	rte_free(t);
}

int
lsk_fwd6_table_build(struct lsk_stack *s, struct lsk_fwd6_table **out)
{
	struct rte_fib6_conf conf;
	struct fwd6_builder b = { .s = s };
	char name[64];
	int rc;

	b.t = rte_zmalloc_socket("lsk_fwd6", sizeof(*b.t), RTE_CACHE_LINE_SIZE,
				 s->sh.socket_id);
	if (b.t == NULL)
		return -ENOMEM;
	fwd6_size(s, &conf, &b.t->nh_cap);
	b.t->nexthops = rte_zmalloc_socket("lsk_nh6", b.t->nh_cap *
					   sizeof(struct lsk_nexthop6),
					   RTE_CACHE_LINE_SIZE,
					   s->sh.socket_id);
	b.t->group_cap = fwd6_group_words(s);
	b.t->group_words = rte_zmalloc_socket("lsk_groups6", b.t->group_cap *
					      sizeof(uint16_t), 0,
					      s->sh.socket_id);
	if (b.t->nexthops == NULL || b.t->group_words == NULL) {
		lsk_fwd6_table_free(b.t);
		return -ENOMEM;
	}
	b.t->n_nexthops = 1; /* LSK_NH_IDX_NONE, zeroed = LSK_NH_NONE */
	b.t->ra_ifaces = s->ra6;
	b.t->generation = ++s->fib6_generation;
	snprintf(name, sizeof(name), "%.20s_fib6_%u", s->name,
		 b.t->generation);
	b.t->fib = rte_fib6_create(name, s->sh.socket_id, &conf);
	b.t->trie = conf.type == RTE_FIB6_TRIE;
	if (b.t->fib == NULL) {
		rc = -(rte_errno ? rte_errno : ENOMEM);
		lsk_fwd6_table_free(b.t);
		return rc;
	}
	build_addrs(&b);
	rc = build_connected(&b);
	if (rc == 0)
		rc = build_routes(&b);
	if (rc == 0)
		rc = build_local(&b);
	if (rc < 0) {
		lsk_fwd6_table_free(b.t);
		return rc;
	}
	*out = b.t;
	return 0;
}

int
lsk_stack_publish6(struct lsk_stack *s)
{
	struct lsk_fwd6_table *t;
	int rc;

	if (s->in_batch)
		return 0;
	rc = lsk_fwd6_table_build(s, &t);
	if (rc == 0)
		lsk_fwd6_publish(s, t);
	return rc;
}
