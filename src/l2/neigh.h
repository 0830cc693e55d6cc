/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour table's parts, private to the neighbour files of l2 and
 * of IPv6's neighbour discovery (ip6/nd6_*.c, whose table is built the
 * same way): the entry word (MAC and state, read lock-free), Linux's
 * timers, and what the state machine (neigh_table.c), the collector
 * (neigh_gc.c), the hold queue with its timer (neigh_hold.c) and the
 * trace (neigh_trace.c) ask of each other.
 */
#ifndef LSK_L2_NEIGH_H
#define LSK_L2_NEIGH_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "listack/listack.h"
#include "core/fwd.h"
#include "core/tx.h"
#include "core/worker.h"
#include "l2/l2.h"

struct lsk_worker;
struct lsk_drop;
struct lsk_list;
struct lsk_stage_desc;

/* The hold queue's drop reasons (neigh_table.c): what waited in vain for
 * ARP, and an entry refused for a full table (no packet of its own). */
enum lsk_neigh_drop {
	LSK_NEIGH_DROP_UNRESOLVED,
	LSK_NEIGH_DROP_TABLE_FULL,
	LSK_NEIGH_DROP_COUNT,
};
/* (a pointer: struct lsk_drop is complete in core/drop.h only) */
extern const struct lsk_drop *const lsk_neigh_drops;

#define NEIGH_REACHABLE_S 30
#define NEIGH_RETRANS_MS 1000
#define NEIGH_MAX_PROBES 3
/* a failed entry may be tried again after this */
#define NEIGH_FAILED_RETRY_MS 1000

static inline uint64_t
neigh_word(const struct rte_ether_addr *mac, uint8_t state)
{
	uint64_t w = 0;

	if (mac != NULL)
		memcpy(&w, mac, RTE_ETHER_ADDR_LEN);
	return w | (uint64_t)state << 56;
}

static inline uint8_t
word_state(uint64_t w)
{
	return (uint8_t)(w >> 56);
}

static inline void
word_mac(uint64_t w, struct rte_ether_addr *mac)
{
	memcpy(mac, &w, RTE_ETHER_ADDR_LEN);
}

static inline bool
word_resolved(uint64_t w)
{
	uint8_t state = word_state(w);

	return state == LSK_NEIGH_REACHABLE || state == LSK_NEIGH_STALE ||
	       state == LSK_NEIGH_STATIC;
}

/*
 * The word of addr's entry, lock-free: false when the collector gave the
 * slot to another address meanwhile. The collector writes the address
 * before the new word (release), so a word read here (acquire) with the
 * address still addr is addr's.
 */
static inline bool
neigh_read(const struct lsk_neigh_entry *e, uint32_t addr, uint64_t *word)
{
	*word = __atomic_load_n(&e->word, __ATOMIC_ACQUIRE);
	return __atomic_load_n(&e->addr, __ATOMIC_ACQUIRE) == addr;
}

/* What the collector reads of entry i of a table (either family's). */
struct lsk_neigh_gc_view {
	uint64_t word, confirmed, updated;
	uint8_t n_held;
	bool locked;		/* being made, released or retried */
};
typedef void lsk_neigh_gc_look_t(const void *table, uint32_t i,
				 struct lsk_neigh_gc_view *v);
/* The entry of a full table (cap entries, read by look) that loses least
 * to a new neighbour, under the table's create lock; UINT32_MAX when
 * every entry is static or busy (neigh_gc.c). */
uint32_t lsk_neigh_gc_pick(struct lsk_neigh_gc *gc, uint32_t cap,
			   lsk_neigh_gc_look_t *look, const void *table);

/* Fill the view v of an entry e of either family (their fields have
 * the same names). */
#define LSK_NEIGH_GC_VIEW(e, v) do {					\
	(v)->locked = rte_spinlock_is_locked((rte_spinlock_t *)&(e)->lock); \
	(v)->word = __atomic_load_n(&(e)->word, __ATOMIC_ACQUIRE);	\
	(v)->n_held = __atomic_load_n(&(e)->n_held, __ATOMIC_RELAXED);	\
	(v)->confirmed = (e)->confirmed;				\
	(v)->updated = (e)->updated;					\
} while (0)

/* A table's hash (either family's: key_len bytes of key to a slot),
 * lock-free for readers; NULL with rte_errno set (neigh_table.c). */
struct rte_hash *lsk_neigh_hash_create(const char *name, uint32_t cap,
				       uint32_t key_len, int socket_id);

/* Give m (data at its Ethernet header) its MACs, to mac out of iface,
 * and queue it: inline, as it is on the path of every packet that goes
 * through the table.
 * Ownership: takes m. */
static inline void
lsk_neigh_output(struct lsk_worker *w, uint16_t iface,
		 const struct rte_ether_addr *mac, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	eh->dst_addr = *mac;
	eh->src_addr = w->fwd->ifaces[iface].mac;
	lsk_tx_enqueue(w, iface, m);
}

/* Take what a hold queue holds (its entry's lock held) into out, the
 * queue left empty; returns how many (neigh_hold.c).
 * Ownership: held's mbufs pass to out. */
uint32_t lsk_neigh_held_take(struct rte_mbuf **held, uint8_t *n_held,
			     struct rte_mbuf **out);
/* What was held leaves (no lock held), its bound given back: sent to
 * mac out of iface, or (mac NULL: the neighbour failed) on unreach, for
 * the ICMP error; node: the hold queue's, for the trace.
 * Ownership: takes held's mbufs. */
void lsk_neigh_held_release(struct lsk_worker *w, struct rte_mbuf **held,
			    uint32_t n, uint16_t iface,
			    const struct rte_ether_addr *mac,
			    struct lsk_list *unreach,
			    const struct lsk_stage_desc *node);

/* Take an entry for a new neighbour, under the create lock: returned
 * locked, out of the hash, with no state; NULL when every entry is
 * static or busy (neigh_gc.c). */
struct lsk_neigh_entry *lsk_neigh_evict(struct lsk_neigh_table *t,
					struct lsk_stats *st);

/* The bound on what all entries hold (neigh_hold.c): count m's mbufs as
 * held if it lets them; held packets leave (sent, or about to be freed).
 * Ownership: m stays the caller's; held stay the caller's. */
bool lsk_neigh_hold_take(struct lsk_neigh_table *t, const struct rte_mbuf *m);
void lsk_neigh_hold_give(struct lsk_neigh_table *t,
			 struct rte_mbuf *const *held, uint32_t n);
/* Drop what e held, counted in st; under e's lock.
 * Ownership: takes e's held mbufs. */
void lsk_neigh_drop_held_locked(struct lsk_neigh_table *t,
				struct lsk_neigh_entry *e, struct lsk_stats *st);
/* Drop the n packets an entry of either family held (its lock held),
 * each captured and traced as dropped at the counter `at` (a drop row's
 * counter[0]), none counted: the caller counts n.
 * Ownership: takes held's mbufs. */
void lsk_neigh_held_drop(struct lsk_neigh_table *t, struct rte_mbuf *const *held,
			 uint32_t n, uint16_t at);
/*
 * Put m at the end of a hold queue (held, *n_held; its entry's lock
 * held) if the bound on what all hold lets it, the oldest dropped (for
 * reason r) to make room when the queue is full, as Linux's unres_qlen.
 * Each outcome is traced for a traced m (a: its neighbour's address, by:
 * "ARP" or "ND"). Returns false when m was not held (the bound): m is
 * then the caller's to drop.
 * Ownership: takes m when it returns true; the oldest dropped.
 */
bool lsk_neigh_hold_add(struct lsk_worker *w, struct rte_mbuf **held,
			uint8_t *n_held, struct rte_mbuf *m,
			const struct lsk_drop *r, const char *a,
			const char *by);

/* Ask for e's address, under e->lock; to NULL: broadcast (neigh_table.c). */
void lsk_neigh_send_request(struct lsk_worker *w, struct lsk_neigh_entry *e,
			    struct rte_mempool *pool,
			    const struct rte_ether_addr *to);

/* What the neighbour did with a packet (its trace record, neigh_trace.c):
 * sent as its MAC is known, held for ARP (the oldest held dropped to make
 * room when the entry's queue was full), or dropped (the entry failed,
 * no room in the hold queues, no entry to be had). */
enum lsk_neigh_outcome {
	LSK_NEIGH_SENT,
	LSK_NEIGH_HELD,
	LSK_NEIGH_HELD_FULL,
	LSK_NEIGH_FAILED_DROP,
	LSK_NEIGH_NO_ROOM,
	LSK_NEIGH_NO_ENTRY,
};
/* Record o for m, bound for the address a (as text; by: "ARP" or "ND",
 * what resolves it; word: its entry's, for SENT; n_held: what the entry
 * holds, for HELD); only for a traced m.
 * Ownership: m stays the caller's. */
void lsk_neigh_trace_outcome(struct lsk_worker *w, const struct rte_mbuf *m,
			     const char *a, const char *by,
			     enum lsk_neigh_outcome o, uint64_t word,
			     uint32_t n_held);

#endif /* LSK_L2_NEIGH_H */
