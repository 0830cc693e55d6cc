/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Neighbour discovery's parts, private to ip6/nd6_*.c: the table (built
 * as IPv4's, l2/neigh.h: the same entry word, timers, collector and hold
 * bound), the state of our addresses (DAD), the router advertisements'
 * schedule, and what the files ask of each other.
 */
#ifndef LSK_IP6_ND6_PRIV_H
#define LSK_IP6_ND6_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_hash.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "listack/listack.h"
#include "core/drop.h"
#include "core/fwd6.h"
#include "l2/l2.h"
#include "ip6/nd6.h"

struct lsk_worker;
struct lsk_drop;

/* The hash key: a link-local address is only meaningful with its link. */
struct nd6_key {
	struct lsk_ip6_addr addr;
	uint16_t iface;
	uint16_t zero;
};

struct lsk_nd6_entry {
	uint64_t word;		/* l2/neigh.h's: MAC and state */
	/* new each time the slot goes to another neighbour (both locks);
	 * the hash's data names it beside the slot, so a reader that finds
	 * it unchanged after reading the word read this neighbour's */
	uint32_t gen;
	uint16_t iface;
	uint8_t probes;
	uint8_t n_held;
	struct lsk_ip6_addr addr;
	uint8_t router;		/* its last NA set the router flag */
	uint64_t confirmed;	/* TSC of the last confirmation */
	uint64_t next_probe;	/* TSC */
	uint64_t updated;	/* TSC of creation or the last ND from it */
	rte_spinlock_t lock;	/* hold queue and probes */
	struct rte_mbuf *held[LSK_NEIGH_HOLD];
};

/* DAD's state of one of our addresses (nd6_dad.c). state and key are
 * worker 0's to write, any worker's to read (atomics). */
struct nd6_addr {
	uint32_t seq;		/* odd while the key is rewritten */
	uint16_t iface;
	uint8_t state;		/* enum lsk_nd6_addr_state; 0: free slot */
	uint8_t seen;		/* worker 0's: in the table at this pass */
	struct lsk_ip6_addr addr;
	uint64_t due;		/* TSC: the probe's answer time is up */
};

/* The router advertisements' schedule of one interface (nd6_ra.c). */
struct nd6_ra_iface {
	uint64_t next;		/* TSC; 0: not started */
	uint64_t last;		/* TSC of the last sent */
	uint8_t initial;	/* of the first three sent */
};

struct lsk_nd6_table {
	struct rte_hash *hash;	/* struct nd6_key -> gen << 32 | slot */
	rte_spinlock_t create_lock;	/* creation, eviction, static */
	uint32_t n, cap;
	struct lsk_neigh_gc gc;	/* l2/neigh_gc.c's collector */
	uint64_t next_timer;
	const struct lsk_shared *sh;
	/* our addresses' DAD (worker 0 writes) */
	uint32_t n_addrs;
	struct nd6_addr addrs[LSK_FWD6_ADDRS_MAX];
	const struct lsk_fwd6_table *dad_fwd6;	/* the table last walked */
	uint32_t dad_gen;
	/* router advertisements */
	struct nd6_ra_iface ra[LSK_MAX_IFACES];
	uint64_t ra_now;	/* bit i: advertise on iface i at once */
	struct lsk_nd6_entry e[];
};

/* The node's drop reasons (nd6_input.c's table): what waited in vain,
 * an entry refused for a full table, and the malformed messages of RFC
 * 4861's checks (icmp6.InErrors), each named. */
enum nd6_drop {
	ND6_DROP_UNRESOLVED,
	ND6_DROP_TABLE_FULL,
	ND6_DROP_HOP_LIMIT,	/* not 255: not from the link */
	ND6_DROP_CODE,
	ND6_DROP_SHORT,		/* shorter than its type's fixed part */
	ND6_DROP_TARGET,	/* a multicast target */
	ND6_DROP_OPTIONS,	/* an option of length 0 or past the end */
	ND6_DROP_DAD_FORM,	/* from :: with a link-layer option, or not
				 * to a solicited-node group */
	ND6_DROP_SOLICITED_MCAST,	/* a solicited NA to a group */
	ND6_DROP_RA_SOURCE,	/* an RA or redirect not from a link-local */
	ND6_DROP_NOT_ICMP6,	/* behind extension headers */
	ND6_DROP_COUNT,
};
extern const struct lsk_drop nd6_drops[ND6_DROP_COUNT];

/* Solicited-node group of addr (ff02::1:ffXX:XXXX) and its MAC. */
void nd6_solicited_node(const struct lsk_ip6_addr *addr,
			struct lsk_ip6_addr *group,
			struct rte_ether_addr *mac);

/* Learn from ND (nd6_resolve.c): an NS's source link-layer option
 * (stale, created), an NA (RFC 4861 7.2.5's rules). */
void nd6_learn_ns(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
		  uint16_t iface, const struct rte_ether_addr *mac);
void nd6_learn_na(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
		  uint16_t iface, const struct rte_ether_addr *mac,
		  bool solicited, bool override, bool router);

/* Output (nd6_output.c); each from a new mbuf of pool (NULL: the stack's
 * send pool; none: nd.OutDiscards), queued for TX. */
/* NS for target: to its solicited-node group (to NULL), or unicast to
 * the MAC to; from our address on iface (core/fwd6.h's source) with our
 * link-layer option. */
void nd6_send_ns(struct lsk_worker *w, uint16_t iface,
		 const struct lsk_ip6_addr *target,
		 const struct rte_ether_addr *to, struct rte_mempool *pool);
/* DAD's probe for our tentative target: from the unspecified address,
 * without the option (RFC 4862 5.4.2). */
void nd6_send_dad(struct lsk_worker *w, uint16_t iface,
		  const struct lsk_ip6_addr *target);
/* NA for our target to dst (ff02::1 for a DAD probe) at mac. */
void nd6_send_na(struct lsk_worker *w, uint16_t iface,
		 const struct lsk_ip6_addr *target,
		 const struct lsk_ip6_addr *dst,
		 const struct rte_ether_addr *mac, bool solicited,
		 struct rte_mempool *pool);
/* RA out of iface to all nodes; final: the last one, router lifetime 0
 * (RFC 4861 6.2.5), when advertising stops. */
void nd6_send_ra(struct lsk_worker *w, uint16_t iface, bool final,
		 struct rte_mempool *pool);

/* DAD (nd6_dad.c): a NA or a DAD probe of another node for addr on
 * iface; the timer's pass. */
bool nd6_dad_conflict(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
		      uint16_t iface);
bool nd6_addr_tentative(const struct lsk_nd6_table *t,
			const struct lsk_ip6_addr *addr, uint16_t iface);
void nd6_dad_timer(struct lsk_worker *w, uint64_t now);

/* RA (nd6_ra.c): an RS on iface asks for one; the timer's pass. */
void nd6_ra_solicited(struct lsk_worker *w, uint16_t iface);
void nd6_ra_timer(struct lsk_worker *w, uint64_t now);

/* The neighbour's address as trace text. */
void nd6_addr_text(const struct lsk_ip6_addr *a, char *buf, size_t len);

/* The table's lookups, lock-free, for nd6_table.c and nd6_resolve.c. */
static inline struct nd6_key
nd6_key(const struct lsk_ip6_addr *addr, uint16_t iface)
{
	struct nd6_key k = { .addr = *addr, .iface = iface };

	return k;
}

/* The entry the hash gives for k and its generation then. */
static inline struct lsk_nd6_entry *
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

/*
 * Make k's entry under the create lock: returned locked, or the entry k
 * has already, unlocked (*gen its generation); NULL when the table is
 * full (nd6_table.c). nd6_lock: k's entry locked (found, or made when
 * create); NULL when none.
 */
struct lsk_nd6_entry *nd6_make_locked(struct lsk_nd6_table *t,
				      const struct nd6_key *k, uint32_t *gen,
				      bool *created, struct lsk_stats *st);
struct lsk_nd6_entry *nd6_lock(struct lsk_nd6_table *t,
			       const struct nd6_key *k, bool create,
			       bool *created, struct lsk_stats *st);

#endif /* LSK_IP6_ND6_PRIV_H */
