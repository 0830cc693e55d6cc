/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 forms of the grammar's commands: IPv4's words with IPv6
 * addresses (docs/configuration.md "IPv6"). cmd_address, cmd_route and
 * cmd_neigh (cli/cmd_iface.c, cmd_route.c) hand a line here when its
 * address has a ':'.
 *
 *   address add|del ADDR6/LEN port N [vlan V]
 *   route add|replace PREFIX6/LEN via GW6 [port N [vlan V]]
 *   route add|replace PREFIX6/LEN blackhole|unreachable|prohibit
 *   route del PREFIX6/LEN [via GW6 [port N [vlan V]]|blackhole|...]
 *   route get ADDR6 [port N [vlan V]]
 *
 * A link-local gateway names its port: fe80::/10 is on every link.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fwd6.h"
#include "control/control.h"
#include "cli/cmd.h"

#define ROUTE6_USAGE "usage: route add|replace PREFIX6/LEN via GATEWAY6 " \
	"[port N [vlan V]] | blackhole | unreachable | prohibit; route del " \
	"PREFIX6/LEN; route get ADDRESS6 [port N [vlan V]]"

static const char *const route6_type_words[] = {
	[LSK_ROUTE_BLACKHOLE] = "blackhole",
	[LSK_ROUTE_UNREACHABLE] = "unreachable",
	[LSK_ROUTE_PROHIBIT] = "prohibit",
};

bool
cmd_is_ip6(const char *word)
{
	return word != NULL && strchr(word, ':') != NULL;
}

int
cmd_parse_ip6(const char *s, struct lsk_ip6_addr *out)
{
	if (s == NULL || inet_pton(AF_INET6, s, out->a) != 1)
		return -EINVAL;
	return 0;
}

/* "ADDR6/LEN", LEN 0-128 (always given). */
int
cmd_parse_prefix6(const char *s, struct lsk_ip6_addr *addr, uint8_t *depth)
{
	char buf[INET6_ADDRSTRLEN + 8];
	unsigned long d;
	char *slash;

	if (s == NULL || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash == NULL)
		return -EINVAL;
	*slash = '\0';
	if (cmd_parse_uint(slash + 1, 128, &d) < 0 ||
	    cmd_parse_ip6(buf, addr) < 0)
		return -EINVAL;
	*depth = (uint8_t)d;
	return 0;
}

void
cmd_ip6_text(const struct lsk_ip6_addr *a, char *buf, size_t len)
{
	if (inet_ntop(AF_INET6, a->a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

void
cmd_prefix6_text(const struct lsk_ip6_addr *a, uint8_t depth, char *buf,
		 size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	cmd_ip6_text(a, ip, sizeof(ip));
	snprintf(buf, len, "%s/%u", ip, depth);
}

/* "port N" or "port N vlan V": an interface in the grammar's words. */
void
cmd_iface_words(const struct lsk_stack *s, uint16_t iface, char *buf,
		size_t len)
{
	const struct lsk_port_conf *p = &s->ports[iface];

	if (iface < s->n_ifaces && p->vlan != 0)
		snprintf(buf, len, "port %u vlan %u", p->parent, p->vlan);
	else
		snprintf(buf, len, "port %u", iface);
}

/*
 * "port N [vlan V]" at argv[*i]: the port and VLAN (0: none) into
 * *port, *vlan and *i past them; nothing there leaves *port
 * LSK_IFACE_ANY. 0 or -EINVAL with the error set.
 */
static int
parse_port_vlan(struct cmd_ctx *c, int *i, uint16_t *port, uint16_t *vlan)
{
	unsigned long v;
	int rc;

	*port = LSK_IFACE_ANY;
	*vlan = 0;
	cmd_kw(c, *i, "port");
	if (*i >= c->argc || strcmp(c->argv[*i], "port") != 0)
		return 0;
	if (*i + 1 >= c->argc)
		return cmd_error(c, -EINVAL, "'port' needs a port");
	rc = cmd_parse_port(c, c->argv[*i + 1], port);
	if (rc < 0)
		return rc;
	*i += 2;
	cmd_kw(c, *i, "vlan");
	if (*i < c->argc && strcmp(c->argv[*i], "vlan") == 0) {
		if (*i + 1 >= c->argc ||
		    cmd_parse_uint(c->argv[*i + 1], 4094, &v) < 0 || v == 0)
			return cmd_error(c, -EINVAL, "bad vlan '%s' (1-4094)",
					 *i + 1 < c->argc ? c->argv[*i + 1] :
					 "");
		*vlan = (uint16_t)v;
		*i += 2;
	}
	return 0;
}

/* The interface of port/vlan (LSK_IFACE_ANY stays), or -ENODEV with
 * the error set. */
static int
iface_of(struct cmd_ctx *c, uint16_t port, uint16_t vlan, uint16_t *iface)
{
	int rc;

	*iface = LSK_IFACE_ANY;
	if (port == LSK_IFACE_ANY)
		return 0;
	rc = lsk_iface_find(c->s, port, vlan);
	if (rc < 0)
		return cmd_error(c, rc, "port %u has no vlan %u", port, vlan);
	*iface = (uint16_t)rc;
	return 0;
}

/* --- address add|del ADDR6/LEN port N [vlan V] ----------------------- */

/* Another interface's address whose prefix overlaps addr/depth. */
static const struct lsk_ifaddr6 *
address6_overlap(const struct lsk_stack *s, const struct lsk_ip6_addr *addr,
		 uint8_t depth, int iface)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if ((int)a->iface != iface && !(a->flags & LSK_IFA6_LINKLOCAL) &&
		    lsk_ip6_prefix_match(&a->addr, addr,
					 RTE_MIN(depth, a->depth)))
			return a;
	}
	return NULL;
}

static int
address6_refused(struct cmd_ctx *c, int rc, const struct lsk_ip6_addr *addr,
		 uint8_t depth, uint16_t iface)
{
	const struct lsk_ifaddr6 *a;
	char pfx[INET6_ADDRSTRLEN + 8], where[32];

	switch (rc) {
	case -EEXIST:
		return cmd_error(c, rc, "address %s is already configured",
				 c->argv[2]);
	case -EINVAL:
		return cmd_error(c, rc, "%s cannot be an interface address "
				 "(%s)", c->argv[2], depth == 0 ?
				 "a prefix length of 0" :
				 lsk_ip6_is_multicast(addr) ? "multicast" :
				 "the unspecified or loopback address");
	case -EADDRINUSE:
		a = address6_overlap(c->s, addr, depth, iface);
		if (a == NULL)
			break;
		cmd_prefix6_text(&a->addr, a->depth, pfx, sizeof(pfx));
		cmd_iface_words(c->s, a->iface, where, sizeof(where));
		return cmd_error(c, rc, "%s overlaps %s on %s (a prefix is "
				 "connected on one interface only)",
				 c->argv[2], pfx, where);
	case -ENOSPC:
		return cmd_error(c, rc, "cannot add address %s: %u IPv6 "
				 "addresses are configured already (the most)",
				 c->argv[2], LSK_MAX_ADDRS6);
	default:
		break;
	}
	return cmd_error(c, rc, "cannot add address %s: %s", c->argv[2],
			 strerror(-rc));
}

static int
address6_del(struct cmd_ctx *c, const struct lsk_ip6_addr *addr,
	     uint8_t depth, uint16_t port, uint16_t vlan)
{
	char where[32];
	uint16_t iface;
	int rc = iface_of(c, port, vlan, &iface);

	if (rc < 0)
		return rc;
	rc = lsk_address6_del(c->s, addr, depth, iface);
	cmd_iface_words(c->s, iface, where, sizeof(where));
	if (rc == -EADDRNOTAVAIL)
		return cmd_error(c, rc, "no address %s on %s", c->argv[2],
				 where);
	if (rc == -EPERM)
		return cmd_error(c, rc, "%s is the link-local address %s has "
				 "from its MAC: it cannot be deleted",
				 c->argv[2], where);
	if (rc == -EBUSY)
		return cmd_error(c, rc, "%s is in use by a 'udp listen' service "
				 "(udp close it first)", c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot delete address %s: %s",
				 c->argv[2], strerror(-rc));
	return 0;
}

int
cmd_address6(struct cmd_ctx *c)
{
	unsigned int n_ifaces = c->s->n_ifaces;
	struct lsk_ip6_addr addr;
	uint16_t port, vlan;
	uint8_t depth;
	int i = 3, rc;

	if (c->argc < 3 || (strcmp(c->argv[1], "add") != 0 &&
			    strcmp(c->argv[1], "del") != 0))
		return cmd_error(c, -EINVAL, "usage: address add|del "
				 "ADDRESS6/LEN port N [vlan V]");
	if (cmd_parse_prefix6(c->argv[2], &addr, &depth) < 0)
		return cmd_error(c, -EINVAL, "bad address '%s' (want "
				 "ADDRESS6/LEN, LEN 1-128)", c->argv[2]);
	rc = parse_port_vlan(c, &i, &port, &vlan);
	if (rc < 0)
		return rc;
	if (port == LSK_IFACE_ANY || i != c->argc)
		return cmd_error(c, -EINVAL, "usage: address add|del "
				 "ADDRESS6/LEN port N [vlan V]");
	if (c->check)
		return 0;
	if (c->argv[1][0] == 'd')
		return address6_del(c, &addr, depth, port, vlan);
	if (vlan != 0) {
		rc = lsk_vlan_iface(c->s, port, vlan);
		/* a new VLAN is in IPv4's table too, the interfaces' one
		 * copy (core/fwd6.h): published first, as `port N vlan V` */
		if (rc >= 0 && !c->s->in_batch && c->s->n_ifaces != n_ifaces) {
			int made = rc;

			rc = lsk_stack_publish(c->s);
			if (rc < 0)
				c->s->n_ifaces = n_ifaces;
			else
				rc = made;
		}
		if (rc < 0)
			return cmd_error(c, rc, "cannot make vlan %u on port "
					 "%u: %s", vlan, port, strerror(-rc));
		port = (uint16_t)rc;
	}
	rc = lsk_address6_add(c->s, &addr, depth, port);
	if (rc < 0 && c->s->n_ifaces > n_ifaces) {
		c->s->n_ifaces = n_ifaces;	/* the VLAN made for it goes */
		lsk_stack_publish(c->s);
	}
	return rc < 0 ? address6_refused(c, rc, &addr, depth, port) : 0;
}

/* --- route add|replace|del PREFIX6/LEN ... -------------------------- */

struct route6_target {
	enum lsk_route_type type;
	struct lsk_ip6_addr gw;
	uint16_t port, vlan;	/* port LSK_IFACE_ANY: none given */
};

/* "via GW6 [port N [vlan V]]" or a type word at argv[i..argc) */
static int
parse_route6_target(struct cmd_ctx *c, int i, struct route6_target *t)
{
	unsigned int k;
	int rc;

	memset(t, 0, sizeof(*t));
	t->port = LSK_IFACE_ANY;
	cmd_kw(c, i, "via blackhole unreachable prohibit");
	for (k = LSK_ROUTE_BLACKHOLE; k < RTE_DIM(route6_type_words); k++) {
		if (c->argc == i + 1 &&
		    strcmp(c->argv[i], route6_type_words[k]) == 0) {
			t->type = (enum lsk_route_type)k;
			return 0;
		}
	}
	t->type = LSK_ROUTE_VIA;
	if (i + 1 >= c->argc || strcmp(c->argv[i], "via") != 0)
		return cmd_error(c, -EINVAL, ROUTE6_USAGE);
	if (cmd_parse_ip6(c->argv[i + 1], &t->gw) < 0)
		return cmd_error(c, -EINVAL, "bad gateway '%s' (want an IPv6 "
				 "address)", c->argv[i + 1]);
	i += 2;
	rc = parse_port_vlan(c, &i, &t->port, &t->vlan);
	if (rc < 0)
		return rc;
	cmd_kw(c, i, "via weight");
	if (i < c->argc && (strcmp(c->argv[i], "via") == 0 ||
			    strcmp(c->argv[i], "weight") == 0))
		return cmd_error(c, -EINVAL, "an IPv6 route has one gateway "
				 "(no ECMP for IPv6 yet)");
	if (i != c->argc)
		return cmd_error(c, -EINVAL, ROUTE6_USAGE);
	return 0;
}

/* A route's target as the grammar writes it (show config, errors). */
void
cmd_route6_target_text(const struct lsk_stack *s, const struct lsk_route6 *r,
		       char *buf, size_t len)
{
	char gw[INET6_ADDRSTRLEN], where[32];

	if (r->type != LSK_ROUTE_VIA) {
		snprintf(buf, len, "%s", r->type < RTE_DIM(route6_type_words) ?
			 route6_type_words[r->type] : "?");
		return;
	}
	cmd_ip6_text(&r->gateway, gw, sizeof(gw));
	if (r->iface == LSK_IFACE_ANY) {
		snprintf(buf, len, "via %s", gw);
		return;
	}
	cmd_iface_words(s, r->iface, where, sizeof(where));
	snprintf(buf, len, "via %s %s", gw, where);
}

static int
route6_refused(struct cmd_ctx *c, int rc, const struct route6_target *t,
	       uint16_t iface, bool replace, const char *verb)
{
	char gw[INET6_ADDRSTRLEN];

	cmd_ip6_text(&t->gw, gw, sizeof(gw));
	if (rc == -ENETUNREACH)
		return cmd_error(c, rc, "gateway %s is not on a connected "
				 "prefix", gw);
	if (rc == -EINVAL && t->type == LSK_ROUTE_VIA) {
		if (lsk_ip6_is_linklocal(&t->gw) && iface == LSK_IFACE_ANY)
			return cmd_error(c, rc, "gateway %s is link-local: "
					 "name its port (via %s port N)", gw,
					 gw);
		if (lsk_stack_is_own6(c->s, &t->gw, iface))
			return cmd_error(c, rc, "gateway %s is one of our "
					 "addresses", gw);
		if (lsk_ip6_is_multicast(&t->gw) ||
		    lsk_ip6_is_unspecified(&t->gw))
			return cmd_error(c, rc, "gateway %s is not a unicast "
					 "address", gw);
	}
	if (rc == -EEXIST)
		return cmd_error(c, rc, replace ? "%s is a connected prefix" :
				 "route %s exists already", c->argv[2]);
	return cmd_error(c, rc, "cannot %s route %s: %s", verb, c->argv[2],
			 strerror(-rc));
}

/* route del PREFIX6/LEN [target]: the route must be that one */
static int
route6_del(struct cmd_ctx *c, const struct lsk_ip6_addr *prefix,
	   uint8_t depth)
{
	struct route6_target t;
	struct lsk_route6 want;
	const struct lsk_route6 *r;
	char has[96], asked[96];
	int rc;

	if (c->argc > 3) {
		rc = parse_route6_target(c, 3, &t);
		if (rc < 0 || c->check)
			return rc;
		memset(&want, 0, sizeof(want));
		want.type = (uint8_t)t.type;
		want.gateway = t.gw;
		rc = iface_of(c, t.port, t.vlan, &want.iface);
		if (rc < 0)
			return rc;
		r = lsk_route6_find(c->s, prefix, depth);
		if (r != NULL && (r->type != want.type ||
				  (r->type == LSK_ROUTE_VIA &&
				   (!lsk_ip6_equal(&r->gateway, &t.gw) ||
				    (want.iface != LSK_IFACE_ANY &&
				     want.iface != r->iface))))) {
			cmd_route6_target_text(c->s, r, has, sizeof(has));
			cmd_route6_target_text(c->s, &want, asked,
					       sizeof(asked));
			return cmd_error(c, -ENOENT, "route %s is %s, not %s",
					 c->argv[2], has, asked);
		}
	} else if (c->check) {
		return 0;
	}
	rc = lsk_route6_del(c->s, prefix, depth);
	if (rc == -ENOENT)
		return cmd_error(c, rc, "no route %s to delete", c->argv[2]);
	return rc < 0 ? cmd_error(c, rc, "cannot delete %s: %s", c->argv[2],
				  strerror(-rc)) : 0;
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
	uint16_t iface;
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
	rc = iface_of(c, t.port, t.vlan, &iface);
	if (rc < 0)
		return rc;
	rc = (replace ? lsk_route6_replace : lsk_route6_add)(c->s, &prefix,
		depth, t.type, t.type == LSK_ROUTE_VIA ? &t.gw : NULL, iface);
	return rc < 0 ? route6_refused(c, rc, &t, iface, replace, verb) : 0;
}

/* route get ADDR6 [port N [vlan V]]: the port a link-local address is
 * asked on */
int
cmd_route6_get(struct cmd_ctx *c)
{
	struct lsk_ip6_addr addr;
	uint16_t port, vlan, iface;
	int i = 3, rc;

	if (c->argc < 3 || cmd_parse_ip6(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "usage: route get ADDRESS6 "
				 "[port N [vlan V]]");
	rc = parse_port_vlan(c, &i, &port, &vlan);
	if (rc < 0)
		return rc;
	if (i != c->argc)
		return cmd_error(c, -EINVAL, "usage: route get ADDRESS6 "
				 "[port N [vlan V]]");
	if (c->check)
		return 0;
	rc = iface_of(c, port, vlan, &iface);
	if (rc < 0)
		return rc;
	rc = lsk_route6_get_show(c->s, c->o, &addr, iface);
	return rc < 0 ? cmd_error(c, rc, "route get: %s", strerror(-rc)) : 0;
}

/* --- neigh add ADDR6 lladdr MAC [port N [vlan V]] | neigh del ... ---- */

#define NEIGH6_USAGE "usage: neigh add ADDRESS6 lladdr MAC [port N " \
	"[vlan V]] | neigh del ADDRESS6 [port N [vlan V]]"

static int
neigh6_refused(struct cmd_ctx *c, int rc, const struct lsk_ip6_addr *addr,
	       uint16_t iface, const char *verb)
{
	char where[32];

	if (rc == -EINVAL && lsk_ip6_is_linklocal(addr) &&
	    iface == LSK_IFACE_ANY)
		return cmd_error(c, rc, "%s is link-local: name its port "
				 "(%s port N)", c->argv[2], c->argv[2]);
	if (rc == -EINVAL && lsk_stack_is_own6(c->s, addr, iface))
		return cmd_error(c, rc, "%s is one of our addresses",
				 c->argv[2]);
	if (rc == -EINVAL)
		return cmd_error(c, rc, "%s is not a unicast address",
				 c->argv[2]);
	if (rc == -ENETUNREACH)
		return cmd_error(c, rc, "%s is not on a connected prefix",
				 c->argv[2]);
	if (rc == -ENOENT && iface != LSK_IFACE_ANY) {
		cmd_iface_words(c->s, iface, where, sizeof(where));
		return cmd_error(c, rc, "no neighbour %s on %s", c->argv[2],
				 where);
	}
	if (rc == -ENOENT)
		return cmd_error(c, rc, "no neighbour %s", c->argv[2]);
	return cmd_error(c, rc, "cannot %s neighbour %s: %s", verb,
			 c->argv[2], strerror(-rc));
}

int
cmd_neigh6(struct cmd_ctx *c)
{
	bool add = strcmp(c->argv[1], "add") == 0;
	struct rte_ether_addr mac;
	struct lsk_ip6_addr addr;
	uint16_t port, vlan, iface;
	int i = 3, rc;

	if (!add && strcmp(c->argv[1], "del") != 0)
		return cmd_error(c, -EINVAL, NEIGH6_USAGE);
	if (cmd_parse_ip6(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "bad address '%s' (want an IPv6 "
				 "address)", c->argv[2]);
	if (add) {
		/* the MAC after lladdr, as IPv4's, or alone */
		cmd_kw(c, i, "lladdr");
		if (i < c->argc && strcmp(c->argv[i], "lladdr") == 0)
			i++;
		if (i >= c->argc)
			return cmd_error(c, -EINVAL, NEIGH6_USAGE);
		rc = cmd_parse_mac(c, c->argv[i++], &mac);
		if (rc < 0)
			return rc;
	}
	rc = parse_port_vlan(c, &i, &port, &vlan);
	if (rc < 0)
		return rc;
	if (i != c->argc)
		return cmd_error(c, -EINVAL, NEIGH6_USAGE);
	if (c->check)
		return 0;
	rc = iface_of(c, port, vlan, &iface);
	if (rc < 0)
		return rc;
	rc = add ? lsk_neigh6_add(c->s, &addr, iface, &mac) :
		   lsk_neigh6_del(c->s, &addr, iface);
	return rc < 0 ? neigh6_refused(c, rc, &addr, iface,
				       add ? "add" : "delete") : 0;
}
