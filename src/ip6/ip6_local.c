/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_local: datagrams addressed to us (our addresses, the groups we
 * joined), their extension headers acted on as a destination does (RFC
 * 8200 4: destination options, routing headers with segments left
 * refused), fragments reassembled (lsk_ip6_reassemble), then split by
 * upper layer as ip6_input_finish does: UDP to udp6_input, ICMPv6 to
 * icmp6_input. InDelivers counts what a handler took; No Next Header
 * (59) is taken and ends there, as Linux's; any other upper layer (TCP,
 * OSPFv3, ...) is the kernel's when the interface has a host-if
 * (host/host.h: punted as the frame it came in, InDelivers), else it is
 * answered with parameter problem code 1 (InUnknownProtos).
 *
 * What it hands on is the frame (data at its Ethernet header), the meta
 * word's LSK_META_NH_MASK bits the upper-layer header's offset from the
 * IPv6 header (ip6/ip6.h).
 */
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/stage.h"
#include "core/list.h"
#include "core/fwd.h"
#include "core/fwd6.h"
#include "core/trace.h"
#include "core/worker.h"
#include "host/host.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"

enum local6_verdict {
	LOCAL6_DROP_PROTO,	/* InUnknownProtos, parameter problem 1 */
	LOCAL6_DROP_HDR,	/* InHdrErrors: a chain past the bound */
	LOCAL6_DROP_OPTION,	/* InHdrErrors: an option says discard */
	LOCAL6_DROP_PARAM_HDR,	/* InHdrErrors, parameter problem 0 */
	LOCAL6_DROP_PARAM_OPTION,	/* InHdrErrors, parameter problem 2 */
	LOCAL6_NO_NEXT,		/* InDelivers: No Next Header, taken */
	LOCAL6_DROP_REASM,	/* the reassembled datagram had no room */
};

static const struct lsk_drop local6_drops[] = {
	[LOCAL6_DROP_PROTO] = LSK_DROP_ICMP(ip6.InUnknownProtos,
			LSK_ICMP6_PARAM_PROB, LSK_ICMP6_UNK_NEXTHDR),
	[LOCAL6_DROP_HDR] = LSK_DROP1(ip6.InHdrErrors),
	[LOCAL6_DROP_OPTION] = LSK_DROP1(ip6.InHdrErrors),
	[LOCAL6_DROP_PARAM_HDR] = LSK_DROP_ICMP(ip6.InHdrErrors,
			LSK_ICMP6_PARAM_PROB, LSK_ICMP6_HDR_FIELD),
	[LOCAL6_DROP_PARAM_OPTION] = LSK_DROP_ICMP(ip6.InHdrErrors,
			LSK_ICMP6_PARAM_PROB, LSK_ICMP6_UNK_OPTION),
	[LOCAL6_NO_NEXT] = LSK_DROP1(ip6.InDelivers),
	[LOCAL6_DROP_REASM] = LSK_DROP1(ip6.ReasmFails),
};

LSK_STAGE_DECLARE(lsk_ip6_local_stage,
	.name = "ip6_local", .id = LSK_STAGE_IP6_LOCAL,
	.next = LSK_NEXT("ip6_reasm", "udp6_input", "icmp6_input", "icmp6"),
	.drops = local6_drops, .n_drops = RTE_DIM(local6_drops));

/* The chain of m (a frame) walked as its destination: the verdict of a
 * refusal (info its pointer), or UINT32_MAX with *c filled in. */
static uint32_t
local6_walk(const struct rte_mbuf *m, struct lsk_ip6_chain *c, uint32_t *info)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t flags = LSK_CHAIN_LOCAL |
		(lsk_ip6_is_multicast(lsk_ip6_dst(ip)) ? LSK_CHAIN_MCAST : 0);

	switch (lsk_ip6_chain_walk(m, RTE_ETHER_HDR_LEN,
				   rte_pktmbuf_pkt_len(m) - RTE_ETHER_HDR_LEN,
				   flags, c)) {
	case LSK_CHAIN_OK:
		return UINT32_MAX;
	case LSK_CHAIN_DISCARD:
		return LOCAL6_DROP_OPTION;
	case LSK_CHAIN_PARAM:
		*info = c->err_ptr;
		return c->err_code == LSK_ICMP6_UNK_OPTION ?
		       LOCAL6_DROP_PARAM_OPTION : c->err_code ==
		       LSK_ICMP6_UNK_NEXTHDR ? LOCAL6_DROP_PROTO :
		       LOCAL6_DROP_PARAM_HDR;
	default:
		return LOCAL6_DROP_HDR;
	}
}

/*
 * The fragment m (a frame) to the reassembly table, which takes data at
 * the IPv6 header; the datagram it completes comes back as a frame
 * again (its first piece's headroom holds the Ethernet header), or NULL.
 * Ownership: takes m; returns an mbuf the caller owns.
 */
static struct rte_mbuf *
local6_reassemble(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		  uint16_t frag_off)
{
	struct rte_ether_hdr *eh;
	struct rte_mbuf *d;

	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
	d = lsk_ip6_reassemble(w, m, meta, frag_off);
	if (d == NULL)
		return NULL;
	if (rte_pktmbuf_prepend(d, RTE_ETHER_HDR_LEN) == NULL) {
		lsk_drop(w, d, 0, &local6_drops[LOCAL6_DROP_REASM]);
		return NULL;
	}
	eh = rte_pktmbuf_mtod(d, struct rte_ether_hdr *);
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	/* the MACs a frame to us has, for the kernel should it be punted
	 * (its TAP takes only frames to its MAC) */
	if (d->port < w->fwd->n_ifaces) {
		eh->dst_addr = w->fwd->ifaces[d->port].mac;
		eh->src_addr = eh->dst_addr;
	}
	return d;
}

/* One datagram: to udp or icmp, to the reassembly table, or dropped. */
static void
local6_one(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	   struct lsk_list *udp, struct lsk_list *icmp)
{
	struct lsk_ip6_chain c;
	uint32_t info = 0, v;

	v = local6_walk(m, &c, &info);
	if (v == UINT32_MAX && c.frag_off != 0) {
		/* InReceives counted every fragment; InDelivers counts the
		 * datagram they make */
		m = local6_reassemble(w, m, meta, c.frag_off);
		if (m == NULL)
			return;
		meta &= ~LSK_META_COUNT_MASK;
		v = local6_walk(m, &c, &info);
		if (v == UINT32_MAX && c.frag_off != 0)
			v = LOCAL6_DROP_HDR;	/* a fragment in a fragment */
	}
	if (v == UINT32_MAX) {
		meta = (meta & ~LSK_META_NH_MASK) | c.off;
		if (likely(c.proto == IPPROTO_UDP)) {
			w->stats.ip6.InDelivers += lsk_meta_count(meta);
			lsk_list_push(udp, m, meta);
			return;
		}
		if (c.proto == LSK_IP6_ICMP) {
			w->stats.ip6.InDelivers++;
			lsk_list_push(icmp, m, meta);
			return;
		}
		if (c.proto == LSK_IP6_NONE) {
			v = LOCAL6_NO_NEXT;
		} else {
			v = LOCAL6_DROP_PROTO;
			info = c.nh_off;
		}
	}
	if (v == LOCAL6_DROP_PROTO && !(meta & LSK_META_COUNT_MASK) &&
	    lsk_host_punt(w, m)) {
		/* TCP, OSPFv3, ...: the kernel's, through the interface's
		 * host-if (host/host.h) */
		w->stats.ip6.InDelivers++;
		return;
	}
	if (lsk_trace_on(w))
		lsk_trace_entry(w, m, meta, &lsk_ip6_local_stage, false,
				"next header %u at %u: %s", c.proto, c.off,
				v == LOCAL6_NO_NEXT ? "no next header" :
				v == LOCAL6_DROP_PROTO ? "unknown" :
				"refused");
	lsk_ip6_drop(w, m, meta, &local6_drops[v], info);
}

void
lsk_ip6_local(struct lsk_worker *w, struct lsk_list *l, struct lsk_list *udp,
	      struct lsk_list *icmp)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		local6_one(w, l->pkts[i], l->meta[i], udp, icmp);
	l->n = 0;
}
