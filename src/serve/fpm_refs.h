/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which learned routes name which of zebra's nexthops (serve/fpm_refs.c),
 * so that a nexthop replaced under its id (RTM_NEWNEXTHOP again, as the
 * kernel takes it: every route naming it follows) is made to the routes
 * that use it, alone or in a group.
 */
#ifndef LSK_SERVE_FPM_REFS_H
#define LSK_SERVE_FPM_REFS_H

#include <stdint.h>

#include "listack/listack.h"

struct lsk_fpm_refs;

struct lsk_fpm_ref {
	uint8_t family;		/* AF_INET: prefix; AF_INET6: prefix6 */
	uint32_t prefix;
	struct lsk_ip6_addr prefix6;
	uint8_t depth;
	uint8_t proto;
	uint32_t nh_id;
};

/* NULL: no memory. */
struct lsk_fpm_refs *lsk_fpm_refs_new(void);
void lsk_fpm_refs_free(struct lsk_fpm_refs *r);
/* The route of (prefix, depth) names nh_id (0: none, or it went).
 * 0 or -ENOMEM (the route is then not followed). */
int lsk_fpm_refs_set(struct lsk_fpm_refs *r, uint32_t prefix, uint8_t depth,
		     uint32_t nh_id, uint8_t proto);
/* The same for an IPv6 route (its own keys: never an IPv4 one's). */
int lsk_fpm_refs_set6(struct lsk_fpm_refs *r,
		      const struct lsk_ip6_addr *prefix, uint8_t depth,
		      uint32_t nh_id, uint8_t proto);
unsigned int lsk_fpm_refs_count(const struct lsk_fpm_refs *r);
/* The i-th slot's route (i < lsk_fpm_refs_slots): 1, or 0 when free. */
unsigned int lsk_fpm_refs_slots(const struct lsk_fpm_refs *r);
int lsk_fpm_refs_at(const struct lsk_fpm_refs *r, unsigned int i,
		    struct lsk_fpm_ref *out);

#endif /* LSK_SERVE_FPM_REFS_H */
