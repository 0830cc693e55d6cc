/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The read side of the forwarding table: the address tests workers make
 * on the table they loaded for the burst. The build and the publish are
 * the control thread's (control/fwd_table.c, control/fwd_update.c).
 */
#include <stdbool.h>
#include <stdint.h>

#include "core/fwd.h"

/* Is addr among the first n of addrs? */
static inline bool
addr_in(const uint32_t *addrs, uint32_t n, uint32_t addr)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (addrs[i] == addr)
			return true;
	return false;
}

const struct lsk_ifaddr *
lsk_ifaddr_connected(const struct lsk_ifaddr *addrs, unsigned int n,
		     uint32_t addr)
{
	const struct lsk_ifaddr *best = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct lsk_ifaddr *a = &addrs[i];
		uint32_t mask = lsk_depth_mask(a->depth);

		if ((addr & mask) == (a->addr & mask) &&
		    (best == NULL || a->depth > best->depth))
			best = a;
	}
	return best;
}

const struct lsk_ifaddr *
lsk_fwd_connected(const struct lsk_fwd_table *t, uint32_t addr)
{
	return lsk_ifaddr_connected(t->addrs, t->n_addrs, addr);
}

bool
lsk_addr_is_local_slow(const struct lsk_fwd_table *t, uint32_t addr)
{
	return addr_in(t->local_addrs, t->n_local, addr);
}

bool
lsk_addr_is_ours(const struct lsk_fwd_table *t, uint32_t addr)
{
	return addr_in(t->own_addrs, t->n_own, addr);
}

/* the broadcasts are local_addrs' first n_bcast */
bool
lsk_fwd_is_broadcast(const struct lsk_fwd_table *t, uint32_t addr)
{
	return addr == UINT32_MAX || addr_in(t->local_addrs, t->n_bcast, addr);
}
