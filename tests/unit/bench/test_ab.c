/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The paired A/B comparison (bench/gen/ab.h) against a model device whose
 * latency is the model's plus what its variant adds, plus an offset that
 * changes from pair to pair (what moves between separate runs): the
 * variants' names, the order of the switches and trials, the quantiles
 * and the bootstrap interval, the differences (the offset cancels in
 * them), a refusal that stops the run, the JSON.
 */
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ab.h"
#include "model_device.h"

/* The device under test: the model, in variant cur. */
struct ab_dev {
	struct model_dev m;
	double add_ns[2];		/* what each variant adds */
	unsigned int cur;		/* the variant switched to */
	unsigned int switches, trials;
	char order[64];			/* 'a'/'b' per switch, 'T' per trial */
	unsigned int refuse_at;		/* that switch (1-based) fails */
	unsigned int disturb_at;	/* that trial (1-based): the generator
					 * lost its CPU, +50 us */
	uint64_t seed;
	double offset_ns;		/* this pair's */
};

static double
next_offset(struct ab_dev *d)
{
	d->seed = d->seed * 6364136223846793005ull + 1442695040888963407ull;
	/* +-1300 ns, the spread between separate runs */
	return ((double)(d->seed >> 11) / 9007199254740992.0 * 2 - 1) * 1300;
}

static int
dev_switch(void *arg, unsigned int v, const char *name)
{
	struct ab_dev *d = arg;
	size_t n = strlen(d->order);

	d->switches++;
	if (d->refuse_at && d->switches == d->refuse_at)
		return -EIO;
	assert_string_equal(name, v == 0 ? "list" : "single");
	d->cur = v;
	if (n + 1 < sizeof(d->order))
		d->order[n] = v == 0 ? 'a' : 'b';
	if (v == 0)
		d->offset_ns = next_offset(d);	/* a new pair */
	return 0;
}

static int
dev_trial(void *ctx, const struct gen_trial_request *req,
	  struct gen_trial_result *res)
{
	struct ab_dev *d = ctx;
	size_t n = strlen(d->order);
	int rc = model_trial(&d->m, req, res);

	d->trials++;
	if (n + 1 < sizeof(d->order))
		d->order[n] = 'T';
	res->latency.p50_ns += d->add_ns[d->cur] + d->offset_ns;
	res->latency.mean_ns += d->add_ns[d->cur] + d->offset_ns;
	if (d->disturb_at && d->trials == d->disturb_at) {
		res->cpu_share = 0.5;
		res->latency.p50_ns += 50000;
		res->latency.mean_ns += 50000;
	}
	return rc;
}

static void
params(struct gen_ab_params *p, struct ab_dev *d, unsigned int pairs)
{
	memset(p, 0, sizeof(*p));
	assert_int_equal(gen_ab_parse_names("list,single", p->names), 0);
	p->pairs = pairs;
	p->req.rate_pps = 1000;
	p->req.seconds = 0.01;
	p->req.size = 64;
	p->req.flows = 1;
	p->between = dev_switch;
	p->between_arg = d;
	memset(d, 0, sizeof(*d));
	d->m.capacity_pps = 1e6;
	d->m.gen_max_pps = 1e7;
	d->m.lat_base_ns = 2000;
	d->seed = 1;
}

static void
test_names(void **state)
{
	char n[2][GEN_AB_NAME_LEN];

	(void)state;
	assert_int_equal(gen_ab_parse_names("list,single", n), 0);
	assert_string_equal(n[0], "list");
	assert_string_equal(n[1], "single");
	assert_int_equal(gen_ab_parse_names("a-1,b_2.x", n), 0);
	assert_int_equal(gen_ab_parse_names("list", n), -EINVAL);
	assert_int_equal(gen_ab_parse_names("list,list", n), -EINVAL);
	assert_int_equal(gen_ab_parse_names("a,b,c", n), -EINVAL);
	assert_int_equal(gen_ab_parse_names(",b", n), -EINVAL);
	assert_int_equal(gen_ab_parse_names("a,", n), -EINVAL);
	/* the names go into a shell command */
	assert_int_equal(gen_ab_parse_names("a;rm,b", n), -EINVAL);
	assert_int_equal(gen_ab_parse_names("a b,c", n), -EINVAL);
	assert_int_equal(gen_ab_parse_names(
		"abcdefghijabcdefghijabcdefghijabc,b", n), -EINVAL);
}

static void
test_quantiles_and_interval(void **state)
{
	static const double four[] = { 1, 2, 3, 4 };
	double nine[9], same[5];
	struct gen_ab_spread s, again;
	unsigned int i;

	(void)state;
	assert_true(gen_ab_quantile(four, 4, 0.5) == 2.5);
	assert_true(gen_ab_quantile(four, 4, 0.25) == 1.75);
	assert_true(gen_ab_quantile(four, 4, 1) == 4);
	assert_true(gen_ab_quantile(four, 1, 0.5) == 1);
	assert_true(gen_ab_quantile(four, 0, 0.5) == 0);
	for (i = 0; i < 9; i++)
		nine[i] = 9 - i;		/* unsorted: 9 .. 1 */
	assert_int_equal(gen_ab_spread_of(nine, 9, &s), 0);
	assert_int_equal(s.n, 9);
	assert_true(s.median == 5 && s.q1 == 3 && s.q3 == 7);
	assert_true(s.ci_lo <= 5 && 5 <= s.ci_hi);
	assert_true(s.ci_lo >= 1 && s.ci_hi <= 9 && s.ci_lo < s.ci_hi);
	assert_true(nine[0] == 9);		/* not sorted in place */
	assert_int_equal(gen_ab_spread_of(nine, 9, &again), 0);
	assert_memory_equal(&s, &again, sizeof(s));	/* a fixed seed */
	for (i = 0; i < 5; i++)
		same[i] = 80;
	assert_int_equal(gen_ab_spread_of(same, 5, &s), 0);
	assert_true(s.median == 80 && s.ci_lo == 80 && s.ci_hi == 80);
	assert_int_equal(gen_ab_spread_of(same, 0, &s), 0);
	assert_int_equal(s.n, 0);
}

/* list adds 80 ns; each pair's offset moves both alike: the variants'
 * p50s spread over +-1300 ns, their differences are all 80. */
static void
test_pairs_cancel_what_moves(void **state)
{
	struct gen_ab_params p;
	struct gen_ab_run run;
	struct ab_dev d;
	unsigned int i;

	(void)state;
	params(&p, &d, 12);
	d.add_ns[0] = 80;
	assert_int_equal(gen_ab_run(&p, dev_trial, &d, &run), 0);
	assert_int_equal(run.n_pairs, 12);
	assert_int_equal(d.switches, 24);
	assert_int_equal(d.trials, 24);
	assert_memory_equal(d.order, "aTbTaTbTaTbTaTbTaTbTaTbT", 24);
	for (i = 0; i < run.n_pairs; i++)
		assert_true(fabs(run.res[i][0].latency.p50_ns -
				 run.res[i][1].latency.p50_ns - 80) < 1e-6);
	assert_true(fabs(run.d_p50.median - 80) < 1e-6);
	assert_true(fabs(run.d_p50.ci_lo - 80) < 1e-6);
	assert_true(fabs(run.d_p50.ci_hi - 80) < 1e-6);
	assert_true(fabs(run.d_mean.median - 80) < 1e-6);
	/* the variants apart: their quartiles are far wider than 80 */
	assert_true(run.p50[0].q3 - run.p50[0].q1 > 200);
	assert_true(run.p50[1].q3 - run.p50[1].q1 > 200);
	assert_int_equal(run.lossy, 0);
	assert_int_equal(run.limited, 0);
	assert_int_equal(run.n_clean, 12);
	gen_ab_free(&run);

	/* pair 3's B trial without the generator's CPU: the pair is
	 * counted, and left out of the undisturbed pairs' figures */
	params(&p, &d, 12);
	d.add_ns[0] = 80;
	d.disturb_at = 8;
	assert_int_equal(gen_ab_run(&p, dev_trial, &d, &run), 0);
	assert_false(gen_ab_clean(&run.res[3][1]));
	assert_true(gen_ab_clean(&run.res[3][0]));
	assert_int_equal(run.d_p50.n, 12);
	assert_int_equal(run.n_clean, 11);
	assert_int_equal(run.clean_p50.n, 11);
	assert_true(fabs(run.clean_p50.median - 80) < 1e-6);
	assert_true(fabs(run.clean_p50.ci_lo - 80) < 1e-6);
	assert_true(fabs(run.clean_mean.median - 80) < 1e-6);
	assert_true(run.res[3][0].latency.p50_ns -
		    run.res[3][1].latency.p50_ns < -40000);
	assert_true(fabs(run.d_p50.median - 80) < 1e-6);	/* robust */
	gen_ab_free(&run);
}

/* A switch refused (the device would not change): the run stops there,
 * with the pairs before it. */
static void
test_refused_switch_stops(void **state)
{
	struct gen_ab_params p;
	struct gen_ab_run run;
	struct ab_dev d;

	(void)state;
	params(&p, &d, 5);
	d.refuse_at = 6;	/* pair 2's B */
	assert_int_equal(gen_ab_run(&p, dev_trial, &d, &run), -EIO);
	assert_int_equal(run.error, -EIO);
	assert_int_equal(run.n_pairs, 2);
	assert_int_equal(d.trials, 5);
	assert_int_equal(run.d_p50.n, 2);
	gen_ab_free(&run);
	params(&p, &d, 0);
	assert_int_equal(gen_ab_run(&p, dev_trial, &d, &run), -EINVAL);
	gen_ab_free(&run);
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, (1 << 20) - 1, f) > 0);
	fclose(f);
	return buf;
}

static void
test_json(void **state)
{
	const struct gen_ab_rate_info info = {
		.ndr_pps = 10000, .ndr_from = "given", .share = 0.1,
		.device = "listack-fwd \"x\"",
	};
	char path[64], *text;
	struct gen_ab_params p;
	struct gen_ab_run run;
	struct ab_dev d;

	(void)state;
	params(&p, &d, 3);
	d.add_ns[0] = 80;
	assert_int_equal(gen_ab_run(&p, dev_trial, &d, &run), 0);
	snprintf(path, sizeof(path), "/tmp/lsk-test-ab-%d.json", (int)getpid());
	assert_int_equal(gen_ab_json(path, &run, &info), 0);
	text = slurp(path);
	assert_non_null(strstr(text, "{\"mode\": \"ab\", \"version\": 1, "
			       "\"device\": \"listack-fwd \\\"x\\\"\", "
			       "\"variants\": [\"list\", \"single\"], "
			       "\"difference\": \"list - single\", "
			       "\"rate_pps\": 1000, \"ndr_pps\": 10000, "
			       "\"ndr_from\": \"given\", \"share\": 0.1"));
	assert_non_null(strstr(text, "{\"index\": 2, \"a\": {"));
	assert_null(strstr(text, "{\"index\": 3,"));
	assert_non_null(strstr(text, "\"summary\": {\"pairs\": 3, "
			       "\"lossy_trials\": 0, \"limited_trials\": 0, "
			       "\"a\": {\"p50_ns\": {\"n\": 3, "));
	assert_non_null(strstr(text, "\"p50_diff_ns\": {\"n\": 3, "
			       "\"median\": 80"));
	assert_non_null(strstr(text, "\"clean\": true}"));
	assert_non_null(strstr(text, "\"clean\": {\"pairs\": 3, "
			       "\"p50_diff_ns\": {\"n\": 3, "));
	free(text);
	unlink(path);
	gen_ab_free(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_quantiles_and_interval),
		cmocka_unit_test(test_pairs_cancel_what_moves),
		cmocka_unit_test(test_refused_switch_stops),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
