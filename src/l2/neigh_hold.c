/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What waits for a neighbour: the bound on the packets all entries hold
 * (of both families: IPv6's neighbour discovery, ip6/nd6_resolve.c, holds
 * against it too), holding and dropping, and the timer that retries unanswered
 * requests and fails an entry after three (its packets then go to ICMP
 * host unreachable, on the caller's list).
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "core/capture.h"
#include "core/list.h"
#include "core/drop.h"
#include "core/trace.h"
#include "core/worker.h"
#include "l2/l2.h"
#include "l2/neigh.h"

/*
 * Most mbufs all entries together may hold, for a packet from pool. An
 * eighth of the pool by default: 3 packets each for hundreds of
 * neighbours resolving at once, while what RX refills, TX rings and
 * endpoint rings need is left (holding the whole pool made the PMD drop
 * every frame).
 */
static uint32_t
neigh_hold_limit(const struct lsk_neigh_table *t,
		 const struct rte_mempool *pool)
{
	uint32_t max = __atomic_load_n(&t->hold_max, __ATOMIC_RELAXED);

	if (max != 0)
		return max;
	return RTE_MAX(pool->size / 8, (uint32_t)LSK_NEIGH_HOLD);
}

/* Count m's mbufs as held, if the bound lets them (slow path only). */
bool
lsk_neigh_hold_take(struct lsk_neigh_table *t, const struct rte_mbuf *m)
{
	uint32_t n = m->nb_segs;

	if (__atomic_add_fetch(&t->held_mbufs, n, __ATOMIC_RELAXED) <=
	    neigh_hold_limit(t, m->pool))
		return true;
	__atomic_sub_fetch(&t->held_mbufs, n, __ATOMIC_RELAXED);
	return false;
}

/* Held packets leave: sent, or about to be freed. */
void
lsk_neigh_hold_give(struct lsk_neigh_table *t, struct rte_mbuf *const *held,
		uint32_t n)
{
	uint32_t k, segs = 0;

	for (k = 0; k < n; k++)
		segs += held[k]->nb_segs;
	if (segs != 0)
		__atomic_sub_fetch(&t->held_mbufs, segs, __ATOMIC_RELAXED);
}

/*
 * Drop what an entry held; under its lock. On any thread, a worker or
 * not (the control thread's neigh del, flush and static entries, an
 * eviction, the teardown): the stack's capture and trace of the moment
 * see each, named, as a worker's drops are.
 */
void
lsk_neigh_held_drop(struct lsk_neigh_table *t, struct rte_mbuf *const *held,
		    uint32_t n, uint16_t at)
{
	uint32_t k;

	lsk_neigh_hold_give(t, held, n);
	for (k = 0; k < n; k++) {
		lsk_capture_drop_any(&t->sh->capture, held[k], at);
		lsk_trace_held_drop(&t->sh->trace, held[k], at);
		rte_pktmbuf_free(held[k]);
	}
}

void
lsk_neigh_drop_held_locked(struct lsk_neigh_table *t, struct lsk_neigh_entry *e,
		       struct lsk_stats *st)
{
	lsk_neigh_held_drop(t, e->held, e->n_held,
			    lsk_neigh_drops[LSK_NEIGH_DROP_UNRESOLVED].counter[0]);
	st->arp.UnresolvedDiscards += e->n_held;
	__atomic_store_n(&e->n_held, 0, __ATOMIC_RELAXED);
}

/* A hold queue's trace record, for a traced m. */
static inline void
neigh_hold_trace(struct lsk_worker *w, const struct rte_mbuf *m,
		 const char *a, const char *by, enum lsk_neigh_outcome o,
		 uint32_t n_held)
{
	if (lsk_trace_on(w) && lsk_traced(m))
		lsk_neigh_trace_outcome(w, m, a, by, o, 0, n_held);
}

bool
lsk_neigh_hold_add(struct lsk_worker *w, struct rte_mbuf **held,
		   uint8_t *n_held, struct rte_mbuf *m,
		   const struct lsk_drop *r, const char *a, const char *by)
{
	struct lsk_neigh_table *t = w->sh->neigh;
	bool full;

	if (!lsk_neigh_hold_take(t, m)) {
		neigh_hold_trace(w, m, a, by, LSK_NEIGH_NO_ROOM, 0);
		return false;
	}
	full = *n_held == LSK_NEIGH_HOLD;
	if (full) {
		/* as Linux's unres_qlen: the oldest makes room */
		lsk_neigh_hold_give(t, held, 1);
		lsk_trace_unhold(w, held[0], &lsk_neigh_node);	/* maybe another's */
		lsk_drop(w, held[0], 0, r);
		memmove(&held[0], &held[1],
			(LSK_NEIGH_HOLD - 1) * sizeof(held[0]));
		(*n_held)--;
	}
	/* recorded before it is held: whoever takes it out records on */
	neigh_hold_trace(w, m, a, by,
			 full ? LSK_NEIGH_HELD_FULL : LSK_NEIGH_HELD,
			 *n_held + 1u);
	lsk_trace_hold(w, m);
	held[*n_held] = m;
	__atomic_store_n(n_held, *n_held + 1, __ATOMIC_RELAXED);
	return true;
}

uint32_t
lsk_neigh_held_take(struct rte_mbuf **held, uint8_t *n_held,
		    struct rte_mbuf **out)
{
	uint32_t n = *n_held;

	memcpy(out, held, n * sizeof(out[0]));
	__atomic_store_n(n_held, 0, __ATOMIC_RELAXED);
	return n;
}

void
lsk_neigh_held_release(struct lsk_worker *w, struct rte_mbuf **held,
		       uint32_t n, uint16_t iface,
		       const struct rte_ether_addr *mac,
		       struct lsk_list *unreach,
		       const struct lsk_stage_desc *node)
{
	uint32_t k;

	lsk_neigh_hold_give(w->sh->neigh, held, n);
	for (k = 0; k < n; k++) {
		lsk_trace_unhold(w, held[k], node);	/* held by any worker */
		if (mac != NULL)
			lsk_neigh_output(w, iface, mac, held[k]);
		else
			lsk_list_push(unreach, held[k], 0);
	}
}

uint32_t
lsk_neigh_table_drop_held(struct lsk_neigh_table *t, struct lsk_stats *st)
{
	uint32_t i, n = 0;

	for (i = 0; i < t->n; i++) {
		struct lsk_neigh_entry *e = &t->e[i];

		rte_spinlock_lock(&e->lock);
		n += e->n_held;
		lsk_neigh_drop_held_locked(t, e, st);
		rte_spinlock_unlock(&e->lock);
	}
	return n;
}

void
lsk_neigh_table_set_hold_max(struct lsk_neigh_table *t, uint32_t mbufs)
{
	__atomic_store_n(&t->hold_max, mbufs, __ATOMIC_RELAXED);
}

void
lsk_neigh_timer(struct lsk_worker *w, struct lsk_list *unreach)
{
	struct lsk_neigh_table *t = w->sh->neigh;
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	uint32_t i, n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

	if (now < t->next_timer)
		return;
	t->next_timer = now + hz / 10;
	for (i = 0; i < n; i++) {
		struct lsk_neigh_entry *e = &t->e[i];
		struct rte_mbuf *dropped[LSK_NEIGH_HOLD];
		uint32_t n_dropped = 0;

		if (word_state(e->word) != LSK_NEIGH_INCOMPLETE ||
		    now < e->next_probe)
			continue;
		if (unlikely(unreach->n + LSK_NEIGH_HOLD > LSK_BURST_MAX)) {
			t->next_timer = now;	/* the rest at the next call */
			return;
		}
		rte_spinlock_lock(&e->lock);
		if (word_state(e->word) == LSK_NEIGH_INCOMPLETE &&
		    now >= e->next_probe) {
			if (e->probes < NEIGH_MAX_PROBES) {
				e->probes++;
				e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
				lsk_neigh_send_request(w, e, e->n_held ?
						   e->held[0]->pool : NULL, NULL);
			} else {
				e->next_probe = now +
					NEIGH_FAILED_RETRY_MS * hz / 1000;
				__atomic_store_n(&e->word, neigh_word(NULL,
					LSK_NEIGH_FAILED), __ATOMIC_RELEASE);
				w->stats.arp.ResFailed++;
				n_dropped = lsk_neigh_held_take(e->held,
						&e->n_held, dropped);
			}
		}
		rte_spinlock_unlock(&e->lock);
		w->stats.arp.UnresolvedDiscards += n_dropped;
		lsk_neigh_held_release(w, dropped, n_dropped, 0, NULL,
				       unreach, &lsk_neigh_node);
	}
}
