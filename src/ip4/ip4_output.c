/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_output: what the stack itself sends (datagrams applications queue
 * with lsk_udp_send_burst, drained by worker 0; ICMP replies and errors of
 * any worker) is routed like forwarded traffic: one bulk FIB lookup, the
 * egress port's address as source when the sender left it open, the
 * checksums, the next hop's MACs (or ARP), the TX buffer. Datagrams to one
 * of our own addresses loop back into local delivery.
 *
 * Too big for the egress MTU, a datagram leaves in fragments: a UDP send
 * had DF set (the sending thread cannot know the route), which is cleared
 * then, as Linux's IP_PMTUDISC_WANT (the UDP default) sets DF only on what
 * fits; an echo reply to a reassembled echo request has DF clear.
 *
 * Known gap: sends to a broadcast address are delivered locally only.
 */
#include <rte_byteorder.h>
#include <rte_fib.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "core/cksum.h"
#include "core/drop.h"
#include "core/list.h"
#include "core/fwd.h"
#include "core/worker.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "udp/udp.h"

/* the drops first: they index out_drops */
enum out_verdict {
	OUT_DROP_DISCARD,	/* OutDiscards: blackhole */
	OUT_DROP_NO_ROUTE,	/* OutNoRoutes */
	OUT_DROP_MTU,		/* FragFails: DF set */
	OUT_DROP_ICMP_NO_ROUTE,	/* not a verdict: an error's no route */
	OUT_SEND,
	OUT_RESOLVE,		/* no MAC yet: ARP */
	OUT_LOCAL,
	OUT_FRAGMENT,		/* over the MTU: fragments (or ARP first) */
};

static const struct lsk_drop out_drops[] = {
	[OUT_DROP_NO_ROUTE] = LSK_DROP1(ip.OutNoRoutes),
	[OUT_DROP_DISCARD] = LSK_DROP1(ip.OutDiscards),
	[OUT_DROP_MTU] = LSK_DROP1(ip.FragFails),
	/* an ICMP error with no route back: counted nowhere, as Linux
	 * counts none */
	[OUT_DROP_ICMP_NO_ROUTE] = LSK_DROP_NONE,
};

/* Routes what the stack sends (the send ring, ICMP), loops back what is
 * for us (a known departure: it runs ip4_local and udp4_input itself). */
LSK_STAGE_DECLARE(lsk_ip4_output_stage,
	.name = "ip4_output", .id = LSK_STAGE_IP4_OUTPUT,
	.next = LSK_NEXT("ip4_local", "tx"),
	.drops = out_drops, .n_drops = RTE_DIM(out_drops));

static void
out_udp_checksums(const struct rte_mbuf *m, struct rte_ipv4_hdr *ip)
{
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(ip + 1);
	uint16_t ck, raw;

	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	uh->dgram_cksum = 0;
	if (m->nb_segs == 1) {
		ck = rte_ipv4_udptcp_cksum(ip, uh);
	} else {
		/* a send larger than an mbuf (udp/udp_ep.c) */
		uint32_t sum = rte_ipv4_phdr_cksum(ip, 0);

		lsk_mbuf_cksum(m, RTE_ETHER_HDR_LEN + sizeof(*ip),
			       rte_be_to_cpu_16(uh->dgram_len), &raw);
		sum += raw;
		ck = (uint16_t)~__rte_raw_cksum_reduce(sum);
	}
	uh->dgram_cksum = ck == 0 ? 0xffff : ck;
}

static enum out_verdict
out_route(const struct lsk_fwd_table *t, const struct lsk_nexthop *nh,
	  const struct rte_mbuf *m, struct rte_ipv4_hdr *ip, bool udp)
{
	const struct lsk_ifaddr *a;

	/* a broadcast is no source: a datagram from one (an answer to a
	 * broadcast, from an endpoint bound to any address) leaves from
	 * the address a source of 0 would (the choice reads this table,
	 * which the sending thread cannot) */
	if (udp && ip->src_addr != 0 &&
	    lsk_fwd_is_broadcast(t, rte_be_to_cpu_32(ip->src_addr)))
		ip->src_addr = 0;
	switch (nh->type) {
	case LSK_NH_LOCAL_BCAST:
		/* from our address on the broadcast's subnet, as Linux's
		 * inet_select_addr; 255.255.255.255 from our first one */
		if (ip->src_addr == 0) {
			a = lsk_fwd_connected(t,
					      rte_be_to_cpu_32(ip->dst_addr));
			ip->src_addr = rte_cpu_to_be_32(a != NULL ? a->addr :
					t->n_own != 0 ? t->own_addrs[0] : 0);
		}
		/* fall through */
	case LSK_NH_LOCAL:
		if (ip->src_addr == 0)
			ip->src_addr = ip->dst_addr;
		if (udp)
			out_udp_checksums(m, ip);
		return OUT_LOCAL;
	case LSK_NH_BLACKHOLE:
		return OUT_DROP_DISCARD;
	case LSK_NH_FORWARD:
		break;
	default:
		return OUT_DROP_NO_ROUTE;
	}
	if (ip->src_addr == 0) {
		if (t->port_addr[nh->port] == 0)
			return OUT_DROP_NO_ROUTE;
		ip->src_addr = rte_cpu_to_be_32(t->port_addr[nh->port]);
	}
	if (unlikely(rte_be_to_cpu_16(ip->total_length) > nh->mtu)) {
		if (udp)
			ip->fragment_offset = 0;	/* our sends: DF only */
		else if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG))
			return OUT_DROP_MTU;
		if (udp)
			out_udp_checksums(m, ip);
		return OUT_FRAGMENT;
	}
	if (udp)
		out_udp_checksums(m, ip);
	return nh->resolved ? OUT_SEND : OUT_RESOLVE;
}

/* Route and send pkts; udp: fill in sources and checksums (sends). */
void
lsk_ip4_output_burst(struct lsk_worker *w, struct rte_mbuf **pkts,
		     unsigned int n, int kind)
{
	const bool udp = kind == LSK_OUT_UDP;
	const bool icmp = kind == LSK_OUT_ICMP;
	const struct lsk_fwd_table *t = w->fwd;
	struct lsk_list *local = &w->ip4w->out_local;
	uint32_t dst[LSK_BURST_MAX];
	uint64_t nh_idx[LSK_BURST_MAX];
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
			pkts[i], const struct rte_ipv4_hdr *,
			RTE_ETHER_HDR_LEN);

		dst[i] = rte_be_to_cpu_32(ip->dst_addr);
	}
	rte_fib_lookup_bulk(t->fib, dst, nh_idx, (int)n);

	local->n = 0;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const struct lsk_nexthop *nh = &t->nexthops[nh_idx[i]];
		struct rte_ether_hdr *eh =
			rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		enum out_verdict v = out_route(t, nh, m,
					       (struct rte_ipv4_hdr *)(eh + 1),
					       udp);

		/* ICMP counts what leaves, as Linux counts in ip_make_skb
		 * after its route lookup: no route back, nothing counted */
		if (icmp && (v == OUT_SEND || v == OUT_RESOLVE ||
			     v == OUT_FRAGMENT))
			lsk_icmp4_count_out(w, ((const uint8_t *)(eh + 1))[
				sizeof(struct rte_ipv4_hdr)]);
		if (icmp && v == OUT_DROP_NO_ROUTE) {
			lsk_drop(w, m, 0, &out_drops[OUT_DROP_ICMP_NO_ROUTE]);
			continue;
		}
		if (v == OUT_SEND) {
			memcpy(eh, &nh->dst_mac, 2 * RTE_ETHER_ADDR_LEN);
			lsk_tx_enqueue(w, nh->port, m);
		} else if (v == OUT_RESOLVE) {
			lsk_neigh_resolve(w, nh->gateway ? nh->gateway : dst[i],
					  nh->port, m);
		} else if (v == OUT_FRAGMENT) {
			/* the checksums were made over the whole datagram:
			 * fragmenting writes each fragment's IP checksum */
			if (lsk_trace_on(w))	/* an echo reply's ends */
				lsk_ip4_frag_trace(w, m, nh->mtu,
						   &lsk_ip4_output_stage);
			lsk_ip4_fragment(w, m, nh,
					 nh->gateway ? nh->gateway : dst[i]);
		} else if (v == OUT_LOCAL && udp) {
			lsk_list_push(local, m, (uint32_t)nh_idx[i]);
		} else if (v == OUT_LOCAL) {
			/* ICMP to ourselves: nothing listens for it */
			lsk_drop(w, m, 0, &out_drops[OUT_DROP_DISCARD]);
		} else {
			lsk_drop(w, m, 0, &out_drops[v]);
		}
	}
	/* the loopback runs the receiving stages as stages: their counters
	 * count local sends (their cycles count in ip4_output's too) */
	if (local->n) {
		uint32_t k = local->n;

		/* received on the loopback, as Linux's lo counts them */
		w->stats.ip.InReceives += k;
		w->udp4.n = 0;
		LSK_STAGE_CALL(w, LSK_STAGE_IP4_LOCAL, k,
			       lsk_ip4_local(w, local, &w->udp4, &w->icmp4));
		if (w->udp4.n) {
			k = w->udp4.n;
			LSK_STAGE_CALL(w, LSK_STAGE_UDP4_INPUT, k,
				       lsk_udp4_input(w, &w->udp4));
		}
	}
}

/*
 * The ring also carries the control thread's echo requests (ping and
 * traceroute, control/ping.c), whole: with their source and checksums.
 * They go out as ICMP (counted icmp.OutEchos, not sent datagrams); the
 * datagrams of IPv6 endpoints go to ip6_output (data at their IPv6
 * header, counted udp6.OutDatagrams), ping's ICMPv6 echo requests to it
 * as ICMPv6 (icmp6.OutEchos). pkts keeps IPv4's datagrams, in
 * order, and their number is returned.
 */
static unsigned int
out_split(struct lsk_worker *w, struct rte_mbuf **pkts, unsigned int n)
{
	struct rte_mbuf *icmp[LSK_BURST_MAX], *v6[LSK_BURST_MAX];
	struct rte_mbuf *icmp6[LSK_BURST_MAX];
	unsigned int i, k = 0, u = 0, k6 = 0, i6 = 0;

	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(pkts[i],
			const struct rte_ether_hdr *);
		const struct rte_ipv4_hdr *ip =
			(const struct rte_ipv4_hdr *)(eh + 1);

		if (unlikely(eh->ether_type ==
			     RTE_BE16(RTE_ETHER_TYPE_IPV6))) {
			const uint8_t proto = ((const struct rte_ipv6_hdr *)
					       (eh + 1))->proto;

			rte_pktmbuf_adj(pkts[i], RTE_ETHER_HDR_LEN);
			if (proto == IPPROTO_ICMPV6)	/* ping's */
				icmp6[i6++] = pkts[i];
			else
				v6[k6++] = pkts[i];
		} else if (ip->next_proto_id == IPPROTO_ICMP) {
			icmp[k++] = pkts[i];
		} else {
			pkts[u++] = pkts[i];
		}
	}
	if (k != 0)
		lsk_ip4_output_burst(w, icmp, k, false);
	if (k6 != 0) {
		w->stats.udp6.OutDatagrams += k6;
		lsk_ip6_output_burst(w, v6, k6, LSK_OUT_UDP);
	}
	if (i6 != 0)
		lsk_ip6_output_burst(w, icmp6, i6, LSK_OUT_ICMP);
	return u;
}

void
lsk_ip4_output(struct lsk_worker *w)
{
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	/* what was queued before this flush leaves in it (listack/udp.h);
	 * what senders queue meanwhile waits for the next */
	unsigned int left = rte_ring_count(w->sh->out_ring), n;

	while (left != 0) {
		n = RTE_MIN(left, (unsigned int)LSK_BURST_MAX);
		n = rte_ring_sc_dequeue_burst(w->sh->out_ring,
					      (void **)pkts, n, NULL);
		if (n == 0)
			return;
		left -= n;
		n = out_split(w, pkts, n);
		w->stats.udp.OutDatagrams += n;
		if (n != 0)
			lsk_ip4_output_burst(w, pkts, n, true);
	}
}
