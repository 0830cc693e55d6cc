/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control-command grammar (README.md "Configuration"), one command a
 * line, shared by configuration files and run-time control. Every error
 * names FILE:LINE.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "core/fwd.h"
#include "core/list.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/cmd.h"

int
cmd_error(struct cmd_ctx *c, int rc, const char *fmt, ...)
{
	char *err = c->o->err;
	size_t n, len = sizeof(c->o->err);
	va_list ap;

	n = (size_t)snprintf(err, len, "%s:%u: ", c->source, c->line);
	if (n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

int
cmd_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end != '\0' || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int
parse_ip(const char *s, uint32_t *out)
{
	struct in_addr a;

	if (s == NULL || inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*out = ntohl(a.s_addr);
	return 0;
}

/* "A.B.C.D/L", "A.B.C.D" (a /32) or "default". */
static int
parse_prefix(const char *s, uint32_t *addr, uint8_t *depth)
{
	char buf[32];
	char *slash;
	unsigned long d = 32;

	if (s != NULL && strcmp(s, "default") == 0) {
		*addr = 0;
		*depth = 0;
		return 0;
	}
	if (s == NULL || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash != NULL) {
		*slash = '\0';
		if (cmd_parse_uint(slash + 1, 32, &d) < 0)
			return -EINVAL;
	}
	if (parse_ip(buf, addr) < 0)
		return -EINVAL;
	*depth = (uint8_t)d;
	return 0;
}

static int
parse_port(struct cmd_ctx *c, const char *s, uint16_t *port)
{
	unsigned long v;

	if (cmd_parse_uint(s, UINT16_MAX, &v) < 0)
		return cmd_error(c, -EINVAL, "bad port number '%s'",
				 s ? s : "");
	if (v >= c->s->n_ports)
		return cmd_error(c, -ENODEV,
				 "port %lu does not exist (%u ports)", v,
				 c->s->n_ports);
	*port = (uint16_t)v;
	return 0;
}

static int
parse_mac(struct cmd_ctx *c, const char *s, struct rte_ether_addr *mac)
{
	if (s == NULL || rte_ether_unformat_addr(s, mac) < 0 ||
	    strlen(s) != 17)
		return cmd_error(c, -EINVAL, "bad MAC address '%s'",
				 s ? s : "");
	if (!rte_is_unicast_ether_addr(mac) || rte_is_zero_ether_addr(mac))
		return cmd_error(c, -EINVAL,
				 "MAC address %s is not a unicast address", s);
	return 0;
}

/* port N [mtu M] [mac MAC] */
static int
cmd_port(struct cmd_ctx *c)
{
	struct rte_ether_addr mac;
	bool have_mac = false;
	unsigned long mtu = 0;
	uint16_t port = 0;
	int i, rc;

	if (c->argc < 2)
		return cmd_error(c, -EINVAL, "usage: port N [mtu M] [mac MAC]");
	rc = parse_port(c, c->argv[1], &port);
	if (rc < 0)
		return rc;
	for (i = 2; i < c->argc; i += 2) {
		const char *val = i + 1 < c->argc ? c->argv[i + 1] : NULL;

		if (strcmp(c->argv[i], "mtu") == 0) {
			if (cmd_parse_uint(val, 9000, &mtu) < 0 || mtu < 68)
				return cmd_error(c, -EINVAL,
						 "bad mtu '%s' (68-9000)",
						 val ? val : "");
		} else if (strcmp(c->argv[i], "mac") == 0) {
			rc = parse_mac(c, val, &mac);
			if (rc < 0)
				return rc;
			have_mac = true;
		} else {
			return cmd_error(c, -EINVAL,
					 "unknown port setting '%s'",
					 c->argv[i]);
		}
	}
	if (c->check)
		return 0;
	rc = lsk_port_set(c->s, port, have_mac ? &mac : NULL, (uint16_t)mtu);
	if (rc < 0)
		return cmd_error(c, rc, "cannot set port %u: %s", port,
				 strerror(-rc));
	return 0;
}

void
cmd_ip_text(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
		 (a >> 8) & 0xff, a & 0xff);
}

/* A subnet broadcast is nobody's address, and no address is one. */
static int
address_broadcast_clash(struct cmd_ctx *c, uint32_t addr, uint8_t depth)
{
	const struct lsk_ifaddr *a = lsk_stack_broadcast_of(c->s, addr);
	uint32_t bcast = addr | ~lsk_depth_mask(depth);
	char text[16];

	if (a != NULL) {
		cmd_ip_text(a->addr, text, sizeof(text));
		return cmd_error(c, -EINVAL, "%s cannot be an interface "
				 "address: it is the broadcast address of "
				 "%s/%u", c->argv[2], text, a->depth);
	}
	if (depth < 31 && lsk_stack_is_own(c->s, bcast)) {
		cmd_ip_text(bcast, text, sizeof(text));
		return cmd_error(c, -EINVAL, "%s cannot be an interface "
				 "address: its broadcast address %s is one of "
				 "our addresses", c->argv[2], text);
	}
	return 0;
}

/* address del A/L port N [vlan V] */
static int
address_del(struct cmd_ctx *c, uint32_t addr, uint8_t depth, uint16_t port,
	    uint16_t vlan)
{
	int iface = lsk_iface_find(c->s, port, vlan);
	int rc;

	if (iface < 0)
		return cmd_error(c, -ENODEV, "port %u has no vlan %u", port,
				 vlan);
	rc = lsk_address_del(c->s, addr, depth, (uint16_t)iface);
	if (rc == -EADDRNOTAVAIL)
		return cmd_error(c, rc, "no address %s on port %u%s", c->argv[2],
				 port, vlan ? " (that vlan)" : "");
	if (rc == -EBUSY)
		return cmd_error(c, rc, "%s is in use by a 'udp listen' service "
				 "(udp close it first)", c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot delete address %s: %s",
				 c->argv[2], strerror(-rc));
	return 0;
}

/* address add|del A/L port N [vlan V] */
static int
cmd_address(struct cmd_ctx *c)
{
	unsigned int n_ifaces = c->s->n_ifaces;
	unsigned long vlan = 0;
	uint32_t addr;
	uint8_t depth;
	uint16_t port = 0;
	bool del;
	int rc;

	if ((c->argc != 5 && c->argc != 7) ||
	    (strcmp(c->argv[1], "add") != 0 && strcmp(c->argv[1], "del") != 0) ||
	    strcmp(c->argv[3], "port") != 0 ||
	    (c->argc == 7 && strcmp(c->argv[5], "vlan") != 0))
		return cmd_error(c, -EINVAL, "usage: address add|del A.B.C.D/L "
				 "port N [vlan V]");
	del = c->argv[1][0] == 'd';
	if (strchr(c->argv[2], '/') == NULL ||
	    parse_prefix(c->argv[2], &addr, &depth) < 0 || depth == 0)
		return cmd_error(c, -EINVAL, "bad address '%s' (want A.B.C.D/L)",
				 c->argv[2]);
	rc = parse_port(c, c->argv[4], &port);
	if (rc < 0)
		return rc;
	if (c->argc == 7 && (cmd_parse_uint(c->argv[6], 4094, &vlan) < 0 ||
			     vlan == 0))
		return cmd_error(c, -EINVAL, "bad vlan '%s' (1-4094)",
				 c->argv[6]);
	if (c->check)
		return 0;
	if (del)
		return address_del(c, addr, depth, port, (uint16_t)vlan);
	rc = address_broadcast_clash(c, addr, depth);
	if (rc < 0)
		return rc;
	if (c->argc == 7) {
		rc = lsk_vlan_iface(c->s, port, (uint16_t)vlan);
		if (rc < 0)
			return cmd_error(c, rc, "cannot make vlan %lu on port "
					 "%u: %s", vlan, port, strerror(-rc));
		port = (uint16_t)rc;
	}
	rc = lsk_address_add(c->s, addr, depth, port);
	if (rc < 0 && c->s->n_ifaces > n_ifaces)
		c->s->n_ifaces = n_ifaces;	/* the VLAN made for it goes */
	if (rc == -EEXIST)
		return cmd_error(c, rc, "address %s is already configured",
				 c->argv[2]);
	if (rc == -EINVAL)
		return cmd_error(c, rc, "%s cannot be an interface address",
				 c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot add address %s: %s", c->argv[2],
				 strerror(-rc));
	return 0;
}

static int
parse_route_prefix(struct cmd_ctx *c, const char *s, uint32_t *prefix,
		   uint8_t *depth)
{
	if (parse_prefix(s, prefix, depth) < 0)
		return cmd_error(c, -EINVAL, "bad prefix '%s'", s ? s : "");
	if (*prefix & ~lsk_depth_mask(*depth))
		return cmd_error(c, -EINVAL,
				 "prefix %s has host bits set", s);
	return 0;
}

/* "via GW" or "blackhole" at argv[i..argc) */
static int
parse_route_target(struct cmd_ctx *c, int i, enum lsk_route_type *type,
		   uint32_t *gw)
{
	*gw = 0;
	if (c->argc == i + 2 && strcmp(c->argv[i], "via") == 0) {
		*type = LSK_ROUTE_VIA;
		if (parse_ip(c->argv[i + 1], gw) < 0)
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
			return cmd_error(c, -ENOENT, "route %s is not %s",
					 c->argv[2], c->argv[3]);
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

	if (c->argc != 3 || parse_ip(c->argv[2], &addr) < 0)
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
static int
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
	rc = parse_route_prefix(c, c->argv[2], &prefix, &depth);
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
	if (parse_ip(c->argv[2], &addr) < 0)
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
static int
cmd_neigh(struct cmd_ctx *c)
{
	struct rte_ether_addr mac;
	uint32_t addr;
	int rc;

	if (c->argc >= 2 && (strcmp(c->argv[1], "del") == 0 ||
			     strcmp(c->argv[1], "flush") == 0))
		return neigh_del(c);
	if (c->argc != 5 || strcmp(c->argv[1], "add") != 0 ||
	    strcmp(c->argv[3], "lladdr") != 0)
		return cmd_error(c, -EINVAL, "usage: neigh add A.B.C.D lladdr "
				 "MAC | neigh del A.B.C.D | neigh flush");
	if (parse_ip(c->argv[2], &addr) < 0)
		return cmd_error(c, -EINVAL, "bad address '%s'", c->argv[2]);
	rc = parse_mac(c, c->argv[4], &mac);
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

/* ADDR:PORT, ADDR may be 0.0.0.0 (every local address) */
static int
parse_endpoint(struct cmd_ctx *c, const char *s, uint32_t *addr,
	       uint16_t *port)
{
	char buf[32];
	char *colon;
	unsigned long p;

	if (s == NULL || strlen(s) >= sizeof(buf))
		return cmd_error(c, -EINVAL, "bad endpoint '%s' (want A.B.C.D:PORT)",
				 s ? s : "");
	strcpy(buf, s);
	colon = strrchr(buf, ':');
	if (colon == NULL)
		return cmd_error(c, -EINVAL, "bad endpoint '%s' (want A.B.C.D:PORT)",
				 s);
	*colon = '\0';
	if (parse_ip(buf, addr) < 0)
		return cmd_error(c, -EINVAL, "bad address in '%s'", s);
	if (cmd_parse_uint(colon + 1, UINT16_MAX, &p) < 0 || p == 0)
		return cmd_error(c, -EINVAL, "bad port in '%s' (1-65535)", s);
	*port = (uint16_t)p;
	return 0;
}

/* udp listen ADDR:PORT echo | discard | pcap FILE  [ring N] */
static int
cmd_udp(struct cmd_ctx *c)
{
	enum lsk_service_kind kind;
	const char *path = NULL;
	unsigned long ring = 0;
	uint32_t addr = 0;
	uint16_t port = 0;
	int i, rc;

	if (c->argc == 3 && strcmp(c->argv[1], "close") == 0) {
		rc = parse_endpoint(c, c->argv[2], &addr, &port);
		if (rc < 0 || c->check)
			return rc;
		rc = lsk_service_close(c->s, addr, port);
		if (rc == -ENOENT)
			return cmd_error(c, rc, "no 'udp listen' service on %s",
					 c->argv[2]);
		return rc;
	}
	if (c->argc < 4 || strcmp(c->argv[1], "listen") != 0)
		return cmd_error(c, -EINVAL, "usage: udp listen ADDR:PORT "
				 "echo|discard|pcap FILE [ring N] | "
				 "udp close ADDR:PORT");
	rc = parse_endpoint(c, c->argv[2], &addr, &port);
	if (rc < 0)
		return rc;
	i = 4;
	if (strcmp(c->argv[3], "echo") == 0) {
		kind = LSK_SERVICE_ECHO;
	} else if (strcmp(c->argv[3], "discard") == 0) {
		kind = LSK_SERVICE_DISCARD;
	} else if (strcmp(c->argv[3], "pcap") == 0) {
		kind = LSK_SERVICE_PCAP;
		if (c->argc < 5)
			return cmd_error(c, -EINVAL, "pcap needs a FILE");
		path = c->argv[4];
		i = 5;
	} else {
		return cmd_error(c, -EINVAL, "unknown service '%s' (echo, "
				 "discard or pcap FILE)", c->argv[3]);
	}
	if (i < c->argc) {
		if (strcmp(c->argv[i], "ring") != 0 || i + 2 != c->argc ||
		    cmd_parse_uint(c->argv[i + 1], 1u << 24, &ring) < 0 ||
		    ring == 0)
			return cmd_error(c, -EINVAL, "expected 'ring N' "
					 "(1-16777216) after the service");
	}
	if (c->check)
		return 0;
	rc = lsk_service_add(c->s, kind, addr, port, path, (uint32_t)ring);
	if (rc == -EADDRINUSE)
		return cmd_error(c, rc, "%s is already in use", c->argv[2]);
	if (rc == -EADDRNOTAVAIL)
		return cmd_error(c, rc, "%s: not one of our addresses "
				 "(add it first, or listen on 0.0.0.0)",
				 c->argv[2]);
	if (rc == -EACCES)
		return cmd_error(c, rc, "cannot write pcap file '%s'", path);
	if (rc < 0)
		return cmd_error(c, rc, "cannot listen on %s: %s", c->argv[2],
				 strerror(-rc));
	return 0;
}

/*
 * In a batch the setting waits for the commit (a refused batch leaves it
 * as it was); what could fail then (registering the train's mbuf field)
 * is done now.
 */
static int
gro_set(struct cmd_ctx *c, uint32_t flows, uint32_t segs, bool merge)
{
	struct lsk_batch_settings *b = &c->s->batch_set;
	int rc;

	if (!c->s->in_batch) {
		/* a refused line changes nothing: the mode once all is valid */
		rc = lsk_gro_set(c->s, flows, segs);
		if (rc == 0)
			lsk_gro_set_merge(c->s, merge);
		return rc;
	}
	if (flows != 0 && lsk_train_next_offset < 0) {
		rc = lsk_train_register();
		if (rc < 0)
			return rc;
	}
	b->gro = true;
	b->gro_flows = flows;
	b->gro_segs = segs;
	b->gro_merge = merge;
	return 0;
}

/* gro fraglist [flows F] [segs S] | gro off */
static int
cmd_gro(struct cmd_ctx *c)
{
	unsigned long flows = 64, segs = 64;
	int i, rc;

	if (c->argc == 2 && strcmp(c->argv[1], "off") == 0)
		return c->check ? 0 : gro_set(c, 0, 0, false);
	if (c->argc < 2 || (strcmp(c->argv[1], "fraglist") != 0 &&
			    strcmp(c->argv[1], "merge") != 0) ||
	    c->argc % 2 != 0)
		return cmd_error(c, -EINVAL, "usage: gro fraglist|merge "
				 "[flows F] [segs S] | gro off");
	for (i = 2; i < c->argc; i += 2) {
		if (strcmp(c->argv[i], "flows") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], LSK_BURST_MAX, &flows) < 0 ||
			    flows == 0)
				return cmd_error(c, -EINVAL, "bad flows '%s' "
						 "(1-%d)", c->argv[i + 1],
						 LSK_BURST_MAX);
		} else if (strcmp(c->argv[i], "segs") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], 64, &segs) < 0 ||
			    segs < 2)
				return cmd_error(c, -EINVAL, "bad segs '%s' "
						 "(2-64)", c->argv[i + 1]);
		} else {
			return cmd_error(c, -EINVAL, "unknown gro setting '%s'",
					 c->argv[i]);
		}
	}
	if (c->check)
		return 0;
	rc = gro_set(c, (uint32_t)flows, (uint32_t)segs,
		     strcmp(c->argv[1], "merge") == 0);
	if (rc < 0)
		return cmd_error(c, rc, "cannot enable gro: %s", strerror(-rc));
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
static int
cmd_route_cache(struct cmd_ctx *c)
{
	unsigned long entries = 4096;

	if (c->argc == 2 && strcmp(c->argv[1], "off") == 0)
		return c->check ? 0 : route_cache_set(c, 0);
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

/* A[-B] */
static int
parse_port_range(const char *s, uint16_t *lo, uint16_t *hi)
{
	char buf[16];
	char *dash;
	unsigned long a, b;

	if (s == NULL || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash = '\0';
	if (cmd_parse_uint(buf, UINT16_MAX, &a) < 0)
		return -EINVAL;
	b = a;
	if (dash != NULL && cmd_parse_uint(dash + 1, UINT16_MAX, &b) < 0)
		return -EINVAL;
	if (b < a)
		return -EINVAL;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

static int
parse_proto(const char *s, uint8_t *proto)
{
	unsigned long v;

	if (s == NULL)
		return -EINVAL;
	if (strcmp(s, "udp") == 0)
		*proto = IPPROTO_UDP;
	else if (strcmp(s, "tcp") == 0)
		*proto = IPPROTO_TCP;
	else if (strcmp(s, "icmp") == 0)
		*proto = IPPROTO_ICMP;
	else if (cmd_parse_uint(s, 255, &v) == 0 && v > 0)
		*proto = (uint8_t)v;
	else
		return -EINVAL;
	return 0;
}

/* filter add accept|drop [proto P] [src PFX] [dst PFX] [sport A[-B]]
 * [dport A[-B]]; first match wins, no match accepts */
static int
cmd_filter(struct cmd_ctx *c)
{
	struct lsk_filter_rule r = { .sport_hi = UINT16_MAX,
				     .dport_hi = UINT16_MAX };
	bool ports = false;
	int i, rc;

	if (c->argc == 2 && strcmp(c->argv[1], "flush") == 0)
		return c->check ? 0 : lsk_filter_flush(c->s);
	if (c->argc == 3 && strcmp(c->argv[1], "del") == 0) {
		unsigned long n;

		if (cmd_parse_uint(c->argv[2], LSK_FILTER_MAX_RULES, &n) < 0 ||
		    n == 0)
			return cmd_error(c, -EINVAL, "bad rule number '%s' (as "
					 "'show filter' numbers them)",
					 c->argv[2]);
		if (c->check)
			return 0;
		rc = lsk_filter_del(c->s, (uint32_t)n - 1);
		if (rc == -ENOENT)
			return cmd_error(c, rc, "no rule %lu (%u rules)", n,
					 c->s->n_filters);
		return rc < 0 ? cmd_error(c, rc, "cannot delete rule %lu: %s",
					  n, strerror(-rc)) : 0;
	}
	if (c->argc < 3 || strcmp(c->argv[1], "add") != 0 ||
	    (strcmp(c->argv[2], "accept") != 0 &&
	     strcmp(c->argv[2], "drop") != 0) || (c->argc - 3) % 2 != 0)
		return cmd_error(c, -EINVAL, "usage: filter add accept|drop "
				 "[proto P] [src PFX] [dst PFX] [sport A[-B]] "
				 "[dport A[-B]] | filter del N | filter flush");
	r.drop = strcmp(c->argv[2], "drop") == 0;
	for (i = 3; i < c->argc; i += 2) {
		const char *key = c->argv[i], *val = c->argv[i + 1];

		if (strcmp(key, "proto") == 0) {
			if (parse_proto(val, &r.proto) < 0)
				return cmd_error(c, -EINVAL, "bad protocol '%s' "
						 "(udp, tcp, icmp or 1-255)", val);
		} else if (strcmp(key, "src") == 0 || strcmp(key, "dst") == 0) {
			bool src = key[0] == 's';

			rc = parse_route_prefix(c, val, src ? &r.src : &r.dst,
						src ? &r.src_depth : &r.dst_depth);
			if (rc < 0)
				return rc;
		} else if (strcmp(key, "sport") == 0 ||
			   strcmp(key, "dport") == 0) {
			bool s = key[0] == 's';

			if (parse_port_range(val, s ? &r.sport_lo : &r.dport_lo,
					     s ? &r.sport_hi : &r.dport_hi) < 0)
				return cmd_error(c, -EINVAL, "bad port range "
						 "'%s' (A or A-B)", val);
			ports = true;
		} else {
			return cmd_error(c, -EINVAL, "unknown filter field '%s'",
					 key);
		}
	}
	if (ports && r.proto != IPPROTO_UDP && r.proto != IPPROTO_TCP)
		return cmd_error(c, -EINVAL,
				 "ports need 'proto udp' or 'proto tcp'");
	if (c->check)
		return 0;
	rc = lsk_filter_add(c->s, &r);
	return rc < 0 ? cmd_error(c, rc, "cannot add the rule: %s",
				  strerror(-rc)) : 0;
}

/* stats clear */
static int
cmd_stats(struct cmd_ctx *c)
{
	if (c->argc != 2 || strcmp(c->argv[1], "clear") != 0)
		return cmd_error(c, -EINVAL, "usage: stats clear");
	if (!c->check)
		lsk_stats_clear(c->s);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(struct cmd_ctx *c);
} commands[] = {
	{ "port", cmd_port },
	{ "address", cmd_address },
	{ "route", cmd_route },
	{ "neigh", cmd_neigh },
	{ "udp", cmd_udp },
	{ "gro", cmd_gro },
	{ "route-cache", cmd_route_cache },
	{ "filter", cmd_filter },
	{ "stats", cmd_stats },
	{ "capture", cmd_capture },
	{ "trace", cmd_trace },
	{ "show", cmd_show },
	{ "help", cmd_help },
};

int
cmd_split(struct cmd_ctx *c, char *line)
{
	char *p, *save = NULL;

	c->argc = 0;
	p = strchr(line, '#');
	if (p != NULL)
		*p = '\0';
	for (p = strtok_r(line, " \t\r\n", &save); p != NULL;
	     p = strtok_r(NULL, " \t\r\n", &save)) {
		if (c->argc == CMD_MAX_WORDS)
			return cmd_error(c, -EINVAL, "too many words");
		c->argv[c->argc++] = p;
	}
	return 0;
}

bool
cmd_changes(const struct cmd_ctx *c)
{
	if (c->argc == 0 || strcmp(c->argv[0], "show") == 0 ||
	    strcmp(c->argv[0], "help") == 0)
		return false;
	/* an action, not configuration (control/capture_cmd.c) */
	if (strcmp(c->argv[0], "capture") == 0 ||
	    strcmp(c->argv[0], "trace") == 0)	/* control/trace_ctl.c */
		return false;
	/* route get is a view too */
	return !(c->argc > 1 && strcmp(c->argv[0], "route") == 0 &&
		 strcmp(c->argv[1], "get") == 0);
}

int
cmd_dispatch(struct cmd_ctx *c)
{
	size_t i;

	if (c->argc == 0)
		return 0;
	for (i = 0; i < RTE_DIM(commands); i++)
		if (strcmp(c->argv[0], commands[i].name) == 0)
			return commands[i].fn(c);
	return cmd_error(c, -EINVAL, "unknown command '%s'", c->argv[0]);
}
