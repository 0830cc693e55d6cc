/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_input's test of the common frame, shared with the forwarding fast
 * paths (ip4/fwd_fast.c; IPv6's, ip6/fwd6_fast.c, with the IPv6
 * ethertype: lsk_eth_fast6_hdr): an untagged IPv4 frame to its port's MAC, from
 * the port of the run before it, decided by one test of words the caller
 * keeps in registers (the run's port and MAC).
 */
#ifndef LSK_L2_ETH_FAST_H
#define LSK_L2_ETH_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "core/fwd.h"

/* The 6 bytes at p as the low bits of a word (p holds at least 8). */
static inline uint64_t
lsk_eth_mac48(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v & 0xffffffffffffull;
}

/* Are the 6 bytes at p (which holds at least 8) mac48, a MAC as
 * lsk_eth_mac48 reads it (never lsk_eth_port_mac48's UINT64_MAX, which
 * this would take for the broadcast MAC)? The two bytes after them
 * shifted out: no 48-bit mask to keep in a register. */
static inline bool
lsk_eth_mac48_is(const void *p, uint64_t mac48)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return ((v ^ mac48) << 16) == 0;
}

/* The MAC frames to port must carry to be the fast path's;
 * UINT64_MAX, which no 6 bytes equal, for a port the table lacks. */
static inline uint64_t
lsk_eth_port_mac48(const struct lsk_fwd_table *t, uint16_t port)
{
	uint64_t v = 0;

	if (port >= t->n_ports)
		return UINT64_MAX;
	memcpy(&v, &t->ifaces[port].mac, RTE_ETHER_ADDR_LEN);
	return v;
}

/* lsk_eth_fast for a frame whose first segment the caller knows holds a
 * whole Ethernet header. */
static __rte_always_inline bool
lsk_eth_fast_hdr(const struct rte_mbuf *m, const uint8_t *p, uint16_t port,
		 uint64_t mac48)
{
	return m->port == port && lsk_eth_mac48(p) == mac48 &&
	       ((const struct rte_ether_hdr *)p)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_IPV4);
}

/* lsk_eth_fast_hdr with lsk_eth_mac48_is: mac48 a port's MAC (IPv4's
 * fast path, ip4/fwd_fast.c, which takes no frame of a port the table
 * lacks). */
static __rte_always_inline bool
lsk_eth_fast_hdr_mac(const struct rte_mbuf *m, const uint8_t *p,
		     uint16_t port, uint64_t mac48)
{
	return m->port == port && lsk_eth_mac48_is(p, mac48) &&
	       ((const struct rte_ether_hdr *)p)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_IPV4);
}

/*
 * lsk_eth_fast_hdr_mac with, in the same test, the IPv4 header's first
 * byte 0x45 (version 4, a 20-byte header; ip4/ip4_fast.h's
 * lsk_ip4_fast_hdr_v45 then does not test it), for a first segment the
 * caller knows holds 16 bytes at p: on x86 one 16-byte load compared
 * under a mask with the MAC, ethertype and version (PTEST), where the
 * MAC's, the ethertype's and the version's tests took three branches
 * and eight instructions (bench/callgrind.sh, row fwd list-1flow). Both
 * words are built from mac48 alone: a caller's loop keeps them in
 * registers. mac48 a port's MAC, as for lsk_eth_fast_hdr_mac (never
 * UINT64_MAX, which this would take for the broadcast MAC).
 */
static __rte_always_inline bool
lsk_eth_fast_hdr_v45(const struct rte_mbuf *m, const uint8_t *p,
		     uint16_t port, uint64_t mac48)
{
	/* bytes 12-14 of the frame: the IPv4 ethertype, then 0x45 */
	const uint64_t hi = (uint64_t)RTE_BE16(RTE_ETHER_TYPE_IPV4) << 32 |
			    (uint64_t)0x45 << 48;
#if defined(__SSE4_1__)
	/* every bit of the destination MAC, the ethertype and byte 14 */
	const __m128i mask = _mm_set_epi64x(0x00ffffff00000000ll,
					    0x0000ffffffffffffll);
	const __m128i want = _mm_set_epi64x((long long)hi, (long long)mac48);
	const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

	return m->port == port &&
	       _mm_testz_si128(_mm_xor_si128(v, want), mask);
#else
	RTE_SET_USED(hi);
	return lsk_eth_fast_hdr_mac(m, p, port, mac48) && p[14] == 0x45;
#endif
}

/* lsk_eth_fast_hdr for IPv6's fast path (ip6/fwd6_fast.c): the IPv6
 * ethertype. */
static __rte_always_inline bool
lsk_eth_fast6_hdr(const struct rte_mbuf *m, const uint8_t *p, uint16_t port,
		  uint64_t mac48)
{
	return m->port == port && lsk_eth_mac48(p) == mac48 &&
	       ((const struct rte_ether_hdr *)p)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_IPV6);
}

/* Is the frame at p, of m, the fast path's: from the run's port, a whole
 * Ethernet header, to the run's MAC (mac48: the MAC as lsk_eth_mac48
 * reads it), an IPv4 ethertype? */
static __rte_always_inline bool
lsk_eth_fast(const struct rte_mbuf *m, const uint8_t *p, uint16_t port,
	     uint64_t mac48)
{
	return m->data_len >= RTE_ETHER_HDR_LEN &&
	       lsk_eth_fast_hdr(m, p, port, mac48);
}

#endif /* LSK_L2_ETH_FAST_H */
