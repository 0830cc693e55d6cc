/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP over IPv6: the member of a group next hop (LSK_NH_GROUP,
 * core/fwd6.h) a packet takes, as IPv4's (ip4/ecmp.h) with the same
 * mixing, buckets and member choice (core/ecmp.h). The flow is (src,
 * dst, next header, sport, dport): the ports only when the next header
 * is TCP, UDP or SCTP, so that a datagram with extension headers, and
 * every piece of a fragmented one (its next header 44, the first piece
 * too), hashes on its addresses and next header alone and takes one
 * path. The flow label is left out: a host may change it during a
 * connection (Linux does on a timeout, to move the flow), and listack's
 * paths stay IPv4's, deterministic for a flow's 5-tuple; the NIC's RSS
 * hash is taken where the mbuf has one. A member whose port is admin
 * down, or whose neighbour failed, is skipped.
 */
#ifndef LSK_IP6_ECMP6_H
#define LSK_IP6_ECMP6_H

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/ecmp.h"
#include "core/fwd.h"
#include "core/fwd6.h"

struct lsk_nd6_table;

/* The hash of a flow's fields (addresses in network order, ports host
 * order; ports 0 unless lsk_ecmp_has_ports(proto)). */
static inline uint32_t
lsk_ecmp6_flow_hash(const uint8_t *src, const uint8_t *dst, uint8_t proto,
		    uint16_t sport, uint16_t dport)
{
	uint64_t q[4];
	uint32_t h;

	/* copied: the header's addresses are 2-byte aligned at best */
	memcpy(q, src, 16);
	memcpy(q + 2, dst, 16);
	h = rte_hash_crc_8byte(q[0], 0x6c6b7336u);
	h = rte_hash_crc_8byte(q[1], h);
	h = rte_hash_crc_8byte(q[2], h);
	h = rte_hash_crc_8byte(q[3], h);
	h = rte_hash_crc_4byte(proto, h);
	h = rte_hash_crc_4byte((uint32_t)sport << 16 | dport, h);
	return lsk_ecmp_mix(h);
}

/* The flow hash of m, an IPv6 datagram after an untagged Ethernet
 * header whose header ip6_input checked. */
static inline uint32_t
lsk_ecmp6_pkt_hash(const struct rte_mbuf *m)
{
	const struct rte_ipv6_hdr *ip;
	uint16_t sport = 0, dport = 0;

	if (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH)
		return lsk_ecmp_mix(m->hash.rss);
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
				     RTE_ETHER_HDR_LEN);
	if (lsk_ecmp_has_ports(ip->proto) &&
	    m->data_len >= RTE_ETHER_HDR_LEN + sizeof(*ip) + 4) {
		const uint8_t *l4 = (const uint8_t *)(ip + 1);

		sport = (uint16_t)(l4[0] << 8 | l4[1]);
		dport = (uint16_t)(l4[2] << 8 | l4[3]);
	}
	return lsk_ecmp6_flow_hash(ip->src_addr, ip->dst_addr, ip->proto,
				   sport, dport);
}

/* Member nh of a group of t is live: its port up (ports: IPv4's table,
 * the interfaces' one copy), its neighbour not failed. */
bool lsk_ecmp6_live(const struct lsk_fwd_table *ports,
		    const struct lsk_fwd6_table *t,
		    const struct lsk_nd6_table *nd, uint32_t nh, uint64_t now);
/* The first live member in the buckets after k (the one at k when none
 * is). */
uint32_t lsk_ecmp6_pick_slow(const struct lsk_fwd_table *ports,
			     const struct lsk_fwd6_table *t,
			     const struct lsk_nd6_table *nd,
			     const struct lsk_nexthop6 *g, uint32_t k,
			     uint64_t now);

/* The member next hop index of group g for a flow hash (now: the TSC,
 * for the neighbours' failed time). */
static inline uint32_t
lsk_ecmp6_pick(const struct lsk_fwd_table *ports,
	       const struct lsk_fwd6_table *t, const struct lsk_nd6_table *nd,
	       const struct lsk_nexthop6 *g, uint32_t hash, uint64_t now)
{
	const uint16_t *b = &t->group_words[g->group + g->n_members];
	uint32_t k = lsk_ecmp_bucket(hash, g->n_buckets);

	if (likely(lsk_ecmp6_live(ports, t, nd, b[k], now)))
		return b[k];
	return lsk_ecmp6_pick_slow(ports, t, nd, g, k, now);
}

#endif /* LSK_IP6_ECMP6_H */
