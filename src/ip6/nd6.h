/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Neighbour discovery (RFC 4861) and duplicate address detection (RFC
 * 4862) for IPv6: the neighbour table (a bounded, evicting table with
 * hold queues, as ARP's in l2/l2.h, under the same limits: its held
 * packets count against the one bound of what all hold), the messages
 * (NS, NA with the router flag, RS answered and RA sent where `port N ra
 * on`), and the state of our addresses. The table lives in sh->nd6:
 * workers learn and resolve, the control thread sets static entries and
 * reads it for its views.
 */
#ifndef LSK_IP6_ND6_H
#define LSK_IP6_ND6_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "listack/listack.h"

struct lsk_worker;
struct lsk_shared;
struct lsk_stats;
struct lsk_list;
struct lsk_nd6_table;

/* ND's ICMPv6 types (RFC 4861 4) */
#define LSK_ND_ROUTER_SOLICIT 133
#define LSK_ND_ROUTER_ADVERT 134
#define LSK_ND_NEIGHBOR_SOLICIT 135
#define LSK_ND_NEIGHBOR_ADVERT 136
#define LSK_ND_REDIRECT 137

/* Neighbour discovery's node: its drop reasons (core/stage.h). */
struct lsk_stage_desc;
extern const struct lsk_stage_desc lsk_nd6_node;

/* Make the table (sh->nd6) for cap entries; stack_name names its hash.
 * The control thread's, at the stack's creation. */
int lsk_nd6_table_create(struct lsk_shared *sh, const char *stack_name,
			 uint32_t cap);
void lsk_nd6_table_free(struct lsk_nd6_table *t);

/*
 * ND's messages to us (types 133-137, from icmp6_input: the IPv6 header
 * and ICMPv6 checksum checked, data at the IPv6 header): each checked
 * as RFC 4861 says (hop limit 255, lengths, options) and learnt from,
 * solicitations for our addresses answered, DAD's conflicts noted; l
 * is left empty.
 * Ownership: takes l's mbufs.
 */
void lsk_nd6_input(struct lsk_worker *w, struct lsk_list *l);

/*
 * Send m (data at its Ethernet header, room made and its type set: the
 * MACs are ND's to write) to the neighbour addr on iface: now (true), or
 * once it answers (false: held, or dropped and counted).
 * Ownership: takes m.
 */
bool lsk_nd6_resolve(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
		     uint16_t iface, struct rte_mbuf *m);
/* The same; sent now, the MAC it went to in *mac (mac may be NULL), so
 * that what follows m to the same neighbour (a train's datagrams,
 * udp/udp6_gso.c) need not look it up again. */
struct rte_ether_addr;
bool lsk_nd6_resolve_mac(struct lsk_worker *w,
			 const struct lsk_ip6_addr *addr, uint16_t iface,
			 struct rte_mbuf *m, struct rte_ether_addr *mac);

/*
 * Worker 0's timer (worker/worker.c calls it with ARP's, at a flush past
 * the earlier of their deadlines): solicitations retried, entries failed
 * (what they held goes on unreach: ICMPv6 address unreachable, counted
 * nd.UnresolvedDiscards), DAD's probes for new addresses and its verdict,
 * router advertisements due. Returns when (TSC) it is due next;
 * UINT64_MAX without a table.
 * Ownership: the mbufs it puts on unreach are unreach's owner's.
 */
uint64_t lsk_nd6_timer(struct lsk_worker *w, struct lsk_list *unreach);

/* Our address addr may be used (DAD passed; a tentative or duplicate
 * address receives nothing but ND's): a link-local one on iface, a
 * global one on any. Any worker. */
bool lsk_nd6_addr_usable(const struct lsk_nd6_table *t,
			 const struct lsk_ip6_addr *addr, uint16_t iface);

/* Send iface's router advertisement at worker 0's next timer, whatever
 * its schedule (`port N ra on`'s first, and the tests). */
void lsk_nd6_ra_now(struct lsk_nd6_table *t, uint16_t iface);

/* The state of one of our addresses (views: `show addresses`). */
enum lsk_nd6_addr_state {
	LSK_ND6_ADDR_TENTATIVE = 1,	/* DAD in progress */
	LSK_ND6_ADDR_PREFERRED,		/* in use */
	LSK_ND6_ADDR_DUPLICATE,		/* another node has it: not used */
};
int lsk_nd6_addr_state(const struct lsk_nd6_table *t,
		       const struct lsk_ip6_addr *addr, uint16_t iface);

/* The control side (the views, `neigh add|del|flush`), each counting
 * what it drops from a hold queue in st: states as l2/l2.h's enum
 * lsk_neigh_state. */
int lsk_nd6_set_static(struct lsk_nd6_table *t,
		       const struct lsk_ip6_addr *addr, uint16_t iface,
		       const struct rte_ether_addr *mac, struct lsk_stats *st);
/* -ENOENT: none. */
int lsk_nd6_forget(struct lsk_nd6_table *t, const struct lsk_ip6_addr *addr,
		   uint16_t iface, struct lsk_stats *st);
uint32_t lsk_nd6_forget_all(struct lsk_nd6_table *t, struct lsk_stats *st);
/* Drop what every entry holds for resolution, counted
 * nd.UnresolvedDiscards in st (the entries stay); for shutdown, once the
 * workers stopped (lsk_neigh_drop_held). Returns how many. */
uint32_t lsk_nd6_drop_held(struct lsk_nd6_table *t, struct lsk_stats *st);

struct lsk_nd6_info {
	struct lsk_ip6_addr addr;
	uint16_t iface;
	uint8_t state;		/* enum lsk_neigh_state */
	uint8_t n_held;
	uint8_t router;		/* its NAs set the router flag */
	struct rte_ether_addr mac;	/* zero until resolved */
};
/* addr's entry on iface failed and may not be tried again before now
 * (a TSC): ECMP skips a member whose neighbour failed (ip6/ecmp6.h), as
 * IPv4's lsk_neigh_failed. */
bool lsk_nd6_failed(const struct lsk_nd6_table *t,
		    const struct lsk_ip6_addr *addr, uint16_t iface,
		    uint64_t now);
/* Copy up to max entries into out; returns how many. */
uint32_t lsk_nd6_list(const struct lsk_nd6_table *t, struct lsk_nd6_info *out,
		      uint32_t max);
/* The state of addr's entry on iface (0: none) and its MAC. */
uint8_t lsk_nd6_state_of(const struct lsk_nd6_table *t,
			 const struct lsk_ip6_addr *addr, uint16_t iface,
			 struct rte_ether_addr *mac);

#endif /* LSK_IP6_ND6_H */
