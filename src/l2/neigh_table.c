/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour table, shared by the workers: IPv4 address to MAC, with
 * Linux's states (incomplete, reachable, stale, failed, and static for
 * `neigh add`). Readers take an entry's MAC and state from one 64-bit word
 * without a lock; an rte_hash (lock-free readers) finds the entry. The
 * hold queue of an unresolved entry, entry creation and eviction take
 * locks, all on the slow path only.
 *
 * The table is bounded (LSK_NEIGH_MAX) and collected as Linux's forced
 * neighbour GC does when full: a new neighbour takes the entry that loses
 * least (failed or idle incomplete, then stale, then the oldest of those
 * holding packets or recently confirmed; static never), so no flood of
 * spoofed senders or scan of dead addresses stops a new host from being
 * learnt and asked for. A slot given to another address is rewritten
 * under the create lock and its own lock; readers check the slot's
 * address after reading its word (or under its lock) and look again when
 * it changed. That check also makes a stale answer of the hash harmless
 * (a lookup racing the key's removal and the key slot's reuse may name
 * the wrong entry, or miss, and makers look again under the create
 * lock), so an evicted key is freed at once: no reader that stops for a
 * while can hold up learning, as a grace period would.
 *
 * Timers follow Linux's defaults: a confirmation lasts 30 s (then stale,
 * re-probed on use), requests are retried every second, three unanswered
 * ones fail the entry, and three packets wait for an answer; all entries
 * together hold at most an eighth of the held packet's pool (or
 * lsk_neigh_set_hold_max's bound).
 *
 * Known gaps: a request the PMD refuses is counted only in
 * ports[].tx_dropped; an entry gone idle after a collector pass may wait
 * for that pass's picks (32 evictions, 100 ms) to be taken; the hold
 * bound is one total for every pool; the bound has no config command yet.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "core/drop.h"
#include "core/stage.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "l2/neigh.h"

static const struct lsk_drop neigh_drops[LSK_NEIGH_DROP_COUNT] = {
	[LSK_NEIGH_DROP_UNRESOLVED] = LSK_DROP1(arp.UnresolvedDiscards),
	[LSK_NEIGH_DROP_TABLE_FULL] = LSK_DROP1(arp.TableFulls),
};
const struct lsk_drop *const lsk_neigh_drops = neigh_drops;

/* The hold queue and its timer: what waits for ARP leaves for tx when
 * its neighbour resolves (a node, not a timed stage). */
LSK_STAGE_DECLARE(lsk_neigh_node,
	.name = "neigh", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("tx"),
	.drops = neigh_drops, .n_drops = RTE_DIM(neigh_drops));

struct rte_hash *
lsk_neigh_hash_create(const char *name, uint32_t cap, uint32_t key_len,
		      int socket_id)
{
	struct rte_hash_parameters hp = {
		.name = name, .entries = cap * 2, .key_len = key_len,
		.hash_func = rte_hash_crc, .socket_id = socket_id,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};

	return rte_hash_create(&hp);
}

int
lsk_neigh_table_create(struct lsk_shared *sh, const char *stack_name,
		       uint32_t cap)
{
	struct lsk_neigh_table *t;
	char name[64];

	t = rte_zmalloc_socket("lsk_neigh", sizeof(*t) + cap * sizeof(t->e[0]),
			       RTE_CACHE_LINE_SIZE, sh->socket_id);
	if (t == NULL)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%.20s_neigh", stack_name);
	t->hash = lsk_neigh_hash_create(name, cap, sizeof(uint32_t),
					sh->socket_id);
	if (t->hash == NULL) {
		rte_free(t);
		return -(rte_errno ? rte_errno : ENOMEM);
	}
	rte_spinlock_init(&t->create_lock);
	t->cap = cap;
	t->sh = sh;
	sh->neigh = t;
	return 0;
}

void
lsk_neigh_table_free(struct lsk_neigh_table *t)
{
	uint32_t i, k;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		for (k = 0; k < t->e[i].n_held; k++)
			rte_pktmbuf_free(t->e[i].held[k]);
	rte_hash_free(t->hash);
	rte_free(t);
}


/* The entry the hash gives for addr; its slot may since have gone to
 * another address (neigh_read, or e->addr under e->lock, tells). */
struct lsk_neigh_entry *
lsk_neigh_lookup(const struct lsk_neigh_table *t, uint32_t addr)
{
	void *idx;

	if (rte_hash_lookup_data(t->hash, &addr, &idx) < 0)
		return NULL;
	return (struct lsk_neigh_entry *)&t->e[(uintptr_t)idx];
}

/*
 * Make addr's entry, under the create lock: a new slot while there are
 * any, else one the collector takes. Returned locked (so it is whole, and
 * left alone by the collector, until its maker is done), or the entry
 * addr already has, unlocked; NULL when the table is full of entries that
 * cannot go.
 */
static struct lsk_neigh_entry *
neigh_make_locked(struct lsk_neigh_table *t, uint32_t addr, uint16_t port,
		  bool *created, struct lsk_stats *st)
{
	struct lsk_neigh_entry *e = lsk_neigh_lookup(t, addr);
	bool fresh = t->n < t->cap;

	*created = false;
	if (e != NULL)
		return e;	/* no slot changes address without our lock */
	if (fresh) {
		e = &t->e[t->n];
		rte_spinlock_init(&e->lock);
		rte_spinlock_lock(&e->lock);
	} else {
		e = lsk_neigh_evict(t, st);
		if (e == NULL) {
			st->arp.TableFulls++;
			return NULL;
		}
	}
	e->port = port;
	e->probes = 0;
	e->confirmed = 0;
	e->next_probe = 0;
	e->updated = rte_rdtsc();
	__atomic_store_n(&e->addr, addr, __ATOMIC_RELEASE);
	__atomic_store_n(&e->word, neigh_word(NULL, LSK_NEIGH_INCOMPLETE),
			 __ATOMIC_RELEASE);
	if (rte_hash_add_key_data(t->hash, &addr,
				  (void *)(uintptr_t)(e - t->e)) != 0) {
		/* left failed, out of the hash and of any address: the
		 * collector's next pick */
		__atomic_store_n(&e->addr, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&e->word, neigh_word(NULL, LSK_NEIGH_FAILED),
				 __ATOMIC_RELEASE);
		rte_spinlock_unlock(&e->lock);
		if (fresh)
			__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
		st->arp.TableFulls++;
		return NULL;
	}
	/* the entry is whole before the timer can walk to it */
	if (fresh)
		__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
	*created = true;
	return e;
}

/* Find or make the entry: made ones come locked (*created). */
static struct lsk_neigh_entry *
neigh_get(struct lsk_neigh_table *t, uint32_t addr, uint16_t port,
	  bool *created, struct lsk_stats *st)
{
	struct lsk_neigh_entry *e;

	*created = false;
	e = lsk_neigh_lookup(t, addr);
	if (e != NULL)
		return e;
	rte_spinlock_lock(&t->create_lock);
	e = neigh_make_locked(t, addr, port, created, st);
	rte_spinlock_unlock(&t->create_lock);
	return e;
}

/* Lock addr's entry (found, or made when create); NULL when none. */
static struct lsk_neigh_entry *
neigh_lock(struct lsk_neigh_table *t, uint32_t addr, uint16_t port,
	   bool create, bool *created, struct lsk_stats *st)
{
	struct lsk_neigh_entry *e;

	for (;;) {
		*created = false;
		e = create ? neigh_get(t, addr, port, created, st)
			   : lsk_neigh_lookup(t, addr);
		if (e == NULL || *created)
			return e;
		rte_spinlock_lock(&e->lock);
		if (e->addr == addr)
			return e;
		/* the collector gave it to another address: look again */
		rte_spinlock_unlock(&e->lock);
	}
}

/*
 * Static entries are made under the create lock, so the collector, which
 * never takes them, cannot be choosing this one meanwhile. What it held
 * is dropped: static entries are never resolved, so never release it.
 */
int
lsk_neigh_set_static(struct lsk_neigh_table *t, uint32_t addr, uint16_t port,
		     const struct rte_ether_addr *mac, struct lsk_stats *st)
{
	struct lsk_neigh_entry *e;
	bool created;

	rte_spinlock_lock(&t->create_lock);
	e = neigh_make_locked(t, addr, port, &created, st);
	if (e == NULL) {
		rte_spinlock_unlock(&t->create_lock);
		return -ENOSPC;
	}
	if (!created)
		rte_spinlock_lock(&e->lock);
	e->port = port;
	lsk_neigh_drop_held_locked(t, e, st);
	__atomic_store_n(&e->word, neigh_word(mac, LSK_NEIGH_STATIC),
			 __ATOMIC_RELEASE);
	rte_spinlock_unlock(&e->lock);
	rte_spinlock_unlock(&t->create_lock);
	return 0;
}

/*
 * Take e from its address as the collector does (out of the hash, what
 * it held dropped), under the create lock and e's lock; its slot is then
 * the collector's first pick. The word goes before the address, so a
 * reader that still sees the address sees no MAC.
 */
static void
neigh_forget_locked(struct lsk_neigh_table *t, struct lsk_neigh_entry *e,
		    struct lsk_stats *st)
{
	int32_t pos = rte_hash_del_key(t->hash, &e->addr);

	if (pos >= 0)
		rte_hash_free_key_with_position(t->hash, pos);
	lsk_neigh_drop_held_locked(t, e, st);
	__atomic_store_n(&e->word, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&e->addr, 0, __ATOMIC_RELEASE);
}

int
lsk_neigh_forget(struct lsk_neigh_table *t, uint32_t addr,
		 struct lsk_stats *st)
{
	struct lsk_neigh_entry *e;
	bool created;

	if (addr == 0)
		return -ENOENT;	/* the address of free slots */
	rte_spinlock_lock(&t->create_lock);
	e = neigh_lock(t, addr, 0, false, &created, st);
	if (e == NULL) {
		rte_spinlock_unlock(&t->create_lock);
		return -ENOENT;
	}
	neigh_forget_locked(t, e, st);
	rte_spinlock_unlock(&e->lock);
	rte_spinlock_unlock(&t->create_lock);
	return 0;
}

uint32_t
lsk_neigh_forget_all(struct lsk_neigh_table *t, struct lsk_stats *st)
{
	uint32_t i, n = 0;

	rte_spinlock_lock(&t->create_lock);
	for (i = 0; i < t->n; i++) {
		struct lsk_neigh_entry *e = &t->e[i];

		rte_spinlock_lock(&e->lock);
		if (e->addr != 0 || e->word != 0) {
			n += e->addr != 0;
			neigh_forget_locked(t, e, st);
		}
		rte_spinlock_unlock(&e->lock);
	}
	rte_spinlock_unlock(&t->create_lock);
	return n;
}

uint8_t
lsk_neigh_state_of(const struct lsk_neigh_table *t, uint32_t addr,
		   struct rte_ether_addr *mac)
{
	const struct lsk_neigh_entry *e = lsk_neigh_lookup(t, addr);
	uint64_t w;

	if (e == NULL || !neigh_read(e, addr, &w))
		return 0;	/* none, or its slot went to another */
	word_mac(w, mac);
	return word_state(w);
}

bool
lsk_neigh_failed(const struct lsk_neigh_table *t, uint32_t addr,
		 uint64_t now)
{
	const struct lsk_neigh_entry *e = lsk_neigh_lookup(t, addr);
	uint64_t w;

	if (e == NULL || !neigh_read(e, addr, &w) ||
	    word_state(w) != LSK_NEIGH_FAILED)
		return false;
	return now < __atomic_load_n(&e->next_probe, __ATOMIC_RELAXED);
}

uint32_t
lsk_neigh_list(const struct lsk_neigh_table *t, struct lsk_neigh_info *out,
	       uint32_t max)
{
	uint32_t i, k = 0, n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

	for (i = 0; i < n && k < max; i++) {
		const struct lsk_neigh_entry *e = &t->e[i];
		uint32_t addr = __atomic_load_n(&e->addr, __ATOMIC_ACQUIRE);
		uint64_t w;

		if (addr == 0 || !neigh_read(e, addr, &w) || word_state(w) == 0)
			continue;
		out[k] = (struct lsk_neigh_info){
			.addr = addr, .port = e->port, .state = word_state(w),
			.n_held = __atomic_load_n(&e->n_held,
						  __ATOMIC_RELAXED) };
		if (word_resolved(w))
			word_mac(w, &out[k].mac);
		k++;
	}
	return k;
}

/* Ask for e's address, under e->lock; to NULL: broadcast. */
void
lsk_neigh_send_request(struct lsk_worker *w, struct lsk_neigh_entry *e,
		   struct rte_mempool *pool, const struct rte_ether_addr *to)
{
	lsk_arp_send_request(w, e->port, e->addr, pool, to);
}

/* A stale entry in use is asked for again, at most once a second. */
static void
neigh_probe_stale(struct lsk_worker *w, struct lsk_neigh_entry *e,
		  uint32_t addr, struct rte_mempool *pool, uint64_t now)
{
	const uint64_t hz = rte_get_tsc_hz();
	struct rte_ether_addr mac;

	rte_spinlock_lock(&e->lock);
	if (e->addr == addr && word_state(e->word) == LSK_NEIGH_STALE &&
	    now >= e->next_probe) {
		e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
		word_mac(e->word, &mac);
		lsk_neigh_send_request(w, e, pool, &mac);
	}
	rte_spinlock_unlock(&e->lock);
}

/* The fast path: addr's MAC is known (word, read lock-free). */
static void
neigh_send_resolved(struct lsk_worker *w, struct lsk_neigh_entry *e,
		    uint32_t addr, uint16_t port, uint64_t word,
		    struct rte_mbuf *m)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	struct rte_ether_addr mac;
	uint8_t state = word_state(word);

	word_mac(word, &mac);
	if (state == LSK_NEIGH_REACHABLE &&
	    now - e->confirmed > NEIGH_REACHABLE_S * hz) {
		/* unconfirmed too long: use it, ask again. Only the word
		 * read becomes stale: a slot the collector reused since
		 * keeps its new word. */
		if (__atomic_compare_exchange_n(&e->word, &word,
				neigh_word(&mac, LSK_NEIGH_STALE), false,
				__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			state = LSK_NEIGH_STALE;
	}
	if (state == LSK_NEIGH_STALE && now >= e->next_probe)
		neigh_probe_stale(w, e, addr, m->pool, now);
	lsk_neigh_output(w, port, &mac, m);
}

/* m's trace record at the neighbour, when m is traced (neigh_trace.c). */
static inline void
neigh_trace(struct lsk_worker *w, const struct rte_mbuf *m, uint32_t addr,
	    enum lsk_neigh_outcome o, uint64_t word, uint32_t n_held)
{
	char a[16];

	if (lsk_trace_on(w) && lsk_traced(m)) {
		lsk_trace_addr(addr, a, sizeof(a));
		lsk_neigh_trace_outcome(w, m, a, "ARP", o, word, n_held);
	}
}

static void
neigh_discard(struct lsk_worker *w, struct rte_mbuf *m)
{
	lsk_drop(w, m, 0, &lsk_neigh_drops[LSK_NEIGH_DROP_UNRESOLVED]);
}

/*
 * Hold m until e resolves; under e->lock, which it releases. The request
 * goes even when the bound on what all entries hold drops m: resolution
 * never waits for room.
 */
static void
neigh_hold(struct lsk_worker *w, struct lsk_neigh_entry *e, uint16_t port,
	   bool created, struct rte_mbuf *m)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	uint8_t state = word_state(e->word);
	char a[16] = "";
	bool held;

	if (state == LSK_NEIGH_FAILED && now < e->next_probe) {
		neigh_trace(w, m, e->addr, LSK_NEIGH_FAILED_DROP, 0, 0);
		rte_spinlock_unlock(&e->lock);
		neigh_discard(w, m);
		return;
	}
	if (state == LSK_NEIGH_FAILED || created) {
		e->port = port;
		e->updated = now;
		e->probes = 1;
		e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
		__atomic_store_n(&e->word, neigh_word(NULL,
			LSK_NEIGH_INCOMPLETE), __ATOMIC_RELEASE);
		lsk_neigh_send_request(w, e, m->pool, NULL);
	}
	if (lsk_trace_on(w) && lsk_traced(m))
		lsk_trace_addr(e->addr, a, sizeof(a));
	held = lsk_neigh_hold_add(w, e->held, &e->n_held, m,
				  &lsk_neigh_drops[LSK_NEIGH_DROP_UNRESOLVED],
				  a, "ARP");
	rte_spinlock_unlock(&e->lock);
	if (!held)
		neigh_discard(w, m);
}

bool
lsk_neigh_resolve(struct lsk_worker *w, uint32_t addr, uint16_t port,
		  struct rte_mbuf *m)
{
	struct lsk_neigh_table *t = w->sh->neigh;
	struct lsk_neigh_entry *e;
	bool created;
	uint64_t word;

	for (;;) {
		e = neigh_get(t, addr, port, &created, &w->stats);
		if (e == NULL) {
			neigh_trace(w, m, addr, LSK_NEIGH_NO_ENTRY, 0, 0);
			neigh_discard(w, m);
			return false;
		}
		if (!created && neigh_read(e, addr, &word) &&
		    word_resolved(word)) {
			neigh_trace(w, m, addr, LSK_NEIGH_SENT, word, 0);
			neigh_send_resolved(w, e, addr, port, word, m);
			return true;
		}
		if (!created) {
			rte_spinlock_lock(&e->lock);
			/* another address's now, or resolved meanwhile */
			if (e->addr != addr || word_resolved(e->word)) {
				rte_spinlock_unlock(&e->lock);
				continue;
			}
		}
		neigh_hold(w, e, port, created, m);
		return false;
	}
}

/*
 * What an ARP packet says about its sender: update an entry we have (a
 * reply to us confirms it; anything else makes it stale), or make one
 * when asked for our address. Held packets leave once the MAC is known.
 */
void
lsk_neigh_learn(struct lsk_worker *w, uint32_t addr, uint16_t port,
		const struct rte_ether_addr *mac, bool confirmed, bool create)
{
	struct lsk_neigh_table *t = w->sh->neigh;
	struct rte_mbuf *held[LSK_NEIGH_HOLD];
	struct lsk_neigh_entry *e;
	uint32_t n_held;
	uint64_t word;
	bool created;

	e = lsk_neigh_lookup(t, addr);
	if (e != NULL && neigh_read(e, addr, &word) &&
	    word_state(word) == LSK_NEIGH_STATIC)
		return;
	e = neigh_lock(t, addr, port, create, &created, &w->stats);
	if (e == NULL)
		return;
	if (word_state(e->word) == LSK_NEIGH_STATIC) {
		rte_spinlock_unlock(&e->lock);
		return;
	}
	e->port = port;
	e->updated = rte_rdtsc();
	if (confirmed || create)
		e->confirmed = e->updated;
	e->next_probe = 0;
	__atomic_store_n(&e->word, neigh_word(mac, confirmed || create ?
		LSK_NEIGH_REACHABLE : LSK_NEIGH_STALE), __ATOMIC_RELEASE);
	w->stats.arp.Updates++;
	n_held = lsk_neigh_held_take(e->held, &e->n_held, held);
	rte_spinlock_unlock(&e->lock);
	lsk_neigh_held_release(w, held, n_held, port, mac, NULL,
			       &lsk_neigh_node);
}
