/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the routes are and do: the views `route get ADDR` (the answer of
 * lsk_route_get, control/route_get.c) and `show routes [PREFIX]`, as
 * aligned text or JSON (cli/cli.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fwd.h"
#include "control/control.h"
#include "cli/cmd.h"

static const char *const verdict_names[] = {
	[LSK_VERDICT_NO_ROUTE] = "unreachable",
	[LSK_VERDICT_LOCAL] = "local",
	[LSK_VERDICT_BROADCAST] = "broadcast",
	[LSK_VERDICT_BLACKHOLE] = "blackhole",
	[LSK_VERDICT_FORWARD] = "forward",
};

static const char *const neigh_names[] = {
	[LSK_RNEIGH_NONE] = "none",
	[LSK_RNEIGH_INCOMPLETE] = "incomplete",
	[LSK_RNEIGH_REACHABLE] = "reachable",
	[LSK_RNEIGH_STALE] = "stale",
	[LSK_RNEIGH_FAILED] = "failed",
	[LSK_RNEIGH_STATIC] = "static",
};

static const char *const origin_names[] = {
	[LSK_ORIGIN_NONE] = "none",
	[LSK_ORIGIN_ROUTE] = "route",
	[LSK_ORIGIN_CONNECTED] = "connected",
	[LSK_ORIGIN_LOCAL] = "local",
};

/* "portN", or "portN.VLAN" for a VLAN sub-interface. */
static void
iface_text(const struct lsk_port_conf *ifaces, uint16_t iface, char *buf,
	   size_t len)
{
	if (ifaces[iface].vlan != 0)
		snprintf(buf, len, "port%u.%u", ifaces[iface].parent,
			 ifaces[iface].vlan);
	else
		snprintf(buf, len, "port%u", ifaces[iface].parent);
}

int
lsk_route_get_show(struct lsk_stack *s, struct lsk_out *o, uint32_t addr)
{
	struct lsk_route_answer a;
	char dst[16], pfx[16], hop[16], src[16], dev[24], mac[24];
	const struct lsk_port_conf *ifaces = s->sh.fwd->ifaces;
	int rc = lsk_route_get(s, addr, &a);

	if (rc < 0)
		return rc;
	cmd_ip_text(addr, dst, sizeof(dst));
	cmd_ip_text(a.prefix, pfx, sizeof(pfx));
	cmd_ip_text(a.next_hop, hop, sizeof(hop));
	cmd_ip_text(a.src, src, sizeof(src));
	iface_text(ifaces, a.iface, dev, sizeof(dev));
	rte_ether_format_addr(mac, sizeof(mac), &a.neigh_mac);
	if (o->json) {
		rc = lsk_out_printf(o, "{\"dst\":\"%s\",\"verdict\":\"%s\","
				    "\"origin\":\"%s\"", dst,
				    verdict_names[a.verdict],
				    origin_names[a.origin]);
		if (a.verdict != LSK_VERDICT_NO_ROUTE)
			rc |= lsk_out_printf(o, ",\"prefix\":\"%s/%u\"", pfx,
					     a.depth);
		if (a.verdict == LSK_VERDICT_FORWARD)
			rc |= lsk_out_printf(o, ",\"gateway\":\"%s\","
				"\"iface\":%u,\"dev\":\"%s\",\"port\":%u,"
				"\"vlan\":%u,\"mtu\":%u,\"src\":\"%s\","
				"\"neigh\":\"%s\",\"lladdr\":\"%s\"", hop,
				a.iface, dev, a.port, a.vlan, a.mtu, src,
				neigh_names[a.neigh_state],
				a.neigh_state == LSK_RNEIGH_NONE ||
				a.neigh_state == LSK_RNEIGH_INCOMPLETE ||
				a.neigh_state == LSK_RNEIGH_FAILED ? "" : mac);
		return rc | lsk_out_printf(o, ",\"table\":%u}\n", a.generation);
	}
	switch (a.verdict) {
	case LSK_VERDICT_FORWARD:
		rc = lsk_out_printf(o, "%s via %s dev %s src %s mtu %u "
				    "prefix %s/%u %s neigh %s", dst, hop, dev,
				    src, a.mtu, pfx, a.depth,
				    origin_names[a.origin],
				    neigh_names[a.neigh_state]);
		if (a.neigh_state == LSK_RNEIGH_REACHABLE ||
		    a.neigh_state == LSK_RNEIGH_STALE ||
		    a.neigh_state == LSK_RNEIGH_STATIC)
			rc |= lsk_out_printf(o, " lladdr %s", mac);
		return rc | lsk_out_printf(o, "\n");
	case LSK_VERDICT_NO_ROUTE:
		return lsk_out_printf(o, "%s unreachable\n", dst);
	default:
		return lsk_out_printf(o, "%s %s prefix %s/%u\n", dst,
				      verdict_names[a.verdict], pfx, a.depth);
	}
}

/* One line of `show routes`. */
struct show_entry {
	uint32_t prefix;
	uint8_t depth;
	uint8_t kind;		/* enum show_kind */
	uint16_t iface;
	uint32_t gateway;
};

enum show_kind { SHOW_CONNECTED, SHOW_LOCAL, SHOW_VIA, SHOW_BLACKHOLE };

static const char *const kind_names[] = {
	[SHOW_CONNECTED] = "connected",
	[SHOW_LOCAL] = "local",
	[SHOW_VIA] = "via",
	[SHOW_BLACKHOLE] = "blackhole",
};

static int
show_cmp(const void *pa, const void *pb)
{
	const struct show_entry *a = pa, *b = pb;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

/* "A.B.C.D/N" or "A.B.C.D" (a /32), with no host bits. */
static int
parse_filter(const char *text, uint32_t *prefix, uint8_t *depth)
{
	char buf[32], *slash, *end;
	struct in_addr ia;
	unsigned long d = 32;

	if (strlen(text) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, text);
	slash = strchr(buf, '/');
	if (slash != NULL) {
		*slash = '\0';
		errno = 0;
		d = strtoul(slash + 1, &end, 10);
		if (slash[1] < '0' || slash[1] > '9' || *end != '\0' ||
		    d > 32)
			return -EINVAL;
	}
	if (inet_pton(AF_INET, buf, &ia) != 1)
		return -EINVAL;
	*prefix = ntohl(ia.s_addr);
	*depth = (uint8_t)d;
	return (*prefix & ~lsk_depth_mask(*depth)) ? -EINVAL : 0;
}

static int
show_line(const struct lsk_stack *s, struct lsk_out *o,
	  const struct show_entry *e, bool first)
{
	char dst[24], gw[16], dev[24];
	bool via = e->kind == SHOW_VIA;

	cmd_ip_text(e->prefix, dst, sizeof(dst));
	snprintf(dst + strlen(dst), sizeof(dst) - strlen(dst), "/%u",
		 e->depth);
	cmd_ip_text(e->gateway, gw, sizeof(gw));
	if (e->kind == SHOW_BLACKHOLE)
		snprintf(dev, sizeof(dev), "-");
	else
		iface_text(s->ports, e->iface, dev, sizeof(dev));
	if (o->json)
		return lsk_out_printf(o, "%s{\"dst\":\"%s\",\"type\":\"%s\","
				      "\"gateway\":%s%s%s,\"dev\":%s%s%s}",
				      first ? "" : ",", dst,
				      kind_names[e->kind], via ? "\"" : "",
				      via ? gw : "null", via ? "\"" : "",
				      e->kind == SHOW_BLACKHOLE ? "" : "\"",
				      e->kind == SHOW_BLACKHOLE ? "null" : dev,
				      e->kind == SHOW_BLACKHOLE ? "" : "\"");
	return lsk_out_printf(o, "%-18s  %-9s  %-15s  %s\n", dst,
			      kind_names[e->kind], via ? gw : "-", dev);
}

/*
 * The entry that covers fprefix/fdepth with the longest prefix (as
 * `ip route get` and `show ip route A.B.C.D` find it), or -1: the lines
 * of that prefix are what a filtered view shows.
 */
static long
show_longest(const struct show_entry *e, size_t n, uint32_t fprefix,
	     uint8_t fdepth)
{
	long best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].depth <= fdepth &&
		    (fprefix & lsk_depth_mask(e[i].depth)) == e[i].prefix &&
		    (best < 0 || e[i].depth > e[best].depth))
			best = (long)i;
	return best;
}

int
lsk_route_show(struct lsk_stack *s, struct lsk_out *o,
	       const char *prefix_or_null)
{
	uint32_t fprefix = 0;
	uint8_t fdepth = 0;
	struct show_entry *e;
	size_t n = 0, i;
	bool first = true;
	long best = -1;
	int rc = 0;

	if (prefix_or_null != NULL &&
	    parse_filter(prefix_or_null, &fprefix, &fdepth) < 0)
		return -EINVAL;
	e = malloc(((size_t)s->n_routes + 2 * s->n_addrs + 1) * sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	for (i = 0; i < s->n_addrs; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];

		e[n++] = (struct show_entry){ .kind = SHOW_LOCAL,
			.prefix = a->addr, .depth = 32, .iface = a->port };
		e[n++] = (struct show_entry){ .kind = SHOW_CONNECTED,
			.prefix = a->addr & lsk_depth_mask(a->depth),
			.depth = a->depth, .iface = a->port };
	}
	for (i = 0; i < s->n_routes; i++) {
		const struct lsk_route *r = &s->routes[i];
		const struct lsk_ifaddr *a = lsk_connected_lookup(s,
								  r->gateway);

		e[n++] = (struct show_entry){ .prefix = r->prefix,
			.depth = r->depth, .gateway = r->gateway,
			.kind = r->type == LSK_ROUTE_VIA ? SHOW_VIA :
							   SHOW_BLACKHOLE,
			.iface = a != NULL ? a->port : 0 };
	}
	qsort(e, n, sizeof(*e), show_cmp);
	if (prefix_or_null != NULL)
		best = show_longest(e, n, fprefix, fdepth);
	if (o->json)
		rc = lsk_out_printf(o, "[");
	else if (prefix_or_null != NULL && best < 0)
		rc = lsk_out_printf(o, "no route covers %s\n",
				    prefix_or_null);
	else if (prefix_or_null != NULL)
		rc = lsk_out_printf(o, "the longest match for %s:\n",
				    prefix_or_null);
	if (rc == 0 && !o->json && (prefix_or_null == NULL || best >= 0))
		rc = lsk_out_printf(o, "%-18s  %-9s  %-15s  %s\n",
				    "destination", "type", "gateway",
				    "interface");
	for (i = 0; i < n && rc == 0; i++) {
		if (prefix_or_null != NULL && (best < 0 ||
		    e[i].depth != e[best].depth ||
		    e[i].prefix != e[best].prefix))
			continue;
		/* the same subnet on two addresses is one route */
		if (i > 0 && show_cmp(&e[i], &e[i - 1]) == 0)
			continue;
		rc = show_line(s, o, &e[i], first);
		first = false;
	}
	if (rc == 0 && o->json)
		rc = lsk_out_printf(o, "]\n");
	free(e);
	return rc;
}
