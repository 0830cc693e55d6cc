/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6's neighbour table (RFC 4861 7.3): (address, interface) to MAC,
 * with Linux's states (incomplete, reachable, stale, failed, static),
 * built as IPv4's (l2/neigh_table.c, whose top says the rules): workers
 * read an entry's MAC and state from one 64-bit word without a lock
 * (l2/neigh.h's), the table is bounded and collected by the same
 * collector (l2/neigh_gc.c), and what waits for an answer counts against
 * the one bound of what all hold, IPv4's included (l2/neigh_hold.c).
 *
 * A slot given to another neighbour gets a new generation, which the
 * hash's data carries beside the slot: a reader that reads the word and
 * then the same generation read that neighbour's word (the generation
 * is written before the new word, release; read after it, acquire).
 *
 * Known gaps: no DELAY/PROBE states of their own: a stale entry in use
 * is probed (a unicast NS) at most once a second, five seconds after it
 * was learnt stale, as IPv4's are; no proxy ND.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_malloc.h>

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

int
lsk_nd6_table_create(struct lsk_shared *sh, const char *stack_name,
		     uint32_t cap)
{
	struct rte_hash *hash;
	struct lsk_nd6_table *t;
	char name[64];

	snprintf(name, sizeof(name), "%.20s_nd6", stack_name);
	hash = lsk_neigh_hash_create(name, cap, sizeof(struct nd6_key),
				     sh->socket_id);
	if (hash == NULL)
		return -(rte_errno ? rte_errno : ENOMEM);
	/* zeroed: the create lock unlocked, no entry, no address */
	t = rte_zmalloc_socket("lsk_nd6", sizeof(*t) + cap * sizeof(t->e[0]),
			       RTE_CACHE_LINE_SIZE, sh->socket_id);
	if (t == NULL) {
		rte_hash_free(hash);
		return -ENOMEM;
	}
	t->hash = hash;
	t->cap = cap;
	t->sh = sh;
	sh->nd6 = t;
	return 0;
}

/* The stack goes: what is held is freed, the bound on it goes too. */
void
lsk_nd6_table_free(struct lsk_nd6_table *t)
{
	struct lsk_nd6_entry *e;

	if (t == NULL)
		return;
	for (e = t->e; e < t->e + t->n; e++)
		rte_pktmbuf_free_bulk(e->held, e->n_held);
	rte_hash_free(t->hash);
	rte_free(t);
}

static inline struct nd6_key
nd6_key(const struct lsk_ip6_addr *addr, uint16_t iface)
{
	struct nd6_key k = { .addr = *addr, .iface = iface };

	return k;
}

/* The entry the hash gives for k and its generation then. */
static struct lsk_nd6_entry *
nd6_lookup(const struct lsk_nd6_table *t, const struct nd6_key *k,
	   uint32_t *gen)
{
	void *data;

	if (rte_hash_lookup_data(t->hash, k, &data) < 0)
		return NULL;
	*gen = (uint32_t)((uintptr_t)data >> 32);
	return (struct lsk_nd6_entry *)&t->e[(uint32_t)(uintptr_t)data];
}

/* The word of the entry of generation gen, lock-free (the top). */
static inline bool
nd6_read(const struct lsk_nd6_entry *e, uint32_t gen, uint64_t *word)
{
	*word = __atomic_load_n(&e->word, __ATOMIC_ACQUIRE);
	return __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE) == gen;
}

/* Take e from its neighbour (out of the hash, what it held dropped and
 * counted in st), under the create lock and e's lock. */
static void
nd6_unhash_locked(struct lsk_nd6_table *t, struct lsk_nd6_entry *e,
		  struct lsk_stats *st)
{
	struct nd6_key k = nd6_key(&e->addr, e->iface);
	int32_t pos = rte_hash_del_key(t->hash, &k);

	if (pos >= 0)
		rte_hash_free_key_with_position(t->hash, pos);
	lsk_neigh_held_drop(t->sh->neigh, e->held, e->n_held,
			    nd6_drops[ND6_DROP_UNRESOLVED].counter[0]);
	st->nd.UnresolvedDiscards += e->n_held;
	__atomic_store_n(&e->n_held, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->word, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&e->gen, e->gen + 1, __ATOMIC_RELEASE);
}

/* What the collector reads of an entry (l2/neigh_gc.c). */
static void
nd6_gc_look(const void *table, uint32_t i, struct lsk_neigh_gc_view *v)
{
	LSK_NEIGH_GC_VIEW(&((const struct lsk_nd6_table *)table)->e[i], v);
}

/*
 * Make k's entry under the create lock (as IPv4's neigh_make_locked): a
 * new slot while there are any, else the one the collector picks.
 * Returned locked, or the entry k has already, unlocked (*gen its
 * generation); NULL when the table is full of entries that cannot go.
 */
static struct lsk_nd6_entry *
nd6_make_locked(struct lsk_nd6_table *t, const struct nd6_key *k,
		uint32_t *gen, bool *created, struct lsk_stats *st)
{
	struct lsk_nd6_entry *e = nd6_lookup(t, k, gen);
	bool fresh = t->n < t->cap;
	uint32_t i;

	*created = false;
	if (e != NULL)
		return e;
	if (fresh) {
		e = &t->e[t->n];
		rte_spinlock_init(&e->lock);
		rte_spinlock_lock(&e->lock);
	} else {
		i = lsk_neigh_gc_pick(&t->gc, t->cap, nd6_gc_look, t);
		if (i == UINT32_MAX) {
			st->nd.TableFulls++;
			return NULL;
		}
		e = &t->e[i];
		rte_spinlock_lock(&e->lock);
		nd6_unhash_locked(t, e, st);
		st->nd.Evictions++;
	}
	__atomic_store_n(&e->gen, e->gen + 1, __ATOMIC_RELEASE);
	e->addr = k->addr;
	e->iface = k->iface;
	e->probes = 0;
	e->router = 0;
	e->confirmed = 0;
	e->next_probe = 0;
	e->updated = rte_rdtsc();
	__atomic_store_n(&e->word, neigh_word(NULL, LSK_NEIGH_INCOMPLETE),
			 __ATOMIC_RELEASE);
	*gen = e->gen;
	if (fresh)
		__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
	if (rte_hash_add_key_data(t->hash, k, (void *)(uintptr_t)
			((uint64_t)e->gen << 32 | (uint32_t)(e - t->e))) != 0) {
		/* out of the hash: the collector's next pick */
		__atomic_store_n(&e->word, neigh_word(NULL, LSK_NEIGH_FAILED),
				 __ATOMIC_RELEASE);
		rte_spinlock_unlock(&e->lock);
		st->nd.TableFulls++;
		return NULL;
	}
	*created = true;
	return e;
}

/* Lock k's entry (found, or made when create); NULL when none. */
static struct lsk_nd6_entry *
nd6_lock(struct lsk_nd6_table *t, const struct nd6_key *k, bool create,
	 bool *created, struct lsk_stats *st)
{
	struct lsk_nd6_entry *e;
	uint32_t gen;

	for (;;) {
		*created = false;
		e = nd6_lookup(t, k, &gen);
		if (e == NULL && create) {
			rte_spinlock_lock(&t->create_lock);
			e = nd6_make_locked(t, k, &gen, created, st);
			rte_spinlock_unlock(&t->create_lock);
		}
		if (e == NULL || *created)
			return e;
		rte_spinlock_lock(&e->lock);
		if (e->gen == gen)
			return e;
		/* the collector gave it to another: look again */
		rte_spinlock_unlock(&e->lock);
	}
}

void
nd6_addr_text(const struct lsk_ip6_addr *a, char *buf, size_t len)
{
	/* RFC 5952's form, as `show neigh` writes it */
	if (inet_ntop(AF_INET6, a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

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

/*
 * The control side (`neigh add|del|flush`, the views). Static entries
 * are made under the create lock, which the collector holds when it
 * picks, so it cannot be taking this one meanwhile; what an entry held
 * is dropped (a static entry never releases).
 */
int
lsk_nd6_set_static(struct lsk_nd6_table *t, const struct lsk_ip6_addr *addr,
		   uint16_t iface, const struct rte_ether_addr *mac,
		   struct lsk_stats *st)
{
	struct nd6_key k = nd6_key(addr, iface);
	struct lsk_nd6_entry *e;
	bool created;
	uint32_t gen;

	rte_spinlock_lock(&t->create_lock);
	e = nd6_make_locked(t, &k, &gen, &created, st);
	if (e == NULL) {
		rte_spinlock_unlock(&t->create_lock);
		return -ENOSPC;
	}
	if (!created)
		rte_spinlock_lock(&e->lock);
	lsk_neigh_held_drop(t->sh->neigh, e->held, e->n_held,
			    nd6_drops[ND6_DROP_UNRESOLVED].counter[0]);
	st->nd.UnresolvedDiscards += e->n_held;
	__atomic_store_n(&e->n_held, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->word, neigh_word(mac, LSK_NEIGH_STATIC),
			 __ATOMIC_RELEASE);
	rte_spinlock_unlock(&e->lock);
	rte_spinlock_unlock(&t->create_lock);
	return 0;
}

int
lsk_nd6_forget(struct lsk_nd6_table *t, const struct lsk_ip6_addr *addr,
	       uint16_t iface, struct lsk_stats *st)
{
	struct nd6_key k = nd6_key(addr, iface);
	struct lsk_nd6_entry *e;
	bool created;

	rte_spinlock_lock(&t->create_lock);
	e = nd6_lock(t, &k, false, &created, st);
	if (e != NULL) {
		nd6_unhash_locked(t, e, st);
		rte_spinlock_unlock(&e->lock);
	}
	rte_spinlock_unlock(&t->create_lock);
	return e != NULL ? 0 : -ENOENT;
}

uint32_t
lsk_nd6_forget_all(struct lsk_nd6_table *t, struct lsk_stats *st)
{
	uint32_t i, n = 0;

	rte_spinlock_lock(&t->create_lock);
	for (i = 0; i < t->n; i++) {
		struct lsk_nd6_entry *e = &t->e[i];

		rte_spinlock_lock(&e->lock);
		if (e->word != 0) {
			n++;
			nd6_unhash_locked(t, e, st);
		}
		rte_spinlock_unlock(&e->lock);
	}
	rte_spinlock_unlock(&t->create_lock);
	return n;
}

uint32_t
lsk_nd6_drop_held(struct lsk_nd6_table *t, struct lsk_stats *st)
{
	uint32_t i, n = 0;

	if (t == NULL)
		return 0;
	for (i = 0; i < t->n; i++) {
		struct lsk_nd6_entry *e = &t->e[i];

		rte_spinlock_lock(&e->lock);
		n += e->n_held;
		lsk_neigh_held_drop(t->sh->neigh, e->held, e->n_held,
				    nd6_drops[ND6_DROP_UNRESOLVED].counter[0]);
		st->nd.UnresolvedDiscards += e->n_held;
		__atomic_store_n(&e->n_held, 0, __ATOMIC_RELAXED);
		rte_spinlock_unlock(&e->lock);
	}
	return n;
}

uint8_t
lsk_nd6_state_of(const struct lsk_nd6_table *t,
		 const struct lsk_ip6_addr *addr, uint16_t iface,
		 struct rte_ether_addr *mac)
{
	struct nd6_key k = nd6_key(addr, iface);
	const struct lsk_nd6_entry *e;
	uint32_t gen;
	uint64_t w;

	e = nd6_lookup(t, &k, &gen);
	if (e == NULL || !nd6_read(e, gen, &w))
		return 0;
	word_mac(w, mac);
	return word_state(w);
}

bool
lsk_nd6_failed(const struct lsk_nd6_table *t, const struct lsk_ip6_addr *addr,
	       uint16_t iface, uint64_t now)
{
	struct nd6_key k = nd6_key(addr, iface);
	const struct lsk_nd6_entry *e;
	uint32_t gen;
	uint64_t w;

	e = nd6_lookup(t, &k, &gen);
	if (e == NULL || !nd6_read(e, gen, &w) ||
	    word_state(w) != LSK_NEIGH_FAILED)
		return false;
	return now < __atomic_load_n(&e->next_probe, __ATOMIC_RELAXED);
}

uint32_t
lsk_nd6_list(const struct lsk_nd6_table *t, struct lsk_nd6_info *out,
	     uint32_t max)
{
	uint32_t i, k = 0, n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

	for (i = 0; i < n && k < max; i++) {
		const struct lsk_nd6_entry *e = &t->e[i];
		uint32_t gen = __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE);
		struct lsk_nd6_info info = {
			.addr = e->addr, .iface = e->iface,
			.router = e->router,
			.n_held = __atomic_load_n(&e->n_held,
						  __ATOMIC_RELAXED) };
		uint64_t w;

		if (!nd6_read(e, gen, &w) || word_state(w) == 0)
			continue;
		info.state = word_state(w);
		if (word_resolved(w))
			word_mac(w, &info.mac);
		out[k++] = info;
	}
	return k;
}
