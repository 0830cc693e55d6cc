/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ND's messages we send (RFC 4861 4): neighbour solicitations (to
 * resolve, to probe a stale entry, DAD's probes), neighbour
 * advertisements, router advertisements; each a new mbuf with its
 * Ethernet, IPv6 (hop limit 255) and ICMPv6 headers and its options,
 * queued for TX (an NA to a unicast address through the neighbour
 * table, lsk_nd6_resolve).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/fwd6.h"
#include "core/tx.h"
#include "core/worker.h"
#include "ip6/nd6_priv.h"

#define ND6_OPT_SLLA 1
#define ND6_OPT_TLLA 2
#define ND6_OPT_PREFIX 3
#define ND6_OPT_MTU 5
/* NA's flags, in its first byte */
#define ND6_NA_ROUTER 0x80
#define ND6_NA_SOLICITED 0x40
#define ND6_NA_OVERRIDE 0x20
/* RFC 4861 6.2.1's defaults, as Linux's */
#define ND6_RA_LIFETIME_S 1800
#define ND6_RA_HOP_LIMIT 64
#define ND6_PREFIX_VALID_S 2592000u
#define ND6_PREFIX_PREFERRED_S 604800u

static const struct lsk_ip6_addr all_nodes = { .a = { 0xff, 0x02,
	[15] = 1 } };

void
nd6_solicited_node(const struct lsk_ip6_addr *addr,
		   struct lsk_ip6_addr *group, struct rte_ether_addr *mac)
{
	*group = (struct lsk_ip6_addr){ .a = { 0xff, 0x02, [11] = 1,
		[12] = 0xff, [13] = addr->a[13], [14] = addr->a[14],
		[15] = addr->a[15] } };
	if (mac != NULL)
		*mac = (struct rte_ether_addr){ .addr_bytes = { 0x33, 0x33,
			0xff, addr->a[13], addr->a[14], addr->a[15] } };
}

/* A multicast group's MAC (RFC 2464 7). */
static void
nd6_group_mac(const struct lsk_ip6_addr *group, struct rte_ether_addr *mac)
{
	*mac = (struct rte_ether_addr){ .addr_bytes = { 0x33, 0x33,
		group->a[12], group->a[13], group->a[14], group->a[15] } };
}

/*
 * A new frame from src to dst with room for an ICMPv6 message of len
 * bytes (returned zeroed, its type set), or NULL (nd.OutDiscards).
 */
static uint8_t *
nd6_frame(struct lsk_worker *w, struct rte_mempool *pool,
	  const struct lsk_ip6_addr *src, const struct lsk_ip6_addr *dst,
	  uint8_t type, uint16_t len, struct rte_mbuf **mp)
{
	struct rte_ipv6_hdr *ip;
	struct rte_mbuf *m;
	uint8_t *icmp;

	if (pool == NULL)
		pool = w->sh->send_pool;
	m = pool != NULL ? rte_pktmbuf_alloc(pool) : NULL;
	if (m == NULL || rte_pktmbuf_tailroom(m) <
			 RTE_ETHER_HDR_LEN + sizeof(*ip) + len) {
		rte_pktmbuf_free(m);
		w->stats.nd.OutDiscards++;
		return NULL;
	}
	m->data_len = m->pkt_len = RTE_ETHER_HDR_LEN + sizeof(*ip) + len;
	rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->ether_type =
		RTE_BE16(RTE_ETHER_TYPE_IPV6);
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
				     RTE_ETHER_HDR_LEN);
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(len);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = 255;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, dst, 16);
	icmp = (uint8_t *)(ip + 1);
	memset(icmp, 0, len);
	icmp[0] = type;
	*mp = m;
	return icmp;
}

/* An option with our MAC on iface. */
static void
nd6_lla_opt(const struct lsk_worker *w, uint8_t *o, uint8_t type,
	    uint16_t iface)
{
	o[0] = type;
	o[1] = 1;
	memcpy(o + 2, &w->fwd->ifaces[iface].mac, RTE_ETHER_ADDR_LEN);
}

/* Sum the message and send m to mac (counted: ip6 out, icmp6 out). */
static void
nd6_send(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m,
	 const struct rte_ether_addr *mac)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eh + 1);
	uint8_t *icmp = (uint8_t *)(ip + 1);
	uint16_t sum;

	sum = rte_ipv6_udptcp_cksum(ip, icmp);
	memcpy(icmp + 2, &sum, 2);
	w->stats.ip6.OutRequests++;
	w->stats.icmp6.OutMsgs++;
	if (ip->dst_addr[0] == 0xff)
		w->stats.ip6.OutMcastPkts++;
	if (mac == NULL) {
		/* unicast and unresolved: through the table */
		struct lsk_ip6_addr dst;

		memcpy(&dst, ip->dst_addr, 16);
		lsk_nd6_resolve(w, &dst, iface, m);
		return;
	}
	eh->dst_addr = *mac;
	eh->src_addr = w->fwd->ifaces[iface].mac;
	lsk_tx_enqueue(w, iface, m);
}

void
nd6_send_ns(struct lsk_worker *w, uint16_t iface,
	    const struct lsk_ip6_addr *target,
	    const struct rte_ether_addr *to, struct rte_mempool *pool)
{
	const struct lsk_ifaddr6 *src =
		lsk_fwd6_source(w->fwd6, target, iface);
	struct lsk_ip6_addr group;
	struct rte_ether_addr mac;
	struct rte_mbuf *m;
	uint8_t *icmp;

	nd6_solicited_node(target, &group, &mac);
	if (src == NULL) {
		w->stats.nd.OutDiscards++;	/* no address to ask from */
		return;
	}
	icmp = nd6_frame(w, pool, &src->addr, to != NULL ? target : &group,
			 LSK_ND_NEIGHBOR_SOLICIT, 32, &m);
	if (icmp == NULL)
		return;
	memcpy(icmp + 8, target, 16);
	nd6_lla_opt(w, icmp + 24, ND6_OPT_SLLA, iface);
	w->stats.icmp6.OutNeighborSolicits++;
	nd6_send(w, iface, m, to != NULL ? to : &mac);
}

void
nd6_send_dad(struct lsk_worker *w, uint16_t iface,
	     const struct lsk_ip6_addr *target)
{
	static const struct lsk_ip6_addr unspecified;
	struct lsk_ip6_addr group;
	struct rte_ether_addr mac;
	struct rte_mbuf *m;
	uint8_t *icmp;

	nd6_solicited_node(target, &group, &mac);
	icmp = nd6_frame(w, NULL, &unspecified, &group,
			 LSK_ND_NEIGHBOR_SOLICIT, 24, &m);
	if (icmp == NULL)
		return;
	memcpy(icmp + 8, target, 16);
	w->stats.icmp6.OutNeighborSolicits++;
	w->stats.nd.DadProbes++;
	nd6_send(w, iface, m, &mac);
}

void
nd6_send_na(struct lsk_worker *w, uint16_t iface,
	    const struct lsk_ip6_addr *target, const struct lsk_ip6_addr *dst,
	    const struct rte_ether_addr *mac, bool solicited,
	    struct rte_mempool *pool)
{
	struct rte_ether_addr group_mac;
	struct rte_mbuf *m;
	uint8_t *icmp;

	icmp = nd6_frame(w, pool, target, dst, LSK_ND_NEIGHBOR_ADVERT, 32, &m);
	if (icmp == NULL)
		return;
	/* we are a router; our link-layer address is the one to use */
	icmp[4] = ND6_NA_ROUTER | ND6_NA_OVERRIDE |
		  (solicited ? ND6_NA_SOLICITED : 0);
	memcpy(icmp + 8, target, 16);
	nd6_lla_opt(w, icmp + 24, ND6_OPT_TLLA, iface);
	w->stats.icmp6.OutNeighborAdvertisements++;
	if (lsk_ip6_is_multicast(dst)) {
		nd6_group_mac(dst, &group_mac);
		mac = &group_mac;
	}
	nd6_send(w, iface, m, mac);
}

/* The prefix information options of iface's global /64s (each once). */
static uint16_t
nd6_ra_prefixes(const struct lsk_fwd6_table *t, uint16_t iface, uint8_t *o,
		uint16_t room)
{
	const rte_be32_t valid = RTE_BE32(ND6_PREFIX_VALID_S);
	const rte_be32_t preferred = RTE_BE32(ND6_PREFIX_PREFERRED_S);
	uint16_t len = 0;
	uint32_t i, j;

	memset(o, 0, room);
	for (i = 0; i < t->n_addrs && len + 32 <= room; i++) {
		const struct lsk_ifaddr6 *a = &t->addrs[i];
		bool seen = false;

		if (a->iface != iface || a->depth != 64 ||
		    (a->flags & LSK_IFA6_LINKLOCAL))
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = t->addrs[j].iface == iface &&
			       t->addrs[j].depth == 64 &&
			       memcmp(&t->addrs[j].addr, &a->addr, 8) == 0 &&
			       !(t->addrs[j].flags & LSK_IFA6_LINKLOCAL);
		if (seen)
			continue;
		o[len] = ND6_OPT_PREFIX;
		o[len + 1] = 4;
		o[len + 2] = 64;
		o[len + 3] = 0xc0;	/* on-link, autonomous */
		memcpy(o + len + 4, &valid, sizeof(valid));
		memcpy(o + len + 8, &preferred, sizeof(preferred));
		memcpy(o + len + 16, &a->addr, 8);
		len += 32;
	}
	return len;
}

/* The most prefixes one RA carries: it stays well under 1280 bytes. */
#define ND6_RA_PREFIXES_MAX 16

void
nd6_send_ra(struct lsk_worker *w, uint16_t iface, bool final,
	    struct rte_mempool *pool)
{
	const struct lsk_ifaddr6 *src = lsk_fwd6_linklocal(w->fwd6, iface);
	const uint16_t fixed = 16 + 8 + 8;	/* RA, SLLA, MTU */
	const rte_be16_t lifetime = final ? 0 : RTE_BE16(ND6_RA_LIFETIME_S);
	rte_be32_t mtu;
	uint8_t opts[ND6_RA_PREFIXES_MAX * 32];
	struct rte_ether_addr mac;
	struct rte_mbuf *m;
	uint16_t n_pfx;
	uint8_t *icmp;

	if (src == NULL)
		return;
	n_pfx = nd6_ra_prefixes(w->fwd6, iface, opts, sizeof(opts));
	icmp = nd6_frame(w, pool, &src->addr, &all_nodes,
			 LSK_ND_ROUTER_ADVERT, fixed + n_pfx, &m);
	if (icmp == NULL)
		return;
	icmp[4] = ND6_RA_HOP_LIMIT;
	/* the ICMPv6 header may sit at any alignment (a VLAN's, an
	 * extension's): the fields are copied, not stored as words */
	memcpy(icmp + 6, &lifetime, sizeof(lifetime));
	nd6_lla_opt(w, icmp + 16, ND6_OPT_SLLA, iface);
	icmp[24] = ND6_OPT_MTU;
	icmp[25] = 1;
	mtu = rte_cpu_to_be_32(w->fwd->ifaces[iface].mtu);
	memcpy(icmp + 28, &mtu, sizeof(mtu));
	memcpy(icmp + fixed, opts, n_pfx);
	w->stats.icmp6.OutRouterAdvertisements++;
	nd6_group_mac(&all_nodes, &mac);
	nd6_send(w, iface, m, &mac);
}
