/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line of the searches and their output, for --generate:
 *
 *   --search ndr|pdr|mrr   ndr: NDR, then the PDR above it; pdr: the PDR
 *                          alone; mrr: one trial at full load per size
 *   --sizes LIST           64 .. 1518 and imix, comma separated
 *                          (default 64,1518,imix)
 *   --trial S              trial length (default 1)
 *   --resolution X         pps, or X% of the high bound (default 0.5%)
 *   --max-rate PPS         the high bound (default: what the generator
 *                          offered in an MRR trial); k and M suffixes;
 *                          left in argv too, for --rate N% of it
 *   --min-rate PPS         the low bound, taken to pass (default 0)
 *   --pdr-loss PCT         the PDR's loss, percent (default 0.5)
 *   --no-verify            no final trial at the found rate
 *   --latency-seconds S    latency trials' length (default 1; 0: none)
 *   --latency-min-rate PPS the minimal load (default 10k)
 *   --device NAME          the device's name in the table, JSON, plot
 *   --plot FILE.svg        the plot
 *
 * and, without EAL and without ports, the merge of several results:
 *
 *   listack-bench --from A.json,B.json,... [--plot FILE.svg]
 *                 [--table-md FILE]
 *
 * draws every file's device in one plot and writes one markdown table
 * (to stdout without --table-md).
 */
#ifndef LSK_BENCH_GEN_SEARCH_CLI_H
#define LSK_BENCH_GEN_SEARCH_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "search.h"

struct gen_search_opts {
	struct gen_search_params params;
	const char *device;
	const char *plot;
	bool search_given;		/* --search */
	bool any_given;			/* any option of these */
};

void gen_search_opts_init(struct gen_search_opts *o);

/*
 * Take the options above out of argv[1 .. argc-1] (argv is compacted,
 * argv[0] stays), leaving the others for the caller's parser. The new
 * argc, or -EINVAL (the reason on stderr).
 */
int gen_search_take_opts(int argc, char **argv, struct gen_search_opts *o);
void gen_search_usage(FILE *f);

/*
 * --search: run the searches through fn (progress lines on stdout), then
 * gen_search_output. flows: --flows. The exit code: 0, 1 (a trial failed
 * or an output could not be written: what was measured is still
 * reported), 2 (search options without --search).
 */
int gen_search_main(struct gen_search_opts *o, uint32_t flows,
		    const char *json, gen_trial_fn fn, void *ctx);

/*
 * After a run: the table on stdout, --json FILE (json may be NULL) and
 * --plot. 0 or a negative errno.
 */
int gen_search_output(const struct gen_search_opts *o,
		      const struct gen_search_run *run, const char *json);

/* Is there a --from among argv (the merge mode, before any EAL)? */
bool gen_merge_wanted(int argc, char **argv);
/* The merge mode; the process's exit code (0, 1 failed, 2 usage). */
int gen_merge_main(int argc, char **argv);

#endif /* LSK_BENCH_GEN_SEARCH_CLI_H */
