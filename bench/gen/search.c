/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MRR, NDR and PDR searches and latency trials over a gen_trial_fn
 * (search.h). The binary search keeps an interval [lo, hi]: lo passed (or
 * is the low bound, taken to pass), hi failed or could not be offered;
 * each trial halves it until it is no wider than the resolution. RFC 2544
 * (26.1) starts at the high bound, so a device that passes there costs
 * one trial.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define GEN_VERIFY_ROUNDS 2		/* searches again below a failed
					 * verification, at most this often */
#define GEN_PREAMBLE_IFG 20		/* preamble 8 + inter-frame gap 12 */

static const double lat_shares[GEN_LAT_POINTS] = { 0.0, 0.1, 0.5, 0.9 };

void
gen_search_defaults(struct gen_search_params *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = GEN_SEARCH_NDR;
	p->sizes[0] = 64;
	p->sizes[1] = 1518;
	p->sizes[2] = GEN_SIZE_IMIX;
	p->n_sizes = 3;
	p->flows = 1;
	p->trial_seconds = 1.0;
	p->resolution = 0.005;
	p->resolution_is_share = true;
	p->pdr_loss = 0.005;
	p->verify = true;
	p->latency_seconds = 1.0;
	p->latency_min_pps = 10000;
}

double
gen_size_mean(uint16_t size)
{
	if (size == GEN_SIZE_IMIX)
		return (28.0 * 64 + 16.0 * 570 + 4.0 * 1518) / 48.0;
	return size;
}

const char *
gen_size_text(uint16_t size, char *buf, unsigned int len)
{
	if (size == GEN_SIZE_IMIX)
		snprintf(buf, len, "imix");
	else
		snprintf(buf, len, "%u", size);
	return buf;
}

double
gen_l1_bps(uint16_t size, double pps)
{
	return pps * (gen_size_mean(size) + GEN_PREAMBLE_IFG) * 8;
}

double
gen_l2_bps(uint16_t size, double pps)
{
	return pps * gen_size_mean(size) * 8;
}

const char *
gen_phase_name(enum gen_phase ph)
{
	static const char *const names[] = {
		[GEN_PHASE_MRR] = "mrr",
		[GEN_PHASE_NDR] = "ndr",
		[GEN_PHASE_PDR] = "pdr",
		[GEN_PHASE_VERIFY_NDR] = "verify-ndr",
		[GEN_PHASE_VERIFY_PDR] = "verify-pdr",
		[GEN_PHASE_LATENCY] = "latency",
	};

	return (unsigned int)ph < 6 ? names[ph] : "?";
}

const char *
gen_verdict_name(enum gen_verdict v)
{
	static const char *const names[] = { "none", "pass", "fail",
					     "limited", "limited-pass" };

	return (unsigned int)v < 5 ? names[v] : "?";
}

const char *
gen_limit_name(enum gen_limit l)
{
	static const char *const names[] = { "none", "device", "generator",
					     "max-rate" };

	return (unsigned int)l < 4 ? names[l] : "?";
}

const char *
gen_search_kind_name(enum gen_search_kind k)
{
	static const char *const names[] = { "ndr", "pdr", "mrr" };

	return (unsigned int)k < 3 ? names[k] : "?";
}

struct search_ctx {
	const struct gen_search_params *p;
	struct gen_search_run *run;
	gen_trial_fn fn;
	void *ctx;
	uint16_t size;
};

static enum gen_verdict
judge(const struct gen_search_params *p, enum gen_phase ph,
      const struct gen_trial_result *r)
{
	bool ok;

	if (ph == GEN_PHASE_MRR || ph == GEN_PHASE_LATENCY)
		return GEN_VERDICT_NONE;
	if (ph == GEN_PHASE_NDR || ph == GEN_PHASE_VERIFY_NDR)
		ok = r->lost == 0;
	else
		ok = gen_loss_ratio(r) <= p->pdr_loss;
	if (r->generator_limited)
		return ok ? GEN_VERDICT_LIMITED_PASS : GEN_VERDICT_LIMITED;
	return ok ? GEN_VERDICT_PASS : GEN_VERDICT_FAIL;
}

/* Run one trial and keep it; its index, or a negative errno. */
static int
trial(struct search_ctx *s, enum gen_phase ph, double rate, double seconds,
      double share)
{
	struct gen_search_run *run = s->run;
	struct gen_search_trial *t;
	struct gen_trial_request req = {
		.rate_pps = rate,
		.seconds = seconds,
		.size = s->size,
		.flows = s->p->flows,
	};
	int rc;

	if (run->n_trials == run->cap_trials) {
		unsigned int cap = run->cap_trials ? run->cap_trials * 2 : 64;
		void *n;

		if (run->cap_trials >= GEN_MAX_TRIALS)
			return -E2BIG;
		if (cap > GEN_MAX_TRIALS)
			cap = GEN_MAX_TRIALS;
		n = realloc(run->trials, cap * sizeof(*run->trials));
		if (n == NULL)
			return -ENOMEM;
		run->trials = n;
		run->cap_trials = cap;
	}
	t = &run->trials[run->n_trials];
	memset(t, 0, sizeof(*t));
	t->index = run->n_trials;
	t->size = s->size;
	t->phase = ph;
	t->share = share;
	rc = s->fn(s->ctx, &req, &t->res);
	if (rc < 0)
		return rc;
	/* what was asked, whatever the trial wrote there */
	t->res.req = req;
	t->verdict = judge(s->p, ph, &t->res);
	run->n_trials++;
	if (s->p->progress != NULL)
		s->p->progress(s->p->progress_arg, t);
	return (int)t->index;
}

static bool
passed(const struct search_ctx *s, int idx)
{
	enum gen_verdict v = s->run->trials[idx].verdict;

	return v == GEN_VERDICT_PASS || v == GEN_VERDICT_LIMITED_PASS;
}

static enum gen_limit
limit_of(const struct search_ctx *s, int idx)
{
	return s->run->trials[idx].verdict == GEN_VERDICT_FAIL ?
	       GEN_LIMIT_DEVICE : GEN_LIMIT_GENERATOR;
}

/* The rate a passing trial shows the device takes: what was asked, or
 * what the generator could offer when that was less. */
static double
passed_rate(const struct search_ctx *s, int idx)
{
	const struct gen_search_trial *t = &s->run->trials[idx];

	if (t->verdict == GEN_VERDICT_LIMITED_PASS &&
	    t->res.offered_pps < t->res.req.rate_pps)
		return t->res.offered_pps;
	return t->res.req.rate_pps;
}

struct interval {
	double lo, hi;
	int lo_trial, hi_trial;		/* -1: none */
};

/* Narrow the interval by trial t. A generator-limited trial is never a
 * failure of the device: it caps the interval from above, and when the
 * device took all that was offered, that rate passed. */
static void
narrow(const struct search_ctx *s, int t, struct interval *iv)
{
	enum gen_verdict v = s->run->trials[t].verdict;
	double asked = s->run->trials[t].res.req.rate_pps;

	if (v == GEN_VERDICT_PASS || v == GEN_VERDICT_LIMITED_PASS) {
		double r = passed_rate(s, t);

		if (r > iv->lo || iv->lo_trial < 0) {
			iv->lo = r;
			iv->lo_trial = t;
		}
	}
	if (v != GEN_VERDICT_PASS && asked <= iv->hi) {
		iv->hi = asked;
		iv->hi_trial = t;
	}
}

/*
 * Binary search in [lo, hi] under phase ph's criterion. lo_trial is a
 * trial known to pass at lo (-1: none; lo is then taken to pass and is
 * tried at the end if nothing above passed). high_limit says who set hi
 * (the generator's MRR offer or --max-rate) for a device that passes
 * there.
 */
static int
binary_search(struct search_ctx *s, enum gen_phase ph, enum gen_phase vph,
	      double lo, int lo_trial, double hi, enum gen_limit high_limit,
	      struct gen_rate_result *out)
{
	const struct gen_search_params *p = s->p;
	double res = p->resolution_is_share ? p->resolution * hi :
		     p->resolution;
	struct interval iv = { lo, hi, lo_trial, -1 };
	const struct interval given = iv;
	unsigned int round, steps;
	int t;

	if (res < 1)
		res = 1;
	out->trial = lo_trial;
	out->fail_trial = -1;
	out->rate_pps = lo;
	out->limit = GEN_LIMIT_NONE;
	out->verified = false;
	for (round = 0; round <= GEN_VERIFY_ROUNDS; round++) {
		if (round == 0 && iv.hi > iv.lo) {
			t = trial(s, ph, iv.hi, p->trial_seconds, 0);
			if (t < 0)
				return t;
			narrow(s, t, &iv);
		}
		for (steps = 0; iv.hi_trial >= 0 && iv.hi - iv.lo > res &&
		     steps < GEN_SEARCH_MAX_STEPS; steps++) {
			t = trial(s, ph, iv.lo + (iv.hi - iv.lo) / 2,
				  p->trial_seconds, 0);
			if (t < 0)
				return t;
			narrow(s, t, &iv);
		}
		if (iv.lo_trial < 0 && iv.lo > 0) {
			/* the low bound itself, never tried */
			t = trial(s, ph, iv.lo, p->trial_seconds, 0);
			if (t < 0)
				return t;
			if (!passed(s, t))
				iv.lo = 0;
			narrow(s, t, &iv);
		}
		out->rate_pps = iv.lo_trial >= 0 ? iv.lo : 0;
		out->trial = iv.lo_trial;
		out->fail_trial = iv.hi_trial;
		if (iv.hi_trial >= 0)
			out->limit = limit_of(s, iv.hi_trial);
		if (!p->verify || iv.lo_trial < 0 ||
		    iv.lo_trial == given.lo_trial ||
		    s->run->trials[iv.lo_trial].phase == vph)
			break;
		t = trial(s, vph, iv.lo, p->trial_seconds, 0);
		if (t < 0)
			return t;
		if (passed(s, t)) {
			out->trial = t;
			out->verified = true;
			if (passed_rate(s, t) < out->rate_pps) {
				/* the generator fell short again */
				out->rate_pps = passed_rate(s, t);
				out->limit = GEN_LIMIT_GENERATOR;
			}
			break;
		}
		if (round == GEN_VERIFY_ROUNDS)
			break;		/* the result stays unverified */
		/* it passed once and not again: search below it, above
		 * what was known to pass when the search began */
		out->fail_trial = t;
		out->limit = limit_of(s, t);
		iv.hi = iv.lo;
		iv.hi_trial = t;
		iv.lo = given.lo;
		iv.lo_trial = given.lo_trial;
		if (given.lo_trial < 0 && iv.hi - iv.lo <= res)
			iv.lo = 0;
	}
	if (iv.hi_trial < 0 && out->trial >= 0)
		out->limit = high_limit;	/* it passed at the high bound */
	if (out->trial >= 0)
		out->loss_ratio = gen_loss_ratio(&s->run->trials[out->trial].res);
	return 0;
}

static int
latency_trials(struct search_ctx *s, struct gen_size_result *sr, double base)
{
	const struct gen_search_params *p = s->p;
	unsigned int i;
	int t;

	sr->n_lat = 0;
	if (p->latency_seconds <= 0)
		return 0;
	for (i = 0; i < GEN_LAT_POINTS; i++) {
		struct gen_latency_point *lp = &sr->lat[sr->n_lat];
		double rate = i == 0 ? p->latency_min_pps :
			      lat_shares[i] * base;

		if (rate < 1)
			continue;
		t = trial(s, GEN_PHASE_LATENCY, rate, p->latency_seconds,
			  lat_shares[i]);
		if (t < 0)
			return t;
		lp->share = lat_shares[i];
		lp->rate_pps = rate;
		lp->trial = t;
		sr->n_lat++;
	}
	return 0;
}

static int
search_size(struct search_ctx *s, struct gen_size_result *sr)
{
	const struct gen_search_params *p = s->p;
	enum gen_limit high_limit = GEN_LIMIT_MAX_RATE;
	double lo = p->min_rate_pps, base;
	int t, rc;

	memset(sr, 0, sizeof(*sr));
	sr->size = s->size;
	sr->mrr_trial = sr->ndr.trial = sr->pdr.trial = -1;
	sr->ndr.fail_trial = sr->pdr.fail_trial = -1;
	sr->high_pps = p->max_rate_pps;
	if (p->kind == GEN_SEARCH_MRR || p->max_rate_pps <= 0) {
		const struct gen_trial_result *r;

		t = trial(s, GEN_PHASE_MRR, 0, p->trial_seconds, 0);
		if (t < 0)
			return t;
		r = &s->run->trials[t].res;
		sr->mrr_trial = t;
		sr->mrr_pps = r->received_pps;
		sr->mrr_limit = r->lost == 0 ? GEN_LIMIT_GENERATOR :
					       GEN_LIMIT_DEVICE;
		if (p->max_rate_pps <= 0) {
			/* below what the generator could offer */
			sr->high_pps = r->offered_pps;
			high_limit = GEN_LIMIT_GENERATOR;
		}
	}
	if (p->kind == GEN_SEARCH_MRR)
		return 0;
	if (lo > sr->high_pps)
		lo = 0;
	if (p->kind == GEN_SEARCH_NDR) {
		rc = binary_search(s, GEN_PHASE_NDR, GEN_PHASE_VERIFY_NDR, lo,
				   -1, sr->high_pps, high_limit, &sr->ndr);
		if (rc < 0)
			return rc;
		/* zero loss passes the PDR's criterion too */
		if (sr->ndr.trial >= 0)
			lo = sr->ndr.rate_pps;
		rc = binary_search(s, GEN_PHASE_PDR, GEN_PHASE_VERIFY_PDR, lo,
				   sr->ndr.trial, sr->high_pps, high_limit,
				   &sr->pdr);
		if (rc == 0 && sr->pdr.trial == sr->ndr.trial) {
			/* nothing above the NDR passed: the PDR is the NDR,
			 * and its own search says who stopped it */
			sr->pdr.verified = sr->ndr.verified;
			sr->pdr.loss_ratio = sr->ndr.loss_ratio;
		} else if (rc == 0 && sr->ndr.trial >= 0 &&
			   (sr->pdr.trial < 0 ||
			    sr->pdr.rate_pps < sr->ndr.rate_pps)) {
			/* a failed verification (a noisy device, a generator
			 * that offered less) took the PDR search below the
			 * NDR, which meets the PDR's criterion too */
			sr->pdr = sr->ndr;
		}
		base = sr->ndr.rate_pps;
	} else {
		rc = binary_search(s, GEN_PHASE_PDR, GEN_PHASE_VERIFY_PDR, lo,
				   -1, sr->high_pps, high_limit, &sr->pdr);
		base = sr->pdr.rate_pps;
	}
	if (rc < 0)
		return rc;
	return latency_trials(s, sr, base);
}

int
gen_search_run(const struct gen_search_params *p, gen_trial_fn fn,
	       void *ctx, struct gen_search_run *run)
{
	struct search_ctx s = { .p = p, .run = run, .fn = fn, .ctx = ctx };
	unsigned int i;
	int rc;

	memset(run, 0, sizeof(*run));
	run->params = *p;
	if (p->n_sizes == 0 || p->n_sizes > GEN_SEARCH_MAX_SIZES ||
	    !(p->trial_seconds > 0) || !(p->resolution > 0) ||
	    !(p->pdr_loss >= 0 && p->pdr_loss < 1) || p->flows == 0)
		return run->error = -EINVAL;
	s.p = &run->params;
	for (i = 0; i < p->n_sizes; i++) {
		s.size = p->sizes[i];
		rc = search_size(&s, &run->sizes[i]);
		run->n_sizes = i + 1;
		if (rc < 0)
			return run->error = rc;
	}
	return 0;
}

void
gen_search_free(struct gen_search_run *run)
{
	free(run->trials);
	run->trials = NULL;
	run->n_trials = run->cap_trials = 0;
}
