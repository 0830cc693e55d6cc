/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 forms of the grammar's commands: IPv4's words with IPv6
 * addresses (docs/configuration.md "IPv6"). cmd_address, cmd_route and
 * cmd_neigh (cli/cmd_iface.c, cmd_route.c) hand a line here when its
 * address has a ':'.
 *
 *   address add|del ADDR6/LEN port N [vlan V]
 *   neigh add ADDR6 lladdr MAC [port N [vlan V]], neigh del ADDR6 ...
 *
 * The route words are cli/cmd_route6.c's.
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
int
cmd_parse_port_vlan(struct cmd_ctx *c, int *i, uint16_t *port,
		    uint16_t *vlan)
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
int
cmd_iface_of(struct cmd_ctx *c, uint16_t port, uint16_t vlan, uint16_t *iface)
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
	int rc = cmd_iface_of(c, port, vlan, &iface);

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
	rc = cmd_parse_port_vlan(c, &i, &port, &vlan);
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
	rc = cmd_parse_port_vlan(c, &i, &port, &vlan);
	if (rc < 0)
		return rc;
	if (i != c->argc)
		return cmd_error(c, -EINVAL, NEIGH6_USAGE);
	if (c->check)
		return 0;
	rc = cmd_iface_of(c, port, vlan, &iface);
	if (rc < 0)
		return rc;
	rc = add ? lsk_neigh6_add(c->s, &addr, iface, &mac) :
		   lsk_neigh6_del(c->s, &addr, iface);
	return rc < 0 ? neigh6_refused(c, rc, &addr, iface,
				       add ? "add" : "delete") : 0;
}
