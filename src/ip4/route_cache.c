/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The route cache: per worker, a bounded exact-match cache from destination
 * to next hop in front of the FIB. Buckets of four entries indexed by a
 * seeded hash keep random destinations from building chains (what made
 * Linux drop its IPv4 routing cache); a full bucket evicts round robin.
 * The whole cache is forgotten when the forwarding table is replaced (every
 * route or neighbour change makes a new table with a new generation).
 *
 * A cache that hardly hits (destinations spread over many routes, as in a
 * scan) only adds its probe and insert to every FIB lookup, so it steps
 * aside: when fewer than 1 in RC_MIN_HIT_DIV of RC_SAMPLE lookups hit,
 * the next RC_BYPASS_BURSTS bursts go straight to the FIB (counted
 * Bypassed), then the cache samples again. A hot set that appears is
 * found within one bypass period.
 */
#include <errno.h>
#include <string.h>

#include <rte_fib.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include "core/fwd.h"
#include "core/worker.h"
#include "ip4/ip4.h"

#define RC_WAYS 4
#define RC_SAMPLE 1024		/* lookups judged at once */
#define RC_MIN_HIT_DIV 8	/* fewer hits than 1 in 8: bypass */
#define RC_BYPASS_BURSTS 1024

struct lsk_rc_entry {
	uint32_t dst;		/* 0 = empty: 0/8 never reaches routing */
	uint32_t nh;
};

struct lsk_route_cache {
	uint32_t n_buckets;	/* a power of 2 */
	uint32_t seed;
	uint32_t generation;	/* of the table the entries came from */
	uint32_t entries;	/* as configured */
	uint32_t sampled, sample_hits;	/* lookups since the last verdict */
	uint32_t bypass;	/* bursts left that skip the cache */
	uint8_t *victim;	/* next way to evict, per bucket */
	struct lsk_rc_entry e[];	/* n_buckets * RC_WAYS */
};

void
lsk_route_cache_free(struct lsk_route_cache *c)
{
	if (c == NULL)
		return;
	rte_free(c->victim);
	rte_free(c);
}

struct lsk_route_cache *
lsk_route_cache_create(uint32_t entries, int socket)
{
	uint32_t buckets =
		rte_align32pow2(RTE_MAX(entries, (uint32_t)RC_WAYS)) / RC_WAYS;
	struct lsk_route_cache *c;

	c = rte_zmalloc_socket("lsk_rc", sizeof(*c) + (size_t)buckets *
			       RC_WAYS * sizeof(c->e[0]), RTE_CACHE_LINE_SIZE,
			       socket);
	if (c == NULL)
		return NULL;
	c->victim = rte_zmalloc_socket("lsk_rc_victim", buckets, 0, socket);
	if (c->victim == NULL) {
		rte_free(c);
		return NULL;
	}
	c->n_buckets = buckets;
	c->entries = entries;
	c->seed = (uint32_t)rte_rand();
	return c;
}

static inline struct lsk_rc_entry *
rc_bucket(const struct lsk_route_cache *c, uint32_t dst, uint32_t *b)
{
	*b = rte_hash_crc_4byte(dst, c->seed) & (c->n_buckets - 1);
	return (struct lsk_rc_entry *)&c->e[*b * RC_WAYS];
}

int
lsk_route_cache_probe(const struct lsk_worker *w, uint32_t dst)
{
	const struct lsk_route_cache *c = w->ip4w->rcache;
	const struct lsk_rc_entry *e;
	uint32_t b, k;

	if (c == NULL || c->bypass != 0)
		return -1;
	if (c->generation != w->fwd->generation)
		return 0;	/* the lookup empties it first */
	e = rc_bucket(c, dst, &b);
	for (k = 0; k < RC_WAYS; k++)
		if (e[k].dst == dst)
			return 1;
	return 0;
}

static void
rc_insert(struct lsk_worker *w, struct lsk_route_cache *c, uint32_t b,
	  uint32_t dst, uint32_t nh)
{
	struct lsk_rc_entry *e = &c->e[b * RC_WAYS];
	uint32_t i;

	/* a destination missed twice in one burst is cached once */
	for (i = 0; i < RC_WAYS; i++) {
		if (e[i].dst == dst || e[i].dst == 0) {
			e[i].dst = dst;
			e[i].nh = nh;
			return;
		}
	}
	i = c->victim[b]++ % RC_WAYS;
	w->stats.route_cache.Evictions++;
	e[i].dst = dst;
	e[i].nh = nh;
}

/* Entries of an older table are forgotten before a lookup. */
static inline void
rc_fresh(struct lsk_route_cache *c, const struct lsk_fwd_table *t)
{
	if (unlikely(c->generation != t->generation)) {
		memset(c->e, 0, (size_t)c->n_buckets * RC_WAYS * sizeof(c->e[0]));
		c->generation = t->generation;
		c->sampled = c->sample_hits = c->bypass = 0;
	}
}

/* n lookups, hits of them hits: every RC_SAMPLE, whether to step aside. */
static inline void
rc_sample(struct lsk_route_cache *c, uint32_t n, uint32_t hits)
{
	c->sampled += n;
	c->sample_hits += hits;
	if (unlikely(c->sampled >= RC_SAMPLE)) {
		if (c->sample_hits * RC_MIN_HIT_DIV < c->sampled)
			c->bypass = RC_BYPASS_BURSTS;
		c->sampled = c->sample_hits = 0;
	}
}

/* The lookup of dst standing for n packets (one probe, n counted), its
 * next hop to nh[0]; *seen how it was answered (LSK_RC_*). */
void
lsk_route_cache_lookup_same(struct lsk_worker *w, uint32_t dst, uint64_t *nh,
			    uint32_t n, uint8_t *seen)
{
	struct lsk_route_cache *c = w->ip4w->rcache;
	const struct lsk_fwd_table *t = w->fwd;
	const struct lsk_rc_entry *e;
	uint32_t b, k;

	rc_fresh(c, t);
	if (unlikely(c->bypass != 0)) {
		c->bypass--;
		w->stats.route_cache.Bypassed += n;
		*seen = LSK_RC_BYPASSED;
		rte_fib_lookup_bulk(t->fib, &dst, nh, 1);
		return;
	}
	e = rc_bucket(c, dst, &b);
	for (k = 0; k < RC_WAYS; k++) {
		if (e[k].dst == dst) {
			nh[0] = e[k].nh;
			w->stats.route_cache.Hits += n;
			*seen = LSK_RC_HIT;
			rc_sample(c, n, n);
			return;
		}
	}
	/* the stages' list probes every packet before it fills: n misses */
	w->stats.route_cache.Misses += n;
	*seen = LSK_RC_MISS;
	rc_sample(c, n, 0);
	rte_fib_lookup_bulk(t->fib, &dst, nh, 1);
	rc_insert(w, c, b, dst, (uint32_t)nh[0]);
}

/*
 * A packet the fast path looked up (answered as seen) and then handed
 * on to the stages, whose ip4_route asks the cache again: its lookup is
 * not counted twice, and a miss leaves no entry, so that the stages'
 * lookup counts it as it would have without the fast path.
 */
void
lsk_route_cache_unsee(struct lsk_worker *w, uint32_t dst, uint8_t seen)
{
	struct lsk_route_cache *c = w->ip4w->rcache;
	struct lsk_rc_entry *e;
	uint32_t b, k;

	if (seen == LSK_RC_BYPASSED) {
		w->stats.route_cache.Bypassed--;
		return;
	}
	if (c->sampled != 0)
		c->sampled--;
	if (seen == LSK_RC_HIT) {
		w->stats.route_cache.Hits--;
		if (c->sample_hits != 0)
			c->sample_hits--;
		return;
	}
	w->stats.route_cache.Misses--;
	e = rc_bucket(c, dst, &b);
	for (k = 0; k < RC_WAYS; k++)
		if (e[k].dst == dst)
			e[k].dst = 0;
}

/* Next hops for dst[0..n): cached ones, the misses from one FIB lookup;
 * with seen, how each was answered (LSK_RC_*). */
void
lsk_route_cache_lookup(struct lsk_worker *w, uint32_t *dst,
		       uint64_t *nh, uint32_t n, uint8_t *seen)
{
	struct lsk_route_cache *c = w->ip4w->rcache;
	const struct lsk_fwd_table *t = w->fwd;
	uint32_t miss_dst[LSK_BURST_MAX], miss_at[LSK_BURST_MAX];
	uint32_t miss_bucket[LSK_BURST_MAX];
	uint64_t miss_nh[LSK_BURST_MAX];
	uint32_t i, k, misses = 0;

	rc_fresh(c, t);
	if (unlikely(c->bypass != 0)) {
		c->bypass--;
		w->stats.route_cache.Bypassed += n;
		if (seen != NULL)
			memset(seen, LSK_RC_BYPASSED, n);
		rte_fib_lookup_bulk(t->fib, dst, nh, (int)n);
		return;
	}
	for (i = 0; i < n; i++) {
		uint32_t b;
		const struct lsk_rc_entry *e = rc_bucket(c, dst[i], &b);

		for (k = 0; k < RC_WAYS; k++) {
			if (e[k].dst == dst[i]) {
				nh[i] = e[k].nh;
				break;
			}
		}
		if (seen != NULL)
			seen[i] = k == RC_WAYS ? LSK_RC_MISS : LSK_RC_HIT;
		if (k == RC_WAYS) {
			miss_at[misses] = i;
			miss_bucket[misses] = b;
			miss_dst[misses++] = dst[i];
		}
	}
	w->stats.route_cache.Hits += n - misses;
	rc_sample(c, n, n - misses);
	if (misses == 0)
		return;
	w->stats.route_cache.Misses += misses;
	rte_fib_lookup_bulk(t->fib, miss_dst, miss_nh, (int)misses);
	for (i = 0; i < misses; i++) {
		nh[miss_at[i]] = miss_nh[i];
		rc_insert(w, c, miss_bucket[i], miss_dst[i],
			  (uint32_t)miss_nh[i]);
	}
}
