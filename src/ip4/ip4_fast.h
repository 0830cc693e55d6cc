/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_input's test of the common datagram, and ip4_forward's rewrite of
 * it, shared with the forwarding fast path (ip4/fwd_fast.c). The test is
 * true only for what ip4_input's full checks (ip4_input.c) pass too;
 * everything else, any doubt, is theirs.
 */
#ifndef LSK_IP4_IP4_FAST_H
#define LSK_IP4_IP4_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_config.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/cksum.h"
#include "core/fwd.h"


/* What ip4_input's address rules refuse, by the address's first byte:
 * a martian source (0/8, 127/8, 224/3 and up), a martian or multicast
 * destination (0/8, 127/8, 224/4); defined in ip4_input.c. */
extern const uint8_t lsk_ip4_refused[2][256];
#define LSK_IP4_SRC_REFUSED 0	/* lsk_ip4_refused's row of sources */
#define LSK_IP4_DST_REFUSED 1	/* and of destinations */

/*
 * Is the 20-byte header's checksum valid, its first byte 0x45 (then the
 * sum is never 0)? lsk_ip4_hdr20_sum64's test, on x86 by five 32-bit
 * words added with their carries (one asm chain) (2^32 is 1 modulo 0xffff, as 2^64 is;
 * the last carry added back never carries again) and a divisibility test
 * by 0xffff of 32 bits: x is a multiple of 0xffff exactly when x times
 * 0xffff's inverse modulo 2^32 (0xfffeffff) is at most 0xffffffff /
 * 0xffff. Its constants fit in the instructions, where the 64-bit test's
 * took two registers in the first pass's loop (ip4/fwd_fast.c).
 */
static __rte_always_inline bool
lsk_ip4_hdr20_sum_ok(const void *hdr)
{
#if defined(RTE_ARCH_X86)
	const lsk_u32_a2 *w = hdr;
	uint32_t s = w[0];

	/* one carry chain (GCC's _addcarry_u32 stores each step) */
	__asm__("addl %1, %0\n\tadcl %2, %0\n\tadcl %3, %0\n\t"
		"adcl %4, %0\n\tadcl $0, %0"
		: "+r"(s)
		: "m"(w[1]), "m"(w[2]), "m"(w[3]), "m"(w[4])
		: "cc");
	return s * 0xfffeffffu <= 0x10001u;
#else
	return lsk_ip4_hdr20_sum64(hdr) % 0xffff == 0;
#endif
}

/*
 * The datagram at ip, of m, whose first byte the caller saw 0x45
 * (lsk_ip4_fast_hdr_l2 tests it; ip4/fwd_fast.c with the MAC), in one
 * pass, the caller having seen that the first segment holds its l2_len
 * bytes of link header and a 20-byte IPv4 header (lsk_ip4_fast_pass
 * tests it): the checksum valid (or the PMD's good),
 * the total length the frame's (nothing to trim), addresses no rule
 * refuses and a source the local Bloom filter rules out (bloom: the
 * table's, kept in a register by the caller).
 */
static __rte_always_inline bool
lsk_ip4_fast_hdr_v45(uint64_t bloom, const struct rte_mbuf *m,
		     const struct rte_ipv4_hdr *ip, const uint32_t l2_len)
{
	/* no test of tot_len < 20: the caller saw the first segment hold
	 * l2_len + 20 bytes, and pkt_len is at least data_len */
	if (unlikely(lsk_be16(ip->total_length) + l2_len != m->pkt_len))
		return false;
	/* UNKNOWN: ours to verify (the sum of a header starting 0x45 is
	 * never 0: lsk_ip4_hdr20_valid's other test is not needed); GOOD or
	 * NONE: the PMD's; BAD: the full checks' */
	if ((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == 0) {
		if (unlikely(!lsk_ip4_hdr20_sum_ok(ip)))
			return false;
	} else if (!(__atomic_load_n(&m->ol_flags, __ATOMIC_RELAXED) &
		     RTE_MBUF_F_RX_IP_CKSUM_GOOD)) {
		/* the flags read again (an atomic load is not merged with
		 * the first): the common path's test is one of memory, the
		 * flags kept in no register */
		return false;
	}
	/* the first bytes on the wire are the addresses' high ones; both
	 * rows of one table: one base address in a register */
	if (unlikely((lsk_ip4_refused[LSK_IP4_SRC_REFUSED]
				     [((const uint8_t *)&ip->src_addr)[0]] |
		      lsk_ip4_refused[LSK_IP4_DST_REFUSED]
				     [((const uint8_t *)&ip->dst_addr)[0]]) != 0))
		return false;
	/* a bit test, not a mask built by a shift */
	return likely(!((bloom >> lsk_local_bloom_index_be(ip->src_addr)) & 1));
}

/* lsk_ip4_fast_hdr_v45 with the first byte's test (version 4, IHL 5),
 * for a caller whose link header test did not make it. */
static __rte_always_inline bool
lsk_ip4_fast_hdr_l2(uint64_t bloom, const struct rte_mbuf *m,
		    const struct rte_ipv4_hdr *ip, const uint32_t l2_len)
{
	return likely(ip->version_ihl == 0x45) &&
	       lsk_ip4_fast_hdr_v45(bloom, m, ip, l2_len);
}

/* lsk_ip4_fast_hdr_l2 of a frame whose header is Ethernet's alone (a
 * tagged one's is RTE_VLAN_HLEN longer: ip4/fwd_fast.c). */
static __rte_always_inline bool
lsk_ip4_fast_hdr(uint64_t bloom, const struct rte_mbuf *m,
		 const struct rte_ipv4_hdr *ip)
{
	return lsk_ip4_fast_hdr_l2(bloom, m, ip, RTE_ETHER_HDR_LEN);
}

/* The same, the first segment's length tested first. */
static __rte_always_inline bool
lsk_ip4_fast_pass(uint64_t bloom, const struct rte_mbuf *m,
		  const struct rte_ipv4_hdr *ip)
{
	return m->data_len >= RTE_ETHER_HDR_LEN + sizeof(*ip) &&
	       lsk_ip4_fast_hdr(bloom, m, ip);
}

/*
 * Forward the datagram in m as a fast run does, with the next hop's MTU
 * and Ethernet header (mac_lo, mac_hi: its first 8 and last 4 bytes):
 * false, m untouched, when the TTL runs out or it is too big (the full
 * checks' cases, ip4_forward.c); else TTL-1 with the checksum, the
 * header written, true.
 */
/* The TTL's half of lsk_ip4_fast_ttl, for a caller that tested the MTU
 * (ip4/fwd_fast.c, on the frame's length). */
/* lsk_ip4_decrease_ttl out of line, for lsk_ip4_fast_ttl_dec's rare
 * checksums: inlined, its reads of the TTL and checksum made the common
 * path keep both in registers (two loads more a packet) */
static __rte_noinline __rte_unused void
lsk_ip4_fast_ttl_rare(struct rte_ipv4_hdr *ip)
{
	lsk_ip4_decrease_ttl(ip);
}

static __rte_always_inline bool
lsk_ip4_fast_ttl_dec(struct rte_ipv4_hdr *ip)
{
	if (unlikely(ip->time_to_live <= 1))
		return false;
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	/* lsk_ip4_decrease_ttl's common case (the TTL cannot borrow: it is
	 * over 1), each field compared in memory */
	if (likely(ip->hdr_checksum < 0xfffe)) {
		*(lsk_u32_a2 *)&ip->time_to_live += 0xffff;
		return true;
	}
#endif
	lsk_ip4_fast_ttl_rare(ip);
	return true;
}

/* lsk_ip4_fast_rewrite's IPv4 half (of a frame whose link header the
 * caller writes): false, ip untouched, when the TTL runs out or it is too
 * big for mtu; else TTL-1 with the checksum. */
static __rte_always_inline bool
lsk_ip4_fast_ttl(struct rte_ipv4_hdr *ip, uint32_t mtu)
{
	if (unlikely(lsk_be16(ip->total_length) > mtu))
		return false;
	return lsk_ip4_fast_ttl_dec(ip);
}

static __rte_always_inline bool
lsk_ip4_fast_rewrite(struct rte_mbuf *m, uint32_t mtu, uint64_t mac_lo,
		     uint32_t mac_hi)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	if (!lsk_ip4_fast_ttl((struct rte_ipv4_hdr *)(eh + 1), mtu))
		return false;
	memcpy(eh, &mac_lo, sizeof(mac_lo));
	memcpy((uint8_t *)eh + sizeof(mac_lo), &mac_hi, sizeof(mac_hi));
	return true;
}

/* The next hop's Ethernet header as lsk_ip4_fast_rewrite takes it. */
static inline void
lsk_ip4_fast_macs(const struct lsk_nexthop *nh, uint64_t *mac_lo,
		  uint32_t *mac_hi)
{
	memcpy(mac_lo, &nh->dst_mac, sizeof(*mac_lo));
	memcpy(mac_hi, (const uint8_t *)&nh->dst_mac + sizeof(*mac_lo),
	       sizeof(*mac_hi));
}

#endif /* LSK_IP4_IP4_FAST_H */
