/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_local: datagrams addressed to us (our addresses on any port, subnet
 * and limited broadcasts), split by protocol as ip_protocol_deliver_rcu
 * does. InDelivers counts what a protocol handler took, even when the
 * handler drops it later (a UDP datagram to a closed port).
 *
 * A protocol with no handler goes to the kernel when the interface has a
 * host-if (host/host.h); else it counts InUnknownProtos and is answered
 * with ICMP protocol unreachable.
 *
 * Fragments are reassembled first (ip4_reasm.c).
 */
#include <rte_ip.h>
#include <rte_ip_frag.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/stage.h"
#include "core/list.h"
#include "core/worker.h"
#include "ip4/ip4.h"
#include "host/host.h"

/* ip4_local's drop reasons, reassembly's among them (ip4_reasm.c) */
static const struct lsk_drop local_drops[LSK_LOCAL_DROP_COUNT] = {
	[LSK_LOCAL_DROP_PROTO] = LSK_DROP_ICMP(ip.InUnknownProtos,
			LSK_ICMP_DEST_UNREACH, LSK_ICMP_PROT_UNREACH),
	[LSK_LOCAL_DROP_REASM_FAILS] = LSK_DROP1(ip.ReasmFails),
	/* counted per datagram by the reassembly table, not per drop */
	[LSK_LOCAL_DROP_REASM_TIMEOUT] = LSK_DROP1(ip.ReasmTimeout),
	[LSK_LOCAL_DROP_REASM_OVERLAPS] = LSK_DROP1(ip.ReasmOverlaps),
	[LSK_LOCAL_DROP_REASM_DUPLICATES] = LSK_DROP1(ip.ReasmDuplicates),
};
const struct lsk_drop *const lsk_ip4_local_drops = local_drops;

LSK_STAGE_DECLARE(lsk_ip4_local_stage,
	.name = "ip4_local", .id = LSK_STAGE_IP4_LOCAL,
	.next = LSK_NEXT("udp4_input", "icmp4_input", "icmp", "host"),
	.drops = local_drops, .n_drops = RTE_DIM(local_drops));

void
lsk_ip4_local(struct lsk_worker *w, struct lsk_list *l, struct lsk_list *udp,
	      struct lsk_list *icmp)
{
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
			m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);

		if (unlikely(rte_ipv4_frag_pkt_is_fragmented(ip))) {
			/* InReceives counted every fragment; InDelivers
			 * counts the datagram they make */
			m = lsk_ip4_reassemble(w, m, l->meta[i]);
			if (m == NULL)
				continue;
			ip = rte_pktmbuf_mtod_offset(m,
				const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
		}
		if (likely(ip->next_proto_id == IPPROTO_UDP)) {
			w->stats.ip.InDelivers += lsk_meta_count(l->meta[i]);
			lsk_list_push(udp, m, l->meta[i]);
		} else if (ip->next_proto_id == IPPROTO_ICMP) {
			w->stats.ip.InDelivers++;
			lsk_list_push(icmp, m, l->meta[i]);
		} else if (lsk_host_punt(w, m)) {
			/* TCP, OSPF, ...: the kernel's, through the
			 * interface's host-if (host/host.h) */
			w->stats.ip.InDelivers++;
		} else {
			lsk_ip4_drop(w, m, l->meta[i],
				     &lsk_ip4_local_drops[LSK_LOCAL_DROP_PROTO],
				     0);
		}
	}
	l->n = 0;
}
