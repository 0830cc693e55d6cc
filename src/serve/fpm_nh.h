/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * zebra's nexthops as the FPM server keeps them (serve/fpm_nh.c): a
 * bounded table id -> nexthop or group, and a decoded route made into
 * the route to learn (its nexthop group resolved, the kernel's ifindexes
 * made our interfaces). No stack: the server hands the ifindex map.
 */
#ifndef LSK_SERVE_FPM_NH_H
#define LSK_SERVE_FPM_NH_H

#include <stdint.h>

#include "listack/listack.h"
#include "serve/fpm_msg.h"

struct lsk_fpm_nh_table;

/* At most max nexthops (a new id past it is -ENOSPC). NULL: no memory. */
struct lsk_fpm_nh_table *lsk_fpm_nh_table_new(unsigned int max);
void lsk_fpm_nh_table_free(struct lsk_fpm_nh_table *t);
/* Add or replace nh->id: 0, -ENOSPC (full), -ENOMEM. */
int lsk_fpm_nh_set(struct lsk_fpm_nh_table *t, const struct lsk_fpm_nh *nh);
/* 0, or -ENOENT. */
int lsk_fpm_nh_del(struct lsk_fpm_nh_table *t, uint32_t id);
const struct lsk_fpm_nh *lsk_fpm_nh_find(const struct lsk_fpm_nh_table *t,
					 uint32_t id);
unsigned int lsk_fpm_nh_count(const struct lsk_fpm_nh_table *t);

/* The interface (a port or a VLAN of one) the kernel knows as ifindex,
 * or a negative errno when none (lsk_host_iface_of_ifindex's answer). */
typedef int (*lsk_fpm_iface_fn)(void *arg, uint32_t ifindex);

/*
 * The IPv4 route r asks for, as lsk_route_learn takes it: its own paths or
 * its nexthop's (a group's members, a group of groups flattened one
 * level, weights multiplied), each path's ifindex made an interface by
 * iface_of. A path whose ifindex names none of ours keeps its gateway
 * with LSK_IFACE_ANY (its connected subnet decides) or, without a
 * gateway, is left out; paths alike are one, their weights summed.
 * 0, -ENOENT (r names an unknown nexthop: SkipNoNexthop), -EEXIST
 * (zebra's connected route, proto kernel with no gateway: our own
 * subnet, SkipConnected) or -ENETUNREACH (no path left: SkipNoPath),
 * counted in *cnt. A path whose gateway is of the other family is left
 * out (SkipInet6). -EAFNOSUPPORT: r is an IPv6 route.
 */
int lsk_fpm_route_resolve(const struct lsk_fpm_nh_table *t,
			  const struct lsk_fpm_route *r,
			  lsk_fpm_iface_fn iface_of, void *arg,
			  struct lsk_route_learned *out,
			  struct lsk_fpm_stats *cnt);
/* The same for an IPv6 route (r->family AF_INET6), as lsk_route6_learn
 * takes it; a link-local gateway (fe80::/10) whose ifindex names none
 * of our interfaces is left out: it means nothing without its link.
 * -EAFNOSUPPORT: r is not an IPv6 route. */
int lsk_fpm_route6_resolve(const struct lsk_fpm_nh_table *t,
			   const struct lsk_fpm_route *r,
			   lsk_fpm_iface_fn iface_of, void *arg,
			   struct lsk_route6_learned *out,
			   struct lsk_fpm_stats *cnt);

#endif /* LSK_SERVE_FPM_NH_H */
