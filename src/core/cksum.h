/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checksums and header arithmetic on the fast path, and the helpers that
 * read or cut an mbuf whatever its segments.
 */
#ifndef LSK_CORE_CKSUM_H
#define LSK_CORE_CKSUM_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

/* A 16-bit field from the wire in host order. Not rte_be_to_cpu_16: for a
 * value known only at run time DPDK's x86 byte swap is an asm statement
 * the compiler can neither fold into a compare nor schedule. */
static inline uint16_t
lsk_be16(uint16_t v)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return __builtin_bswap16(v);
#else
	return v;
#endif
}

/* The same for a 32-bit field. */
static inline uint32_t
lsk_be32(uint32_t v)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return __builtin_bswap32(v);
#else
	return v;
#endif
}

/* The IP header follows a 14-byte Ethernet header: 2-byte aligned only. */
typedef uint32_t __attribute__((aligned(2), may_alias)) lsk_u32_a2;

/*
 * TTL-1 and the RFC 1624 update of the checksum, equal bit for bit to a
 * full recompute (0xFEFF at TTL 195 becomes 0x0000, never 0xFFFF).
 */
static inline void
lsk_ip4_decrease_ttl(struct rte_ipv4_hdr *ip)
{
	uint32_t check = ip->hdr_checksum;

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	/* TTL, protocol and checksum are one 32-bit word, the checksum its
	 * high half as loaded: TTL-1 and checksum+1 are one addition of
	 * 0xffff when the TTL cannot borrow and the checksum neither
	 * carries nor reaches 0xffff (the end-around cases below) */
	if (likely(check < 0xfffe && ip->time_to_live != 0)) {
		*(lsk_u32_a2 *)&ip->time_to_live += 0xffff;
		return;
	}
#endif
	check += RTE_BE16(0x0100);
	ip->hdr_checksum = (uint16_t)(check + (check >= 0xffff));
	ip->time_to_live--;
}

/* One's complement sum of the 20-byte base header; 0xffff when valid. */
static inline uint16_t
lsk_ip4_hdr_sum20(const void *hdr)
{
	const lsk_u32_a2 *w = hdr;
	uint64_t sum = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];

	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

typedef uint64_t __attribute__((aligned(2), may_alias)) lsk_u64_a2;

/*
 * Is the 20-byte base header's checksum valid? The one's complement sum
 * of its ten 16-bit words is 0xffff exactly when their plain sum is a
 * non-zero multiple of 0xffff. As 2^16 = 1 modulo 0xffff, so is 2^64: a
 * 64-bit word is its four 16-bit halves modulo 0xffff, and a carry out of
 * 64 bits is worth 1 (added back, the sum never wraps to 0). So two
 * 8-byte loads, one 4-byte load, two additions with their carries and one
 * divisibility test (a multiply and a compare) decide it, with no fold.
 */
static inline uint64_t
lsk_ip4_hdr20_sum64(const void *hdr)
{
	const lsk_u64_a2 *q = hdr;
	const lsk_u32_a2 *w = hdr;
	unsigned long long sum;

	if (__builtin_uaddll_overflow(q[0], q[1], &sum))
		sum++;
	if (__builtin_uaddll_overflow(sum, w[4], &sum))
		sum++;
	return sum;
}

static inline bool
lsk_ip4_hdr20_valid(const void *hdr)
{
	uint64_t sum = lsk_ip4_hdr20_sum64(hdr);

	return sum % 0xffff == 0 && sum != 0;
}

/* Both UDP ports as one word, as on the wire. */
static inline uint32_t
lsk_udp_ports(const void *udp)
{
	return *(const lsk_u32_a2 *)udp;
}

/* The UDP checksum over the pseudo-header and ulen bytes is valid. */
static inline bool
lsk_udp4_csum_valid(const struct rte_ipv4_hdr *ip, const void *udp,
		    uint16_t ulen)
{
	uint32_t sum = __rte_raw_cksum(&ip->src_addr, 8, 0);

	sum += rte_cpu_to_be_16(IPPROTO_UDP) + rte_cpu_to_be_16(ulen);
	sum = __rte_raw_cksum(udp, ulen, sum);
	return __rte_raw_cksum_reduce(sum) == 0xffff;
}

/* Cut m to frame_len bytes, segments and all (core/cksum.c).
 * Ownership: m stays the caller's. */
void lsk_mbuf_trim_to(struct rte_mbuf *m, uint32_t frame_len);
/* The folded one's complement sum of len bytes of m from off, in any
 * segments; -1 when m holds fewer.
 * Ownership: m stays the caller's. */
int lsk_mbuf_cksum(const struct rte_mbuf *m, uint32_t off, uint32_t len,
		   uint16_t *cksum);

#endif /* LSK_CORE_CKSUM_H */
