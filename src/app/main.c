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
#include "listack/fpm.h"
#include "listack/metrics.h"
#include "listack/port.h"
#include "fwd.h"
#include "fwd_notify.h"
#include "fwd_opts.h"

#define EXIT_USAGE 2

struct fwd_app fwd_app;
volatile sig_atomic_t fwd_signalled;

static void
on_signal(int sig)
{
	(void)sig;
	fwd_signalled = 1;
	fwd_app.stop = true;
}

static void
on_hup(int sig)
{
	(void)sig;
	fwd_reload_asked = 1;
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
	sa.sa_handler = on_hup;		/* reload (src/app/fwd_config.c) */
	sigaction(SIGHUP, &sa, NULL);
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
	int rc = -ECANCELED;

	(void)arg;
	/* no worker in the port's rx or tx calls meanwhile (fwd_port.c) */
	if (fwd_port_pause(app, port))
		rc = rte_eth_dev_set_mtu(port, mtu);
	fwd_port_resume(app, port);
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

static void
ctl_error(const struct fwd_opts *o, int rc)
{
	fprintf(stderr, "%s: %s: %s%s\n", o->ctl_explicit ? "--ctl-socket" :
		"warning: control socket", o->ctl_socket,
		rc == -EADDRINUSE ? "another listack serves it" :
		rc == -EEXIST ? "something that is not a socket is there" :
		strerror(-rc),
		o->ctl_explicit ? "" : " (running without one; choose one "
		"with --ctl-socket PATH, or none)");
}

static void
metrics_error(const struct fwd_opts *o, int rc)
{
	fprintf(stderr, "--metrics: %s:%u: %s\n", o->metrics_addr,
		o->metrics_port, rc == -EINVAL ? "not a numeric address" :
		strerror(-rc));
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
	ctl_error(o, rc);
	return o->ctl_explicit ? rc : 0;
}

/*
 * What can be known before any port starts: a --ctl-socket PATH another
 * instance serves, a --metrics address taken. One line, and no device
 * started and stopped for nothing (a second listack-fwd on the same
 * socket). 0, or the error said on stderr.
 */
static int
probe_servers(const struct fwd_opts *o)
{
	int rc;

	if (o->ctl_socket != NULL && o->ctl_explicit) {
		rc = lsk_ctl_probe(o->ctl_socket);
		if (rc < 0) {
			ctl_error(o, rc);
			return rc;
		}
	}
	if (o->metrics_addr[0] != '\0') {
		rc = lsk_metrics_probe(o->metrics_addr, o->metrics_port);
		if (rc < 0) {
			metrics_error(o, rc);
			return rc;
		}
	}
	return 0;
}

static void
add_pool(void *arg, struct rte_mempool *mp)
{
	lsk_metrics_add_pool(arg, mp);
}

/* The metrics endpoint, as --metrics asked: one that cannot be served is
 * an error. Every pool's mbufs count in listack_mbufs_in_use. */
static int
start_metrics(struct fwd_app *app, const struct fwd_opts *o,
	      struct lsk_metrics **m)
{
	int rc;

	*m = NULL;
	if (o->metrics_addr[0] == '\0')
		return 0;
	rc = lsk_metrics_start(app->stack, o->metrics_addr, o->metrics_port, m);
	if (rc < 0) {
		metrics_error(o, rc);
		return rc;
	}
	fwd_pools_each(add_pool, *m);
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
	return fwd_config_load(app->stack, o);
}

/*
 * The ports set up, the workers made, the devices started, the control
 * socket and the metrics served. 0, or (all of it undone, EAL cleaned
 * up) the status main returns.
 */
static int
fwd_start(struct fwd_app *app, const struct fwd_opts *o,
	  struct lsk_ctl **ctl, struct lsk_metrics **metrics)
{
	struct lsk_port_info info[LSK_MAX_PORTS];
	bool ctl_failed = false;
	unsigned int i;
	int rc;

	rc = probe_servers(o);
	if (rc < 0)
		ctl_failed = true;
	if (rc == 0)
		rc = fwd_setup_ports(app, o, info);
	if (rc == 0) {
		lsk_stack_set_send_pool(app->stack, fwd_pool_of_port(0));
		lsk_port_mtu_hook(app->stack, device_mtu_set, NULL);
	}
	if (rc == 0)
		rc = create_workers(app, info, o->rx_burst);
	if (rc == 0)
		rc = fwd_start_ports(app);
	if (rc == 0)
		fwd_ports_ops_set(app, info);
	if (rc == 0 && start_ctl(app, o, ctl) < 0) {
		ctl_failed = true;
		rc = -EINVAL;
	}
	if (rc == 0 && start_metrics(app, o, metrics) < 0) {
		ctl_failed = true;
		rc = -EINVAL;
	}
	if (rc == 0) {
		rc = lsk_fpm_start(app->stack, &app->fpm);
		if (rc < 0)
			fprintf(stderr, "cannot serve FPM: %s\n",
				strerror(-rc));
	}
	if (rc == 0)
		return 0;
	lsk_metrics_stop(*metrics);
	/* as at the end of a run, with nothing to report */
	lsk_ctl_stop(*ctl);
	fwd_close_ports(app);
	for (i = 0; i < app->n_workers; i++)
		lsk_worker_destroy(app->workers[i].w);
	lsk_stack_destroy(app->stack);
	fwd_free_pools();
	rte_eal_cleanup();
	return ctl_failed ? EXIT_USAGE : 1;
}

/*
 * The end of a run, the workers' loops returned: the servers stopped,
 * the counters read and the stack freed, what was counted reported
 * (--stats-json, the summary), EAL cleaned up. The status main returns.
 */
static int
fwd_stop(struct fwd_app *app, const struct fwd_opts *o, struct lsk_ctl *ctl,
	 struct lsk_metrics *metrics)
{
	struct lsk_stats st;
	char *services_json;
	long long in_use;
	unsigned int i;
	uint16_t p;
	int rc;

	if (rte_lcore_count() == 1)
		lsk_worker_offline(app->workers[0].w);
	/* every worker is offline: a batch in progress waits for none of
	 * them, ends, and nothing changes the stack during the teardown */
	lsk_ctl_stop(ctl);
	lsk_metrics_stop(metrics);
	lsk_fpm_stop(app->fpm);

	for (p = 0; p < app->n_ports; p++)
		rte_eth_dev_stop(p);
	/* what still waits for an ARP answer will not get one now */
	lsk_neigh_drop_held(app->stack);
	lsk_stats_read(app->stack, &st);
	for (p = 0; p < app->n_ports; p++) {
		struct rte_eth_stats es;

		if (rte_eth_stats_get(p, &es) == 0)
			st.ports[p].rx_dropped += es.imissed + es.rx_nombuf;
	}
	services_json = fwd_services_json(app->stack);
	for (p = 0; p < app->n_ports; p++)
		rte_eth_dev_close(p);
	for (i = 0; i < app->n_workers; i++)
		lsk_worker_destroy(app->workers[i].w);
	lsk_stack_destroy(app->stack);
	in_use = fwd_mbufs_in_use();

	rc = 0;
	if (o->stats_json != NULL)
		rc = fwd_write_json(o->stats_json, &st, app->n_ports, in_use,
				    services_json);
	free(services_json);
	fwd_print_summary(&st, app->n_ports, in_use);
	fflush(stdout);
	rte_pdump_uninit();
	fwd_free_pools();
	teardown_rc = rc < 0 ? 1 : 0;
	arm_teardown(EAL_CLEANUP_S);
	rte_eal_cleanup();
	alarm(0);
	return rc < 0 ? 1 : 0;
}

int
main(int argc, char **argv)
{
	struct fwd_app *app = &fwd_app;
	struct lsk_ctl *ctl = NULL;
	struct lsk_metrics *metrics = NULL;
	struct fwd_opts o;
	unsigned int i;
	int rc, eal;

	if (fwd_early_opts(argc, argv) != 0)
		return 0;
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
	if (fwd_parse_opts(argc - eal, argv + eal, &o) < 0) {
		fwd_usage(argv[0], stderr, false);
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
	rc = fwd_start(app, &o, &ctl, &metrics);
	if (rc != 0)
		return rc;

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
	/* the ports are up, the config applied, the socket served */
	fwd_notify_ready(app->n_ports, app->n_workers);
	fwd_main_loop(app, &o);
	fwd_notify_stopping();
	arm_teardown(TEARDOWN_S);
	rte_eal_mp_wait_lcore();
	return fwd_stop(app, &o, ctl, metrics);
}
