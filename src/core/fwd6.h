/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 forwarding table as the workers read it (next hops, our
 * addresses, which interfaces advertise), published in its own slot
 * (sh->fwd6) beside IPv4's, by the same rules (core/shared.h): built by
 * the control thread (control/fwd6_table.c), never written while a
 * worker can see it. Ports, VLANs, MTUs and admin state stay IPv4's
 * table's (core/fwd.h, w->fwd): one copy of the interfaces.
 */
#ifndef LSK_CORE_FWD6_H
#define LSK_CORE_FWD6_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "listack/listack.h"
#include "core/fwd.h"

struct rte_fib6;

/* A next hop of the IPv6 FIB: type is enum lsk_nh_type (core/fwd.h;
 * LSK_NH_LOCAL_BCAST is IPv4's only). */
struct lsk_nexthop6 {
	uint8_t type;
	uint8_t onlink;		/* 1: the destination is the neighbour */
	uint16_t iface;		/* a port, or a VLAN of one */
	uint16_t mtu;		/* IPv6 MTU out of iface */
	uint16_t pad;
	union {
		struct lsk_ip6_addr gateway;	/* the neighbour unless onlink */
		/* LSK_NH_GROUP (ECMP): group_words[group, + n_members)
		 * are the members' next hop indexes, the n_buckets words
		 * after them the member of each bucket, as IPv4's
		 * (core/fwd.h, ip4/ecmp.h) */
		struct {
			uint32_t group;
			uint16_t n_members;
			uint16_t n_buckets;
		};
	};
};

/* lsk_ifaddr6.flags */
#define LSK_IFA6_LINKLOCAL 1u	/* fe80::/10: scoped to its interface */
#define LSK_IFA6_AUTO 2u	/* the link-local address made from the MAC */

/* One of our addresses and its prefix. */
struct lsk_ifaddr6 {
	struct lsk_ip6_addr addr;
	uint8_t depth;
	uint8_t flags;		/* LSK_IFA6_* */
	uint16_t iface;
};

/* Addresses a table holds: the configured ones and one automatic
 * link-local address per interface. */
#define LSK_FWD6_ADDRS_MAX (LSK_MAX_ADDRS6 + LSK_MAX_IFACES)

struct lsk_fwd6_table {
	/* global unicast destinations -> index into nexthops (index
	 * LSK_NH_IDX_NONE: no route); our addresses are /128s of type
	 * LSK_NH_LOCAL, connected prefixes onlink next hops. Link-local
	 * and multicast destinations are not in it: they are scoped to
	 * the interface a packet came in on (addrs below). */
	struct rte_fib6 *fib;
	uint32_t generation;	/* new for every table built */
	uint32_t n_nexthops;
	uint32_t nh_cap;	/* room in nexthops (the control thread's) */
	bool trie;		/* a trie with room: routes change in place */
	struct lsk_nexthop6 *nexthops;
	/* ECMP groups' words (struct lsk_nexthop6's group) */
	uint32_t n_group_words;
	uint32_t group_cap;
	uint16_t *group_words;
	/* bit i: interface i sends router advertisements (`port N ra on`) */
	uint64_t ra_ifaces;
	/* our addresses, link-local ones included, in the order added
	 * (each interface's automatic link-local one first) */
	uint32_t n_addrs;
	struct lsk_ifaddr6 addrs[LSK_FWD6_ADDRS_MAX];
};

static inline bool
lsk_ip6_is_linklocal(const struct lsk_ip6_addr *a)
{
	return a->a[0] == 0xfe && (a->a[1] & 0xc0) == 0x80;
}

static inline bool
lsk_ip6_is_multicast(const struct lsk_ip6_addr *a)
{
	return a->a[0] == 0xff;
}

static inline bool
lsk_ip6_is_unspecified(const struct lsk_ip6_addr *a)
{
	static const struct lsk_ip6_addr zero;

	return memcmp(a, &zero, sizeof(*a)) == 0;
}

static inline bool
lsk_ip6_equal(const struct lsk_ip6_addr *a, const struct lsk_ip6_addr *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/*
 * The read side (core/fwd6.c). Our address addr on iface (a link-local
 * one only on its own interface; iface LSK_IFACE_ANY: on any), or NULL.
 */
const struct lsk_ifaddr6 *lsk_fwd6_ours(const struct lsk_fwd6_table *t,
					const struct lsk_ip6_addr *addr,
					uint16_t iface);
/* The link-local address of iface (the automatic one), or NULL. */
const struct lsk_ifaddr6 *lsk_fwd6_linklocal(const struct lsk_fwd6_table *t,
					     uint16_t iface);
/* The source our packets to dst out of iface get (RFC 6724, in short:
 * a link-local destination gets iface's link-local address; else the
 * global address of iface whose prefix holds dst, else iface's first
 * global address, else any global address of ours, else iface's
 * link-local one), or NULL when we have none. */
const struct lsk_ifaddr6 *lsk_fwd6_source(const struct lsk_fwd6_table *t,
					  const struct lsk_ip6_addr *dst,
					  uint16_t iface);
/* A multicast group iface listens to: all-nodes ff02::1, all-routers
 * ff02::2, the solicited-node group of one of its addresses. */
bool lsk_fwd6_joined(const struct lsk_fwd6_table *t,
		     const struct lsk_ip6_addr *group, uint16_t iface);
/* The first depth bits of a and b agree (false for a depth over 128). */
bool lsk_ip6_prefix_match(const struct lsk_ip6_addr *a,
			  const struct lsk_ip6_addr *b, uint8_t depth);

#endif /* LSK_CORE_FWD6_H */
