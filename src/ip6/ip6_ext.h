/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the IPv6 stages share among themselves (not other parts): the
 * extension header chain walked with a bound (RFC 8200 4; ip6_input.c),
 * the upper-layer checksum, the address tests the stages make.
 */
#ifndef LSK_IP6_EXT_H
#define LSK_IP6_EXT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "listack/listack.h"

/* Extension headers (RFC 8200 4.1, RFC 4302) and the upper layers the
 * stages know. */
#define LSK_IP6_HOPOPTS 0
#define LSK_IP6_ROUTING 43
#define LSK_IP6_FRAGMENT 44
#define LSK_IP6_AH 51
#define LSK_IP6_ICMP 58
#define LSK_IP6_NONE 59
#define LSK_IP6_DSTOPTS 60

/*
 * The bound of the walk: at most LSK_IP6_EXT_MAX headers, all of them in
 * the first LSK_IP6_CHAIN_MAX bytes of the datagram. A chain past it is
 * dropped (ip6.InHdrErrors), with no ICMPv6 error: a sender that builds
 * such chains is sent nothing it could amplify.
 */
#define LSK_IP6_EXT_MAX 8
#define LSK_IP6_CHAIN_MAX 256

/* What the walk says. */
enum lsk_ip6_chain_verdict {
	LSK_CHAIN_OK,
	LSK_CHAIN_BAD,		/* malformed, past the bound: dropped */
	LSK_CHAIN_DISCARD,	/* an unknown option says discard (01) */
	LSK_CHAIN_PARAM,	/* parameter problem code err_code at err_ptr */
};

/* The walk's flags */
#define LSK_CHAIN_LOCAL 1u	/* the datagram is ours: destination options
				 * and every routing header are ours to act
				 * on (else hop-by-hop only, and type 0) */
#define LSK_CHAIN_MCAST 2u	/* to a multicast group (option action 11) */

struct lsk_ip6_chain {
	uint8_t proto;		/* the upper layer's next header value (44:
				 * a fragment past the first, whose chain
				 * goes on in another piece) */
	uint8_t err_code;	/* LSK_CHAIN_PARAM's */
	uint8_t router_alert;	/* a hop-by-hop Router Alert was there */
	uint8_t n_ext;
	uint16_t off;		/* the upper layer's offset from the IPv6
				 * header (the fragment header's for 44) */
	uint16_t nh_off;	/* the Next Header byte that names proto */
	uint16_t frag_off;	/* the fragment header's offset; 0: none */
	uint16_t err_ptr;	/* LSK_CHAIN_PARAM's pointer */
};

/*
 * Walk the chain of the datagram whose IPv6 header is at byte hdr_off of
 * m and which is len bytes long (header included), by flags
 * (LSK_CHAIN_*): every length checked against len and the bound,
 * hop-by-hop options processed (Pad1, PadN, Router Alert; an unknown
 * option by its two high bits, RFC 8200 4.2), a routing header of type 0
 * with segments left refused (RFC 5095), a fragment recognised.
 * Ownership: m stays the caller's.
 */
enum lsk_ip6_chain_verdict lsk_ip6_chain_walk(const struct rte_mbuf *m,
					      uint32_t hdr_off, uint32_t len,
					      uint32_t flags,
					      struct lsk_ip6_chain *c);

/* Is next header value nh an extension header the walk steps over? */
static inline bool
lsk_ip6_is_ext(uint8_t nh)
{
	return nh == LSK_IP6_HOPOPTS || nh == LSK_IP6_ROUTING ||
	       nh == LSK_IP6_FRAGMENT || nh == LSK_IP6_DSTOPTS ||
	       nh == LSK_IP6_AH;
}

/* ::1 */
static inline bool
lsk_ip6_is_loopback(const struct lsk_ip6_addr *a)
{
	static const struct lsk_ip6_addr one = { .a = { [15] = 1 } };

	return memcmp(a, &one, sizeof(*a)) == 0;
}

/* The addresses of an IPv6 header, as struct lsk_ip6_addr. */
static inline const struct lsk_ip6_addr *
lsk_ip6_src(const struct rte_ipv6_hdr *ip)
{
	return (const struct lsk_ip6_addr *)(const void *)ip->src_addr;
}

static inline const struct lsk_ip6_addr *
lsk_ip6_dst(const struct rte_ipv6_hdr *ip)
{
	return (const struct lsk_ip6_addr *)(const void *)ip->dst_addr;
}

/*
 * The upper-layer checksum (RFC 8200 8.1) of len bytes at off of m (any
 * segments) under ip's addresses and protocol proto: 0xffff when a
 * received one is valid; ~ of it is the field to write (with the field
 * 0 first). Returns 0 when m holds fewer bytes.
 * Ownership: m stays the caller's.
 */
uint16_t lsk_ip6_l4_sum(const struct rte_ipv6_hdr *ip, uint8_t proto,
			const struct rte_mbuf *m, uint32_t off, uint32_t len);

struct lsk_worker;
/* Count an ICMPv6 message we send by type (Icmp6OutMsgs and Out*), once
 * it has a route (icmp6.c). */
void lsk_icmp6_count_out(struct lsk_worker *w, uint8_t type);

#endif /* LSK_IP6_EXT_H */
