/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counter views: `show stats` (every counter; JSON: the object
 * --stats-json writes), `show runtime` (the stages, as VPP's show
 * runtime); `show errors` is cli/show_errors.c.
 * Counts are since the last `stats clear`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"

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
		fprintf(f, ",\n \"workers\": ");
		lsk_workers_write_json(c->s, f);
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
	/* each worker's longest gap between polls (a stall) */
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		uint64_t ns;

		if (lsk_worker_poll_gap_max(c->s, i, &ns) < 0 ||
		    cmd_table_add(&t) < 0)
			continue;
		cmd_table_set(&t, 0, "worker%u", i);
		cmd_table_set(&t, 1, "poll_gap_max_ns");
		cmd_table_set(&t, 2, "%" PRIu64, ns);
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
