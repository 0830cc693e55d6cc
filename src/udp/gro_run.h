/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What both GRO passes share (udp4_gro.c, the flow table; udp4_gro_rx.c,
 * the run pass), private to the GRO module: the 64 KiB bound, the shape
 * a datagram must have to join a train, and the run compare that joins a
 * datagram equal to its train's head but for IP ID and checksums (IPv4),
 * or the UDP checksum (IPv6, whose flow table is udp6_gro.c).
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
#include <rte_vect.h>

#include "core/list.h"

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

/*
 * A run is compared 16 bytes at a time with the head: per byte 0xff
 * where equal, or-ed with 0xff where the byte may differ, and-ed
 * together; the datagram continues the run when all 16 bytes are 0xff.
 *
 * IPv4's frame, its first 48 bytes: the Ethernet header, IPv4 but for the
 * ID (18-19) and the checksum (24-25), then the ports and UDP length
 * (34-39); the UDP checksum and the payload (40-47) may differ. IPv6's
 * (udp6_gro.c), its first 64: the Ethernet header, the whole IPv6 header
 * (14-53), the ports and UDP length (54-59); the UDP checksum and the
 * payload (60-63) may differ. The head passed its family's shape check,
 * so equal bytes make the datagram pass it too.
 *
 * The mbuf's bytes 16-47: data_off, refcnt, nb_segs, port, ol_flags,
 * packet_type, pkt_len, data_len and vlan_tci must equal the head's (one
 * segment, the same length and port, the checksum flags the PMD set);
 * the RSS hash (44-47) may differ.
 */
#define GRO_MBUF_CMP_OFF 16
/* the frame bytes the run compare reads: a shorter frame takes the
 * general path (a head too, whose bytes are the template) */
#define GRO_RUN_LEN 48
#define GRO_RUN_LEN6 64
/* where the UDP checksum sits in the frame */
#define GRO_RUN_CSUM 40
#define GRO_RUN_CSUM6 60

static_assert(offsetof(struct rte_mbuf, data_off) == GRO_MBUF_CMP_OFF &&
	      offsetof(struct rte_mbuf, ol_flags) == 24 &&
	      offsetof(struct rte_mbuf, pkt_len) == 36 &&
	      offsetof(struct rte_mbuf, data_len) == 40 &&
	      offsetof(struct rte_mbuf, vlan_tci) == 42 &&
	      offsetof(struct rte_mbuf, hash) == 44,
	      "the run compare assumes DPDK 22.11's mbuf layout");

/* The head's bytes a datagram must share to continue its train. */
struct gro_run {
	__m128i h0, h1, h2;	/* the head's frame bytes 0-47 */
	__m128i h3;		/* 48-63, IPv6's only */
	__m128i m0, m1;		/* the head's mbuf bytes 16-47 */
	uint32_t seg_bytes;	/* UDP payload of each datagram */
};

/* The head's bytes as its family's compare reads them (v6: IPv6's). */
static __rte_always_inline void
gro_run_load_af(struct gro_run *r, const struct rte_mbuf *head, const bool v6)
{
	const uint8_t *hp = rte_pktmbuf_mtod(head, const uint8_t *);
	const uint8_t *mp = (const uint8_t *)head + GRO_MBUF_CMP_OFF;

	r->h0 = _mm_loadu_si128((const __m128i *)hp);
	r->h1 = _mm_loadu_si128((const __m128i *)(hp + 16));
	r->h2 = _mm_loadu_si128((const __m128i *)(hp + 32));
	if (v6)
		r->h3 = _mm_loadu_si128((const __m128i *)(hp + 48));
	r->m0 = _mm_loadu_si128((const __m128i *)mp);
	r->m1 = _mm_loadu_si128((const __m128i *)(mp + 16));
}

static inline void
gro_run_load(struct gro_run *r, const struct rte_mbuf *head)
{
	gro_run_load_af(r, head, false);
}

static __rte_always_inline void
gro_run_init_af(struct gro_run *r, const struct rte_mbuf *head,
		uint16_t ulen, const bool v6)
{
	gro_run_load_af(r, head, v6);
	r->seg_bytes = ulen - 8u;
}

static inline void
gro_run_init(struct gro_run *r, const struct rte_mbuf *head, uint16_t ulen)
{
	gro_run_init_af(r, head, ulen, false);
}

/*
 * Does m continue the train: the head's headers but for what its family
 * lets differ (IPv4: IP ID and checksums; IPv6: the UDP checksum), the
 * head's mbuf fields (so the checksum flags the PMD set on the head:
 * GOOD, or NONE, both bits, which also means verified), and a UDP
 * checksum that is not zero? v6 is a constant: each family's compare is
 * its own code.
 */
static __rte_always_inline bool
gro_continues_af(const struct gro_run *r, const struct rte_mbuf *m,
		 const bool v6)
{
	const __m128i any_h1 = _mm_setr_epi8(0, 0, -1, -1, 0, 0, 0, 0,
					     -1, -1, 0, 0, 0, 0, 0, 0);
	const __m128i any_h2 = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0,
					     -1, -1, -1, -1, -1, -1, -1, -1);
	const __m128i any_h3 = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0,
					     0, 0, 0, 0, -1, -1, -1, -1);
	const __m128i any_m1 = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0,
					     0, 0, 0, 0, -1, -1, -1, -1);
	const uint8_t *mp = (const uint8_t *)m + GRO_MBUF_CMP_OFF;
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	__m128i eq;
	uint16_t udp_cksum;

	/* the frame's bytes are read only if it holds them (its first
	 * segment: the compare wants the head's one) */
	if (m->data_len < (v6 ? GRO_RUN_LEN6 : GRO_RUN_LEN))
		return false;
	eq = _mm_and_si128(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)mp), r->m0),
		_mm_or_si128(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(mp + 16)), r->m1),
			any_m1));
	eq = _mm_and_si128(eq, _mm_cmpeq_epi8(
		_mm_loadu_si128((const __m128i *)p), r->h0));
	if (v6) {
		eq = _mm_and_si128(eq, _mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(p + 16)), r->h1));
		eq = _mm_and_si128(eq, _mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(p + 32)), r->h2));
		eq = _mm_and_si128(eq, _mm_or_si128(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(p + 48)), r->h3),
			any_h3));
	} else {
		eq = _mm_and_si128(eq, _mm_or_si128(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(p + 16)), r->h1),
			any_h1));
		eq = _mm_and_si128(eq, _mm_or_si128(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(p + 32)), r->h2),
			any_h2));
	}
	memcpy(&udp_cksum, p + (v6 ? GRO_RUN_CSUM6 : GRO_RUN_CSUM),
	       sizeof(udp_cksum));
	return _mm_movemask_epi8(eq) == 0xffff && udp_cksum != 0;
}

static inline bool
gro_continues(const struct gro_run *r, const struct rte_mbuf *m)
{
	return gro_continues_af(r, m, false);
}

/*
 * How many more datagrams of r->seg_bytes a train of count datagrams
 * holding bytes can take: at most max_segs in all, and each within
 * gro_room_bytes.
 */
static inline uint32_t
gro_room(const struct gro_run *r, uint32_t count, uint32_t bytes,
	 uint32_t max_segs)
{
	uint32_t by_count = count < max_segs ? max_segs - count : 0;
	int32_t left = gro_room_bytes(bytes);
	uint32_t by_bytes;

	if (left < (int32_t)r->seg_bytes)
		return 0;
	/* gro_shape_ok: a train's datagrams carry payload */
	by_bytes = (uint32_t)left / r->seg_bytes;
	return RTE_MIN(by_count, by_bytes);
}

/* The checksum flags of a datagram whose checksums were verified. */
static inline bool
gro_flags_good(const struct rte_mbuf *m)
{
	const uint64_t good = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			      RTE_MBUF_F_RX_L4_CKSUM_GOOD;

	return (m->ol_flags & good) == good;
}

/* Can a train's head be the run compare's template: its checksums
 * verified (its flags say so), and its frame as long as the compare? */
static inline bool
gro_run_head_ok(const struct rte_mbuf *head)
{
	return gro_flags_good(head) && head->data_len >= GRO_RUN_LEN;
}

/* The same for IPv6, which has no IP checksum: its UDP one verified
 * (GOOD, or NONE: both bits, as udp6_gro.c's g6_csum_ok takes them). */
static inline bool
gro_run_head6_ok(const struct rte_mbuf *head)
{
	const uint64_t good = RTE_MBUF_F_RX_L4_CKSUM_GOOD;

	return (head->ol_flags & good) == good &&
	       head->data_len >= GRO_RUN_LEN6;
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
