/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ping sink: what the control thread's ping and traceroute
 * (control/ping.c) wait on. The control thread creates it, publishes it
 * in struct lsk_shared's ping slot (core/shared.h) and takes it back
 * with an RCU grace period; icmp4_input (ip4/icmp4.c) copies what
 * answers its probes (an echo reply with its ICMP id, an error quoting
 * an echo request with it) into the ring as a record, and frees the
 * packet as always: no mbuf crosses to the control thread. IPv6's
 * icmp6_input (ip6/icmp6.c) does the same for ICMPv6 (lsk_ping6_match):
 * one sink serves the one ping in progress, of either family.
 */
#ifndef LSK_CORE_PING_H
#define LSK_CORE_PING_H

#include <stdbool.h>
#include <stdint.h>

struct rte_ipv4_hdr;
struct rte_ipv6_hdr;
struct rte_ring;

/* What came back, as the worker saw it (addresses in host order). */
struct lsk_ping_reply {
	uint64_t tsc;		/* rte_rdtsc when the worker took it */
	uint32_t from;		/* the answer's source */
	uint16_t seq;		/* the probe's sequence number */
	uint16_t len;		/* ICMP bytes of the answer */
	uint8_t type, code;	/* ICMP: 0 echo reply, 3 or 11 an error;
				 * ICMPv6: 129 echo reply, 1 or 3 */
	uint8_t ttl;		/* the answer's IP TTL (IPv6: hop limit) */
	uint8_t v6;		/* 1: ICMPv6, the source in from6 */
	uint8_t from6[16];	/* IPv6: the answer's source */
};

struct lsk_ping_sink {
	struct rte_ring *ring;	/* lsk_ping_reply elements, MP/SC */
	uint16_t ident;		/* the probes' ICMP id (host order) */
};

/*
 * Whether the ICMP message at ip (len bytes from its ICMP header, which
 * is checked already) answers one of sink's probes; fills *r if so.
 * Pure: the worker's tests call it alone (tests/unit/ip4/test_ping.c).
 */
bool lsk_ping_match(const struct lsk_ping_sink *sink,
		    const struct rte_ipv4_hdr *ip, uint32_t len,
		    struct lsk_ping_reply *r);
/*
 * The same for ICMPv6 (ip6/ping6_match.c): ip's ICMPv6 message at off
 * from its IPv6 header, len bytes (checked), answers one of sink's
 * probes: an echo reply (129) with its id, or a destination unreachable
 * (1) or time exceeded (3) quoting an echo request (128) with it.
 */
bool lsk_ping6_match(const struct lsk_ping_sink *sink,
		     const struct rte_ipv6_hdr *ip, uint32_t off, uint32_t len,
		     struct lsk_ping_reply *r);

#endif /* LSK_CORE_PING_H */
