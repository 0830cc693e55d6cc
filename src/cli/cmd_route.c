/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `route ...`, `neigh ...` and `route-cache ...`: where packets go and
 * to which MAC (docs/configuration.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"

/* "via GW" or "blackhole" at argv[i..argc) */
static int
parse_route_target(struct cmd_ctx *c, int i, enum lsk_route_type *type,
		   uint32_t *gw)
{
	*gw = 0;
	cmd_kw(c, i, "via blackhole");
	if (c->argc == i + 2 && strcmp(c->argv[i], "via") == 0) {
		*type = LSK_ROUTE_VIA;
		if (cmd_parse_ip(c->argv[i + 1], gw) < 0)
			return cmd_error(c, -EINVAL, "bad gateway '%s'",
					 c->argv[i + 1]);
		return 0;
	}
	if (c->argc == i + 1 && strcmp(c->argv[i], "blackhole") == 0) {
		*type = LSK_ROUTE_BLACKHOLE;
		return 0;
	}
	return cmd_error(c, -EINVAL, "usage: route add|replace|del PREFIX "
			 "via GATEWAY | blackhole; route del PREFIX; "
			 "route get ADDRESS; route flush");
}

/* what the route has, then what the command named: "is via A, not B" */
static int
route_not_that_one(struct cmd_ctx *c, const struct lsk_route *r,
		   enum lsk_route_type asked)
{
	char has[32], gw[INET_ADDRSTRLEN];

	if (r->type == LSK_ROUTE_VIA) {
		cmd_ip_text(r->gateway, gw, sizeof(gw));
		snprintf(has, sizeof(has), "via %s", gw);
	} else {
		snprintf(has, sizeof(has), "blackhole");
	}
	if (asked == LSK_ROUTE_VIA && r->type == LSK_ROUTE_VIA)
		return cmd_error(c, -ENOENT, "route %s is %s, not %s",
				 c->argv[2], has, c->argv[4]);
	return cmd_error(c, -ENOENT, "route %s is %s, not %s%s%s", c->argv[2],
			 has, c->argv[3], c->argc > 4 ? " " : "",
			 c->argc > 4 ? c->argv[4] : "");
}

/* route del PFX [via GW | blackhole]: the route must be that one */
static int
cmd_route_del(struct cmd_ctx *c, uint32_t prefix, uint8_t depth)
{
	const struct lsk_route *r;
	enum lsk_route_type type;
	uint32_t gw;
	int rc;

	if (c->argc > 3) {
		rc = parse_route_target(c, 3, &type, &gw);
		if (rc < 0 || c->check)
			return rc;
		r = lsk_route_find(c->s, prefix, depth);
		if (r != NULL && (r->type != type || r->gateway != gw))
			return route_not_that_one(c, r, type);
	} else if (c->check) {
		return 0;
	}
	rc = lsk_route_del(c->s, prefix, depth);
	if (rc == -ENOENT)
		return cmd_error(c, rc, "no route %s to delete", c->argv[2]);
	return rc < 0 ? cmd_error(c, rc, "cannot delete %s: %s", c->argv[2],
				  strerror(-rc)) : 0;
}

/* route get ADDR: what a packet to ADDR meets now */
static int
cmd_route_get(struct cmd_ctx *c)
{
	uint32_t addr;
	int rc;

	if (c->argc != 3 || cmd_parse_ip(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "usage: route get ADDRESS");
	if (c->check)
		return 0;
	rc = lsk_route_get_show(c->s, c->o, addr);
	return rc < 0 ? cmd_error(c, rc, "route get: %s", strerror(-rc)) : 0;
}

/*
 * route add|replace PFX via GW | blackhole, route del PFX [via GW |
 * blackhole], route get ADDR, route flush
 */
int
cmd_route(struct cmd_ctx *c)
{
	enum lsk_route_type type;
	uint32_t prefix, gw;
	const char *verb = c->argc > 1 ? c->argv[1] : "";
	bool replace = strcmp(verb, "replace") == 0;
	uint8_t depth;
	int rc;

	if (strcmp(verb, "get") == 0)
		return cmd_route_get(c);
	if (strcmp(verb, "flush") == 0 && c->argc == 2) {
		if (c->check)
			return 0;
		rc = lsk_route_flush(c->s);
		return rc < 0 ? cmd_error(c, rc, "cannot flush routes: %s",
					  strerror(-rc)) : 0;
	}
	if (c->argc < 3 || (!replace && strcmp(verb, "add") != 0 &&
			    strcmp(verb, "del") != 0))
		return parse_route_target(c, c->argc, &type, &gw);
	/* a route's length is never implied: 10.8.0.0 alone would be a
	 * host route, rarely what was meant */
	if (strchr(c->argv[2], '/') == NULL &&
	    strcmp(c->argv[2], "default") != 0 &&
	    cmd_parse_ip(c->argv[2], &prefix) == 0)
		return cmd_error(c, -EINVAL, "route needs a prefix length: "
				 "%s/LEN (a host route is %s/32)", c->argv[2],
				 c->argv[2]);
	rc = cmd_parse_route_prefix(c, c->argv[2], &prefix, &depth);
	if (rc < 0)
		return rc;
	if (strcmp(verb, "del") == 0)
		return cmd_route_del(c, prefix, depth);
	rc = parse_route_target(c, 3, &type, &gw);
	if (rc < 0 || c->check)
		return rc;
	rc = replace ? lsk_route_replace(c->s, prefix, depth, type, gw) :
		       lsk_route_add(c->s, prefix, depth, type, gw);
	if (rc == -EINVAL && type == LSK_ROUTE_VIA)
		return cmd_error(c, rc, "gateway %s is %s", c->argv[4],
				 lsk_stack_is_own(c->s, gw) ?
				 "one of our addresses" : "a broadcast address");
	if (rc == -ENETUNREACH)
		return cmd_error(c, rc,
				 "gateway %s is not on a connected subnet",
				 c->argv[4]);
	if (rc == -EEXIST)
		return cmd_error(c, rc, replace ? "%s is a connected subnet" :
				 "route %s exists already", c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot %s route %s: %s", verb,
				 c->argv[2], strerror(-rc));
	return 0;
}

/* neigh del A.B.C.D | neigh flush */
static int
neigh_del(struct cmd_ctx *c)
{
	uint32_t addr = 0;
	int rc;

	if (strcmp(c->argv[1], "flush") == 0) {
		if (c->argc != 2)
			return cmd_error(c, -EINVAL, "usage: neigh flush");
		return c->check ? 0 : lsk_neigh_flush(c->s);
	}
	if (c->argc != 3)
		return cmd_error(c, -EINVAL, "usage: neigh del A.B.C.D");
	if (cmd_parse_ip(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "bad address '%s'", c->argv[2]);
	if (c->check)
		return 0;
	rc = lsk_neigh_del(c->s, addr);
	if (rc == -ENOENT)
		return cmd_error(c, rc, "no neighbour %s", c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot delete neighbour %s: %s",
				 c->argv[2], strerror(-rc));
	return 0;
}

/* neigh add A.B.C.D lladdr MAC */
int
cmd_neigh(struct cmd_ctx *c)
{
	struct rte_ether_addr mac;
	uint32_t addr;
	int rc;

	if (c->argc >= 2 && (strcmp(c->argv[1], "del") == 0 ||
			     strcmp(c->argv[1], "flush") == 0))
		return neigh_del(c);
	cmd_kw(c, 3, "lladdr");
	if (c->argc != 5 || strcmp(c->argv[1], "add") != 0 ||
	    strcmp(c->argv[3], "lladdr") != 0)
		return cmd_error(c, -EINVAL, "usage: neigh add A.B.C.D lladdr "
				 "MAC | neigh del A.B.C.D | neigh flush");
	if (cmd_parse_ip(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "bad address '%s'", c->argv[2]);
	rc = cmd_parse_mac(c, c->argv[4], &mac);
	if (rc < 0)
		return rc;
	if (c->check)
		return 0;
	rc = lsk_neigh_add(c->s, addr, &mac);
	if (rc == -EINVAL)
		return cmd_error(c, rc, "%s is %s", c->argv[2],
				 lsk_stack_is_own(c->s, addr) ?
				 "one of our addresses" : "a broadcast address");
	if (rc == -ENETUNREACH)
		return cmd_error(c, rc, "%s is not on a connected subnet",
				 c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot add neighbour %s: %s",
				 c->argv[2], strerror(-rc));
	return 0;
}

static int
route_cache_set(struct cmd_ctx *c, uint32_t entries)
{
	if (!c->s->in_batch)
		return lsk_route_cache_set(c->s, entries);
	c->s->batch_set.rcache = true;
	c->s->batch_set.rcache_entries = entries;
	return 0;
}

/* route-cache on [entries N] | route-cache off */
int
cmd_route_cache(struct cmd_ctx *c)
{
	unsigned long entries = 4096;

	if (c->argc == 2 && strcmp(c->argv[1], "off") == 0)
		return c->check ? 0 : route_cache_set(c, 0);
	cmd_kw(c, 2, "entries");
	if (c->argc == 4 && strcmp(c->argv[1], "on") == 0 &&
	    strcmp(c->argv[2], "entries") == 0) {
		if (cmd_parse_uint(c->argv[3], 1u << 24, &entries) < 0 ||
		    entries == 0)
			return cmd_error(c, -EINVAL, "bad entries '%s' "
					 "(1-16777216)", c->argv[3]);
	} else if (!(c->argc == 2 && strcmp(c->argv[1], "on") == 0)) {
		return cmd_error(c, -EINVAL, "usage: route-cache on "
				 "[entries N] | route-cache off");
	}
	return c->check ? 0 : route_cache_set(c, (uint32_t)entries);
}
