/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6's configuration as the control thread keeps it (addresses:
 * control/ifaces6.c; routes: control/routes6.c, learned ones:
 * control/route6_learn.c) and the tables built from it
 * (control/fwd6_table.c). As IPv4's (control/fwd_update.c), a route
 * change is made in place to a standby table no worker sees, which is
 * published, then to the table it replaced (control/fwd6_update.c): a
 * routing daemon's table over FPM is 100k routes and more, which a build
 * per change would make O(table) a change. Other changes (addresses,
 * neighbours, ports) build the table whole.
 */
#ifndef LSK_CONTROL_ROUTES6_H
#define LSK_CONTROL_ROUTES6_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "listack/listack.h"
#include "core/fwd6.h"

struct lsk_stack;

/* A configured route (type: enum lsk_route_type). Its paths inline
 * (IPv4 interns its sets, control/route_paths.c, for a full table of
 * learned routes; IPv6's lists are a configuration's and a daemon's
 * few): paths[0, n_paths) for LSK_ROUTE_VIA, each path's iface
 * LSK_IFACE_ANY when its gateway's prefix decides it, weights 1..256. */
struct lsk_route6 {
	struct lsk_ip6_addr prefix;
	uint8_t depth;
	uint8_t type;
	/* learned routes (control/route6_learn.c): rtm_protocol, and 1
	 * while a daemon's dump has not repeated it; 0 when configured */
	uint8_t proto;
	uint8_t stale;
	uint8_t n_paths;	/* LSK_ROUTE_VIA: 1..LSK_ROUTE_MAX_PATHS */
	struct lsk_route6_path paths[LSK_ROUTE_MAX_PATHS];
};

/* A static neighbour (`neigh add ADDR6 MAC [port N]`). */
struct lsk_neigh6 {
	struct lsk_ip6_addr addr;
	uint16_t iface;
	struct rte_ether_addr mac;
};

/*
 * One IPv6 route change as the FIB sees it: the route of (prefix, depth)
 * before and after (none when !before_set / !now_set), as IPv4's
 * (control/routes.h). The tables apply it, or its inverse to undo it.
 */
struct lsk_route6_delta {
	struct lsk_route6 before, now;
	bool before_set, now_set;
};

/* Build the table from s's IPv6 configuration and its interfaces (0 or
 * a negative errno, nothing built), free one. */
int lsk_fwd6_table_build(struct lsk_stack *s, struct lsk_fwd6_table **out);
void lsk_fwd6_table_free(struct lsk_fwd6_table *t);
/* Route r in t, a table no worker sees, or (prefix, depth) out of it: a
 * failure leaves t as it was (control/fwd6_table.c). */
int lsk_fwd6_route_set(struct lsk_stack *s, struct lsk_fwd6_table *t,
		       const struct lsk_route6 *r);
int lsk_fwd6_route_unset(struct lsk_fwd6_table *t,
			 const struct lsk_ip6_addr *prefix, uint8_t depth);
/* A change of (prefix, depth) touches no entry a build adds besides it
 * (a connected prefix's, one of our /128s). */
bool lsk_fwd6_route_isolated(const struct lsk_stack *s,
			     const struct lsk_ip6_addr *prefix, uint8_t depth);
/* Hand a table built whole to the workers (s->sh.fwd6); the old one goes
 * after a grace period, the standby is built anew. Cannot fail (a
 * standby that cannot be built is none). */
void lsk_fwd6_publish(struct lsk_stack *s, struct lsk_fwd6_table *t);
/*
 * Make route changes d[0..n) (already made to the lists) to the tables:
 * to the standby, which is then published, then to the table it
 * replaced once no worker reads it (control/fwd6_update.c). When that
 * cannot be done (no standby, a change touching a connected prefix or
 * one of our addresses, a full FIB or next hop array) and whole is set,
 * a table is built whole instead. A failure (-ENOMEM, -ENOSPC; or
 * -EAGAIN: not done in place and !whole) leaves the published table as
 * it was. Control thread only.
 */
int lsk_fwd6_routes_apply(struct lsk_stack *s,
			  const struct lsk_route6_delta *d, unsigned int n,
			  bool whole);
/* The standby goes (the stack's end). */
void lsk_fwd6_standby_free(struct lsk_stack *s);
/* A batch's IPv6 route changes (control/routes6.c): its log emptied (a
 * batch begun or put back); made to the tables in place at its commit
 * (0), or -EAGAIN (a log full, or not in place: build whole) with both
 * tables as they were. */
void lsk_route6_batch_begin(struct lsk_stack *s);
int lsk_route6_batch_commit(struct lsk_stack *s);
/* Build and publish (nothing in a batch: its commit does). A failure
 * leaves the published table in force. */
int lsk_stack_publish6(struct lsk_stack *s);

/* The automatic link-local address of a MAC: fe80::/64 and the modified
 * EUI-64 interface identifier (RFC 4291 2.5.1, appendix A). */
void lsk_ip6_linklocal_of(const struct rte_ether_addr *mac,
			  struct lsk_ip6_addr *out);
/* addr with the bits past depth cleared. */
void lsk_ip6_mask(const struct lsk_ip6_addr *addr, uint8_t depth,
		  struct lsk_ip6_addr *out);

/* The configured global address whose prefix holds addr (the longest),
 * or NULL: the connected prefixes (link-local ones are not). */
const struct lsk_ifaddr6 *lsk_connected6_lookup(const struct lsk_stack *s,
						const struct lsk_ip6_addr *addr);
/* addr is ours on iface (LSK_IFACE_ANY: any), configured or automatic. */
bool lsk_stack_is_own6(const struct lsk_stack *s,
		       const struct lsk_ip6_addr *addr, uint16_t iface);
/* The configured route of (prefix, depth), or NULL. */
const struct lsk_route6 *lsk_route6_find(const struct lsk_stack *s,
					 const struct lsk_ip6_addr *prefix,
					 uint8_t depth);
/* Forget the neighbour addr on iface (static or learnt) in the ND
 * table: at the batch's commit, or now outside a batch
 * (control/batch.c); every one of both families: lsk_stack_forget_neigh
 * (s, 0). */
int lsk_stack_forget_neigh6(struct lsk_stack *s,
			    const struct lsk_ip6_addr *addr, uint16_t iface);
/* The configured static neighbours into the ND table (a batch's commit,
 * control/neigh6.c). */
void lsk_neigh6_set_statics(struct lsk_stack *s);
/* The routes via a global gateway no connected prefix reaches any more
 * go (an address deleted): how many. */
unsigned int lsk_routes6_drop_unreachable(struct lsk_stack *s);

/* A route lsk_route6_add_paths would take (0), or why not (its
 * errors); p, n: its paths (LSK_ROUTE_VIA only). */
int lsk_route6_check(const struct lsk_stack *s,
		     const struct lsk_ip6_addr *prefix, uint8_t depth,
		     enum lsk_route_type type,
		     const struct lsk_route6_path *p, unsigned int n);
/* The route of (prefix, depth) of that type over p[0, n) into r
 * (weights 0 taken as 1), checked first (lsk_route6_check). */
int lsk_route6_make(const struct lsk_stack *s,
		    const struct lsk_ip6_addr *prefix, uint8_t depth,
		    enum lsk_route_type type,
		    const struct lsk_route6_path *p, unsigned int n,
		    struct lsk_route6 *r);
/* Path p of a route reaches a next hop: its iface given, or its
 * gateway on a connected prefix. */
bool lsk_route6_path_reachable(const struct lsk_stack *s,
			       const struct lsk_route6_path *p);
/* The learned route of (prefix, depth) (control/route6_learn.c), or
 * NULL; every learned route freed (the stack's end). */
const struct lsk_route6 *lsk_learned6_find(const struct lsk_stack *s,
					   const struct lsk_ip6_addr *prefix,
					   uint8_t depth);
void lsk_route6_learn_free(struct lsk_stack *s);
/* control/route_learn.c's begin_dump, sweep and flush for IPv6's
 * learned routes: mark them stale; withdraw the stale ones (all: every
 * one): how many, or a negative errno. */
void lsk_route6_learn_mark_stale(struct lsk_stack *s);
int lsk_route6_learn_withdraw(struct lsk_stack *s, bool all);

#endif /* LSK_CONTROL_ROUTES6_H */
