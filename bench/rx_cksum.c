/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The checksum flags a NIC's RX sets, for a PMD that sets none (net_pcap):
 * the sfc PMD reports the IPv4 header checksum and the UDP/TCP checksum of
 * every frame it parsed as GOOD or BAD, and the stack's GRO relies on the
 * GOOD ones (src/udp/gro_run.h, gro_flags_good). Here each checksum is
 * computed in software from the frame as received, so a flag says what the
 * frame's bytes say, never more:
 *
 *   IPv4 header checksum  GOOD or BAD, for an untagged IPv4 frame that
 *                         holds its whole header (IHL >= 5)
 *   UDP checksum          GOOD or BAD, for a UDP datagram of an IPv4
 *                         header that was GOOD, not a fragment, whose UDP
 *                         length fits the IP length and the frame, with a
 *                         non-zero checksum field
 *   UDP over IPv6         GOOD or BAD (no header checksum to flag),
 *                         rx_cksum_flags6
 *   anything else         left UNKNOWN (the stack checks it itself)
 *
 * Frames in more than one segment are left UNKNOWN (net_pcap makes none
 * for frames that fit an mbuf).
 *
 * As sfc with RSS on, the callback also hands over each IPv4 frame's RSS
 * hash (RTE_MBUF_F_RX_RSS_HASH): the Toeplitz hash of its addresses and,
 * for TCP and UDP but fragments, its ports, with the key the ring feed's
 * generator uses (bench_rss_v4), so both feeds give a flow the same hash.
 * The last tuple's hash is kept: a run of one flow computes it once.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <rte_vect.h>

#include "bench.h"

/*
 * The one's complement sum of len bytes at p added to sum (32-bit, not
 * folded), as __rte_raw_cksum gives it, in about a third of its
 * instructions: 16 bytes at a time, each 16-bit word biased by -32768
 * (xor 0x8000) so that the signed pairwise multiply-add by 1 sums them
 * exactly into 32-bit lanes, the bias added back once.
 */
static inline __m128i
rx_sum16(__m128i acc, const uint8_t *b)
{
	const __m128i bias = _mm_set1_epi16((int16_t)0x8000);
	const __m128i one = _mm_set1_epi16(1);

	return _mm_add_epi32(acc, _mm_madd_epi16(_mm_xor_si128(
		_mm_loadu_si128((const __m128i *)b), bias), one));
}

static uint32_t
rx_sum(const void *p, uint32_t len, uint32_t sum)
{
	const uint8_t *b = p;
	const uint8_t *end64 = b + (len & ~63u), *end16 = b + (len & ~15u);
	__m128i acc0 = _mm_setzero_si128(), acc1 = acc0;
	uint64_t total = sum;
	int32_t lane[4];

	/* a lane takes at most 2 * 32768 a block: 65535 bytes fit */
	for (; b != end64; b += 64) {
		acc0 = rx_sum16(acc0, b);
		acc1 = rx_sum16(acc1, b + 16);
		acc0 = rx_sum16(acc0, b + 32);
		acc1 = rx_sum16(acc1, b + 48);
	}
	for (; b != end16; b += 16)
		acc0 = rx_sum16(acc0, b);
	_mm_storeu_si128((__m128i *)lane, _mm_add_epi32(acc0, acc1));
	total += (int64_t)lane[0] + lane[1] + lane[2] + lane[3] +
		 32768 * (uint64_t)(len / 16 * 8);
	for (len &= 15; len >= 2; len -= 2, b += 2) {
		uint16_t w;

		memcpy(&w, b, 2);
		total += w;
	}
	if (len)
		total += *b;	/* the odd byte, as the low one of a word */
	/* 2^16 = 1 modulo 0xffff: the high half is worth its value */
	total = (total & 0xffffffff) + (total >> 32);
	total = (total & 0xffff) + (total >> 16);
	return (uint32_t)total;
}

/*
 * The RSS hash of an IPv4 frame whose header the frame holds (hlen bytes),
 * from e's one-entry memo when the tuple repeats.
 */
static uint32_t
rx_rss(struct bench_feed_work *e, const struct rte_mbuf *m,
       const struct rte_ipv4_hdr *ip, uint32_t hlen)
{
	uint32_t ports = 0;
	bool l4 = (ip->next_proto_id == IPPROTO_UDP ||
		   ip->next_proto_id == IPPROTO_TCP) &&
		  !(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG |
						   RTE_IPV4_HDR_OFFSET_MASK)) &&
		  RTE_ETHER_HDR_LEN + hlen + 4 <= m->data_len;

	if (l4)
		memcpy(&ports, (const uint8_t *)ip + hlen, 4);
	if (e->rss_valid && !e->rss_is6 && e->rss_src == ip->src_addr &&
	    e->rss_dst == ip->dst_addr && e->rss_ports == ports &&
	    e->rss_l4 == l4)
		return e->rss;
	e->rss_valid = true;
	e->rss_is6 = false;
	e->rss_src = ip->src_addr;
	e->rss_dst = ip->dst_addr;
	e->rss_ports = ports;
	e->rss_l4 = l4;
	e->rss = bench_rss_v4(rte_be_to_cpu_32(ip->src_addr),
			      rte_be_to_cpu_32(ip->dst_addr),
			      rte_be_to_cpu_16((uint16_t)ports),
			      rte_be_to_cpu_16((uint16_t)(ports >> 16)), l4);
	return e->rss;
}

/*
 * IPv6 (gro6-fwd): no header checksum to vouch for; the UDP checksum
 * GOOD or BAD for a UDP datagram right behind the IPv6 header (no
 * extension header) whose length fits the payload length and the
 * frame, with a non-zero checksum field; anything else UNKNOWN.
 */
static uint64_t
rx_cksum_flags6(const struct rte_mbuf *m, const struct rte_ipv6_hdr *ip)
{
	const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)(ip + 1);
	uint32_t plen, ulen, sum;

	if ((rte_be_to_cpu_32(ip->vtc_flow) >> 28) != 6 ||
	    ip->proto != IPPROTO_UDP)
		return 0;
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen < sizeof(*uh) ||
	    RTE_ETHER_HDR_LEN + sizeof(*ip) + plen > m->data_len)
		return 0;
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (ulen < sizeof(*uh) || ulen > plen || uh->dgram_cksum == 0)
		return 0;
	sum = __rte_raw_cksum(ip->src_addr, 32, 0);
	sum += rte_cpu_to_be_16(IPPROTO_UDP) + rte_cpu_to_be_16((uint16_t)ulen);
	sum = rx_sum(uh, ulen, sum);
	return __rte_raw_cksum_reduce(sum) == 0xffff ?
	       RTE_MBUF_F_RX_L4_CKSUM_GOOD : RTE_MBUF_F_RX_L4_CKSUM_BAD;
}

/* The RSS hash of an IPv6 frame with a UDP datagram (flags6 said so),
 * from e's memo when the tuple repeats. */
static uint32_t
rx_rss6(struct bench_feed_work *e, const struct rte_ipv6_hdr *ip)
{
	uint32_t ports;

	memcpy(&ports, ip + 1, 4);
	if (e->rss_valid && e->rss_is6 && e->rss_ports == ports &&
	    memcmp(e->rss_addr6, ip->src_addr, 32) == 0)
		return e->rss;
	e->rss_valid = true;
	e->rss_is6 = true;
	e->rss_l4 = true;
	e->rss_src = e->rss_dst = 0;
	e->rss_ports = ports;
	memcpy(e->rss_addr6, ip->src_addr, 32);
	e->rss = bench_rss_v6(ip->src_addr, ip->dst_addr,
			      rte_be_to_cpu_16((uint16_t)ports),
			      rte_be_to_cpu_16((uint16_t)(ports >> 16)), true);
	return e->rss;
}

uint64_t
bench_rx_cksum_flags(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh;
	const struct rte_ipv4_hdr *ip;
	const struct rte_udp_hdr *uh;
	uint32_t hlen, tot, ulen, sum;
	uint64_t flags;

	if (m->nb_segs != 1 ||
	    m->data_len < RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr))
		return 0;
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	if (eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) &&
	    m->data_len >= RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv6_hdr))
		return rx_cksum_flags6(m,
			(const struct rte_ipv6_hdr *)(eh + 1));
	if (eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4))
		return 0;
	ip = (const struct rte_ipv4_hdr *)(eh + 1);
	hlen = (ip->version_ihl & 0xf) * 4u;
	if ((ip->version_ihl >> 4) != 4 || hlen < sizeof(*ip) ||
	    RTE_ETHER_HDR_LEN + hlen > m->data_len)
		return 0;
	if (rte_raw_cksum(ip, hlen) != 0xffff)
		return RTE_MBUF_F_RX_IP_CKSUM_BAD;
	flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD;

	tot = rte_be_to_cpu_16(ip->total_length);
	if (ip->next_proto_id != IPPROTO_UDP ||
	    (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG |
					    RTE_IPV4_HDR_OFFSET_MASK)) ||
	    tot < hlen + sizeof(*uh) || RTE_ETHER_HDR_LEN + tot > m->data_len)
		return flags;
	uh = (const struct rte_udp_hdr *)((const uint8_t *)ip + hlen);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (ulen < sizeof(*uh) || ulen > tot - hlen || uh->dgram_cksum == 0)
		return flags;
	/* the pseudo header (addresses, protocol, UDP length), then the
	 * UDP length's bytes from the UDP header on */
	sum = __rte_raw_cksum(&ip->src_addr, 8, 0);
	sum += rte_cpu_to_be_16(IPPROTO_UDP) + rte_cpu_to_be_16((uint16_t)ulen);
	sum = rx_sum(uh, ulen, sum);
	return flags | (__rte_raw_cksum_reduce(sum) == 0xffff ?
			RTE_MBUF_F_RX_L4_CKSUM_GOOD :
			RTE_MBUF_F_RX_L4_CKSUM_BAD);
}

uint16_t
bench_rx_cksum_cb(uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
		  uint16_t n, uint16_t max, void *arg)
{
	struct bench_feed_work *e = arg;
	const uint64_t good = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			      RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	uint64_t t0 = rte_rdtsc(), vouched = 0;
	uint16_t i;

	(void)port;
	(void)queue;
	(void)max;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint64_t f = bench_rx_cksum_flags(m);

		m->ol_flags &= ~(RTE_MBUF_F_RX_IP_CKSUM_MASK |
				 RTE_MBUF_F_RX_L4_CKSUM_MASK |
				 RTE_MBUF_F_RX_RSS_HASH);
		/* IPv6: flags mean a UDP datagram behind the header */
		if (f != 0 && rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)
		    ->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
			m->hash.rss = rx_rss6(e, rte_pktmbuf_mtod_offset(m,
				const struct rte_ipv6_hdr *,
				RTE_ETHER_HDR_LEN));
			f |= RTE_MBUF_F_RX_RSS_HASH;
			m->ol_flags |= f;
			vouched += (f & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
				   RTE_MBUF_F_RX_L4_CKSUM_GOOD;
			continue;
		}
		/* flags other than none: an IPv4 header the frame holds */
		if (f != 0) {
			const struct rte_ipv4_hdr *ip =
				rte_pktmbuf_mtod_offset(m,
					const struct rte_ipv4_hdr *,
					RTE_ETHER_HDR_LEN);

			m->hash.rss = rx_rss(e, m, ip,
					     (ip->version_ihl & 0xf) * 4u);
			f |= RTE_MBUF_F_RX_RSS_HASH;
		}
		m->ol_flags |= f;
		vouched += (f & good) == good;
	}
	e->cb_packets += n;
	e->cb_good += vouched;
	e->cb_cycles += rte_rdtsc() - t0;
	return n;
}
