/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --generate --ab A,B: the paired A/B latency comparison (ab.h) over the
 * generator's ports, the device switched between trials by a command:
 *
 *   --ab A,B        the variants' names (e.g. list,single)
 *   --pairs N       pairs of trials (default 10)
 *   --between CMD   run by /bin/sh before each trial, every {} replaced
 *                   by the trial's variant (e.g. "listack-ctl -s S mode
 *                   {}"); a non-zero exit stops the run
 *   --rate          as for one trial; default 10 % of the NDR: --max-rate
 *                   PPS gives the NDR, else a short NDR search in variant
 *                   A finds it first (--trial, --resolution; 0.2 s and
 *                   2 % unless given)
 *   --seconds S     each trial's sending time
 *
 * The ports stay up across every trial (no generator restart: DPDK
 * 22.11's memif may fault in a peer whose other side leaves).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>

#include "ab.h"
#include "gen_main.h"
#include "gen_report.h"
#include "gen_result.h"
#include "search_cli.h"

#define EXIT_FAIL 1

#define AB_CMD_MAX 4096

/* cmd with each {} replaced by name, into buf. 0 or -E2BIG. */
static int
ab_expand(const char *cmd, const char *name, char *buf, size_t len)
{
	size_t n = 0, nl = strlen(name);
	const char *p;

	for (p = cmd; *p != '\0'; p++) {
		if (p[0] == '{' && p[1] == '}') {
			if (n + nl >= len)
				return -E2BIG;
			memcpy(buf + n, name, nl);
			n += nl;
			p++;
			continue;
		}
		if (n + 1 >= len)
			return -E2BIG;
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return 0;
}

static int
ab_between(void *arg, unsigned int v, const char *name)
{
	const char *cmd = arg;
	char buf[AB_CMD_MAX];
	int st;

	(void)v;
	if (ab_expand(cmd, name, buf, sizeof(buf)) < 0) {
		fprintf(stderr, "--between: the command is too long\n");
		return -E2BIG;
	}
	fflush(stdout);
	st = system(buf);
	if (st == -1) {
		fprintf(stderr, "--between: cannot run '%s': %s\n", buf,
			strerror(errno));
		return -errno;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "--between: '%s' failed (%s %d)\n", buf,
			WIFEXITED(st) ? "exit" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return -EIO;
	}
	return 0;
}

static void
ab_progress(void *arg, unsigned int pair, unsigned int v,
	    const struct gen_trial_result *r)
{
	const struct gen_ab_params *p = arg;

	printf("%-5u %-8s %8.3f  ", pair, p->names[v],
	       r->latency.mean_ns / 1e3);
	gen_result_line(stdout, r);
	gen_result_warn(stderr, r);
	fflush(stdout);
}

static void
ab_search_trial(void *arg, const struct gen_search_trial *t)
{
	gen_report_trial_line(arg, t);
	fflush(arg);
}

/* The NDR at --size in variant A, by a short search. */
static int
ab_find_ndr(const struct gen_opts *o, const struct gen_search_opts *so,
	    const struct gen_ab_params *ab, gen_trial_fn fn, void *ctx,
	    double *ndr)
{
	struct gen_search_params sp = so->params, def;
	struct gen_search_run run;
	int rc;

	gen_search_defaults(&def);
	if (sp.trial_seconds == def.trial_seconds)
		sp.trial_seconds = 0.2;
	if (sp.resolution == def.resolution &&
	    sp.resolution_is_share == def.resolution_is_share)
		sp.resolution = 0.02;
	sp.kind = GEN_SEARCH_NDR;
	sp.sizes[0] = o->req.size;
	sp.n_sizes = 1;
	sp.flows = o->req.flows;
	sp.latency_seconds = 0;
	sp.progress = ab_search_trial;
	sp.progress_arg = stdout;
	if (ab->between != NULL) {
		rc = ab->between(ab->between_arg, 0, ab->names[0]);
		if (rc < 0)
			return rc;
	}
	printf("ab: the NDR of %s at this size first (%.2f s trials)\n",
	       ab->names[0], sp.trial_seconds);
	rc = gen_search_run(&sp, fn, ctx, &run);
	if (rc == 0 && run.sizes[0].ndr.trial < 0)
		rc = -ENOENT;
	if (rc == 0)
		*ndr = run.sizes[0].ndr.rate_pps;
	else
		fprintf(stderr, "--ab: no NDR found (%s): give --rate PPS or "
			"--max-rate NDR\n", strerror(-rc));
	gen_search_free(&run);
	return rc;
}

int
gen_ab_main(const struct gen_opts *o, const struct gen_search_opts *so,
	    gen_trial_fn fn, void *ctx)
{
	struct gen_ab_rate_info info = { .ndr_from = "none",
					 .device = so->device };
	struct gen_ab_params p;
	struct gen_ab_run run;
	int rc;

	memset(&p, 0, sizeof(p));
	memcpy(p.names, o->ab_names, sizeof(p.names));
	p.pairs = o->pairs;
	p.req = o->req;
	if (o->between != NULL) {
		p.between = ab_between;
		p.between_arg = (void *)(uintptr_t)o->between;
	}
	p.progress = ab_progress;
	p.progress_arg = &p;
	if (o->rate_share > 0) {
		info.share = o->rate_share;
		if (o->max_rate_pps > 0) {
			info.ndr_pps = o->max_rate_pps;
			info.ndr_from = "given";
		} else {
			rc = ab_find_ndr(o, so, &p, fn, ctx, &info.ndr_pps);
			if (rc < 0)
				return EXIT_FAIL;
			info.ndr_from = "search";
		}
		p.req.rate_pps = info.share * info.ndr_pps;
		printf("ab: %.0f pps, %.0f %% of the NDR %.0f pps (%s)\n",
		       p.req.rate_pps, info.share * 100, info.ndr_pps,
		       info.ndr_from);
	}
	printf("ab: %u pairs of %s then %s, %.2f s each\n", p.pairs,
	       p.names[0], p.names[1], p.req.seconds);
	printf("%-5s %-8s %8s  ", "pair", "variant", "mean_us");
	gen_result_header(stdout);
	rc = gen_ab_run(&p, fn, ctx, &run);
	if (rc < 0)
		fprintf(stderr, "--ab: stopped after %u pairs: %s\n",
			run.n_pairs, strerror(-rc));
	gen_ab_table(stdout, &run);
	if (o->json != NULL && gen_ab_json(o->json, &run, &info) < 0)
		rc = -EIO;
	gen_ab_free(&run);
	return rc < 0 ? EXIT_FAIL : 0;
}
