/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The searches above one trial (gen.h): per frame size, MRR (one trial at
 * full offered load), RFC 2544 binary searches for the NDR (the highest
 * rate with zero loss) and the PDR (loss at most pdr_loss), and latency
 * trials at shares of the NDR and at a minimal load. Every trial is kept
 * (struct gen_search_trial), so a report can show how each result was
 * reached.
 *
 * The search is plain C over a gen_trial_fn: no DPDK, so that it can be
 * tested against a model device (tests/unit/bench/test_search.c).
 *
 * A trial the generator could not keep (generator_limited) is never a
 * failure of the device: it caps the search from above, and the result
 * then says that the generator, not the device, set its limit. If the
 * device passed at what the generator did offer, that lower rate passed
 * (GEN_VERDICT_LIMITED_PASS): the result is then at least that rate.
 */
#ifndef LSK_BENCH_GEN_SEARCH_H
#define LSK_BENCH_GEN_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "gen.h"

#define GEN_SEARCH_MAX_SIZES 16
#define GEN_MAX_TRIALS 4096		/* a whole run, every size */
#define GEN_SEARCH_MAX_STEPS 64		/* trials of one binary search */
#define GEN_LAT_POINTS 4		/* minimal load, 10, 50, 90 % */

enum gen_search_kind {
	GEN_SEARCH_NDR,			/* NDR, then PDR above it */
	GEN_SEARCH_PDR,			/* PDR alone */
	GEN_SEARCH_MRR,			/* MRR alone */
};

/* What a trial was for. */
enum gen_phase {
	GEN_PHASE_MRR,
	GEN_PHASE_NDR,
	GEN_PHASE_PDR,
	GEN_PHASE_VERIFY_NDR,
	GEN_PHASE_VERIFY_PDR,
	GEN_PHASE_LATENCY,
};

/* A trial's verdict under its phase's loss criterion. */
enum gen_verdict {
	GEN_VERDICT_NONE,		/* not judged (MRR, latency) */
	GEN_VERDICT_PASS,
	GEN_VERDICT_FAIL,
	GEN_VERDICT_LIMITED,		/* the generator could not offer it,
					 * and frames were lost: nothing is
					 * known of the device */
	GEN_VERDICT_LIMITED_PASS,	/* the generator could not offer it;
					 * the device passed at what it did
					 * offer (offered_pps) */
};

/* Who set a result's upper end. */
enum gen_limit {
	GEN_LIMIT_NONE,			/* not measured */
	GEN_LIMIT_DEVICE,		/* a trial just above it lost */
	GEN_LIMIT_GENERATOR,		/* the generator could not go higher */
	GEN_LIMIT_MAX_RATE,		/* it passed at --max-rate itself */
};

struct gen_search_trial;

struct gen_search_params {
	enum gen_search_kind kind;
	uint16_t sizes[GEN_SEARCH_MAX_SIZES];	/* frame sizes, GEN_SIZE_IMIX */
	unsigned int n_sizes;
	uint32_t flows;
	double trial_seconds;
	double max_rate_pps;		/* 0: from the MRR trial's offer */
	double min_rate_pps;		/* the low bound, assumed to pass */
	double resolution;		/* pps, or a share of the high bound
					 * when resolution_is_share */
	bool resolution_is_share;
	double pdr_loss;		/* 0 .. 1 */
	bool verify;			/* a final trial at the found rate */
	double latency_seconds;		/* 0: no latency trials */
	double latency_min_pps;		/* the minimal load */
	/* called after every trial, for progress output; may be NULL */
	void (*progress)(void *arg, const struct gen_search_trial *t);
	void *progress_arg;
};

struct gen_search_trial {
	unsigned int index;
	uint16_t size;
	enum gen_phase phase;
	enum gen_verdict verdict;
	double share;			/* latency: share of the NDR, 0 for
					 * the minimal load */
	struct gen_trial_result res;
};

/* One search's result. trial and fail_trial index run->trials, -1 for
 * none. */
struct gen_rate_result {
	double rate_pps;		/* the passing trial's rate: asked, or
					 * offered when the generator fell
					 * short (limited-pass) */
	double loss_ratio;		/* of that trial */
	int trial;			/* the passing trial */
	int fail_trial;			/* the lowest trial above it that
					 * failed or was generator-limited */
	enum gen_limit limit;
	bool verified;			/* a verification trial passed */
};

struct gen_latency_point {
	double share;			/* of the NDR; 0 = minimal load */
	double rate_pps;
	int trial;			/* -1: not run */
};

struct gen_size_result {
	uint16_t size;
	int mrr_trial;
	double mrr_pps;			/* received at full load */
	enum gen_limit mrr_limit;
	double high_pps;		/* the search's high bound */
	struct gen_rate_result ndr, pdr;
	struct gen_latency_point lat[GEN_LAT_POINTS];
	unsigned int n_lat;
};

struct gen_search_run {
	struct gen_search_params params;
	struct gen_search_trial *trials;
	unsigned int n_trials, cap_trials;
	struct gen_size_result sizes[GEN_SEARCH_MAX_SIZES];
	unsigned int n_sizes;
	int error;			/* the trial fn's, or -E2BIG */
};

/* Defaults: NDR, 64 and 1518 and IMIX, 1 flow, 1 s trials, 0.5 % of the
 * high bound, 0.5 % PDR loss, verification, latency trials of 1 s, 10
 * kpps minimal load. */
void gen_search_defaults(struct gen_search_params *p);

/*
 * Run every size's search. Returns 0, or a negative errno when a trial
 * failed (run holds what was done until then). Free with
 * gen_search_free.
 */
int gen_search_run(const struct gen_search_params *p, gen_trial_fn fn,
		   void *ctx, struct gen_search_run *run);
void gen_search_free(struct gen_search_run *run);

const char *gen_phase_name(enum gen_phase ph);
const char *gen_verdict_name(enum gen_verdict v);
const char *gen_limit_name(enum gen_limit l);
const char *gen_search_kind_name(enum gen_search_kind k);

/* Mean frame size with FCS (IMIX: 353.8). */
double gen_size_mean(uint16_t size);
/* "64", "imix": buf of at least 8 bytes. */
const char *gen_size_text(uint16_t size, char *buf, unsigned int len);
/* Bits per second at pps on the wire (with 20 B preamble and gap per
 * frame) and in the frames (L2, FCS counted). */
double gen_l1_bps(uint16_t size, double pps);
double gen_l2_bps(uint16_t size, double pps);

#endif /* LSK_BENCH_GEN_SEARCH_H */
