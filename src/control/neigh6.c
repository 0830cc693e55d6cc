/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 static neighbours as the control thread configures them (IPv4's:
 * control/ifaces.c): kept in s->neighs6 for show config and batches,
 * and set in the neighbour discovery table the workers read (sh->nd6,
 * ip6/nd6.h) at once, or at a batch's commit (control/batch.c). The
 * forwarding table does not name neighbours' MACs: ND resolves them.
 */
#include <errno.h>
#include <string.h>

#include <rte_ether.h>

#include "core/fwd6.h"
#include "ip6/nd6.h"
#include "control/control.h"

/* The interface of neighbour addr: the one given (required for a
 * link-local address), else the one whose prefix holds it. */
static int
neigh6_iface(const struct lsk_stack *s, const struct lsk_ip6_addr *addr,
	     uint16_t iface, uint16_t *out)
{
	const struct lsk_ifaddr6 *a;

	if (iface != LSK_IFACE_ANY) {
		if (iface >= s->n_ifaces)
			return -ENODEV;
		*out = iface;
		return 0;
	}
	if (lsk_ip6_is_linklocal(addr))
		return -EINVAL;
	a = lsk_connected6_lookup(s, addr);
	if (a == NULL)
		return -ENETUNREACH;
	*out = a->iface;
	return 0;
}

static int
neigh6_pos(const struct lsk_stack *s, const struct lsk_ip6_addr *addr,
	   uint16_t iface)
{
	unsigned int i;

	for (i = 0; i < s->n_neighs6; i++)
		if (s->neighs6[i].iface == iface &&
		    lsk_ip6_equal(&s->neighs6[i].addr, addr))
			return (int)i;
	return -1;
}

int
lsk_neigh6_add(struct lsk_stack *s, const struct lsk_ip6_addr *addr,
	       uint16_t iface, const struct rte_ether_addr *mac)
{
	struct lsk_neigh6 saved;
	bool added;
	int i, rc;

	if (addr == NULL || mac == NULL || !rte_is_unicast_ether_addr(mac) ||
	    rte_is_zero_ether_addr(mac) || lsk_ip6_is_multicast(addr) ||
	    lsk_ip6_is_unspecified(addr))
		return -EINVAL;
	rc = neigh6_iface(s, addr, iface, &iface);
	if (rc < 0)
		return rc;
	if (!lsk_ip6_is_linklocal(addr) &&
	    lsk_connected6_lookup(s, addr) == NULL)
		return -ENETUNREACH;
	if (lsk_stack_is_own6(s, addr, iface))
		return -EINVAL;
	i = neigh6_pos(s, addr, iface);
	added = i < 0;
	if (added) {
		rc = lsk_array_grow((void **)&s->neighs6, &s->neighs6_cap,
				    s->n_neighs6, sizeof(*s->neighs6), 16);
		if (rc < 0)
			return rc;
		i = (int)s->n_neighs6++;
		s->neighs6[i] = (struct lsk_neigh6){ .addr = *addr,
						     .iface = iface };
	}
	saved = s->neighs6[i];
	s->neighs6[i].mac = *mac;
	if (s->in_batch)	/* set at its commit */
		return 0;
	rc = lsk_nd6_set_static(s->sh.nd6, addr, iface, mac, &s->ctl_stats);
	if (rc < 0) {
		if (added)
			s->n_neighs6--;
		else
			s->neighs6[i] = saved;
	}
	return rc;
}

int
lsk_neigh6_del(struct lsk_stack *s, const struct lsk_ip6_addr *addr,
	       uint16_t iface)
{
	struct rte_ether_addr mac;
	int i, rc;

	if (addr == NULL)
		return -EINVAL;
	rc = neigh6_iface(s, addr, iface, &iface);
	if (rc == -ENETUNREACH)
		return -ENOENT;	/* no prefix: no neighbour on it either */
	if (rc < 0)
		return rc;
	i = neigh6_pos(s, addr, iface);
	if (i < 0 && lsk_nd6_state_of(s->sh.nd6, addr, iface, &mac) == 0)
		return -ENOENT;
	rc = lsk_stack_forget_neigh6(s, addr, iface);
	if (rc < 0)
		return rc;
	if (i >= 0) {
		memmove(&s->neighs6[i], &s->neighs6[i + 1],
			(s->n_neighs6 - (unsigned int)i - 1) *
			sizeof(s->neighs6[0]));
		s->n_neighs6--;
	}
	return 0;
}

/* The static neighbours in the ND table, once the table that goes with
 * them is published (a batch's commit): a full table is counted, the
 * batch is in all the same (as IPv4's, control/batch.c). */
void
lsk_neigh6_set_statics(struct lsk_stack *s)
{
	unsigned int i;

	for (i = 0; i < s->n_neighs6; i++)
		lsk_nd6_set_static(s->sh.nd6, &s->neighs6[i].addr,
				   s->neighs6[i].iface, &s->neighs6[i].mac,
				   &s->ctl_stats);
}
