/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP's slow side (ip4/ecmp.h): whether a member is live, and the
 * member taken when the chosen one is not.
 */
#include <rte_branch_prediction.h>

#include "core/fwd.h"
#include "l2/l2.h"
#include "ip4/ecmp.h"

bool
lsk_ecmp_live(const struct lsk_fwd_table *t,
	      const struct lsk_neigh_table *neigh, uint32_t nh, uint64_t now)
{
	const struct lsk_nexthop *m = &t->nexthops[nh];
	uint16_t parent = t->ifaces[m->port].parent;

	if (unlikely(parent < 16 && (t->ports_down >> parent) & 1))
		return false;
	/* a MAC in the next hop itself (`neigh add`) never fails; an
	 * on-link member's neighbour is each packet's destination */
	if (m->resolved || m->gateway == 0 || neigh == NULL)
		return true;
	return !lsk_neigh_failed(neigh, m->gateway, now);
}

uint32_t
lsk_ecmp_pick_slow(const struct lsk_fwd_table *t,
		   const struct lsk_neigh_table *neigh,
		   const struct lsk_nexthop *g, uint32_t k, uint64_t now)
{
	const uint16_t *members = &t->group_words[g->group];
	const uint16_t *b = members + g->n_members;
	/* each member judged once: 1 live, 2 dead */
	uint8_t seen[LSK_ROUTE_MAX_PATHS] = { 0 };
	uint32_t i, j;

	for (i = 1; i < g->n_buckets; i++) {
		uint32_t nh = b[(k + i) % g->n_buckets];

		for (j = 0; j < g->n_members && members[j] != nh; j++)
			;
		if (j == g->n_members)
			continue;	/* cannot be: every bucket's a member */
		if (seen[j] == 0)
			seen[j] = lsk_ecmp_live(t, neigh, nh, now) ? 1 : 2;
		if (seen[j] == 1)
			return nh;
	}
	return b[k];
}
