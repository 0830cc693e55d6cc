/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The interfaces as the control thread configures them: ports (MAC, MTU,
 * the devices following it), VLAN sub-interfaces, addresses and their
 * broadcasts, static neighbours; and the forwarding table built from them
 * and handed to the workers (routes are control/route_table.c's, batches
 * control/batch.c's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "core/fwd.h"
#include "l2/l2.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/udp_ctl.h"
#include "control/host_ctl.h"

static bool
addr_has_broadcast(uint8_t depth)
{
	return depth < 31;
}

static uint32_t
addr_broadcast(uint32_t addr, uint8_t depth)
{
	return addr | ~lsk_depth_mask(depth);
}

const struct lsk_ifaddr *
lsk_stack_broadcast_of(const struct lsk_stack *s, uint32_t addr)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];

		if (addr_has_broadcast(a->depth) &&
		    addr == addr_broadcast(a->addr, a->depth))
			return a;
	}
	return NULL;
}

bool
lsk_stack_is_broadcast(const struct lsk_stack *s, uint32_t addr)
{
	return addr == UINT32_MAX || lsk_stack_broadcast_of(s, addr) != NULL;
}

bool
lsk_stack_is_own(const struct lsk_stack *s, uint32_t addr)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs; i++)
		if (s->addrs[i].addr == addr)
			return true;
	return false;
}

/*
 * A change is made in two steps so that a failure changes nothing: the
 * new table is built from the changed configuration (this can fail, and
 * then the caller puts the configuration back), then it replaces the old
 * one (this cannot fail). The old table is freed only after the swap and
 * a grace period, never to make room for the new one: a worker may be
 * about to read it, and a build that fails then would leave none.
 */
struct stack_tables {
	struct lsk_fwd_table *fwd;
	struct lsk_fwd6_table *fwd6;	/* its interfaces' MACs and MTUs */
};

static int
stack_build(struct lsk_stack *s, struct stack_tables *t, bool v6)
{
	int rc;

	t->fwd = NULL;
	t->fwd6 = NULL;
	if (s->in_batch)
		return 0;
	rc = lsk_fwd_table_build(s, &t->fwd);
	if (rc < 0 || !v6)
		return rc;
	rc = lsk_fwd6_table_build(s, &t->fwd6);
	if (rc < 0) {
		lsk_fwd_table_free(t->fwd);
		t->fwd = NULL;
	}
	return rc;
}

static void
stack_tables_free(struct stack_tables *t)
{
	lsk_fwd_table_free(t->fwd);
	lsk_fwd6_table_free(t->fwd6);
}

static void
stack_swap(struct lsk_stack *s, struct stack_tables *t)
{
	if (t->fwd == NULL)
		return;		/* in a batch: published at commit */
	lsk_fwd_publish(s, t->fwd);
	if (t->fwd6 != NULL)
		lsk_fwd6_publish(s, t->fwd6);
	lsk_stack_settings_publish(s);	/* the ports' MTUs */
	lsk_host_sync(s);	/* the TAPs follow the interfaces */
}

/* Build a new table and hand it to the workers; free the old one once no
 * worker can still be reading it. */
int
lsk_stack_publish(struct lsk_stack *s)
{
	struct stack_tables t;
	int rc = stack_build(s, &t, true);

	if (rc == 0)
		stack_swap(s, &t);
	return rc;
}

int
lsk_port_set(struct lsk_stack *s, uint16_t port,
	     const struct rte_ether_addr *mac, uint16_t mtu)
{
	struct lsk_port_conf saved[LSK_MAX_IFACES];
	struct stack_tables t;
	unsigned int i;
	int rc;

	if (port >= s->n_ports)
		return -ENODEV;
	if (mtu != 0 && mtu < 68)
		return -EINVAL;
	if (mac != NULL &&
	    (!rte_is_unicast_ether_addr(mac) || rte_is_zero_ether_addr(mac)))
		return -EINVAL;
	memcpy(saved, s->ports, sizeof(saved));
	/* the port and its VLAN sub-interfaces */
	for (i = 0; i < s->n_ifaces; i++) {
		if (s->ports[i].parent != port)
			continue;
		if (mac != NULL)
			s->ports[i].mac = *mac;
		if (mtu != 0)
			s->ports[i].mtu = mtu;
	}
	/* the device follows once the table is built (a batch's at its
	 * commit), so that nothing fails after it changed */
	rc = stack_build(s, &t, true);
	if (rc == 0 && !s->in_batch)
		rc = lsk_port_mtus_follow(s, saved, s->ports);
	if (rc < 0) {
		stack_tables_free(&t);
		memcpy(s->ports, saved, sizeof(saved));
		return rc;
	}
	stack_swap(s, &t);
	return 0;
}

void
lsk_port_mtu_hook(struct lsk_stack *s, lsk_port_mtu_hook_t hook, void *arg)
{
	s->mtu_hook = hook;
	s->mtu_hook_arg = arg;
}

int
lsk_port_mtus_follow(struct lsk_stack *s, const struct lsk_port_conf *from,
		     const struct lsk_port_conf *to)
{
	unsigned int p, q;
	int rc;

	s->mtu_refused_port = -1;
	if (s->mtu_hook == NULL)
		return 0;
	for (p = 0; p < s->n_ports; p++) {
		if (to[p].mtu == from[p].mtu)
			continue;
		rc = s->mtu_hook(s->mtu_hook_arg, (uint16_t)p, to[p].mtu);
		if (rc >= 0)
			continue;
		for (q = 0; q < p; q++)
			if (to[q].mtu != from[q].mtu)
				s->mtu_hook(s->mtu_hook_arg, (uint16_t)q,
					    from[q].mtu);
		s->mtu_refused_port = (int)p;
		s->mtu_refused = to[p].mtu;
		return rc;
	}
	return 0;
}

int
lsk_port_get(const struct lsk_stack *s, uint16_t port,
	     struct rte_ether_addr *mac, uint16_t *mtu)
{
	if (port >= s->n_ports)
		return -ENODEV;
	if (mac != NULL)
		*mac = s->ports[port].mac;
	if (mtu != NULL)
		*mtu = s->ports[port].mtu;
	return 0;
}

/* An address of another interface whose subnet overlaps addr/depth's. */
static const struct lsk_ifaddr *
address_overlap(const struct lsk_stack *s, uint32_t addr, uint8_t depth,
		uint16_t iface)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];
		uint8_t d = RTE_MIN(depth, a->depth);

		if (a->port != iface &&
		    ((addr ^ a->addr) & lsk_depth_mask(d)) == 0)
			return a;
	}
	return NULL;
}

int
lsk_address_add(struct lsk_stack *s, uint32_t addr, uint8_t depth,
		uint16_t port)
{
	unsigned int i;
	uint8_t first = addr >> 24;
	int rc;

	if (port >= s->n_ifaces)
		return -ENODEV;
	if (depth == 0 || depth > 32 || first == 0 || first == 127 ||
	    first >= 224)
		return -EINVAL;
	for (i = 0; i < s->n_addrs; i++)
		if (s->addrs[i].addr == addr)
			return -EEXIST;
	/* a broadcast is nobody's address: the FIB could not tell them
	 * apart (and the broadcast wins) */
	if (lsk_stack_broadcast_of(s, addr) != NULL ||
	    (addr_has_broadcast(depth) &&
	     lsk_stack_is_own(s, addr_broadcast(addr, depth))))
		return -EINVAL;
	/* nor are its own subnet's network and broadcast addresses */
	if (addr_has_broadcast(depth) &&
	    ((addr & ~lsk_depth_mask(depth)) == 0 ||
	     addr == addr_broadcast(addr, depth)))
		return -EINVAL;
	/* a subnet connected on two interfaces would make its hosts'
	 * way out ambiguous */
	if (address_overlap(s, addr, depth, port) != NULL)
		return -EADDRINUSE;
	if (s->n_addrs == LSK_MAX_ADDRS)
		return -ENOSPC;
	s->addrs[s->n_addrs++] = (struct lsk_ifaddr){
		.addr = addr, .depth = depth, .port = port };
	rc = lsk_stack_publish(s);
	if (rc < 0)
		s->n_addrs--;
	return rc;
}

int
lsk_iface_find(const struct lsk_stack *s, uint16_t port, uint16_t vlan)
{
	unsigned int i;

	if (port >= s->n_ports)
		return -ENODEV;
	if (vlan == 0)
		return port;
	for (i = s->n_ports; i < s->n_ifaces; i++)
		if (s->ports[i].parent == port && s->ports[i].vlan == vlan)
			return (int)i;
	return -ENODEV;
}

/* A change made of several list edits, as a batch of its own when it is
 * not in one: it is published whole or not at all. */
static int
own_batch_begin(struct lsk_stack *s, bool *own)
{
	*own = !s->in_batch;
	return *own ? lsk_config_begin(s) : 0;
}

static int
own_batch_end(struct lsk_stack *s, bool own, int rc)
{
	if (!own)
		return rc;
	if (rc < 0) {
		lsk_config_abort(s);
		return rc;
	}
	return lsk_config_commit(s);
}

/* Static neighbours no connected subnet reaches any more go (they could
 * not be added now either), forgotten by the neighbour table at commit. */
static int
neighs_drop_unreachable(struct lsk_stack *s)
{
	unsigned int i, k = 0;
	int rc = 0;

	for (i = 0; i < s->n_neighs; i++) {
		if (lsk_connected_lookup(s, s->neighs[i].addr) != NULL) {
			s->neighs[k++] = s->neighs[i];
			continue;
		}
		if (rc == 0)
			rc = lsk_stack_forget_neigh(s, s->neighs[i].addr);
	}
	s->n_neighs = k;
	return rc;
}

/*
 * As Linux does when the last address of a subnet goes: its connected
 * and broadcast routes go with it (they are derived from the address
 * here), and so do the routes via a gateway no connected subnet reaches
 * any more, and the static neighbours on it. A `udp listen` service
 * bound to the address keeps it (-EBUSY): close the service first.
 */

/* A configured route with a path through a subnet we no longer have
 * (learned ones are left out of the table instead: fwd_table.c). */
static bool
route_lost_path(const struct lsk_stack *s, const struct lsk_route *r)
{
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
	unsigned int i, n = lsk_route_paths(s, r, p);

	for (i = 0; i < n; i++)
		if (p[i].iface == LSK_IFACE_ANY &&
		    lsk_connected_lookup(s, p[i].gateway) == NULL)
			return true;
	return false;
}

int
lsk_address_del(struct lsk_stack *s, uint32_t addr, uint8_t depth,
		uint16_t iface)
{
	unsigned int i;
	bool own;
	int k, rc;

	for (i = 0; i < s->n_addrs; i++)
		if (s->addrs[i].addr == addr)
			break;
	if (i == s->n_addrs || s->addrs[i].depth != depth ||
	    s->addrs[i].port != iface)
		return -EADDRNOTAVAIL;
	for (k = 0; k < (int)s->n_services; k++) {
		struct lsk_service_info si;

		lsk_service_info(s->services[k], &si);
		if (!si.v6 && si.addr == addr)
			return -EBUSY;
	}
	rc = own_batch_begin(s, &own);
	if (rc < 0)
		return rc;
	memmove(&s->addrs[i], &s->addrs[i + 1],
		(s->n_addrs - i - 1) * sizeof(s->addrs[0]));
	s->n_addrs--;
	for (k = (int)s->n_routes - 1; rc == 0 && k >= 0; k--)
		if (route_lost_path(s, &s->routes[k]))
			rc = lsk_route_del(s, s->routes[k].prefix,
					   s->routes[k].depth);
	if (rc == 0)
		rc = neighs_drop_unreachable(s);
	return own_batch_end(s, own, rc);
}

int
lsk_array_room(void **arr, unsigned int *cap, unsigned int n,
	       unsigned int more, size_t elem, unsigned int first)
{
	unsigned int ncap = *cap;
	void *p;

	while (ncap < n + more)
		ncap = ncap ? ncap * 2 : first;
	if (ncap == *cap)
		return 0;
	p = realloc(*arr, (size_t)ncap * elem);
	if (p == NULL)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

int
lsk_array_grow(void **arr, unsigned int *cap, unsigned int n, size_t elem,
	       unsigned int first)
{
	return lsk_array_room(arr, cap, n, 1, elem, first);
}

int
lsk_neigh_add(struct lsk_stack *s, uint32_t addr,
	      const struct rte_ether_addr *mac)
{
	struct stack_tables t;
	struct lsk_neigh saved;
	unsigned int i;
	bool added;
	int rc;

	if (mac == NULL || !rte_is_unicast_ether_addr(mac) ||
	    rte_is_zero_ether_addr(mac))
		return -EINVAL;
	if (lsk_connected_lookup(s, addr) == NULL)
		return -ENETUNREACH;
	if (lsk_stack_is_own(s, addr) || lsk_stack_is_broadcast(s, addr))
		return -EINVAL;
	for (i = 0; i < s->n_neighs && s->neighs[i].addr != addr; i++)
		;
	added = i == s->n_neighs;
	if (added) {
		rc = lsk_array_grow((void **)&s->neighs, &s->neighs_cap,
				    s->n_neighs, sizeof(*s->neighs), 16);
		if (rc < 0)
			return rc;
		s->neighs[s->n_neighs++] = (struct lsk_neigh){ .addr = addr };
	}
	saved = s->neighs[i];
	s->neighs[i].mac = *mac;
	/* the neighbour table, which workers read as they go, is changed
	 * only once the table that goes with it is built */
	rc = stack_build(s, &t, false);	/* IPv4's neighbour */
	if (rc == 0 && !s->in_batch)	/* a batch's wait for its commit */
		rc = lsk_neigh_set_static(s->sh.neigh, addr,
					  lsk_connected_lookup(s, addr)->port,
					  mac, &s->ctl_stats);
	if (rc < 0) {
		stack_tables_free(&t);
		if (added)
			s->n_neighs--;
		else
			s->neighs[i] = saved;
		return rc;
	}
	stack_swap(s, &t);
	return 0;
}

/* A static neighbour goes from the list, and its entry (static or
 * learnt) from the neighbour table, together with the table that no
 * longer names its MAC. */
int
lsk_neigh_del(struct lsk_stack *s, uint32_t addr)
{
	unsigned int i;
	bool own, known;
	int rc;

	for (i = 0; i < s->n_neighs && s->neighs[i].addr != addr; i++)
		;
	known = i < s->n_neighs;
	if (!known) {
		struct lsk_neigh_entry *e = lsk_neigh_lookup(s->sh.neigh, addr);

		known = e != NULL &&
			__atomic_load_n(&e->addr, __ATOMIC_ACQUIRE) == addr;
	}
	if (!known)
		return -ENOENT;
	rc = own_batch_begin(s, &own);
	if (rc < 0)
		return rc;
	if (i < s->n_neighs) {
		memmove(&s->neighs[i], &s->neighs[i + 1],
			(s->n_neighs - i - 1) * sizeof(s->neighs[0]));
		s->n_neighs--;
	}
	rc = lsk_stack_forget_neigh(s, addr);
	return own_batch_end(s, own, rc);
}

int
lsk_neigh_flush(struct lsk_stack *s)
{
	bool own;
	int rc = own_batch_begin(s, &own);

	if (rc < 0)
		return rc;
	s->n_neighs = 0;
	s->n_neighs6 = 0;	/* and IPv6's (forgotten with IPv4's) */
	rc = lsk_stack_forget_neigh(s, 0);
	return own_batch_end(s, own, rc);
}
