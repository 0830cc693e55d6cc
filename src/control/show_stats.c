/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counter views: `show stats` (every counter; JSON: the object
 * --stats-json writes), `show runtime` (the stages, as VPP's show
 * runtime) and `show errors [-a]` (the drop counters that counted, the
 * largest first; -a: then every other one).
 * Counts are since the last `stats clear`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "control/cmd.h"

int
cmd_show_stats(struct cmd_ctx *c)
{
	static const char *const head[] = { "SECTION", "COUNTER", "VALUE" };
	const struct lsk_counter_desc *d;
	struct lsk_stats st;
	struct cmd_table t;
	unsigned int i, n;
	int rc;

	lsk_stats_read(c->s, &st);
	if (c->o->json) {
		char *buf = NULL, *extra = NULL;
		size_t len = 0, elen = 0;
		FILE *f = open_memstream(&extra, &elen);

		if (f == NULL)
			return -ENOMEM;
		fprintf(f, "\"services\": ");
		lsk_services_write_json(c->s, f);
		if (fclose(f) != 0) {
			free(extra);
			return -ENOMEM;
		}
		f = open_memstream(&buf, &len);
		if (f == NULL) {
			free(extra);
			return -ENOMEM;
		}
		rc = lsk_stats_write_json(&st, c->s->n_ports, -1, extra, f);
		if (fclose(f) != 0 && rc == 0)
			rc = -ENOMEM;
		if (rc == 0)
			rc = lsk_out_printf(c->o, "%s", buf);
		free(buf);
		free(extra);
		return rc;
	}
	cmd_table_init(&t, head, RTE_DIM(head));
	d = lsk_counters(&n);
	for (i = 0; i < n && cmd_table_add(&t) == 0; i++) {
		cmd_table_set(&t, 0, "%s", d[i].section);
		cmd_table_set(&t, 1, "%s", d[i].name);
		cmd_table_set(&t, 2, "%" PRIu64, lsk_counter_value(&st, &d[i]));
	}
	for (i = 0; i < c->s->n_ports && i < LSK_MAX_PORTS; i++) {
		static const char *const names[] = { "rx", "tx", "rx_dropped",
						     "tx_dropped" };
		const uint64_t v[] = { st.ports[i].rx, st.ports[i].tx,
				       st.ports[i].rx_dropped,
				       st.ports[i].tx_dropped };
		unsigned int k;

		for (k = 0; k < RTE_DIM(names) && cmd_table_add(&t) == 0; k++) {
			cmd_table_set(&t, 0, "port%u", i);
			cmd_table_set(&t, 1, "%s", names[k]);
			cmd_table_set(&t, 2, "%" PRIu64, v[k]);
		}
	}
	return cmd_table_print(&t, c->o);
}

int
cmd_show_runtime(struct cmd_ctx *c)
{
	static const char *const head[] = { "NAME", "CALLS", "PACKETS",
					    "PACKETS/CALL", "CYCLES/PACKET" };
	struct lsk_stats st;
	struct cmd_table t;
	unsigned int i;

	lsk_stats_read(c->s, &st);
	if (c->o->json)
		lsk_out_printf(c->o, "[");
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		const struct lsk_stage_stats *sg = &st.stages[i];
		double per_call = sg->calls ? (double)sg->packets / sg->calls : 0;
		double cycles = sg->packets ? (double)sg->cycles / sg->packets
					    : 0;

		if (c->o->json) {
			lsk_out_printf(c->o, "%s{\"name\": \"%s\", \"calls\": %"
				       PRIu64 ", \"packets\": %" PRIu64
				       ", \"packets_per_call\": %.1f, "
				       "\"cycles_per_packet\": %.1f}",
				       i ? ", " : "", lsk_stage_name(i),
				       sg->calls, sg->packets, per_call, cycles);
			continue;
		}
		if (cmd_table_add(&t) < 0)
			break;
		cmd_table_set(&t, 0, "%s", lsk_stage_name(i));
		cmd_table_set(&t, 1, "%" PRIu64, sg->calls);
		cmd_table_set(&t, 2, "%" PRIu64, sg->packets);
		cmd_table_set(&t, 3, "%.1f", per_call);
		cmd_table_set(&t, 4, "%.1f", cycles);
	}
	if (c->o->json)
		return lsk_out_printf(c->o, "]\n");
	return cmd_table_print(&t, c->o);
}

/*
 * The counters of packets dropped (or not sent), by the section that
 * counts them; a port's drops as section "portN".
 */
static const struct {
	const char *section, *name;
} drop_counters[] = {
	{ "eth", "NotForUs" }, { "eth", "UnknownType" },
	{ "eth", "UnknownVlan" }, { "eth", "Runts" },
	{ "arp", "InErrors" }, { "arp", "UnresolvedDiscards" },
	{ "arp", "TableFulls" }, { "arp", "OutDiscards" },
	{ "ip", "InHdrErrors" }, { "ip", "InTruncatedPkts" },
	{ "ip", "InCsumErrors" }, { "ip", "InAddrErrors" },
	{ "ip", "InNoRoutes" }, { "ip", "InDiscards" },
	{ "ip", "InUnknownProtos" }, { "ip", "OutDiscards" },
	{ "ip", "OutNoRoutes" }, { "ip", "FragFails" },
	{ "ip", "ReasmFails" },
	{ "filter", "Dropped" },
	{ "udp", "NoPorts" }, { "udp", "InErrors" },
	{ "udp", "InCsumErrors" }, { "udp", "RcvbufErrors" },
	{ "icmp", "InErrors" }, { "icmp", "InCsumErrors" },
	{ "icmp", "OutErrors" }, { "icmp", "OutRateLimited" },
	{ "icmp", "OutNoAddrs" },
};

struct drop_row {
	char section[16];
	const char *name;
	uint64_t value;
	unsigned int order;
};

/* Non-zero first, larger first; then in the table's order. */
static int
drop_cmp(const void *a, const void *b)
{
	const struct drop_row *x = a, *y = b;

	if ((x->value != 0) != (y->value != 0))
		return x->value != 0 ? -1 : 1;
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

int
cmd_show_errors(struct cmd_ctx *c)
{
	static const char *const head[] = { "SECTION", "COUNTER", "PACKETS" };
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
		rows[n].order = n;
	}
	for (i = 0; i < c->s->n_ports && i < LSK_MAX_PORTS; i++) {
		snprintf(rows[n].section, sizeof(rows[n].section), "port%u", i);
		rows[n].name = "rx_dropped";
		rows[n].value = st.ports[i].rx_dropped;
		rows[n].order = n;
		n++;
		snprintf(rows[n].section, sizeof(rows[n].section), "port%u", i);
		rows[n].name = "tx_dropped";
		rows[n].value = st.ports[i].tx_dropped;
		rows[n].order = n;
		n++;
	}
	qsort(rows, n, sizeof(rows[0]), drop_cmp);
	/* the non-zero ones come first: without -a, only they */
	while (!all && n > 0 && rows[n - 1].value == 0)
		n--;
	if (c->o->json)
		lsk_out_printf(c->o, "[");
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < n; i++) {
		if (c->o->json) {
			lsk_out_printf(c->o, "%s{\"section\": \"%s\", "
				       "\"counter\": \"%s\", \"packets\": %"
				       PRIu64 "}", i ? ", " : "",
				       rows[i].section, rows[i].name,
				       rows[i].value);
			continue;
		}
		if (cmd_table_add(&t) < 0)
			break;
		cmd_table_set(&t, 0, "%s", rows[i].section);
		cmd_table_set(&t, 1, "%s", rows[i].name);
		cmd_table_set(&t, 2, "%" PRIu64, rows[i].value);
	}
	if (c->o->json)
		return lsk_out_printf(c->o, "]\n");
	return cmd_table_print(&t, c->o);
}
