/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The read side of the IPv6 forwarding table: the address tests workers
 * make on the table they loaded for the burst (our addresses, the source
 * our packets get, the groups an interface listens to). The build and
 * the publish are the control thread's (control/fwd6_table.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/fwd6.h"

const struct lsk_ifaddr6 *
lsk_fwd6_ours(const struct lsk_fwd6_table *t, const struct lsk_ip6_addr *addr,
	      uint16_t iface)
{
	uint32_t i;

	for (i = 0; i < t->n_addrs; i++) {
		const struct lsk_ifaddr6 *a = &t->addrs[i];

		if (!lsk_ip6_equal(&a->addr, addr))
			continue;
		/* a link-local address means nothing off its link; the
		 * same one may be on several (a port and its VLANs) */
		if ((a->flags & LSK_IFA6_LINKLOCAL) && iface != LSK_IFACE_ANY &&
		    a->iface != iface)
			continue;
		return a;
	}
	return NULL;
}

const struct lsk_ifaddr6 *
lsk_fwd6_linklocal(const struct lsk_fwd6_table *t, uint16_t iface)
{
	uint32_t i;

	for (i = 0; i < t->n_addrs; i++)
		if ((t->addrs[i].flags & LSK_IFA6_AUTO) &&
		    t->addrs[i].iface == iface)
			return &t->addrs[i];
	return NULL;
}

bool
lsk_ip6_prefix_match(const struct lsk_ip6_addr *a, const struct lsk_ip6_addr *b,
	     uint8_t depth)
{
	unsigned int bytes = depth / 8, bits = depth % 8;
	uint8_t mask;

	if (depth > 128)
		return false;
	if (memcmp(a->a, b->a, bytes) != 0)
		return false;
	if (bits == 0)
		return true;
	mask = (uint8_t)(0xff00 >> bits);
	return ((a->a[bytes] ^ b->a[bytes]) & mask) == 0;
}

const struct lsk_ifaddr6 *
lsk_fwd6_source(const struct lsk_fwd6_table *t, const struct lsk_ip6_addr *dst,
		uint16_t iface)
{
	const struct lsk_ifaddr6 *first = NULL, *any = NULL, *best = NULL;
	uint32_t i;

	if (lsk_ip6_is_linklocal(dst) ||
	    (lsk_ip6_is_multicast(dst) && (dst->a[1] & 0x0f) <= 2))
		return lsk_fwd6_linklocal(t, iface);
	for (i = 0; i < t->n_addrs; i++) {
		const struct lsk_ifaddr6 *a = &t->addrs[i];

		if (a->flags & LSK_IFA6_LINKLOCAL)
			continue;
		if (any == NULL)
			any = a;
		if (a->iface != iface)
			continue;
		if (first == NULL)
			first = a;
		if (lsk_ip6_prefix_match(&a->addr, dst, a->depth) &&
		    (best == NULL || a->depth > best->depth))
			best = a;
	}
	if (best != NULL)
		return best;
	if (first != NULL)
		return first;
	if (any != NULL)
		return any;
	return lsk_fwd6_linklocal(t, iface);
}

/* ff02::1:ffXX:XXXX, the solicited-node group of an address whose last
 * three bytes are XX:XXXX (RFC 4291 2.7.1) */
static bool
solicited_node_of(const struct lsk_ip6_addr *group,
		  const struct lsk_ip6_addr *addr)
{
	static const uint8_t head[13] = {
		0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff };

	return memcmp(group->a, head, sizeof(head)) == 0 &&
	       memcmp(&group->a[13], &addr->a[13], 3) == 0;
}

bool
lsk_fwd6_joined(const struct lsk_fwd6_table *t,
		const struct lsk_ip6_addr *group, uint16_t iface)
{
	static const uint8_t all_nodes_routers[15] = { 0xff, 0x02 };
	uint32_t i;

	/* ff02::1 and ff02::2: every interface, we being a router */
	if (memcmp(group->a, all_nodes_routers, 15) == 0 &&
	    (group->a[15] == 1 || group->a[15] == 2))
		return lsk_fwd6_linklocal(t, iface) != NULL;
	for (i = 0; i < t->n_addrs; i++)
		if (t->addrs[i].iface == iface &&
		    solicited_node_of(group, &t->addrs[i].addr))
			return true;
	return false;
}
