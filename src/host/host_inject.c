/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inject: what the kernel sent on a TAP (read by the host thread onto the
 * inject ring) leaves through listack's own output, on worker 0 after
 * each burst: unicast IPv4 to ip4_output (routed by listack's table,
 * resolved by its ARP, counted, captured), multicast and broadcast at
 * once out of the TAP's interface with the group's (or the broadcast)
 * MAC, since no route names a group. ARP is dropped: listack answers and
 * asks on the wire itself (the TAPs are IFF_NOARP, so the kernel sends
 * none but by hand). IPv6 goes whole to ip6_output (unicast routed and
 * resolved by listack's ND; link-local and multicast out of the TAP's
 * interface, which ip6_output takes from m->port), but for neighbour
 * discovery's own messages (ICMPv6 133-137, right behind the header or
 * behind extension headers), dropped as ARP is: listack
 * owns ND on the wire (tap.c says why the kernel sends next to none).
 * What is neither is dropped too.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/drop.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/tx.h"
#include "core/worker.h"
#include "host/host.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"
#include "ip6/nd6.h"


/* A group's MAC (RFC 1112: 01:00:5e and the group's low 23 bits), or
 * the broadcast MAC for a broadcast. */
static void
host_group_mac(uint32_t dst, struct rte_ether_addr *mac)
{
	if ((dst >> 28) != 0xe) {
		memset(mac, 0xff, sizeof(*mac));
		return;
	}
	mac->addr_bytes[0] = 0x01;
	mac->addr_bytes[1] = 0x00;
	mac->addr_bytes[2] = 0x5e;
	mac->addr_bytes[3] = (uint8_t)((dst >> 16) & 0x7f);
	mac->addr_bytes[4] = (uint8_t)(dst >> 8);
	mac->addr_bytes[5] = (uint8_t)dst;
}

/* Is the kernel's datagram (its payload all there) neighbour discovery,
 * right behind its header or behind extension headers (the chain walked
 * as ip6_input walks it, ip6/ip6_ext.h)? */
static bool
host_is_nd6(const struct rte_mbuf *m, const struct rte_ipv6_hdr *ip)
{
	uint32_t off = sizeof(*ip);
	struct lsk_ip6_chain c;
	uint8_t type;

	if (ip->proto != LSK_IP6_ICMP) {
		if (!lsk_ip6_is_ext(ip->proto) ||
		    lsk_ip6_chain_walk(m, RTE_ETHER_HDR_LEN, sizeof(*ip) +
				       rte_be_to_cpu_16(ip->payload_len), 0,
				       &c) != LSK_CHAIN_OK ||
		    c.proto != LSK_IP6_ICMP)
			return false;
		off = c.off;
	}
	if (m->data_len <= RTE_ETHER_HDR_LEN + off)
		return false;
	type = rte_pktmbuf_mtod_offset(m, const uint8_t *,
				       RTE_ETHER_HDR_LEN + off)[0];
	return type >= LSK_ND_ROUTER_SOLICIT && type <= LSK_ND_REDIRECT;
}

/* An IPv6 frame from the kernel (m->data_len holds its IPv6 header):
 * -1 dropped (neighbour discovery; not IPv6, or shorter than its payload
 * length says: DropsNotIp4), 2 for ip6_output, its data moved to the
 * IPv6 header. */
static int
host_inject_one6(struct lsk_worker *w, struct rte_mbuf *m)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);

	/* what ip6_output reads: its version, all of its payload */
	if ((ip->vtc_flow & RTE_BE32(0xf0000000)) != RTE_BE32(0x60000000) ||
	    RTE_ETHER_HDR_LEN + sizeof(*ip) +
	    rte_be_to_cpu_16(ip->payload_len) > m->pkt_len) {
		lsk_drop(w, m, 0, &lsk_host_drop_rows[LSK_HOST_DROP_NOT_IP4]);
		return -1;
	}
	if (host_is_nd6(m, ip)) {
		lsk_drop(w, m, 0, &lsk_host_drop_rows[LSK_HOST_DROP_ND]);
		return -1;
	}
	w->stats.host.FromKernel++;
	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
	return 2;
}

/* What to do with one frame: -1 dropped, 0 sent, 1 for ip4_output, 2
 * for ip6_output. */
static int
host_inject_one(struct lsk_worker *w, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip;
	uint16_t iface = m->port;
	uint32_t dst;

	if (m->data_len >= RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv6_hdr) &&
	    eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) &&
	    lsk_host_wants(w->host, iface))
		return host_inject_one6(w, m);
	if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip) ||
	    !lsk_host_wants(w->host, iface) ||
	    eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		lsk_drop(w, m, 0, &lsk_host_drop_rows[
			 m->data_len >= RTE_ETHER_HDR_LEN &&
			 eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_ARP) ?
			 LSK_HOST_DROP_ARP : LSK_HOST_DROP_NOT_IP4]);
		return -1;
	}
	ip = (const struct rte_ipv4_hdr *)(eh + 1);
	if ((ip->version_ihl >> 4) != 4) {
		lsk_drop(w, m, 0, &lsk_host_drop_rows[LSK_HOST_DROP_NOT_IP4]);
		return -1;
	}
	w->stats.host.FromKernel++;
	dst = rte_be_to_cpu_32(ip->dst_addr);
	if ((dst >> 28) != 0xe && !lsk_fwd_is_broadcast(w->fwd, dst))
		return 1;
	/* a group or a broadcast: on the link it was sent on */
	host_group_mac(dst, &eh->dst_addr);
	eh->src_addr = w->fwd->ifaces[iface].mac;
	lsk_tx_enqueue(w, iface, m);
	return 0;
}

unsigned int
lsk_host_inject_take(struct lsk_worker *w, struct rte_mbuf **out,
		     struct rte_mbuf **out6, unsigned int *n6)
{
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	unsigned int i, n, k = 0;
	int v;

	*n6 = 0;
	if (w->host == NULL)
		return 0;
	n = rte_ring_sc_dequeue_burst(w->host->host->inject, (void **)pkts,
				      LSK_BURST_MAX, NULL);
	/* a trace takes them as received on the TAP's interface */
	lsk_trace_rx(w, pkts, (uint16_t)n);
	for (i = 0; i < n; i++) {
		v = host_inject_one(w, pkts[i]);
		if (v == 1)
			out[k++] = pkts[i];
		else if (v == 2)
			out6[(*n6)++] = pkts[i];
	}
	return k;
}
