/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Prefetching a received burst, for the first stage that reads it.
 */
#ifndef LSK_CORE_RX_H
#define LSK_CORE_RX_H

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_prefetch.h>

/*
 * The first stage to read a received burst (eth_input, or GRO's run pass
 * before it) finds the frames where the device wrote them (with DDIO, the
 * last level cache): it asks for each frame's first line (read, then
 * written on forwarding) LSK_RX_AHEAD packets ahead, so the burst is not
 * read one miss at a time even when its mbufs lie in no order the CPU's
 * own prefetcher can follow (a NIC refilling from a mempool cache, mbufs
 * reordered by trains on their previous trip). The mbufs themselves are
 * not asked for: rx_burst has just written every one of them (lengths,
 * flags, port), so their first lines are in this core's cache already.
 */
#define LSK_RX_AHEAD 8

static inline void
lsk_rx_prefetch_frame(const struct rte_mbuf *m)
{
	/* where a received frame starts (rte_pktmbuf_reset's data_off):
	 * data_off not read, one load fewer; a frame elsewhere is only
	 * not prefetched */
	__builtin_prefetch((const char *)m->buf_addr + RTE_PKTMBUF_HEADROOM,
			   1, 3);
}

/* Before reading the first packets.
 * Ownership: pkts stay the caller's. */
static inline void
lsk_rx_prefetch_start(struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	if (likely(n >= LSK_RX_AHEAD)) {	/* unrolled, no test */
		for (i = 0; i < LSK_RX_AHEAD; i++)
			lsk_rx_prefetch_frame(pkts[i]);
		return;
	}
	for (i = 0; i < n; i++)
		lsk_rx_prefetch_frame(pkts[i]);
}

/* Before reading packet i.
 * Ownership: pkts stay the caller's. */
static inline void
lsk_rx_prefetch(struct rte_mbuf **pkts, uint16_t i, uint16_t n)
{
	if (likely(i + LSK_RX_AHEAD < n))
		lsk_rx_prefetch_frame(pkts[i + LSK_RX_AHEAD]);
}

#endif /* LSK_CORE_RX_H */
