/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `route ...`, `neigh ...` and `route-cache ...`: where packets go and
 * to which MAC (docs/configuration.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"

#define ROUTE_USAGE "usage: route add|replace|del PREFIX via GATEWAY " \
	"[weight W]... | blackhole | unreachable | prohibit; route del " \
	"PREFIX; route get ADDRESS [from A] [proto P sport S dport D]; " \
	"route flush"

const char *const cmd_route_type_words[CMD_ROUTE_TYPES] = {
	[LSK_ROUTE_BLACKHOLE] = "blackhole",
	[LSK_ROUTE_UNREACHABLE] = "unreachable",
	[LSK_ROUTE_PROHIBIT] = "prohibit",
};

/* A route's target as the grammar writes it: "via A [weight W] via B
 * ...", or its type (weights only when one is not 1). */
void
cmd_route_target_text(const struct lsk_stack *s, const struct lsk_route *r,
		      char *buf, size_t len)
{
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
	unsigned int i, n = lsk_route_paths(s, r, p);
	bool weights = false;
	size_t k = 0;
	char gw[16];

	buf[0] = '\0';
	if (r->type != LSK_ROUTE_VIA) {
		snprintf(buf, len, "%s", r->type < CMD_ROUTE_TYPES ?
			 cmd_route_type_words[r->type] : "?");
		return;
	}
	for (i = 0; n > 1 && i < n; i++)
		weights |= p[i].weight > 1;
	for (i = 0; i < n && k < len; i++) {
		cmd_ip_text(p[i].gateway, gw, sizeof(gw));
		k += (size_t)snprintf(buf + k, len - k, "%svia %s",
				      i ? " " : "", gw);
		if (k < len && p[i].iface != LSK_IFACE_ANY)
			k += (size_t)snprintf(buf + k, len - k, " port %u",
					      p[i].iface);
		if (k < len && weights)
			k += (size_t)snprintf(buf + k, len - k, " weight %u",
					      p[i].weight ? p[i].weight : 1);
	}
}

/* "via GW [weight W]"... (*n paths) or a type word at argv[i..argc) */
static int
parse_route_target(struct cmd_ctx *c, int i, enum lsk_route_type *type,
		   struct lsk_route_path *p, unsigned int *n)
{
	unsigned long w;
	unsigned int t;

	*n = 0;
	cmd_kw(c, i, "via blackhole unreachable prohibit");
	for (t = LSK_ROUTE_BLACKHOLE; t < CMD_ROUTE_TYPES; t++) {
		if (c->argc == i + 1 &&
		    strcmp(c->argv[i], cmd_route_type_words[t]) == 0) {
			*type = (enum lsk_route_type)t;
			return 0;
		}
	}
	*type = LSK_ROUTE_VIA;
	while (i < c->argc && strcmp(c->argv[i], "via") == 0 &&
	       i + 1 < c->argc) {
		if (*n == LSK_ROUTE_MAX_PATHS)
			return cmd_error(c, -EINVAL, "more than %u paths",
					 LSK_ROUTE_MAX_PATHS);
		p[*n] = (struct lsk_route_path){ .iface = LSK_IFACE_ANY,
						 .weight = 1 };
		if (cmd_parse_ip(c->argv[i + 1], &p[*n].gateway) < 0)
			return cmd_error(c, -EINVAL, "bad gateway '%s'",
					 c->argv[i + 1]);
		i += 2;
		cmd_kw(c, i, "via weight");
		if (i + 1 < c->argc && strcmp(c->argv[i], "weight") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], 256, &w) < 0 ||
			    w == 0)
				return cmd_error(c, -EINVAL, "bad weight '%s' "
						 "(1-256)", c->argv[i + 1]);
			p[*n].weight = (uint16_t)w;
			i += 2;
			cmd_kw(c, i, "via");
		}
		(*n)++;
	}
	if (*n == 0 || i != c->argc)
		return cmd_error(c, -EINVAL, ROUTE_USAGE);
	return 0;
}

/* Does route r have the paths p[0..n) (any order) or the type? */
static bool
route_is(const struct lsk_stack *s, const struct lsk_route *r,
	 enum lsk_route_type type, const struct lsk_route_path *p,
	 unsigned int n)
{
	struct lsk_route_path has[LSK_ROUTE_MAX_PATHS];
	unsigned int i, j, k;

	if (r->type != type)
		return false;
	k = lsk_route_paths(s, r, has);
	if (k != n)
		return type != LSK_ROUTE_VIA;
	for (i = 0; i < n; i++) {
		for (j = 0; j < k && has[j].gateway != p[i].gateway; j++)
			;
		if (j == k)
			return false;
	}
	return true;
}

/* argv[i..argc) joined by spaces */
static void
words_text(const struct cmd_ctx *c, int i, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (; i < c->argc && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s",
				      k ? " " : "", c->argv[i]);
}

/* the gateways of p[0..n), joined by ", " */
static void
paths_text(const struct lsk_route_path *p, unsigned int n, char *buf,
	   size_t len)
{
	unsigned int i;
	size_t k = 0;
	char gw[16];

	buf[0] = '\0';
	for (i = 0; i < n && k < len; i++) {
		cmd_ip_text(p[i].gateway, gw, sizeof(gw));
		k += (size_t)snprintf(buf + k, len - k, "%s%s",
				      i ? ", " : "", gw);
	}
}

int
cmd_route_refused_rc(struct cmd_ctx *c, int rc, bool replace,
		     const char *verb, const char *connected)
{
	if (rc == -EEXIST)
		return replace ? cmd_error(c, rc, "%s is a connected %s",
					   c->argv[2], connected) :
				 cmd_error(c, rc, "route %s exists already",
					   c->argv[2]);
	return cmd_error(c, rc, "cannot %s route %s: %s", verb, c->argv[2],
			 strerror(-rc));
}

int
cmd_route_is_not(struct cmd_ctx *c, const char *has, const char *asked)
{
	return cmd_error(c, -ENOENT, "route %s is %s, not %s", c->argv[2],
			 has, asked);
}

int
cmd_route_deleted(struct cmd_ctx *c, int rc)
{
	if (rc == -ENOENT)
		return cmd_error(c, rc, "no route %s to delete", c->argv[2]);
	return rc < 0 ? cmd_error(c, rc, "cannot delete %s: %s", c->argv[2],
				  strerror(-rc)) : 0;
}

/* route del PFX [target]: the route must be that one */
static int
cmd_route_del(struct cmd_ctx *c, uint32_t prefix, uint8_t depth)
{
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
	char has[256], asked[256];
	const struct lsk_route *r;
	enum lsk_route_type type;
	unsigned int n;
	int rc;

	if (c->argc <= 3)
		return c->check ? 0 : cmd_route_deleted(c, lsk_route_del(c->s,
							prefix, depth));
	rc = parse_route_target(c, 3, &type, p, &n);
	if (rc < 0 || c->check)
		return rc;
	r = lsk_route_find(c->s, prefix, depth);
	if (r != NULL && !route_is(c->s, r, type, p, n)) {
		struct lsk_route want = { .type = (uint8_t)type };

		cmd_route_target_text(c->s, r, has, sizeof(has));
		if (type == LSK_ROUTE_VIA && r->type == LSK_ROUTE_VIA)
			paths_text(p, n, asked, sizeof(asked));
		else if (type == LSK_ROUTE_VIA)
			words_text(c, 3, asked, sizeof(asked));
		else
			cmd_route_target_text(c->s, &want, asked,
					      sizeof(asked));
		return cmd_route_is_not(c, has, asked);
	}
	return cmd_route_deleted(c, lsk_route_del(c->s, prefix, depth));
}

/* A flow word of `route get` at argv[i] (proto, sport, dport, each
 * with its value; icmp6: IPv6's protocol words): 1 taken, 0 not one,
 * or an error written. */
static int
cmd_route_flow_word(struct cmd_ctx *c, int i, bool icmp6, uint8_t *proto,
		    uint16_t *sport, uint16_t *dport)
{
	const char *v_text = i + 1 < c->argc ? c->argv[i + 1] : "";
	const char *icmp = icmp6 ? "icmp6" : "icmp";
	unsigned long v;

	if (strcmp(c->argv[i], "proto") == 0) {
		if (strcmp(v_text, "udp") == 0)
			*proto = IPPROTO_UDP;
		else if (strcmp(v_text, "tcp") == 0)
			*proto = IPPROTO_TCP;
		else if (strcmp(v_text, icmp) == 0)
			*proto = icmp6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
		else if (cmd_parse_uint(v_text, 255, &v) == 0)
			*proto = (uint8_t)v;
		else
			return cmd_error(c, -EINVAL, "bad protocol '%s' (udp, "
					 "tcp, %s or 0-255)", v_text, icmp);
		return 1;
	}
	if (strcmp(c->argv[i], "sport") == 0 ||
	    strcmp(c->argv[i], "dport") == 0) {
		if (cmd_parse_uint(v_text, 65535, &v) < 0)
			return cmd_error(c, -EINVAL, "bad port '%s'", v_text);
		if (c->argv[i][0] == 's')
			*sport = (uint16_t)v;
		else
			*dport = (uint16_t)v;
		return 1;
	}
	return 0;
}

int
cmd_route_get_words(struct cmd_ctx *c, int i, bool v6, void *src,
		    uint8_t *proto, uint16_t *sport, uint16_t *dport)
{
	int rc;

	for (; i < c->argc; i += 2) {
		const char *v_text = i + 1 < c->argc ? c->argv[i + 1] : "";

		cmd_kw(c, i, "from proto sport dport");
		if (i + 1 >= c->argc)
			return cmd_error(c, -EINVAL, "'%s' needs a value",
					 c->argv[i]);
		if (strcmp(c->argv[i], "from") == 0) {
			rc = v6 ? cmd_parse_ip6(v_text, src) :
				  cmd_parse_ip(v_text, src);
			if (rc < 0)
				return cmd_error(c, -EINVAL, "bad address "
						 "'%s'%s", v_text, v6 ?
						 " (want an IPv6 address)" :
						 "");
			continue;
		}
		rc = cmd_route_flow_word(c, i, v6, proto, sport, dport);
		if (rc < 0)
			return rc;
		if (rc == 0)
			return cmd_error(c, -EINVAL, "unknown word '%s' (%s"
					 "from, proto, sport, dport)",
					 c->argv[i], v6 ? "port, " : "");
	}
	return 0;
}

/* route get ADDR [from A] [proto P [sport S] [dport D]]: what a packet
 * of that flow to ADDR meets now */
static int
cmd_route_get(struct cmd_ctx *c)
{
	struct lsk_route_flow flow = { 0 };
	uint32_t addr;
	int rc;

	if (c->argc < 3 || cmd_parse_ip(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "usage: route get ADDRESS "
				 "[from ADDRESS] [proto udp|tcp|icmp|N "
				 "[sport S] [dport D]]");
	rc = cmd_route_get_words(c, 3, false, &flow.src, &flow.proto,
				 &flow.sport, &flow.dport);
	if (rc < 0)
		return rc;
	if (c->check)
		return 0;
	rc = lsk_route_get_show(c->s, c->o, addr, &flow);
	return rc < 0 ? cmd_error(c, rc, "route get: %s", strerror(-rc)) : 0;
}

/* Why lsk_route_add refused paths p[0..n): the message. */
static int
route_refused(struct cmd_ctx *c, int rc, const struct lsk_route_path *p,
	      unsigned int n, bool replace, const char *verb)
{
	char gw[16];
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		cmd_ip_text(p[i].gateway, gw, sizeof(gw));
		if (rc == -ENETUNREACH &&
		    lsk_connected_lookup(c->s, p[i].gateway) == NULL)
			return cmd_error(c, rc, "gateway %s is not on a "
					 "connected subnet", gw);
		if (rc == -EINVAL && (lsk_stack_is_own(c->s, p[i].gateway) ||
				      lsk_stack_is_broadcast(c->s,
							     p[i].gateway)))
			return cmd_error(c, rc, "gateway %s is %s", gw,
					 lsk_stack_is_own(c->s, p[i].gateway) ?
					 "one of our addresses" :
					 "a broadcast address");
		for (j = 0; rc == -EINVAL && j < i; j++)
			if (p[j].gateway == p[i].gateway)
				return cmd_error(c, rc, "gateway %s given "
						 "twice", gw);
	}
	return cmd_route_refused_rc(c, rc, replace, verb, "subnet");
}

/*
 * route add|replace PFX TARGET, route del PFX [TARGET], route get ADDR
 * [flow], route flush
 */
int
cmd_route(struct cmd_ctx *c)
{
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
	enum lsk_route_type type;
	uint32_t prefix;
	const char *verb = c->argc > 1 ? c->argv[1] : "";
	bool replace = strcmp(verb, "replace") == 0;
	unsigned int n;
	uint8_t depth;
	int rc;

	if (strcmp(verb, "get") == 0)
		return c->argc > 2 && cmd_is_ip6(c->argv[2]) ?
		       cmd_route6_get(c) : cmd_route_get(c);
	if (strcmp(verb, "flush") == 0 && c->argc == 2) {
		if (c->check)
			return 0;
		rc = lsk_route_flush(c->s);
		return rc < 0 ? cmd_error(c, rc, "cannot flush routes: %s",
					  strerror(-rc)) : 0;
	}
	if (c->argc < 3 || (!replace && strcmp(verb, "add") != 0 &&
			    strcmp(verb, "del") != 0))
		return cmd_error(c, -EINVAL, ROUTE_USAGE);
	/* IPv6 (cli/cmd_ip6.c), "default" too when its gateway is */
	if (cmd_is_ip6(c->argv[2]) || (strcmp(c->argv[2], "default") == 0 &&
				       c->argc > 4 && cmd_is_ip6(c->argv[4])))
		return cmd_route6(c);
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
	rc = parse_route_target(c, 3, &type, p, &n);
	if (rc < 0 || c->check)
		return rc;
	if (type != LSK_ROUTE_VIA)
		rc = replace ? lsk_route_replace(c->s, prefix, depth, type, 0) :
			       lsk_route_add(c->s, prefix, depth, type, 0);
	else
		rc = replace ? lsk_route_replace_paths(c->s, prefix, depth, p,
						       n) :
			       lsk_route_add_paths(c->s, prefix, depth, p, n);
	return rc < 0 ? route_refused(c, rc, p, n, replace, verb) : 0;
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

	if (c->argc >= 3 && cmd_is_ip6(c->argv[2]))
		return cmd_neigh6(c);	/* cli/cmd_ip6.c */
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
