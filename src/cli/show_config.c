/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `show config`: the running configuration as a config file, in an order
 * that loads (ports, then the addresses the rest needs, then routes,
 * neighbours, services, filters and settings), IPv4's then IPv6's of
 * each: loading it into a fresh stack gives the same `show config`.
 * JSON: an array of its lines.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "control/control.h"
#include "control/udp_ctl.h"
#include "cli/cmd.h"

struct config_out {
	struct lsk_out *o;
	unsigned int n;
};

static void __attribute__((format(printf, 2, 3)))
config_line(struct config_out *co, const char *fmt, ...)
{
	char line[LSK_COMMAND_LINE_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (co->o->json) {
		lsk_out_printf(co->o, co->n ? ", " : "");
		lsk_out_json_str(co->o, line);
	} else {
		lsk_out_printf(co->o, "%s\n", line);
	}
	co->n++;
}

/*
 * A port's MAC only when `port N mac` gave it: a replaced NIC keeps its
 * own. Then its VLAN sub-interfaces in interface order, those without an
 * address too, so that a restart numbers the interfaces as before.
 */
static void
config_ports(struct config_out *co, const struct lsk_stack *s)
{
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	unsigned int i;

	for (i = 0; i < s->n_ports; i++) {
		const char *name = s->port_names[i];
		const char *hif = s->host_if[i];

		cmd_mac_text(&s->ports[i].mac, mac, sizeof(mac));
		if (s->mac_given[i])
			config_line(co, "port %u mtu %u mac %s%s%s%s%s", i,
				    s->ports[i].mtu, mac,
				    name[0] ? " name " : "", name,
				    hif[0] ? " host-if " : "", hif);
		else
			config_line(co, "port %u mtu %u%s%s%s%s", i,
				    s->ports[i].mtu,
				    name[0] ? " name " : "", name,
				    hif[0] ? " host-if " : "", hif);
		if (s->ports[i].down)
			config_line(co, "port %u down", i);
	}
	for (i = s->n_ports; i < s->n_ifaces; i++)
		config_line(co, "port %u vlan %u", s->ports[i].parent,
			    s->ports[i].vlan);
	/* router advertisements, off by default */
	for (i = 0; i < s->n_ports; i++)
		if (s->ra6 & (UINT64_C(1) << i))
			config_line(co, "port %u ra on", i);
	/* a host-if's rate, when not the default (control/host_ctl.h) */
	for (i = 0; i < s->n_ports; i++)
		if (s->host_if[i][0] != '\0' && s->host_rate[i] != 0)
			config_line(co, "host-if %s rate %u", s->host_if[i],
				    s->host_rate[i]);
}

static void
config_addresses(struct config_out *co, const struct lsk_stack *s)
{
	char pfx[24], pfx6[INET6_ADDRSTRLEN + 8], where[32];
	unsigned int i;

	for (i = 0; i < s->n_addrs; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];
		const struct lsk_port_conf *p = &s->ports[a->port];

		cmd_prefix_text(a->addr, a->depth, pfx, sizeof(pfx));
		if (p->vlan != 0)
			config_line(co, "address add %s port %u vlan %u", pfx,
				    p->parent, p->vlan);
		else
			config_line(co, "address add %s port %u", pfx, a->port);
	}
	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		cmd_prefix6_text(&a->addr, a->depth, pfx6, sizeof(pfx6));
		cmd_iface_words(s, a->iface, where, sizeof(where));
		config_line(co, "address add %s %s", pfx6, where);
	}
}

static void
config_routes(struct config_out *co, const struct lsk_stack *s)
{
	char pfx[24], target[LSK_ROUTE_MAX_PATHS * 40];
	char pfx6[INET6_ADDRSTRLEN + 8];
	unsigned int i;

	/* configured routes only: learned ones are the daemon's to give
	 * again (control/route_learn.c) */
	for (i = 0; i < s->n_routes; i++) {
		const struct lsk_route *r = &s->routes[i];

		cmd_prefix_text(r->prefix, r->depth, pfx, sizeof(pfx));
		cmd_route_target_text(s, r, target, sizeof(target));
		config_line(co, "route add %s %s", pfx, target);
	}
	for (i = 0; i < s->n_routes6; i++) {
		const struct lsk_route6 *r = &s->routes6[i];

		cmd_prefix6_text(&r->prefix, r->depth, pfx6, sizeof(pfx6));
		cmd_route6_target_text(s, r, target, sizeof(target));
		config_line(co, "route add %s %s", pfx6, target);
	}
}

static void
config_neighs(struct config_out *co, const struct lsk_stack *s)
{
	char ip[16], mac[RTE_ETHER_ADDR_FMT_SIZE];
	char ip6[INET6_ADDRSTRLEN], where[32];
	unsigned int i;

	for (i = 0; i < s->n_neighs; i++) {
		cmd_ip_text(s->neighs[i].addr, ip, sizeof(ip));
		cmd_mac_text(&s->neighs[i].mac, mac, sizeof(mac));
		config_line(co, "neigh add %s lladdr %s", ip, mac);
	}
	/* a link-local neighbour names its interface */
	for (i = 0; i < s->n_neighs6; i++) {
		const struct lsk_neigh6 *n = &s->neighs6[i];

		cmd_ip6_text(&n->addr, ip6, sizeof(ip6));
		cmd_mac_text(&n->mac, mac, sizeof(mac));
		where[0] = '\0';
		if (lsk_ip6_is_linklocal(&n->addr)) {
			where[0] = ' ';
			cmd_iface_words(s, n->iface, where + 1,
					sizeof(where) - 1);
		}
		config_line(co, "neigh add %s lladdr %s%s", ip6, mac, where);
	}
}

static void
config_services(struct config_out *co, const struct lsk_stack *s)
{
	char ip[LSK_UDP_ADDR_TEXT], ring[24];
	unsigned int i;

	for (i = 0; i < s->n_services; i++) {
		struct lsk_service_info si;

		lsk_service_info(s->services[i], &si);
		lsk_udp_ep_text(si.ep, ip, sizeof(ip));
		ring[0] = '\0';
		if (si.ring_size != 0)
			snprintf(ring, sizeof(ring), " ring %u", si.ring_size);
		if (si.path != NULL)
			config_line(co, "udp listen %s %s %s%s", ip, si.kind,
				    si.path, ring);
		else
			config_line(co, "udp listen %s %s%s", ip, si.kind,
				    ring);
	}
}

/* A rule with only the fields it sets. */
static void
config_filter(struct config_out *co, const struct lsk_filter_rule *r)
{
	char line[256], text[32];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "filter add %s",
			     r->drop ? "drop" : "accept");
	if (r->proto != 0) {
		cmd_proto_text(r->proto, text, sizeof(text));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " proto %s",
				      text);
	}
	if (r->src_depth != 0) {
		cmd_prefix_text(r->src, r->src_depth, text, sizeof(text));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " src %s",
				      text);
	}
	if (r->dst_depth != 0) {
		cmd_prefix_text(r->dst, r->dst_depth, text, sizeof(text));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " dst %s",
				      text);
	}
	if (r->sport_lo != 0 || r->sport_hi != UINT16_MAX)
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      r->sport_lo == r->sport_hi ?
				      " sport %u" : " sport %u-%u",
				      r->sport_lo, r->sport_hi);
	if (r->dport_lo != 0 || r->dport_hi != UINT16_MAX)
		snprintf(line + n, sizeof(line) - n,
			 r->dport_lo == r->dport_hi ? " dport %u" : " dport %u-%u",
			 r->dport_lo, r->dport_hi);
	config_line(co, "%s", line);
}

static void
config_settings(struct config_out *co, const struct lsk_stack *s)
{
	if (s->gro_flows == 0)
		config_line(co, "gro off");
	else
		config_line(co, "gro %s flows %u segs %u",
			    s->gro_merge ? "merge" : "fraglist", s->gro_flows,
			    s->gro_segs);
	if (s->rcache_entries == 0)
		config_line(co, "route-cache off");
	else
		config_line(co, "route-cache on entries %u", s->rcache_entries);
	config_line(co, "mode %s", s->mode == LSK_MODE_SINGLE ? "single" :
		    "list");
	if (s->fpm.port != 0) {
		char ip[16];

		cmd_ip_text(s->fpm.addr, ip, sizeof(ip));
		config_line(co, "fpm listen %s:%u", ip, s->fpm.port);
	}
}

int
cmd_show_config(struct cmd_ctx *c)
{
	struct config_out co = { .o = c->o };
	const struct lsk_stack *s = c->s;
	uint32_t i;

	if (co.o->json)
		lsk_out_printf(co.o, "[");
	config_ports(&co, s);
	config_addresses(&co, s);
	config_routes(&co, s);
	config_neighs(&co, s);
	config_services(&co, s);
	for (i = 0; i < s->n_filters; i++)
		config_filter(&co, &s->filters[i]);
	config_settings(&co, s);
	if (co.o->json)
		return lsk_out_printf(co.o, "]\n");
	return 0;
}
