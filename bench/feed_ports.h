/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ports feed (--feed ports, feed_ports.c): the dut feed's ports for one
 * variant (--variant's, or the scenario's baseline), forwarded from their
 * start until SIGINT or SIGTERM; then the whole run's counters (the
 * stack's and each port's ethdev ones) are printed and, with --stats-json,
 * written as listack-fwd writes them.
 */
#ifndef LSK_BENCH_FEED_PORTS_H
#define LSK_BENCH_FEED_PORTS_H

#include <rte_ethdev.h>

#include "bench.h"

struct bench_ports {
	bool have_stats, have_eth;
	struct lsk_stats stats;			/* the stack's, whole run */
	struct rte_eth_stats eth[LSK_MAX_PORTS];
};

/* Check and complete o for --feed ports or --stats-json, given the ports
 * the EAL made (a usage error: -EINVAL, said on stderr). */
int bench_ports_opts(struct bench_opts *o, const struct bench_scenario *sc,
		     unsigned int n_ports);
/* Read each port's ethdev counters into f->ports (before the stop). */
void bench_ports_read(struct bench_feed *f);
/* Print the whole run and write --stats-json; mbufs_left: after the
 * ports closed. -1 if the file cannot be written. */
int bench_ports_report(const struct bench_feed *f, long long mbufs_left);

#endif
