/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_input: L2 demux of a received burst. Keeps frames addressed to us
 * (our MAC, broadcast, the all-hosts group; IPv6 frames to a 33:33
 * group MAC) and hands each to the next
 * stage of its ethertype, from one table (eth_protos): a protocol is one
 * entry there and one list in enum lsk_eth_next (l2/l2.h).
 *
 * Tagged frames of a configured VLAN are stripped and continue as frames
 * of that VLAN's sub-interface (their port field names it, vlan.c);
 * VLAN 0 (priority tags) is the port itself.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/list.h"
#include "core/rx.h"
#include "core/trace.h"
#include "core/worker.h"
#include "l2/l2.h"
#include "l2/eth_fast.h"
#include "host/host.h"

/* A frame's verdict: the next stage whose list it joins (enum
 * lsk_eth_next, l2/l2.h), or a drop reason, each an eth counter. */
enum eth_verdict {
	ETH_IP4 = LSK_ETH_NEXT_IP4,
	ETH_ARP = LSK_ETH_NEXT_ARP,
	ETH_IP6 = LSK_ETH_NEXT_IP6,
	ETH_DROP_RUNT = LSK_ETH_NEXT_COUNT,
	ETH_DROP_NOT_FOR_US,
	ETH_DROP_UNKNOWN_TYPE,
	ETH_DROP_UNKNOWN_VLAN,
};

static const struct lsk_drop eth_drops[] = {
	[ETH_DROP_RUNT] = LSK_DROP1(eth.Runts),
	[ETH_DROP_NOT_FOR_US] = LSK_DROP1(eth.NotForUs),
	[ETH_DROP_UNKNOWN_TYPE] = LSK_DROP1(eth.UnknownType),
	[ETH_DROP_UNKNOWN_VLAN] = LSK_DROP1(eth.UnknownVlan),
};

static lsk_trace_fmt_t eth_trace;

LSK_STAGE_DECLARE(lsk_eth_input_stage,
	.name = "eth_input", .id = LSK_STAGE_ETH_INPUT,
	.next = LSK_NEXT("arp_input", "udp4_gro", "ip4_input", "udp6_gro",
			 "ip6_input"),
	.drops = eth_drops, .n_drops = RTE_DIM(eth_drops),
	.trace = eth_trace);

/*
 * The ethertypes eth_input hands on, and to which stage. IPv4 first: it
 * is the common frame, and the first compare finds it. A protocol that
 * comes after IPv4 in a burst and ends_round starts a new round of the
 * stages (the worker loop's), so what it teaches (ARP: a neighbour) is
 * learnt after the IPv4 before it and before the IPv4 after it.
 */
static const struct eth_proto {
	rte_be16_t type;
	uint8_t next;		/* enum lsk_eth_next */
	bool ends_round;
} eth_protos[] = {
	{ RTE_BE16(RTE_ETHER_TYPE_IPV4), LSK_ETH_NEXT_IP4, false },
	{ RTE_BE16(RTE_ETHER_TYPE_ARP), LSK_ETH_NEXT_ARP, true },
	{ RTE_BE16(RTE_ETHER_TYPE_IPV6), LSK_ETH_NEXT_IP6, false },
};

/* type's entry in eth_protos, or NULL. */
static inline const struct eth_proto *
eth_proto_of(rte_be16_t type)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(eth_protos); i++)
		if (eth_protos[i].type == type)
			return &eth_protos[i];
	return NULL;
}

/* IPv4 all-hosts group 224.0.0.1, which every IPv4 interface joins. */
static const struct rte_ether_addr all_hosts_mac = {
	.addr_bytes = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 }
};

/* An IPv6 multicast MAC (33:33 and a group's last four bytes, RFC 2464
 * 7): taken for IPv6 frames only, whose groups ip6_route checks against
 * the ones the interface joined (all-nodes, solicited-node, ...). */
static inline bool
eth_is_ip6_group(const struct rte_ether_addr *a)
{
	return a->addr_bytes[0] == 0x33 && a->addr_bytes[1] == 0x33;
}

/* Remove an 802.1Q tag so the frame reads as untagged. */
static void
eth_strip_tag(struct rte_mbuf *m)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	memmove(p + RTE_VLAN_HLEN, p, 2 * RTE_ETHER_ADDR_LEN);
	rte_pktmbuf_adj(m, RTE_VLAN_HLEN);
}

/* 224.0.0.0/24, the link's control groups (OSPF's 224.0.0.5 and .6,
 * ...): taken on a port with a host-if, for the kernel (host/host.h) */
static inline bool
eth_is_link_group(const struct rte_ether_addr *a)
{
	return a->addr_bytes[0] == 0x01 && a->addr_bytes[1] == 0x00 &&
	       a->addr_bytes[2] == 0x5e && a->addr_bytes[3] == 0x00 &&
	       a->addr_bytes[4] == 0x00;
}

static enum eth_verdict
eth_classify(const struct lsk_fwd_table *t, struct rte_mbuf *m, uint32_t *meta,
	     uint16_t mcast_ports)
{
	const struct rte_ether_hdr *eh;
	const struct eth_proto *pr;
	bool ip6_group = false;
	uint16_t type;

	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN))
		return ETH_DROP_RUNT;
	if (unlikely(m->port >= t->n_ports))
		return ETH_DROP_NOT_FOR_US;
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	*meta = 0;
	if (likely(rte_is_same_ether_addr(&eh->dst_addr,
					  &t->ifaces[m->port].mac))) {
		/* ours */
	} else if (rte_is_broadcast_ether_addr(&eh->dst_addr) ||
		   rte_is_same_ether_addr(&eh->dst_addr, &all_hosts_mac)) {
		*meta = LSK_META_L2_BCAST;
	} else if (((mcast_ports >> m->port) & 1) &&
		   eth_is_link_group(&eh->dst_addr)) {
		*meta = LSK_META_L2_BCAST;
	} else if (eth_is_ip6_group(&eh->dst_addr)) {
		*meta = LSK_META_L2_BCAST;
		ip6_group = true;
	} else {
		return ETH_DROP_NOT_FOR_US;
	}

	/* the PMD's packet type, when it parsed one, saves reading on */
	if ((m->packet_type & (RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK)) ==
	    (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4))
		return ETH_IP4;
	type = eh->ether_type;
	pr = eth_proto_of(type);
	if (unlikely(ip6_group) && (pr == NULL || pr->next != ETH_IP6) &&
	    type != RTE_BE16(RTE_ETHER_TYPE_VLAN))
		return ETH_DROP_NOT_FOR_US;
	if (likely(pr != NULL))
		return (enum eth_verdict)pr->next;
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		const struct rte_vlan_hdr *vh = (const void *)(eh + 1);

		uint16_t vid;
		int iface = m->port;

		if (m->data_len < RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)
			return ETH_DROP_RUNT;
		vid = rte_be_to_cpu_16(vh->vlan_tci) & 0x0fff;
		/* VID 0 is a priority tag: the port itself */
		if (vid != 0) {
			iface = lsk_vlan_lookup(t, m->port, vid);
			if (iface < 0)
				return ETH_DROP_UNKNOWN_VLAN;
		}
		pr = eth_proto_of(vh->eth_proto);
		if (unlikely(ip6_group) && (pr == NULL || pr->next != ETH_IP6))
			return ETH_DROP_NOT_FOR_US;
		if (pr == NULL)
			return ETH_DROP_UNKNOWN_TYPE;
		eth_strip_tag(m);
		/* from here on the frame belongs to its sub-interface */
		m->port = (uint16_t)iface;
		return (enum eth_verdict)pr->next;
	}
	return ETH_DROP_UNKNOWN_TYPE;
}

/* A frame, tagged or not, whose protocol ends a round after IPv4
 * (looked at before anything is counted). */
static inline bool
eth_ends_round(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct eth_proto *pr;
	rte_be16_t type;

	if (m->data_len < RTE_ETHER_HDR_LEN)
		return false;
	type = eh->ether_type;
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		if (m->data_len < RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)
			return false;
		type = ((const struct rte_vlan_hdr *)(eh + 1))->eth_proto;
	}
	pr = eth_proto_of(type);
	return pr != NULL && pr->ends_round;
}

/* eth_input's record, the frames as they came, tags and all (before the
 * stage: it may stop short, ARP after IPv4, and be called again on the
 * rest: each frame once). */
static void
eth_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	const struct lsk_eth_trace_arg *a = arg;
	struct rte_mbuf *const *pkts = a->pkts;
	const uint8_t *members = a->members;
	const uint16_t n = a->n;
	uint16_t i;

	RTE_SET_USED(l);

	for (i = 0; i < n; i++) {
		uint32_t meta = (members != NULL ? members[i] : 0u)
				<< LSK_META_COUNT_SHIFT;
		const struct rte_mbuf *d;

		for (d = pkts[i]; d != NULL; d = lsk_trace_entry_next(d, meta)) {
			const struct rte_ether_hdr *eh;
			char src[RTE_ETHER_ADDR_FMT_SIZE];
			char dst[RTE_ETHER_ADDR_FMT_SIZE];
			uint16_t type, vlan = 0;

			if (!lsk_traced(d) || !lsk_trace_fresh(w, d))
				continue;
			if (d->data_len < RTE_ETHER_HDR_LEN) {
				lsk_trace_rec(w, d, &lsk_eth_input_stage, false,
					      "%u bytes: no Ethernet header",
					      d->data_len);
				continue;
			}
			eh = rte_pktmbuf_mtod(d, const struct rte_ether_hdr *);
			type = rte_be_to_cpu_16(eh->ether_type);
			if (type == RTE_ETHER_TYPE_VLAN &&
			    d->data_len >= RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN) {
				const struct rte_vlan_hdr *vh =
					(const void *)(eh + 1);

				vlan = rte_be_to_cpu_16(vh->vlan_tci) & 0xfff;
				type = rte_be_to_cpu_16(vh->eth_proto);
			}
			rte_ether_format_addr(src, sizeof(src), &eh->src_addr);
			rte_ether_format_addr(dst, sizeof(dst), &eh->dst_addr);
			lsk_trace_rec(w, d, &lsk_eth_input_stage, false,
				      "%s > %s vlan %u type 0x%04x: %s", src,
				      dst, vlan, type,
				      type == RTE_ETHER_TYPE_IPV4 ? "ip4" :
				      type == RTE_ETHER_TYPE_ARP ? "arp" :
				      type == RTE_ETHER_TYPE_IPV6 ? "ip6" :
				      "other");
		}
	}
}

/* A frame, or a train of frames (count datagrams), dropped. */
static void
eth_drop(struct lsk_worker *w, struct rte_mbuf *m, enum eth_verdict v,
	 uint32_t count)
{
	lsk_drop(w, m, (count - 1) << LSK_META_COUNT_SHIFT, &eth_drops[v]);
}

/* How many frames of pkts[0, n), from the first on, are the fast path's
 * (no trains): they are taken as a block, with nothing to store or count
 * per frame here. A function of its own: its loop keeps everything in
 * registers. */
static __rte_noinline uint16_t
eth_fast_prefix(struct rte_mbuf **pkts, uint16_t n, uint16_t port,
		uint64_t mac48)
{
	/* the frames LSK_RX_AHEAD on are asked for with no test, as
	 * lsk_rx_prefetch would ask for them, up to the burst's end */
	const uint32_t ahead_end = n > LSK_RX_AHEAD ? n - LSK_RX_AHEAD : 0;
	uint32_t i;

	for (i = 0; i < ahead_end; i++) {
		const struct rte_mbuf *m = pkts[i];

		if (unlikely(!lsk_eth_fast(m,
				rte_pktmbuf_mtod(m, const uint8_t *),
				port, mac48)))
			return (uint16_t)i;
		lsk_rx_prefetch_frame(pkts[i + LSK_RX_AHEAD]);
	}
	for (; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];

		if (unlikely(!lsk_eth_fast(m,
				rte_pktmbuf_mtod(m, const uint8_t *),
				port, mac48)))
			break;
	}
	return (uint16_t)i;
}

/*
 * The loop, with trains (members given) or without. The common frame, an
 * untagged IPv4 frame to its port's MAC from the port of the run before
 * it, is decided by one test of words kept in registers (the run's port
 * and MAC); every other frame takes the full path, in the order the
 * full path always had: the ARP that ends the list, the port's run, the
 * classification. An IPv4 ethertype is never ARP, and a port equal to
 * the run's was found in the table when the run began.
 */
static __rte_always_inline uint16_t
eth_input_loop(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	       const uint8_t *members, struct lsk_list *const next[],
	       const bool trains)
{
	struct lsk_list *ip4 = next[LSK_ETH_NEXT_IP4];
	const struct lsk_fwd_table *t = w->fwd;
	const uint16_t mcast_ports = w->host != NULL ?
				     lsk_host_mcast_ports(w->host) : 0;
	/* counts kept in registers: increments through memory would chain
	 * every packet to the one before by store forwarding */
	uint32_t n_ip4 = ip4->n;
	uint32_t frames = 0, run = 0;
	/* the first frame's port starts the first run */
	uint16_t i, run_port = n != 0 ? pkts[0]->port : UINT16_MAX;
	uint64_t run_mac = n != 0 ? lsk_eth_port_mac48(t, run_port) : UINT64_MAX;

	lsk_rx_prefetch_start(pkts, n);
	i = 0;
	/* a few frames (single mode's one) are not worth the call */
	if (!trains && n >= LSK_RX_AHEAD) {
		i = eth_fast_prefix(pkts, n, run_port, run_mac);
		memcpy(&ip4->pkts[n_ip4], pkts, i * sizeof(pkts[0]));
		memset(&ip4->meta[n_ip4], 0, i * sizeof(ip4->meta[0]));
		n_ip4 += i;
		run = i;
	}
	for (; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		/* datagrams chained behind m, a train's only */
		uint32_t extra = trains ? members[i] : 0;
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
		enum eth_verdict v;
		uint32_t meta;

		if (likely(lsk_eth_fast(m, p, run_port, run_mac))) {
			lsk_rx_prefetch(pkts, i, n);
			run += 1 + extra;
			ip4->pkts[n_ip4] = m;
			ip4->meta[n_ip4] = extra << LSK_META_COUNT_SHIFT;
			n_ip4++;
			continue;
		}
		/* as netif_receive_skb_list: ARP after IPv4 ends the list,
		 * so an ARP reply is learnt before what came after it and
		 * never before what came before */
		if (unlikely(n_ip4 != 0 && eth_ends_round(m)))
			break;
		lsk_rx_prefetch(pkts, i, n);
		if (unlikely(m->port != run_port)) {
			if (run_port < LSK_MAX_PORTS)
				w->stats.ports[run_port].rx += run;
			frames += run;
			run_port = m->port;
			run_mac = lsk_eth_port_mac48(t, run_port);
			run = 0;
		}
		run += 1 + extra;
		v = eth_classify(t, m, &meta, mcast_ports);
		if (likely(v == ETH_IP4)) {
			ip4->pkts[n_ip4] = m;
			ip4->meta[n_ip4] = meta | extra << LSK_META_COUNT_SHIFT;
			n_ip4++;
		} else if (v < ETH_DROP_RUNT) {
			/* a train here is IPv6's (udp/udp4_gro_rx.c) */
			lsk_list_push(next[v], m,
				      meta | extra << LSK_META_COUNT_SHIFT);
		} else {
			eth_drop(w, m, v, 1 + extra);
		}
	}
	if (run_port < LSK_MAX_PORTS)
		w->stats.ports[run_port].rx += run;
	frames += run;
	ip4->n = n_ip4;
	w->stats.eth.InFrames += frames;
	return i;
}

uint16_t
lsk_eth_input(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	      const uint8_t *members,
	      struct lsk_list *const next[LSK_ETH_NEXT_COUNT])
{
	if (members != NULL)
		return eth_input_loop(w, pkts, n, members, next, true);
	return eth_input_loop(w, pkts, n, NULL, next, false);
}
