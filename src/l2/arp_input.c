/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arp_input: answer requests for our addresses on the port they arrive on
 * (any of our addresses, as Linux with arp_ignore=0), and learn what ARP
 * tells about its sender as Linux's arp_process does: a request for us
 * creates or refreshes the sender's entry, a reply to us confirms it, any
 * other ARP (gratuitous included) only updates an entry we already have.
 */
#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/fwd.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/worker.h"
#include "l2/l2.h"

enum arp_verdict {
	ARP_DROP_MALFORMED,	/* arp.InErrors */
	ARP_REPLY_SENT,		/* the mbuf became the reply */
	ARP_CONSUMED,		/* learnt from, freed */
};

static const struct lsk_drop arp_drops[] = {
	[ARP_DROP_MALFORMED] = LSK_DROP1(arp.InErrors),
	/* no mbuf for a request or a reply (arp_output.c): nothing to free */
	LSK_DROP1(arp.OutDiscards),
};

static lsk_trace_fmt_t arp_trace;

LSK_STAGE_DECLARE(lsk_arp_input_stage,
	.name = "arp_input", .id = LSK_STAGE_ARP_INPUT,
	.next = LSK_NEXT("tx"),
	.drops = arp_drops, .n_drops = RTE_DIM(arp_drops),
	.trace = arp_trace);

static bool
arp_well_formed(const struct rte_mbuf *m, const struct rte_arp_hdr *ah)
{
	return m->data_len >= RTE_ETHER_HDR_LEN + sizeof(*ah) &&
	       ah->arp_hardware == RTE_BE16(RTE_ARP_HRD_ETHER) &&
	       ah->arp_protocol == RTE_BE16(RTE_ETHER_TYPE_IPV4) &&
	       ah->arp_hlen == RTE_ETHER_ADDR_LEN && ah->arp_plen == 4 &&
	       (ah->arp_opcode == RTE_BE16(RTE_ARP_OP_REQUEST) ||
		ah->arp_opcode == RTE_BE16(RTE_ARP_OP_REPLY));
}

/* A sender we may learn: on a subnet of the port it came in on. */
static bool
arp_sender_ok(const struct lsk_fwd_table *t, uint32_t sip, uint16_t port)
{
	const struct lsk_ifaddr *a = lsk_fwd_connected(t, sip);

	return sip != 0 && a != NULL && a->port == port && a->addr != sip &&
	       !lsk_fwd_is_broadcast(t, sip);
}

static bool
arp_sender_martian(const struct lsk_worker *w, uint32_t sip)
{
	return (sip != 0 && (sip >> 24) == 0) || (sip >> 24) == 127 ||
	       sip >= 0xe0000000 || lsk_addr_is_ours(w->fwd, sip) ||
	       lsk_fwd_is_broadcast(w->fwd, sip);
}

static enum arp_verdict
arp_process(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_arp_hdr *ah = (struct rte_arp_hdr *)(eh + 1);
	uint32_t sip, tip;
	bool request, for_us, learnable;

	if (!arp_well_formed(m, ah))
		return ARP_DROP_MALFORMED;
	request = ah->arp_opcode == RTE_BE16(RTE_ARP_OP_REQUEST);
	if (request)
		w->stats.arp.InRequests++;
	else
		w->stats.arp.InReplies++;
	sip = rte_be_to_cpu_32(ah->arp_data.arp_sip);
	tip = rte_be_to_cpu_32(ah->arp_data.arp_tip);
	for_us = lsk_addr_is_ours(w->fwd, tip);
	learnable = arp_sender_ok(w->fwd, sip, m->port);

	if (learnable)
		lsk_neigh_learn(w, sip, m->port, &ah->arp_data.arp_sha,
				!request && for_us && !(meta & LSK_META_L2_BCAST),
				request && for_us);
	/* a martian sender gets no answer, as ip_route_input would have
	 * it: our own address, loopback, multicast and above, 0/8 but the
	 * 0.0.0.0 of address probes */
	if (request && for_us && sip != tip && !arp_sender_martian(w, sip)) {
		lsk_arp_send_reply(w, m);
		return ARP_REPLY_SENT;
	}
	return ARP_CONSUMED;
}

/* arp_input's record: each traced packet's operation and addresses (not
 * ended: it ends below, or in tx as our reply). */
static void
arp_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *m = l->pkts[i];
		const struct rte_arp_hdr *ah;
		char s[16], t[16];
		unsigned int op;

		if (!lsk_traced(m))
			continue;
		if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ah)) {
			lsk_trace_rec(w, m, &lsk_arp_input_stage, false, "%u bytes: "
				      "truncated", m->data_len);
			continue;
		}
		ah = rte_pktmbuf_mtod_offset(m, const struct rte_arp_hdr *,
					     RTE_ETHER_HDR_LEN);
		op = rte_be_to_cpu_16(ah->arp_opcode);
		lsk_trace_addr(rte_be_to_cpu_32(ah->arp_data.arp_sip), s, sizeof(s));
		lsk_trace_addr(rte_be_to_cpu_32(ah->arp_data.arp_tip), t, sizeof(t));
		lsk_trace_rec(w, m, &lsk_arp_input_stage, false, "%s %s > %s (hrd %u pro "
			      "0x%04x hln %u pln %u)", op == RTE_ARP_OP_REQUEST ?
			      "request" : op == RTE_ARP_OP_REPLY ? "reply" :
			      "op ?", s, t, rte_be_to_cpu_16(ah->arp_hardware),
			      rte_be_to_cpu_16(ah->arp_protocol), ah->arp_hlen,
			      ah->arp_plen);
	}
}

void
lsk_arp_input(struct lsk_worker *w, struct lsk_list *l)
{
	uint32_t i;

	LSK_STAGE_TRACE(w, &lsk_arp_input_stage, l, NULL);
	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];

		switch (arp_process(w, m, l->meta[i])) {
		case ARP_REPLY_SENT:
			break;
		case ARP_DROP_MALFORMED:
			lsk_drop(w, m, 0, &arp_drops[ARP_DROP_MALFORMED]);
			break;
		default:
			if (lsk_trace_on(w))	/* learnt from, or not */
				lsk_trace_end(w, m);
			rte_pktmbuf_free(m);
			break;
		}
	}
	l->n = 0;
}
