/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A paired A/B latency comparison over one generator and one device that
 * both stay up: trials alternate A, B, A, B ... at one offered rate, and
 * before each trial a callback switches the device to that trial's
 * variant (listack-fwd: `listack-ctl mode list|single`). Trial 2i (A)
 * and 2i + 1 (B) are pair i; what is compared is each pair's difference
 * A - B (of the p50, and of the exact mean), so that what drifts between
 * runs (the machine's load, caches, the wire's setup) falls out of it as
 * long as it drifts slower than a pair. Over the pairs: the median of
 * the differences, their interquartile range, and a bootstrap 95 %
 * interval of that median.
 *
 * Plain C over a gen_trial_fn: no DPDK (tests/unit/bench/test_ab.c runs
 * it against a model device).
 *
 * JSON (--json FILE with --ab):
 *
 * {"mode": "ab", "version": 1, "device": NAME | null,
 *  "variants": ["A", "B"], "difference": "A - B",
 *  "rate_pps": R, "ndr_pps": N | null, "ndr_from": "given|search|none",
 *  "share": S | null, "pairs_asked": P,
 *  "pairs": [{"index": i, "a": TRIAL, "b": TRIAL,
 *             "p50_diff_ns": D, "mean_diff_ns": D}],
 *  "summary": {"pairs": n, "lossy_trials": n, "limited_trials": n,
 *              "a": {"p50_ns": SPREAD, "mean_ns": SPREAD},
 *              "b": {"p50_ns": SPREAD, "mean_ns": SPREAD},
 *              "p50_diff_ns": SPREAD, "mean_diff_ns": SPREAD,
 *              "clean": {"pairs": n, "p50_diff_ns": SPREAD,
 *                        "mean_diff_ns": SPREAD}}}
 *
 * and each pair also "clean": true|false (gen_ab_clean of both).
 *
 * TRIAL is gen_result.c's object; SPREAD {"n", "median", "q1", "q3",
 * "ci95": [lo, hi]} (nulls when n is 0).
 */
#ifndef LSK_BENCH_GEN_AB_H
#define LSK_BENCH_GEN_AB_H

#include <stdbool.h>
#include <stdio.h>

#include "gen.h"

#define GEN_AB_MAX_PAIRS 10000
#define GEN_AB_NAME_LEN 32
#define GEN_AB_BOOTSTRAP 2000		/* resamples for the interval */

struct gen_ab_params {
	char names[2][GEN_AB_NAME_LEN];	/* A, B */
	unsigned int pairs;
	struct gen_trial_request req;	/* every trial's */
	/* put the device in variant v (0: A, 1: B) before its trial; 0 or
	 * a negative errno (the run stops) */
	int (*between)(void *arg, unsigned int v, const char *name);
	void *between_arg;
	/* after every trial, for progress output; may be NULL */
	void (*progress)(void *arg, unsigned int pair, unsigned int v,
			 const struct gen_trial_result *r);
	void *progress_arg;
};

/* A sample's median, quartiles and the bootstrap 95 % interval of its
 * median; all 0 when n is 0. */
struct gen_ab_spread {
	unsigned int n;
	double median, q1, q3, ci_lo, ci_hi;
};

struct gen_ab_run {
	struct gen_ab_params params;
	struct gen_trial_result (*res)[2];	/* [pair][variant] */
	unsigned int n_pairs;		/* pairs with both trials */
	/* trials that lost frames, that measured the generator */
	unsigned int lossy, limited;
	struct gen_ab_spread p50[2], mean[2];	/* per variant, ns */
	struct gen_ab_spread d_p50, d_mean;	/* A - B, ns */
	/* the same over the clean pairs only: both trials lost nothing,
	 * kept the schedule and had the generator's CPU (gen_ab_clean) */
	unsigned int n_clean;
	struct gen_ab_spread clean_p50, clean_mean;
	int error;		/* the trial's or the callback's, or 0 */
};

/*
 * "A,B" (two different words of letters, digits, '-', '_' or '.') into
 * names. 0 or -EINVAL.
 */
int gen_ab_parse_names(const char *s, char names[2][GEN_AB_NAME_LEN]);

/*
 * Run the pairs. Returns 0, or the negative errno that stopped it (run
 * then holds the pairs done until then, summarised). Free with
 * gen_ab_free.
 */
int gen_ab_run(const struct gen_ab_params *p, gen_trial_fn fn, void *ctx,
	       struct gen_ab_run *run);
void gen_ab_free(struct gen_ab_run *run);

/* Did the trial measure the device undisturbed: nothing lost, the
 * schedule kept, the generator's CPU at least 95 % of the time (a model
 * device, which says no share, counts as undisturbed)? */
bool gen_ab_clean(const struct gen_trial_result *r);

/* The q-quantile (0 .. 1) of sorted[0 .. n-1], interpolated linearly
 * between order statistics (R's type 7); 0 when n is 0. */
double gen_ab_quantile(const double *sorted, unsigned int n, double q);
/* The spread of v[0 .. n-1] (not changed); the bootstrap draws from a
 * fixed seed, so the same values give the same interval. -ENOMEM or 0. */
int gen_ab_spread_of(const double *v, unsigned int n,
		     struct gen_ab_spread *s);

/* The table: a line per pair, then the summary. */
void gen_ab_table(FILE *f, const struct gen_ab_run *run);

/* What the JSON says of where the rate came from. */
struct gen_ab_rate_info {
	double ndr_pps;		/* 0: none */
	const char *ndr_from;	/* "given", "search" or "none" */
	double share;		/* of the NDR; 0: the rate was given */
	const char *device;	/* may be NULL */
};

/* --json FILE; 0 or a negative errno (said on stderr). */
int gen_ab_json(const char *path, const struct gen_ab_run *run,
		const struct gen_ab_rate_info *info);

#endif /* LSK_BENCH_GEN_AB_H */
