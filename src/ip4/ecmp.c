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

struct ecmp_ctx {
	const struct lsk_fwd_table *t;
	const struct lsk_neigh_table *neigh;
	uint64_t now;
};

static bool
ecmp_live(const void *ctx, uint32_t nh)
{
	const struct ecmp_ctx *c = ctx;

	return lsk_ecmp_live(c->t, c->neigh, nh, c->now);
}

uint32_t
lsk_ecmp_pick_slow(const struct lsk_fwd_table *t,
		   const struct lsk_neigh_table *neigh,
		   const struct lsk_nexthop *g, uint32_t k, uint64_t now)
{
	const struct ecmp_ctx c = { .t = t, .neigh = neigh, .now = now };

	return lsk_ecmp_scan(&t->group_words[g->group], g->n_members,
			     g->n_buckets, k, ecmp_live, &c);
}
