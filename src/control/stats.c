/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counters: each worker keeps its own (no atomics on the fast path); a read
 * sums them. The JSON writer uses the Linux MIB names
 * (docs/configuration.md, "What happens to a packet").
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>

#include "core/worker.h"
#include "control/control.h"
#include "control/host_ctl.h"

/* Every member of struct lsk_stats is a uint64_t counter. */
static void
stats_add(struct lsk_stats *sum, const struct lsk_stats *one)
{
	uint64_t *d = (uint64_t *)sum;
	const uint64_t *s = (const uint64_t *)one;
	size_t i;

	for (i = 0; i < sizeof(*sum) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

/* A worker's counters, stage cycles scaled from its timed runs. */
void
lsk_worker_stats_read(const struct lsk_worker *w, struct lsk_stats *out)
{
	unsigned int i;

	memcpy(out, &w->stats, sizeof(*out));
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		struct lsk_stage_stats *s = &out->stages[i];
		uint64_t timed = w->stage_timed[i];

		if (timed != 0 && timed != s->packets)
			s->cycles = (uint64_t)((double)s->cycles *
					       s->packets / timed);
	}
}

/* What was counted since the baseline; a counter below it (a worker
 * gone since) reads 0. */
static void
stats_sub(struct lsk_stats *sum, const struct lsk_stats *base)
{
	uint64_t *d = (uint64_t *)sum;
	const uint64_t *b = (const uint64_t *)base;
	size_t i;

	for (i = 0; i < sizeof(*sum) / sizeof(uint64_t); i++)
		d[i] = d[i] > b[i] ? d[i] - b[i] : 0;
}

static void
stats_sum(const struct lsk_stack *s, struct lsk_stats *out)
{
	unsigned int i;

	memcpy(out, &s->ctl_stats, sizeof(*out));
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		const struct lsk_worker *w =
			__atomic_load_n(&s->workers[i], __ATOMIC_ACQUIRE);
		struct lsk_stats one;

		if (w == NULL)
			continue;
		lsk_worker_stats_read(w, &one);
		stats_add(out, &one);
	}
	lsk_host_stats_add(s, out);	/* the host thread's own */
}

static uint64_t
since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

/*
 * The cycles of stage id since the clear on one worker: the cycles of the
 * runs timed since, scaled to the packets since. Scaled estimates are not
 * subtracted from each other: at low rates their difference is noise
 * (0 or the old figure), not the stage's cost. No run timed since: no
 * cycles.
 */
static uint64_t
stage_cycles_since(const struct lsk_worker *w, const struct lsk_stage_base *b,
		   unsigned int id)
{
	const struct lsk_stage_stats *st = &w->stats.stages[id];
	uint64_t packets = st->packets, cycles = st->cycles;
	uint64_t timed = w->stage_timed[id];

	if (b->w == w) {
		packets = since(packets, b->packets[id]);
		cycles = since(cycles, b->cycles[id]);
		timed = since(timed, b->timed[id]);
	}
	if (timed == 0 || timed == packets)
		return cycles;
	return (uint64_t)((double)cycles * packets / timed);
}

int
lsk_stats_read(const struct lsk_stack *s, struct lsk_stats *out)
{
	unsigned int i, id;

	if (s == NULL || out == NULL)
		return -EINVAL;
	stats_sum(s, out);
	stats_sub(out, &s->stats_base);
	for (id = 0; id < LSK_STAGE_COUNT; id++)
		out->stages[id].cycles = since(s->ctl_stats.stages[id].cycles,
					       s->stats_base.stages[id].cycles);
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		const struct lsk_worker *w =
			__atomic_load_n(&s->workers[i], __ATOMIC_ACQUIRE);

		if (w == NULL)
			continue;
		for (id = 0; id < LSK_STAGE_COUNT; id++)
			out->stages[id].cycles +=
				stage_cycles_since(w, &s->stage_base[i], id);
	}
	return 0;
}

void
lsk_stats_clear(struct lsk_stack *s)
{
	unsigned int i, id;

	if (s->in_batch) {
		s->batch_set.stats_clear = true;	/* at the commit */
		return;
	}
	stats_sum(s, &s->stats_base);
	/* the workers start their longest poll gap again when they see it
	 * in the settings word (core/settings.h) */
	__atomic_store_n(&s->poll_gap_epoch, (uint8_t)(s->poll_gap_epoch + 1),
			 __ATOMIC_RELAXED);
	lsk_stack_settings_publish(s);
	for (id = 0; id < LSK_STAGE_COUNT; id++)
		s->stats_base.stages[id].cycles =
			s->ctl_stats.stages[id].cycles;
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		const struct lsk_worker *w =
			__atomic_load_n(&s->workers[i], __ATOMIC_ACQUIRE);
		struct lsk_stage_base *b = &s->stage_base[i];

		b->w = w;
		if (w == NULL)
			continue;
		for (id = 0; id < LSK_STAGE_COUNT; id++) {
			b->packets[id] = w->stats.stages[id].packets;
			b->cycles[id] = w->stats.stages[id].cycles;
			b->timed[id] = w->stage_timed[id];
		}
	}
}

int
lsk_worker_poll_gap_max(const struct lsk_stack *s, unsigned int id,
			uint64_t *ns)
{
	const struct lsk_worker *w;
	uint64_t cycles;

	if (s == NULL || ns == NULL || id >= LSK_MAX_WORKERS)
		return -EINVAL;
	w = __atomic_load_n(&s->workers[id], __ATOMIC_ACQUIRE);
	if (w == NULL)
		return -ENOENT;
	/* not yet started again since the clear: nothing measured */
	if (__atomic_load_n(&w->poll_gap_epoch, __ATOMIC_RELAXED) !=
	    __atomic_load_n(&s->poll_gap_epoch, __ATOMIC_RELAXED)) {
		*ns = 0;
		return 0;
	}
	cycles = __atomic_load_n(&w->poll_gap_max, __ATOMIC_RELAXED);
	*ns = (uint64_t)((double)cycles * 1e9 / (double)rte_get_tsc_hz());
	return 0;
}

int
lsk_workers_write_json(const struct lsk_stack *s, FILE *f)
{
	unsigned int i, n = 0;

	fprintf(f, "[");
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		uint64_t ns;

		if (lsk_worker_poll_gap_max(s, i, &ns) < 0)
			continue;
		fprintf(f, "%s{\"worker\": %u, \"poll_gap_max_ns\": %" PRIu64
			"}", n++ ? ", " : "", i, ns);
	}
	fprintf(f, "]");
	return ferror(f) ? -EIO : 0;
}

#define JSON_FIELD(f, st, name, sep) \
	fprintf(f, "\"%s\": %" PRIu64 "%s", #name, (st)->name, sep)

int
lsk_stats_write_json(const struct lsk_stats *st, unsigned int n_ports,
		     long long mbufs_in_use, const char *extra, FILE *f)
{
	const struct lsk_counter_desc *counters;
	unsigned int i, n_counters;

	counters = lsk_counters(&n_counters);
	/* the MIB sections: {"ip": {...},\n "udp": {...}, ... */
	for (i = 0; i < n_counters; i++) {
		const struct lsk_counter_desc *c = &counters[i];
		bool first = i == 0 ||
			     strcmp(counters[i - 1].section, c->section) != 0;

		if (first)
			fprintf(f, "%s\"%s\": {", i ? "},\n " : "{",
				c->section);
		fprintf(f, "%s\"%s\": %" PRIu64, first ? "" : ", ", c->name,
			lsk_counter_value(st, c));
	}
	fprintf(f, "},\n");
	fprintf(f, " \"ports\": [");
	for (i = 0; i < n_ports && i < LSK_MAX_PORTS; i++) {
		const struct lsk_port_stats *p = &st->ports[i];

		fprintf(f, "%s{\"id\": %u, ", i ? ", " : "", i);
		JSON_FIELD(f, p, rx, ", ");
		JSON_FIELD(f, p, tx, ", ");
		JSON_FIELD(f, p, rx_dropped, ", ");
		JSON_FIELD(f, p, tx_dropped, "}");
	}
	fprintf(f, "],\n \"stages\": [");
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		const struct lsk_stage_stats *sg = &st->stages[i];

		fprintf(f, "%s{\"name\": \"%s\", ", i ? ", " : "",
			lsk_stage_name(i));
		JSON_FIELD(f, sg, calls, ", ");
		JSON_FIELD(f, sg, packets, ", ");
		JSON_FIELD(f, sg, cycles, "}");
	}
	fprintf(f, "]");
	if (extra != NULL)
		fprintf(f, ",\n %s", extra);
	if (mbufs_in_use >= 0)
		fprintf(f, ",\n \"mbufs_in_use\": %lld", mbufs_in_use);
	fprintf(f, "}\n");
	return ferror(f) ? -EIO : 0;
}
