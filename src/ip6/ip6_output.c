/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_output: what the stack itself sends over IPv6 (ICMPv6 errors and
 * echo replies of any worker, datagrams applications queue, drained by
 * worker 0) is routed like forwarded traffic: one bulk FIB lookup for
 * the global destinations; a link-local or multicast destination leaves
 * by the interface the packet names (m->port: where what it answers came
 * in). A source left unspecified gets lsk_fwd6_source's, and the
 * upper-layer checksum is made then (always for datagrams). Then the
 * Ethernet header, and the neighbour (nd: lsk_nd6_resolve) or, for a
 * group, its MAC (33:33 and the group's last four bytes, RFC 2464 7).
 * What is larger than the egress MTU leaves in fragments
 * (lsk_ip6_fragment), as a host's datagrams do. Datagrams to one of our
 * own addresses loop back into local delivery (ip6_local, udp6_input),
 * as ip4_output's do.
 *
 * Counters: OutRequests for each packet given, OutNoRoutes and
 * OutDiscards (blackhole) as Linux's; an ICMPv6 message counts Icmp6Out*
 * by type once it has a route (lsk_icmp6_count_out).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_fib6.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/cksum.h"
#include "core/drop.h"
#include "core/list.h"
#include "core/fwd.h"
#include "core/fwd6.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/tx.h"
#include "core/worker.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"
#include "ip6/nd6.h"
#include "udp/udp.h"

/* the drops first: they index out6_drops */
enum out6_verdict {
	OUT6_DROP_DISCARD,	/* OutDiscards: blackhole, no room */
	OUT6_DROP_NO_ROUTE,	/* OutNoRoutes */
	OUT6_DROP_ICMP_NO_ROUTE,	/* not a verdict: an error's no route */
	OUT6_SEND,
	OUT6_LOCAL,
	OUT6_FRAGMENT,
};

static const struct lsk_drop out6_drops[] = {
	[OUT6_DROP_DISCARD] = LSK_DROP1(ip6.OutDiscards),
	[OUT6_DROP_NO_ROUTE] = LSK_DROP1(ip6.OutNoRoutes),
	/* an ICMPv6 error with no route back: counted nowhere, as ICMP's */
	[OUT6_DROP_ICMP_NO_ROUTE] = LSK_DROP_NONE,
};

LSK_STAGE_DECLARE(lsk_ip6_output_stage,
	.name = "ip6_output", .id = LSK_STAGE_IP6_OUTPUT,
	.next = LSK_NEXT("ip6_local", "nd6", "tx"),
	.drops = out6_drops, .n_drops = RTE_DIM(out6_drops));

uint16_t
lsk_ip6_l4_sum(const struct rte_ipv6_hdr *ip, uint8_t proto,
	       const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	const struct {
		rte_be32_t len, proto;
	} ph = { rte_cpu_to_be_32(len), rte_cpu_to_be_32(proto) };
	uint32_t sum = __rte_raw_cksum(ip->src_addr, 32, 0);
	uint16_t raw;

	sum = __rte_raw_cksum(&ph, sizeof(ph), sum);
	if (likely(off + len <= m->data_len)) {
		sum = __rte_raw_cksum(rte_pktmbuf_mtod_offset(m, const void *,
							      off), len, sum);
	} else {
		if (lsk_mbuf_cksum(m, off, len, &raw) < 0)
			return 0;
		sum += raw;
	}
	return __rte_raw_cksum_reduce(sum);
}

/* The upper-layer checksum of m (data at its IPv6 header, no extension
 * headers: what we send) made anew, for UDP and ICMPv6. */
static void
out6_l4_checksum(struct rte_mbuf *m, struct rte_ipv6_hdr *ip)
{
	const uint32_t len = rte_be_to_cpu_16(ip->payload_len);
	uint32_t at;
	uint16_t ck;

	if (ip->proto == IPPROTO_UDP && len >= 8)
		at = sizeof(*ip) + 6;
	else if (ip->proto == LSK_IP6_ICMP && len >= 4)
		at = sizeof(*ip) + 2;
	else
		return;
	if (at + 2 > m->data_len)
		return;
	memset(rte_pktmbuf_mtod_offset(m, uint8_t *, at), 0, 2);
	ck = (uint16_t)~lsk_ip6_l4_sum(ip, ip->proto, m, sizeof(*ip), len);
	if (ck == 0 && ip->proto == IPPROTO_UDP)
		ck = 0xffff;	/* 0 means none, which IPv6 forbids */
	memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, at), &ck, 2);
}

/* A scoped destination's next hop: on the link of iface, onlink. */
static const struct lsk_nexthop6 *
out6_scoped(const struct lsk_worker *w, uint16_t iface,
	    struct lsk_nexthop6 *nh)
{
	const struct lsk_fwd_table *t4 = w->fwd;

	if (iface >= t4->n_ifaces)
		return NULL;
	memset(nh, 0, sizeof(*nh));
	nh->type = LSK_NH_FORWARD;
	nh->onlink = 1;
	nh->iface = iface;
	nh->mtu = t4->ifaces[iface].mtu;
	return nh;
}

/* Not for the FIB: multicast, link-local, unspecified. */
static inline bool
out6_is_scoped(const struct lsk_ip6_addr *a)
{
	return lsk_ip6_is_multicast(a) || lsk_ip6_is_linklocal(a) ||
	       lsk_ip6_is_unspecified(a);
}

/* m's route: the verdict, *nhp its next hop when sent. */
static enum out6_verdict
out6_route(struct lsk_worker *w, struct rte_mbuf *m, struct rte_ipv6_hdr *ip,
	   const struct lsk_nexthop6 *fib_nh, struct lsk_nexthop6 *scoped,
	   const struct lsk_nexthop6 **nhp, bool udp)
{
	const struct lsk_fwd6_table *t = w->fwd6;
	const struct lsk_ip6_addr *dst = lsk_ip6_dst(ip);
	const struct lsk_nexthop6 *nh = fib_nh;
	bool fill = lsk_ip6_is_unspecified(lsk_ip6_src(ip));

	if (lsk_ip6_is_linklocal(dst) &&
	    lsk_fwd6_ours(t, dst, m->port) != NULL) {
		nh = NULL;
	} else if (out6_is_scoped(dst)) {
		if (lsk_ip6_is_unspecified(dst))
			return OUT6_DROP_NO_ROUTE;
		nh = out6_scoped(w, m->port, scoped);
		if (nh == NULL)
			return OUT6_DROP_NO_ROUTE;
	} else if (nh->type == LSK_NH_BLACKHOLE) {
		return OUT6_DROP_DISCARD;
	} else if (nh->type != LSK_NH_LOCAL && nh->type != LSK_NH_FORWARD) {
		return OUT6_DROP_NO_ROUTE;
	} else if (nh->type == LSK_NH_LOCAL) {
		nh = NULL;
	}
	*nhp = nh;
	if (nh == NULL) {	/* ours: from the address it goes to */
		if (fill)
			memcpy(ip->src_addr, ip->dst_addr, sizeof(ip->src_addr));
	} else if (fill) {
		const struct lsk_ifaddr6 *a = lsk_fwd6_source(t, dst,
							      nh->iface);

		if (a == NULL)
			return OUT6_DROP_NO_ROUTE;
		memcpy(ip->src_addr, &a->addr, sizeof(ip->src_addr));
	}
	if (udp || fill)
		out6_l4_checksum(m, ip);
	if (nh == NULL)
		return OUT6_LOCAL;
	if (sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len) > nh->mtu)
		return OUT6_FRAGMENT;
	return OUT6_SEND;
}

/* m (data at its IPv6 header) as a frame: its Ethernet header's room
 * and type. false: no room (m stays as it was). */
static bool
out6_frame(struct rte_mbuf *m)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)
		rte_pktmbuf_prepend(m, RTE_ETHER_HDR_LEN);

	if (eh == NULL)
		return false;
	memset(eh, 0, 2 * RTE_ETHER_ADDR_LEN);
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	return true;
}

/* To a group: its MAC, from the interface's, straight to TX. */
static void
out6_multicast(struct lsk_worker *w, struct rte_mbuf *m, uint16_t iface)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(eh + 1);

	eh->dst_addr.addr_bytes[0] = 0x33;
	eh->dst_addr.addr_bytes[1] = 0x33;
	memcpy(&eh->dst_addr.addr_bytes[2], &ip->dst_addr[12], 4);
	eh->src_addr = w->fwd->ifaces[iface].mac;
	lsk_tx_enqueue(w, iface, m);
}

static void
out6_one(struct lsk_worker *w, struct rte_mbuf *m,
	 const struct lsk_nexthop6 *fib_nh, int kind, struct lsk_list *local)
{
	struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod(m, struct rte_ipv6_hdr *);
	const bool icmp = kind == LSK_OUT_ICMP;
	const struct lsk_nexthop6 *nh = NULL;
	struct lsk_nexthop6 scoped;
	enum out6_verdict v;

	v = out6_route(w, m, ip, fib_nh, &scoped, &nh, kind == LSK_OUT_UDP);
	if (icmp && (v == OUT6_SEND || v == OUT6_FRAGMENT) &&
	    ip->proto == LSK_IP6_ICMP && m->data_len > sizeof(*ip))
		lsk_icmp6_count_out(w, ((const uint8_t *)(ip + 1))[0]);
	if (icmp && v == OUT6_DROP_NO_ROUTE)
		v = OUT6_DROP_ICMP_NO_ROUTE;
	/* ICMPv6 to ourselves: nothing listens for it */
	if (v == OUT6_LOCAL && kind != LSK_OUT_UDP)
		v = OUT6_DROP_DISCARD;
	if (v == OUT6_FRAGMENT) {
		lsk_ip6_fragment(w, m, nh, nh->onlink ? lsk_ip6_dst(ip) :
				 &nh->gateway);
		return;
	}
	if (v < OUT6_SEND || !out6_frame(m)) {
		lsk_drop(w, m, 0, &out6_drops[v < OUT6_SEND ? v :
					      OUT6_DROP_DISCARD]);
		return;
	}
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
				     RTE_ETHER_HDR_LEN);
	if (v == OUT6_LOCAL)
		lsk_list_push(local, m, 0);
	else if (lsk_ip6_is_multicast(lsk_ip6_dst(ip)))
		out6_multicast(w, m, nh->iface);
	else
		lsk_nd6_resolve(w, nh->onlink ? lsk_ip6_dst(ip) : &nh->gateway,
				nh->iface, m);
}

void
lsk_ip6_output_burst(struct lsk_worker *w, struct rte_mbuf **pkts,
		     unsigned int n, int kind)
{
	const struct lsk_fwd6_table *t = w->fwd6;
	struct lsk_list *local = &w->ip6w->out_local;
	uint8_t dst[LSK_BURST_MAX][RTE_FIB6_IPV6_ADDR_SIZE];
	uint64_t nh_idx[LSK_BURST_MAX];
	unsigned int i, k = 0;

	if (kind != LSK_OUT_HOST)
		w->stats.ip6.OutRequests += n;
	for (i = 0; i < n; i++) {
		const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod(pkts[i],
			const struct rte_ipv6_hdr *);

		if (!out6_is_scoped(lsk_ip6_dst(ip)))
			memcpy(dst[k++], ip->dst_addr, sizeof(dst[0]));
	}
	if (k != 0)
		rte_fib6_lookup_bulk(t->fib, dst, nh_idx, (int)k);

	local->n = 0;
	k = 0;
	for (i = 0; i < n; i++) {
		const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod(pkts[i],
			const struct rte_ipv6_hdr *);
		const struct lsk_nexthop6 *nh = &t->nexthops[LSK_NH_IDX_NONE];

		if (!out6_is_scoped(lsk_ip6_dst(ip)))
			nh = &t->nexthops[(uint32_t)nh_idx[k++]];
		out6_one(w, pkts[i], nh, kind, local);
	}
	/* the loopback runs the receiving stages as stages: their counters
	 * count local sends */
	if (local->n) {
		uint32_t c = local->n;

		w->stats.ip6.InReceives += c;
		w->udp6.n = 0;
		w->icmp6.n = 0;
		LSK_STAGE_CALL(w, LSK_STAGE_IP6_LOCAL, c,
			       lsk_ip6_local(w, local, &w->udp6, &w->icmp6));
		if (w->udp6.n) {
			c = w->udp6.n;
			LSK_STAGE_CALL(w, LSK_STAGE_UDP6_INPUT, c,
				       lsk_udp6_input(w, &w->udp6));
		}
		if (w->icmp6.n) {	/* only datagrams loop back */
			c = w->icmp6.n;
			LSK_STAGE_CALL(w, LSK_STAGE_ICMP6_INPUT, c,
				       lsk_icmp6_input(w, &w->icmp6));
		}
	}
}
