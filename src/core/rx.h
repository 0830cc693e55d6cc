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
 * before it) finds its lines with the core or device that wrote them.
 * It asks for the mbufs LSK_RX_AHEAD packets ahead and for the frames
 * (to be read, then written on forwarding) half as far, so the burst is
 * not read one miss at a time even when its mbufs lie in no order the
 * CPU's own prefetcher can follow (a NIC refilling from a mempool cache,
 * mbufs reordered by trains on their previous trip).
 */
#define LSK_RX_AHEAD 8

/* Before reading the first packets.
 * Ownership: pkts stay the caller's. */
static inline void
lsk_rx_prefetch_start(struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	if (likely(n >= LSK_RX_AHEAD)) {	/* unrolled, no test */
		for (i = 0; i < LSK_RX_AHEAD; i++)
			rte_prefetch0(pkts[i]);
		for (i = 0; i < LSK_RX_AHEAD / 2; i++)
			__builtin_prefetch(rte_pktmbuf_mtod(pkts[i], void *),
					   1, 3);
		return;
	}
	for (i = 0; i < n && i < LSK_RX_AHEAD; i++)
		rte_prefetch0(pkts[i]);
	for (i = 0; i < n && i < LSK_RX_AHEAD / 2; i++)
		__builtin_prefetch(rte_pktmbuf_mtod(pkts[i], void *), 1, 3);
}

/* Before reading packet i.
 * Ownership: pkts stay the caller's. */
static inline void
lsk_rx_prefetch(struct rte_mbuf **pkts, uint16_t i, uint16_t n)
{
	/* one test for both but in the burst's last LSK_RX_AHEAD */
	if (likely(i + LSK_RX_AHEAD < n)) {
		rte_prefetch0(pkts[i + LSK_RX_AHEAD]);
		__builtin_prefetch(rte_pktmbuf_mtod(pkts[i + LSK_RX_AHEAD / 2],
						    void *), 1, 3);
	} else if (i + LSK_RX_AHEAD / 2 < n) {
		__builtin_prefetch(rte_pktmbuf_mtod(pkts[i + LSK_RX_AHEAD / 2],
						    void *), 1, 3);
	}
}

#endif /* LSK_CORE_RX_H */
