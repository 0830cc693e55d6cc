/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP output: the requests the neighbour table sends (l2/neigh_table.c)
 * and the replies arp_input answers with (l2/arp_input.c), built here and
 * queued through core/tx.h.
 */
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/worker.h"
#include "core/tx.h"
#include "l2/l2.h"

/* Our address on the subnet of addr, the source of requests. */
static uint32_t
arp_source(const struct lsk_fwd_table *t, uint32_t addr)
{
	const struct lsk_ifaddr *a = lsk_fwd_connected(t, addr);

	return a ? a->addr : 0;
}

void
lsk_arp_send_request(struct lsk_worker *w, uint16_t port, uint32_t addr,
		     struct rte_mempool *pool, const struct rte_ether_addr *to)
{
	struct rte_ether_hdr *eh;
	struct rte_arp_hdr *ah;
	struct rte_mbuf *m;

	if (pool == NULL)
		pool = w->sh->send_pool;
	if (pool == NULL || (m = rte_pktmbuf_alloc(pool)) == NULL) {
		w->stats.arp.OutDiscards++;
		return;
	}
	eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	ah = (struct rte_arp_hdr *)(eh + 1);
	if (to != NULL)
		eh->dst_addr = *to;
	else
		memset(&eh->dst_addr, 0xff, RTE_ETHER_ADDR_LEN);
	eh->src_addr = w->fwd->ifaces[port].mac;
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	ah->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	ah->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ah->arp_hlen = RTE_ETHER_ADDR_LEN;
	ah->arp_plen = 4;
	ah->arp_opcode = RTE_BE16(RTE_ARP_OP_REQUEST);
	ah->arp_data.arp_sha = w->fwd->ifaces[port].mac;
	ah->arp_data.arp_sip = rte_cpu_to_be_32(arp_source(w->fwd, addr));
	memset(&ah->arp_data.arp_tha, 0, RTE_ETHER_ADDR_LEN);
	ah->arp_data.arp_tip = rte_cpu_to_be_32(addr);
	m->data_len = m->pkt_len = sizeof(*eh) + sizeof(*ah);
	w->stats.arp.OutRequests++;
	lsk_tx_enqueue(w, port, m);
}

/* Turn the request into our reply, in place. */
static void
arp_make_reply(const struct lsk_fwd_table *t, struct rte_mbuf *m,
	       struct rte_ether_hdr *eh, struct rte_arp_hdr *ah)
{
	const struct rte_ether_addr *ours = &t->ifaces[m->port].mac;
	uint32_t tip = ah->arp_data.arp_tip;

	eh->dst_addr = ah->arp_data.arp_sha;
	eh->src_addr = *ours;
	ah->arp_opcode = RTE_BE16(RTE_ARP_OP_REPLY);
	ah->arp_data.arp_tha = ah->arp_data.arp_sha;
	ah->arp_data.arp_tip = ah->arp_data.arp_sip;
	ah->arp_data.arp_sha = *ours;
	ah->arp_data.arp_sip = tip;
	/* no padding on transmit: exactly the ARP packet */
	m->data_len = m->pkt_len = sizeof(*eh) + sizeof(*ah);
}

void
lsk_arp_send_reply(struct lsk_worker *w, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_arp_hdr *ah = (struct rte_arp_hdr *)(eh + 1);

	arp_make_reply(w->fwd, m, eh, ah);
	w->stats.arp.OutReplies++;
	lsk_tx_enqueue(w, m->port, m);
}
