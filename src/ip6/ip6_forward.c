/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_forward: Linux's ip6_forward for what ip6_route sent on: no
 * forwarding of L2 broadcasts, the hop limit, the source's scope, the
 * MTU (never fragmented: packet too big with the egress MTU), then the
 * hop limit decreased (IPv6 has no header checksum) and on to the
 * neighbour (lsk_nd6_resolve writes the MACs, sends or holds).
 *
 * Answers as Linux: hop limit out, ICMPv6 time exceeded (InHdrErrors);
 * a link-local source, destination unreachable beyond scope
 * (InAddrErrors); an unspecified source, InAddrErrors alone; too big,
 * packet too big (InTooBigErrors and FragFails).
 *
 * A train (udp6_gro.c) is decided once, by its head (its members share
 * every field checked), and counted per datagram; one over the MTU goes
 * as its datagrams, each its own way (IPv4's rule, ip4_forward.c).
 */
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/fwd6.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"
#include "ip6/nd6.h"
#include "udp/udp.h"

enum fwd6_verdict {
	FWD6_SEND,
	FWD6_DROP_L2_BCAST,	/* InAddrErrors (as IPv4's, RFC 1812 5.3.4) */
	FWD6_DROP_HOPLIMIT,	/* InHdrErrors, time exceeded */
	FWD6_DROP_SRC_SCOPE,	/* InAddrErrors, beyond scope */
	FWD6_DROP_SRC_ANY,	/* InAddrErrors */
	FWD6_DROP_TOO_BIG,	/* InTooBigErrors, FragFails, too big */
};

static const struct lsk_drop fwd6_drops[] = {
	[FWD6_DROP_L2_BCAST] = LSK_DROP1(ip6.InAddrErrors),
	[FWD6_DROP_HOPLIMIT] = LSK_DROP_ICMP(ip6.InHdrErrors,
			LSK_ICMP6_TIME_EXCEEDED, LSK_ICMP6_EXC_HOPLIMIT),
	[FWD6_DROP_SRC_SCOPE] = LSK_DROP_ICMP(ip6.InAddrErrors,
			LSK_ICMP6_DST_UNREACH, LSK_ICMP6_NOT_NEIGHBOUR),
	[FWD6_DROP_SRC_ANY] = LSK_DROP1(ip6.InAddrErrors),
	[FWD6_DROP_TOO_BIG] = {
		.counter = { LSK_DROP_AT(ip6.InTooBigErrors),
			     LSK_DROP_AT(ip6.FragFails) },
		.icmp_type = LSK_ICMP6_PKT_TOO_BIG },
};

static lsk_trace_fmt_t forward6_trace;

LSK_STAGE_DECLARE(lsk_ip6_forward_stage,
	.name = "ip6_forward", .id = LSK_STAGE_IP6_FORWARD,
	.next = LSK_NEXT("icmp6", "nd6"),
	.drops = fwd6_drops, .n_drops = RTE_DIM(fwd6_drops),
	.trace = forward6_trace);

/* ip6_forward's record, before the stage: the hop limit it will write,
 * or that it runs out here. */
static void
forward6_trace(struct lsk_worker *w, const struct lsk_list *l,
	       const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const struct rte_ipv6_hdr *ip;
		const struct rte_mbuf *d;

		/* each member of a train, as IPv4's */
		for (d = l->pkts[i]; d != NULL;
		     d = lsk_trace_entry_next(d, l->meta[i])) {
			if (!lsk_traced(d) || (ip = lsk_trace_ip6(d)) == NULL)
				continue;
			if (ip->hop_limits <= 1)
				lsk_trace_rec(w, d, &lsk_ip6_forward_stage,
					      false, "hlim %u: expires here",
					      ip->hop_limits);
			else
				lsk_trace_rec(w, d, &lsk_ip6_forward_stage,
					      false, "hlim %u -> %u",
					      ip->hop_limits,
					      ip->hop_limits - 1);
		}
	}
}

static inline enum fwd6_verdict
fwd6_check(const struct lsk_nexthop6 *nh, const struct rte_ipv6_hdr *ip,
	   uint32_t meta)
{
	if (unlikely(meta & LSK_META_L2_BCAST))
		return FWD6_DROP_L2_BCAST;
	if (unlikely(ip->hop_limits <= 1))
		return FWD6_DROP_HOPLIMIT;
	if (unlikely(lsk_ip6_is_linklocal(lsk_ip6_src(ip))))
		return FWD6_DROP_SRC_SCOPE;
	if (unlikely(lsk_ip6_is_unspecified(lsk_ip6_src(ip))))
		return FWD6_DROP_SRC_ANY;
	if (unlikely(sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len) >
		     nh->mtu))
		return FWD6_DROP_TOO_BIG;
	return FWD6_SEND;
}

/* A train over the egress MTU: its datagrams but the last are the
 * head's length, the last may be shorter and fit; each goes as
 * per-packet forwarding sends it. */
static void
fwd6_train_alone(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta)
{
	lsk_train_alone(w, m, meta, lsk_ip6_forward);
}

void
lsk_ip6_forward(struct lsk_worker *w, struct lsk_list *l)
{
	const struct lsk_nexthop6 *nexthops = w->fwd6->nexthops;
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		const uint32_t meta = l->meta[i];
		const struct lsk_nexthop6 *nh =
			&nexthops[meta & LSK_META_NH_MASK];
		struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
			struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
		enum fwd6_verdict v = fwd6_check(nh, ip, meta);

		if (unlikely(v != FWD6_SEND)) {
			if (v == FWD6_DROP_TOO_BIG &&
			    (meta & LSK_META_COUNT_MASK))
				fwd6_train_alone(w, m, meta);
			else
				lsk_ip6_drop(w, m, meta, &fwd6_drops[v],
					     nh->mtu);
			continue;
		}
		ip->hop_limits--;
		/* the neighbour records what it did (sent or held) */
		if (likely(!(meta & LSK_META_COUNT_MASK))) {
			w->stats.ip6.OutForwDatagrams++;
			lsk_nd6_resolve(w, nh->onlink ? lsk_ip6_dst(ip) :
					&nh->gateway, nh->iface, m);
			continue;
		}
		/* a train's members carry the head's decisions out */
		w->stats.ip6.OutForwDatagrams += lsk_meta_count(meta);
		lsk_gso6_output(w, m, meta, nh->onlink ? lsk_ip6_dst(ip) :
				&nh->gateway, nh->iface);
	}
	l->n = 0;
}
