/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What two layers do to a datagram in segments: cut it to the length its
 * header says (ip4_input, icmp4, udp4_input) and sum it (udp4_input,
 * ip4_output). In core, so neither layer borrows the other's.
 */
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/cksum.h"

/*
 * Cut the frame to frame_len bytes (drops L2 padding/trailers). Only ever
 * shorter: the length comes from header fields a sender chose, so one at
 * or past the data cuts nothing, and the walk stops at the last segment
 * whatever pkt_len says.
 */
void
lsk_mbuf_trim_to(struct rte_mbuf *m, uint32_t frame_len)
{
	struct rte_mbuf *seg = m;
	uint32_t left = frame_len;

	if (unlikely(frame_len >= m->pkt_len))
		return;
	if (likely(m->nb_segs == 1)) {
		m->data_len = (uint16_t)frame_len;
		m->pkt_len = frame_len;
		return;
	}
	while (left > seg->data_len && seg->next != NULL) {
		left -= seg->data_len;
		seg = seg->next;
	}
	if (left < seg->data_len)
		seg->data_len = (uint16_t)left;
	/* frame_len, or what a chain shorter than its pkt_len holds */
	m->pkt_len = frame_len - left + seg->data_len;
	if (seg->next != NULL) {
		rte_pktmbuf_free(seg->next);
		seg->next = NULL;
		m->nb_segs = 0;
		for (seg = m; seg != NULL; seg = seg->next)
			m->nb_segs++;
	}
}

/*
 * The one's complement sum of len bytes of m from off, across segments
 * (RFC 1071's byte-order independence): a segment that starts at an odd
 * offset of the sum holds its bytes in the other halves of the words, so
 * its folded sum is byte-swapped before it is added. DPDK 22.11's
 * rte_raw_cksum_mbuf swaps the unfolded sum and loses its carry.
 */
int
lsk_mbuf_cksum(const struct rte_mbuf *m, uint32_t off, uint32_t len,
	       uint16_t *cksum)
{
	uint32_t sum = 0, done = 0;

	if (off > m->pkt_len || len > m->pkt_len - off)
		return -1;
	for (; m != NULL && off >= m->data_len; m = m->next)
		off -= m->data_len;
	for (; m != NULL && done < len; m = m->next, off = 0) {
		uint32_t n = RTE_MIN(m->data_len - off, len - done);
		uint16_t s = __rte_raw_cksum_reduce(__rte_raw_cksum(
			rte_pktmbuf_mtod_offset(m, const void *, off), n, 0));

		sum += done & 1 ? rte_bswap16(s) : s;
		done += n;
	}
	if (done < len)
		return -1;	/* the segments hold less than pkt_len says */
	*cksum = __rte_raw_cksum_reduce(sum);
	return 0;
}
