/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP's family-independent half: the flow hash's finaliser, which
 * protocols have ports, and the member a group's words give a hash
 * (control/fwd_group.c fills them for both families' tables). Each
 * family's side says what a member is and whether it is live:
 * ip4/ecmp.h, ip6/ecmp6.h.
 */
#ifndef LSK_CORE_ECMP_H
#define LSK_CORE_ECMP_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

/* murmur3's finaliser: every bit of the CRC in the top bits, which pick
 * the bucket */
static inline uint32_t
lsk_ecmp_mix(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static inline int
lsk_ecmp_has_ports(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP ||
	       proto == IPPROTO_SCTP;
}

/* The bucket of a hash among n: its top bits, scaled. */
static inline uint32_t
lsk_ecmp_bucket(uint32_t hash, uint16_t n_buckets)
{
	return (uint32_t)(((uint64_t)hash * n_buckets) >> 32);
}

/* Is member next hop nh live (ctx: the family's tables)? */
typedef bool lsk_ecmp_live_t(const void *ctx, uint32_t nh);

/* The first live member in the buckets after k of the group whose words
 * start at members (n_members of them, then n_buckets buckets), each
 * member judged once; the one at k when none is (core/ecmp.c). */
uint32_t lsk_ecmp_scan(const uint16_t *members, uint16_t n_members,
		       uint16_t n_buckets, uint32_t k, lsk_ecmp_live_t *live,
		       const void *ctx);

#endif /* LSK_CORE_ECMP_H */
