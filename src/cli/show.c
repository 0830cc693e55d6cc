/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The views (`show ...`) and `help`. Text: an aligned table in the style
 * of `ip -br` and grout's grcli, a header row then one row per item.
 * JSON (o->json): one value per view, members named as the text columns
 * (lower case, "/" read as "_per_"). `show interfaces` (blocks, as
 * `ip -s link`) is in cli/show_iface.c, the counter views in
 * cli/show_stats.c, `show config` in cli/show_config.c, `show pipeline`
 * in cli/show_pipeline.c; `show version` is here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netinet/in.h>

#include <rte_ring.h>
#include <rte_version.h>

#include "core/fwd.h"
#include "l2/l2.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/udp_ctl.h"
#include "cli/cmd.h"
#include "lsk_version.h"

/* --- aligned tables ------------------------------------------------- */

void
cmd_table_init(struct cmd_table *t, const char *const *head,
	       unsigned int ncols)
{
	memset(t, 0, sizeof(*t));
	t->head = head;
	t->ncols = ncols;
}

int
cmd_table_add(struct cmd_table *t)
{
	void *p;

	if (t->oom)
		return -ENOMEM;
	if (t->nrows == t->cap) {
		unsigned int cap = t->cap ? t->cap * 2 : 16;

		p = realloc(t->cells, (size_t)cap * t->ncols * CMD_CELL);
		if (p == NULL) {
			t->oom = true;
			return -ENOMEM;
		}
		t->cells = p;
		t->cap = cap;
	}
	memset(t->cells[t->nrows * t->ncols], 0, t->ncols * CMD_CELL);
	t->nrows++;
	return 0;
}

void
cmd_table_set(struct cmd_table *t, unsigned int col, const char *fmt, ...)
{
	va_list ap;

	if (t->oom || t->nrows == 0 || col >= t->ncols)
		return;
	va_start(ap, fmt);
	vsnprintf(t->cells[(t->nrows - 1) * t->ncols + col], CMD_CELL, fmt,
		  ap);
	va_end(ap);
}

static const char *
table_cell(const struct cmd_table *t, unsigned int row, unsigned int col)
{
	return row == 0 ? t->head[col] : t->cells[(row - 1) * t->ncols + col];
}

int
cmd_table_print(struct cmd_table *t, struct lsk_out *o)
{
	size_t width[CMD_TABLE_COLS] = { 0 };
	unsigned int r, k;
	int rc = t->oom ? -ENOMEM : 0;

	for (r = 0; r <= t->nrows && rc == 0; r++)
		for (k = 0; k < t->ncols && k < CMD_TABLE_COLS; k++)
			width[k] = RTE_MAX(width[k], strlen(table_cell(t, r, k)));
	for (r = 0; r <= t->nrows && rc == 0; r++) {
		for (k = 0; k + 1 < t->ncols && rc == 0; k++)
			rc = lsk_out_printf(o, "%-*s  ", (int)width[k],
					    table_cell(t, r, k));
		if (rc == 0)
			rc = lsk_out_printf(o, "%s\n",
					    table_cell(t, r, t->ncols - 1));
	}
	free(t->cells);
	t->cells = NULL;
	return rc;
}

/* --- names the views share ---------------------------------------- */

void
cmd_iface_name(const struct lsk_stack *s, unsigned int iface, char *buf,
	       size_t len)
{
	const struct lsk_port_conf *p = &s->ports[iface];

	if (iface >= s->n_ifaces)
		snprintf(buf, len, "?%u", iface);
	else if (p->vlan == 0)
		snprintf(buf, len, "port%u", iface);
	else
		snprintf(buf, len, "port%u.%u", p->parent, p->vlan);
}

void
cmd_mac_text(const struct rte_ether_addr *mac, char *buf, size_t len)
{
	rte_ether_format_addr(buf, (uint16_t)len, mac);
}

/* "A.B.C.D/L" */
void
cmd_prefix_text(uint32_t addr, uint8_t depth, char *buf, size_t len)
{
	char ip[16];

	cmd_ip_text(addr, ip, sizeof(ip));
	snprintf(buf, len, "%s/%u", ip, depth);
}

/* --- show addresses ----------------------------------------------- */

static int
show_addresses(struct cmd_ctx *c)
{
	static const char *const head[] = { "IFACE", "ADDRESS", "BROADCAST" };
	const struct lsk_stack *s = c->s;
	struct lsk_out *o = c->o;
	struct cmd_table t;
	char name[24], pfx[24], bcast[16];
	unsigned int i;

	if (o->json)
		lsk_out_printf(o, "[");
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < s->n_addrs; i++) {
		const struct lsk_ifaddr *a = &s->addrs[i];

		cmd_iface_name(s, a->port, name, sizeof(name));
		cmd_prefix_text(a->addr, a->depth, pfx, sizeof(pfx));
		if (a->depth < 31)
			cmd_ip_text(a->addr | ~lsk_depth_mask(a->depth), bcast,
				    sizeof(bcast));
		else
			snprintf(bcast, sizeof(bcast), "-");
		if (o->json) {
			lsk_out_printf(o, "%s{\"iface\": \"%s\", \"address\": "
				       "\"%s\", \"broadcast\": ", i ? ", " : "",
				       name, pfx);
			lsk_out_printf(o, a->depth < 31 ? "\"%s\"}" : "null}",
				       bcast);
			continue;
		}
		if (cmd_table_add(&t) < 0)
			break;
		cmd_table_set(&t, 0, "%s", name);
		cmd_table_set(&t, 1, "%s", pfx);
		cmd_table_set(&t, 2, "%s", bcast);
	}
	if (o->json)
		return lsk_out_printf(o, "]\n");
	return cmd_table_print(&t, o);
}

/* --- show neigh --------------------------------------------------- */

static const char *const neigh_state_names[] = {
	[LSK_NEIGH_INCOMPLETE] = "incomplete",
	[LSK_NEIGH_REACHABLE] = "reachable",
	[LSK_NEIGH_STALE] = "stale",
	[LSK_NEIGH_FAILED] = "failed",
	[LSK_NEIGH_STATIC] = "static",
};

static int
neigh_by_addr(const void *a, const void *b)
{
	uint32_t x = ((const struct lsk_neigh_info *)a)->addr;
	uint32_t y = ((const struct lsk_neigh_info *)b)->addr;

	return x < y ? -1 : x > y;
}

static int
show_neigh(struct cmd_ctx *c)
{
	static const char *const head[] = { "ADDRESS", "IFACE", "MAC",
					    "STATE", "HELD" };
	struct lsk_out *o = c->o;
	struct lsk_neigh_info *n;
	struct cmd_table t;
	char ip[16], name[24], mac[RTE_ETHER_ADDR_FMT_SIZE];
	uint32_t i, k;
	int rc;

	n = malloc(LSK_NEIGH_MAX * sizeof(*n));
	if (n == NULL)
		return cmd_error(c, -ENOMEM, "no memory for the view");
	k = lsk_neigh_list(c->s->sh.neigh, n, LSK_NEIGH_MAX);
	qsort(n, k, sizeof(*n), neigh_by_addr);
	if (o->json)
		lsk_out_printf(o, "[");
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < k; i++) {
		const char *state = n[i].state < RTE_DIM(neigh_state_names) &&
				    neigh_state_names[n[i].state] ?
				    neigh_state_names[n[i].state] : "?";
		bool resolved = !rte_is_zero_ether_addr(&n[i].mac);

		cmd_ip_text(n[i].addr, ip, sizeof(ip));
		cmd_iface_name(c->s, n[i].port, name, sizeof(name));
		cmd_mac_text(&n[i].mac, mac, sizeof(mac));
		if (o->json) {
			lsk_out_printf(o, "%s{\"address\": \"%s\", \"iface\": "
				       "\"%s\", \"mac\": ", i ? ", " : "", ip,
				       name);
			lsk_out_printf(o, resolved ? "\"%s\"" : "null", mac);
			lsk_out_printf(o, ", \"state\": \"%s\", \"held\": %u}",
				       state, n[i].n_held);
			continue;
		}
		if (cmd_table_add(&t) < 0)
			break;
		cmd_table_set(&t, 0, "%s", ip);
		cmd_table_set(&t, 1, "%s", name);
		cmd_table_set(&t, 2, "%s", resolved ? mac : "-");
		cmd_table_set(&t, 3, "%s", state);
		cmd_table_set(&t, 4, "%u", n[i].n_held);
	}
	free(n);
	if (o->json)
		return lsk_out_printf(o, "]\n");
	rc = cmd_table_print(&t, o);
	return rc;
}

/* --- show udp ----------------------------------------------------- */

static bool
ep_is_service(const struct lsk_stack *s, const struct lsk_udp_ep *ep)
{
	struct lsk_udp_addr a;

	lsk_udp_ep_local(ep, &a);
	return lsk_service_find(s, &a, ep->port) != NULL;
}

static int
udp_row(struct cmd_ctx *c, struct cmd_table *t, bool first,
	const struct lsk_udp_ep *ep, const struct lsk_service_info *si)
{
	struct lsk_out *o = c->o;
	char ip[LSK_UDP_ADDR_TEXT];
	unsigned int ring = rte_ring_get_capacity(ep->ring);
	unsigned int queued = rte_ring_count(ep->ring);

	lsk_udp_ep_text(ep, ip, sizeof(ip));
	if (o->json) {
		lsk_out_printf(o, "%s{\"listen\": \"%s\", \"service\": "
			       "\"%s\", \"ring\": %u, \"queued\": %u, "
			       "\"datagrams\": ", first ? "" : ", ", ip,
			       si ? si->kind : "app", ring, queued);
		if (si != NULL)
			lsk_out_printf(o, "%" PRIu64, si->datagrams);
		else
			lsk_out_printf(o, "null");
		lsk_out_printf(o, ", \"file\": ");
		if (si != NULL && si->path != NULL)
			lsk_out_json_str(o, si->path);
		else
			lsk_out_printf(o, "null");
		return lsk_out_printf(o, "}");
	}
	if (cmd_table_add(t) < 0)
		return -ENOMEM;
	cmd_table_set(t, 0, "%s", ip);
	cmd_table_set(t, 1, "%s", si ? si->kind : "app");
	cmd_table_set(t, 2, "%u", ring);
	cmd_table_set(t, 3, "%u", queued);
	if (si != NULL)
		cmd_table_set(t, 4, "%" PRIu64, si->datagrams);
	else
		cmd_table_set(t, 4, "-");
	cmd_table_set(t, 5, "%s", si && si->path ? si->path : "-");
	return 0;
}

/* Services first (in the order they were opened), then the endpoints
 * applications bound. */
static int
show_udp(struct cmd_ctx *c)
{
	static const char *const head[] = { "LISTEN", "SERVICE", "RING",
					    "QUEUED", "DATAGRAMS", "FILE" };
	const struct lsk_stack *s = c->s;
	struct cmd_table t;
	unsigned int i, n = 0;

	if (c->o->json)
		lsk_out_printf(c->o, "[");
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < s->n_services; i++) {
		struct lsk_service_info si;
		const struct lsk_udp_ep *ep = NULL;
		unsigned int k;

		lsk_service_info(s->services[i], &si);
		/* listed unless a batch took it out */
		for (k = 0; k < s->n_eps && ep == NULL; k++)
			if (s->eps[k] == si.ep)
				ep = s->eps[k];
		if (ep != NULL)
			udp_row(c, &t, n++ == 0, ep, &si);
	}
	for (i = 0; i < s->n_eps; i++)
		if (!ep_is_service(s, s->eps[i]))
			udp_row(c, &t, n++ == 0, s->eps[i], NULL);
	if (c->o->json)
		return lsk_out_printf(c->o, "]\n");
	return cmd_table_print(&t, c->o);
}

/* --- show filter -------------------------------------------------- */

void
cmd_proto_text(uint8_t proto, char *buf, size_t len)
{
	if (proto == IPPROTO_UDP)
		snprintf(buf, len, "udp");
	else if (proto == IPPROTO_TCP)
		snprintf(buf, len, "tcp");
	else if (proto == IPPROTO_ICMP)
		snprintf(buf, len, "icmp");
	else
		snprintf(buf, len, "%u", proto);
}

static void
range_text(uint16_t lo, uint16_t hi, char *buf, size_t len)
{
	if (lo == hi)
		snprintf(buf, len, "%u", lo);
	else
		snprintf(buf, len, "%u-%u", lo, hi);
}

static int
show_filter(struct cmd_ctx *c)
{
	static const char *const head[] = { "N", "ACTION", "PROTO", "SRC",
					    "DST", "SPORT", "DPORT" };
	const struct lsk_stack *s = c->s;
	struct lsk_out *o = c->o;
	struct cmd_table t;
	char proto[8], src[24], dst[24], sp[16], dp[16];
	uint32_t i;

	if (o->json)
		lsk_out_printf(o, "[");
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < s->n_filters; i++) {
		const struct lsk_filter_rule *r = &s->filters[i];

		cmd_proto_text(r->proto, proto, sizeof(proto));
		cmd_prefix_text(r->src, r->src_depth, src, sizeof(src));
		cmd_prefix_text(r->dst, r->dst_depth, dst, sizeof(dst));
		range_text(r->sport_lo, r->sport_hi, sp, sizeof(sp));
		range_text(r->dport_lo, r->dport_hi, dp, sizeof(dp));
		if (o->json) {
			lsk_out_printf(o, "%s{\"n\": %u, \"action\": \"%s\", "
				       "\"proto\": ", i ? ", " : "", i + 1,
				       r->drop ? "drop" : "accept");
			lsk_out_printf(o, r->proto ? "\"%s\"" : "null", proto);
			lsk_out_printf(o, ", \"src\": \"%s\", \"dst\": \"%s\", "
				       "\"sport\": \"%s\", \"dport\": \"%s\"}",
				       src, dst, sp, dp);
			continue;
		}
		if (cmd_table_add(&t) < 0)
			break;
		cmd_table_set(&t, 0, "%u", i + 1);
		cmd_table_set(&t, 1, "%s", r->drop ? "drop" : "accept");
		cmd_table_set(&t, 2, "%s", r->proto ? proto : "any");
		cmd_table_set(&t, 3, "%s", src);
		cmd_table_set(&t, 4, "%s", dst);
		cmd_table_set(&t, 5, "%s", sp);
		cmd_table_set(&t, 6, "%s", dp);
	}
	if (o->json)
		return lsk_out_printf(o, "]\n");
	return cmd_table_print(&t, o);
}

/* --- show routes ------------------------------------------------- */

/* `show routes [PREFIX]`: cli/route_show.c's view. */
int
cmd_show_routes(struct cmd_ctx *c)
{
	int rc = lsk_route_show(c->s, c->o, c->argc == 3 ? c->argv[2] : NULL);

	if (rc == -EINVAL)
		return cmd_error(c, rc, "bad prefix '%s' (want %s)",
				 c->argv[2], cmd_is_ip6(c->argv[2]) ?
				 "ADDRESS6/LEN" : "A.B.C.D/L");
	return rc;
}

/* --- show version ------------------------------------------------ */

/* `show version`: listack's version, DPDK's, and how long the stack has
 * run (text: [Nd ]H:MM:SS; JSON: seconds). */
static int
show_version(struct cmd_ctx *c)
{
	static const char *const head[] = { "VERSION", "DPDK", "UPTIME" };
	const char *dpdk = rte_version();
	struct cmd_table t;
	struct timespec now;
	uint64_t up;

	clock_gettime(CLOCK_MONOTONIC, &now);
	up = (uint64_t)(((int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
			 c->s->created) / 1000000000);
	if (strncmp(dpdk, "DPDK ", 5) == 0)
		dpdk += 5;
	if (c->o->json)
		return lsk_out_printf(c->o, "{\"version\": \"%s\", \"dpdk\": "
				      "\"%s\", \"uptime\": %" PRIu64 "}\n",
				      LSK_VERSION, dpdk, up);
	cmd_table_init(&t, head, RTE_DIM(head));
	if (cmd_table_add(&t) < 0)
		return -ENOMEM;
	cmd_table_set(&t, 0, "%s", LSK_VERSION);
	cmd_table_set(&t, 1, "%s", dpdk);
	if (up >= 86400)
		cmd_table_set(&t, 2, "%" PRIu64 "d %" PRIu64 ":%02" PRIu64
			      ":%02" PRIu64, up / 86400, up % 86400 / 3600,
			      up % 3600 / 60, up % 60);
	else
		cmd_table_set(&t, 2, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64,
			      up / 3600, up % 3600 / 60, up % 60);
	return cmd_table_print(&t, c->o);
}

/* --- show VIEW ---------------------------------------------------- */

/* word: the one word more a view takes ("*": any, the view checks it) */
static const struct {
	const char *name;
	int (*fn)(struct cmd_ctx *c);
	const char *word;
} views[] = {
	{ "interfaces", cmd_show_interfaces, NULL },
	{ "addresses", show_addresses, NULL },
	{ "routes", cmd_show_routes, "*" },
	{ "neigh", show_neigh, NULL },
	{ "udp", show_udp, NULL },
	{ "filter", show_filter, NULL },
	{ "stats", cmd_show_stats, NULL },
	{ "runtime", cmd_show_runtime, NULL },
	{ "errors", cmd_show_errors, "-a" },
	{ "config", cmd_show_config, NULL },
	{ "pipeline", cmd_show_pipeline, "dot" },
	{ "fpm", cmd_show_fpm, NULL },
	{ "version", show_version, NULL },
};

int
cmd_show(struct cmd_ctx *c)
{
	size_t i;
	int rc;

	if (c->argc >= 2) {
		for (i = 0; i < RTE_DIM(views); i++) {
			if (strcmp(c->argv[1], views[i].name) != 0)
				continue;
			if (c->argc > 3 || (c->argc == 3 &&
					    (views[i].word == NULL ||
					     (strcmp(views[i].word, "*") != 0 &&
					      strcmp(views[i].word,
						     c->argv[2]) != 0))))
				return cmd_error(c, -EINVAL, "usage: %s",
						 cmd_usage("show"));
			if (c->check)
				return 0;
			rc = views[i].fn(c);
			if (rc == -ENOMEM || c->o->oom)
				return cmd_error(c, -ENOMEM,
						 "no memory for the view");
			return rc;
		}
	}
	return cmd_error(c, -EINVAL, "usage: %s", cmd_usage("show"));
}
