/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, reading headers: which packets an armed trace's match
 * takes (lsk_trace_matches, asked by the RX claim in core/trace.c for
 * each packet of a traced burst), and the header peeks and address
 * formats the stages' formatters use (core/trace.h). Every length is
 * checked before a header is read: a trace sees the frames as they
 * came, hostile ones too.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/trace.h"
#include "core/trace_rec.h"

void
lsk_trace_addr(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
		 (a >> 8) & 0xff, a & 0xff);
}

/* The IPv4 header of an untagged frame in its first segment, or NULL. */
static const struct rte_ipv4_hdr *
frame_ip4(const struct rte_mbuf *m, uint32_t off)
{
	const struct rte_ipv4_hdr *ip;

	if (m->data_len < off + sizeof(*ip))
		return NULL;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, off);
	if ((ip->version_ihl >> 4) != 4)
		return NULL;
	return ip;
}

const struct rte_ipv4_hdr *
lsk_trace_ip4(const struct rte_mbuf *m)
{
	return frame_ip4(m, RTE_ETHER_HDR_LEN);
}

const struct rte_ipv6_hdr *
lsk_trace_ip6(const struct rte_mbuf *m)
{
	const struct rte_ipv6_hdr *ip;

	if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip))
		return NULL;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
				     RTE_ETHER_HDR_LEN);
	if ((((const uint8_t *)ip)[0] >> 4) != 6)
		return NULL;
	return ip;
}

void
lsk_trace_addr6(const uint8_t a[16], char *buf, size_t len)
{
	if (inet_ntop(AF_INET6, a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

/* Source and destination ports, when m's first segment has them. */
static bool
frame_ports(const struct rte_mbuf *m, uint32_t off,
	    const struct rte_ipv4_hdr *ip, uint16_t *sp, uint16_t *dp)
{
	uint32_t hlen = (ip->version_ihl & 0xf) * 4u;
	const uint8_t *p;

	if ((ip->next_proto_id != IPPROTO_UDP &&
	     ip->next_proto_id != IPPROTO_TCP) ||
	    (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK)) != 0 ||
	    m->data_len < off + hlen + 4)
		return false;
	p = (const uint8_t *)ip + hlen;
	*sp = (uint16_t)(p[0] << 8 | p[1]);
	*dp = (uint16_t)(p[2] << 8 | p[3]);
	return true;
}

/* a's first depth bits are prefix's */
static bool
prefix6_has(const uint8_t *prefix, uint8_t depth, const uint8_t *a)
{
	unsigned int full = depth / 8u, rest = depth % 8u;

	if (memcmp(prefix, a, full) != 0)
		return false;
	return rest == 0 ||
	       ((a[full] ^ prefix[full]) & (uint8_t)(0xff00u >> rest)) == 0;
}

/* trace_match's IPv6 half: addresses, the first next header, and the
 * ports of UDP or TCP right behind the fixed header. */
static bool
trace_match6(const struct lsk_trace_match *mt, const struct rte_mbuf *m,
	     uint32_t off)
{
	const struct rte_ipv6_hdr *ip;
	const uint8_t *p;

	if ((mt->fields & (LSK_TM_SRC | LSK_TM_DST)) ||
	    m->data_len < off + sizeof(*ip))
		return false;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, off);
	if ((((const uint8_t *)ip)[0] >> 4) != 6)
		return false;
	if ((mt->fields & LSK_TM_SRC6) &&
	    !prefix6_has(mt->src6, mt->src6_depth, ip->src_addr))
		return false;
	if ((mt->fields & LSK_TM_DST6) &&
	    !prefix6_has(mt->dst6, mt->dst6_depth, ip->dst_addr))
		return false;
	if ((mt->fields & LSK_TM_PROTO) && ip->proto != mt->proto)
		return false;
	if (!(mt->fields & (LSK_TM_SPORT | LSK_TM_DPORT)))
		return true;
	if ((ip->proto != IPPROTO_UDP && ip->proto != IPPROTO_TCP) ||
	    m->data_len < off + sizeof(*ip) + 4)
		return false;
	p = (const uint8_t *)(ip + 1);
	return (!(mt->fields & LSK_TM_SPORT) ||
		(uint16_t)(p[0] << 8 | p[1]) == mt->sport) &&
	       (!(mt->fields & LSK_TM_DPORT) ||
		(uint16_t)(p[2] << 8 | p[3]) == mt->dport);
}

bool
lsk_trace_matches(const struct lsk_trace_match *mt, const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh;
	const struct rte_ipv4_hdr *ip;
	uint16_t type, vlan = 0, sp, dp;
	uint32_t off = RTE_ETHER_HDR_LEN;

	if (mt->fields == 0)
		return true;
	if ((mt->fields & LSK_TM_PORT) && m->port != mt->port)
		return false;
	if (m->data_len < RTE_ETHER_HDR_LEN)
		return false;
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	type = rte_be_to_cpu_16(eh->ether_type);
	if (type == RTE_ETHER_TYPE_VLAN) {
		const struct rte_vlan_hdr *vh = (const void *)(eh + 1);

		if (m->data_len < RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)
			return false;
		vlan = rte_be_to_cpu_16(vh->vlan_tci) & 0x0fff;
		type = rte_be_to_cpu_16(vh->eth_proto);
		off += RTE_VLAN_HLEN;
	}
	if ((mt->fields & LSK_TM_VLAN) && vlan != mt->vlan)
		return false;
	if (!(mt->fields & (LSK_TM_SRC | LSK_TM_DST | LSK_TM_PROTO |
			    LSK_TM_SPORT | LSK_TM_DPORT | LSK_TM_SRC6 |
			    LSK_TM_DST6)))
		return true;
	if (type == RTE_ETHER_TYPE_IPV6)
		return trace_match6(mt, m, off);
	if ((mt->fields & (LSK_TM_SRC6 | LSK_TM_DST6)) ||
	    type != RTE_ETHER_TYPE_IPV4 || (ip = frame_ip4(m, off)) == NULL)
		return false;
	if ((mt->fields & LSK_TM_SRC) &&
	    (rte_be_to_cpu_32(ip->src_addr) & mt->src_mask) != mt->src)
		return false;
	if ((mt->fields & LSK_TM_DST) &&
	    (rte_be_to_cpu_32(ip->dst_addr) & mt->dst_mask) != mt->dst)
		return false;
	if ((mt->fields & LSK_TM_PROTO) && ip->next_proto_id != mt->proto)
		return false;
	if (!(mt->fields & (LSK_TM_SPORT | LSK_TM_DPORT)))
		return true;
	if (!frame_ports(m, off, ip, &sp, &dp))
		return false;
	return (!(mt->fields & LSK_TM_SPORT) || sp == mt->sport) &&
	       (!(mt->fields & LSK_TM_DPORT) || dp == mt->dport);
}
