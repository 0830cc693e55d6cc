/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DUT feed: ports given on the EAL command line (a NIC fed by Spirent,
 * pktgen or TRex, a memif to a generator process, any vdev) carry traffic
 * from outside. The worker polls RX queue 0 of every port; each variant's
 * warm-up starts at its first received packet. The ports are configured
 * once and started for each variant; they are closed at exit, after which
 * every mbuf must be back in the pool.
 *
 * Nothing here knows what the traffic should look like, so there is no
 * spot check: the counters (drops by reason) say what happened.
 *
 * The ports feed (--feed ports, feed_ports.c) is this feed for one variant
 * whose worker forwards until it is stopped; each port's ethdev counters
 * are read before the stop.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "bench.h"
#include "feed_ports.h"
#include "listack/port.h"

static int
dut_init(struct bench_feed *f)
{
	struct lsk_port_info info;
	unsigned int n, p;
	int rc;

	f->n_ports = rte_eth_dev_count_avail();
	if (f->n_ports > LSK_MAX_PORTS || f->n_ports > BENCH_MAX_RXQ) {
		fprintf(stderr, "%u ports: at most %u\n", f->n_ports,
			RTE_MIN(LSK_MAX_PORTS, BENCH_MAX_RXQ));
		return -EINVAL;
	}
	n = lsk_pool_size(1024 * f->n_ports, 1024 * f->n_ports, 1,
			  f->n_ports, rte_lcore_count());
	f->pool = rte_pktmbuf_pool_create("bench_pool", n, LSK_POOL_CACHE, 0,
					  RTE_MBUF_DEFAULT_BUF_SIZE,
					  (int)rte_socket_id());
	if (f->pool == NULL) {
		fprintf(stderr, "cannot create a pool of %u mbufs: %s\n", n,
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	for (p = 0; p < f->n_ports; p++) {
		struct lsk_port_params pp = { .n_rxq = 1, .n_txq = 1,
					      .pool = f->pool };
		char desc[256];

		rc = lsk_port_configure((uint16_t)p, &pp, &info);
		if (rc < 0) {
			fprintf(stderr, "port %u: cannot configure: %s\n", p,
				strerror(-rc));
			return rc;
		}
		rte_eth_promiscuous_enable((uint16_t)p);
		lsk_port_describe((uint16_t)p, &info, desc, sizeof(desc));
		printf("%s\n", desc);
	}
	return 0;
}

static int
dut_open(struct bench_feed *f, struct bench_run *run)
{
	unsigned int p;
	int rc;

	for (p = 0; p < f->n_ports; p++) {
		rc = rte_eth_dev_start((uint16_t)p);
		if (rc < 0) {
			fprintf(stderr, "port %u: cannot start: %s\n", p,
				strerror(-rc));
			return rc;
		}
		run->rxq[p].port = (uint16_t)p;
		run->rxq[p].queue = 0;
	}
	run->n_rxq = f->n_ports;
	run->wait_first = true;
	run->until_stop = f->ports != NULL;
	printf("waiting for traffic on %u port(s)%s\n", f->n_ports,
	       f->ports != NULL ? "; forwarding until SIGINT or SIGTERM" : "");
	fflush(stdout);
	return 0;
}

static void
dut_close(struct bench_feed *f)
{
	unsigned int p;

	if (f->ports != NULL)
		bench_ports_read(f);
	for (p = 0; p < f->n_ports; p++)
		rte_eth_dev_stop((uint16_t)p);
}

static void
dut_fini(struct bench_feed *f)
{
	unsigned int p;

	for (p = 0; p < f->n_ports; p++)
		rte_eth_dev_close((uint16_t)p);
}

const struct bench_feed_ops bench_feed_dut = {
	.name = "dut",
	.init = dut_init,
	.open = dut_open,
	.drive = bench_feed_idle,
	.close = dut_close,
	.fini = dut_fini,
	.tx_fn = NULL,
};
