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

const char *const cmd_verdict_names[] = {
	[LSK_VERDICT_NO_ROUTE] = "unreachable",
	[LSK_VERDICT_LOCAL] = "local",
	[LSK_VERDICT_BROADCAST] = "broadcast",
	[LSK_VERDICT_BLACKHOLE] = "blackhole",
	[LSK_VERDICT_FORWARD] = "forward",
	[LSK_VERDICT_UNREACHABLE] = "host-unreachable",
	[LSK_VERDICT_PROHIBIT] = "prohibited",
};

const char *const cmd_rneigh_names[] = {
	[LSK_RNEIGH_NONE] = "none",
	[LSK_RNEIGH_INCOMPLETE] = "incomplete",
	[LSK_RNEIGH_REACHABLE] = "reachable",
	[LSK_RNEIGH_STALE] = "stale",
	[LSK_RNEIGH_FAILED] = "failed",
	[LSK_RNEIGH_STATIC] = "static",
};

const char *const cmd_origin_names[] = {
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

/* rtm_protocol's name as iproute2 writes it (/etc/iproute2/rt_protos),
 * or its number. */
const char *
lsk_route_proto_name(uint8_t proto, char *buf, size_t len)
{
	static const struct { uint8_t n; const char *name; } names[] = {
		{ 2, "kernel" }, { 3, "boot" }, { 4, "static" },
		{ 9, "ra" }, { 11, "zebra" }, { 12, "bird" }, { 16, "dhcp" },
		{ 42, "babel" }, { 99, "openr" }, { 186, "bgp" },
		{ 187, "isis" }, { 188, "ospf" }, { 189, "rip" },
		/* FRR's own (its iproute2 rt_protos.d/frr.conf): zebra
		 * gives a static route 196, not the kernel's 4 */
		{ 190, "ripng" }, { 191, "nhrp" }, { 192, "eigrp" },
		{ 193, "ldp" }, { 194, "sharp" }, { 195, "pbr" },
		{ 196, "static" }, { 197, "openfabric" },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(names); i++)
		if (names[i].n == proto)
			return names[i].name;
	snprintf(buf, len, "%u", proto);
	return buf;
}

void
cmd_route_extra_text(uint8_t learned, uint8_t proto, uint8_t n_paths,
		     uint8_t path, char *buf, size_t len)
{
	char num[8];
	size_t k = 0;

	buf[0] = '\0';
	if (learned)
		k += (size_t)snprintf(buf, len, " proto %s",
				      lsk_route_proto_name(proto, num,
							   sizeof(num)));
	if (n_paths > 1 && k < len)
		snprintf(buf + k, len - k, " path %u/%u", path + 1, n_paths);
}

int
cmd_route_extra_json(struct lsk_out *o, uint8_t learned, uint8_t proto,
		     uint8_t n_paths, uint8_t path)
{
	char num[8];
	int rc = 0;

	if (learned)
		rc |= lsk_out_printf(o, ",\"proto\":\"%s\"",
				     lsk_route_proto_name(proto, num,
							  sizeof(num)));
	if (n_paths > 1)
		rc |= lsk_out_printf(o, ",\"paths\":%u,\"path\":%u", n_paths,
				     path + 1);
	return rc;
}

int
lsk_route_get_show(struct lsk_stack *s, struct lsk_out *o, uint32_t addr,
		   const struct lsk_route_flow *flow)
{
	struct lsk_route_answer a;
	char dst[16], pfx[16], hop[16], src[16], dev[24], mac[24];
	char extra[48];
	const struct lsk_port_conf *ifaces = s->sh.fwd->ifaces;
	int rc = lsk_route_get_flow(s, addr, flow, &a);

	if (rc < 0)
		return rc;
	cmd_route_extra_text(a.learned, a.proto, a.n_paths, a.path, extra,
			     sizeof(extra));
	cmd_ip_text(addr, dst, sizeof(dst));
	cmd_ip_text(a.prefix, pfx, sizeof(pfx));
	cmd_ip_text(a.next_hop, hop, sizeof(hop));
	cmd_ip_text(a.src, src, sizeof(src));
	iface_text(ifaces, a.iface, dev, sizeof(dev));
	rte_ether_format_addr(mac, sizeof(mac), &a.neigh_mac);
	if (o->json) {
		rc = lsk_out_printf(o, "{\"dst\":\"%s\",\"verdict\":\"%s\","
				    "\"origin\":\"%s\"", dst,
				    cmd_verdict_names[a.verdict],
				    cmd_origin_names[a.origin]);
		if (a.verdict != LSK_VERDICT_NO_ROUTE)
			rc |= lsk_out_printf(o, ",\"prefix\":\"%s/%u\"", pfx,
					     a.depth);
		if (a.verdict == LSK_VERDICT_FORWARD)
			rc |= lsk_out_printf(o, ",\"gateway\":\"%s\","
				"\"iface\":%u,\"dev\":\"%s\",\"port\":%u,"
				"\"vlan\":%u,\"mtu\":%u,\"src\":\"%s\","
				"\"neigh\":\"%s\",\"lladdr\":\"%s\"", hop,
				a.iface, dev, a.port, a.vlan, a.mtu, src,
				cmd_rneigh_names[a.neigh_state],
				a.neigh_state == LSK_RNEIGH_NONE ||
				a.neigh_state == LSK_RNEIGH_INCOMPLETE ||
				a.neigh_state == LSK_RNEIGH_FAILED ? "" : mac);
		rc |= cmd_route_extra_json(o, a.learned, a.proto, a.n_paths,
					    a.path);
		return rc | lsk_out_printf(o, ",\"table\":%u}\n", a.generation);
	}
	switch (a.verdict) {
	case LSK_VERDICT_FORWARD:
		rc = lsk_out_printf(o, "%s via %s dev %s src %s mtu %u "
				    "prefix %s/%u %s%s neigh %s", dst, hop, dev,
				    src, a.mtu, pfx, a.depth,
				    cmd_origin_names[a.origin], extra,
				    cmd_rneigh_names[a.neigh_state]);
		if (a.neigh_state == LSK_RNEIGH_REACHABLE ||
		    a.neigh_state == LSK_RNEIGH_STALE ||
		    a.neigh_state == LSK_RNEIGH_STATIC)
			rc |= lsk_out_printf(o, " lladdr %s", mac);
		return rc | lsk_out_printf(o, "\n");
	case LSK_VERDICT_NO_ROUTE:
		return lsk_out_printf(o, "%s unreachable\n", dst);
	default:
		return lsk_out_printf(o, "%s %s prefix %s/%u%s\n", dst,
				      cmd_verdict_names[a.verdict], pfx,
				      a.depth, extra);
	}
}

/* One route of `show routes`: a line per path. */
struct show_entry {
	uint32_t prefix;
	uint8_t depth;
	uint8_t kind;		/* enum show_kind */
	uint8_t learned;	/* 1: learned, 2: and a configured one wins */
	uint8_t proto;
	uint16_t iface;
	const struct lsk_route *r;	/* SHOW_VIA and the types */
};

enum show_kind { SHOW_CONNECTED, SHOW_LOCAL, SHOW_VIA, SHOW_BLACKHOLE,
		 SHOW_UNREACHABLE, SHOW_PROHIBIT };

static const char *const kind_names[] = {
	[SHOW_CONNECTED] = "connected",
	[SHOW_LOCAL] = "local",
	[SHOW_VIA] = "via",
	[SHOW_BLACKHOLE] = "blackhole",
	[SHOW_UNREACHABLE] = "unreachable",
	[SHOW_PROHIBIT] = "prohibit",
};

static int
show_cmp(const void *pa, const void *pb)
{
	const struct show_entry *a = pa, *b = pb;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->learned != b->learned)	/* the configured one first */
		return (int)a->learned - (int)b->learned;
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

/* The route's paths (one: the connected subnet's, an iface's). */
static unsigned int
show_paths(const struct lsk_stack *s, const struct show_entry *e,
	   struct lsk_route_path *p)
{
	unsigned int i, n;

	if (e->r == NULL) {
		p[0] = (struct lsk_route_path){ .iface = e->iface };
		return 1;
	}
	n = lsk_route_paths(s, e->r, p);
	for (i = 0; i < n; i++) {
		const struct lsk_ifaddr *a = lsk_connected_lookup(s,
							p[i].gateway);

		if (p[i].iface == LSK_IFACE_ANY)
			p[i].iface = a != NULL ? a->port : LSK_IFACE_ANY;
		if (p[i].weight == 0)
			p[i].weight = 1;
	}
	if (n == 0)	/* a type: no path */
		p[0] = (struct lsk_route_path){ .iface = LSK_IFACE_ANY };
	return n ? n : 1;
}

int
cmd_route_row(struct lsk_out *o, const struct cmd_route_row *r, bool first)
{
	const struct cmd_route_path_text *p = r->p;
	char tail[48], weight[16], num[8];
	unsigned int i;
	int rc = 0;

	if (o->json) {
		rc = lsk_out_printf(o, "%s{\"dst\":\"%s\",\"type\":\"%s\","
			"\"gateway\":%s%s%s,\"dev\":%s%s%s", first ? "" : ",",
			r->dst, r->kind, r->via ? "\"" : "",
			r->via ? p[0].gw : "null", r->via ? "\"" : "",
			p[0].dev[0] ? "\"" : "", p[0].dev[0] ? p[0].dev : "null",
			p[0].dev[0] ? "\"" : "");
		if (r->learned)
			rc |= lsk_out_printf(o, ",\"proto\":\"%s\"",
					     lsk_route_proto_name(r->proto,
						num, sizeof(num)));
		if (r->learned == 2)
			rc |= lsk_out_printf(o, ",\"shadowed\":true");
		for (i = 0; r->n > 1 && i < r->n; i++)
			rc |= lsk_out_printf(o, "%s{\"gateway\":\"%s\","
					     "\"dev\":\"%s\",\"weight\":%u}",
					     i ? "," : ",\"nexthops\":[",
					     p[i].gw, p[i].dev[0] ? p[i].dev :
					     "?", p[i].weight);
		if (r->n > 1)
			rc |= lsk_out_printf(o, "]");
		return rc | lsk_out_printf(o, "}");
	}
	tail[0] = '\0';
	if (r->learned)
		snprintf(tail, sizeof(tail), "  proto %s%s",
			 lsk_route_proto_name(r->proto, num, sizeof(num)),
			 r->learned == 2 ? " shadowed" : "");
	for (i = 0; i < r->n && rc == 0; i++) {
		weight[0] = '\0';
		if (r->n > 1)
			snprintf(weight, sizeof(weight), "  weight %u",
				 p[i].weight);
		rc = lsk_out_printf(o, "%-18s  %-9s  %-15s  %s%s%s\n", r->dst,
				    r->kind, r->via ? p[i].gw : "-",
				    p[i].dev[0] ? p[i].dev : "-", weight, tail);
	}
	return rc;
}

/* A route's lines (cmd_route_row). */
static int
show_line(const struct lsk_stack *s, struct lsk_out *o,
	  const struct show_entry *e, bool first)
{
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
	struct cmd_route_row row = { .kind = kind_names[e->kind],
		.via = e->kind == SHOW_VIA, .learned = e->learned,
		.proto = e->proto };
	bool dev = e->kind == SHOW_VIA || e->kind == SHOW_CONNECTED ||
		   e->kind == SHOW_LOCAL;
	unsigned int i;

	row.n = show_paths(s, e, p);
	cmd_prefix_text(e->prefix, e->depth, row.dst, sizeof(row.dst));
	for (i = 0; i < row.n; i++) {
		cmd_ip_text(p[i].gateway, row.p[i].gw, sizeof(row.p[i].gw));
		row.p[i].dev[0] = '\0';
		if (dev && p[i].iface != LSK_IFACE_ANY)
			iface_text(s->ports, p[i].iface, row.p[i].dev,
				   sizeof(row.p[i].dev));
		row.p[i].weight = p[i].weight;
	}
	return cmd_route_row(o, &row, first);
}

static uint8_t
show_kind_of(const struct lsk_route *r)
{
	switch (r->type) {
	case LSK_ROUTE_VIA: return SHOW_VIA;
	case LSK_ROUTE_UNREACHABLE: return SHOW_UNREACHABLE;
	case LSK_ROUTE_PROHIBIT: return SHOW_PROHIBIT;
	default: return SHOW_BLACKHOLE;
	}
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

	if (prefix_or_null != NULL && strchr(prefix_or_null, ':') != NULL)
		return lsk_route6_show(s, o, prefix_or_null, true);
	if (prefix_or_null != NULL &&
	    parse_filter(prefix_or_null, &fprefix, &fdepth) < 0)
		return -EINVAL;
	e = malloc(((size_t)s->n_routes + s->n_learned + 2 * s->n_addrs + 1) *
		   sizeof(*e));
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
	for (i = 0; i < s->n_routes; i++)
		e[n++] = (struct show_entry){ .prefix = s->routes[i].prefix,
			.depth = s->routes[i].depth, .r = &s->routes[i],
			.kind = show_kind_of(&s->routes[i]) };
	for (i = 0; i < s->n_learned; i++) {
		const struct lsk_route *r = &s->learned[i];

		e[n++] = (struct show_entry){ .prefix = r->prefix,
			.depth = r->depth, .r = r, .kind = show_kind_of(r),
			.proto = r->proto, .learned = lsk_route_find(s,
				r->prefix, r->depth) != NULL ? 2 : 1 };
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
		if (i > 0 && e[i].kind == SHOW_CONNECTED &&
		    show_cmp(&e[i], &e[i - 1]) == 0)
			continue;
		rc = show_line(s, o, &e[i], first);
		first = false;
	}
	/* then IPv6's (cli/route_show6.c), in the same table */
	if (rc == 0 && prefix_or_null == NULL)
		rc = lsk_route6_show(s, o, NULL, first);
	if (rc == 0 && o->json)
		rc = lsk_out_printf(o, "]\n");
	free(e);
	return rc;
}
