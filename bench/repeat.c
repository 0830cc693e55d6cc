/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench --repeat N: the rounds and their summary.
 *
 * The host moves this VM's two vCPUs closer or farther apart between runs,
 * which moves every figure by up to 30 % from one run to the next. So the
 * selected variants run in turn N times (A B C, A B C, ...), each run as
 * with one round (its own stack and ports, its own checks), and a variant
 * is summarised by medians: of its Mpps, of its cycles/packet, and of its
 * ratio to the baseline's run of the same round (runs of one round are
 * close in time, so a slow drift cancels in their ratio).
 *
 * Every other figure of the summary (table columns, stages, detail rows)
 * is that of one real run, the variant's median run by Mpps (of an even
 * number of runs, the slower of the middle two), not a mix of several;
 * only the failure and a non-zero mbuf count come from any run.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "bench.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v (callers use the order). */
static double
median(double *v, unsigned int n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The run of the round named name (a prefix of len bytes, then suffix),
 * if it ran and counted something; NULL otherwise. */
static const struct bench_result *
round_run(const struct bench_round *round, const char *name, size_t len,
	  const char *suffix)
{
	unsigned int i;

	for (i = 0; i < round->n; i++) {
		const struct bench_result *x = &round->r[i];

		if (strncmp(x->name, name, len) == 0 &&
		    strcmp(x->name + len, suffix) == 0 && x->ran &&
		    x->mpps > 0 && strlen(x->name) == len + strlen(suffix))
			return x;
	}
	return NULL;
}

void
bench_round_ratios(const struct bench_scenario *sc, struct bench_round *round)
{
	const struct bench_result *base = round_run(round, sc->baseline,
						    strlen(sc->baseline), "");
	unsigned int i;

	for (i = 0; i < round->n; i++) {
		const struct bench_result *b = base;
		const char *plus = strchr(round->r[i].name, '+');

		/* without the baseline's run, a variant NAME+X (gro-fwd's
		 * fraglist+acl) is compared with BASELINE+X (off+acl) */
		if (b == NULL && plus != NULL)
			b = round_run(round, sc->baseline,
				      strlen(sc->baseline), plus);
		round->r[i].ratio = b ? round->r[i].mpps / b->mpps : NAN;
	}
}

static void
summarise_variant(const struct bench_round *rounds, unsigned int n_rounds,
		  unsigned int i, struct bench_result *sum)
{
	/* not reentrant: the bench summarises once, on the main lcore */
	static double mpps[BENCH_MAX_REPEAT], cycles[BENCH_MAX_REPEAT],
		      ratio[BENCH_MAX_REPEAT];
	const struct bench_result *x, *first_failed = NULL;
	unsigned int r, k = 0, m = 0, runs = 0, failed = 0, failed_round = 0;
	long long mbufs = 0;
	double mid;

	for (r = 0; r < n_rounds; r++) {
		if (i >= rounds[r].n)
			continue;
		x = &rounds[r].r[i];
		runs++;
		if (x->failed && failed++ == 0) {
			first_failed = x;
			failed_round = r;
		}
		if (mbufs == 0)	/* an mbuf lost in any run shows */
			mbufs = x->mbufs_in_use;
		/* a run that measured nothing has failed: it has no figure
		 * to take the median of */
		if (!x->ran || !(x->mpps > 0))
			continue;
		mpps[k] = x->mpps;
		cycles[k++] = x->cycles_per_packet;
		if (isfinite(x->ratio))
			ratio[m++] = x->ratio;
	}

	*sum = rounds[0].r[i];
	if (k > 0) {
		mid = median(mpps, k);
		for (r = 0; r < n_rounds; r++) {
			x = &rounds[r].r[i];
			if (i < rounds[r].n && x->ran &&
			    x->mpps == mpps[(k - 1) / 2]) {
				*sum = *x;
				break;
			}
		}
		sum->mpps = mid;
		sum->mpps_min = mpps[0];
		sum->mpps_max = mpps[k - 1];
		sum->cycles_per_packet = median(cycles, k);
		sum->ratio = median(ratio, m);
		sum->ratio_min = m ? ratio[0] : NAN;
		sum->ratio_max = m ? ratio[m - 1] : NAN;
	}
	if (sum->mbufs_in_use == 0)
		sum->mbufs_in_use = mbufs;
	if (failed && n_rounds > 1) {
		/* %.700s: the first failed run's note, less the room the
		 * prefix needs in note[768] */
		sum->failed = true;
		snprintf(sum->note, sizeof(sum->note), "%u of %u runs; round "
			 "%u: %.700s", failed, runs, failed_round + 1,
			 first_failed->note);
	}
}

void
bench_summarise(const struct bench_round *rounds, unsigned int n_rounds,
		struct bench_result *sum)
{
	unsigned int i;

	for (i = 0; i < rounds[0].n; i++)
		summarise_variant(rounds, n_rounds, i, &sum[i]);
}

void
bench_print_rounds(const struct bench_scenario *sc,
		   const struct bench_round *rounds, unsigned int n_rounds)
{
	unsigned int r, i;
	bool any_failed = false;

	printf("\nMpps by round (ratio to %s of the same round)\n  %-5s",
	       sc->baseline, "round");
	for (i = 0; i < rounds[0].n; i++)
		printf(" %18s", rounds[0].r[i].name);
	for (r = 0; r < n_rounds; r++) {
		printf("\n  %-5u", r + 1);
		for (i = 0; i < rounds[r].n; i++) {
			const struct bench_result *x = &rounds[r].r[i];
			const char *mark = x->failed ? "!" : "";
			char mpps[32];

			any_failed |= x->failed;
			snprintf(mpps, sizeof(mpps), "%s%.3f", mark, x->mpps);
			if (!x->ran)
				printf(" %18s", x->failed ? "!-" : "-");
			else if (isfinite(x->ratio))
				printf(" %10s (%5.2f)", mpps, x->ratio);
			else
				printf(" %10s (%5s)", mpps, "-");
		}
	}
	printf("\n");
	if (any_failed)
		printf("  ! this run failed (the result column says why)\n");
}

void
bench_json_rounds(FILE *f, const struct bench_round *rounds,
		  unsigned int n_rounds)
{
	unsigned int r, i, k;
	uint64_t stages;

	fprintf(f, ",\n \"rounds\": [");
	for (r = 0; r < n_rounds; r++) {
		fprintf(f, "%s\n  {\"round\": %u, \"runs\": [", r ? "," : "",
			r + 1);
		for (i = 0; i < rounds[r].n; i++) {
			const struct bench_result *x = &rounds[r].r[i];

			fprintf(f, "%s\n   {\"name\": \"%s\", \"ran\": %s, "
				"\"failed\": %s, \"mpps\": ", i ? "," : "",
				x->name, x->ran ? "true" : "false",
				x->failed ? "true" : "false");
			bench_json_number(f, x->mpps);
			fprintf(f, ", \"cycles_per_packet\": ");
			bench_json_number(f, x->cycles_per_packet);
			fprintf(f, ", \"ratio\": ");
			bench_json_number(f, x->ratio);
			fprintf(f, ", \"packets\": %" PRIu64 ", \"tsc_cycles\": %"
				PRIu64 ", \"seconds\": ", x->counted, x->tsc);
			bench_json_number(f, x->seconds);
			fprintf(f, ", \"cpu_share\": ");
			bench_json_number(f, x->cpu_share);
			fprintf(f, ", \"core_to_core\": ");
			bench_json_number(f, x->core_to_core);
			for (k = 0, stages = 0; k < LSK_STAGE_COUNT; k++)
				stages += x->stages[k].cycles;
			/* the per-round figures of the device's cycles
			 * (stages, less the pcap feed's sink) */
			fprintf(f, ", \"stage_cycles\": %" PRIu64
				", \"feed_callback_cycles\": %" PRIu64
				", \"feed_sink_cycles\": %" PRIu64, stages,
				x->emul.cb_cycles, x->emul.sink_cycles);
			fprintf(f, ", \"checked\": %" PRIu64 ", \"mbufs_in_use\": "
				"%lld}", x->checked, x->mbufs_in_use);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "]");
}
