/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP over IPv6's slow side (ip6/ecmp6.h): whether a member is live,
 * and the member taken when the chosen one is not (core/ecmp.c's scan,
 * IPv4's too).
 */
#include <rte_branch_prediction.h>

#include "core/fwd.h"
#include "core/fwd6.h"
#include "ip6/ecmp6.h"
#include "ip6/nd6.h"

bool
lsk_ecmp6_live(const struct lsk_fwd_table *ports,
	       const struct lsk_fwd6_table *t, const struct lsk_nd6_table *nd,
	       uint32_t nh, uint64_t now)
{
	const struct lsk_nexthop6 *m = &t->nexthops[nh];
	uint16_t parent;

	if (ports != NULL && m->iface < ports->n_ifaces) {
		parent = ports->ifaces[m->iface].parent;
		if (unlikely(parent < 16 && (ports->ports_down >> parent) & 1))
			return false;
	}
	/* an on-link member's neighbour is each packet's destination */
	if (m->onlink || nd == NULL)
		return true;
	return !lsk_nd6_failed(nd, &m->gateway, m->iface, now);
}

struct ecmp6_ctx {
	const struct lsk_fwd_table *ports;
	const struct lsk_fwd6_table *t;
	const struct lsk_nd6_table *nd;
	uint64_t now;
};

static bool
ecmp6_live(const void *ctx, uint32_t nh)
{
	const struct ecmp6_ctx *c = ctx;

	return lsk_ecmp6_live(c->ports, c->t, c->nd, nh, c->now);
}

uint32_t
lsk_ecmp6_pick_slow(const struct lsk_fwd_table *ports,
		    const struct lsk_fwd6_table *t,
		    const struct lsk_nd6_table *nd,
		    const struct lsk_nexthop6 *g, uint32_t k, uint64_t now)
{
	const struct ecmp6_ctx c = { .ports = ports, .t = t, .nd = nd,
				     .now = now };

	return lsk_ecmp_scan(&t->group_words[g->group], g->n_members,
			     g->n_buckets, k, ecmp6_live, &c);
}
