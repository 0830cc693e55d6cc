/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench --generate: the bench as its own packet generator.
 *
 *   listack-bench [EAL options with ports] -- --generate
 *       [--rate PPS|5M|500k|N% --max-rate PPS] [--size N|imix]
 *       [--flows F] [--routes R] [--ip6] [--seconds S] [--json FILE]
 *       [--tx-port N] [--rx-port N] [--dst-mac MAC] [--drain S]
 *       [--wait S] [--dut-config FILE] [--linger S]
 *       [--ab A,B [--pairs N] [--between CMD]]
 *
 * The ports come from the EAL command line: here memif servers
 * (--vdev net_memif0,role=server,socket=/tmp/x-0.sock), in a lab a NIC
 * cabled to the device under test. Frames go out of --tx-port (default
 * 0) and come back on --rx-port (default 1; 0 with a single port). The
 * listack configuration that makes listack-fwd the device under test is
 * printed first (and written to --dut-config FILE).
 *
 * Options are parsed into struct gen_opts; a run is trials through a
 * gen_trial_fn (gen_trial_run over the ports here): a search adds its
 * options to longopts and its branch in gen_main.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "../bench.h"
#include "gen_frames.h"
#include "gen_main.h"
#include "gen_result.h"
#include "gen_trial.h"
#include "search_cli.h"

#define EXIT_FAIL 1
#define EXIT_USAGE 2

static void
gen_on_signal(int sig)
{
	(void)sig;
	bench_signalled = 1;
}

static void
gen_usage(void)
{
	fprintf(stderr,
		"usage: listack-bench [EAL options with ports] -- --generate\n"
		"         [--rate PPS|5M|500k|N%% --max-rate PPS] "
		"[--size N|imix] [--flows F]\n"
		"         [--routes R] [--ip6] [--seconds S] [--json FILE] "
		"[--tx-port N] [--rx-port N]\n"
		"         [--dst-mac MAC] [--drain S] [--wait S] "
		"[--dut-config FILE] [--linger S]\n"
		"         [--ab A,B [--pairs N] [--between CMD]]\n"
		"--rate 0 (the default): as fast as the generator can; "
		"sizes 64..1518 count the FCS\n"
		"ports: e.g. --vdev net_memif0,role=server,"
		"socket=/tmp/gen-0.sock --vdev net_memif1,\n"
		"  role=server,socket=/tmp/gen-1.sock (the device under "
		"test as role=client)\n"
		"--ab A,B: N pairs (--pairs, default 10) of trials A then B, "
		"CMD run before each\n"
		"  with {} the trial's variant; rate default 10%% of the NDR "
		"(--max-rate, else searched)\n");
}

static int
parse_double(const char *opt, const char *s, double min, double max,
	     double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !(v >= min) || v > max) {
		fprintf(stderr, "%s: '%s' is not a number from %g to %g\n",
			opt, s, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* PPS, with k, M or G; or N% (of --max-rate, resolved later). */
static int
parse_rate(const char *s, double *pps, double *share)
{
	char *end;
	double v, mul = 1;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0))
		goto bad;
	if (strcmp(end, "%") == 0) {
		if (v <= 0 || v > 100)
			goto bad;
		*share = v / 100;
		*pps = 0;
		return 0;
	}
	if (strcmp(end, "k") == 0 || strcmp(end, "K") == 0)
		mul = 1e3;
	else if (strcmp(end, "M") == 0)
		mul = 1e6;
	else if (strcmp(end, "G") == 0)
		mul = 1e9;
	else if (*end != '\0')
		goto bad;
	if (v * mul > 1e9)
		goto bad;
	*pps = v * mul;
	*share = 0;
	return 0;
bad:
	fprintf(stderr, "--rate: '%s' is not a rate (PPS, 500k, 5M, or N%% "
		"of --max-rate, 0 < N <= 100)\n", s);
	return -EINVAL;
}

static int
parse_size(const char *s, uint16_t *out)
{
	double v;

	if (strcmp(s, "imix") == 0) {
		*out = GEN_SIZE_IMIX;
		return 0;
	}
	if (parse_double("--size", s, GEN_MIN_SIZE, GEN_MAX_SIZE, &v) < 0 ||
	    v != floor(v))
		return -EINVAL;
	*out = (uint16_t)v;
	return 0;
}

int
gen_opts_parse(int argc, char **argv, struct gen_opts *o)
{
	static const struct option longopts[] = {
		{ "generate", no_argument, NULL, 'g' },
		{ "rate", required_argument, NULL, 'r' },
		{ "max-rate", required_argument, NULL, 'M' },
		{ "size", required_argument, NULL, 'z' },
		{ "flows", required_argument, NULL, 'f' },
		{ "routes", required_argument, NULL, 'R' },
		{ "ip6", no_argument, NULL, '6' },
		{ "seconds", required_argument, NULL, 't' },
		{ "json", required_argument, NULL, 'j' },
		{ "tx-port", required_argument, NULL, 'T' },
		{ "rx-port", required_argument, NULL, 'X' },
		{ "dst-mac", required_argument, NULL, 'm' },
		{ "drain", required_argument, NULL, 'd' },
		{ "wait", required_argument, NULL, 'w' },
		{ "linger", required_argument, NULL, 'L' },
		{ "dut-config", required_argument, NULL, 'C' },
		{ "ab", required_argument, NULL, 'A' },
		{ "pairs", required_argument, NULL, 'P' },
		{ "between", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool rx_given = false, size_given = false;
	double v;
	int c;

	memset(o, 0, sizeof(*o));
	o->req.rate_pps = 0;
	o->req.seconds = 1.0;
	o->req.size = 64;
	o->req.flows = 1;
	o->ports.tx_port = 0;
	o->ports.rx_port = 1;
	o->ports.routes = 1;
	o->ports.drain_s = 0.2;
	o->ports.link_wait_s = 30;
	o->wait_s = 30;
	/* traffic.c's port 0 MAC, which the printed configuration sets */
	rte_ether_unformat_addr("02:00:00:00:00:01", &o->ports.dst_mac);
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'g':
			break;
		case 'r':
			if (parse_rate(optarg, &o->req.rate_pps,
				       &o->rate_share) < 0)
				return -EINVAL;
			o->rate_given = true;
			break;
		case 'A':
			if (gen_ab_parse_names(optarg, o->ab_names) < 0) {
				fprintf(stderr, "--ab: '%s' is not two "
					"different names A,B (letters, digits, "
					"-_.)\n", optarg);
				return -EINVAL;
			}
			o->ab = true;
			break;
		case 'P':
			if (parse_double("--pairs", optarg, 1,
					 GEN_AB_MAX_PAIRS, &v) < 0 ||
			    v != floor(v))
				return -EINVAL;
			o->pairs = (unsigned int)v;
			break;
		case 'B':
			o->between = optarg;
			break;
		case 'M':
			if (parse_rate(optarg, &o->max_rate_pps, &v) < 0 ||
			    v != 0 || o->max_rate_pps <= 0) {
				fprintf(stderr, "--max-rate: a rate in PPS\n");
				return -EINVAL;
			}
			break;
		case 'z':
			if (parse_size(optarg, &o->req.size) < 0)
				return -EINVAL;
			size_given = true;
			break;
		case 'f':
			if (parse_double("--flows", optarg, 1, GEN_MAX_FLOWS,
					 &v) < 0 || v != floor(v))
				return -EINVAL;
			o->req.flows = (uint32_t)v;
			break;
		case '6':
			o->ports.ip6 = true;
			break;
		case 'R':
			if (parse_double("--routes", optarg, 1, 4096, &v) < 0
			    || v != floor(v))
				return -EINVAL;
			o->ports.routes = (uint32_t)v;
			break;
		case 't':
			if (parse_double("--seconds", optarg, 0.001, 3600,
					 &o->req.seconds) < 0)
				return -EINVAL;
			break;
		case 'j':
			o->json = optarg;
			break;
		case 'T':
		case 'X':
			if (parse_double(c == 'T' ? "--tx-port" : "--rx-port",
					 optarg, 0, RTE_MAX_ETHPORTS - 1, &v) < 0
			    || v != floor(v))
				return -EINVAL;
			if (c == 'T') {
				o->ports.tx_port = (uint16_t)v;
			} else {
				o->ports.rx_port = (uint16_t)v;
				rx_given = true;
			}
			break;
		case 'm':
			if (rte_ether_unformat_addr(optarg,
						    &o->ports.dst_mac) < 0) {
				fprintf(stderr, "--dst-mac: '%s' is not a "
					"MAC address\n", optarg);
				return -EINVAL;
			}
			break;
		case 'd':
			if (parse_double("--drain", optarg, 0.001, 60,
					 &o->ports.drain_s) < 0)
				return -EINVAL;
			break;
		case 'w':
			if (parse_double("--wait", optarg, 0, 3600,
					 &o->wait_s) < 0)
				return -EINVAL;
			o->ports.link_wait_s = o->wait_s > 30 ? o->wait_s : 30;
			break;
		case 'C':
			o->dut_config = optarg;
			break;
		case 'L':
			if (parse_double("--linger", optarg, 0, 3600,
					 &o->linger_s) < 0)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "--generate: unexpected '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (o->ports.ip6 && !size_given)
		o->req.size = GEN_MIN_SIZE6;
	if (o->ports.ip6 && (o->req.size == GEN_SIZE_IMIX ||
			     o->req.size < GEN_MIN_SIZE6)) {
		fprintf(stderr, "--ip6: frames of %u bytes at least (the stamp "
			"behind Ethernet, IPv6 and UDP), no imix\n",
			GEN_MIN_SIZE6);
		return -EINVAL;
	}
	if (!o->ab && (o->pairs != 0 || o->between != NULL)) {
		fprintf(stderr, "--pairs and --between go with --ab A,B\n");
		return -EINVAL;
	}
	if (o->ab) {
		if (o->pairs == 0)
			o->pairs = 10;
		if (!o->rate_given)
			o->rate_share = 0.10;
		if (o->req.rate_pps <= 0 && o->rate_share <= 0) {
			fprintf(stderr, "--ab: a rate (PPS or N%%), not 0\n");
			return -EINVAL;
		}
	}
	/* --ab finds the NDR itself when --max-rate does not give it */
	if (o->rate_share > 0 && !(o->ab && o->max_rate_pps <= 0)) {
		if (o->max_rate_pps <= 0) {
			fprintf(stderr, "--rate N%%: give --max-rate PPS (the "
				"100 %%)\n");
			return -EINVAL;
		}
		o->req.rate_pps = o->rate_share * o->max_rate_pps;
	}
	if (!rx_given && rte_eth_dev_count_avail() == 1)
		o->ports.rx_port = o->ports.tx_port;
	return 0;
}

int
gen_run_single(const struct gen_opts *o, gen_trial_fn fn, void *ctx)
{
	struct gen_trial_result res;
	int rc;

	rc = fn(ctx, &o->req, &res);
	if (rc < 0) {
		fprintf(stderr, "trial: %s\n", strerror(-rc));
		return EXIT_FAIL;
	}
	gen_result_header(stdout);
	gen_result_line(stdout, &res);
	gen_result_warn(stderr, &res);
	printf("sent %" PRIu64 " refused %" PRIu64 " received %" PRIu64
	       " lost %" PRIu64 " reordered %" PRIu64 " duplicates %" PRIu64
	       " late %" PRIu64 " foreign %" PRIu64 " (stale %" PRIu64 ")\n",
	       res.sent, res.refused, res.received, res.lost, res.reordered,
	       res.duplicates, res.late, res.foreign, res.stale);
	printf("flows with loss %" PRIu64 " of %u (at most %" PRIu64
	       " frames in one)\n", res.flows_with_loss, res.req.flows,
	       res.max_flow_loss);
	printf("latency_ns samples %" PRIu64 " min %.0f mean %.0f p50 %.0f "
	       "p90 %.0f p99 %.0f p99.9 %.0f max %.0f\n",
	       res.latency.samples, res.latency.min_ns, res.latency.mean_ns,
	       res.latency.p50_ns, res.latency.p90_ns, res.latency.p99_ns,
	       res.latency.p999_ns, res.latency.max_ns);
	if (o->json != NULL) {
		FILE *f = fopen(o->json, "w");

		if (f == NULL) {
			fprintf(stderr, "--json %s: %s\n", o->json,
				strerror(errno));
			return EXIT_FAIL;
		}
		fprintf(f, "{\"mode\": \"trial\", \"trials\": [");
		gen_result_json(f, &res);
		fprintf(f, "]}\n");
		if (fclose(f) != 0) {
			fprintf(stderr, "--json %s: %s\n", o->json,
				strerror(errno));
			return EXIT_FAIL;
		}
	}
	return 0;
}

static int
write_dut_config(const struct gen_ctx *c, const char *path)
{
	FILE *f;

	gen_print_dut_config(c, stdout);
	if (path == NULL)
		return 0;
	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "--dut-config %s: %s\n", path, strerror(errno));
		return -errno;
	}
	gen_print_dut_config(c, f);
	return fclose(f) == 0 ? 0 : -EIO;
}

/*
 * --linger S: keep the ports up (sleeping) for S seconds after the last
 * trial, or until SIGINT/SIGTERM, so that a script can stop the device
 * under test first: a memif client whose server goes away while it polls
 * may fault in the PMD.
 */
static void
linger(double seconds)
{
	unsigned int ms = (unsigned int)(seconds * 1000), t;

	if (ms == 0)
		return;
	printf("generator: done; ports up for %.1f s more (SIGTERM ends "
	       "this)\n", seconds);
	fflush(stdout);
	for (t = 0; t < ms && !bench_signalled; t += 10)
		bench_sleep_ms(10);
}

static int
gen_main(int argc, char **argv)
{
	static struct gen_ctx ctx;	/* the histogram: not on the stack */
	struct gen_search_opts so;
	struct gen_opts o;
	int rc, status;

	/* the searches' options (search_cli.h) first; ours are the rest */
	gen_search_opts_init(&so);
	argc = gen_search_take_opts(argc, argv, &so);
	if (argc < 0 || gen_opts_parse(argc, argv, &o) < 0) {
		gen_usage();
		gen_search_usage(stderr);
		return EXIT_USAGE;
	}
	if (so.search_given && o.ab) {
		fprintf(stderr, "--generate: --ab runs its own trials (and an "
			"NDR search if --max-rate does not give the NDR), not "
			"--search\n");
		return EXIT_USAGE;
	}
	if (so.any_given && !so.search_given && !o.ab) {
		fprintf(stderr, "--generate: the search options need --search "
			"ndr|pdr|mrr\n");
		return EXIT_USAGE;
	}
	if (so.search_given && (o.req.rate_pps > 0 || o.rate_share > 0)) {
		fprintf(stderr, "--generate: --rate is the single trial's; a "
			"search chooses its rates (--max-rate, --min-rate)\n");
		return EXIT_USAGE;
	}
	signal(SIGINT, gen_on_signal);
	signal(SIGTERM, gen_on_signal);
	rc = gen_open(&ctx, &o.ports);
	if (rc < 0)
		return rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	if (write_dut_config(&ctx, o.dut_config) < 0) {
		gen_close(&ctx);
		return EXIT_FAIL;
	}
	fflush(stdout);
	rc = gen_wait_links(&ctx);
	if (rc < 0) {
		gen_close(&ctx);
		return EXIT_FAIL;
	}
	if (o.wait_s > 0) {
		rc = gen_wait_dut(&ctx, o.wait_s);
		if (rc < 0) {
			fprintf(stderr, "--generate: nothing came back in "
				"%.0f s: %s (is the device under test "
				"forwarding? see the configuration above)\n",
				o.wait_s, strerror(-rc));
			gen_close(&ctx);
			return EXIT_FAIL;
		}
	}
	if (o.ab)
		status = gen_ab_main(&o, &so, gen_trial_run, &ctx);
	else if (so.search_given)
		status = gen_search_main(&so, o.req.flows, o.json,
					 gen_trial_run, &ctx);
	else
		status = gen_run_single(&o, gen_trial_run, &ctx);
	linger(o.linger_s);
	gen_close(&ctx);
	return status;
}

bool
gen_dispatch(int argc, char **argv, int *status)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--generate") == 0) {
			*status = gen_main(argc, argv);
			return true;
		}
		if (strcmp(argv[i], "--impair") == 0 ||
		    strncmp(argv[i], "--impair=", 9) == 0) {
			*status = gen_impair_main(argc, argv);
			return true;
		}
	}
	return false;
}
