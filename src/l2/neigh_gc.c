/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour tables' collector: when a table is full, a new
 * neighbour takes the entry that loses least (neigh_table.c's top says
 * the rules), found in at most one pass over the table whose best picks
 * serve the next evictions. One collector for both families: IPv4's
 * table (neigh_table.c) and IPv6's (ip6/nd6_table.c) each hand it a
 * function that reads their entries.
 */
#include <rte_cycles.h>
#include <rte_hash.h>
#include <rte_spinlock.h>

#include "core/worker.h"
#include "l2/l2.h"
#include "l2/neigh.h"

/*
 * What the collector loses by taking an entry, least first. Held and
 * confirmed entries rank alike, the oldest going first: a flood of
 * either kind (spoofed senders, a scan) then takes its own oldest, never
 * the newest entry of the other kind (a host just learnt, a resolution
 * just started).
 */
enum neigh_gc_rank {
	NEIGH_GC_IDLE,		/* failed, or incomplete with nothing held */
	NEIGH_GC_STALE,		/* a MAC unconfirmed for 30 s */
	NEIGH_GC_BUSY,		/* packets held, or confirmed in 30 s */
	NEIGH_GC_NEVER,		/* static */
};

static enum neigh_gc_rank
neigh_gc_rank(const struct lsk_neigh_gc_view *v, uint64_t now, uint64_t hz)
{
	switch (word_state(v->word)) {
	case LSK_NEIGH_STATIC:
		return NEIGH_GC_NEVER;
	case LSK_NEIGH_INCOMPLETE:
		return v->n_held ? NEIGH_GC_BUSY : NEIGH_GC_IDLE;
	case LSK_NEIGH_REACHABLE:
		if (now - v->confirmed <= NEIGH_REACHABLE_S * hz)
			return NEIGH_GC_BUSY;
		return NEIGH_GC_STALE;
	case LSK_NEIGH_STALE:
		return NEIGH_GC_STALE;
	default:
		return NEIGH_GC_IDLE;
	}
}

/* Picks of a pass serve this long at most (then a new pass). */
#define NEIGH_GC_PICKS_MS 100
#define NEIGH_GC_AGE_MASK ((UINT64_C(1) << 60) - 1)

static inline uint32_t
neigh_next_slot(uint32_t cap, uint32_t i)
{
	return i + 1 == cap ? 0 : i + 1;
}

/*
 * One pass from the hand, under the create lock: the first idle entry
 * (so the newest, just behind the hand, go last), else the lowest rank,
 * oldest first. An entry locked now is being made, released or retried:
 * left alone. The pass also keeps its LSK_NEIGH_GC_PICKS best for the
 * next evictions, so a table full of busy entries (a spoofed flood)
 * costs one pass per 32 new neighbours, not one each.
 */
static uint32_t
neigh_gc_pass(struct lsk_neigh_gc *gc, uint32_t cap, lsk_neigh_gc_look_t *look,
	      const void *table, uint64_t now, uint64_t hz)
{
	uint64_t keys[LSK_NEIGH_GC_PICKS], key;
	uint32_t n = 0, k, j, i = gc->hand;
	struct lsk_neigh_gc_view v;
	enum neigh_gc_rank rank;

	gc->n_picks = 0;
	for (k = 0; k < cap; k++, i = neigh_next_slot(cap, i)) {
		look(table, i, &v);
		if (v.locked)
			continue;
		rank = neigh_gc_rank(&v, now, hz);
		if (rank == NEIGH_GC_IDLE)
			return i;
		if (rank == NEIGH_GC_NEVER)
			continue;
		key = (uint64_t)rank << 60 | (v.updated & NEIGH_GC_AGE_MASK);
		if (n == LSK_NEIGH_GC_PICKS && key >= keys[n - 1])
			continue;
		j = n < LSK_NEIGH_GC_PICKS ? n++ : n - 1;
		for (; j > 0 && keys[j - 1] > key; j--) {
			keys[j] = keys[j - 1];
			gc->picks[j] = gc->picks[j - 1];
			gc->pick_updated[j] = gc->pick_updated[j - 1];
		}
		keys[j] = key;
		gc->picks[j] = i;
		gc->pick_updated[j] = v.updated;
	}
	gc->n_picks = n;
	gc->next_pick = 1;
	gc->picks_tsc = now;
	return n != 0 ? gc->picks[0] : UINT32_MAX;
}

/* The next pick of the last pass still as it was then, and free. */
static uint32_t
neigh_gc_next_pick(struct lsk_neigh_gc *gc, lsk_neigh_gc_look_t *look,
		   const void *table, uint64_t now, uint64_t hz)
{
	struct lsk_neigh_gc_view v;

	if (now - gc->picks_tsc > NEIGH_GC_PICKS_MS * hz / 1000)
		gc->n_picks = 0;
	while (gc->next_pick < gc->n_picks) {
		uint32_t k = gc->next_pick++, i = gc->picks[k];

		look(table, i, &v);
		if (!v.locked && v.updated == gc->pick_updated[k] &&
		    neigh_gc_rank(&v, now, hz) != NEIGH_GC_NEVER)
			return i;
	}
	return UINT32_MAX;
}

/*
 * The entry to give a new neighbour, under the create lock. At most one
 * pass over the table, on the slow path only (Linux's forced GC allows
 * itself a millisecond). Either family's table: look reads its entries.
 */
uint32_t
lsk_neigh_gc_pick(struct lsk_neigh_gc *gc, uint32_t cap,
		  lsk_neigh_gc_look_t *look, const void *table)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	uint32_t i = neigh_gc_next_pick(gc, look, table, now, hz);

	if (i == UINT32_MAX)
		i = neigh_gc_pass(gc, cap, look, table, now, hz);
	if (i != UINT32_MAX)
		gc->hand = neigh_next_slot(cap, i);
	return i;
}

/* What the collector reads of an IPv4 entry. */
static void
neigh_gc_look(const void *table, uint32_t i, struct lsk_neigh_gc_view *v)
{
	LSK_NEIGH_GC_VIEW(&((const struct lsk_neigh_table *)table)->e[i], v);
}

/*
 * Take an entry from its neighbour for a new one, under the create lock;
 * returned locked, out of the hash, with no state. NULL when every entry
 * is static (or busy).
 */
struct lsk_neigh_entry *
lsk_neigh_evict(struct lsk_neigh_table *t, struct lsk_stats *st)
{
	uint32_t i = lsk_neigh_gc_pick(&t->gc, t->cap, neigh_gc_look, t);
	struct lsk_neigh_entry *e;
	int32_t pos;

	if (i == UINT32_MAX)
		return NULL;
	e = &t->e[i];
	rte_spinlock_lock(&e->lock);
	/* lock-free mode keeps the key slot until told: see the top */
	pos = rte_hash_del_key(t->hash, &e->addr);
	if (pos >= 0)
		rte_hash_free_key_with_position(t->hash, pos);
	lsk_neigh_drop_held_locked(t, e, st);
	__atomic_store_n(&e->word, 0, __ATOMIC_RELEASE);
	st->arp.Evictions++;
	return e;
}
