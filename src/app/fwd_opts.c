/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd's options (src/app/fwd_opts.h): each checked as it comes,
 * its error said on stderr in the words of docs/operating.md ("Running
 * listack-fwd") and the integration tests.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_version.h>

#include "listack/ctl.h"
#include "lsk_version.h"
#include "fwd.h"
#include "fwd_opts.h"

void
fwd_usage(const char *prog, FILE *f, bool all)
{
	fprintf(f,
		"usage: %s [EAL options] -- --config FILE [--mode list|single]\n"
		"          [--stats-json FILE] [--stats-interval SECONDS]"
		" [--idle-exit MS]\n"
		"          [--ctl-socket PATH|none] [--mbufs N] [--mbuf-size BYTES]"
		"\n          [--metrics ADDR:PORT] [--rx-burst N]"
		" [--allow-empty-config]\n"
		"       %s --version | --help | --eal-help\n", prog, prog);
	if (!all) {
		fprintf(f, "  --ctl-socket: the control socket listack-ctl talks "
			"to (default %s)\n", LSK_CTL_DEFAULT_PATH);
		return;
	}
	fprintf(f,
		"\nEAL options (before --) choose the lcores and the ports "
		"(-l, --vdev, -a);\n%s --eal-help lists them.\n\n"
		"  --config FILE          the configuration: control commands, "
		"one a line\n"
		"  --mode list|single     packets through the stages as lists "
		"(default), or one\n                         by one (the "
		"baseline)\n"
		"  --stats-json FILE      the counters as JSON, written at exit\n"
		"  --stats-interval S     a line of rates every S seconds\n"
		"  --idle-exit MS         stop once no port received for MS ms\n"
		"  --ctl-socket PATH|none the control socket listack-ctl talks "
		"to\n                         (default %s)\n"
		"  --mbufs N              mbufs in each pool (default: sized "
		"from the ports)\n"
		"  --mbuf-size BYTES      bytes of data an mbuf holds "
		"(default 2048)\n"
		"  --metrics ADDR:PORT    serve the counters as Prometheus "
		"metrics over HTTP\n"
		"  --rx-burst N           frames asked of an RX queue per poll "
		"(default %u)\n"
		"  --allow-empty-config   start on an empty or missing --config "
		"file\n"
		"  --version              the version, and DPDK's\n",
		prog, LSK_CTL_DEFAULT_PATH, FWD_BURST_DEFAULT);
}

int
fwd_early_opts(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			printf("listack-fwd %s (%s)\n", LSK_VERSION,
			       rte_version());
			return 1;
		}
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			fwd_usage(argv[0], stdout, true);
			return 1;
		}
		/* EAL prints its own usage and exits */
		if (strcmp(argv[i], "--eal-help") == 0)
			argv[i] = (char *)"--help";
	}
	return 0;
}

/* --metrics ADDR:PORT, [ADDR]:PORT for IPv6; the address is checked when
 * it is served. */
static int
parse_metrics(const char *arg, struct fwd_opts *o)
{
	const char *colon = strrchr(arg, ':'), *a = arg;
	size_t alen;
	unsigned long port;
	char *end;

	if (colon == NULL || colon[1] < '0' || colon[1] > '9')
		return -EINVAL;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end != '\0' || port > 65535)
		return -EINVAL;
	alen = (size_t)(colon - arg);
	if (alen >= 2 && arg[0] == '[' && arg[alen - 1] == ']') {
		a++;
		alen -= 2;
	}
	if (alen == 0 || alen >= sizeof(o->metrics_addr))
		return -EINVAL;
	memcpy(o->metrics_addr, a, alen);
	o->metrics_addr[alen] = '\0';
	o->metrics_port = (uint16_t)port;
	return 0;
}

/* --mbufs N, --rx-burst N, --mbuf-size BYTES: a count of what, from min
 * to max. */
static int
parse_range(const char *opt, const char *arg, const char *what,
	    unsigned int min, unsigned int max, unsigned int *out)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || *end != '\0' || arg[0] < '0' || arg[0] > '9' || n < min ||
	    n > max) {
		fprintf(stderr, "%s: '%s' is not a number of %s (%u-%u)\n", opt,
			arg, what, min, max);
		return -EINVAL;
	}
	*out = (unsigned int)n;
	return 0;
}

static int
parse_count(const char *opt, const char *arg, const char *what,
	    unsigned int max, unsigned int *out)
{
	return parse_range(opt, arg, what, 1, max, out);
}

static int
parse_mode(const char *arg, struct fwd_opts *o)
{
	if (strcmp(arg, "list") == 0)
		o->mode = LSK_MODE_LIST;
	else if (strcmp(arg, "single") == 0)
		o->mode = LSK_MODE_SINGLE;
	else {
		fprintf(stderr, "--mode: '%s' is not list or single\n", arg);
		return -EINVAL;
	}
	return 0;
}

static int
parse_interval(const char *arg, struct fwd_opts *o)
{
	char *end;

	o->stats_interval = strtod(arg, &end);
	if (*end != '\0' || o->stats_interval <= 0) {
		fprintf(stderr, "--stats-interval: '%s' is not a positive "
			"number of seconds\n", arg);
		return -EINVAL;
	}
	return 0;
}

static int
parse_idle_exit(const char *arg, struct fwd_opts *o)
{
	char *end;

	errno = 0;
	o->idle_exit_ms = strtol(arg, &end, 10);
	if (errno || *end != '\0' || o->idle_exit_ms < 0) {
		fprintf(stderr, "--idle-exit: '%s' is not a number of "
			"milliseconds\n", arg);
		return -EINVAL;
	}
	return 0;
}

static int
parse_ctl_socket(const char *arg, struct fwd_opts *o)
{
	o->ctl_explicit = true;
	o->ctl_socket = strcmp(arg, "none") == 0 ? NULL : arg;
	if (o->ctl_socket != NULL && o->ctl_socket[0] == '\0') {
		fprintf(stderr, "--ctl-socket: give a PATH or none\n");
		return -EINVAL;
	}
	return 0;
}

/* One option c with its argument arg. */
static int
parse_opt(int c, const char *arg, struct fwd_opts *o)
{
	switch (c) {
	case 'c':
		o->config = arg;
		return 0;
	case 'm':
		return parse_mode(arg, o);
	case 'j':
		o->stats_json = arg;
		return 0;
	case 'i':
		return parse_interval(arg, o);
	case 'x':
		return parse_idle_exit(arg, o);
	case 'b':
		return parse_count("--mbufs", arg, "mbufs", FWD_MBUFS_MAX,
				   &o->mbufs);
	case 'z':
		return parse_range("--mbuf-size", arg, "bytes",
				   FWD_MBUF_SIZE_MIN, FWD_MBUF_SIZE_MAX,
				   &o->mbuf_size);
	case 'r':
		return parse_count("--rx-burst", arg, "frames", FWD_BURST_MAX,
				   &o->rx_burst);
	case 's':
		return parse_ctl_socket(arg, o);
	case 'E':	/* an empty or missing --config starts empty */
		o->allow_empty_config = true;
		return 0;
	case 'M':
		if (parse_metrics(arg, o) < 0) {
			fprintf(stderr, "--metrics: '%s' is not ADDR:PORT (a "
				"numeric address, [ADDR] for IPv6)\n", arg);
			return -EINVAL;
		}
		return 0;
	default:	/* --help, or what getopt refused */
		return -EINVAL;
	}
}

int
fwd_parse_opts(int argc, char **argv, struct fwd_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ "stats-json", required_argument, NULL, 'j' },
		{ "stats-interval", required_argument, NULL, 'i' },
		{ "idle-exit", required_argument, NULL, 'x' },
		{ "mbufs", required_argument, NULL, 'b' },
		{ "mbuf-size", required_argument, NULL, 'z' },
		{ "rx-burst", required_argument, NULL, 'r' },
		{ "ctl-socket", required_argument, NULL, 's' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "allow-empty-config", no_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->mode = LSK_MODE_LIST;
	o->idle_exit_ms = -1;
	o->rx_burst = FWD_BURST_DEFAULT;
	o->ctl_socket = LSK_CTL_DEFAULT_PATH;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1)
		if (parse_opt(c, optarg, o) < 0)
			return -EINVAL;
	if (optind < argc) {
		fprintf(stderr, "unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (o->config == NULL) {
		fprintf(stderr, "--config FILE is required\n");
		return -EINVAL;
	}
	return 0;
}
