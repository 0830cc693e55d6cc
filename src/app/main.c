/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd: the forwarding appliance. EAL options pick the ports; the
 * config file (control commands) sets addresses, routes and neighbours.
 * One worker per lcore besides the main lcore, which sleeps between its
 * chores (signals, --idle-exit, --stats-interval). With a single lcore the
 * main lcore runs the worker itself. The control socket (--ctl-socket)
 * is served by a thread of its own (listack/ctl.h), the metrics
 * (--metrics ADDR:PORT) by another (listack/metrics.h).
 *
 * --ctl-socket: an explicit PATH that cannot be served (another instance
 * lives there, no permission) is an error, as a bad option is; the
 * default path is only tried: without it (not root, or another instance
 * has it) listack-fwd says so on stderr and runs without a socket, so
 * that runs which never asked for one are not stopped by it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pdump.h>

#include "listack/ctl.h"
#include "listack/listack.h"
#include "listack/metrics.h"
#include "listack/port.h"
#include "fwd.h"

#define EXIT_USAGE 2
/* --mbufs: more than any EAL memory could hold is a typo */
#define FWD_MBUFS_MAX (1u << 28)

struct fwd_opts {
	const char *config;
	enum lsk_mode mode;
	const char *stats_json;
	double stats_interval;	/* seconds, 0 = off */
	long idle_exit_ms;	/* -1 = off */
	unsigned int mbufs;	/* per pool; 0 = sized from the ports */
	unsigned int rx_burst;	/* frames per RX poll of a queue */
	const char *ctl_socket;	/* NULL: none */
	bool ctl_explicit;	/* given on the command line */
	char metrics_addr[64];	/* "" = no metrics */
	uint16_t metrics_port;
};

struct fwd_app fwd_app;
volatile sig_atomic_t fwd_signalled;
static struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
static unsigned int pool_mbufs;	/* what each pool was made with */

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [EAL options] -- --config FILE [--mode list|single]\n"
		"          [--stats-json FILE] [--stats-interval SECONDS]"
		" [--idle-exit MS]\n"
		"          [--ctl-socket PATH|none] [--mbufs N]"
		" [--metrics ADDR:PORT] [--rx-burst N]\n"
		"  --ctl-socket: the control socket listack-ctl talks to "
		"(default %s)\n", prog, LSK_CTL_DEFAULT_PATH);
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

static int
parse_opts(int argc, char **argv, struct fwd_opts *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ "stats-json", required_argument, NULL, 'j' },
		{ "stats-interval", required_argument, NULL, 'i' },
		{ "idle-exit", required_argument, NULL, 'x' },
		{ "mbufs", required_argument, NULL, 'b' },
		{ "rx-burst", required_argument, NULL, 'r' },
		{ "ctl-socket", required_argument, NULL, 's' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n;
	char *end;
	int c;

	o->mode = LSK_MODE_LIST;
	o->idle_exit_ms = -1;
	o->rx_burst = FWD_BURST_DEFAULT;
	o->ctl_socket = LSK_CTL_DEFAULT_PATH;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config = optarg;
			break;
		case 'm':
			if (strcmp(optarg, "list") == 0)
				o->mode = LSK_MODE_LIST;
			else if (strcmp(optarg, "single") == 0)
				o->mode = LSK_MODE_SINGLE;
			else {
				fprintf(stderr, "--mode: '%s' is not list or "
					"single\n", optarg);
				return -EINVAL;
			}
			break;
		case 'j':
			o->stats_json = optarg;
			break;
		case 'i':
			o->stats_interval = strtod(optarg, &end);
			if (*end != '\0' || o->stats_interval <= 0) {
				fprintf(stderr, "--stats-interval: '%s' is not "
					"a positive number of seconds\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'x':
			errno = 0;
			o->idle_exit_ms = strtol(optarg, &end, 10);
			if (errno || *end != '\0' || o->idle_exit_ms < 0) {
				fprintf(stderr, "--idle-exit: '%s' is not a "
					"number of milliseconds\n", optarg);
				return -EINVAL;
			}
			break;
		case 'b':
			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || *end != '\0' || optarg[0] < '0' ||
			    optarg[0] > '9' || n == 0 || n > FWD_MBUFS_MAX) {
				fprintf(stderr, "--mbufs: '%s' is not a number "
					"of mbufs (1-%u)\n", optarg,
					FWD_MBUFS_MAX);
				return -EINVAL;
			}
			o->mbufs = (unsigned int)n;
			break;
		case 'r':
			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || *end != '\0' || optarg[0] < '0' ||
			    optarg[0] > '9' || n == 0 || n > FWD_BURST_MAX) {
				fprintf(stderr, "--rx-burst: '%s' is not a "
					"number of frames (1-%u)\n", optarg,
					FWD_BURST_MAX);
				return -EINVAL;
			}
			o->rx_burst = (unsigned int)n;
			break;
		case 's':
			o->ctl_explicit = true;
			o->ctl_socket = strcmp(optarg, "none") == 0 ? NULL :
					optarg;
			if (o->ctl_socket != NULL && o->ctl_socket[0] == '\0') {
				fprintf(stderr, "--ctl-socket: give a PATH or "
					"none\n");
				return -EINVAL;
			}
			break;
		case 'M':
			if (parse_metrics(optarg, o) < 0) {
				fprintf(stderr, "--metrics: '%s' is not "
					"ADDR:PORT (a numeric address, "
					"[ADDR] for IPv6)\n", optarg);
				return -EINVAL;
			}
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
	if (o->config == NULL) {
		fprintf(stderr, "--config FILE is required\n");
		return -EINVAL;
	}
	return 0;
}

static void
on_signal(int sig)
{
	(void)sig;
	fwd_signalled = 1;
	fwd_app.stop = true;
}

/*
 * Before anything else: a signal while EAL, the config and the ports
 * start must not kill the process (no stats, nothing freed). It only
 * sets the flag; start-up goes on, and the main loop, seeing it, stops
 * at once and shuts down as always. SA_RESTART: EAL's reads and waits go
 * on undisturbed.
 */
static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * The teardown is bounded. EAL's shared memory lock (the memory hotplug
 * lock of the --file-prefix's config) lives in memory that secondary
 * processes map too: a dpdk-dumpcap that dies in its own EAL
 * initialisation or cleanup (its EAL cannot map the primary's memory
 * where its libraries sit) can leave it held for good, and
 * rte_eal_cleanup, like any EAL allocation, would then wait for it
 * forever: a listack-fwd that no SIGTERM stops. Past TEARDOWN_S seconds
 * the process says so and exits: with teardown_rc, the run's status once
 * its own teardown is done (stats written, every mbuf accounted for),
 * 1 before that.
 */
#define TEARDOWN_S 10
#define EAL_CLEANUP_S 5
static volatile sig_atomic_t teardown_rc = 1;

static void
on_teardown_timeout(int sig)
{
	static const char msg[] = "listack-fwd: shutdown stuck (EAL's shared "
		"memory lock held by a process that died?): exiting without "
		"it\n";
	ssize_t n;

	(void)sig;
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(teardown_rc);
}

static void
arm_teardown(unsigned int seconds)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_teardown_timeout;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

static int
create_pools(unsigned int n_ports, unsigned int n_workers,
	     const struct lsk_port_info *guess, unsigned int mbufs)
{
	unsigned int per_socket[RTE_MAX_NUMA_NODES] = { 0 };
	unsigned int p, s;

	for (p = 0; p < n_ports; p++) {
		int sock = rte_eth_dev_socket_id((uint16_t)p);

		if (sock < 0 || sock >= RTE_MAX_NUMA_NODES)
			sock = 0;
		per_socket[sock] += guess->nb_rxd * n_workers +
				    guess->nb_txd * n_workers;
	}
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		char name[32];
		unsigned int n;

		if (per_socket[s] == 0)
			continue;
		n = mbufs ? mbufs : lsk_pool_size(per_socket[s], 0, n_workers,
						  n_ports, rte_lcore_count());
		pool_mbufs = n;
		snprintf(name, sizeof(name), "fwd_pool_%u", s);
		pools[s] = rte_pktmbuf_pool_create(name, n, LSK_POOL_CACHE, 0,
						   RTE_MBUF_DEFAULT_BUF_SIZE,
						   (int)s);
		if (pools[s] == NULL && s != 0)
			pools[s] = pools[0];
		if (pools[s] == NULL) {
			fprintf(stderr, "cannot create a pool of %u mbufs: %s "
				"(give EAL more memory with -m, or fewer mbufs "
				"with --mbufs N)\n", n, rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	return 0;
}

static struct rte_mempool *
pool_of_port(uint16_t port)
{
	int sock = rte_eth_dev_socket_id(port);

	if (sock < 0 || sock >= RTE_MAX_NUMA_NODES || pools[sock] == NULL)
		sock = 0;
	return pools[sock];
}

/*
 * A device that runs short of mbufs fails its queue set-up or its start
 * (net_pcap with infinite_rx holds its whole file in them) with an errno
 * that does not say so: the operator is told which option gives more.
 */
static void
port_error(uint16_t port, const char *what, int rc)
{
	fprintf(stderr, "port %u: cannot %s: %s (the mbuf pool holds %u "
		"mbufs: if the device needs more, give --mbufs N)\n", port,
		what, strerror(-rc), pool_mbufs);
}

static int
setup_ports(struct fwd_app *app, const struct fwd_opts *o,
	    struct lsk_port_info *info)
{
	struct lsk_port_info guess = { .nb_rxd = 1024, .nb_txd = 1024 };
	uint16_t p;
	int rc;

	rc = create_pools(app->n_ports, app->n_workers, &guess, o->mbufs);
	if (rc < 0)
		return rc;
	for (p = 0; p < app->n_ports; p++) {
		struct lsk_port_params pp = {
			.n_rxq = (uint16_t)app->n_workers,
			.n_txq = (uint16_t)app->n_workers,
			.pool = pool_of_port(p),
		};
		char desc[256];

		lsk_port_get(app->stack, p, NULL, &pp.mtu);
		rc = lsk_port_configure(p, &pp, &info[p]);
		if (rc < 0) {
			port_error(p, "configure", rc);
			return rc;
		}
		app->txq_shared[p] = info[p].n_txq < app->n_workers;
		/* frames to the MAC the config gave must reach us */
		rte_eth_promiscuous_enable(p);
		lsk_port_describe(p, &info[p], desc, sizeof(desc));
		printf("%s\n", desc);
	}
	return 0;
}

/*
 * `port N mtu M` at run time: the device takes the new MTU too (a NIC's
 * largest frame, the kernel interface behind af_packet or tap). A device
 * without an MTU of its own (net_pcap, net_null, net_ring) passes any
 * frame, as when the config set it at start (drivers/port.c).
 */
static int
device_mtu_set(void *arg, uint16_t port, uint16_t mtu)
{
	struct fwd_app *app = &fwd_app;
	uint64_t seen[LSK_MAX_WORKERS];
	unsigned int i;
	int rc;

	(void)arg;
	/* A PMD may restart the port to change it (sfc does): no worker
	 * may be inside its rx or tx calls meanwhile. Once each worker has
	 * finished the pass it was in, none is, nor comes back until the
	 * port is resumed; what is sent to it meanwhile is refused. */
	app->port_paused[port] = true;
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < app->n_workers; i++)
		seen[i] = app->workers[i].polls;
	for (i = 0; i < app->n_workers && !app->stop; i++)
		while (app->workers[i].polls == seen[i] && !app->stop)
			rte_delay_us_sleep(100);
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* stopping: workers leave their loops whatever pass they are in */
	rc = app->stop ? -ECANCELED : rte_eth_dev_set_mtu(port, mtu);
	app->port_paused[port] = false;
	return rc == -ENOTSUP ? 0 : rc;
}

/* Spread every (port, RX queue) over the workers, round robin. */
static void
assign_queues(struct fwd_app *app, const struct lsk_port_info *info)
{
	unsigned int next = 0;
	uint16_t p, q;

	for (p = 0; p < app->n_ports; p++) {
		for (q = 0; q < info[p].n_rxq; q++) {
			struct fwd_worker *fw =
				&app->workers[next++ % app->n_workers];

			if (fw->n_rxq < FWD_MAX_QUEUES_PER_WORKER)
				fw->rxq[fw->n_rxq++] =
					(struct fwd_rxq){ p, q };
		}
	}
}

static int
create_workers(struct fwd_app *app, const struct lsk_port_info *info,
	       unsigned int burst)
{
	unsigned int i, lcore;
	uint16_t p;
	int rc;

	i = 0;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		app->workers[i++].lcore = lcore;
	}
	if (i == 0)
		app->workers[0].lcore = rte_get_main_lcore();
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_worker *fw = &app->workers[i];

		rc = lsk_worker_create(app->stack, i, &fw->w);
		if (rc < 0)
			return rc;
		fw->burst = burst;
		lsk_worker_set_tx_fn(fw->w, fwd_tx_shared, app);
		for (p = 0; p < app->n_ports; p++)
			lsk_worker_set_txq(fw->w, p,
					   (uint16_t)(i % info[p].n_txq));
	}
	for (p = 0; p < app->n_ports; p++)
		for (i = 0; i < LSK_MAX_WORKERS; i++)
			rte_spinlock_init(&app->txq_lock[p][i]);
	assign_queues(app, info);
	return 0;
}

static uint64_t
frames_received(const struct fwd_app *app)
{
	struct lsk_stats st;

	lsk_stats_read(app->stack, &st);
	return st.eth.InFrames;
}

static void
print_interval(const struct fwd_app *app, struct lsk_stats *prev,
	       double seconds)
{
	struct lsk_stats st;
	unsigned int p;
	uint64_t drops;

	lsk_stats_read(app->stack, &st);
	for (p = 0; p < app->n_ports; p++)
		printf("%sport %u rx %.0f pps tx %.0f pps", p ? " | " : "", p,
		       (st.ports[p].rx - prev->ports[p].rx) / seconds,
		       (st.ports[p].tx - prev->ports[p].tx) / seconds);
	drops = st.ip.InHdrErrors + st.ip.InTruncatedPkts +
		st.ip.InAddrErrors + st.ip.InNoRoutes + st.ip.InDiscards +
		st.ip.FragFails + st.arp.UnresolvedDiscards +
		st.eth.NotForUs + st.eth.UnknownType + st.eth.UnknownVlan +
		st.eth.Runts;
	printf(" | drops %" PRIu64 "\n", drops);
	fflush(stdout);
	*prev = st;
}

/*
 * The main lcore's chores. With worker lcores it only sleeps and checks;
 * alone, it also polls (and checks the clock every few hundred polls).
 *
 * Its sleep doubles from 100 us to 1 ms while the services are idle and
 * is back to 100 us after any datagram: where the main lcore shares a CPU
 * with a worker (2 CPUs, 2 workers), every wake-up is two context
 * switches taken from that worker, and a fixed 100 us sleep woke it some
 * 5000 times a second (several per cent of the worker's CPU).
 */
#define FWD_IDLE_SLEEP_MIN_NS (100 * 1000L)
#define FWD_SERVICES_EVERY 8
#define FWD_IDLE_SLEEP_MAX_NS (1000 * 1000L)

static void
main_loop(struct fwd_app *app, const struct fwd_opts *o)
{
	const uint64_t hz = rte_get_tsc_hz();
	bool polling = rte_lcore_count() == 1;
	uint64_t last_rx = 0, last_rx_tsc = rte_rdtsc();
	uint64_t next_print = last_rx_tsc + (uint64_t)(o->stats_interval * hz);
	struct lsk_stats prev;
	unsigned int spins = 0;
	long idle_ns = FWD_IDLE_SLEEP_MIN_NS;

	memset(&prev, 0, sizeof(prev));
	while (!app->stop) {
		unsigned int busy = 0;
		uint64_t now, rx;

		if (polling)
			busy = fwd_worker_poll(&app->workers[0]);
		/* a polling lcore that forwards asks the services every
		 * FWD_SERVICES_EVERY polls (their lock and rings cost 3
		 * instructions a frame when asked every poll): their
		 * endpoint rings hold many times what comes in between */
		if (!polling || busy == 0 || spins % FWD_SERVICES_EVERY == 0)
			busy += lsk_services_poll(app->stack);
		if (!polling && busy == 0) {
			struct timespec ts = { 0, idle_ns };

			nanosleep(&ts, NULL);
			idle_ns = RTE_MIN(idle_ns * 2, FWD_IDLE_SLEEP_MAX_NS);
		} else {
			idle_ns = FWD_IDLE_SLEEP_MIN_NS;
		}
		if (++spins < (polling ? 256u : 16u))
			continue;
		spins = 0;
		now = rte_rdtsc();
		rx = frames_received(app);
		if (rx != last_rx) {
			last_rx = rx;
			last_rx_tsc = now;
		}
		if (o->idle_exit_ms >= 0 &&
		    (now - last_rx_tsc) * 1000 / hz >= (uint64_t)o->idle_exit_ms)
			app->stop = true;
		if (o->stats_interval > 0 && now >= next_print) {
			print_interval(app, &prev, o->stats_interval);
			next_print = now + (uint64_t)(o->stats_interval * hz);
		}
	}
}

static void
print_summary(const struct lsk_stats *st, unsigned int n_ports,
	      long long in_use)
{
	const struct lsk_ip_stats *ip = &st->ip;
	unsigned int i;

	printf("\n%-6s %12s %12s %12s %12s\n", "port", "rx", "tx",
	       "rx_dropped", "tx_dropped");
	for (i = 0; i < n_ports; i++)
		printf("%-6u %12" PRIu64 " %12" PRIu64 " %12" PRIu64
		       " %12" PRIu64 "\n", i, st->ports[i].rx, st->ports[i].tx,
		       st->ports[i].rx_dropped, st->ports[i].tx_dropped);
	printf("\n%-12s %12s %10s %12s %12s\n", "stage", "packets", "calls",
	       "pkts/call", "cycles/pkt");
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		const struct lsk_stage_stats *s = &st->stages[i];

		printf("%-12s %12" PRIu64 " %10" PRIu64 " %12.1f %12.1f\n",
		       lsk_stage_name(i), s->packets, s->calls,
		       s->calls ? (double)s->packets / s->calls : 0.0,
		       s->packets ? (double)s->cycles / s->packets : 0.0);
	}
	printf("\nip: InReceives %" PRIu64 " ForwDatagrams %" PRIu64
	       " InDelivers %" PRIu64 " InUnknownProtos %" PRIu64
	       " InHdrErrors %" PRIu64
	       " InTruncatedPkts %" PRIu64 " InCsumErrors %" PRIu64
	       " InAddrErrors %" PRIu64 " InNoRoutes %" PRIu64
	       " InDiscards %" PRIu64 " FragFails %" PRIu64 "\n",
	       ip->InReceives, ip->ForwDatagrams, ip->InDelivers,
	       ip->InUnknownProtos, ip->InHdrErrors, ip->InTruncatedPkts, ip->InCsumErrors,
	       ip->InAddrErrors, ip->InNoRoutes, ip->InDiscards,
	       ip->FragFails);
	printf("eth: InFrames %" PRIu64 " NotForUs %" PRIu64
	       " UnknownType %" PRIu64 " UnknownVlan %" PRIu64
	       " Runts %" PRIu64 "\n", st->eth.InFrames, st->eth.NotForUs,
	       st->eth.UnknownType, st->eth.UnknownVlan, st->eth.Runts);
	printf("arp: InRequests %" PRIu64 " OutRequests %" PRIu64
	       " OutReplies %" PRIu64 " UnresolvedDiscards %" PRIu64
	       "; icmp: OutEchoReps %" PRIu64 " OutDestUnreachs %" PRIu64
	       " OutTimeExcds %" PRIu64 " OutRateLimited %" PRIu64 "\n",
	       st->arp.InRequests, st->arp.OutRequests, st->arp.OutReplies,
	       st->arp.UnresolvedDiscards, st->icmp.OutEchoReps,
	       st->icmp.OutDestUnreachs, st->icmp.OutTimeExcds,
	       st->icmp.OutRateLimited);
	printf("gro: Trains %" PRIu64 " Merged %" PRIu64 "; route_cache: Hits %"
	       PRIu64 " Misses %" PRIu64 "; filter: Dropped %" PRIu64 "\n",
	       st->gro.Trains, st->gro.Merged, st->route_cache.Hits,
	       st->route_cache.Misses, st->filter.Dropped);
	printf("udp: InDatagrams %" PRIu64 " NoPorts %" PRIu64
	       " InErrors %" PRIu64 " InCsumErrors %" PRIu64
	       " RcvbufErrors %" PRIu64 " IgnoredMulti %" PRIu64
	       " OutDatagrams %" PRIu64 "\n", st->udp.InDatagrams,
	       st->udp.NoPorts, st->udp.InErrors, st->udp.InCsumErrors,
	       st->udp.RcvbufErrors, st->udp.IgnoredMulti,
	       st->udp.OutDatagrams);
	printf("mbufs_in_use %lld\n", in_use);
}

static long long
mbufs_in_use(void)
{
	long long n = 0;
	unsigned int s, t;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		bool seen = false;

		if (pools[s] == NULL)
			continue;
		for (t = 0; t < s; t++)
			seen |= pools[t] == pools[s];
		if (!seen)
			n += rte_mempool_in_use_count(pools[s]);
	}
	return n;
}

static void
free_pools(void)
{
	unsigned int s, t;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		if (pools[s] == NULL)
			continue;
		for (t = s + 1; t < RTE_MAX_NUMA_NODES; t++)
			if (pools[t] == pools[s])
				pools[t] = NULL;
		rte_mempool_free(pools[s]);
		pools[s] = NULL;
	}
}

static int
write_json(const char *path, const struct lsk_stats *st, unsigned int n_ports,
	   long long in_use, const char *extra)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (f == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	rc = lsk_stats_write_json(st, n_ports, in_use, extra, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* "services": [...] for the stats file, taken before the stack goes. */
static char *
services_to_json(const struct lsk_stack *stack)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	fprintf(f, "\"services\": ");
	lsk_services_write_json(stack, f);
	fclose(f);
	return buf;
}

/* The control socket, as --ctl-socket asked (see the top of this file). */
static int
start_ctl(struct fwd_app *app, const struct fwd_opts *o, struct lsk_ctl **ctl)
{
	int rc;

	*ctl = NULL;
	if (o->ctl_socket == NULL)
		return 0;
	rc = lsk_ctl_start(app->stack, o->ctl_socket, ctl);
	if (rc == 0) {
		printf("listack-fwd: control socket %s\n", o->ctl_socket);
		return 0;
	}
	fprintf(stderr, "%s: %s: %s%s\n", o->ctl_explicit ? "--ctl-socket" :
		"warning: control socket", o->ctl_socket,
		rc == -EADDRINUSE ? "another listack serves it" : strerror(-rc),
		o->ctl_explicit ? "" : " (running without one; choose one "
		"with --ctl-socket PATH, or none)");
	return o->ctl_explicit ? rc : 0;
}

/* The metrics endpoint, as --metrics asked: one that cannot be served is
 * an error. Every pool's mbufs count in listack_mbufs_in_use. */
static int
start_metrics(struct fwd_app *app, const struct fwd_opts *o,
	      struct lsk_metrics **m)
{
	unsigned int s, t;
	int rc;

	*m = NULL;
	if (o->metrics_addr[0] == '\0')
		return 0;
	rc = lsk_metrics_start(app->stack, o->metrics_addr, o->metrics_port, m);
	if (rc < 0) {
		fprintf(stderr, "--metrics: %s:%u: %s\n", o->metrics_addr,
			o->metrics_port, rc == -EINVAL ? "not a numeric address"
			: strerror(-rc));
		return rc;
	}
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		for (t = 0; t < s && pools[t] != pools[s]; t++)
			;
		if (pools[s] != NULL && t == s)
			lsk_metrics_add_pool(*m, pools[s]);
	}
	printf("listack-fwd: metrics on %s:%u\n", o->metrics_addr,
	       lsk_metrics_port(*m));
	return 0;
}

/* Load the config into a new stack; on error print FILE:LINE and fail. */
static int
load_config(struct fwd_app *app, const struct fwd_opts *o)
{
	struct lsk_stack_params sp = {
		.n_ports = app->n_ports,
		.socket_id = (int)rte_socket_id(),
		.mode = o->mode,
		.name = "fwd",
	};
	char err[512];
	uint16_t p;
	int rc;

	rc = lsk_stack_create(&sp, &app->stack);
	if (rc < 0) {
		fprintf(stderr, "cannot create the stack: %s\n", strerror(-rc));
		return rc;
	}
	for (p = 0; p < app->n_ports; p++) {
		struct rte_ether_addr mac;

		if (rte_eth_macaddr_get(p, &mac) == 0 &&
		    rte_is_unicast_ether_addr(&mac) &&
		    !rte_is_zero_ether_addr(&mac))
			lsk_port_set(app->stack, p, &mac, 0);
	}
	rc = lsk_config_load(app->stack, o->config, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "%s\n", err);
	return rc;
}

int
main(int argc, char **argv)
{
	struct lsk_port_info info[LSK_MAX_PORTS];
	struct fwd_app *app = &fwd_app;
	struct lsk_ctl *ctl = NULL;
	struct lsk_metrics *metrics = NULL;
	bool ctl_failed = false;
	struct fwd_opts o;
	struct lsk_stats st;
	char *services_json;
	long long in_use;
	unsigned int i;
	uint16_t p;
	int rc, eal;

	catch_signals();
	eal = rte_eal_init(argc, argv);
	if (eal < 0) {
		fprintf(stderr, "EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return EXIT_USAGE;
	}
	/* dpdk-dumpcap and dpdk-pdump attach as secondary processes: a
	 * primary without shared config (--no-shconf, --in-memory, or
	 * --no-huge) has none to offer them, and says nothing of it */
	if (rte_pdump_init() < 0 && rte_errno != ENOTSUP)
		fprintf(stderr, "listack-fwd: no capture by dpdk-dumpcap: %s\n",
			rte_strerror(rte_errno));
	memset(&o, 0, sizeof(o));
	if (parse_opts(argc - eal, argv + eal, &o) < 0) {
		usage(argv[0]);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	app->n_ports = rte_eth_dev_count_avail();
	if (app->n_ports == 0 || app->n_ports > LSK_MAX_PORTS) {
		fprintf(stderr, "%u ports: give 1 to %u ports with --vdev or "
			"PCI devices\n", app->n_ports, LSK_MAX_PORTS);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	app->n_workers = RTE_MAX(rte_lcore_count() - 1, 1u);
	if (load_config(app, &o) < 0) {
		lsk_stack_destroy(app->stack);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}

	rc = setup_ports(app, &o, info);
	if (rc == 0) {
		lsk_stack_set_send_pool(app->stack, pool_of_port(0));
		lsk_port_mtu_hook(app->stack, device_mtu_set, NULL);
	}
	if (rc == 0)
		rc = create_workers(app, info, o.rx_burst);
	for (p = 0; p < app->n_ports && rc == 0; p++) {
		rc = rte_eth_dev_start(p);
		if (rc < 0)
			port_error(p, "start", rc);
	}
	if (rc == 0 && start_ctl(app, &o, &ctl) < 0) {
		ctl_failed = true;
		rc = -EINVAL;
	}
	if (rc == 0 && start_metrics(app, &o, &metrics) < 0) {
		ctl_failed = true;
		rc = -EINVAL;
	}
	if (rc < 0) {
		/* as at the end of a run, with nothing to report */
		lsk_ctl_stop(ctl);
		for (p = 0; p < app->n_ports; p++)
			rte_eth_dev_close(p);
		for (i = 0; i < app->n_workers; i++)
			lsk_worker_destroy(app->workers[i].w);
		lsk_stack_destroy(app->stack);
		free_pools();
		rte_eal_cleanup();
		return ctl_failed ? EXIT_USAGE : 1;
	}

	lsk_telemetry_register(app->stack);
	printf("listack-fwd: %u ports, %u workers, %s mode\n", app->n_ports,
	       app->n_workers,
	       lsk_stack_mode(app->stack) == LSK_MODE_LIST ? "list" : "single");
	fflush(stdout);

	if (rte_lcore_count() > 1) {
		for (i = 0; i < app->n_workers; i++)
			rte_eal_remote_launch(fwd_worker_loop, &app->workers[i],
					      app->workers[i].lcore);
	}
	main_loop(app, &o);
	arm_teardown(TEARDOWN_S);
	rte_eal_mp_wait_lcore();
	if (rte_lcore_count() == 1)
		lsk_worker_offline(app->workers[0].w);
	/* every worker is offline: a batch in progress waits for none of
	 * them, ends, and nothing changes the stack during the teardown */
	lsk_ctl_stop(ctl);
	lsk_metrics_stop(metrics);

	for (p = 0; p < app->n_ports; p++)
		rte_eth_dev_stop(p);
	/* what still waits for an ARP answer will not get one now */
	lsk_neigh_drop_held(app->stack);
	lsk_stats_read(app->stack, &st);
	for (p = 0; p < app->n_ports; p++) {
		struct rte_eth_stats es;

		if (rte_eth_stats_get(p, &es) == 0)
			st.ports[p].rx_dropped = es.imissed + es.rx_nombuf;
	}
	services_json = services_to_json(app->stack);
	for (p = 0; p < app->n_ports; p++)
		rte_eth_dev_close(p);
	for (i = 0; i < app->n_workers; i++)
		lsk_worker_destroy(app->workers[i].w);
	lsk_stack_destroy(app->stack);
	in_use = mbufs_in_use();

	rc = 0;
	if (o.stats_json != NULL)
		rc = write_json(o.stats_json, &st, app->n_ports, in_use,
				services_json);
	free(services_json);
	print_summary(&st, app->n_ports, in_use);
	fflush(stdout);
	rte_pdump_uninit();
	free_pools();
	teardown_rc = rc < 0 ? 1 : 0;
	arm_teardown(EAL_CLEANUP_S);
	rte_eal_cleanup();
	alarm(0);
	return rc < 0 ? 1 : 0;
}
