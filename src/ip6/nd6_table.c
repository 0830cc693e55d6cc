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
 * This file is the table and its control side; what workers do with
 * it, resolve a next hop and learn from ND, is nd6_resolve.c.
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
struct lsk_nd6_entry *
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
struct lsk_nd6_entry *
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
