/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lsk_route_get (listack/listack.h): the verdict of the published
 * forwarding table and the neighbour table for one destination, as the
 * data path would give it (the view `route get ADDR` is cli/route_show.c).
 */
#include <errno.h>
#include <string.h>

#include <rte_fib.h>
#include <rte_rib.h>

#include <rte_cycles.h>

#include "core/fwd.h"
#include "l2/l2.h"
#include "ip4/ecmp.h"
#include "control/control.h"

/* The state of addr's neighbour entry, read as workers read it. */
static uint8_t
neigh_state(const struct lsk_stack *s, uint32_t addr,
	    struct rte_ether_addr *mac)
{
	switch (lsk_neigh_state_of(s->sh.neigh, addr, mac)) {
	case LSK_NEIGH_INCOMPLETE: return LSK_RNEIGH_INCOMPLETE;
	case LSK_NEIGH_REACHABLE: return LSK_RNEIGH_REACHABLE;
	case LSK_NEIGH_STALE: return LSK_RNEIGH_STALE;
	case LSK_NEIGH_FAILED: return LSK_RNEIGH_FAILED;
	case LSK_NEIGH_STATIC: return LSK_RNEIGH_STATIC;
	default: return LSK_RNEIGH_NONE;
	}
}

static const struct lsk_ifaddr *
own_addr(const struct lsk_fwd_table *t, uint32_t addr)
{
	uint32_t i;

	for (i = 0; i < t->n_addrs; i++)
		if (t->addrs[i].addr == addr)
			return &t->addrs[i];
	return NULL;
}

static void
answer_iface(const struct lsk_fwd_table *t, struct lsk_route_answer *a,
	     uint16_t iface)
{
	a->iface = iface;
	a->port = t->ifaces[iface].parent;
	a->vlan = t->ifaces[iface].vlan;
	a->mtu = t->ifaces[iface].mtu;
	a->src = t->port_addr[iface];
}

static void
answer_forward(struct lsk_stack *s, const struct lsk_fwd_table *t,
	       const struct lsk_nexthop *nh, uint32_t addr,
	       struct lsk_route_answer *a)
{
	const struct lsk_ifaddr *c;

	a->verdict = LSK_VERDICT_FORWARD;
	answer_iface(t, a, nh->port);
	a->mtu = nh->mtu;
	a->next_hop = nh->gateway != 0 ? nh->gateway : addr;
	a->origin = nh->gateway != 0 ? LSK_ORIGIN_ROUTE : LSK_ORIGIN_CONNECTED;
	/* a neighbour's own /32 (fwd_table.c) is its connected subnet */
	if (nh->gateway == addr && a->depth == 32 &&
	    lsk_route_find(s, addr, 32) == NULL) {
		c = lsk_fwd_connected(t, addr);
		if (c != NULL) {
			a->origin = LSK_ORIGIN_CONNECTED;
			a->prefix = c->addr & lsk_depth_mask(c->depth);
			a->depth = c->depth;
		}
	}
	if (nh->resolved) {
		a->neigh_state = LSK_RNEIGH_STATIC;
		a->neigh_mac = nh->dst_mac;
	} else {
		a->neigh_state = neigh_state(s, a->next_hop, &a->neigh_mac);
	}
}

/* The route the answer's prefix is in the stack (configured first),
 * for its protocol and paths; which path the member nh is. */
static void
answer_route(struct lsk_stack *s, const struct lsk_fwd_table *t,
	     uint32_t member, struct lsk_route_answer *a)
{
	const struct lsk_route *r = lsk_route_find(s, a->prefix, a->depth);
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
	const struct lsk_nexthop *nh = &t->nexthops[member];
	unsigned int i, n;

	if (r == NULL) {
		r = lsk_learned_find(s, a->prefix, a->depth);
		if (r == NULL)
			return;
		a->learned = 1;
		a->proto = r->proto;
	}
	n = lsk_route_paths(s, r, p);
	a->n_paths = (uint8_t)n;
	for (i = 0; i < n; i++) {
		const struct lsk_ifaddr *c = lsk_connected_lookup(s,
							p[i].gateway);
		uint16_t iface = p[i].iface != LSK_IFACE_ANY ? p[i].iface :
				 c != NULL ? c->port : UINT16_MAX;

		if (p[i].gateway == nh->gateway && iface == nh->port) {
			a->path = (uint8_t)i;
			break;
		}
	}
}

int
lsk_route_get_flow(struct lsk_stack *s, uint32_t addr,
		   const struct lsk_route_flow *flow,
		   struct lsk_route_answer *a)
{
	const struct lsk_fwd_table *t;
	const struct lsk_nexthop *nh;
	const struct lsk_ifaddr *own;
	struct rte_rib_node *node;
	uint64_t idx;

	if (s == NULL || a == NULL)
		return -EINVAL;
	/* the control thread reads the published table: only it writes
	 * s->sh.fwd, and it never writes the table itself */
	t = s->sh.fwd;
	memset(a, 0, sizeof(*a));
	a->generation = t->generation;
	rte_fib_lookup_bulk(t->fib, &addr, &idx, 1);
	nh = &t->nexthops[idx < t->n_nexthops ? idx : LSK_NH_IDX_NONE];
	node = rte_rib_lookup(rte_fib_get_rib(t->fib), addr);
	if (node != NULL && nh->type != LSK_NH_NONE) {
		rte_rib_get_ip(node, &a->prefix);
		rte_rib_get_depth(node, &a->depth);
	}
	if (nh->type == LSK_NH_GROUP) {
		/* the hash a worker computes from the packet's fields */
		uint8_t proto = flow ? flow->proto : 0;
		int ports = flow && lsk_ecmp_has_ports(proto);
		uint32_t h = lsk_ecmp_flow_hash(flow ? flow->src : 0, addr,
			proto, ports ? flow->sport : 0,
			ports ? flow->dport : 0);

		idx = lsk_ecmp_pick(t, s->sh.neigh, nh, h, rte_rdtsc());
		nh = &t->nexthops[idx];
	}
	switch (nh->type) {
	case LSK_NH_LOCAL:
		a->verdict = LSK_VERDICT_LOCAL;
		a->origin = LSK_ORIGIN_LOCAL;
		own = own_addr(t, addr);
		if (own != NULL)
			answer_iface(t, a, own->port);
		a->src = addr;
		break;
	case LSK_NH_LOCAL_BCAST:
		a->verdict = LSK_VERDICT_BROADCAST;
		a->origin = LSK_ORIGIN_LOCAL;
		break;
	case LSK_NH_BLACKHOLE:
	case LSK_NH_UNREACHABLE:
	case LSK_NH_PROHIBIT:
		a->verdict = nh->type == LSK_NH_BLACKHOLE ?
			LSK_VERDICT_BLACKHOLE : nh->type == LSK_NH_PROHIBIT ?
			LSK_VERDICT_PROHIBIT : LSK_VERDICT_UNREACHABLE;
		a->origin = LSK_ORIGIN_ROUTE;
		answer_route(s, t, (uint32_t)idx, a);
		break;
	case LSK_NH_FORWARD:
		answer_forward(s, t, nh, addr, a);
		if (a->origin == LSK_ORIGIN_ROUTE)
			answer_route(s, t, (uint32_t)idx, a);
		break;
	default:
		a->verdict = LSK_VERDICT_NO_ROUTE;
		break;
	}
	return 0;
}

int
lsk_route_get(struct lsk_stack *s, uint32_t addr,
	      struct lsk_route_answer *a)
{
	return lsk_route_get_flow(s, addr, NULL, a);
}
