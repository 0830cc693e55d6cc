/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fragmenting with DPDK's rte_ip_frag: forwarded datagrams larger than
 * the egress MTU with DF clear, and what the stack sends over a smaller
 * MTU, leave as fragments (ip_fragment). Fragments addressed to us are
 * ip4_reasm.c's; forwarded fragments pass as they are.
 */
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_ip_frag.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "ip4/ip4.h"

/* the most pieces a datagram makes: 65515 bytes of data in pieces of
 * 48, what the smallest IP MTU (68) holds */
#define FRAG_MAX_OUT ((UINT16_MAX - 20 + 47) / 48)

/*
 * Fragment m (its TTL already decreased) for nh and send the fragments
 * to `to` (ARP first when nh has no MAC). Takes m.
 */
void
lsk_ip4_fragment(struct lsk_worker *w, struct rte_mbuf *m,
		 const struct lsk_nexthop *nh, uint32_t to)
{
	struct rte_mbuf *out[FRAG_MAX_OUT];
	uint16_t in_port = m->port;
	int32_t n, i;

	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
	n = rte_ipv4_fragment_packet(m, out, FRAG_MAX_OUT, nh->mtu, m->pool,
				     w->sh->indirect_pool);
	rte_pktmbuf_free(m);	/* the fragments hold references */
	if (n < 0) {
		w->stats.ip.FragFails++;
		return;
	}
	w->stats.ip.FragOKs++;
	w->stats.ip.FragCreates += (uint64_t)n;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *f = out[i];
		struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod(f,
			struct rte_ipv4_hdr *);
		struct rte_ether_hdr *eh;

		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		eh = (struct rte_ether_hdr *)rte_pktmbuf_prepend(f,
							sizeof(*eh));
		if (eh == NULL) {
			w->stats.ip.FragFails++;
			rte_pktmbuf_free(f);
			continue;
		}
		memcpy(eh, &nh->dst_mac, 2 * RTE_ETHER_ADDR_LEN);
		eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		f->port = in_port;
		if (nh->resolved)
			lsk_tx_enqueue(w, nh->port, f);
		else
			lsk_neigh_resolve(w, to, nh->port, f);
	}
}

/* The record of m, over mtu with DF clear, sent as fragments by stage
 * (ip4_forward, or ip4_output for what the stack sends): its trace ends. */
void
lsk_ip4_frag_trace(struct lsk_worker *w, const struct rte_mbuf *m,
		   uint16_t mtu, const struct lsk_stage_desc *stage)
{
	const struct rte_ipv4_hdr *ip = lsk_trace_ip4(m);
	uint32_t hlen, data, per, k;

	if (ip == NULL)
		return;
	hlen = (ip->version_ihl & 0xf) * 4u;
	data = rte_be_to_cpu_16(ip->total_length) - hlen;
	per = mtu > hlen ? ((mtu - hlen) & ~7u) : 0;
	k = per != 0 ? (data + per - 1) / per : 0;
	lsk_trace_rec(w, m, stage, true,
		      "%u bytes over mtu %u, DF clear: fragmented into %u",
		      rte_be_to_cpu_16(ip->total_length), mtu, k);
}
