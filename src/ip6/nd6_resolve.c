/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6's neighbour table, the workers' side (the table itself is
 * nd6_table.c, whose top says how it is read without a lock): resolve a
 * next hop for a packet (send it at once, or hold it and ask with an NS)
 * and learn from ND what a neighbour's link-layer address and state are
 * (RFC 4861 7.2.3 to 7.2.5).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_hash.h>

#include "core/drop.h"
#include "core/fwd6.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/tx.h"
#include "core/worker.h"
#include "l2/neigh.h"
#include "ip6/nd6_priv.h"

/* a stale entry learnt from ND is first probed after this (Linux's
 * delay_first_probe_time) */
#define ND6_DELAY_S 5

static inline void
nd6_trace(struct lsk_worker *w, const struct rte_mbuf *m,
	  const struct lsk_ip6_addr *addr, enum lsk_neigh_outcome o,
	  uint64_t word)
{
	char a[48];

	if (lsk_trace_on(w) && lsk_traced(m)) {
		nd6_addr_text(addr, a, sizeof(a));
		lsk_neigh_trace_outcome(w, m, a, "ND", o, word, 0);
	}
}

static void
nd6_discard(struct lsk_worker *w, struct rte_mbuf *m)
{
	lsk_drop(w, m, 0, &nd6_drops[ND6_DROP_UNRESOLVED]);
}

/* The fast path: the MAC is known. A reachable entry unconfirmed for
 * 30 s becomes stale; a stale one in use is probed (unicast NS). */
static void
nd6_send_resolved(struct lsk_worker *w, struct lsk_nd6_entry *e, uint32_t gen,
		  uint64_t word, uint16_t iface, struct rte_mbuf *m,
		  struct rte_ether_addr *out)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	struct rte_ether_addr mac;
	uint8_t state = word_state(word);

	word_mac(word, &mac);
	if (state == LSK_NEIGH_REACHABLE &&
	    now - e->confirmed > NEIGH_REACHABLE_S * hz &&
	    __atomic_compare_exchange_n(&e->word, &word,
			neigh_word(&mac, LSK_NEIGH_STALE), false,
			__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		state = LSK_NEIGH_STALE;
	if (state == LSK_NEIGH_STALE && now >= e->next_probe) {
		rte_spinlock_lock(&e->lock);
		if (e->gen == gen &&
		    word_state(e->word) == LSK_NEIGH_STALE &&
		    now >= e->next_probe) {
			e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
			nd6_send_ns(w, iface, &e->addr, &mac, m->pool);
		}
		rte_spinlock_unlock(&e->lock);
	}
	if (out != NULL)
		*out = mac;
	lsk_neigh_output(w, iface, &mac, m);
}

/* Hold m until e resolves; under e->lock, which it releases. A new or
 * failed entry (its retry due) sends its first NS. */
static void
nd6_hold(struct lsk_worker *w, struct lsk_nd6_entry *e, bool created,
	 struct rte_mbuf *m)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	uint8_t state = word_state(e->word);
	char a[48] = "";
	bool held;

	if (state == LSK_NEIGH_FAILED && now < e->next_probe) {
		nd6_trace(w, m, &e->addr, LSK_NEIGH_FAILED_DROP, 0);
		rte_spinlock_unlock(&e->lock);
		nd6_discard(w, m);
		return;
	}
	if (state == LSK_NEIGH_FAILED || created) {
		e->updated = now;
		e->probes = 1;
		e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
		__atomic_store_n(&e->word, neigh_word(NULL,
			LSK_NEIGH_INCOMPLETE), __ATOMIC_RELEASE);
		nd6_send_ns(w, e->iface, &e->addr, NULL, m->pool);
	}
	if (lsk_trace_on(w) && lsk_traced(m))
		nd6_addr_text(&e->addr, a, sizeof(a));
	held = lsk_neigh_hold_add(w, e->held, &e->n_held, m,
				  &nd6_drops[ND6_DROP_UNRESOLVED], a, "ND");
	rte_spinlock_unlock(&e->lock);
	if (!held)
		nd6_discard(w, m);
}

bool
lsk_nd6_resolve(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
		uint16_t iface, struct rte_mbuf *m)
{
	return lsk_nd6_resolve_mac(w, addr, iface, m, NULL);
}

bool
lsk_nd6_resolve_mac(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
		    uint16_t iface, struct rte_mbuf *m,
		    struct rte_ether_addr *mac)
{
	struct lsk_nd6_table *t = w->sh->nd6;
	struct nd6_key k = nd6_key(addr, iface);
	struct lsk_nd6_entry *e;
	bool created;
	uint32_t gen;
	uint64_t word;

	if (unlikely(t == NULL)) {
		nd6_discard(w, m);	/* no table yet: the stack's making */
		return false;
	}
	for (;;) {
		created = false;
		e = nd6_lookup(t, &k, &gen);
		if (e == NULL) {
			rte_spinlock_lock(&t->create_lock);
			e = nd6_make_locked(t, &k, &gen, &created, &w->stats);
			rte_spinlock_unlock(&t->create_lock);
		}
		if (e == NULL) {
			nd6_trace(w, m, addr, LSK_NEIGH_NO_ENTRY, 0);
			nd6_discard(w, m);
			return false;
		}
		if (!created && nd6_read(e, gen, &word) &&
		    word_resolved(word)) {
			nd6_trace(w, m, addr, LSK_NEIGH_SENT, word);
			nd6_send_resolved(w, e, gen, word, iface, m, mac);
			return true;
		}
		if (!created) {
			rte_spinlock_lock(&e->lock);
			/* another's now, or resolved meanwhile */
			if (e->gen != gen || word_resolved(e->word)) {
				rte_spinlock_unlock(&e->lock);
				continue;
			}
		}
		nd6_hold(w, e, created, m);
		return false;
	}
}

/*
 * Give e (locked) the MAC and state, and send what it held; unlocks e.
 * A stale entry is first probed ND6_DELAY_S later, as Linux's DELAY.
 */
static void
nd6_update_unlock(struct lsk_worker *w, struct lsk_nd6_entry *e,
		  const struct rte_ether_addr *mac, uint8_t state)
{
	const uint64_t hz = rte_get_tsc_hz();
	struct rte_mbuf *held[LSK_NEIGH_HOLD];
	uint16_t iface = e->iface;
	uint32_t n_held;

	e->updated = rte_rdtsc();
	if (state == LSK_NEIGH_REACHABLE)
		e->confirmed = e->updated;
	e->next_probe = e->updated + ND6_DELAY_S * hz;
	__atomic_store_n(&e->word, neigh_word(mac, state), __ATOMIC_RELEASE);
	w->stats.nd.Updates++;
	n_held = lsk_neigh_held_take(e->held, &e->n_held, held);
	rte_spinlock_unlock(&e->lock);
	lsk_neigh_held_release(w, held, n_held, iface, mac, NULL,
			       &lsk_nd6_node);
}

/* RFC 4861 7.2.3 (and 6.2.6, 7.2.4 for RS and redirects): a sender's
 * link-layer address makes or refreshes its entry, stale when new or
 * changed, an incomplete one releasing what it held. */
void
nd6_learn_ns(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
	     uint16_t iface, const struct rte_ether_addr *mac)
{
	struct nd6_key k = nd6_key(addr, iface);
	struct rte_ether_addr old;
	struct lsk_nd6_entry *e;
	bool created;

	e = nd6_lock(w->sh->nd6, &k, true, &created, &w->stats);
	if (e == NULL)
		return;
	word_mac(e->word, &old);
	if (word_state(e->word) == LSK_NEIGH_STATIC ||
	    (word_resolved(e->word) && rte_is_same_ether_addr(&old, mac))) {
		rte_spinlock_unlock(&e->lock);
		return;
	}
	nd6_update_unlock(w, e, mac, LSK_NEIGH_STALE);
}

/* RFC 4861 7.2.5: what an NA changes of an entry we have. */
void
nd6_learn_na(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
	     uint16_t iface, const struct rte_ether_addr *mac, bool solicited,
	     bool override, bool router)
{
	struct nd6_key k = nd6_key(addr, iface);
	struct rte_ether_addr old;
	struct lsk_nd6_entry *e;
	uint8_t state;
	bool created, differs;

	e = nd6_lock(w->sh->nd6, &k, false, &created, &w->stats);
	if (e == NULL)
		return;
	state = word_state(e->word);
	word_mac(e->word, &old);
	differs = mac != NULL && !rte_is_same_ether_addr(&old, mac);
	if (state == LSK_NEIGH_STATIC) {
		rte_spinlock_unlock(&e->lock);
		return;
	}
	e->router = router;
	if (state == LSK_NEIGH_INCOMPLETE || state == LSK_NEIGH_FAILED) {
		if (mac == NULL) {
			rte_spinlock_unlock(&e->lock);
			return;
		}
		nd6_update_unlock(w, e, mac, solicited ? LSK_NEIGH_REACHABLE :
				  LSK_NEIGH_STALE);
		return;
	}
	if (!override && differs) {
		/* not ours to change: only doubt what we had */
		if (state == LSK_NEIGH_REACHABLE)
			nd6_update_unlock(w, e, &old, LSK_NEIGH_STALE);
		else
			rte_spinlock_unlock(&e->lock);
		return;
	}
	if (solicited)
		nd6_update_unlock(w, e, differs ? mac : &old,
				  LSK_NEIGH_REACHABLE);
	else if (differs)
		nd6_update_unlock(w, e, mac, LSK_NEIGH_STALE);
	else
		rte_spinlock_unlock(&e->lock);
}
