/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack: IPv6 beside IPv4 (addresses, routes, neighbours, router
 * advertisements, route get). Part of listack/listack.h, which includes
 * it; include that.
 *
 * IPv6 addresses are 16 bytes in network order (struct lsk_ip6_addr),
 * as on the wire and as inet_pton(AF_INET6) writes them. The calls are
 * the control thread's, as IPv4's, and take effect the same way (at once,
 * or at a batch's commit); errors are negative errno values.
 */
#ifndef LISTACK_IP6_H
#define LISTACK_IP6_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_stack;

struct lsk_ip6_addr {
	uint8_t a[16];
};

/* Addresses an interface may have (its link-local one not counted). */
#define LSK_MAX_ADDRS6 64

/*
 * Interface address (a port or a VLAN of one): adds the local /128 and
 * the connected prefix. Every interface has a link-local address made
 * from its MAC (fe80::/64, modified EUI-64, RFC 4291) without asking;
 * adding another link-local one is allowed. Each address is checked for
 * duplicates on its link (DAD, RFC 4862) before it is used.
 * -EEXIST if the address is configured already; -EINVAL for the
 * unspecified, loopback or a multicast address, or a depth over 128;
 * -EADDRINUSE when the prefix (not link-local) overlaps another
 * interface's; -ENOSPC past LSK_MAX_ADDRS6.
 */
int lsk_address6_add(struct lsk_stack *stack, const struct lsk_ip6_addr *addr,
		     uint8_t depth, uint16_t iface);
/* Remove one (-EADDRNOTAVAIL unless addr/depth is on iface); its routes
 * via gateways no prefix reaches any more go with it, as in Linux. The
 * automatic link-local address cannot be removed (-EPERM). -EBUSY while
 * a `udp listen` service is bound to it. */
int lsk_address6_del(struct lsk_stack *stack, const struct lsk_ip6_addr *addr,
		     uint8_t depth, uint16_t iface);

/*
 * Routes. type as IPv4's (listack/route.h). For LSK_ROUTE_VIA the
 * gateway is on a connected prefix (iface LSK_IFACE_ANY), or is
 * link-local and then iface names the interface it is on (required: a
 * link-local address means nothing without its link). -ENETUNREACH
 * when the gateway is on no connected prefix; -EINVAL for a bad prefix
 * (host bits set, depth over 128, multicast) or gateway (ours,
 * multicast, unspecified, link-local without iface); -EEXIST when the
 * prefix is routed already (or connected).
 */
int lsk_route6_add(struct lsk_stack *stack, const struct lsk_ip6_addr *prefix,
		   uint8_t depth, enum lsk_route_type type,
		   const struct lsk_ip6_addr *gateway, uint16_t iface);
/* Add, or replace the route of (prefix, depth); errors as add's but
 * -EEXIST only for a connected prefix. */
int lsk_route6_replace(struct lsk_stack *stack,
		       const struct lsk_ip6_addr *prefix, uint8_t depth,
		       enum lsk_route_type type,
		       const struct lsk_ip6_addr *gateway, uint16_t iface);
/*
 * One path of an IPv6 route (ECMP), as IPv4's struct lsk_route_path
 * (listack/route.h): a flow always takes the same path, paths are taken
 * in proportion to their weights, one whose port is down or whose
 * neighbour failed is skipped. gateway: a global address on a
 * connected prefix (iface LSK_IFACE_ANY), or any address with its iface
 * given (link-local gateways, on-link routes of a daemon).
 */
struct lsk_route6_path {
	struct lsk_ip6_addr gateway;
	uint16_t iface;
	uint16_t weight;	/* 1..256; 0 is taken as 1 */
};
/* The same with n (1..LSK_ROUTE_MAX_PATHS) paths: ECMP. Errors as
 * lsk_route6_add's for each path, and -EINVAL for n out of range, a
 * path given twice or a weight over 256. */
int lsk_route6_add_paths(struct lsk_stack *stack,
			 const struct lsk_ip6_addr *prefix, uint8_t depth,
			 const struct lsk_route6_path *paths, unsigned int n);
int lsk_route6_replace_paths(struct lsk_stack *stack,
			     const struct lsk_ip6_addr *prefix, uint8_t depth,
			     const struct lsk_route6_path *paths,
			     unsigned int n);
/* -ENOENT when no such route was added. */
int lsk_route6_del(struct lsk_stack *stack, const struct lsk_ip6_addr *prefix,
		   uint8_t depth);

/*
 * Routes from a routing daemon (FPM), as IPv4's lsk_route_learned
 * (listack/route.h): a configured route of the same (prefix, depth)
 * wins; learned routes are not in `show config`; a run is made to the
 * table in place and published once, never rebuilding it per route.
 * lsk_route_learn_begin_dump, _sweep and _flush cover both families.
 */
struct lsk_route6_learned {
	struct lsk_ip6_addr prefix;
	uint8_t depth;
	uint8_t withdraw;	/* 1: the route of (prefix, depth) goes */
	uint8_t type;		/* enum lsk_route_type */
	uint8_t proto;		/* rtm_protocol */
	uint8_t n_paths;	/* LSK_ROUTE_VIA: 1..LSK_ROUTE_MAX_PATHS */
	struct lsk_route6_path paths[LSK_ROUTE_MAX_PATHS];
};
/* Learn (or withdraw) r[0..n) in order, as lsk_route_learn: entries
 * that cannot be taken (a bad path, a withdrawal of nothing) are
 * skipped; the return is how many were skipped, or a negative errno
 * (nothing changed); -EBUSY inside a batch. */
int lsk_route6_learn(struct lsk_stack *stack,
		     const struct lsk_route6_learned *r, unsigned int n);

/*
 * Static neighbour on iface (LSK_IFACE_ANY: the interface whose prefix
 * holds addr; a link-local addr needs its iface). -ENETUNREACH when addr
 * is on no connected prefix.
 */
int lsk_neigh6_add(struct lsk_stack *stack, const struct lsk_ip6_addr *addr,
		   uint16_t iface, const struct rte_ether_addr *mac);
/* Forget a neighbour, static or learnt (-ENOENT: none); iface as above. */
int lsk_neigh6_del(struct lsk_stack *stack, const struct lsk_ip6_addr *addr,
		   uint16_t iface);

/*
 * Router advertisements on an interface (`port N ra on|off`): off by
 * default. On, the interface answers router solicitations and
 * advertises itself (RFC 4861 6.2: every 200-600 s, the first three
 * 16 s apart) with the prefixes of its global addresses of length 64 as
 * on-link and autonomous (SLAAC).
 */
int lsk_port_ra_set(struct lsk_stack *stack, uint16_t iface, bool on);

/* What lsk_route6_get answers: listack/route.h's answer, in IPv6. */
struct lsk_route6_answer {
	uint8_t verdict;	/* enum lsk_route_verdict */
	uint8_t origin;		/* enum lsk_route_origin */
	uint8_t depth;
	uint8_t neigh_state;	/* enum lsk_route_neigh (FORWARD only) */
	struct lsk_ip6_addr prefix;
	struct lsk_ip6_addr next_hop;	/* gateway, or the destination */
	struct lsk_ip6_addr src;	/* the source our packets get */
	uint16_t iface, port, vlan, mtu;
	struct rte_ether_addr neigh_mac;
	uint32_t generation;
	/* LSK_ORIGIN_ROUTE: learned (its rtm_protocol: proto), how many
	 * paths the route has, which of them (0-based) this flow takes */
	uint8_t learned;
	uint8_t proto;
	uint8_t n_paths;
	uint8_t path;
};
/* What a packet to addr would meet now (in_iface: the interface it
 * came in on, for a link-local destination; LSK_IFACE_ANY: none). */
int lsk_route6_get(struct lsk_stack *stack, const struct lsk_ip6_addr *addr,
		   uint16_t in_iface, struct lsk_route6_answer *answer);

/* A flow, for the path an ECMP route gives it (lsk_route6_get_flow). */
struct lsk_route6_flow {
	struct lsk_ip6_addr src;	/* :: when none given */
	uint8_t proto;		/* the upper layer (IPPROTO_*); 0: none */
	uint16_t sport, dport;	/* host order */
};
/* The same for one flow: the path of an ECMP route it takes (the hash
 * the workers compute from its fields, ip6/ecmp6.h); flow NULL: none. */
int lsk_route6_get_flow(struct lsk_stack *stack,
			const struct lsk_ip6_addr *addr, uint16_t in_iface,
			const struct lsk_route6_flow *flow,
			struct lsk_route6_answer *answer);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_IP6_H */
