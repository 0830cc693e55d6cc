/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench: measure a scenario's variants back to back on the same
 * traffic, through a real ethdev RX path.
 *
 *   listack-bench [EAL options] -- --scenario NAME [--packets N | --seconds S]
 *       [--flows F] [--routes R] [--size BYTES] [--feed ring|pcap|ports]
 *       [--json FILE] [--warmup S] [--pcap FILE] [--config FILE]
 *       [--variant NAME[,NAME...]] [--drain main|worker] [--repeat N]
 *       [--rx-order returned|scattered] [--stats-json FILE]
 *       [--table FILE]
 *
 * With no port on the EAL command line the bench makes its own (feed ring
 * or pcap); with ports it is the device under test and measures what
 * arrives (--feed ports: one variant, forwarding until a signal, the
 * whole run's counters reported: feed_ports.c). One worker lcore runs the stack (the first worker lcore EAL
 * gives; with one lcore, pcap and dut run it on the main lcore). Per
 * variant: a new stack, new ports (ring, pcap), warm-up, the measured
 * interval, teardown, and the mbuf count, which must be 0. --repeat N runs
 * the list of variants N times over and reports medians (repeat.c).
 *
 * --generate and --impair make the bench a packet generator and its test
 * device instead (bench/gen/README.md).
 */
#define _GNU_SOURCE	/* rte_lcore_cpuset's cpu_set_t, CPU_AND */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "bench.h"
#include "feed_ports.h"
#include "table.h"
#include "gen/gen_main.h"
#include "gen/search_cli.h"
#include "listack/udp.h"

#define EXIT_FAIL 1
#define EXIT_USAGE 2

volatile sig_atomic_t bench_signalled;

static void
on_signal(int sig)
{
	(void)sig;
	bench_signalled = 1;
}

void
bench_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

void
bench_feed_idle(struct bench_feed *f, struct bench_run *run)
{
	(void)f;
	while (!__atomic_load_n(&run->done, __ATOMIC_ACQUIRE)) {
		if (bench_signalled)
			run->stop = true;
		bench_sleep_ms(5);
	}
}

void
bench_feed_free_priv(struct bench_feed *f)
{
	free(f->priv);
	f->priv = NULL;
}

void
bench_feed_check(struct bench_feed *f, const struct rte_mbuf *m,
		 uint16_t out_port)
{
	char why[200];

	if (unlikely(f->traffic->ip6 && bench_nd_upkeep(m)))
		return;		/* the stack's own ND, not our traffic */
	f->checked++;
	if (likely(bench_check_forwarded(f->traffic, m, out_port, why,
					 sizeof(why))))
		return;
	if (f->check_failures++ == 0)
		snprintf(f->first_failure, sizeof(f->first_failure),
			 "%s", why);
}

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [EAL options] -- --scenario NAME\n"
		"         [--packets N | --seconds S] [--flows F] [--routes R]"
		" [--size BYTES]\n"
		"         [--feed ring|pcap|ports] [--json FILE] [--warmup S]"
		" [--pcap FILE] [--config FILE]\n"
		"         [--variant NAME[,NAME...]] [--drain main|worker]"
		" [--repeat N]\n"
		"         [--rx-order returned|scattered] [--stats-json FILE]"
		" [--table FILE]\n"
		"--table FILE (route-churn): the routes of FILE (A.B.C.D/L "
		"lines, such as\n"
		"  bench/dut/fulltable.py prefixes) and destinations drawn "
		"over them (bench/table.h)\n"
		"--repeat N: run the variants in turn N times (A B C, A B C, "
		"...; default 1) and\n"
		"  report per variant the median Mpps and cycles/pkt, and "
		"the median of the\n"
		"  ratios to the baseline's run of the same round; every run "
		"is checked\n"
		"--rx-order (ring feed): the worker receives the mbufs in "
		"the order they came\n"
		"  back from its TX (returned, the default) or shuffled "
		"within each burst\n"
		"  (scattered: as a NIC refilled from a mempool cache may "
		"hand them out)\n"
		"--feed pcap: the traffic written to a pcap file, replayed by "
		"net_pcap (infinite_rx)\n"
		"  on the worker's lcore, whose rx_burst copies each frame "
		"into a fresh mbuf;\n"
		"  for gro-fwd and gro-adversarial an RX callback computes "
		"each frame's IPv4\n"
		"  and UDP checksums and flags them GOOD or BAD as the sfc PMD "
		"does (never GOOD\n"
		"  for a wrong one) and sets the RSS hash (Toeplitz, the ring "
		"feed's key); its\n"
		"  cycles and those of the net_null sink's tx_burst (a free "
		"per mbuf), the NIC's\n"
		"  work, are timed and shown apart\n"
		"--feed ring (default): a generator on the main lcore writes "
		"the frames into\n"
		"  mbufs on its own core; for gro-fwd and gro-adversarial it "
		"sets the checksum\n"
		"  flags GOOD and the flow's RSS hash, as sfc would\n"
		"--feed ports (ports on the EAL command line): one variant "
		"(--variant's, or the\n"
		"  baseline) forwards from the ports' start until SIGINT or "
		"SIGTERM, the\n"
		"  interval measured after --warmup from the first packet; "
		"then the whole run's\n"
		"  counters, the stack's and each port's ethdev ones "
		"(--stats-json FILE: as\n"
		"  listack-fwd writes them, plus \"ethdev\"); without "
		"--feed, ports are the dut\n"
		"  feed: every variant, each with its own start and stop\n"
		"EAL without hugepages: --no-huge --no-pci -m 1024\n"
		"as a generator (ports on the EAL command line): -- "
		"--generate --help;\n"
		"  its test device: -- --impair drop=N,swap=N,dup=N "
		"(bench/gen/README.md)\n"
		"scenarios:\n", prog);
	bench_scenarios_list(stderr);
}

static int
parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
	  uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "%s: '%s' is not a number from %" PRIu64
			" to %" PRIu64 "\n", opt, s, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* An option taking one of two (or, with third, three) words: its index. */
static int
parse_word(const char *opt, const char *s, const char *first,
	   const char *second, const char *third)
{
	if (strcmp(s, first) == 0)
		return 0;
	if (strcmp(s, second) == 0)
		return 1;
	if (third != NULL && strcmp(s, third) == 0)
		return 2;
	if (third != NULL)
		fprintf(stderr, "%s: '%s' is not %s, %s or %s\n", opt, s,
			first, second, third);
	else
		fprintf(stderr, "%s: '%s' is not %s or %s\n", opt, s, first,
			second);
	return -EINVAL;
}

/* An option taking one of two words: *second is whether it was the second. */
static int
parse_either(const char *opt, const char *s, const char *first,
	     const char *second, bool *is_second)
{
	int i = parse_word(opt, s, first, second, NULL);

	*is_second = i == 1;
	return i < 0 ? i : 0;
}

static int
parse_seconds(const char *opt, const char *s, double min, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (*end != '\0' || !(v >= min) || v > 3600) {
		fprintf(stderr, "%s: '%s' is not a number of seconds from %g "
			"to 3600\n", opt, s, min);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int
parse_opts(int argc, char **argv, struct bench_opts *o)
{
	static const struct option longopts[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "packets", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "flows", required_argument, NULL, 'f' },
		{ "routes", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 'z' },
		{ "feed", required_argument, NULL, 'F' },
		{ "json", required_argument, NULL, 'j' },
		{ "pcap", required_argument, NULL, 'p' },
		{ "config", required_argument, NULL, 'c' },
		{ "variant", required_argument, NULL, 'V' },
		{ "drain", required_argument, NULL, 'D' },
		{ "repeat", required_argument, NULL, 'R' },
		{ "rx-order", required_argument, NULL, 'O' },
		{ "stats-json", required_argument, NULL, 'S' },
		{ "table", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const enum bench_feed_kind feeds[] = {
		BENCH_FEED_RING, BENCH_FEED_PCAP, BENCH_FEED_PORTS,
	};
	bool seconds_given = false;
	uint64_t v;
	int c;

	o->seconds = 2.0;
	o->warmup = 0.3;
	o->flows = 1;
	o->routes = 1;
	o->size = 64;
	o->feed = BENCH_FEED_RING;
	o->repeat = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->scenario = optarg;
			break;
		case 'n':
			if (parse_u64("--packets", optarg, 1, UINT64_MAX / 2,
				      &o->packets) < 0)
				return -EINVAL;
			break;
		case 't':
			if (parse_seconds("--seconds", optarg, 0.01,
					  &o->seconds) < 0)
				return -EINVAL;
			seconds_given = true;
			break;
		case 'w':
			if (parse_seconds("--warmup", optarg, 0.0,
					  &o->warmup) < 0)
				return -EINVAL;
			break;
		case 'f':
			if (parse_u64("--flows", optarg, 1, 1u << 24, &v) < 0)
				return -EINVAL;
			o->flows = (uint32_t)v;
			o->flows_given = true;
			break;
		case 'r':
			if (parse_u64("--routes", optarg, 1, 1u << 20, &v) < 0)
				return -EINVAL;
			o->routes = (uint32_t)v;
			o->routes_given = true;
			break;
		case 'z':
			if (parse_u64("--size", optarg, BENCH_HDR_LEN,
				      RTE_ETHER_HDR_LEN + 1500, &v) < 0)
				return -EINVAL;
			o->size = (uint16_t)v;
			o->size_given = true;
			break;
		case 'F':
			c = parse_word("--feed", optarg, "ring", "pcap",
				       "ports");
			if (c < 0)
				return -EINVAL;
			o->feed = feeds[c];
			o->feed_given = true;
			break;
		case 'j':
			o->json = optarg;
			break;
		case 'S':
			o->stats_json = optarg;
			break;
		case 'p':
			o->pcap_path = optarg;
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'V':
			o->variants = optarg;
			break;
		case 'D':
			if (parse_either("--drain", optarg, "main", "worker",
					 &o->drain_worker) < 0)
				return -EINVAL;
			break;
		case 'T':
			o->table = optarg;
			break;
		case 'O':
			if (parse_either("--rx-order", optarg, "returned",
					 "scattered", &o->rx_scattered) < 0)
				return -EINVAL;
			break;
		case 'R':
			if (parse_u64("--repeat", optarg, 1, BENCH_MAX_REPEAT,
				      &v) < 0)
				return -EINVAL;
			o->repeat = (unsigned int)v;
			break;
		case 'h':
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (o->scenario == NULL) {
		fprintf(stderr, "--scenario NAME is required\n");
		return -EINVAL;
	}
	if (o->packets && seconds_given) {
		fprintf(stderr, "--packets and --seconds exclude each other\n");
		return -EINVAL;
	}
	return 0;
}

/* Cycles one rte_rdtsc costs here (the stack reads it per stage run). */
static double
rdtsc_cost(void)
{
	const unsigned int n = 1u << 16;
	uint64_t start, sink = 0;
	unsigned int i;

	start = rte_rdtsc();
	for (i = 0; i < n; i++)
		sink += rte_rdtsc();
	return (double)(rte_rdtsc() - start - (sink & 0)) / n;
}

/*
 * Cache-line round trip between the main lcore and the worker lcore. The
 * ring feed moves two lines of every packet between these two cores, so
 * its figures follow this latency, which the host changes when it moves
 * the vCPUs (118 to 546 cycles one way seen on the same VM).
 */
static struct {
	volatile uint64_t v;
} __rte_cache_aligned pingpong;

#define PINGPONG_ROUNDS 20000u

static int
pong(void *arg)
{
	uint64_t i;

	(void)arg;
	for (i = 1; i <= PINGPONG_ROUNDS; i++) {
		while (pingpong.v != 2 * i - 1)
			;
		pingpong.v = 2 * i;
	}
	return 0;
}

static double
core_to_core_cycles(unsigned int lcore)
{
	rte_cpuset_t both = rte_lcore_cpuset(lcore);
	rte_cpuset_t main_cpus = rte_lcore_cpuset(rte_get_main_lcore());
	uint64_t start, i;

	if (lcore == rte_get_main_lcore())
		return 0;
	/* lcores sharing a CPU (--lcores '(0,1)@1'): each round would wait
	 * for the scheduler to switch the spinning threads */
	CPU_AND(&both, &both, &main_cpus);
	if (CPU_COUNT(&both) > 0)
		return 0;
	pingpong.v = 0;
	if (rte_eal_remote_launch(pong, NULL, lcore) != 0)
		return 0;
	start = rte_rdtsc();
	for (i = 1; i <= PINGPONG_ROUNDS; i++) {
		pingpong.v = 2 * i - 1;
		while (pingpong.v != 2 * i)
			;
	}
	start = rte_rdtsc() - start;
	rte_eal_wait_lcore(lcore);
	return (double)start / PINGPONG_ROUNDS / 2;
}

static void
stats_ports(const struct lsk_stats *s, uint64_t *rx, uint64_t *tx)
{
	unsigned int p;

	*rx = *tx = 0;
	for (p = 0; p < LSK_MAX_PORTS; p++) {
		*rx += s->ports[p].rx;
		*tx += s->ports[p].tx;
	}
}

static void
result_from_run(const struct bench_scenario *sc, const struct bench_run *run,
		const struct bench_traffic *t, struct bench_result *res)
{
	const struct lsk_stats *a = &run->s0, *b = &run->s1;
	uint64_t rx0, tx0, rx1, tx1;
	unsigned int i;

	stats_ports(a, &rx0, &tx0);
	stats_ports(b, &rx1, &tx1);
	res->received = rx1 - rx0;
	res->forwarded = tx1 - tx0;
	res->dropped = bench_stats_drops(b) - bench_stats_drops(a);
	res->delivered = b->udp.InDatagrams - a->udp.InDatagrams;
	res->rcvbuf_errors = b->udp.RcvbufErrors - a->udp.RcvbufErrors;
	res->gro_trains = b->gro.Trains - a->gro.Trains;
	res->gro_merged = b->gro.Merged - a->gro.Merged;
	res->gso_segments = b->gso.Segments - a->gso.Segments;
	res->emul.cb_packets = run->emul1.cb_packets - run->emul0.cb_packets;
	res->emul.cb_good = run->emul1.cb_good - run->emul0.cb_good;
	res->emul.cb_cycles = run->emul1.cb_cycles - run->emul0.cb_cycles;
	res->emul.sink_packets = run->emul1.sink_packets -
				 run->emul0.sink_packets;
	res->emul.sink_cycles = run->emul1.sink_cycles -
				run->emul0.sink_cycles;
	if (sc->measure != BENCH_MEASURE_FORWARDED)
		/* delivered locally is what these scenarios want; a full
		 * endpoint ring is a drop */
		res->dropped = res->dropped -
			       (b->ip.InDelivers - a->ip.InDelivers) +
			       res->rcvbuf_errors;
	res->tsc = run->t1 - run->t0;
	res->seconds = (double)res->tsc / (double)rte_get_tsc_hz();
	res->polls = run->polls;
	res->empty_polls = run->empty_polls;
	res->cache_hits = b->route_cache.Hits - a->route_cache.Hits;
	res->cache_misses = b->route_cache.Misses - a->route_cache.Misses;
	res->cache_bypassed = b->route_cache.Bypassed -
			      a->route_cache.Bypassed;
	res->cpu_share = res->seconds > 0 ?
		(double)(run->cpu1_ns - run->cpu0_ns) / 1e9 / res->seconds : 0;
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		res->stages[i].calls = b->stages[i].calls - a->stages[i].calls;
		res->stages[i].packets =
			b->stages[i].packets - a->stages[i].packets;
		res->stages[i].cycles =
			b->stages[i].cycles - a->stages[i].cycles;
	}
	if (sc->measure == BENCH_MEASURE_DELIVERED) {
		if (res->delivered && res->seconds > 0) {
			res->mpps = (double)res->delivered / res->seconds / 1e6;
			res->cycles_per_packet = (double)res->tsc /
						 res->delivered;
		}
	} else if (sc->measure == BENCH_MEASURE_CONSUMER) {
		/* the consumer's figures replace the worker's */
		res->tsc = run->consumer_tsc;
		res->seconds = (double)res->tsc / (double)rte_get_tsc_hz();
		if (run->consumer_pkts && res->seconds > 0) {
			res->mpps = (double)run->consumer_pkts / res->seconds /
				    1e6;
			res->cycles_per_packet = (double)res->tsc /
						 run->consumer_pkts;
		}
	} else if (res->forwarded && res->seconds > 0) {
		res->mpps = (double)res->forwarded / res->seconds / 1e6;
		res->cycles_per_packet = (double)res->tsc / res->forwarded;
	}
	res->gbps = res->mpps * 1e6 * t->size * 8 / 1e9;
	res->counted = sc->measure == BENCH_MEASURE_FORWARDED ? res->forwarded :
		       sc->measure == BENCH_MEASURE_DELIVERED ? res->delivered :
		       run->consumer_pkts;
	res->consumer_calls = run->consumer_calls;
}

static void
fail(struct bench_result *res, const char *fmt, const char *what)
{
	size_t len = strlen(res->note);

	res->failed = true;
	snprintf(res->note + len, sizeof(res->note) - len, "%s", len ? "; " :
		 "");
	len = strlen(res->note);
	snprintf(res->note + len, sizeof(res->note) - len, fmt, what);
}

/* Create and configure the stack of one variant; 1 = skip the variant. */
static int
stack_for_variant(const struct bench_opts *o, const struct bench_scenario *sc,
		  const struct bench_variant *v, unsigned int idx,
		  const struct bench_feed *feed, struct lsk_stack **out,
		  struct bench_result *res)
{
	struct lsk_stack_params sp = {
		.n_ports = feed->n_ports,
		.socket_id = (int)rte_socket_id(),
		.mode = v->mode,
		.max_routes = sc->max_routes ? sc->max_routes :
			      feed->traffic->routes + 256,
	};
	char name[16], err[512] = "";
	unsigned int i;
	int rc;

	snprintf(name, sizeof(name), "bench%u", idx);
	sp.name = name;
	rc = lsk_stack_create(&sp, out);
	if (rc < 0) {
		snprintf(res->note, sizeof(res->note), "cannot create the "
			 "stack: %s%s", strerror(-rc), rc == -ENOMEM ?
			 " (give EAL more memory: -m 1024)" : "");
		res->failed = true;
		return rc;
	}
	if (o->config != NULL) {
		rc = lsk_config_load(*out, o->config, err, sizeof(err));
	} else {
		lsk_config_begin(*out);
		rc = sc->configure(*out, feed->traffic, err, sizeof(err));
	}
	if (rc == 0 && o->config != NULL)
		lsk_config_begin(*out);
	for (i = 0; rc == 0 && i < v->acl_rules; i++) {
		/* 192.0.2.0/24 (TEST-NET-1) and beyond: no rule matches
		 * the traffic, every datagram is classified and accepted */
		char line[128];
		uint32_t a = (192u << 24 | 0u << 16 | 2u << 8) + i;

		snprintf(line, sizeof(line), "filter add accept proto udp "
			 "dst %u.%u.%u.%u/32 dport 53", a >> 24,
			 (a >> 16) & 255, (a >> 8) & 255, a & 255);
		rc = lsk_config_exec(*out, line, v->name, i + 1, err,
				     sizeof(err));
		if (rc == -ENOTSUP) {
			snprintf(res->note, sizeof(res->note),
				 "skipped: the stack answers '%s'", err);
			lsk_config_commit(*out);
			return 1;
		}
	}
	for (i = 0; rc == 0 && i < BENCH_MAX_VARIANT_CONFIG &&
		    v->config[i] != NULL; i++) {
		rc = lsk_config_exec(*out, v->config[i], v->name, i + 1, err,
				     sizeof(err));
		if (rc == -ENOTSUP) {
			snprintf(res->note, sizeof(res->note),
				 "skipped: the stack answers '%s'", err);
			lsk_config_commit(*out);
			return 1;
		}
	}
	if (rc == 0)
		rc = lsk_config_commit(*out);
	if (rc < 0) {
		snprintf(res->note, sizeof(res->note), "configuration: %s%s",
			 err[0] ? err : strerror(-rc), rc == -ENOMEM ?
			 " (give EAL more memory: -m 1024)" : "");
		res->failed = true;
	}
	return rc;
}

static void
run_variant(const struct bench_opts *o, const struct bench_scenario *sc,
	    unsigned int idx, struct bench_feed *feed, unsigned int lcore,
	    struct bench_result *res)
{
	const struct bench_variant *v = &sc->variants[idx];
	const uint64_t hz = rte_get_tsc_hz();
	struct lsk_stack *stack = NULL;
	struct bench_churn *churn = NULL;
	struct bench_run run;
	unsigned int p;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&run, 0, sizeof(run));
	res->name = v->name;
	res->mbufs_in_use = -1;
	feed->variant = v;
	feed->checked = feed->check_failures = feed->next_hops_checked = 0;
	feed->first_failure[0] = '\0';

	rc = stack_for_variant(o, sc, v, idx, feed, &stack, res);
	if (rc != 0) {
		lsk_stack_destroy(stack);
		return;
	}
	rc = feed->ops->open(feed, &run);
	if (rc == 0)
		rc = lsk_worker_create(stack, 0, &run.w);
	if (rc < 0) {
		fail(res, "cannot start: %s", strerror(-rc));
		goto teardown;
	}
	if (v->action != NULL) {
		char err[256];

		rc = lsk_config_exec(stack, v->action, v->name, 1, err,
				     sizeof(err));
		if (rc < 0) {
			fail(res, "action: %s", err);
			goto teardown;
		}
	}
	for (p = 0; p < feed->n_ports; p++)
		lsk_worker_set_txq(run.w, (uint16_t)p, 0);
	if (feed->ops->tx_fn != NULL)
		lsk_worker_set_tx_fn(run.w, feed->ops->tx_fn, feed);
	res->core_to_core = core_to_core_cycles(lcore);
	run.warmup_tsc = (uint64_t)(o->warmup * hz);
	run.measure_tsc = (uint64_t)(o->seconds * hz);
	run.packets = o->packets;
	if (sc->measure == BENCH_MEASURE_CONSUMER) {
		/* the consumer rounds on the main lcore end the run */
		run.measure_tsc = UINT64_MAX / 4;
		run.packets = 0;
	}
	if (sc->measure == BENCH_MEASURE_DELIVERED && o->drain_worker)
		run.drain_feed = feed;

	printf("%-12s running...", v->name);
	fflush(stdout);
	res->ran = true;
	rc = bench_churn_start(stack, feed->traffic, v, &churn);
	if (rc < 0) {
		fail(res, "cannot start the route changes: %s", strerror(-rc));
		goto teardown;
	}
	if (lcore != rte_get_main_lcore()) {
		rte_eal_remote_launch(bench_worker_loop, &run, lcore);
		feed->ops->drive(feed, &run);
		/* done is set: this returns at once, no spinning */
		rte_eal_wait_lcore(lcore);
	} else {
		bench_worker_loop(&run);
	}
	bench_churn_stop(churn, res);
	if (res->route_refused)
		res->failed = true;
	printf("\n");

	if (sc->measure == BENCH_MEASURE_CONSUMER && !run.consumer_measured)
		run.measured = false;
	if (run.measured)
		result_from_run(sc, &run, feed->traffic, res);
	if (!run.measured)
		fail(res, "%s", bench_signalled ? "interrupted before the "
		     "measured interval" : "no measured interval");
	else if (bench_signalled && !run.interval_whole)
		fail(res, "%s", "interrupted: a partial interval");
	if (run.until_stop) {
		feed->ports->stats = run.s_end;
		feed->ports->have_stats = true;
	}
	if (run.measured && sc->measure != BENCH_MEASURE_FORWARDED &&
	    res->mpps == 0) {
		char what[96];

		snprintf(what, sizeof(what), "%" PRIu64 " received, %" PRIu64
			 " counted drops", res->received, res->dropped);
		fail(res, "nothing was delivered (%s)", what);
	}
	if (run.measured && sc->measure != BENCH_MEASURE_FORWARDED &&
	    res->forwarded) {
		char what[32];

		snprintf(what, sizeof(what), "%" PRIu64, res->forwarded);
		fail(res, "%s packets were sent out (local traffic)", what);
	}
	if (run.measured && sc->measure == BENCH_MEASURE_FORWARDED &&
	    res->forwarded == 0) {
		char what[96];

		snprintf(what, sizeof(what), "%" PRIu64 " received, %" PRIu64
			 " counted drops", res->received, res->dropped);
		fail(res, "nothing was forwarded (%s)", what);
	}

teardown:
	lsk_worker_destroy(run.w);
	feed->ops->close(feed);
	if (bench_ep != NULL) {
		/* what is left in the ring is checked too, then freed */
		bench_drain_ep(feed);
		lsk_udp_close(bench_ep);
		bench_ep = NULL;
	}
	lsk_stack_destroy(stack);
	res->mbufs_in_use = (long long)rte_mempool_in_use_count(feed->pool);
	res->checked = feed->checked;
	res->check_failures = feed->check_failures;
	res->next_hops_checked = feed->next_hops_checked;
	if (!bench_feed_from_eal(o)) {
		if (res->mbufs_in_use != 0) {
			char n[32];

			snprintf(n, sizeof(n), "%lld", res->mbufs_in_use);
			fail(res, "%s mbufs not back in the pool", n);
		}
		if (res->check_failures)
			fail(res, "WRONG OUTPUT: %s", feed->first_failure);
		else if (res->ran && res->checked == 0)
			fail(res, "%s", sc->measure == BENCH_MEASURE_FORWARDED ?
			     "no forwarded packet was checked" :
			     "no delivered datagram was checked");
		if (res->dropped) {
			char n[32];

			snprintf(n, sizeof(n), "%" PRIu64, res->dropped);
			fail(res, "the stack dropped %s packets of valid "
			     "traffic", n);
		}
	}
}

/* Is the variant in --variant's comma list (or is there no list)? */
static bool
variant_selected(const struct bench_opts *o, const char *name)
{
	size_t len = strlen(name);
	const char *p = o->variants;

	if (p == NULL)
		return true;
	while (*p != '\0') {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && strncmp(p, name, n) == 0)
			return true;
		p += n + (end != NULL);
	}
	return false;
}

int
main(int argc, char **argv)
{
	static struct bench_result results[BENCH_MAX_VARIANTS];
	struct bench_round *rounds = NULL;
	const struct bench_scenario *sc;
	struct bench_traffic traffic;
	struct bench_ports ports;
	struct bench_feed feed;
	struct bench_opts o;
	unsigned int lcore, i, n, n_rounds, n_ports_given;
	bool failed = false;
	int eal, rc;

	/* --from: results of earlier runs into one plot and table; no EAL */
	if (gen_merge_wanted(argc, argv))
		return gen_merge_main(argc, argv);
	eal = rte_eal_init(argc, argv);
	if (eal < 0) {
		fprintf(stderr, "EAL initialisation failed: %s\n"
			"without hugepages: listack-bench --no-huge --no-pci "
			"-m 1024 -- --scenario fwd\n", rte_strerror(rte_errno));
		return EXIT_USAGE;
	}
	/* --generate, --impair: the generator and its test device
	 * (bench/gen/) */
	if (gen_dispatch(argc - eal, argv + eal, &rc)) {
		rte_eal_cleanup();
		return rc;
	}
	memset(&o, 0, sizeof(o));
	if (parse_opts(argc - eal, argv + eal, &o) < 0) {
		usage(argv[0]);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	sc = bench_scenario_find(o.scenario);
	if (sc == NULL) {
		fprintf(stderr, "--scenario: no scenario '%s'\n", o.scenario);
		usage(argv[0]);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	if (sc->defaults != NULL)
		sc->defaults(&o);
	n_ports_given = rte_eth_dev_count_avail();
	if (n_ports_given > 0) {
		if (o.feed_given && o.feed != BENCH_FEED_PORTS) {
			fprintf(stderr, "--feed: the EAL gave %u port(s), so "
				"the bench is the device under test and makes "
				"no feed (--feed ports: forward until a "
				"signal)\n", n_ports_given);
			rte_eal_cleanup();
			return EXIT_USAGE;
		}
		if (!o.feed_given)
			o.feed = BENCH_FEED_DUT;
	} else if (o.config != NULL && o.feed != BENCH_FEED_PORTS) {
		fprintf(stderr, "--config is for ports given on the EAL "
			"command line (device under test)\n");
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	if ((o.stats_json != NULL || o.feed == BENCH_FEED_PORTS) &&
	    bench_ports_opts(&o, sc, n_ports_given) < 0) {
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	if (o.rx_scattered && o.feed != BENCH_FEED_RING) {
		fprintf(stderr, "--rx-order is the ring feed's\n");
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	if (sc->ring_only && o.feed != BENCH_FEED_RING) {
		fprintf(stderr, "scenario %s: only the ring feed (the "
			"default) makes its traffic\n", sc->name);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	if (bench_traffic_init(&traffic, o.flows, o.routes, o.size) < 0 ||
	    (sc->ip6 && bench_traffic_init6(&traffic) < 0)) {
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	traffic.churn_routes = sc->churn_routes;
	if (o.table != NULL) {
		/* static: reachable until the end, whichever exit is taken */
		static struct bench_table table;
		char err[512];

		if (sc->churn_routes == 0 || sc->ip6) {
			fprintf(stderr, "--table: route-churn's\n");
			rte_eal_cleanup();
			return EXIT_USAGE;
		}
		if (bench_table_load(&table, o.table, &traffic, err,
				     sizeof(err)) < 0) {
			fprintf(stderr, "%s\n", err);
			rte_eal_cleanup();
			return EXIT_USAGE;
		}
		printf("table: %u prefixes from %s, %u churned\n",
		       table.n, o.table, table.n_churn);
		o.routes = table.n;
	}
	lcore = rte_get_next_lcore(-1, 1, 0);
	if (lcore >= RTE_MAX_LCORE) {
		if (o.feed == BENCH_FEED_RING) {
			fprintf(stderr, "the ring feed needs 2 lcores, one for "
				"the generator and one for the worker "
				"(-l 0,1)\n");
			rte_eal_cleanup();
			return EXIT_USAGE;
		}
		lcore = rte_get_main_lcore();
	}

	memset(&feed, 0, sizeof(feed));
	feed.opts = &o;
	feed.traffic = &traffic;
	feed.scenario = sc;
	feed.ops = o.feed == BENCH_FEED_RING ? &bench_feed_ring :
		   o.feed == BENCH_FEED_PCAP ? &bench_feed_pcap :
		   &bench_feed_dut;
	memset(&ports, 0, sizeof(ports));
	if (o.feed == BENCH_FEED_PORTS)
		feed.ports = &ports;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rc = feed.ops->init(&feed);
	if (rc < 0) {
		if (feed.ops->fini)
			feed.ops->fini(&feed);
		rte_mempool_free(feed.pool);
		rte_eal_cleanup();
		return EXIT_FAIL;
	}
	if (bench_feed_from_eal(&o) && o.config == NULL) {
		/* our addressing, on the devices' MACs */
		for (i = 0; i < 2 && i < feed.n_ports; i++) {
			struct rte_ether_addr mac;

			if (rte_eth_macaddr_get((uint16_t)i, &mac) == 0 &&
			    rte_is_unicast_ether_addr(&mac) &&
			    !rte_is_zero_ether_addr(&mac))
				traffic.port_mac[i] = mac;
		}
		if (feed.n_ports < 2) {
			fprintf(stderr, "scenario %s needs 2 ports (or give "
				"--config FILE)\n", sc->name);
			feed.ops->fini(&feed);
			rte_mempool_free(feed.pool);
			rte_eal_cleanup();
			return EXIT_USAGE;
		}
	}

	rounds = calloc(o.repeat, sizeof(*rounds));
	if (rounds == NULL) {
		fprintf(stderr, "--repeat %u: %s\n", o.repeat, strerror(errno));
		feed.ops->fini(&feed);
		rte_mempool_free(feed.pool);
		rte_eal_cleanup();
		return EXIT_FAIL;
	}
	bench_print_header(&o, sc, lcore, rdtsc_cost());
	/* interleaved, so that a slow phase of the host hits every variant
	 * in some round rather than all the runs of one */
	for (n_rounds = 0; n_rounds < o.repeat && !bench_signalled &&
	     (n_rounds == 0 || rounds[0].n > 0); n_rounds++) {
		struct bench_round *rd = &rounds[n_rounds];

		if (o.repeat > 1)
			printf("round %u of %u\n", n_rounds + 1, o.repeat);
		for (i = 0; i < sc->n_variants && i < BENCH_MAX_VARIANTS;
		     i++) {
			if (bench_signalled)
				break;
			if (!variant_selected(&o, sc->variants[i].name))
				continue;
			run_variant(&o, sc, i, &feed, lcore, &rd->r[rd->n]);
			failed |= rd->r[rd->n].failed;
			rd->n++;
		}
		bench_round_ratios(sc, rd);
	}
	n = rounds[0].n;
	if (n == 0) {
		fprintf(stderr, "--variant: none of '%s' is a variant of %s\n",
			o.variants, sc->name);
		failed = true;
	}
	bench_summarise(rounds, n_rounds, results);
	bench_print_results(sc, results, n, rounds, n_rounds);
	if (o.json != NULL && bench_write_json(o.json, sc, results, n,
					       rounds, n_rounds) < 0)
		failed = true;
	free(rounds);

	feed.ops->fini(&feed);
	if (bench_feed_from_eal(&o)) {
		long long left = (long long)rte_mempool_in_use_count(feed.pool);

		printf("mbufs in use after closing the ports: %lld\n", left);
		failed |= left != 0;
		if (feed.ports != NULL && bench_ports_report(&feed, left) < 0)
			failed = true;
	}
	rte_mempool_free(feed.pool);
	rte_eal_cleanup();
	if (failed)
		fprintf(stderr, "listack-bench: FAILED (see the notes "
			"above)\n");
	return failed ? EXIT_FAIL : 0;
}
