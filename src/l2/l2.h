/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Layer 2: eth_input, VLAN sub-interfaces, ARP and the neighbour table.
 */
#ifndef LSK_L2_H
#define LSK_L2_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

struct lsk_worker;
struct lsk_shared;
struct lsk_stats;
struct lsk_list;
struct lsk_fwd_table;

/* Neighbour states, as Linux's NUD_* */
enum lsk_neigh_state {
	LSK_NEIGH_INCOMPLETE = 1,
	LSK_NEIGH_REACHABLE,
	LSK_NEIGH_STALE,
	LSK_NEIGH_FAILED,
	LSK_NEIGH_STATIC,
};

/* packets an unresolved neighbour holds, as Linux's unres_qlen */
#define LSK_NEIGH_HOLD 3
#define LSK_NEIGH_MAX 4096
/* entries one pass of the full table's collector keeps for later */
#define LSK_NEIGH_GC_PICKS 32

struct lsk_neigh_entry {
	uint64_t word;		/* MAC in bytes 0-5, state in bits 56-63 */
	uint32_t addr;		/* host order; changes under both locks */
	uint16_t port;
	uint8_t probes;
	uint8_t n_held;
	uint64_t confirmed;	/* TSC of the last confirmation */
	uint64_t next_probe;	/* TSC */
	uint64_t updated;	/* TSC of creation or the last ARP from it */
	rte_spinlock_t lock;	/* hold queue and probes */
	struct rte_mbuf *held[LSK_NEIGH_HOLD];
};

/* The collector's state (l2/neigh_gc.c), in each family's table (IPv6's
 * in ip6/nd6_priv.h): where it looks first, and the best of its last
 * pass, best first, with their `updated` then. */
struct lsk_neigh_gc {
	uint32_t hand;
	uint32_t n_picks, next_pick;
	uint64_t picks_tsc;
	uint32_t picks[LSK_NEIGH_GC_PICKS];
	uint64_t pick_updated[LSK_NEIGH_GC_PICKS];
};

struct lsk_neigh_table {
	struct rte_hash *hash;	/* address -> entry index */
	rte_spinlock_t create_lock;	/* creation, eviction, static */
	uint32_t n, cap;
	struct lsk_neigh_gc gc;
	uint32_t hold_max;	/* lsk_neigh_set_hold_max; 0: automatic */
	uint32_t held_mbufs;	/* held by all entries; atomic */
	uint64_t next_timer;
	/* the shared state whose capture and trace see what is dropped
	 * from a hold queue off a worker (neigh_hold.c) */
	const struct lsk_shared *sh;
	struct lsk_neigh_entry e[];
};

/* The stages eth_input hands frames to, by ethertype (eth_input.c's
 * table eth_protos): the index of each one's list in lsk_eth_input's
 * next. A protocol is one more entry here and there. */
enum lsk_eth_next {
	LSK_ETH_NEXT_IP4,
	LSK_ETH_NEXT_ARP,
	LSK_ETH_NEXT_IP6,
	LSK_ETH_NEXT_COUNT
};

/* The stages' and nodes' declarations (core/stage.h). */
struct lsk_stage_desc;
extern const struct lsk_stage_desc lsk_eth_input_stage;
extern const struct lsk_stage_desc lsk_arp_input_stage;
extern const struct lsk_stage_desc lsk_neigh_node;


/* What eth_input's formatter reads: the frames it is handed, and each
 * one's train members (NULL: none). */
struct lsk_eth_trace_arg {
	struct rte_mbuf *const *pkts;
	const uint8_t *members;
	uint16_t n;
};

/*
 * Returns how many of pkts it took: it stops at ARP following IPv4.
 * members: NULL, or for each of pkts how many datagrams are chained
 * behind it (lsk_gro_rx_runs); a train is classified, counted and
 * dropped as the datagrams it holds.
 * Ownership: takes the pkts it took; those it keeps pass to the lists of
 * next, the rest stay the caller's.
 */
uint16_t lsk_eth_input(struct lsk_worker *w, struct rte_mbuf **pkts,
		       uint16_t n, const uint8_t *members,
		       struct lsk_list *const next[LSK_ETH_NEXT_COUNT]);

/* The sub-interface for (port, vlan), or -1. */
int lsk_vlan_lookup(const struct lsk_fwd_table *t, uint16_t port,
		    uint16_t vlan);

/* Neighbours (neigh_table.c). */
/* Make the table (sh->neigh) for cap entries; stack_name names its
 * hash. The control thread's, at the stack's creation. */
int lsk_neigh_table_create(struct lsk_shared *sh, const char *stack_name,
			   uint32_t cap);
void lsk_neigh_table_free(struct lsk_neigh_table *t);
struct lsk_neigh_entry *lsk_neigh_lookup(const struct lsk_neigh_table *t,
					 uint32_t addr);
/* Control side, each counting what it drops from a hold queue in st
 * (the control path's counters): make addr's entry static; forget
 * addr's entry, static or learnt (-ENOENT: none), or every entry
 * (returns how many went); drop what every entry holds (returns how
 * many); bound what all hold together (0: automatic). */
int lsk_neigh_set_static(struct lsk_neigh_table *t, uint32_t addr,
			 uint16_t port, const struct rte_ether_addr *mac,
			 struct lsk_stats *st);
int lsk_neigh_forget(struct lsk_neigh_table *t, uint32_t addr,
		     struct lsk_stats *st);
uint32_t lsk_neigh_forget_all(struct lsk_neigh_table *t, struct lsk_stats *st);
uint32_t lsk_neigh_table_drop_held(struct lsk_neigh_table *t,
				   struct lsk_stats *st);
void lsk_neigh_table_set_hold_max(struct lsk_neigh_table *t, uint32_t mbufs);
/* One entry as a view shows it. */
struct lsk_neigh_info {
	uint32_t addr;
	uint16_t port;
	uint8_t state;		/* enum lsk_neigh_state */
	uint8_t n_held;
	struct rte_ether_addr mac;	/* zero until resolved */
};
/* Copy up to max entries into out, in slot order; returns how many. */
uint32_t lsk_neigh_list(const struct lsk_neigh_table *t,
			struct lsk_neigh_info *out, uint32_t max);
/* The state of addr's entry (enum lsk_neigh_state; 0: none) and its MAC,
 * read as workers read it: for the control thread's views. */
uint8_t lsk_neigh_state_of(const struct lsk_neigh_table *t, uint32_t addr,
			   struct rte_ether_addr *mac);
/* addr's entry failed and may not be tried again before now (a TSC):
 * ECMP leaves its path alone meanwhile (ip4/ecmp.h). */
bool lsk_neigh_failed(const struct lsk_neigh_table *t, uint32_t addr,
		      uint64_t now);
/* Send m to addr out of port: now (true), or once ARP answers (false:
 * held, or dropped and counted).
 * Ownership: takes m. */
bool lsk_neigh_resolve(struct lsk_worker *w, uint32_t addr, uint16_t port,
		       struct rte_mbuf *m);
void lsk_neigh_learn(struct lsk_worker *w, uint32_t addr, uint16_t port,
		     const struct rte_ether_addr *mac, bool confirmed,
		     bool create);
/* Retries and failures of unanswered requests (worker 0 runs it): the
 * packets held for a neighbour that never answered go on unreach, for
 * ICMP host unreachable (ip4/icmp4.c), counted UnresolvedDiscards. A pass
 * that fills unreach stops and goes on at the next call.
 * Ownership: the mbufs it puts on unreach are unreach's owner's. */
void lsk_neigh_timer(struct lsk_worker *w, struct lsk_list *unreach);
/* Learn from ARP, answer requests for us; l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_arp_input(struct lsk_worker *w, struct lsk_list *l);

/* ARP output (arp_output.c). Ask for addr on port, from a new mbuf of
 * pool (NULL: the stack's send pool; none to be had: arp.OutDiscards);
 * to NULL: broadcast.
 * Ownership: the request's new mbuf is queued for TX, none returned. */
void lsk_arp_send_request(struct lsk_worker *w, uint16_t port, uint32_t addr,
			  struct rte_mempool *pool,
			  const struct rte_ether_addr *to);
/* Turn the request m, for one of our addresses, into our reply, in
 * place, and send it out of the port it came in on.
 * Ownership: takes m. */
void lsk_arp_send_reply(struct lsk_worker *w, struct rte_mbuf *m);

#endif /* LSK_L2_H */
