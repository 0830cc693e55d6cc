/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP: the member of a group next hop (LSK_NH_GROUP, core/fwd.h) a
 * packet takes. A flow's hash picks a bucket (ip4_route, fwd_fast, and
 * lsk_route_get_flow for the view): the NIC's RSS hash where the mbuf has
 * one, else a hash of (src, dst, proto, sport, dport), of (src, dst,
 * proto) alone for a fragment, so that every fragment of a datagram goes
 * the same way. A member whose port is admin down, or whose neighbour
 * failed (until its entry may be tried again, l2/neigh_table.c), is
 * skipped: the buckets after the chosen one are looked at in turn, and
 * the first live member's taken (deterministic, and in proportion to the
 * weights, as the buckets interleave: control/fwd_group.c). The
 * family-independent half, IPv6's too: core/ecmp.h.
 */
#ifndef LSK_IP4_ECMP_H
#define LSK_IP4_ECMP_H

#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/ecmp.h"
#include "core/fwd.h"

struct lsk_neigh_table;

/* The hash of a flow's fields (host order): ports only for TCP, UDP and
 * SCTP (0 otherwise, and for a fragment). */
static inline uint32_t
lsk_ecmp_flow_hash(uint32_t src, uint32_t dst, uint8_t proto, uint16_t sport,
		   uint16_t dport)
{
	uint32_t h = rte_hash_crc_4byte(src, 0x6c6b7365u);

	h = rte_hash_crc_4byte(dst, h);
	h = rte_hash_crc_4byte(proto, h);
	h = rte_hash_crc_4byte((uint32_t)sport << 16 | dport, h);
	return lsk_ecmp_mix(h);
}

/* The flow hash of m, an IPv4 datagram after an untagged Ethernet
 * header whose IP header ip4_input checked. */
static inline uint32_t
lsk_ecmp_pkt_hash(const struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip;
	uint16_t sport = 0, dport = 0;
	uint32_t hl;

	if (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH)
		return lsk_ecmp_mix(m->hash.rss);
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
				     RTE_ETHER_HDR_LEN);
	hl = (uint32_t)(ip->version_ihl & 0xf) * 4;
	if (lsk_ecmp_has_ports(ip->next_proto_id) &&
	    !(ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG |
						     RTE_IPV4_HDR_OFFSET_MASK)) &&
	    m->data_len >= RTE_ETHER_HDR_LEN + hl + 4) {
		const uint8_t *l4 = (const uint8_t *)ip + hl;

		sport = (uint16_t)(l4[0] << 8 | l4[1]);
		dport = (uint16_t)(l4[2] << 8 | l4[3]);
	}
	return lsk_ecmp_flow_hash(rte_be_to_cpu_32(ip->src_addr),
				  rte_be_to_cpu_32(ip->dst_addr),
				  ip->next_proto_id, sport, dport);
}

/* Member nh of a group is live: its port up, its neighbour not failed. */
bool lsk_ecmp_live(const struct lsk_fwd_table *t,
		   const struct lsk_neigh_table *neigh, uint32_t nh,
		   uint64_t now);
/* The first live member in the buckets after k (the one at k when none
 * is). */
uint32_t lsk_ecmp_pick_slow(const struct lsk_fwd_table *t,
			    const struct lsk_neigh_table *neigh,
			    const struct lsk_nexthop *g, uint32_t k,
			    uint64_t now);

/* The member next hop index of group g for a flow hash (now: the TSC,
 * for the neighbours' failed time). */
static inline uint32_t
lsk_ecmp_pick(const struct lsk_fwd_table *t,
	      const struct lsk_neigh_table *neigh, const struct lsk_nexthop *g,
	      uint32_t hash, uint64_t now)
{
	const uint16_t *b = &t->group_words[g->group + g->n_members];
	uint32_t k = lsk_ecmp_bucket(hash, g->n_buckets);

	if (likely(lsk_ecmp_live(t, neigh, b[k], now)))
		return b[k];
	return lsk_ecmp_pick_slow(t, neigh, g, k, now);
}

#endif /* LSK_IP4_ECMP_H */
