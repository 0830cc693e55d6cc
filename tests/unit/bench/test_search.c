/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NDR/PDR/MRR searches (bench/gen/search.c) against model devices
 * (model_device.h): the NDR is found within the resolution of the
 * device's capacity, the found trial lost nothing and the next higher
 * one lost, the PDR is not below the NDR, every trial is kept, and a
 * generator that cannot offer enough is reported as the limit, never as
 * the device's failure.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model_device.h"
#include "search.h"
#include "search_cli.h"

static struct gen_search_params
params_one(uint16_t size)
{
	struct gen_search_params p;

	gen_search_defaults(&p);
	p.sizes[0] = size;
	p.n_sizes = 1;
	p.trial_seconds = 0.01;
	p.latency_seconds = 0.01;
	return p;
}

/* What holds for every search's result, whatever the device. */
static void
check_rate(const struct gen_search_run *run, const struct gen_rate_result *r,
	   bool ndr, double pdr_loss)
{
	const struct gen_search_trial *t, *f;

	if (r->trial >= 0) {
		assert_true((unsigned int)r->trial < run->n_trials);
		t = &run->trials[r->trial];
		if (ndr)
			assert_int_equal(t->res.lost, 0);
		else
			assert_true(gen_loss_ratio(&t->res) <= pdr_loss);
		if (t->verdict == GEN_VERDICT_LIMITED_PASS) {
			/* what the generator offered passed */
			assert_true(t->res.generator_limited);
			assert_true(fabs(t->res.offered_pps - r->rate_pps) <
				    1e-6);
			assert_int_equal(r->limit, GEN_LIMIT_GENERATOR);
		} else {
			assert_int_equal(t->verdict, GEN_VERDICT_PASS);
			assert_false(t->res.generator_limited);
			assert_true(fabs(t->res.req.rate_pps - r->rate_pps) <
				    1e-6);
		}
	}
	if (r->fail_trial >= 0) {
		assert_true((unsigned int)r->fail_trial < run->n_trials);
		f = &run->trials[r->fail_trial];
		assert_true(f->verdict == GEN_VERDICT_FAIL ||
			    f->verdict == GEN_VERDICT_LIMITED ||
			    f->verdict == GEN_VERDICT_LIMITED_PASS);
		if (f->verdict == GEN_VERDICT_FAIL && ndr)
			assert_true(f->res.lost > 0);
		if (f->verdict == GEN_VERDICT_FAIL && !ndr)
			assert_true(gen_loss_ratio(&f->res) > pdr_loss);
		assert_true(f->res.req.rate_pps >= r->rate_pps);
		if (r->verified || r->trial < 0 ||
		    run->trials[r->trial].verdict == GEN_VERDICT_PASS)
			assert_int_equal(r->limit,
					 f->verdict == GEN_VERDICT_FAIL ?
					 GEN_LIMIT_DEVICE : GEN_LIMIT_GENERATOR);
	}
}

/* Every call of the trial fn is a kept trial, in order. */
static void
check_trials(const struct gen_search_run *run, const struct model_dev *m)
{
	unsigned int i;

	assert_int_equal(run->n_trials, m->calls);
	for (i = 0; i < run->n_trials; i++) {
		assert_int_equal(run->trials[i].index, i);
		assert_int_equal(run->trials[i].res.req.size,
				 run->trials[i].size);
		assert_true(run->trials[i].res.req.seconds > 0);
	}
}

static void
test_ndr_within_resolution(void **state)
{
	struct model_dev m = { .capacity_pps = 1e6, .gen_max_pps = 10e6 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;
	const struct gen_size_result *sr;
	double res = p.resolution * m.gen_max_pps;
	const struct gen_search_trial *hi;

	(void)state;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	check_trials(&run, &m);
	sr = &run.sizes[0];
	assert_int_equal(run.n_sizes, 1);
	/* MRR first: rate 0, all the generator had */
	assert_int_equal(sr->mrr_trial, 0);
	assert_int_equal(run.trials[0].phase, GEN_PHASE_MRR);
	assert_true(run.trials[0].res.req.rate_pps == 0);
	assert_true(fabs(sr->mrr_pps - 1e6) < 1);
	assert_int_equal(sr->mrr_limit, GEN_LIMIT_DEVICE);
	assert_true(fabs(sr->high_pps - 10e6) < 1);
	/* the NDR: below the capacity, within the resolution of it */
	assert_true(sr->ndr.rate_pps <= 1e6);
	assert_true(sr->ndr.rate_pps >= 1e6 - res);
	assert_int_equal(sr->ndr.limit, GEN_LIMIT_DEVICE);
	assert_true(sr->ndr.verified);
	assert_int_equal(run.trials[sr->ndr.trial].phase,
			 GEN_PHASE_VERIFY_NDR);
	check_rate(&run, &sr->ndr, true, p.pdr_loss);
	/* the next higher trial lost, and is within the resolution */
	hi = &run.trials[sr->ndr.fail_trial];
	assert_true(hi->res.lost > 0);
	assert_true(hi->res.req.rate_pps - sr->ndr.rate_pps <= res);
	/* PDR: 0.5 % lost at most is up to C / 0.995 */
	check_rate(&run, &sr->pdr, false, p.pdr_loss);
	assert_true(sr->pdr.rate_pps >= sr->ndr.rate_pps);
	assert_true(sr->pdr.rate_pps <= 1e6 / (1 - p.pdr_loss) + 1);
	assert_true(sr->pdr.rate_pps >= 1e6 / (1 - p.pdr_loss) - res);
	gen_search_free(&run);
}

static void
test_resolution_in_pps(void **state)
{
	struct model_dev m = { .capacity_pps = 3333333, .gen_max_pps = 14.88e6 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;
	unsigned int i, ndr_trials = 0;

	(void)state;
	p.resolution = 1000;
	p.resolution_is_share = false;
	p.latency_seconds = 0;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	assert_true(run.sizes[0].ndr.rate_pps <= 3333333);
	assert_true(run.sizes[0].ndr.rate_pps >= 3333333 - 1000);
	check_rate(&run, &run.sizes[0].ndr, true, p.pdr_loss);
	for (i = 0; i < run.n_trials; i++) {
		ndr_trials += run.trials[i].phase == GEN_PHASE_NDR;
		assert_int_not_equal(run.trials[i].phase, GEN_PHASE_LATENCY);
	}
	/* log2(14.88e6 / 1000) halvings and the first trial */
	assert_true(ndr_trials <= 16);
	gen_search_free(&run);
}

static void
test_noisy_device(void **state)
{
	unsigned int seed;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		struct model_dev m = { .capacity_pps = 2e6, .gen_max_pps = 8e6,
				       .noise = 0.02, .seed = seed };
		struct gen_search_params p = params_one(128);
		struct gen_search_run run;
		const struct gen_size_result *sr;

		assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
		check_trials(&run, &m);
		sr = &run.sizes[0];
		check_rate(&run, &sr->ndr, true, p.pdr_loss);
		check_rate(&run, &sr->pdr, false, p.pdr_loss);
		assert_true(sr->ndr.trial >= 0);
		assert_true(sr->ndr.rate_pps <= 2e6 * 1.02);
		assert_true(sr->pdr.rate_pps >= sr->ndr.rate_pps);
		gen_search_free(&run);
	}
}

/* The generator cannot offer the device's capacity: the NDR is what the
 * generator had, and says so. */
static void
test_generator_below_capacity(void **state)
{
	struct model_dev m = { .capacity_pps = 5e6, .gen_max_pps = 1.2e6 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;
	const struct gen_size_result *sr;
	unsigned int i;

	(void)state;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	sr = &run.sizes[0];
	assert_int_equal(sr->mrr_limit, GEN_LIMIT_GENERATOR);
	assert_true(fabs(sr->ndr.rate_pps - 1.2e6) < 1);
	assert_int_equal(sr->ndr.limit, GEN_LIMIT_GENERATOR);
	assert_int_equal(sr->pdr.limit, GEN_LIMIT_GENERATOR);
	for (i = 0; i < run.n_trials; i++)
		assert_int_not_equal(run.trials[i].verdict, GEN_VERDICT_FAIL);
	gen_search_free(&run);
}

/* --max-rate above what the generator can: the trials up there are
 * generator-limited, never the device's failure, and the result says
 * the generator set the limit. */
static void
test_generator_limited_trials(void **state)
{
	struct model_dev m = { .capacity_pps = 1e6, .gen_max_pps = 0.8e6 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;
	const struct gen_size_result *sr;
	unsigned int i, limited = 0;

	(void)state;
	p.max_rate_pps = 2e6;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	check_trials(&run, &m);
	sr = &run.sizes[0];
	assert_int_equal(sr->mrr_trial, -1);	/* the bound was given */
	/* the first trial, at 2 Mpps: the device took the 0.8 Mpps offered */
	assert_int_equal(run.trials[0].verdict, GEN_VERDICT_LIMITED_PASS);
	assert_true(sr->ndr.rate_pps == 0.8e6);
	assert_int_equal(sr->ndr.limit, GEN_LIMIT_GENERATOR);
	assert_int_equal(run.trials[sr->ndr.fail_trial].verdict,
			 GEN_VERDICT_LIMITED_PASS);
	/* verified at 0.8 Mpps, which the generator could offer */
	assert_true(sr->ndr.verified);
	assert_int_equal(run.trials[sr->ndr.trial].verdict, GEN_VERDICT_PASS);
	check_rate(&run, &sr->ndr, true, p.pdr_loss);
	for (i = 0; i < run.n_trials; i++) {
		assert_int_not_equal(run.trials[i].verdict, GEN_VERDICT_FAIL);
		limited += run.trials[i].verdict == GEN_VERDICT_LIMITED_PASS;
	}
	assert_true(limited > 0);
	gen_search_free(&run);

	/* the generator short of the device's capacity and the device
	 * losing too: the trials up there are limited, the device's
	 * loss is not taken as its failure */
	m = (struct model_dev){ .capacity_pps = 0.5e6, .gen_max_pps = 0.8e6 };
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	check_trials(&run, &m);
	sr = &run.sizes[0];
	assert_int_equal(run.trials[0].verdict, GEN_VERDICT_LIMITED);
	assert_true(sr->ndr.rate_pps <= 0.5e6);
	assert_true(sr->ndr.rate_pps >= 0.5e6 - p.resolution * 2e6);
	assert_int_equal(sr->ndr.limit, GEN_LIMIT_DEVICE);
	check_rate(&run, &sr->ndr, true, p.pdr_loss);
	gen_search_free(&run);
}

/* The device passes at --max-rate: one trial and its verification. */
static void
test_passes_at_max_rate(void **state)
{
	struct model_dev m = { .capacity_pps = 5e6, .gen_max_pps = 10e6 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;

	(void)state;
	p.kind = GEN_SEARCH_PDR;
	p.max_rate_pps = 1e6;
	p.latency_seconds = 0;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	assert_int_equal(run.n_trials, 2);
	assert_true(run.sizes[0].pdr.rate_pps == 1e6);
	assert_int_equal(run.sizes[0].pdr.limit, GEN_LIMIT_MAX_RATE);
	assert_int_equal(run.sizes[0].pdr.fail_trial, -1);
	assert_true(run.sizes[0].pdr.verified);
	assert_int_equal(run.sizes[0].ndr.trial, -1);
	gen_search_free(&run);
}

static void
test_latency_points(void **state)
{
	struct model_dev m = { .capacity_pps = 1e6, .gen_max_pps = 10e6 };
	struct gen_search_params p = params_one(64);
	static const double shares[] = { 0, 0.1, 0.5, 0.9 };
	struct gen_search_run run;
	const struct gen_size_result *sr;
	unsigned int k;

	(void)state;
	p.latency_seconds = 0.02;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	sr = &run.sizes[0];
	assert_int_equal(sr->n_lat, 4);
	for (k = 0; k < 4; k++) {
		const struct gen_search_trial *t = &run.trials[sr->lat[k].trial];

		assert_int_equal(t->phase, GEN_PHASE_LATENCY);
		assert_true(t->share == shares[k]);
		assert_true(t->res.req.seconds == 0.02);
		assert_true(fabs(t->res.req.rate_pps - (k ? shares[k] *
				 sr->ndr.rate_pps : 10000)) < 1e-6);
		assert_true(t->res.latency.samples > 0);
	}
	/* the last trials of the run */
	assert_int_equal(sr->lat[3].trial, (int)run.n_trials - 1);
	gen_search_free(&run);
}

/* Sizes in turn, each from its own MRR; a line limit makes them differ. */
static void
test_sizes(void **state)
{
	struct model_dev m = { .capacity_pps = 5e6, .line_bps = 10e9,
			       .gen_max_pps = 20e6 };
	struct gen_search_params p = params_one(64);
	static const uint16_t sizes[] = { 64, 512, 1518, GEN_SIZE_IMIX };
	struct gen_search_run run;
	unsigned int i;

	(void)state;
	memcpy(p.sizes, sizes, sizeof(sizes));
	p.n_sizes = 4;
	p.latency_seconds = 0;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	assert_int_equal(run.n_sizes, 4);
	for (i = 0; i < 4; i++) {
		const struct gen_size_result *sr = &run.sizes[i];
		double c = model_capacity(&m, sizes[i]);

		assert_int_equal(sr->size, sizes[i]);
		assert_int_equal(run.trials[sr->mrr_trial].size, sizes[i]);
		assert_true(sr->ndr.rate_pps <= c);
		assert_true(sr->ndr.rate_pps >= c - p.resolution * sr->high_pps);
		check_rate(&run, &sr->ndr, true, p.pdr_loss);
		assert_int_equal(run.trials[sr->ndr.trial].size, sizes[i]);
	}
	/* 10 Gbit/s at 1518 B: 812743 frames per second */
	assert_true(run.sizes[2].ndr.rate_pps < 812744);
	assert_true(gen_l1_bps(1518, 812743.8) <= 10e9 + 1);
	assert_true(fabs(gen_size_mean(GEN_SIZE_IMIX) - 16984.0 / 48) < 1e-9);
	gen_search_free(&run);
}

/* The device gets slower during the search: the verification fails and
 * the search goes on below; the result still passed and the trial above
 * it still failed. */
static void
test_verification_fails(void **state)
{
	struct model_dev m = { .capacity_pps = 1e6, .gen_max_pps = 10e6,
			       .degrade = 0.7 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;
	const struct gen_size_result *sr;
	unsigned int i, verifications = 0;

	(void)state;
	p.latency_seconds = 0;
	p.kind = GEN_SEARCH_PDR;
	p.pdr_loss = 0;
	/* a steady device first: where its verification comes */
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	for (i = 0; i < run.n_trials; i++)
		if (run.trials[i].phase == GEN_PHASE_VERIFY_PDR)
			break;
	assert_true(i < run.n_trials);
	assert_true(run.sizes[0].pdr.rate_pps > 0.7e6);
	gen_search_free(&run);
	/* now slower from that trial on */
	m.calls = 0;
	m.degrade_after = i;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	check_trials(&run, &m);
	sr = &run.sizes[0];
	for (i = 0; i < run.n_trials; i++)
		verifications += run.trials[i].phase == GEN_PHASE_VERIFY_PDR;
	assert_true(verifications >= 2);
	assert_true(sr->pdr.verified);
	assert_true(sr->pdr.rate_pps <= 0.7e6);
	check_rate(&run, &sr->pdr, false, 0);
	gen_search_free(&run);
}

/* The low bound: below the capacity it is never tried; above it, it is
 * tried at the end and fails, so no rate passed. */
static void
test_min_rate(void **state)
{
	struct model_dev m = { .capacity_pps = 1e6, .gen_max_pps = 10e6 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;
	unsigned int i;

	(void)state;
	p.latency_seconds = 0;
	p.min_rate_pps = 0.5e6;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	assert_true(run.sizes[0].ndr.rate_pps >= 0.95e6);
	for (i = 0; i < run.n_trials; i++)
		assert_true(run.trials[i].res.req.rate_pps == 0 ||
			    run.trials[i].res.req.rate_pps > 0.5e6);
	gen_search_free(&run);

	p.min_rate_pps = 2e6;
	m.calls = 0;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	check_trials(&run, &m);
	assert_int_equal(run.sizes[0].ndr.trial, -1);
	assert_true(run.sizes[0].ndr.rate_pps == 0);
	assert_int_equal(run.sizes[0].ndr.limit, GEN_LIMIT_DEVICE);
	assert_true(run.trials[run.sizes[0].ndr.fail_trial].res.req.rate_pps ==
		    2e6);
	check_rate(&run, &run.sizes[0].ndr, true, p.pdr_loss);
	gen_search_free(&run);
}

static void
test_trial_error_stops(void **state)
{
	struct model_dev m = { .capacity_pps = 1e6, .gen_max_pps = 10e6,
			       .fail_at = 4 };
	struct gen_search_params p = params_one(64);
	struct gen_search_run run;

	(void)state;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), -EIO);
	assert_int_equal(run.error, -EIO);
	assert_int_equal(run.n_trials, 3);
	assert_int_equal(m.calls, 4);
	gen_search_free(&run);

	p.n_sizes = 0;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), -EINVAL);
	gen_search_free(&run);
}

static void
test_mrr_only(void **state)
{
	struct model_dev m = { .capacity_pps = 3e6, .gen_max_pps = 10e6 };
	struct gen_search_params p = params_one(256);
	struct gen_search_run run;

	(void)state;
	p.kind = GEN_SEARCH_MRR;
	assert_int_equal(gen_search_run(&p, model_trial, &m, &run), 0);
	assert_int_equal(run.n_trials, 1);
	assert_true(fabs(run.sizes[0].mrr_pps - 3e6) < 1);
	assert_int_equal(run.sizes[0].ndr.trial, -1);
	assert_int_equal(run.sizes[0].n_lat, 0);
	gen_search_free(&run);
}

static void
test_options(void **state)
{
	char *argv[] = { "bench", "--generate", "--search", "pdr",
			 "--sizes=64,imix,1518", "--flows", "4",
			 "--resolution", "1%", "--max-rate", "14.88M",
			 "--no-verify", "--pdr-loss", "0.1", "--device",
			 "listack-fwd", "--trial", "0.5", NULL };
	int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;
	struct gen_search_opts o;
	static const char *const bad[][2] = {
		{ "--search", "fast" }, { "--sizes", "63" },
		{ "--sizes", "64,64" }, { "--sizes", "64," },
		{ "--sizes", "1519" }, { "--resolution", "0%" },
		{ "--resolution", "-5" }, { "--trial", "0" },
		{ "--max-rate", "1G" }, { "--pdr-loss", "100" },
		{ "--latency-seconds", "x" }, { "--device", "" },
		{ "--plot", "" }, { "--min-rate", "-1" },
	};
	unsigned int i;

	(void)state;
	gen_search_opts_init(&o);
	argc = gen_search_take_opts(argc, argv, &o);
	/* what is not ours stays, in order */
	assert_int_equal(argc, 6);
	assert_string_equal(argv[1], "--generate");
	assert_string_equal(argv[2], "--flows");
	assert_string_equal(argv[3], "4");
	/* --max-rate is the single trial's too: taken and left */
	assert_string_equal(argv[4], "--max-rate");
	assert_string_equal(argv[5], "14.88M");
	assert_null(argv[6]);
	assert_int_equal(o.params.kind, GEN_SEARCH_PDR);
	assert_true(o.search_given);
	assert_int_equal(o.params.n_sizes, 3);
	assert_int_equal(o.params.sizes[1], GEN_SIZE_IMIX);
	assert_true(o.params.resolution_is_share);
	assert_true(fabs(o.params.resolution - 0.01) < 1e-12);
	assert_true(o.params.max_rate_pps == 14.88e6);
	assert_false(o.params.verify);
	assert_true(fabs(o.params.pdr_loss - 0.001) < 1e-12);
	assert_string_equal(o.device, "listack-fwd");
	assert_true(o.params.trial_seconds == 0.5);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *a[] = { "bench", (char *)bad[i][0], (char *)bad[i][1],
			      NULL };

		gen_search_opts_init(&o);
		assert_int_equal(gen_search_take_opts(3, a, &o), -EINVAL);
	}
	{
		char *a[] = { "bench", "--plot", NULL };

		gen_search_opts_init(&o);
		assert_int_equal(gen_search_take_opts(2, a, &o), -EINVAL);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ndr_within_resolution),
		cmocka_unit_test(test_resolution_in_pps),
		cmocka_unit_test(test_noisy_device),
		cmocka_unit_test(test_generator_below_capacity),
		cmocka_unit_test(test_generator_limited_trials),
		cmocka_unit_test(test_passes_at_max_rate),
		cmocka_unit_test(test_latency_points),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_verification_fails),
		cmocka_unit_test(test_min_rate),
		cmocka_unit_test(test_trial_error_stops),
		cmocka_unit_test(test_mrr_only),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
