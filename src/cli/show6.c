/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6's rows of `show addresses` and `show neigh` (cli/show.c's views,
 * after IPv4's, in the same table): our addresses as the published
 * table has them (each interface's automatic link-local one first) with
 * the state duplicate address detection gives them, and the neighbours
 * neighbour discovery knows (ip6/nd6.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fwd6.h"
#include "l2/l2.h"
#include "ip6/nd6.h"
#include "control/control.h"
#include "cli/cmd.h"

static const char *
dad_state_name(const struct lsk_stack *s, const struct lsk_ifaddr6 *a)
{
	switch (lsk_nd6_addr_state(s->sh.nd6, &a->addr, a->iface)) {
	case LSK_ND6_ADDR_TENTATIVE: return "tentative";
	case LSK_ND6_ADDR_PREFERRED: return "preferred";
	case LSK_ND6_ADDR_DUPLICATE: return "duplicate";
	default: return "-";
	}
}

int
cmd_show_addresses6(struct cmd_ctx *c, struct cmd_table *t, bool first)
{
	const struct lsk_fwd6_table *ft = c->s->sh.fwd6;
	struct lsk_out *o = c->o;
	char name[24], pfx[INET6_ADDRSTRLEN + 8];
	uint32_t i;

	for (i = 0; i < ft->n_addrs; i++) {
		const struct lsk_ifaddr6 *a = &ft->addrs[i];
		const char *state = dad_state_name(c->s, a);

		cmd_iface_name(c->s, a->iface, name, sizeof(name));
		cmd_prefix6_text(&a->addr, a->depth, pfx, sizeof(pfx));
		if (o->json) {
			lsk_out_printf(o, "%s{\"iface\": \"%s\", \"address\": "
				       "\"%s\", \"broadcast\": null, \"scope\": "
				       "\"%s\", \"state\": \"%s\"}",
				       first && i == 0 ? "" : ", ", name, pfx,
				       a->flags & LSK_IFA6_LINKLOCAL ? "link" :
				       "global", state);
			continue;
		}
		if (cmd_table_add(t) < 0)
			return -ENOMEM;
		cmd_table_set(t, 0, "%s", name);
		cmd_table_set(t, 1, "%s", pfx);
		cmd_table_set(t, 2, "-");
		cmd_table_set(t, 3, "%s", state);
	}
	return 0;
}

static int
neigh6_cmp(const void *pa, const void *pb)
{
	const struct lsk_nd6_info *a = pa, *b = pb;
	int c = memcmp(&a->addr, &b->addr, sizeof(a->addr));

	if (c != 0)
		return c;
	return (int)a->iface - (int)b->iface;
}

int
cmd_show_neigh6(struct cmd_ctx *c, struct cmd_table *t, bool first)
{
	struct lsk_out *o = c->o;
	struct lsk_nd6_info *n;
	char ip[INET6_ADDRSTRLEN], name[24], mac[RTE_ETHER_ADDR_FMT_SIZE];
	uint32_t i, k;

	n = malloc(LSK_NEIGH_MAX * sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	k = lsk_nd6_list(c->s->sh.nd6, n, LSK_NEIGH_MAX);
	qsort(n, k, sizeof(*n), neigh6_cmp);
	for (i = 0; i < k; i++) {
		const char *state = n[i].state <= LSK_NEIGH_STATIC &&
				    cmd_neigh_state_names[n[i].state] ?
				    cmd_neigh_state_names[n[i].state] : "?";
		bool resolved = !rte_is_zero_ether_addr(&n[i].mac);

		cmd_ip6_text(&n[i].addr, ip, sizeof(ip));
		cmd_iface_name(c->s, n[i].iface, name, sizeof(name));
		cmd_mac_text(&n[i].mac, mac, sizeof(mac));
		if (o->json) {
			lsk_out_printf(o, "%s{\"address\": \"%s\", \"iface\": "
				       "\"%s\", \"mac\": ",
				       first && i == 0 ? "" : ", ", ip, name);
			lsk_out_printf(o, resolved ? "\"%s\"" : "null", mac);
			lsk_out_printf(o, ", \"state\": \"%s\", \"held\": %u, "
				       "\"router\": %s}", state, n[i].n_held,
				       n[i].router ? "true" : "false");
			continue;
		}
		if (cmd_table_add(t) < 0)
			break;
		cmd_table_set(t, 0, "%s", ip);
		cmd_table_set(t, 1, "%s", name);
		cmd_table_set(t, 2, "%s", resolved ? mac : "-");
		cmd_table_set(t, 3, "%s%s", state, n[i].router ? " router" :
			      "");
		cmd_table_set(t, 4, "%u", n[i].n_held);
	}
	free(n);
	return 0;
}
