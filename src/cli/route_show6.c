/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 in the route views (IPv4's: cli/route_show.c): `route get ADDR6`
 * (lsk_route6_get, control/route6_get.c) and the IPv6 rows of `show
 * routes [PREFIX6]`: our addresses' /128s and connected prefixes, then
 * the configured routes, then the learned ones with their protocol (a
 * configured one of the same prefix first, the learned one "shadowed"),
 * in the same columns and JSON members as IPv4's.
 * Link-local prefixes are on every interface and in no FIB: not shown.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fwd6.h"
#include "control/control.h"
#include "cli/cmd.h"

int
lsk_route6_get_show(struct lsk_stack *s, struct lsk_out *o,
		    const struct lsk_ip6_addr *addr, uint16_t in_iface,
		    const struct lsk_route6_flow *flow)
{
	struct lsk_route6_answer a;
	char dst[INET6_ADDRSTRLEN], pfx[INET6_ADDRSTRLEN];
	char hop[INET6_ADDRSTRLEN], src[INET6_ADDRSTRLEN];
	char dev[24], mac[24], extra[48];
	bool has_mac;
	int rc = lsk_route6_get_flow(s, addr, in_iface, flow, &a);

	if (rc < 0)
		return rc;
	cmd_route_extra_text(a.learned, a.proto, a.n_paths, a.path, extra,
			     sizeof(extra));
	cmd_ip6_text(addr, dst, sizeof(dst));
	cmd_ip6_text(&a.prefix, pfx, sizeof(pfx));
	cmd_ip6_text(&a.next_hop, hop, sizeof(hop));
	cmd_ip6_text(&a.src, src, sizeof(src));
	cmd_iface_name(s, a.iface, dev, sizeof(dev));
	rte_ether_format_addr(mac, sizeof(mac), &a.neigh_mac);
	has_mac = a.neigh_state == LSK_RNEIGH_REACHABLE ||
		  a.neigh_state == LSK_RNEIGH_STALE ||
		  a.neigh_state == LSK_RNEIGH_STATIC;
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
				has_mac ? mac : "");
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
		if (has_mac)
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

/* One row of the view. */
struct show6_entry {
	struct lsk_ip6_addr prefix;
	uint8_t depth;
	uint8_t kind;		/* enum show6_kind */
	uint16_t iface;		/* LSK_IFACE_ANY: none */
	uint8_t learned;	/* 1: learned, 2: and a configured one wins */
	const struct lsk_route6 *r;
};

enum show6_kind { SHOW6_CONNECTED, SHOW6_LOCAL, SHOW6_VIA, SHOW6_BLACKHOLE,
		  SHOW6_UNREACHABLE, SHOW6_PROHIBIT };

static const char *const kind6_names[] = {
	[SHOW6_CONNECTED] = "connected",
	[SHOW6_LOCAL] = "local",
	[SHOW6_VIA] = "via",
	[SHOW6_BLACKHOLE] = "blackhole",
	[SHOW6_UNREACHABLE] = "unreachable",
	[SHOW6_PROHIBIT] = "prohibit",
};

static int
show6_cmp(const void *pa, const void *pb)
{
	const struct show6_entry *a = pa, *b = pb;
	int c = memcmp(&a->prefix, &b->prefix, sizeof(a->prefix));

	if (c != 0)
		return c;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->learned != b->learned)	/* the configured one first */
		return (int)a->learned - (int)b->learned;
	return (int)a->kind - (int)b->kind;
}

static uint8_t
show6_kind_of(const struct lsk_route6 *r)
{
	switch (r->type) {
	case LSK_ROUTE_VIA: return SHOW6_VIA;
	case LSK_ROUTE_UNREACHABLE: return SHOW6_UNREACHABLE;
	case LSK_ROUTE_PROHIBIT: return SHOW6_PROHIBIT;
	default: return SHOW6_BLACKHOLE;
	}
}

/* A route's lines (cli/route_show.c's cmd_route_row, IPv4's shape). */
static int
show6_line(const struct lsk_stack *s, struct lsk_out *o,
	   const struct show6_entry *e, bool first)
{
	struct cmd_route_row row = { .kind = kind6_names[e->kind],
		.via = e->kind == SHOW6_VIA, .learned = e->learned,
		.proto = e->r != NULL ? e->r->proto : 0, .n = 1 };
	const struct lsk_ifaddr6 *c;
	unsigned int i;

	cmd_prefix6_text(&e->prefix, e->depth, row.dst, sizeof(row.dst));
	memset(row.p, 0, sizeof(row.p[0]));
	if (e->iface != LSK_IFACE_ANY)
		cmd_iface_name(s, e->iface, row.p[0].dev,
			       sizeof(row.p[0].dev));
	if (row.via)
		row.n = e->r->n_paths;
	for (i = 0; row.via && i < row.n; i++) {
		const struct lsk_route6_path *p = &e->r->paths[i];
		uint16_t iface = p->iface;

		cmd_ip6_text(&p->gateway, row.p[i].gw, sizeof(row.p[i].gw));
		c = lsk_connected6_lookup(s, &p->gateway);
		if (iface == LSK_IFACE_ANY && c != NULL)
			iface = c->iface;
		row.p[i].dev[0] = '\0';
		if (iface != LSK_IFACE_ANY)
			cmd_iface_name(s, iface, row.p[i].dev,
				       sizeof(row.p[i].dev));
		row.p[i].weight = p->weight;
	}
	return cmd_route_row(o, &row, first);
}

/* The entry covering the filter's prefix with the longest prefix, or
 * -1 (as IPv4's view finds it). */
static long
show6_longest(const struct show6_entry *e, size_t n,
	      const struct lsk_ip6_addr *fprefix, uint8_t fdepth)
{
	long best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].depth <= fdepth &&
		    lsk_ip6_prefix_match(&e[i].prefix, fprefix, e[i].depth) &&
		    (best < 0 || e[i].depth > e[best].depth))
			best = (long)i;
	return best;
}

/* "ADDR6/LEN" or "ADDR6" (a /128), without host bits. */
static int
show6_filter(const char *text, struct lsk_ip6_addr *prefix, uint8_t *depth)
{
	struct lsk_ip6_addr masked;

	if (strchr(text, '/') == NULL) {
		*depth = 128;
		return cmd_parse_ip6(text, prefix);
	}
	if (cmd_parse_prefix6(text, prefix, depth) < 0)
		return -EINVAL;
	lsk_ip6_mask(prefix, *depth, &masked);
	return lsk_ip6_equal(&masked, prefix) ? 0 : -EINVAL;
}

int
lsk_route6_show(struct lsk_stack *s, struct lsk_out *o, const char *filter,
		bool first)
{
	struct lsk_ip6_addr fprefix;
	uint8_t fdepth = 0;
	struct show6_entry *e;
	size_t n = 0, i;
	long best = -1;
	int rc = 0;

	if (filter != NULL && show6_filter(filter, &fprefix, &fdepth) < 0)
		return -EINVAL;
	e = malloc(((size_t)s->n_routes6 + s->n_learned6 + 2 * s->n_addrs6 +
		    1) * sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if (a->flags & LSK_IFA6_LINKLOCAL)
			continue;
		e[n++] = (struct show6_entry){ .kind = SHOW6_LOCAL,
			.prefix = a->addr, .depth = 128, .iface = a->iface };
		e[n] = (struct show6_entry){ .kind = SHOW6_CONNECTED,
			.depth = a->depth, .iface = a->iface };
		lsk_ip6_mask(&a->addr, a->depth, &e[n++].prefix);
	}
	for (i = 0; i < s->n_routes6; i++) {
		const struct lsk_route6 *r = &s->routes6[i];

		e[n++] = (struct show6_entry){ .prefix = r->prefix,
			.depth = r->depth, .r = r, .kind = show6_kind_of(r),
			.iface = LSK_IFACE_ANY };
	}
	for (i = 0; i < s->n_learned6; i++) {
		const struct lsk_route6 *r = &s->learned6[i];

		e[n++] = (struct show6_entry){ .prefix = r->prefix,
			.depth = r->depth, .r = r, .kind = show6_kind_of(r),
			.iface = LSK_IFACE_ANY,
			.learned = lsk_route6_find(s, &r->prefix, r->depth) ?
				   2 : 1 };
	}
	qsort(e, n, sizeof(*e), show6_cmp);
	if (filter != NULL) {
		best = show6_longest(e, n, &fprefix, fdepth);
		if (o->json)
			rc = lsk_out_printf(o, "[");
		else if (best < 0)
			rc = lsk_out_printf(o, "no route covers %s\n", filter);
		else
			rc = lsk_out_printf(o, "the longest match for %s:\n"
					    "%-18s  %-9s  %-15s  %s\n", filter,
					    "destination", "type", "gateway",
					    "interface");
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (filter != NULL && (best < 0 ||
		    e[i].depth != e[best].depth ||
		    !lsk_ip6_equal(&e[i].prefix, &e[best].prefix)))
			continue;
		/* the same prefix on two addresses is one route */
		if (i > 0 && e[i].kind == SHOW6_CONNECTED &&
		    show6_cmp(&e[i], &e[i - 1]) == 0)
			continue;
		rc = show6_line(s, o, &e[i], first);
		first = false;
	}
	if (rc == 0 && filter != NULL && o->json)
		rc = lsk_out_printf(o, "]\n");
	free(e);
	return rc;
}
