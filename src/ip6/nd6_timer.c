/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Worker 0's timer for neighbour discovery, at each flush: unanswered
 * solicitations retried every second, an entry failed after three (what
 * it held goes to ICMPv6 address unreachable, on the caller's list), as
 * IPv4's (l2/neigh_hold.c); then DAD's pass (nd6_dad.c) and the router
 * advertisements due (nd6_ra.c).
 */
#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "core/list.h"
#include "core/trace.h"
#include "core/worker.h"
#include "l2/neigh.h"
#include "ip6/nd6_priv.h"

/* e is due (its lock held): a retry, or its failure, its held packets
 * then moved to dropped; returns how many. */
static uint32_t
nd6_retry_locked(struct lsk_worker *w, struct lsk_nd6_entry *e, uint64_t now,
		 uint64_t hz, struct rte_mbuf **dropped)
{
	if (e->probes < NEIGH_MAX_PROBES) {
		e->probes++;
		e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
		nd6_send_ns(w, e->iface, &e->addr, NULL,
			    e->n_held ? e->held[0]->pool : NULL);
		return 0;
	}
	e->next_probe = now + NEIGH_FAILED_RETRY_MS * hz / 1000;
	__atomic_store_n(&e->word, neigh_word(NULL, LSK_NEIGH_FAILED),
			 __ATOMIC_RELEASE);
	w->stats.nd.ResFailed++;
	return lsk_neigh_held_take(e->held, &e->n_held, dropped);
}

static void
nd6_neigh_timer(struct lsk_worker *w, struct lsk_nd6_table *t, uint64_t now,
		struct lsk_list *unreach)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint32_t i, n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++) {
		struct lsk_nd6_entry *e = &t->e[i];
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
		    now >= e->next_probe)
			n_dropped = nd6_retry_locked(w, e, now, hz, dropped);
		rte_spinlock_unlock(&e->lock);
		w->stats.nd.UnresolvedDiscards += n_dropped;
		lsk_neigh_held_release(w, dropped, n_dropped, 0, NULL,
				       unreach, &lsk_nd6_node);
	}
}

uint64_t
lsk_nd6_timer(struct lsk_worker *w, struct lsk_list *unreach)
{
	struct lsk_nd6_table *t = w->sh->nd6;
	uint64_t now;

	if (t == NULL)
		return UINT64_MAX;
	now = rte_rdtsc();
	if (now < t->next_timer)
		return t->next_timer;
	t->next_timer = now + rte_get_tsc_hz() / 10;
	nd6_neigh_timer(w, t, now, unreach);
	nd6_dad_timer(w, now);
	nd6_ra_timer(w, now);
	return t->next_timer;
}
