/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What both GRO passes share (udp4_gro.c and udp6_gro.c, the flow
 * tables; udp4_gro_rx.c, the run pass), private to the GRO module: the
 * 64 KiB bound, the shape a datagram must have to join a train, and how
 * a flow table takes a train the run pass formed. The run compare, which
 * joins a datagram equal to its train's head but for IP ID and checksums
 * (IPv4) or the UDP checksum (IPv6), is gro_cmp.h.
 */
#ifndef LSK_UDP_GRO_RUN_H
#define LSK_UDP_GRO_RUN_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "core/list.h"
#include "core/worker.h"

#define GRO_HDRS (RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) + \
		  sizeof(struct rte_udp_hdr))
/* Linux's skb_gro_receive_list bound: head + new < 64 KiB */
#define GRO_MAX_BYTES 65536

/*
 * The payload bytes a train holding bytes (as gro counts them: 28 + the
 * payloads) can still take: a datagram of payload p joins only if
 * bytes + 28 + p < GRO_MAX_BYTES, i.e. p <= gro_room_bytes(bytes).
 * The one expression of the bound; negative when not even a byte fits.
 */
static inline int32_t
gro_room_bytes(uint32_t bytes)
{
	return GRO_MAX_BYTES - 29 - (int32_t)bytes;
}

struct gro_view {
	struct rte_ether_hdr *eh;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *uh;
};

static inline void
gro_view(struct rte_mbuf *m, struct gro_view *v)
{
	v->eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	v->ip = (struct rte_ipv4_hdr *)(v->eh + 1);
	v->uh = (struct rte_udp_hdr *)(v->ip + 1);
}

/* Could this packet be in a train at all (its shape, not its checksums)?
 * Not: why (the trace says it, udp4_gro.c). */
enum gro_shape {
	GRO_SHAPE_OK,
	GRO_SHAPE_NOT_UDP,
	GRO_SHAPE_FRAGMENT,
	GRO_SHAPE_OPTIONS,
	GRO_SHAPE_LENGTHS,	/* not one whole datagram with a checksum */
};

static inline enum gro_shape
gro_shape(const struct rte_mbuf *m, const struct gro_view *v)
{
	uint16_t tot;

	if (m->data_len < GRO_HDRS || m->nb_segs != 1)
		return GRO_SHAPE_LENGTHS;
	if (v->ip->next_proto_id != IPPROTO_UDP)
		return GRO_SHAPE_NOT_UDP;
	if ((v->ip->fragment_offset & ~RTE_BE16(RTE_IPV4_HDR_DF_FLAG)) != 0)
		return GRO_SHAPE_FRAGMENT;
	if (v->ip->version_ihl != 0x45)
		return GRO_SHAPE_OPTIONS;
	tot = rte_be_to_cpu_16(v->ip->total_length);
	return tot == m->pkt_len - RTE_ETHER_HDR_LEN &&
	       rte_be_to_cpu_16(v->uh->dgram_len) == tot - 20 &&
	       tot > 28 && v->uh->dgram_cksum != 0 ? GRO_SHAPE_OK :
						      GRO_SHAPE_LENGTHS;
}

static inline bool
gro_shape_ok(const struct rte_mbuf *m, const struct gro_view *v)
{
	return gro_shape(m, v) == GRO_SHAPE_OK;
}

/* The checksum flags of a datagram whose checksums were verified. */
static inline bool
gro_flags_good(const struct rte_mbuf *m)
{
	const uint64_t good = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			      RTE_MBUF_F_RX_L4_CKSUM_GOOD;

	return (m->ol_flags & good) == good;
}

/* A train's tail, *tail; a train the run pass formed has it found
 * (walked to from head, then kept in *tail) only when a datagram joins
 * behind it, which few do. Both families' flow tables. */
static inline struct rte_mbuf *
gro_train_tail(struct rte_mbuf **tail, struct rte_mbuf *head)
{
	struct rte_mbuf *d = *tail;

	if (unlikely(d == NULL)) {
		for (d = head; *lsk_train_next(d) != NULL;
		     d = *lsk_train_next(d))
			;
		*tail = d;
	}
	return d;
}

/* Keep m, of meta, at l's place kept; returns the next place. */
static inline uint32_t
gro_keep(struct lsk_list *l, uint32_t kept, struct rte_mbuf *m,
	 uint32_t meta)
{
	l->pkts[kept] = m;
	l->meta[kept] = meta;
	return kept + 1;
}

/*
 * A train the run pass formed (its meta's count), opened as it is as a
 * flow table's train whose head m has the UDP length ulen: its tail not
 * walked to (gro_train_tail finds it), its count and bytes (*count,
 * *bytes: the table's own fields) its datagrams', each but the head
 * counted as joined, and the train kept at l's place kept. Both
 * families' flow tables; returns the next place.
 */
static inline uint32_t
gro_train_take(struct lsk_worker *w, struct lsk_list *l, uint32_t kept,
	       struct rte_mbuf *m, uint32_t meta, struct rte_mbuf **tail,
	       uint32_t *count, uint32_t *bytes, uint16_t ulen)
{
	uint32_t n = lsk_meta_count(meta);

	*tail = NULL;
	*count = n;
	*bytes += (n - 1) * (ulen - 8u);
	w->stats.gro.Trains++;
	w->stats.gro.Merged += n - 1;
	return gro_keep(l, kept, m, meta);
}

struct lsk_gro_slot;

/* The UDP length of m when it could be in an IPv6 train (udp6_gro.c's
 * shape check), else 0. */
uint16_t lsk_udp6_gro_head_ulen(const struct rte_mbuf *m);

/* `gro merge`: copy the payload of the datagram seen through v behind the
 * head of the train in s (udp4_gro_merge.c); false when it cannot (IDs
 * that do not count up, no room): the caller closes the train.
 * Ownership: the datagram stays the caller's (freed once it joined). */
bool lsk_gro_merge(struct lsk_gro_slot *s, const struct gro_view *v);

/* udp4_gro's trace formatter (udp4_gro_trace.c; core/stage.h). */
void lsk_gro_trace(struct lsk_worker *w, const struct lsk_list *l,
		   const void *arg);

#endif /* LSK_UDP_GRO_RUN_H */
