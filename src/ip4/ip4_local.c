/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_local: datagrams addressed to us (our addresses on any port, subnet
 * and limited broadcasts), split by protocol as ip_protocol_deliver_rcu
 * does. InDelivers counts what a protocol handler took, even when the
 * handler drops it later (a UDP datagram to a closed port).
 *
 * A protocol with no handler counts InUnknownProtos and is answered with
 * ICMP protocol unreachable.
 *
 * Fragments are reassembled first (ip4_frag.c).
 */
#include <rte_ip.h>
#include <rte_ip_frag.h>
#include <rte_mbuf.h>

#include "core/capture.h"
#include "core/drop.h"
#include "core/list.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"

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
		} else {
			w->stats.ip.InUnknownProtos++;
			lsk_capture_drop(w, m, l->meta[i],
					 LSK_DROP_AT(ip.InUnknownProtos));
			lsk_icmp4_error(w, m, l->meta[i],
					LSK_ICMP_DEST_UNREACH,
					LSK_ICMP_PROT_UNREACH, 0);
			lsk_trace_drop(w, m, l->meta[i],
				       LSK_DROP_AT(ip.InUnknownProtos));
			rte_pktmbuf_free(m);
		}
	}
	l->n = 0;
}
