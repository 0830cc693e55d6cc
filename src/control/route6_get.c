/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lsk_route6_get (listack/ip6.h): the verdict of the published IPv6
 * table for one destination, as the data path would give it (IPv4's:
 * control/route_get.c; the view `route get ADDR6` is
 * cli/route_show6.c). Interfaces (port, VLAN, MTU) are read from IPv4's
 * published table, their one copy (core/fwd6.h).
 */
#include <errno.h>
#include <string.h>

#include <rte_fib6.h>
#include <rte_rib6.h>

#include <rte_cycles.h>

#include "core/fwd.h"
#include "core/fwd6.h"
#include "l2/l2.h"
#include "ip6/ecmp6.h"
#include "ip6/nd6.h"
#include "control/control.h"

static void
answer_iface(const struct lsk_stack *s, struct lsk_route6_answer *a,
	     uint16_t iface)
{
	const struct lsk_fwd_table *t = s->sh.fwd;

	a->iface = iface;
	if (iface >= t->n_ifaces)
		return;
	a->port = t->ifaces[iface].parent;
	a->vlan = t->ifaces[iface].vlan;
	a->mtu = t->ifaces[iface].mtu;
}

/* The state of next_hop's entry on iface, read as workers read it. */
static void
neigh6_state(const struct lsk_stack *s, const struct lsk_ip6_addr *next_hop,
	     uint16_t iface, struct lsk_route6_answer *a)
{
	switch (lsk_nd6_state_of(s->sh.nd6, next_hop, iface, &a->neigh_mac)) {
	case LSK_NEIGH_INCOMPLETE:
		a->neigh_state = LSK_RNEIGH_INCOMPLETE;
		break;
	case LSK_NEIGH_REACHABLE:
		a->neigh_state = LSK_RNEIGH_REACHABLE;
		break;
	case LSK_NEIGH_STALE:
		a->neigh_state = LSK_RNEIGH_STALE;
		break;
	case LSK_NEIGH_FAILED:
		a->neigh_state = LSK_RNEIGH_FAILED;
		break;
	case LSK_NEIGH_STATIC:
		a->neigh_state = LSK_RNEIGH_STATIC;
		break;
	default:
		a->neigh_state = LSK_RNEIGH_NONE;
		break;
	}
}

/* What our packets to addr out of iface would meet: sent to the
 * neighbour next_hop. */
static void
answer_forward(struct lsk_stack *s, const struct lsk_fwd6_table *t,
	       const struct lsk_ip6_addr *addr, uint16_t iface,
	       const struct lsk_ip6_addr *next_hop, struct lsk_route6_answer *a)
{
	const struct lsk_ifaddr6 *src = lsk_fwd6_source(t, addr, iface);

	a->verdict = LSK_VERDICT_FORWARD;
	answer_iface(s, a, iface);
	a->next_hop = *next_hop;
	if (src != NULL)
		a->src = src->addr;
	neigh6_state(s, next_hop, iface, a);
}

/* fe80::/10: ours on in_iface, or a neighbour there (no FIB: the
 * interface it was asked on decides). */
static void
answer_linklocal(struct lsk_stack *s, const struct lsk_fwd6_table *t,
		 const struct lsk_ip6_addr *addr, uint16_t in_iface,
		 struct lsk_route6_answer *a)
{
	static const struct lsk_ip6_addr fe80 = { .a = { 0xfe, 0x80 } };
	const struct lsk_ifaddr6 *own = lsk_fwd6_ours(t, addr, in_iface);

	if (own != NULL) {
		a->verdict = LSK_VERDICT_LOCAL;
		a->origin = LSK_ORIGIN_LOCAL;
		a->prefix = *addr;
		a->depth = 128;
		answer_iface(s, a, own->iface);
		a->src = *addr;
		return;
	}
	if (in_iface == LSK_IFACE_ANY ||
	    lsk_fwd6_linklocal(t, in_iface) == NULL) {
		a->verdict = LSK_VERDICT_NO_ROUTE;
		return;
	}
	a->origin = LSK_ORIGIN_CONNECTED;
	a->prefix = fe80;
	a->depth = 64;
	answer_forward(s, t, addr, in_iface, addr, a);
}

/* The route the answer's prefix is in the stack (configured first),
 * for its protocol and paths; which path the member nh is. */
static void
answer_route(struct lsk_stack *s, const struct lsk_nexthop6 *nh,
	     struct lsk_route6_answer *a)
{
	const struct lsk_route6 *r = lsk_route6_find(s, &a->prefix, a->depth);
	unsigned int i;

	if (r == NULL) {
		r = lsk_learned6_find(s, &a->prefix, a->depth);
		if (r == NULL)
			return;
		a->learned = 1;
		a->proto = r->proto;
	}
	a->n_paths = r->n_paths;
	for (i = 0; i < r->n_paths; i++) {
		const struct lsk_route6_path *p = &r->paths[i];
		const struct lsk_ifaddr6 *c = lsk_connected6_lookup(s,
							&p->gateway);
		uint16_t iface = p->iface != LSK_IFACE_ANY ? p->iface :
				 c != NULL ? c->iface : LSK_IFACE_ANY;

		if (lsk_ip6_equal(&p->gateway, &nh->gateway) &&
		    iface == nh->iface) {
			a->path = (uint8_t)i;
			break;
		}
	}
}

/* The member of group g a flow to addr takes: the hash a worker
 * computes from the packet's fields (ip6/ecmp6.h). */
static uint32_t
flow_member(struct lsk_stack *s, const struct lsk_fwd6_table *t,
	    const struct lsk_nexthop6 *g, const struct lsk_ip6_addr *addr,
	    const struct lsk_route6_flow *flow)
{
	static const struct lsk_route6_flow none;
	uint32_t h;

	if (flow == NULL)
		flow = &none;
	h = lsk_ecmp6_flow_hash(flow->src.a, addr->a, flow->proto,
				lsk_ecmp_has_ports(flow->proto) ?
				flow->sport : 0,
				lsk_ecmp_has_ports(flow->proto) ?
				flow->dport : 0);
	return lsk_ecmp6_pick(s->sh.fwd, t, s->sh.nd6, g, h, rte_rdtsc());
}

int
lsk_route6_get(struct lsk_stack *s, const struct lsk_ip6_addr *addr,
	       uint16_t in_iface, struct lsk_route6_answer *a)
{
	return lsk_route6_get_flow(s, addr, in_iface, NULL, a);
}

int
lsk_route6_get_flow(struct lsk_stack *s, const struct lsk_ip6_addr *addr,
		    uint16_t in_iface, const struct lsk_route6_flow *flow,
		    struct lsk_route6_answer *a)
{
	const struct lsk_fwd6_table *t;
	const struct lsk_nexthop6 *nh;
	const struct lsk_ifaddr6 *own;
	struct rte_rib6_node *node;
	uint8_t ips[1][16];
	uint64_t idx = LSK_NH_IDX_NONE;

	if (s == NULL || addr == NULL || a == NULL)
		return -EINVAL;
	/* the control thread reads the published table: only it writes
	 * s->sh.fwd6, and it never writes the table itself */
	t = s->sh.fwd6;
	memset(a, 0, sizeof(*a));
	a->generation = t->generation;
	if (lsk_ip6_is_linklocal(addr)) {
		answer_linklocal(s, t, addr, in_iface, a);
		return 0;
	}
	if (lsk_ip6_is_multicast(addr)) {
		a->verdict = LSK_VERDICT_NO_ROUTE;
		return 0;
	}
	memcpy(ips[0], addr->a, 16);
	rte_fib6_lookup_bulk(t->fib, ips, &idx, 1);
	nh = &t->nexthops[idx < t->n_nexthops ? idx : LSK_NH_IDX_NONE];
	node = rte_rib6_lookup(rte_fib6_get_rib(t->fib), addr->a);
	if (node != NULL && nh->type != LSK_NH_NONE) {
		rte_rib6_get_ip(node, a->prefix.a);
		rte_rib6_get_depth(node, &a->depth);
	}
	if (nh->type == LSK_NH_GROUP)
		nh = &t->nexthops[flow_member(s, t, nh, addr, flow)];
	switch (nh->type) {
	case LSK_NH_LOCAL:
		a->verdict = LSK_VERDICT_LOCAL;
		a->origin = LSK_ORIGIN_LOCAL;
		own = lsk_fwd6_ours(t, addr, LSK_IFACE_ANY);
		if (own != NULL)
			answer_iface(s, a, own->iface);
		a->src = *addr;
		break;
	case LSK_NH_BLACKHOLE:
	case LSK_NH_UNREACHABLE:
	case LSK_NH_PROHIBIT:
		a->verdict = nh->type == LSK_NH_BLACKHOLE ?
			LSK_VERDICT_BLACKHOLE : nh->type == LSK_NH_PROHIBIT ?
			LSK_VERDICT_PROHIBIT : LSK_VERDICT_UNREACHABLE;
		a->origin = LSK_ORIGIN_ROUTE;
		answer_route(s, nh, a);
		break;
	case LSK_NH_FORWARD:
		a->origin = nh->onlink ? LSK_ORIGIN_CONNECTED :
			    LSK_ORIGIN_ROUTE;
		answer_forward(s, t, addr, nh->iface,
			       nh->onlink ? addr : &nh->gateway, a);
		a->mtu = nh->mtu;
		if (a->origin == LSK_ORIGIN_ROUTE)
			answer_route(s, nh, a);
		break;
	default:
		a->verdict = LSK_VERDICT_NO_ROUTE;
		break;
	}
	return 0;
}
