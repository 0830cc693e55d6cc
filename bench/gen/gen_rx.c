/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's receive side (gen_rx.h): classify, check the sequence,
 * take the latency, answer ARP.
 *
 * ARP: the device under test may resolve the gateway behind the RX port
 * (10.0.1.2, and 10.0.1.3) or a sender on the TX port's subnet
 * (10.0.0.2-254); the generator answers with that port's MAC. The DUT
 * configuration the generator prints has a static neighbour for the
 * gateway, so with listack-fwd no ARP is needed at all.
 */
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ethdev.h>

#include "gen_frames.h"
#include "gen_rx.h"

static bool
arp_is_ours(const struct gen_rx *rx, uint16_t port, uint32_t tip,
	    const struct rte_ether_addr **mac)
{
	if (port == rx->rx_port && (tip == rx->gw_addr || tip == rx->gw2_addr)) {
		*mac = &rx->rx_mac;
		return true;
	}
	if (port == rx->tx_port && (tip & 0xffffff00) == rx->sender_net &&
	    tip != rx->dut_addr0 && (tip & 0xff) != 0 && (tip & 0xff) != 255) {
		*mac = &rx->tx_mac;
		return true;
	}
	return false;
}

/* Answer m if it is an ARP request for one of our addresses; true if it
 * was ARP (of any kind: it is not foreign traffic). */
static bool
arp_input(struct gen_rx *rx, uint16_t port, const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)(eh + 1);
	const struct rte_ether_addr *mac;
	struct rte_ether_hdr *reh;
	struct rte_arp_hdr *ra;
	struct rte_mbuf *r;
	uint32_t tip;

	if (eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_ARP))
		return false;
	if (m->data_len < sizeof(*eh) + sizeof(*a) ||
	    a->arp_hardware != RTE_BE16(RTE_ARP_HRD_ETHER) ||
	    a->arp_protocol != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
	    a->arp_hlen != RTE_ETHER_ADDR_LEN || a->arp_plen != 4 ||
	    a->arp_opcode != RTE_BE16(RTE_ARP_OP_REQUEST))
		return true;
	tip = rte_be_to_cpu_32(a->arp_data.arp_tip);
	if (!arp_is_ours(rx, port, tip, &mac))
		return true;
	r = rte_pktmbuf_alloc(rx->pool);
	if (r == NULL) {
		rx->arp_refused++;
		return true;
	}
	/* TX mbufs hold old stamps: the whole minimum frame is written */
	reh = rte_pktmbuf_mtod(r, struct rte_ether_hdr *);
	memset(reh, 0, RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN);
	reh->dst_addr = a->arp_data.arp_sha;
	reh->src_addr = *mac;
	reh->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	ra = (struct rte_arp_hdr *)(reh + 1);
	ra->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	ra->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ra->arp_hlen = RTE_ETHER_ADDR_LEN;
	ra->arp_plen = 4;
	ra->arp_opcode = RTE_BE16(RTE_ARP_OP_REPLY);
	ra->arp_data.arp_sha = *mac;
	ra->arp_data.arp_sip = a->arp_data.arp_tip;
	ra->arp_data.arp_tha = a->arp_data.arp_sha;
	ra->arp_data.arp_tip = a->arp_data.arp_sip;
	r->data_len = r->pkt_len = RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN;
	if (rte_eth_tx_burst(port, 0, &r, 1) == 1) {
		rx->arp_answered++;
	} else {
		rte_pktmbuf_free(r);
		rx->arp_refused++;
	}
	return true;
}

void
gen_rx_burst(struct gen_rx *rx, uint16_t port, struct rte_mbuf **pkts,
	     uint16_t n, uint64_t now)
{
	struct gen_stamp st;
	uint16_t i;

	if (n == 0)
		return;
	rx->last_rx_tsc = now;
	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];

		if (!gen_stamp_read(m, &st) || st.signature != GEN_SIGNATURE) {
			if (!arp_input(rx, port, m) && rx->counting)
				rx->foreign++;
			continue;
		}
		if (!rx->counting)
			continue;
		if (st.tag != rx->tag || st.flow >= rx->seq.flows) {
			rx->foreign++;
			rx->stale += st.tag != rx->tag;
			continue;
		}
		if (gen_seq_add(&rx->seq, st.flow, st.seq) ==
		    GEN_SEQ_DUPLICATE)
			continue;
		/* a stamp from the future is no latency (a clock apart) */
		gen_hist_add(&rx->hist, now >= st.tsc ? now - st.tsc : 0);
	}
	rte_pktmbuf_free_bulk(pkts, n);
}
