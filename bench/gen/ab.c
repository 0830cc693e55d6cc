/* SPDX-License-Identifier: BSD-3-Clause */
/* The paired A/B latency comparison (ab.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "gen_result.h"

static bool
name_char_ok(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
	       ch == '.';
}

/* The words go into a shell command (--between), so they are plain. */
int
gen_ab_parse_names(const char *s, char names[2][GEN_AB_NAME_LEN])
{
	const char *comma = strchr(s, ',');
	const char *part[2];
	size_t len[2];
	unsigned int v;
	size_t i;

	if (comma == NULL || strchr(comma + 1, ',') != NULL)
		return -EINVAL;
	part[0] = s;
	len[0] = (size_t)(comma - s);
	part[1] = comma + 1;
	len[1] = strlen(comma + 1);
	for (v = 0; v < 2; v++) {
		if (len[v] == 0 || len[v] >= GEN_AB_NAME_LEN)
			return -EINVAL;
		for (i = 0; i < len[v]; i++)
			if (!name_char_ok(part[v][i]))
				return -EINVAL;
		memcpy(names[v], part[v], len[v]);
		names[v][len[v]] = '\0';
	}
	return strcmp(names[0], names[1]) == 0 ? -EINVAL : 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
gen_ab_quantile(const double *sorted, unsigned int n, double q)
{
	double h, lo;
	unsigned int i;

	if (n == 0)
		return 0;
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (unsigned int)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

/* xorshift64*: the bootstrap's draws, the same on every run */
static uint64_t
next_rand(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * UINT64_C(2685821657736338717);
}

int
gen_ab_spread_of(const double *v, unsigned int n, struct gen_ab_spread *s)
{
	double *sorted, *draw, *medians;
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
	unsigned int b, i;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return 0;
	sorted = malloc(sizeof(double) * n);
	draw = malloc(sizeof(double) * n);
	medians = malloc(sizeof(double) * GEN_AB_BOOTSTRAP);
	if (sorted == NULL || draw == NULL || medians == NULL) {
		free(sorted);
		free(draw);
		free(medians);
		return -ENOMEM;
	}
	memcpy(sorted, v, sizeof(double) * n);
	qsort(sorted, n, sizeof(double), cmp_double);
	s->n = n;
	s->median = gen_ab_quantile(sorted, n, 0.5);
	s->q1 = gen_ab_quantile(sorted, n, 0.25);
	s->q3 = gen_ab_quantile(sorted, n, 0.75);
	/* the percentile bootstrap of the median: resample the values with
	 * replacement, take each resample's median; the interval is the
	 * 2.5th to 97.5th percentile of those */
	for (b = 0; b < GEN_AB_BOOTSTRAP; b++) {
		for (i = 0; i < n; i++)
			draw[i] = sorted[next_rand(&seed) % n];
		qsort(draw, n, sizeof(double), cmp_double);
		medians[b] = gen_ab_quantile(draw, n, 0.5);
	}
	qsort(medians, GEN_AB_BOOTSTRAP, sizeof(double), cmp_double);
	s->ci_lo = gen_ab_quantile(medians, GEN_AB_BOOTSTRAP, 0.025);
	s->ci_hi = gen_ab_quantile(medians, GEN_AB_BOOTSTRAP, 0.975);
	free(sorted);
	free(draw);
	free(medians);
	return 0;
}

bool
gen_ab_clean(const struct gen_trial_result *r)
{
	return r->lost == 0 && !r->generator_limited &&
	       (r->cpu_share == 0 || r->cpu_share >= 0.95);
}

static bool
pair_clean(const struct gen_trial_result *r)
{
	return gen_ab_clean(&r[0]) && gen_ab_clean(&r[1]);
}

/* The clean pairs' differences (A - B of p50, or of mean). */
static int
ab_clean_spread(struct gen_ab_run *run, double *x, bool mean,
		struct gen_ab_spread *s)
{
	unsigned int i, k = 0;

	for (i = 0; i < run->n_pairs; i++) {
		const struct gen_trial_result *r = run->res[i];

		if (!pair_clean(r))
			continue;
		x[k++] = mean ? r[0].latency.mean_ns - r[1].latency.mean_ns :
				r[0].latency.p50_ns - r[1].latency.p50_ns;
	}
	run->n_clean = k;
	return gen_ab_spread_of(x, k, s);
}

static int
ab_summarise(struct gen_ab_run *run)
{
	unsigned int n = run->n_pairs, i, v;
	double *x = malloc(sizeof(double) * (n ? n : 1));
	int rc = 0;

	if (x == NULL)
		return -ENOMEM;
	for (v = 0; v < 2 && rc == 0; v++) {
		for (i = 0; i < n; i++)
			x[i] = run->res[i][v].latency.p50_ns;
		rc = gen_ab_spread_of(x, n, &run->p50[v]);
		for (i = 0; rc == 0 && i < n; i++)
			x[i] = run->res[i][v].latency.mean_ns;
		if (rc == 0)
			rc = gen_ab_spread_of(x, n, &run->mean[v]);
	}
	for (i = 0; i < n; i++)
		x[i] = run->res[i][0].latency.p50_ns -
		       run->res[i][1].latency.p50_ns;
	if (rc == 0)
		rc = gen_ab_spread_of(x, n, &run->d_p50);
	for (i = 0; i < n; i++)
		x[i] = run->res[i][0].latency.mean_ns -
		       run->res[i][1].latency.mean_ns;
	if (rc == 0)
		rc = gen_ab_spread_of(x, n, &run->d_mean);
	if (rc == 0)
		rc = ab_clean_spread(run, x, false, &run->clean_p50);
	if (rc == 0)
		rc = ab_clean_spread(run, x, true, &run->clean_mean);
	free(x);
	return rc;
}

int
gen_ab_run(const struct gen_ab_params *p, gen_trial_fn fn, void *ctx,
	   struct gen_ab_run *run)
{
	unsigned int i, v;
	int rc = 0, src;

	memset(run, 0, sizeof(*run));
	run->params = *p;
	if (p->pairs == 0 || p->pairs > GEN_AB_MAX_PAIRS)
		rc = -EINVAL;
	else if ((run->res = calloc(p->pairs, sizeof(*run->res))) == NULL)
		rc = -ENOMEM;
	if (rc < 0) {
		run->error = rc;
		return rc;
	}
	for (i = 0; i < p->pairs && rc == 0; i++) {
		for (v = 0; v < 2 && rc == 0; v++) {
			struct gen_trial_result *r = &run->res[i][v];

			if (p->between != NULL)
				rc = p->between(p->between_arg, v,
						p->names[v]);
			if (rc == 0)
				rc = fn(ctx, &p->req, r);
			if (rc < 0)
				break;
			if (r->lost != 0)
				run->lossy++;
			if (r->generator_limited)
				run->limited++;
			if (p->progress != NULL)
				p->progress(p->progress_arg, i, v, r);
		}
		if (rc == 0)
			run->n_pairs = i + 1;
	}
	src = ab_summarise(run);
	if (rc == 0)
		rc = src;
	run->error = rc;
	return rc;
}

void
gen_ab_free(struct gen_ab_run *run)
{
	free(run->res);
	run->res = NULL;
}

void
gen_ab_table(FILE *f, const struct gen_ab_run *run)
{
	const char *a = run->params.names[0], *b = run->params.names[1];
	char ha[48], hb[48];
	unsigned int i;

	snprintf(ha, sizeof(ha), "%s p50", a);
	snprintf(hb, sizeof(hb), "%s p50", b);
	fprintf(f, "%4s  %12s  %12s  %9s  ", "pair", ha, hb, "diff");
	snprintf(ha, sizeof(ha), "%s mean", a);
	snprintf(hb, sizeof(hb), "%s mean", b);
	fprintf(f, "%12s  %12s  %9s  (ns)\n", ha, hb, "diff");
	for (i = 0; i < run->n_pairs; i++) {
		const struct gen_latency *la = &run->res[i][0].latency;
		const struct gen_latency *lb = &run->res[i][1].latency;

		fprintf(f, "%4u  %12.1f  %12.1f  %+9.1f  %12.1f  %12.1f  "
			"%+9.1f%s\n", i, la->p50_ns, lb->p50_ns,
			la->p50_ns - lb->p50_ns, la->mean_ns, lb->mean_ns,
			la->mean_ns - lb->mean_ns,
			pair_clean(run->res[i]) ? "" : "  disturbed");
	}
	fprintf(f, "%s - %s over %u pairs at %.0f pps:\n", a, b,
		run->n_pairs, run->params.req.rate_pps);
	fprintf(f, "  p50:  median %+.1f ns (IQR %+.1f .. %+.1f, 95 %% CI "
		"%+.1f .. %+.1f)\n", run->d_p50.median, run->d_p50.q1,
		run->d_p50.q3, run->d_p50.ci_lo, run->d_p50.ci_hi);
	fprintf(f, "  mean: median %+.1f ns (IQR %+.1f .. %+.1f, 95 %% CI "
		"%+.1f .. %+.1f)\n", run->d_mean.median, run->d_mean.q1,
		run->d_mean.q3, run->d_mean.ci_lo, run->d_mean.ci_hi);
	fprintf(f, "  the %u undisturbed pairs: p50 median %+.1f ns (IQR "
		"%+.1f .. %+.1f, 95 %% CI %+.1f .. %+.1f), mean median "
		"%+.1f ns\n", run->n_clean, run->clean_p50.median,
		run->clean_p50.q1, run->clean_p50.q3, run->clean_p50.ci_lo,
		run->clean_p50.ci_hi, run->clean_mean.median);
	fprintf(f, "  %s: p50 %.1f ns, mean %.1f ns; %s: p50 %.1f ns, mean "
		"%.1f ns (medians over the pairs)\n", a, run->p50[0].median,
		run->mean[0].median, b, run->p50[1].median,
		run->mean[1].median);
	if (run->lossy != 0 || run->limited != 0)
		fprintf(f, "WARNING: %u trials lost frames, %u measured the "
			"generator (see each trial)\n", run->lossy,
			run->limited);
}

static void
json_spread(FILE *f, const char *key, const struct gen_ab_spread *s,
	    const char *sep)
{
	fprintf(f, "\"%s\": {\"n\": %u, ", key, s->n);
	if (s->n == 0) {
		fprintf(f, "\"median\": null, \"q1\": null, \"q3\": null, "
			"\"ci95\": null}%s", sep);
		return;
	}
	gen_json_num(f, "median", s->median, ", ");
	gen_json_num(f, "q1", s->q1, ", ");
	gen_json_num(f, "q3", s->q3, ", ");
	fprintf(f, "\"ci95\": [%.17g, %.17g]}%s", s->ci_lo, s->ci_hi, sep);
}

static void
json_variant(FILE *f, const char *key, const struct gen_ab_run *run,
	     unsigned int v, const char *sep)
{
	fprintf(f, "\"%s\": {", key);
	json_spread(f, "p50_ns", &run->p50[v], ", ");
	json_spread(f, "mean_ns", &run->mean[v], "");
	fprintf(f, "}%s", sep);
}

int
gen_ab_json(const char *path, const struct gen_ab_run *run,
	    const struct gen_ab_rate_info *info)
{
	const struct gen_ab_params *p = &run->params;
	unsigned int i;
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "--json %s: %s\n", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "{\"mode\": \"ab\", \"version\": 1, \"device\": ");
	if (info->device != NULL)
		gen_json_str(f, info->device);
	else
		fprintf(f, "null");
	fprintf(f, ", \"variants\": [\"%s\", \"%s\"], \"difference\": "
		"\"%s - %s\", ", p->names[0], p->names[1], p->names[0],
		p->names[1]);
	gen_json_num(f, "rate_pps", p->req.rate_pps, ", ");
	if (info->ndr_pps > 0)
		gen_json_num(f, "ndr_pps", info->ndr_pps, ", ");
	else
		fprintf(f, "\"ndr_pps\": null, ");
	fprintf(f, "\"ndr_from\": \"%s\", ", info->ndr_from);
	if (info->share > 0)
		gen_json_num(f, "share", info->share, ", ");
	else
		fprintf(f, "\"share\": null, ");
	fprintf(f, "\"pairs_asked\": %u, \"pairs\": [", p->pairs);
	for (i = 0; i < run->n_pairs; i++) {
		const struct gen_trial_result *r = run->res[i];

		fprintf(f, "%s\n  {\"index\": %u, \"a\": ", i ? "," : "", i);
		gen_result_json(f, &r[0]);
		fprintf(f, ", \"b\": ");
		gen_result_json(f, &r[1]);
		fprintf(f, ", ");
		gen_json_num(f, "p50_diff_ns",
			 r[0].latency.p50_ns - r[1].latency.p50_ns, ", ");
		gen_json_num(f, "mean_diff_ns",
			 r[0].latency.mean_ns - r[1].latency.mean_ns, ", ");
		fprintf(f, "\"clean\": %s}", pair_clean(r) ? "true" : "false");
	}
	fprintf(f, "],\n \"summary\": {\"pairs\": %u, \"lossy_trials\": %u, "
		"\"limited_trials\": %u, ", run->n_pairs, run->lossy,
		run->limited);
	json_variant(f, "a", run, 0, ", ");
	json_variant(f, "b", run, 1, ", ");
	json_spread(f, "p50_diff_ns", &run->d_p50, ", ");
	json_spread(f, "mean_diff_ns", &run->d_mean, ", ");
	fprintf(f, "\"clean\": {\"pairs\": %u, ", run->n_clean);
	json_spread(f, "p50_diff_ns", &run->clean_p50, ", ");
	json_spread(f, "mean_diff_ns", &run->clean_mean, "");
	fprintf(f, "}}}\n");
	if (fclose(f) != 0) {
		fprintf(stderr, "--json %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	return 0;
}
