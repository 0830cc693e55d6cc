/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench --generate and --impair: the entry points main.c hands
 * the command line to (the arguments after EAL's), their options, and
 * what runs the trials.
 */
#ifndef LSK_BENCH_GEN_MAIN_H
#define LSK_BENCH_GEN_MAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "ab.h"
#include "gen.h"
#include "gen_trial.h"

struct gen_opts {
	struct gen_trial_request req;	/* the single trial's */
	double max_rate_pps;		/* --max-rate: 100 % of --rate N% */
	double rate_share;		/* --rate N%: N / 100; 0 = not given */
	struct gen_port_params ports;
	const char *json;		/* --json FILE */
	const char *dut_config;		/* --dut-config FILE */
	double wait_s;			/* --wait: for the DUT to forward */
	double linger_s;		/* --linger: ports kept up after */
	bool rate_given;		/* --rate */
	/* --ab A,B: paired trials instead of one (gen_ab_main.c) */
	bool ab;
	char ab_names[2][GEN_AB_NAME_LEN];
	unsigned int pairs;		/* --pairs */
	const char *between;		/* --between CMD */
};

/* Is this a generator (--generate) or impairing device (--impair)
 * command line? Then run it and put its exit status in *status. */
bool gen_dispatch(int argc, char **argv, int *status);

/* Parse --generate's options into o (defaults first). 0 or -EINVAL
 * (said on stderr). */
int gen_opts_parse(int argc, char **argv, struct gen_opts *o);

/* Run the single trial of o through fn: a table line, a warning if it
 * measured the generator, --json FILE. Returns 0, 1 (failed). */
int gen_run_single(const struct gen_opts *o, gen_trial_fn fn, void *ctx);

/* --ab: the A/B pairs of o through fn, the NDR searched with so's
 * options if it is needed and not given (gen_ab_main.c). 0 or 1. */
struct gen_search_opts;
int gen_ab_main(const struct gen_opts *o, const struct gen_search_opts *so,
		gen_trial_fn fn, void *ctx);

/* --impair: the impairing device under test (gen_impair.c). */
int gen_impair_main(int argc, char **argv);

#endif /* LSK_BENCH_GEN_MAIN_H */
