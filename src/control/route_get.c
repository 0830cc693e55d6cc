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

#include "core/fwd.h"
#include "l2/l2.h"
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

int
lsk_route_get(struct lsk_stack *s, uint32_t addr,
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
		a->verdict = LSK_VERDICT_BLACKHOLE;
		a->origin = LSK_ORIGIN_ROUTE;
		break;
	case LSK_NH_FORWARD:
		answer_forward(s, t, nh, addr, a);
		break;
	default:
		a->verdict = LSK_VERDICT_NO_ROUTE;
		break;
	}
	return 0;
}
