/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator over real ports: open the ports EAL was given, run trials
 * (gen_trial_run is a gen_trial_fn), close. Everything runs on the
 * calling lcore: sending, receiving, draining (the generator takes one
 * CPU; the device under test has the other).
 */
#ifndef LSK_BENCH_GEN_TRIAL_H
#define LSK_BENCH_GEN_TRIAL_H

#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>
#include <rte_mempool.h>

#include "../bench.h"
#include "gen.h"
#include "gen_rx.h"

struct gen_port_params {
	uint16_t tx_port, rx_port;	/* may be the same port */
	uint32_t routes;		/* destination /24s (traffic.c) */
	struct rte_ether_addr dst_mac;	/* the DUT's MAC on the TX port */
	double drain_s;			/* at most this long after sending */
	double link_wait_s;		/* for the links to come up */
	bool ip6;			/* UDP/IPv6 frames (traffic6.c) */
};

struct gen_ctx {
	struct gen_port_params p;
	struct bench_traffic traffic;	/* addressing only */
	struct rte_mempool *tx_pool, *rx_pool;
	struct rte_ether_addr tx_mac, rx_mac;
	uint8_t next_tag;
	bool started;
	struct gen_rx rx;		/* ARP state; per trial the rest */
};

/* Pools, port set-up and start. Returns 0 or a negative errno (a
 * message on stderr); on success gen_close must follow. */
int gen_open(struct gen_ctx *c, const struct gen_port_params *p);
/* Wait (sleeping) for the links to come up, at most p->link_wait_s.
 * 0 or -ETIMEDOUT. */
int gen_wait_links(struct gen_ctx *c);
void gen_close(struct gen_ctx *c);

/* One trial (a gen_trial_fn; ctx is a struct gen_ctx). */
int gen_trial_run(void *ctx, const struct gen_trial_request *req,
		  struct gen_trial_result *res);

/* Send a few frames until one comes back (the DUT is up and forwards),
 * at most timeout_s. Returns 0, or -ETIMEDOUT. */
int gen_wait_dut(struct gen_ctx *c, double timeout_s);

/* The listack configuration that makes listack-fwd the device under test
 * of this generator (addresses, routes, a static neighbour). */
void gen_print_dut_config(const struct gen_ctx *c, FILE *f);

#endif /* LSK_BENCH_GEN_TRIAL_H */
