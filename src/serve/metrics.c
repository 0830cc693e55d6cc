/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counters in the Prometheus text exposition format (version 0.0.4),
 * what `GET /metrics` answers (serve/metrics_server.c):
 *
 *   listack_<section>_<mib name in snake case>_total   every MIB counter
 *                                       of the stats JSON, one series each
 *                                       (eth NotForUs: not_for_this_host)
 *   listack_port_{rx,tx}_packets_total{port="N"}, ..._{rx,tx}_dropped_total
 *   listack_stage_{calls,packets,cycles}_total{stage="name"}
 *   listack_worker_stage_..._total{worker="W",stage="name"} and
 *   listack_worker_port_{rx,tx}_packets_total{worker="W",port="N"}:
 *                                       each worker's own share
 *   listack_worker_poll_gap_max_seconds{worker="W"}   gauge: its longest
 *                                       gap between polls since the
 *                                       last stats clear (a stall)
 *   listack_workers, listack_mbufs_in_use                        gauges
 *
 * The sums are what lsk_stats_read gives, as `show stats` and the JSON:
 * since the last `stats clear`. A worker's own counters are what it
 * counted since it started: `stats clear` keeps a baseline of the sums
 * only, so these are not cleared (their rate is what to read).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "control/control.h"
#include "serve/metrics.h"

int
lsk_metrics_snake(const char *mib, char *buf, size_t size)
{
	size_t n = 0, i;

	for (i = 0; mib[i] != '\0'; i++) {
		char c = mib[i];
		bool cap = c >= 'A' && c <= 'Z';

		if (cap && i > 0 && ((mib[i - 1] >= 'a' && mib[i - 1] <= 'z') ||
				     (mib[i - 1] >= '0' && mib[i - 1] <= '9'))) {
			if (n + 1 >= size)
				return -ENOSPC;
			buf[n++] = '_';
		}
		if (n + 1 >= size)
			return -ENOSPC;
		buf[n++] = cap ? (char)(c - 'A' + 'a') : c;
	}
	if (n >= size)
		return -ENOSPC;
	buf[n] = '\0';
	return 0;
}

static void
family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Names whose snake case a linter reads wrongly: "not_for_us" would be
 * microseconds to promtool. */
static const struct {
	const char *section, *mib, *snake;
} renamed[] = {
	{ "eth", "NotForUs", "not_for_this_host" },
};

static int
metric_snake(const struct lsk_counter_desc *d, char *buf, size_t size)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(renamed); i++)
		if (strcmp(d->section, renamed[i].section) == 0 &&
		    strcmp(d->name, renamed[i].mib) == 0)
			return snprintf(buf, size, "%s", renamed[i].snake) <
			       (int)size ? 0 : -ENOSPC;
	return lsk_metrics_snake(d->name, buf, size);
}

static void
mib_counters(const struct lsk_metrics_view *v, FILE *f)
{
	const struct lsk_counter_desc *d;
	unsigned int i, n;
	char snake[64], name[128], help[160];

	d = lsk_counters(&n);
	for (i = 0; i < n; i++) {
		if (metric_snake(&d[i], snake, sizeof(snake)) < 0)
			continue;	/* the names are the tree's own */
		snprintf(name, sizeof(name), "listack_%s_%s_total",
			 d[i].section, snake);
		snprintf(help, sizeof(help), "%s %s (the stats JSON's name), "
			 "since the last stats clear", d[i].section,
			 d[i].name);
		family(f, name, "counter", help);
		fprintf(f, "%s %" PRIu64 "\n", name,
			lsk_counter_value(v->total, &d[i]));
	}
}

/* The members of struct lsk_port_stats, by name. */
static const struct {
	const char *metric, *help;
	size_t offset;
} port_fields[] = {
	{ "rx_packets", "frames received on the port",
	  offsetof(struct lsk_port_stats, rx) },
	{ "tx_packets", "frames sent on the port",
	  offsetof(struct lsk_port_stats, tx) },
	{ "rx_dropped", "frames the port dropped on receive",
	  offsetof(struct lsk_port_stats, rx_dropped) },
	{ "tx_dropped", "frames the port could not send",
	  offsetof(struct lsk_port_stats, tx_dropped) },
};

static const struct {
	const char *metric, *help;
	size_t offset;
} stage_fields[] = {
	{ "calls", "calls of the stage",
	  offsetof(struct lsk_stage_stats, calls) },
	{ "packets", "packets the stage handled",
	  offsetof(struct lsk_stage_stats, packets) },
	{ "cycles", "TSC cycles in the stage (sampled, scaled)",
	  offsetof(struct lsk_stage_stats, cycles) },
};

static uint64_t
field(const void *base, size_t offset)
{
	uint64_t x;

	memcpy(&x, (const char *)base + offset, sizeof(x));
	return x;
}

static void
port_counters(const struct lsk_metrics_view *v, FILE *f)
{
	unsigned int k, p, n = RTE_MIN(v->n_ports, (unsigned int)LSK_MAX_PORTS);
	char name[96], help[160];

	for (k = 0; k < RTE_DIM(port_fields); k++) {
		snprintf(name, sizeof(name), "listack_port_%s_total",
			 port_fields[k].metric);
		snprintf(help, sizeof(help), "%s, since the last stats clear",
			 port_fields[k].help);
		family(f, name, "counter", help);
		for (p = 0; p < n; p++)
			fprintf(f, "%s{port=\"%u\"} %" PRIu64 "\n", name, p,
				field(&v->total->ports[p],
				      port_fields[k].offset));
	}
}

static void
stage_counters(const struct lsk_metrics_view *v, FILE *f)
{
	char name[96], help[160];
	unsigned int k, s;

	for (k = 0; k < RTE_DIM(stage_fields); k++) {
		snprintf(name, sizeof(name), "listack_stage_%s_total",
			 stage_fields[k].metric);
		snprintf(help, sizeof(help), "%s, since the last stats clear",
			 stage_fields[k].help);
		family(f, name, "counter", help);
		for (s = 0; s < LSK_STAGE_COUNT; s++)
			fprintf(f, "%s{stage=\"%s\"} %" PRIu64 "\n", name,
				lsk_stage_name(s),
				field(&v->total->stages[s],
				      stage_fields[k].offset));
	}
}

static void
worker_counters(const struct lsk_metrics_view *v, FILE *f)
{
	unsigned int k, s, w, p;
	unsigned int np = RTE_MIN(v->n_ports, (unsigned int)LSK_MAX_PORTS);
	char name[96], help[192];

	for (k = 0; k < RTE_DIM(stage_fields); k++) {
		snprintf(name, sizeof(name), "listack_worker_stage_%s_total",
			 stage_fields[k].metric);
		snprintf(help, sizeof(help), "%s by this worker, since it "
			 "started (stats clear leaves it)",
			 stage_fields[k].help);
		family(f, name, "counter", help);
		for (w = 0; w < v->n_workers; w++)
			for (s = 0; s < LSK_STAGE_COUNT; s++)
				fprintf(f, "%s{worker=\"%u\",stage=\"%s\"} %"
					PRIu64 "\n", name, v->worker_ids[w],
					lsk_stage_name(s),
					field(&v->workers[w].stages[s],
					      stage_fields[k].offset));
	}
	/* rx and tx: how RSS spread the work */
	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "listack_worker_port_%s_total",
			 port_fields[k].metric);
		snprintf(help, sizeof(help), "%s by this worker, since it "
			 "started (stats clear leaves it)", port_fields[k].help);
		family(f, name, "counter", help);
		for (w = 0; w < v->n_workers; w++)
			for (p = 0; p < np; p++)
				fprintf(f, "%s{worker=\"%u\",port=\"%u\"} %"
					PRIu64 "\n", name, v->worker_ids[w], p,
					field(&v->workers[w].ports[p],
					      port_fields[k].offset));
	}
}

int
lsk_metrics_write(const struct lsk_metrics_view *v, FILE *f)
{
	if (v == NULL || v->total == NULL || f == NULL ||
	    (v->n_workers != 0 && (v->workers == NULL ||
				   v->worker_ids == NULL)))
		return -EINVAL;
	mib_counters(v, f);
	port_counters(v, f);
	stage_counters(v, f);
	worker_counters(v, f);
	if (v->worker_gap_ns != NULL) {
		unsigned int w;

		family(f, "listack_worker_poll_gap_max_seconds", "gauge",
		       "the worker's longest gap between two polls, since "
		       "the last stats clear");
		for (w = 0; w < v->n_workers; w++)
			fprintf(f, "listack_worker_poll_gap_max_seconds"
				"{worker=\"%u\"} %.9f\n", v->worker_ids[w],
				(double)v->worker_gap_ns[w] * 1e-9);
	}
	family(f, "listack_workers", "gauge", "workers of the stack");
	fprintf(f, "listack_workers %u\n", v->n_workers);
	if (v->mbufs_in_use >= 0) {
		family(f, "listack_mbufs_in_use", "gauge",
		       "mbufs taken from the stack's pools (in RX rings, "
		       "queues and buffers too)");
		fprintf(f, "listack_mbufs_in_use %lld\n", v->mbufs_in_use);
	}
	return ferror(f) ? -EIO : 0;
}
