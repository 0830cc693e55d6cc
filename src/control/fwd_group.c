/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP groups in the forwarding table: a route with several paths gets a
 * next hop of type LSK_NH_GROUP naming its members (FORWARD next hops of
 * the same table) and a bucket array filled by weight, which the workers
 * index by a flow's hash (ip4/ecmp.h). Buckets number the weights' sum
 * (over their greatest common divisor), so weights are honoured exactly
 * for hashes spread evenly; they are dealt by smooth weighted round
 * robin, so the members interleave and the buckets after a dead member's
 * (where ip4/ecmp.h looks next) belong to the others in proportion.
 */
#include <errno.h>
#include <string.h>

#include "core/fwd.h"
#include "control/control.h"

/* the most buckets a group has: 16 paths of weight 256 */
#define GROUP_BUCKETS_MAX (LSK_ROUTE_MAX_PATHS * 256)
#define GROUP_WORDS_MIN 1024

static uint32_t
gcd(uint32_t a, uint32_t b)
{
	while (b != 0) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The words of a group of members[0..n) weighted so, into w: how many. */
static uint32_t
group_words(const uint32_t *members, const uint16_t *weights, unsigned int n,
	    uint16_t *w)
{
	int32_t cur[LSK_ROUTE_MAX_PATHS] = { 0 };
	uint32_t g = 0, total = 0, i, k;

	for (i = 0; i < n; i++)
		g = gcd(weights[i], g);
	for (i = 0; i < n; i++) {
		w[i] = (uint16_t)members[i];
		total += weights[i] / g;
	}
	for (k = 0; k < total; k++) {
		unsigned int best = 0;

		for (i = 0; i < n; i++) {
			cur[i] += (int32_t)(weights[i] / g);
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= (int32_t)total;
		w[n + k] = (uint16_t)members[best];
	}
	return n + total;
}

int
lsk_fwd_group_get(struct lsk_fwd_table *t, const uint32_t *members,
		  const uint16_t *weights, unsigned int n)
{
	uint16_t w[LSK_ROUTE_MAX_PATHS + GROUP_BUCKETS_MAX];
	uint32_t len = group_words(members, weights, n, w);
	struct lsk_nexthop nh;
	uint32_t i;

	for (i = 1; i < t->n_nexthops; i++) {
		const struct lsk_nexthop *g = &t->nexthops[i];

		if (g->type == LSK_NH_GROUP && g->n_members == n &&
		    (uint32_t)g->n_members + g->n_buckets == len &&
		    memcmp(&t->group_words[g->group], w,
			   len * sizeof(w[0])) == 0)
			return (int)i;
	}
	if (t->n_nexthops == t->nh_cap || t->group_cap - t->n_group_words < len)
		return -ENOSPC;
	memset(&nh, 0, sizeof(nh));
	nh.type = LSK_NH_GROUP;
	nh.group = t->n_group_words;
	nh.n_members = (uint16_t)n;
	nh.n_buckets = (uint16_t)(len - n);
	memcpy(&t->group_words[t->n_group_words], w, len * sizeof(w[0]));
	t->n_group_words += len;
	t->nexthops[t->n_nexthops] = nh;
	return (int)t->n_nexthops++;
}

/* The words every path set held now needs (each set's group at most
 * once: sets are distinct), twice over for room, at least
 * GROUP_WORDS_MIN. */
uint32_t
lsk_fwd_group_words_needed(const struct lsk_stack *s)
{
	uint32_t words = 0, id;

	for (id = 1; id < s->n_psets; id++) {
		const struct lsk_path_set *ps = &s->psets[id];
		uint32_t g = 0, total = 0, i;

		if (ps->refs == 0 || ps->n == 0)
			continue;
		for (i = 0; i < ps->n; i++)
			g = gcd(ps->p[i].weight, g);
		for (i = 0; i < ps->n; i++)
			total += ps->p[i].weight / g;
		words += ps->n + total;
	}
	return RTE_MAX(2 * words, (uint32_t)GROUP_WORDS_MIN);
}
