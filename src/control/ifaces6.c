/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 addresses of the interfaces and their router advertisements, as
 * the control thread configures them (IPv4's: control/ifaces.c). Each
 * interface has an automatic link-local address made from its MAC by
 * every build of the table (control/fwd6_table.c), so it follows a MAC
 * change; the ones configured here are kept in s->addrs6.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "listack/listack.h"
#include "core/fwd6.h"
#include "control/control.h"
#include "control/host_ctl.h"
#include "control/udp_ctl.h"

bool
lsk_stack_is_own6(const struct lsk_stack *s, const struct lsk_ip6_addr *addr,
		  uint16_t iface)
{
	struct lsk_ip6_addr ll;
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if (lsk_ip6_equal(&a->addr, addr) &&
		    (iface == LSK_IFACE_ANY || a->iface == iface ||
		     !(a->flags & LSK_IFA6_LINKLOCAL)))
			return true;
	}
	if (!lsk_ip6_is_linklocal(addr))
		return false;
	for (i = 0; i < s->n_ifaces; i++) {
		if (iface != LSK_IFACE_ANY && i != iface)
			continue;
		lsk_ip6_linklocal_of(&s->ports[i].mac, &ll);
		if (lsk_ip6_equal(&ll, addr))
			return true;
	}
	return false;
}

/* Another interface's global address whose prefix overlaps addr/depth. */
static const struct lsk_ifaddr6 *
address6_overlap(const struct lsk_stack *s, const struct lsk_ip6_addr *addr,
		 uint8_t depth, uint16_t iface)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if (a->iface != iface && !(a->flags & LSK_IFA6_LINKLOCAL) &&
		    lsk_ip6_prefix_match(&a->addr, addr,
					 RTE_MIN(depth, a->depth)))
			return a;
	}
	return NULL;
}

static bool
addr6_is_loopback(const struct lsk_ip6_addr *a)
{
	static const struct lsk_ip6_addr one = { .a = { [15] = 1 } };

	return lsk_ip6_equal(a, &one);
}

int
lsk_address6_add(struct lsk_stack *s, const struct lsk_ip6_addr *addr,
		 uint8_t depth, uint16_t iface)
{
	bool ll;
	int rc;

	if (addr == NULL)
		return -EINVAL;
	if (iface >= s->n_ifaces)
		return -ENODEV;
	if (depth == 0 || depth > 128 || lsk_ip6_is_unspecified(addr) ||
	    addr6_is_loopback(addr) || lsk_ip6_is_multicast(addr))
		return -EINVAL;
	ll = lsk_ip6_is_linklocal(addr);
	/* a global address is the node's; a link-local one its link's */
	if (lsk_stack_is_own6(s, addr, ll ? iface : LSK_IFACE_ANY))
		return -EEXIST;
	/* a prefix connected on two interfaces would make its hosts' way
	 * out ambiguous; every link has fe80::/64 */
	if (!ll && address6_overlap(s, addr, depth, iface) != NULL)
		return -EADDRINUSE;
	if (s->n_addrs6 == LSK_MAX_ADDRS6)
		return -ENOSPC;
	s->addrs6[s->n_addrs6++] = (struct lsk_ifaddr6){
		.addr = *addr, .depth = depth, .iface = iface,
		.flags = ll ? LSK_IFA6_LINKLOCAL : 0 };
	rc = lsk_stack_publish6(s);
	if (rc < 0)
		s->n_addrs6--;
	else if (!s->in_batch)
		lsk_host_sync(s);	/* the TAPs follow (host_ctl.c) */
	return rc;
}

/* A static neighbour no longer on a connected prefix of ours, nor
 * link-local (those need only their interface). */
static bool
neigh6_lost(const struct lsk_stack *s, const struct lsk_neigh6 *n)
{
	return !lsk_ip6_is_linklocal(&n->addr) &&
	       lsk_connected6_lookup(s, &n->addr) == NULL;
}

/*
 * As Linux does when an address goes: its connected prefix and /128 go
 * with it, and so do the routes via a gateway no connected prefix
 * reaches any more, and the static neighbours on it. The configuration
 * is changed whole or not at all (kept and put back here: the lists
 * are small).
 */
int
lsk_address6_del(struct lsk_stack *s, const struct lsk_ip6_addr *addr,
		 uint8_t depth, uint16_t iface)
{
	struct lsk_ifaddr6 saved[LSK_MAX_ADDRS6];
	struct lsk_route6 *routes = NULL;
	struct lsk_neigh6 *neighs = NULL;
	unsigned int i, k, n_saved = s->n_addrs6;
	unsigned int n_routes = s->n_routes6, n_neighs = s->n_neighs6;
	struct lsk_ip6_addr ll;
	int rc;

	if (addr == NULL)
		return -EINVAL;
	if (iface < s->n_ifaces && depth == 64) {
		lsk_ip6_linklocal_of(&s->ports[iface].mac, &ll);
		if (lsk_ip6_equal(&ll, addr))
			return -EPERM;
	}
	for (i = 0; i < s->n_addrs6; i++)
		if (lsk_ip6_equal(&s->addrs6[i].addr, addr) &&
		    s->addrs6[i].depth == depth && s->addrs6[i].iface == iface)
			break;
	if (i == s->n_addrs6)
		return -EADDRNOTAVAIL;
	/* a `udp listen` service bound to it keeps it, as IPv4's
	 * (control/ifaces.c): close the service first */
	for (k = 0; k < s->n_services; k++) {
		struct lsk_service_info si;

		lsk_service_info(s->services[k], &si);
		if (si.v6 && lsk_ip6_equal(&si.addr6, addr))
			return -EBUSY;
	}
	memcpy(saved, s->addrs6, sizeof(saved));
	if (n_routes != 0) {
		routes = malloc(n_routes * sizeof(*routes));
		if (routes == NULL)
			return -ENOMEM;
		memcpy(routes, s->routes6, n_routes * sizeof(*routes));
	}
	if (n_neighs != 0) {
		neighs = malloc(n_neighs * sizeof(*neighs));
		if (neighs == NULL) {
			free(routes);
			return -ENOMEM;
		}
		memcpy(neighs, s->neighs6, n_neighs * sizeof(*neighs));
	}
	memmove(&s->addrs6[i], &s->addrs6[i + 1],
		(s->n_addrs6 - i - 1) * sizeof(s->addrs6[0]));
	s->n_addrs6--;
	lsk_routes6_drop_unreachable(s);
	for (i = 0, k = 0; i < s->n_neighs6; i++)
		if (!neigh6_lost(s, &s->neighs6[i]))
			s->neighs6[k++] = s->neighs6[i];
	s->n_neighs6 = k;
	rc = lsk_stack_publish6(s);
	if (rc == 0 && !s->in_batch)
		lsk_host_sync(s);	/* the TAPs follow (host_ctl.c) */
	/* the lost ones go from the ND table once the table without their
	 * prefix is in (in a batch: at its commit) */
	for (i = 0; rc == 0 && i < n_neighs; i++)
		if (neigh6_lost(s, &neighs[i]))
			lsk_stack_forget_neigh6(s, &neighs[i].addr,
						neighs[i].iface);
	if (rc < 0) {
		memcpy(s->addrs6, saved, sizeof(saved));
		s->n_addrs6 = n_saved;
		if (n_routes != 0)
			memcpy(s->routes6, routes, n_routes * sizeof(*routes));
		s->n_routes6 = n_routes;
		if (n_neighs != 0)
			memcpy(s->neighs6, neighs, n_neighs * sizeof(*neighs));
		s->n_neighs6 = n_neighs;
	}
	free(routes);
	free(neighs);
	return rc;
}

int
lsk_port_ra_set(struct lsk_stack *s, uint16_t iface, bool on)
{
	uint64_t saved = s->ra6;
	int rc;

	if (iface >= s->n_ifaces)
		return -ENODEV;
	if (on)
		s->ra6 |= UINT64_C(1) << iface;
	else
		s->ra6 &= ~(UINT64_C(1) << iface);
	if (s->ra6 == saved)
		return 0;
	rc = lsk_stack_publish6(s);
	if (rc < 0)
		s->ra6 = saved;
	return rc;
}
