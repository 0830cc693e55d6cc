/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The packet list every stage reads and writes, its meta word, and
 * trains (a head and the datagrams chained behind it). Nothing here is
 * public.
 */
#ifndef LSK_CORE_LIST_H
#define LSK_CORE_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "listack/listack.h"

/*
 * A list is a bounded vector of mbufs plus one 32-bit word of per-packet
 * metadata kept beside it, so the stages never touch the mbuf's second
 * cache line to carry their decisions forward.
 */
struct lsk_list {
	uint32_t n;
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	uint32_t meta[LSK_BURST_MAX];
};

/*
 * meta: bit 31 is set by eth_input for frames to a broadcast/multicast
 * MAC; bits 24-30 hold a train's member count minus one (udp4_gro); bit
 * 23 marks a train whose payloads were merged into its head (`gro merge`);
 * bits 0-22 the next hop index (ip4_route).
 */
#define LSK_META_L2_BCAST (1u << 31)
#define LSK_META_COUNT_SHIFT 24
#define LSK_META_COUNT_MASK (0x7fu << LSK_META_COUNT_SHIFT)
#define LSK_META_MERGED (1u << 23)
#define LSK_META_NH_MASK 0x007fffffu

/* Datagrams a list entry stands for: 1, or the members of a train. */
static inline uint32_t
lsk_meta_count(uint32_t meta)
{
	return 1 + ((meta & LSK_META_COUNT_MASK) >> LSK_META_COUNT_SHIFT);
}

/* Is the entry a fraglist train (members chained, payloads not merged)? */
static inline bool
lsk_meta_fraglist(uint32_t meta)
{
	return (meta & LSK_META_COUNT_MASK) != 0 && !(meta & LSK_META_MERGED);
}

/*
 * A train is a head mbuf and the member datagrams chained behind it
 * through a registered dynamic field (never through mbuf->next, which
 * means segments of one packet). Only trains have members.
 */
extern int lsk_train_next_offset;

/* Linux's UDP_GRO_CNT_MAX: a train never holds more datagrams */
#define LSK_GRO_SEGS_MAX 64

/* The link from m to the next member of its train (NULL: the last).
 * Ownership: m stays the caller's. */
static inline struct rte_mbuf **
lsk_train_next(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, lsk_train_next_offset, struct rte_mbuf **);
}

int lsk_train_register(void);
/* Free a train's members (not its head), e.g. when the train is dropped.
 * Ownership: takes head's members; head stays the caller's. */
void lsk_train_free_members(struct rte_mbuf *head);
/* Free a list entry: the packet, or the whole train.
 * Ownership: takes m and its members. */
static inline void
lsk_entry_free(struct rte_mbuf *m, uint32_t meta)
{
	if (unlikely(meta & LSK_META_COUNT_MASK))
		lsk_train_free_members(m);
	rte_pktmbuf_free(m);
}

/* Append m to l (room is the caller's to know).
 * Ownership: takes m into l, whose holder owns it. */
static inline void
lsk_list_push(struct lsk_list *l, struct rte_mbuf *m, uint32_t meta)
{
	l->pkts[l->n] = m;
	l->meta[l->n] = meta;
	l->n++;
}

#endif /* LSK_CORE_LIST_H */
