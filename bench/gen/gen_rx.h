/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's receive side: every frame that comes back is the
 * trial's (signature, tag, a flow of the trial: sequence checker and
 * latency), an ARP request for one of the generator's addresses
 * (answered), or foreign (counted). It runs on the sending lcore, between
 * bursts.
 */
#ifndef LSK_BENCH_GEN_RX_H
#define LSK_BENCH_GEN_RX_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "gen_hist.h"
#include "gen_seq.h"

struct gen_rx {
	uint8_t tag;			/* the trial's */
	bool counting;			/* false: between trials, only ARP */
	struct gen_seq seq;
	struct gen_hist hist;		/* TSC cycles */
	uint64_t foreign;		/* no stamp, another trial, bad flow */
	uint64_t stale;			/* of which: another trial's tag */
	uint64_t last_rx_tsc;		/* when a frame last came */
	/* ARP: the generator's addresses (host order) and MACs per port */
	uint32_t gw_addr, gw2_addr;	/* behind the RX port */
	uint32_t sender_net;		/* the senders' /24 (TX port) */
	uint32_t dut_addr0;		/* the DUT's address there: not ours */
	uint16_t tx_port, rx_port;
	struct rte_ether_addr tx_mac, rx_mac;
	struct rte_mempool *pool;	/* for the replies */
	uint64_t arp_answered;
	uint64_t arp_refused;		/* no mbuf, or TX full */
};

/*
 * Account a burst received on port at TSC now; the mbufs are freed.
 * Ownership: the function takes every mbuf of pkts.
 */
void gen_rx_burst(struct gen_rx *rx, uint16_t port, struct rte_mbuf **pkts,
		  uint16_t n, uint64_t now);

#endif /* LSK_BENCH_GEN_RX_H */
