/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `show errors [-a]`: the counters of packets dropped (or not sent), by
 * the stage that drops them, as VPP's show errors. The counters that
 * counted come first, grouped by stage in pipeline order, the largest
 * first within a stage; -a: then every other one, grouped the same way.
 * A counter is named as a trace's drop record and a capture's comment
 * name it ("ip.InNoRoutes", "port1.tx_dropped"). Some counters count in
 * two stages (ip.InHdrErrors: a bad header in ip4_input, TTL expired in
 * ip4_forward): both are named, the row sits with the first. The rows
 * are the stages' declared drop reasons (the first counter of each row
 * of their drop tables, core/stage.h), and the ports' rx_dropped (rx)
 * and tx_dropped (tx).
 * Counts are since the last `stats clear`.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"
#include "core/counters.h"
#include "core/drop.h"
#include "worker/pipeline.h"

#define STAGES_MAX 4	/* stages that count one counter */
#define ROWS_MAX 96	/* declared drop counters */

/* A counter and the stages that count it, the first its row's place
 * (their places in the pipeline, worker/pipeline.h). */
struct drop_row {
	char section[16];
	const char *name;
	uint16_t at;		/* core/drop.h's place; 0: a port's */
	uint64_t value;
	uint8_t stage[STAGES_MAX];
	uint8_t n_stages;
	unsigned int order;
};

/* Non-zero first; by stage; larger first; then in the table's order. */
static int
drop_cmp(const void *a, const void *b)
{
	const struct drop_row *x = a, *y = b;

	if ((x->value != 0) != (y->value != 0))
		return x->value != 0 ? -1 : 1;
	if (x->stage[0] != y->stage[0])
		return x->stage[0] < y->stage[0] ? -1 : 1;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The rows of every declared drop reason, by the first counter of each:
 * a counter two stages count is one row naming both. */
static unsigned int
stage_rows(struct drop_row *rows, unsigned int max, const struct lsk_stats *st)
{
	unsigned int i, k, j, n = 0;

	for (i = 0; i < lsk_pipeline_n; i++) {
		const struct lsk_stage_desc *s = lsk_pipeline[i];

		for (k = 0; k < s->n_drops; k++) {
			const uint16_t at = s->drops[k].counter[0];
			const struct lsk_counter_desc *c =
				at != 0 ? lsk_counter_at(at - 1u) : NULL;

			if (c == NULL)
				continue;	/* a hole, or counted nowhere */
			for (j = 0; j < n && rows[j].at != at; j++)
				;
			if (j < n) {
				if (rows[j].n_stages < STAGES_MAX &&
				    rows[j].stage[rows[j].n_stages - 1] != i)
					rows[j].stage[rows[j].n_stages++] =
						(uint8_t)i;
				continue;
			}
			if (n == max)
				break;
			snprintf(rows[n].section, sizeof(rows[n].section),
				 "%s", c->section);
			rows[n].name = c->name;
			rows[n].at = at;
			rows[n].value = lsk_counter_value(st, c);
			rows[n].stage[0] = (uint8_t)i;
			rows[n].n_stages = 1;
			rows[n].order = n;
			n++;
		}
	}
	return n;
}

static void
port_row(struct drop_row *r, unsigned int port, const char *name,
	 uint64_t value, const char *stage, unsigned int order)
{
	snprintf(r->section, sizeof(r->section), "port%u", port);
	r->name = name;
	r->at = 0;
	r->value = value;
	r->stage[0] = (uint8_t)lsk_pipeline_index(lsk_pipeline_find(stage));
	r->n_stages = 1;
	r->order = order;
}

/* "ip4_input,ip4_forward" (sep ","), or as a JSON list (sep "\", \""). */
static void
stages_text(const struct drop_row *r, const char *sep, char *buf, size_t len)
{
	size_t at = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < r->n_stages && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       k ? sep : "",
				       lsk_pipeline[r->stage[k]]->name);
}

static int
row_json(struct lsk_out *o, const struct drop_row *r, bool first)
{
	char list[128];

	stages_text(r, "\", \"", list, sizeof(list));
	return lsk_out_printf(o, "%s{\"stage\": \"%s\", \"stages\": [\"%s\"], "
			      "\"section\": \"%s\", \"counter\": \"%s\", "
			      "\"packets\": %" PRIu64 "}", first ? "" : ", ",
			      lsk_pipeline[r->stage[0]]->name, list,
			      r->section, r->name, r->value);
}

int
cmd_show_errors(struct cmd_ctx *c)
{
	static const char *const head[] = { "STAGE", "COUNTER", "PACKETS" };
	struct drop_row rows[ROWS_MAX + 2 * LSK_MAX_PORTS];
	bool all = c->argc == 3;	/* show errors -a (cmd_show checks it) */
	struct lsk_stats st;
	struct cmd_table t;
	unsigned int i, n;

	lsk_stats_read(c->s, &st);
	n = stage_rows(rows, ROWS_MAX, &st);
	for (i = 0; i < c->s->n_ports && i < LSK_MAX_PORTS; i++) {
		port_row(&rows[n], i, "rx_dropped", st.ports[i].rx_dropped,
			 "rx", n);
		n++;
		port_row(&rows[n], i, "tx_dropped", st.ports[i].tx_dropped,
			 "tx", n);
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
		char list[128];

		stages_text(&rows[i], ",", list, sizeof(list));
		cmd_table_set(&t, 0, "%s", list);
		cmd_table_set(&t, 1, "%s.%s", rows[i].section, rows[i].name);
		cmd_table_set(&t, 2, "%" PRIu64, rows[i].value);
	}
	return cmd_table_print(&t, c->o);
}
