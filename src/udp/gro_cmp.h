/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run compare, private to the GRO module (gro_run.h includes it; the
 * run pass udp4_gro_rx.c and both flow tables, udp4_gro.c and udp6_gro.c,
 * use it): the head's bytes a datagram must share to continue its train,
 * read and compared 16 bytes at a time, and the room a train has left.
 * Every function here is inlined into its caller's loop.
 */
#ifndef LSK_UDP_GRO_CMP_H
#define LSK_UDP_GRO_CMP_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_vect.h>

/* the 64 KiB bound (gro_room_bytes) is gro_run.h's */
#include "udp/gro_run.h"
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

#endif /* LSK_UDP_GRO_CMP_H */
