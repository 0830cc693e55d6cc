/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack: routes, and what the data path does with a destination.
 * Part of listack/listack.h, which includes it; include that.
 */
#ifndef LISTACK_ROUTE_H
#define LISTACK_ROUTE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_stack;
struct lsk_worker;

enum lsk_route_type {
	LSK_ROUTE_VIA = 0,	/* forward to a gateway on a connected subnet */
	LSK_ROUTE_BLACKHOLE,	/* drop silently, counted ip.InDiscards */
	LSK_ROUTE_UNREACHABLE,	/* drop, ICMP host unreachable (Linux's) */
	LSK_ROUTE_PROHIBIT,	/* drop, ICMP administratively prohibited */
};

/* ECMP: a route's paths, at most this many. */
#define LSK_ROUTE_MAX_PATHS 16
/* A path's iface when the gateway's connected subnet decides it. */
#define LSK_IFACE_ANY UINT16_MAX

/*
 * One path of a route (addresses in host order). A flow (addresses,
 * protocol, ports) always takes the same path, and so do the fragments
 * of a datagram and the members of a train; paths are taken in
 * proportion to their weights; a path whose port is down or whose
 * neighbour failed is skipped until it recovers.
 */
struct lsk_route_path {
	uint32_t gateway;	/* 0 with an iface: on-link (the destination) */
	uint16_t iface;		/* LSK_IFACE_ANY: from the gateway's subnet;
				 * given, the gateway needs no connected
				 * subnet (on-link, as a daemon's routes) */
	uint16_t weight;	/* 1..256; 0 is taken as 1 */
};

/*
 * Routes (addresses in host order). A change outside a batch is made to
 * the forwarding table in place, in time independent of the number of
 * routes (the table is built whole when it is full, or when the change
 * decides which neighbour /32s it needs); there is no fixed limit.
 *
 * lsk_route_add: -ENETUNREACH when a gateway is not on a connected
 * subnet, -EINVAL for a bad prefix or a gateway that is ours or a
 * broadcast, -EEXIST when the prefix is already routed (or is a
 * connected subnet).
 */
int lsk_route_add(struct lsk_stack *stack, uint32_t prefix, uint8_t depth,
		  enum lsk_route_type type, uint32_t gateway);
/* Add, or replace the route of (prefix, depth) (iproute2's `route
 * replace`); errors as lsk_route_add's, but -EEXIST only for a connected
 * subnet. */
int lsk_route_replace(struct lsk_stack *stack, uint32_t prefix, uint8_t depth,
		      enum lsk_route_type type, uint32_t gateway);
/* The same with n (1..LSK_ROUTE_MAX_PATHS) paths: ECMP. -EINVAL for
 * n out of range or a path given twice. */
int lsk_route_add_paths(struct lsk_stack *stack, uint32_t prefix,
			uint8_t depth, const struct lsk_route_path *paths,
			unsigned int n);
int lsk_route_replace_paths(struct lsk_stack *stack, uint32_t prefix,
			    uint8_t depth, const struct lsk_route_path *paths,
			    unsigned int n);
/* -ENOENT when no such route was added. */
int lsk_route_del(struct lsk_stack *stack, uint32_t prefix, uint8_t depth);
/* Delete every route lsk_route_add and lsk_route_replace made (not the
 * connected subnets of our addresses): how many, or a negative errno. */
int lsk_route_flush(struct lsk_stack *stack);

/*
 * Routes a routing daemon gives (FPM, src/serve/): each carries the
 * protocol it came from (rtm_protocol: RTPROT_BGP, RTPROT_OSPF, ...),
 * `show config` never writes it, and a route added by hand or by the
 * config for the same (prefix, depth) wins: the learned one waits behind
 * it and takes its place when it is deleted.
 */
struct lsk_route_learned {
	uint32_t prefix;
	uint8_t depth;
	uint8_t withdraw;	/* 1: the route of (prefix, depth) goes */
	uint8_t type;		/* enum lsk_route_type */
	uint8_t proto;		/* rtm_protocol */
	uint8_t n_paths;	/* LSK_ROUTE_VIA: 1..LSK_ROUTE_MAX_PATHS */
	struct lsk_route_path paths[LSK_ROUTE_MAX_PATHS];
};

/*
 * Learn (or withdraw) r[0..n) in order: a later entry for the same prefix
 * replaces an earlier one. The whole run is made to the forwarding tables
 * in place and published once (a long run in a few steps), never
 * rebuilding the table per route, so that a full Internet table is
 * learned in seconds. Entries that cannot be taken (a path on no port,
 * a withdrawal of nothing) are skipped and counted: the return is how
 * many were skipped, or a negative errno (-ENOMEM) with nothing of the
 * failing step changed (a run is published in steps of 8192: the steps
 * before it stay); -EBUSY inside a batch (lsk_config_begin).
 */
int lsk_route_learn(struct lsk_stack *stack,
		    const struct lsk_route_learned *r, unsigned int n);
/* A routing daemon reconnected and sends its table again: every learned
 * route is marked stale until learned again. */
void lsk_route_learn_begin_dump(struct lsk_stack *stack);
/* Its dump is over: withdraw the routes still stale; how many. */
int lsk_route_learn_sweep(struct lsk_stack *stack);
/* Withdraw every learned route; how many. */
int lsk_route_learn_flush(struct lsk_stack *stack);

/* What the data path does with a destination (lsk_route_get). */
enum lsk_route_verdict {
	LSK_VERDICT_NO_ROUTE = 0,	/* dropped, ICMP net unreachable */
	LSK_VERDICT_LOCAL,		/* one of our addresses */
	LSK_VERDICT_BROADCAST,		/* a subnet broadcast, or all-ones */
	LSK_VERDICT_BLACKHOLE,		/* dropped silently */
	LSK_VERDICT_FORWARD,		/* sent out iface to next_hop */
	LSK_VERDICT_UNREACHABLE,	/* dropped, ICMP host unreachable */
	LSK_VERDICT_PROHIBIT,		/* dropped, ICMP admin prohibited */
};

/* The state of the next hop's neighbour entry, as Linux's NUD_*. */
enum lsk_route_neigh {
	LSK_RNEIGH_NONE = 0,	/* no entry yet: the first packet asks ARP */
	LSK_RNEIGH_INCOMPLETE,	/* ARP asked, no answer yet */
	LSK_RNEIGH_REACHABLE,
	LSK_RNEIGH_STALE,	/* known, unconfirmed: used, and probed */
	LSK_RNEIGH_FAILED,	/* no answer: packets to it are dropped */
	LSK_RNEIGH_STATIC,	/* `neigh add` */
};

/* What the prefix that matched is. */
enum lsk_route_origin {
	LSK_ORIGIN_NONE = 0,	/* nothing matched */
	LSK_ORIGIN_ROUTE,	/* lsk_route_add / replace, or learned */
	LSK_ORIGIN_CONNECTED,	/* the subnet of one of our addresses */
	LSK_ORIGIN_LOCAL,	/* our address, or a broadcast (a /32) */
};

struct lsk_route_answer {
	uint8_t verdict;	/* enum lsk_route_verdict */
	uint8_t origin;		/* enum lsk_route_origin */
	uint8_t depth;		/* of the matching prefix */
	uint8_t neigh_state;	/* enum lsk_route_neigh (FORWARD only) */
	uint32_t prefix;	/* the matching prefix */
	/* FORWARD: the gateway, or the destination itself when on a
	 * connected subnet */
	uint32_t next_hop;
	uint32_t src;		/* the source our own packets get (0: none) */
	uint16_t iface;		/* interface id: a port or a VLAN of one */
	uint16_t port;		/* the physical port */
	uint16_t vlan;		/* 0: untagged */
	uint16_t mtu;		/* IP MTU out of iface */
	struct rte_ether_addr neigh_mac;	/* when the state has one */
	uint32_t generation;	/* of the forwarding table answered from */
	/* LSK_ORIGIN_ROUTE: learned from a routing daemon (its
	 * rtm_protocol: proto != 0), how many paths the route has, and
	 * which of them (0-based, in the route's order) this flow takes */
	uint8_t learned;
	uint8_t proto;
	uint8_t n_paths;
	uint8_t path;
};

/* A flow, for the path an ECMP route gives it (lsk_route_get_flow). */
struct lsk_route_flow {
	uint32_t src;		/* host order; 0: none given */
	uint8_t proto;		/* IPPROTO_*; 0: none given */
	uint16_t sport, dport;	/* host order */
};

/*
 * What a packet to addr would meet now: read from the forwarding table
 * the workers use and the neighbour table, not from the configuration
 * (in a batch, the table before it). 0, or -EINVAL.
 */
int lsk_route_get(struct lsk_stack *stack, uint32_t addr,
		  struct lsk_route_answer *answer);
/* The same for one flow: the path of an ECMP route it takes (the hash
 * the workers compute from its fields). */
int lsk_route_get_flow(struct lsk_stack *stack, uint32_t addr,
		       const struct lsk_route_flow *flow,
		       struct lsk_route_answer *answer);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_ROUTE_H */
