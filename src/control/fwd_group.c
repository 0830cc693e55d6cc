/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP groups in the forwarding table: a route with several paths gets a
 * next hop of type LSK_NH_GROUP naming its members (FORWARD next hops of
 * the same table) and a bucket array filled by weight, which the workers
 * index by a flow's hash (ip4/ecmp.h). Buckets number the weights' sum
 * (over their greatest common divisor), so weights are honoured exactly
 * for hashes spread evenly; they are dealt by smooth weighted round
 * robin, so the members interleave and the buckets after a dead member's
 * (where core/ecmp.h looks next) belong to the others in proportion.
 * IPv6's table (control/fwd6_table.c) places its groups here too.
 */
#include <errno.h>
#include <string.h>

#include "core/fwd.h"
#include "control/control.h"

/* the most buckets a group has: 16 paths of weight 256 */
#define GROUP_BUCKETS_MAX (LSK_ROUTE_MAX_PATHS * 256)
#define GROUP_WORDS_MIN 1024
/* the words before each group in a table's words (its members' and
 * buckets' counts): groups are found again by their words alone, so
 * that both families' tables share this code; workers never read them */
#define GROUP_HEAD 2

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

/* Members that are one next hop (two paths to one gateway) are one,
 * their weights summed: how many are left. */
static unsigned int
group_dedup(uint32_t *members, uint16_t *weights, unsigned int n)
{
	unsigned int i, j, k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < k && members[j] != members[i]; j++)
			;
		if (j < k) {
			weights[j] = (uint16_t)(weights[j] + weights[i]);
			continue;
		}
		members[k] = members[i];
		weights[k++] = weights[i];
	}
	return k;
}

uint32_t
lsk_fwd_group_size(const uint16_t *weights, unsigned int n)
{
	uint32_t g = 0, total = 0, i;

	for (i = 0; i < n; i++)
		g = gcd(weights[i], g);
	for (i = 0; i < n; i++)
		total += weights[i] / g;
	return GROUP_HEAD + n + total;
}

int
lsk_fwd_group_place(struct lsk_group_words *gw, uint32_t *members,
		    uint16_t *weights, unsigned int *n,
		    struct lsk_group_ref *ref)
{
	uint16_t w[LSK_ROUTE_MAX_PATHS + GROUP_BUCKETS_MAX];
	uint32_t len, pos;

	if (*n < 1 || *n > LSK_ROUTE_MAX_PATHS)
		return -EINVAL;
	*n = group_dedup(members, weights, *n);
	if (*n == 1)
		return 0;
	len = group_words(members, weights, *n, w);
	ref->n_members = (uint16_t)*n;
	ref->n_buckets = (uint16_t)(len - *n);
	/* the groups so far, each behind its head */
	for (pos = 0; pos + GROUP_HEAD <= *gw->n; ) {
		const uint16_t *h = &gw->words[pos];
		uint32_t l = (uint32_t)h[0] + h[1];

		if (h[0] == ref->n_members && h[1] == ref->n_buckets &&
		    memcmp(h + GROUP_HEAD, w, len * sizeof(w[0])) == 0) {
			ref->group = pos + GROUP_HEAD;
			return 0;
		}
		pos += GROUP_HEAD + l;
	}
	if (gw->cap - *gw->n < GROUP_HEAD + len)
		return -ENOSPC;
	gw->words[*gw->n] = ref->n_members;
	gw->words[*gw->n + 1] = ref->n_buckets;
	memcpy(&gw->words[*gw->n + GROUP_HEAD], w, len * sizeof(w[0]));
	ref->group = *gw->n + GROUP_HEAD;
	*gw->n += GROUP_HEAD + len;
	return 0;
}

int
lsk_fwd_group_get(struct lsk_fwd_table *t, const uint32_t *members,
		  const uint16_t *weights, unsigned int n)
{
	struct lsk_group_words gw = { .words = t->group_words,
				      .n = &t->n_group_words,
				      .cap = t->group_cap };
	uint32_t m[LSK_ROUTE_MAX_PATHS], before = t->n_group_words;
	uint16_t wt[LSK_ROUTE_MAX_PATHS];
	struct lsk_group_ref ref;
	struct lsk_nexthop nh;
	uint32_t i;
	int rc;

	if (n < 1 || n > LSK_ROUTE_MAX_PATHS)
		return -EINVAL;
	memcpy(m, members, n * sizeof(m[0]));
	memcpy(wt, weights, n * sizeof(wt[0]));
	rc = lsk_fwd_group_place(&gw, m, wt, &n, &ref);
	if (rc < 0)
		return rc;
	if (n == 1)
		return (int)m[0];
	for (i = 1; i < t->n_nexthops; i++)
		if (t->nexthops[i].type == LSK_NH_GROUP &&
		    t->nexthops[i].group == ref.group)
			return (int)i;
	if (t->n_nexthops == t->nh_cap) {
		t->n_group_words = before;
		return -ENOSPC;
	}
	memset(&nh, 0, sizeof(nh));
	nh.type = LSK_NH_GROUP;
	nh.group = ref.group;
	nh.n_members = ref.n_members;
	nh.n_buckets = ref.n_buckets;
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
		uint16_t wt[LSK_ROUTE_MAX_PATHS];
		uint32_t i;

		if (ps->refs == 0 || ps->n == 0)
			continue;
		for (i = 0; i < ps->n; i++)
			wt[i] = ps->p[i].weight;
		words += lsk_fwd_group_size(wt, ps->n);
	}
	return RTE_MAX(2 * words, (uint32_t)GROUP_WORDS_MIN);
}
