/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 route words: IPv4's (cli/cmd_route.c) with IPv6 addresses,
 * ECMP paths as IPv4's (docs/configuration.md "IPv6"). cmd_route hands
 * a line here when its address has a ':'.
 *
 *   route add|replace PREFIX6/LEN via GW6 [port N [vlan V]] [weight W]
 *                                 [via GW6 ...]...
 *   route add|replace PREFIX6/LEN blackhole|unreachable|prohibit
 *   route del PREFIX6/LEN [via GW6 ...|blackhole|...]
 *   route get ADDR6 [port N [vlan V]] [from ADDR6]
 *                   [proto udp|tcp|icmp6|N] [sport S] [dport D]
 *
 * A link-local gateway names its port: fe80::/10 is on every link.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "core/fwd6.h"
#include "control/control.h"
#include "cli/cmd.h"

#define ROUTE6_USAGE "usage: route add|replace PREFIX6/LEN via GATEWAY6 " \
	"[port N [vlan V]] [weight W] [via ...] | blackhole | unreachable " \
	"| prohibit; route del PREFIX6/LEN; route get ADDRESS6 [port N " \
	"[vlan V]] [from ADDRESS6] [proto P] [sport S] [dport D]"

/* What a route line asks for: a type, or n paths whose interfaces are
 * the ports and VLANs given (resolved once the line is applied). */
struct route6_target {
	enum lsk_route_type type;
	unsigned int n;
	struct lsk_route6_path p[LSK_ROUTE_MAX_PATHS];
	uint16_t port[LSK_ROUTE_MAX_PATHS], vlan[LSK_ROUTE_MAX_PATHS];
};

/* "via GW6 [port N [vlan V]] [weight W]"... or a type word at
 * argv[i..argc) */
static int
parse_route6_target(struct cmd_ctx *c, int i, struct route6_target *t)
{
	unsigned long w;
	unsigned int k;
	int rc;

	memset(t, 0, sizeof(*t));
	cmd_kw(c, i, "via blackhole unreachable prohibit");
	for (k = LSK_ROUTE_BLACKHOLE; k < CMD_ROUTE_TYPES; k++) {
		if (c->argc == i + 1 &&
		    strcmp(c->argv[i], cmd_route_type_words[k]) == 0) {
			t->type = (enum lsk_route_type)k;
			return 0;
		}
	}
	t->type = LSK_ROUTE_VIA;
	while (i + 1 < c->argc && strcmp(c->argv[i], "via") == 0) {
		struct lsk_route6_path *p = &t->p[t->n];

		if (t->n == LSK_ROUTE_MAX_PATHS)
			return cmd_error(c, -EINVAL, "more than %u paths",
					 LSK_ROUTE_MAX_PATHS);
		p->iface = LSK_IFACE_ANY;
		p->weight = 1;
		if (cmd_parse_ip6(c->argv[i + 1], &p->gateway) < 0)
			return cmd_error(c, -EINVAL, "bad gateway '%s' (want "
					 "an IPv6 address)", c->argv[i + 1]);
		i += 2;
		rc = cmd_parse_port_vlan(c, &i, &t->port[t->n],
					 &t->vlan[t->n]);
		if (rc < 0)
			return rc;
		cmd_kw(c, i, "via weight");
		if (i + 1 < c->argc && strcmp(c->argv[i], "weight") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], 256, &w) < 0 ||
			    w == 0)
				return cmd_error(c, -EINVAL, "bad weight '%s' "
						 "(1-256)", c->argv[i + 1]);
			p->weight = (uint16_t)w;
			i += 2;
			cmd_kw(c, i, "via");
		}
		t->n++;
	}
	if (t->n == 0 || i != c->argc)
		return cmd_error(c, -EINVAL, ROUTE6_USAGE);
	return 0;
}

/* The paths' interfaces from their ports and VLANs. */
static int
route6_target_ifaces(struct cmd_ctx *c, struct route6_target *t)
{
	unsigned int k;
	int rc;

	for (k = 0; k < t->n; k++) {
		rc = cmd_iface_of(c, t->port[k], t->vlan[k], &t->p[k].iface);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A route's target as the grammar writes it (show config, errors):
 * "via A [port N [vlan V]] [weight W] via B ...", weights only when one
 * is not 1, or its type. */
void
cmd_route6_target_text(const struct lsk_stack *s, const struct lsk_route6 *r,
		       char *buf, size_t len)
{
	char gw[INET6_ADDRSTRLEN], where[32];
	bool weights = false;
	unsigned int i;
	size_t k = 0;

	buf[0] = '\0';
	if (r->type != LSK_ROUTE_VIA) {
		snprintf(buf, len, "%s", r->type < CMD_ROUTE_TYPES ?
			 cmd_route_type_words[r->type] : "?");
		return;
	}
	for (i = 0; r->n_paths > 1 && i < r->n_paths; i++)
		weights |= r->paths[i].weight > 1;
	for (i = 0; i < r->n_paths && k < len; i++) {
		const struct lsk_route6_path *p = &r->paths[i];

		cmd_ip6_text(&p->gateway, gw, sizeof(gw));
		k += (size_t)snprintf(buf + k, len - k, "%svia %s",
				      i ? " " : "", gw);
		if (k < len && p->iface != LSK_IFACE_ANY) {
			cmd_iface_words(s, p->iface, where, sizeof(where));
			k += (size_t)snprintf(buf + k, len - k, " %s", where);
		}
		if (k < len && weights)
			k += (size_t)snprintf(buf + k, len - k, " weight %u",
					      p->weight ? p->weight : 1);
	}
}

/* Why lsk_route6_add_paths refused t: the message. */
static int
route6_refused(struct cmd_ctx *c, int rc, const struct route6_target *t,
	       bool replace, const char *verb)
{
	char gw[INET6_ADDRSTRLEN];
	unsigned int i, j;

	for (i = 0; i < t->n && t->type == LSK_ROUTE_VIA; i++) {
		const struct lsk_route6_path *p = &t->p[i];

		cmd_ip6_text(&p->gateway, gw, sizeof(gw));
		if (rc == -ENETUNREACH && p->iface == LSK_IFACE_ANY &&
		    lsk_connected6_lookup(c->s, &p->gateway) == NULL)
			return cmd_error(c, rc, "gateway %s is not on a "
					 "connected prefix", gw);
		if (rc != -EINVAL)
			continue;
		if (lsk_ip6_is_linklocal(&p->gateway) &&
		    p->iface == LSK_IFACE_ANY)
			return cmd_error(c, rc, "gateway %s is link-local: "
					 "name its port (via %s port N)", gw,
					 gw);
		if (lsk_stack_is_own6(c->s, &p->gateway, p->iface))
			return cmd_error(c, rc, "gateway %s is one of our "
					 "addresses", gw);
		if (lsk_ip6_is_multicast(&p->gateway) ||
		    lsk_ip6_is_unspecified(&p->gateway))
			return cmd_error(c, rc, "gateway %s is not a unicast "
					 "address", gw);
		for (j = 0; j < i; j++)
			if (t->p[j].iface == p->iface &&
			    lsk_ip6_equal(&t->p[j].gateway, &p->gateway))
				return cmd_error(c, rc, "gateway %s given "
						 "twice", gw);
	}
	return cmd_route_refused_rc(c, rc, replace, verb, "prefix");
}

/* Has route r the paths t asks for (any order; a path without its port
 * matches any), or the type? */
static bool
route6_is(const struct lsk_route6 *r, const struct route6_target *t)
{
	unsigned int i, j;

	if (r->type != t->type)
		return false;
	if (r->type != LSK_ROUTE_VIA)
		return true;
	if (r->n_paths != t->n)
		return false;
	for (i = 0; i < t->n; i++) {
		for (j = 0; j < r->n_paths; j++)
			if (lsk_ip6_equal(&r->paths[j].gateway,
					  &t->p[i].gateway) &&
			    (t->p[i].iface == LSK_IFACE_ANY ||
			     t->p[i].iface == r->paths[j].iface))
				break;
		if (j == r->n_paths)
			return false;
	}
	return true;
}

/* route del PREFIX6/LEN [target]: the route must be that one */
static int
route6_del(struct cmd_ctx *c, const struct lsk_ip6_addr *prefix,
	   uint8_t depth)
{
	struct route6_target t;
	struct lsk_route6 want;
	const struct lsk_route6 *r;
	char has[512], asked[512];
	int rc;

	if (c->argc <= 3)
		return c->check ? 0 : cmd_route_deleted(c, lsk_route6_del(c->s,
							prefix, depth));
	rc = parse_route6_target(c, 3, &t);
	if (rc < 0 || c->check)
		return rc;
	rc = route6_target_ifaces(c, &t);
	if (rc < 0)
		return rc;
	r = lsk_route6_find(c->s, prefix, depth);
	if (r != NULL && !route6_is(r, &t)) {
		memset(&want, 0, sizeof(want));
		want.type = (uint8_t)t.type;
		want.n_paths = (uint8_t)t.n;
		memcpy(want.paths, t.p, sizeof(t.p));
		cmd_route6_target_text(c->s, r, has, sizeof(has));
		cmd_route6_target_text(c->s, &want, asked, sizeof(asked));
		return cmd_route_is_not(c, has, asked);
	}
	return cmd_route_deleted(c, lsk_route6_del(c->s, prefix, depth));
}

/* The prefix of a route line, its length required. */
static int
parse_route6_prefix(struct cmd_ctx *c, struct lsk_ip6_addr *prefix,
		    uint8_t *depth)
{
	struct lsk_ip6_addr masked;
	char net[INET6_ADDRSTRLEN + 8];

	if (strcmp(c->argv[2], "default") == 0) {
		memset(prefix, 0, sizeof(*prefix));
		*depth = 0;
		return 0;
	}
	if (strchr(c->argv[2], '/') == NULL &&
	    cmd_parse_ip6(c->argv[2], prefix) == 0)
		return cmd_error(c, -EINVAL, "route needs a prefix length: "
				 "%s/LEN (a host route is %s/128)", c->argv[2],
				 c->argv[2]);
	if (cmd_parse_prefix6(c->argv[2], prefix, depth) < 0)
		return cmd_error(c, -EINVAL, "bad prefix '%s' (want "
				 "PREFIX6/LEN, LEN 0-128)", c->argv[2]);
	lsk_ip6_mask(prefix, *depth, &masked);
	if (!lsk_ip6_equal(&masked, prefix)) {
		cmd_prefix6_text(&masked, *depth, net, sizeof(net));
		return cmd_error(c, -EINVAL, "prefix %s has host bits set "
				 "(the prefix is %s)", c->argv[2], net);
	}
	if ((*depth >= 8 && lsk_ip6_is_multicast(prefix)) ||
	    (*depth >= 10 && lsk_ip6_is_linklocal(prefix)))
		return cmd_error(c, -EINVAL, "%s is not routed: link-local "
				 "and multicast destinations belong to a link",
				 c->argv[2]);
	return 0;
}

int
cmd_route6(struct cmd_ctx *c)
{
	const char *verb = c->argv[1];
	bool replace = strcmp(verb, "replace") == 0;
	struct lsk_ip6_addr prefix;
	struct route6_target t;
	uint8_t depth;
	int rc;

	rc = parse_route6_prefix(c, &prefix, &depth);
	if (rc < 0)
		return rc;
	if (strcmp(verb, "del") == 0)
		return route6_del(c, &prefix, depth);
	rc = parse_route6_target(c, 3, &t);
	if (rc < 0 || c->check)
		return rc;
	if (t.type != LSK_ROUTE_VIA) {
		rc = (replace ? lsk_route6_replace : lsk_route6_add)(c->s,
			&prefix, depth, t.type, NULL, LSK_IFACE_ANY);
		return rc < 0 ? route6_refused(c, rc, &t, replace, verb) : 0;
	}
	rc = route6_target_ifaces(c, &t);
	if (rc < 0)
		return rc;
	rc = (replace ? lsk_route6_replace_paths : lsk_route6_add_paths)(c->s,
		&prefix, depth, t.p, t.n);
	return rc < 0 ? route6_refused(c, rc, &t, replace, verb) : 0;
}

/* route get ADDR6 [port N [vlan V]] [from ADDR6] [proto P] [sport S]
 * [dport D]: the port a link-local address is asked on, the flow an
 * ECMP route's path is chosen for */
int
cmd_route6_get(struct cmd_ctx *c)
{
	struct lsk_route6_flow flow;
	struct lsk_ip6_addr addr;
	uint16_t port, vlan, iface;
	int i = 3, rc;

	memset(&flow, 0, sizeof(flow));
	if (c->argc < 3 || cmd_parse_ip6(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "usage: route get ADDRESS6 "
				 "[port N [vlan V]] [from ADDRESS6] [proto "
				 "udp|tcp|icmp6|N] [sport S] [dport D]");
	rc = cmd_parse_port_vlan(c, &i, &port, &vlan);
	if (rc < 0)
		return rc;
	rc = cmd_route_get_words(c, i, true, &flow.src, &flow.proto,
				 &flow.sport, &flow.dport);
	if (rc < 0)
		return rc;
	if (c->check)
		return 0;
	rc = cmd_iface_of(c, port, vlan, &iface);
	if (rc < 0)
		return rc;
	rc = lsk_route6_get_show(c->s, c->o, &addr, iface, &flow);
	return rc < 0 ? cmd_error(c, rc, "route get: %s", strerror(-rc)) : 0;
}
