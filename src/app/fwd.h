/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-fwd: what main and the poll loops share. */
#ifndef LSK_FWD_APP_H
#define LSK_FWD_APP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "listack/listack.h"

#define FWD_MAX_QUEUES_PER_WORKER 32
/*
 * Frames asked of each RX queue per poll: 32 as DPDK's examples ask (the
 * pcap tests place ARP replies and timers by 32-frame bursts), or what
 * --rx-burst says, up to a list's LSK_BURST_MAX. More per poll spreads
 * what the stack pays per list (the tables loaded, stage accounting, the
 * flush, the RCU report) and the PMDs pay per call over more frames
 * (bench/RESULTS.md, "Forwarding path, second pass").
 */
#define FWD_BURST_DEFAULT 32
#define FWD_BURST_MAX LSK_BURST_MAX

struct fwd_rxq {
	uint16_t port, queue;
};

struct lsk_fpm;

struct fwd_worker {
	struct lsk_worker *w;
	unsigned int lcore;
	unsigned int burst;	/* frames asked of an RX queue per poll */
	unsigned int n_rxq;
	struct fwd_rxq rxq[FWD_MAX_QUEUES_PER_WORKER];
	/* passes made (fwd_worker_poll): once it moves on after a port was
	 * paused, this worker is out of that port's rx and tx calls */
	volatile uint64_t polls;
	/* a line of its own: the next worker's queues are not on the line
	 * this one writes polls to every pass (one coherence miss a poll
	 * for each of two workers) */
} __rte_cache_aligned;

struct fwd_app {
	struct lsk_stack *stack;
	unsigned int n_ports;
	unsigned int n_workers;
	struct fwd_worker workers[LSK_MAX_WORKERS];
	/* TX queues shared by more than one worker need this lock */
	bool txq_shared[LSK_MAX_PORTS];
	rte_spinlock_t txq_lock[LSK_MAX_PORTS][LSK_MAX_WORKERS];
	/* a port whose device the control thread reconfigures (its MTU):
	 * workers neither poll it nor send to it (main.c, device_mtu_set) */
	volatile bool port_paused[LSK_MAX_PORTS];
	volatile bool stop;
	/* the FPM server, which follows `fpm listen` (listack/fpm.h) */
	struct lsk_fpm *fpm;
};

extern volatile sig_atomic_t fwd_signalled;

/* Poll the worker's RX queues until app->stop. */
int fwd_worker_loop(void *arg);
/* One pass over the worker's RX queues; returns packets received. */
unsigned int fwd_worker_poll(struct fwd_worker *fw);
/* An lsk_tx_fn for a TX queue workers share (include/listack/listack.h).
 * Ownership: takes the first (returned) of pkts; the rest stay the
 * caller's. */
uint16_t fwd_tx_shared(void *arg, uint16_t port, uint16_t queue,
		       struct rte_mbuf **pkts, uint16_t n);

/* The --config file (src/app/fwd_config.c): loaded at start (its error
 * said on stderr), reloaded when SIGHUP set fwd_reload_asked. */
struct fwd_opts;
extern volatile sig_atomic_t fwd_reload_asked;
int fwd_config_load(struct lsk_stack *s, const struct fwd_opts *o);
void fwd_config_reload(struct fwd_app *app);

/* The ports (src/app/fwd_port.c): keep workers out of a port's rx and
 * tx calls while its device changes (false: stopping), and let them back;
 * the stack's port calls (facts, admin state: listack/iface.h) set, the
 * ports the config left down set down, link interrupts asked for where
 * info says the PMD has them (the devices started); log the ports whose
 * link changed (all: look at every port, else those an interrupt named). */
struct lsk_port_info;
bool fwd_port_pause(struct fwd_app *app, uint16_t port);
void fwd_port_resume(struct fwd_app *app, uint16_t port);
void fwd_ports_ops_set(struct fwd_app *app, const struct lsk_port_info *info);
void fwd_ports_link_check(struct fwd_app *app, bool all);

/* The main lcore's chores until app->stop (src/app/fwd_loop.c). */
struct fwd_opts;
void fwd_main_loop(struct fwd_app *app, const struct fwd_opts *o);

/* The mbuf pools and the ports (src/app/fwd_ports.c): the pools made
 * and every port configured (its line printed), then started (or
 * closed, when the start is given up); 0 or a
 * negative errno, said on stderr with the option that would cure it. */
struct lsk_port_info;
struct rte_mempool;
int fwd_setup_ports(struct fwd_app *app, const struct fwd_opts *o,
		    struct lsk_port_info *info);
int fwd_start_ports(struct fwd_app *app);
/* Every port closed, those started stopped first. */
void fwd_close_ports(struct fwd_app *app);
struct rte_mempool *fwd_pool_of_port(uint16_t port);
/* Each pool once; the mbufs taken from them all; free them. */
void fwd_pools_each(void (*fn)(void *arg, struct rte_mempool *mp), void *arg);
long long fwd_mbufs_in_use(void);
void fwd_free_pools(void);

/* The end of a run (src/app/fwd_report.c): the summary on stdout; the
 * stats file at path (extra: more JSON members, or NULL), 0 or -errno;
 * the services' "services": [...] member (malloc'd; NULL: none), taken
 * before the stack goes. */
void fwd_print_summary(const struct lsk_stats *st, unsigned int n_ports,
		       long long in_use);
int fwd_write_json(const char *path, const struct lsk_stats *st,
		   unsigned int n_ports, long long in_use, const char *extra);
char *fwd_services_json(const struct lsk_stack *stack);

#endif
