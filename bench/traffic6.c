/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bench's traffic over IPv6 (fwd6, gro6-fwd): traffic.c's flows with
 * their 32-bit fields carried in IPv6 addresses, so that a flow, a route
 * and a destination host mean the same in both families:
 *
 *   port 0  2001:db8:a::1/64, senders 2001:db8:a::S (S: the IPv4 sender's
 *           address as the low 32 bits)
 *   port 1  2001:db8:b::1/64, gateway 2001:db8:b::2 (02:00:00:00:02:02)
 *   route k 2001:db8:P::/56 (P: route k's IPv4 /24 as 32 bits, so the
 *           /56 is 32 + 24 bits), via the gateway; destination host h of
 *           the route is the 8 bits below the /56, interface ::1
 *
 * Only the 32-bit fields change from flow to flow: the generator writes
 * them and the UDP checksum from the sum of the rest (bench.h,
 * bench_write_headers6), as it does for IPv4.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_thash.h>
#include <rte_udp.h>

#include "bench.h"

static const uint8_t src_prefix[12] = {
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0a, 0, 0, 0, 0, 0, 0,
};
static const uint8_t dst_head[4] = { 0x20, 0x01, 0x0d, 0xb8 };
static const uint8_t dst_tail[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };

void
bench_ip6_src(const struct bench_traffic *t, uint32_t v, uint8_t a[16])
{
	uint32_t be = rte_cpu_to_be_32(v);

	(void)t;
	memcpy(a, src_prefix, 12);
	memcpy(a + 12, &be, 4);
}

void
bench_ip6_dst(uint32_t v, uint8_t a[16])
{
	uint32_t be = rte_cpu_to_be_32(v);

	memcpy(a, dst_head, 4);
	memcpy(a + 4, &be, 4);
	memcpy(a + 8, dst_tail, 8);
}

int
bench_traffic_init6(struct bench_traffic *t)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)t->hdr;
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eh + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint8_t payload[RTE_ETHER_HDR_LEN + 1500];
	unsigned int j;

	if (t->size < BENCH_HDR6_LEN) {
		fprintf(stderr, "--size: at least %u bytes for IPv6 "
			"(Ethernet, IPv6 and UDP headers)\n", BENCH_HDR6_LEN);
		return -EINVAL;
	}
	t->ip6 = true;
	t->hdr_len = BENCH_HDR6_LEN;
	t->ip_len = (uint16_t)(t->size - RTE_ETHER_HDR_LEN);
	t->udp_len = (uint16_t)(t->ip_len - sizeof(*ip));
	t->payload_len = (uint16_t)(t->udp_len - sizeof(*udp));
	memset(t->hdr, 0, sizeof(t->hdr));
	eh->dst_addr = t->port_mac[0];
	eh->src_addr = t->client_mac;
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(t->udp_len);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = t->ttl;
	bench_ip6_src(t, 0, ip->src_addr);
	bench_ip6_dst(0, ip->dst_addr);
	udp->dst_port = RTE_BE16(BENCH_UDP_DPORT);
	udp->dgram_len = rte_cpu_to_be_16(t->udp_len);

	/* the pseudo header's fixed parts (the addresses with their 32-bit
	 * fields zero, protocol, length), the UDP length field, the
	 * payload */
	for (j = 0; j < t->payload_len; j++)
		payload[j] = (uint8_t)(j * 7 + 1);
	t->ip_base_sum = 0;
	t->udp_base_sum = rte_raw_cksum(ip->src_addr, 32) +
			  rte_raw_cksum(payload, t->payload_len) +
			  rte_cpu_to_be_16(IPPROTO_UDP) +
			  2u * rte_cpu_to_be_16(t->udp_len);
	return 0;
}

uint32_t
bench_rss_v6(const uint8_t *src, const uint8_t *dst, uint16_t sport,
	     uint16_t dport, bool l4)
{
	union rte_thash_tuple tuple;
	unsigned int i;

	memset(&tuple, 0, sizeof(tuple));
	/* rte_softrss wants the tuple as host-order 32-bit words */
	for (i = 0; i < 4; i++) {
		uint32_t w;

		memcpy(&w, src + 4 * i, 4);
		((uint32_t *)tuple.v6.src_addr)[i] = rte_be_to_cpu_32(w);
		memcpy(&w, dst + 4 * i, 4);
		((uint32_t *)tuple.v6.dst_addr)[i] = rte_be_to_cpu_32(w);
	}
	tuple.v6.sport = sport;
	tuple.v6.dport = dport;
	return rte_softrss((uint32_t *)&tuple, l4 ? RTE_THASH_V6_L4_LEN :
			   RTE_THASH_V6_L3_LEN, bench_rss_key);
}

bool
bench_nd_upkeep(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh;

	if (m->data_len < RTE_ETHER_HDR_LEN)
		return false;
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	return eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) &&
	       eh->dst_addr.addr_bytes[0] == 0x33 &&
	       eh->dst_addr.addr_bytes[1] == 0x33;
}

#define CHECK(cond, ...) do {					\
	if (!(cond)) {						\
		snprintf(why, len, __VA_ARGS__);		\
		return false;					\
	}							\
} while (0)

bool
bench_check_forwarded6(const struct bench_traffic *t,
		       const struct rte_mbuf *m, uint16_t out_port,
		       char *why, size_t len)
{
	const struct rte_ether_hdr *eh;
	const struct rte_ipv6_hdr *ip;
	const struct rte_udp_hdr *udp;
	uint32_t dst, k;

	CHECK(out_port == 1, "sent out port %u, not port 1", out_port);
	CHECK(m->nb_segs == 1 && m->pkt_len == t->size &&
	      m->data_len == t->size, "frame of %u bytes (%u segs), not %u",
	      m->pkt_len, m->nb_segs, t->size);
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	ip = (const struct rte_ipv6_hdr *)(eh + 1);
	udp = (const struct rte_udp_hdr *)(ip + 1);
	CHECK(rte_is_same_ether_addr(&eh->dst_addr, &t->gw_mac) &&
	      rte_is_same_ether_addr(&eh->src_addr, &t->port_mac[1]),
	      "macs not the gateway's <- port 1's (misrouted)");
	CHECK(eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6),
	      "ethertype 0x%04x", rte_be_to_cpu_16(eh->ether_type));
	CHECK(rte_be_to_cpu_32(ip->vtc_flow) >> 28 == 6, "version %u",
	      rte_be_to_cpu_32(ip->vtc_flow) >> 28);
	CHECK(ip->hop_limits == t->ttl - 1, "hop limit %u, not %u",
	      ip->hop_limits, t->ttl - 1);
	CHECK(rte_be_to_cpu_16(ip->payload_len) == t->udp_len &&
	      ip->proto == IPPROTO_UDP, "payload length %u, next header %u",
	      rte_be_to_cpu_16(ip->payload_len), ip->proto);
	CHECK(memcmp(ip->src_addr, src_prefix, 12) == 0,
	      "source is none of ours");
	memcpy(&dst, ip->dst_addr + 4, 4);
	dst = rte_be_to_cpu_32(dst);
	k = (dst - t->route_base) >> 8;
	CHECK(memcmp(ip->dst_addr, dst_head, 4) == 0 &&
	      memcmp(ip->dst_addr + 8, dst_tail, 8) == 0 &&
	      dst >= t->route_base && k < t->routes && (dst & 0xff) >= 1 &&
	      (dst & 0xff) <= BENCH_DST_HOSTS,
	      "destination is none of ours");
	CHECK(bench_fold(rte_ipv6_phdr_cksum(ip, 0) +
			 rte_raw_cksum(udp, t->udp_len)) == 0xffff,
	      "UDP datagram changed (checksum no longer verifies)");
	return true;
}
