/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GSO: a list entry that may be a train (udp/gro.h) cut back into the
 * datagrams it stands for, on the way out (gso.c, IPv6's udp6_gso.c) or
 * for a stage that takes datagrams one by one (lsk_dgram_next). udp.h
 * includes it: the UDP layer's users see it as before.
 */
#ifndef LSK_UDP_GSO_H
#define LSK_UDP_GSO_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "core/list.h"
#include "core/worker.h"
#include "udp/gro.h"

struct lsk_worker;
struct lsk_list;

/* Give a train's members the head's headers; returns the first member
 * (chained through the train link), the head left alone.
 * Ownership: head and its members stay the caller's. */
struct rte_mbuf *lsk_gso_unchain(struct rte_mbuf *head);

/*
 * Cut a merged train back into its datagrams (gso.c): each gets the
 * head's headers (as rewritten), its own length, ID and checksums.
 * Returns how many are in out (at most LSK_GRO_SEGS_MAX), the head
 * consumed.
 * Ownership: takes head; returns out's mbufs, the caller's.
 */
unsigned int lsk_gso_resegment(struct lsk_worker *w, struct rte_mbuf *head,
			       uint32_t meta, struct rte_mbuf **out);

/*
 * The datagrams of a list entry one by one, whatever the entry is: a
 * datagram alone (returned as it is), a merged train (cut back by
 * lsk_gso_resegment, the head consumed), or a fraglist train (unchained
 * as it goes, each datagram's train link cleared). Each datagram returned
 * is the caller's. Inline, so a datagram alone costs one test:
 *
 *	for (d = lsk_dgram_first(&it, w, m, meta); d != NULL;
 *	     d = lsk_dgram_next(&it))
 */
struct lsk_dgram_iter {
	struct rte_mbuf *next;	/* fraglist: the member to come */
	unsigned int k, n;	/* merged: segs[k] to segs[n - 1] to come */
	bool merged;
	struct rte_mbuf *segs[LSK_GRO_SEGS_MAX];
};

static inline struct rte_mbuf *
lsk_dgram_next(struct lsk_dgram_iter *it)
{
	struct rte_mbuf *m;

	if (it->merged)
		return it->k < it->n ? it->segs[it->k++] : NULL;
	m = it->next;
	if (m != NULL) {
		it->next = *lsk_train_next(m);
		*lsk_train_next(m) = NULL;
	}
	return m;
}

static inline struct rte_mbuf *
lsk_dgram_first(struct lsk_dgram_iter *it, struct lsk_worker *w,
		struct rte_mbuf *m, uint32_t meta)
{
	it->merged = false;
	it->next = NULL;
	if (likely(!(meta & LSK_META_COUNT_MASK)))
		return m;
	if (meta & LSK_META_MERGED) {
		it->merged = true;
		it->k = 0;
		it->n = lsk_gso_resegment(w, m, meta, it->segs);
	} else {
		it->next = m;
	}
	return lsk_dgram_next(it);
}

/* Datagram k of a merged train in a fresh mbuf, the head left as it is;
 * NULL when there is none, or no mbuf or room for it (gso.c).
 * Ownership: head stays the caller's; returns a new mbuf the caller owns. */
struct rte_mbuf *lsk_gso_rebuild(const struct rte_mbuf *head, unsigned int k);

/*
 * GSO, the one egress of a list entry that may be a train (gso.c): each
 * datagram it stands for out of port, to TX when its Ethernet header is
 * written (next_hop 0), or through ARP to next_hop (lsk_neigh_resolve,
 * l2/l2.h).
 * Ownership: takes m and its members.
 */
void lsk_gso_output(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		    uint16_t port, uint32_t next_hop);

/*
 * Each datagram of the entry m through stage on its own, as a list of
 * one (gso.c): a train over the egress MTU, in ip4_forward and
 * ip6_forward, goes as per-packet forwarding sends it.
 * Ownership: takes m and its members.
 */
void lsk_train_alone(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		     void (*stage)(struct lsk_worker *w, struct lsk_list *l));

/*
 * The same for a train of UDP over IPv6 (udp6_gso.c), forwarded to the
 * neighbour to on iface: each datagram as it came, with the head's hop
 * limit, through lsk_nd6_resolve (ip6/nd6.h) in order.
 * Ownership: takes m and its members.
 */
struct lsk_ip6_addr;
void lsk_gso6_output(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		     const struct lsk_ip6_addr *to, uint16_t iface);

#endif /* LSK_UDP_GSO_H */
