/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_input's, ip6_route's and ip6_forward's tests of the common
 * forwarded datagram, in one, shared with the IPv6 forwarding fast path
 * (ip6/fwd6_fast.c). The test is true only for what the stages' full
 * checks (ip6_input.c, ip6_route.c, ip6_forward.c) pass too; everything
 * else, any doubt, is theirs.
 */
#ifndef LSK_IP6_IP6_FAST_H
#define LSK_IP6_IP6_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/cksum.h"
#include "ip6/ip6_ext.h"

/* An address as two words, in wire order. */
static __rte_always_inline void
lsk_ip6_fast_words(const uint8_t *a, uint64_t q[2])
{
	memcpy(q, a, 2 * sizeof(q[0]));
}

/* Neither ::, ::1 nor (first byte) link-local or multicast: an address
 * the FIB answers for as a destination, and ip6_forward passes as a
 * source (ip6_route.c's route6_is_scoped, ip6_input.c's loopback rule,
 * ip6_forward.c's scope rules). */
static __rte_always_inline bool
lsk_ip6_fast_global(const uint8_t *a)
{
	uint64_t q[2];

	lsk_ip6_fast_words(a, q);
	if (unlikely(a[0] == 0xff || (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)))
		return false;
	/* :: and ::1 both have a zero first word and at most bit 0 of the
	 * last byte set in the second */
	return likely(q[0] != 0 ||
		      (q[1] & ~rte_cpu_to_be_64(1)) != 0);
}

/*
 * The datagram at ip, of m, the caller having seen that the first
 * segment holds the Ethernet header and the 40-byte IPv6 header: version
 * 6, the payload length the frame's (nothing to trim, nothing missing),
 * no extension header next (ip6_input walks those), a global source and
 * destination (lsk_ip6_fast_global).
 */
static __rte_always_inline bool
lsk_ip6_fast_hdr(const struct rte_mbuf *m, const struct rte_ipv6_hdr *ip)
{
	if (unlikely((((const uint8_t *)ip)[0] >> 4) != 6 ||
		     lsk_be16(ip->payload_len) + sizeof(*ip) +
		     RTE_ETHER_HDR_LEN != m->pkt_len ||
		     lsk_ip6_is_ext(ip->proto)))
		return false;
	return lsk_ip6_fast_global(ip->src_addr) &&
	       lsk_ip6_fast_global(ip->dst_addr);
}

/*
 * Forward the datagram in m as ip6_forward does, with the next hop's MTU
 * and the Ethernet header (mac_lo, mac_hi: its first 8 and last 4
 * bytes): false, m untouched, when the hop limit runs out or it is too
 * big (the stages' cases, ip6_forward.c); else the hop limit less one,
 * the header written, true.
 */
static __rte_always_inline bool
lsk_ip6_fast_rewrite(struct rte_mbuf *m, uint32_t mtu, uint64_t mac_lo,
		     uint32_t mac_hi)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eh + 1);

	if (unlikely(ip->hop_limits <= 1 ||
		     lsk_be16(ip->payload_len) + sizeof(*ip) > mtu))
		return false;
	ip->hop_limits--;
	memcpy(eh, &mac_lo, sizeof(mac_lo));
	memcpy((uint8_t *)eh + sizeof(mac_lo), &mac_hi, sizeof(mac_hi));
	return true;
}

#endif /* LSK_IP6_IP6_FAST_H */
