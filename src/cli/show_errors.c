/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `show errors [-a]`: the counters of packets dropped (or not sent), by
 * the stage that drops them, as VPP's show errors. The counters that
 * counted come first, grouped by stage in pipeline order, the largest
 * first within a stage; -a: then every other one, grouped the same way.
 * A counter is named as a trace's drop record and a capture's comment
 * name it ("ip.InNoRoutes", "port1.tx_dropped"). Some counters count in
 * two stages (ip.InHdrErrors: a bad header in ip4_input, TTL expired in
 * ip4_forward): both are named, the row sits with the first.
 * Counts are since the last `stats clear`.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"

/* The stages, in pipeline order (LSK_STAGES's names; rx and tx are the
 * ports' side, neigh the hold queue after ip4_forward). */
enum err_stage {
	ES_RX, ES_ETH, ES_ARP, ES_IP4_INPUT, ES_FILTER, ES_ROUTE, ES_LOCAL,
	ES_FORWARD, ES_NEIGH, ES_UDP, ES_ICMP, ES_OUTPUT, ES_TX, ES_NONE,
};

static const char *const stage_names[] = {
	[ES_RX] = "rx", [ES_ETH] = "eth_input", [ES_ARP] = "arp_input",
	[ES_IP4_INPUT] = "ip4_input", [ES_FILTER] = "ip4_filter",
	[ES_ROUTE] = "ip4_route", [ES_LOCAL] = "ip4_local",
	[ES_FORWARD] = "ip4_forward", [ES_NEIGH] = "neigh",
	[ES_UDP] = "udp4_input", [ES_ICMP] = "icmp4_input",
	[ES_OUTPUT] = "ip4_output", [ES_TX] = "tx",
};

static const struct {
	const char *section, *name;
	uint8_t stage, also;	/* enum err_stage; also: ES_NONE or another */
} drop_counters[] = {
	{ "eth", "NotForUs", ES_ETH, ES_NONE },
	{ "eth", "UnknownType", ES_ETH, ES_NONE },
	{ "eth", "UnknownVlan", ES_ETH, ES_NONE },
	{ "eth", "Runts", ES_ETH, ES_NONE },
	{ "arp", "InErrors", ES_ARP, ES_NONE },
	{ "arp", "OutDiscards", ES_ARP, ES_NONE },
	{ "ip", "InHdrErrors", ES_IP4_INPUT, ES_FORWARD },
	{ "ip", "InTruncatedPkts", ES_IP4_INPUT, ES_NONE },
	{ "ip", "InCsumErrors", ES_IP4_INPUT, ES_NONE },
	{ "ip", "InAddrErrors", ES_IP4_INPUT, ES_FORWARD },
	{ "ip", "InDiscards", ES_IP4_INPUT, ES_ROUTE },
	{ "filter", "Dropped", ES_FILTER, ES_NONE },
	{ "ip", "InNoRoutes", ES_ROUTE, ES_NONE },
	{ "ip", "InUnknownProtos", ES_LOCAL, ES_NONE },
	{ "ip", "ReasmFails", ES_LOCAL, ES_NONE },
	{ "ip", "ReasmTimeout", ES_LOCAL, ES_NONE },
	{ "ip", "ReasmOverlaps", ES_LOCAL, ES_NONE },
	{ "ip", "ReasmDuplicates", ES_LOCAL, ES_NONE },
	{ "ip", "FragFails", ES_FORWARD, ES_NONE },
	{ "arp", "UnresolvedDiscards", ES_NEIGH, ES_NONE },
	{ "arp", "TableFulls", ES_NEIGH, ES_NONE },
	{ "udp", "NoPorts", ES_UDP, ES_NONE },
	{ "udp", "InErrors", ES_UDP, ES_NONE },
	{ "udp", "InCsumErrors", ES_UDP, ES_NONE },
	{ "udp", "RcvbufErrors", ES_UDP, ES_NONE },
	{ "icmp", "InErrors", ES_ICMP, ES_NONE },
	{ "icmp", "InCsumErrors", ES_ICMP, ES_NONE },
	{ "icmp", "OutErrors", ES_ICMP, ES_NONE },
	{ "icmp", "OutRateLimited", ES_ICMP, ES_NONE },
	{ "icmp", "OutNoAddrs", ES_ICMP, ES_NONE },
	{ "ip", "OutDiscards", ES_OUTPUT, ES_NONE },
	{ "ip", "OutNoRoutes", ES_OUTPUT, ES_NONE },
};

struct drop_row {
	char section[16];
	const char *name;
	uint64_t value;
	uint8_t stage, also;
	unsigned int order;
};

/* Non-zero first; by stage; larger first; then in the table's order. */
static int
drop_cmp(const void *a, const void *b)
{
	const struct drop_row *x = a, *y = b;

	if ((x->value != 0) != (y->value != 0))
		return x->value != 0 ? -1 : 1;
	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static uint64_t
counter_by_name(const struct lsk_stats *st, const char *section,
		const char *name)
{
	const struct lsk_counter_desc *d;
	unsigned int i, n;

	d = lsk_counters(&n);
	for (i = 0; i < n; i++)
		if (strcmp(d[i].section, section) == 0 &&
		    strcmp(d[i].name, name) == 0)
			return lsk_counter_value(st, &d[i]);
	return 0;
}

static void
port_row(struct drop_row *r, unsigned int port, const char *name,
	 uint64_t value, uint8_t stage, unsigned int order)
{
	snprintf(r->section, sizeof(r->section), "port%u", port);
	r->name = name;
	r->value = value;
	r->stage = stage;
	r->also = ES_NONE;
	r->order = order;
}

static int
row_json(struct lsk_out *o, const struct drop_row *r, bool first)
{
	return lsk_out_printf(o, "%s{\"stage\": \"%s\", \"stages\": [\"%s\"%s%s"
			      "%s], \"section\": \"%s\", \"counter\": \"%s\", "
			      "\"packets\": %" PRIu64 "}", first ? "" : ", ",
			      stage_names[r->stage], stage_names[r->stage],
			      r->also != ES_NONE ? ", \"" : "",
			      r->also != ES_NONE ? stage_names[r->also] : "",
			      r->also != ES_NONE ? "\"" : "", r->section,
			      r->name, r->value);
}

int
cmd_show_errors(struct cmd_ctx *c)
{
	static const char *const head[] = { "STAGE", "COUNTER", "PACKETS" };
	struct drop_row rows[RTE_DIM(drop_counters) + 2 * LSK_MAX_PORTS];
	bool all = c->argc == 3;	/* show errors -a (cmd_show checks it) */
	struct lsk_stats st;
	struct cmd_table t;
	unsigned int i, n = 0;

	lsk_stats_read(c->s, &st);
	for (i = 0; i < RTE_DIM(drop_counters); i++, n++) {
		snprintf(rows[n].section, sizeof(rows[n].section), "%s",
			 drop_counters[i].section);
		rows[n].name = drop_counters[i].name;
		rows[n].value = counter_by_name(&st, drop_counters[i].section,
						drop_counters[i].name);
		rows[n].stage = drop_counters[i].stage;
		rows[n].also = drop_counters[i].also;
		rows[n].order = n;
	}
	for (i = 0; i < c->s->n_ports && i < LSK_MAX_PORTS; i++) {
		port_row(&rows[n], i, "rx_dropped", st.ports[i].rx_dropped,
			 ES_RX, n);
		n++;
		port_row(&rows[n], i, "tx_dropped", st.ports[i].tx_dropped,
			 ES_TX, n);
		n++;
	}
	qsort(rows, n, sizeof(rows[0]), drop_cmp);
	/* the non-zero ones come first: without -a, only they */
	while (!all && n > 0 && rows[n - 1].value == 0)
		n--;
	if (c->o->json) {
		int rc = lsk_out_printf(c->o, "[");

		for (i = 0; i < n && rc == 0; i++)
			rc = row_json(c->o, &rows[i], i == 0);
		return rc == 0 ? lsk_out_printf(c->o, "]\n") : rc;
	}
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < n; i++) {
		if (cmd_table_add(&t) < 0)
			break;
		if (rows[i].also != ES_NONE)
			cmd_table_set(&t, 0, "%s,%s", stage_names[rows[i].stage],
				      stage_names[rows[i].also]);
		else
			cmd_table_set(&t, 0, "%s", stage_names[rows[i].stage]);
		cmd_table_set(&t, 1, "%s.%s", rows[i].section, rows[i].name);
		cmd_table_set(&t, 2, "%" PRIu64, rows[i].value);
	}
	return cmd_table_print(&t, c->o);
}
