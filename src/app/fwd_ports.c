/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd's mbuf pools (one per NUMA node with ports, --mbufs and
 * --mbuf-size) and its ports' set-up, with the hint a device's refusal
 * deserves: which option would cure it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "listack/port.h"
#include "fwd.h"
#include "fwd_opts.h"

static struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
static unsigned int pool_mbufs;	/* what each pool was made with */
static unsigned int pool_data;	/* bytes of data an mbuf holds */
static struct rte_mempool *probe_pool;	/* port_error's */
static uint16_t n_started;	/* ports 0 .. n_started - 1 run */

static int
create_pools(unsigned int n_ports, unsigned int n_workers,
	     const struct lsk_port_info *guess, const struct fwd_opts *o)
{
	unsigned int per_socket[RTE_MAX_NUMA_NODES] = { 0 };
	unsigned int p, s;

	pool_data = o->mbuf_size ? o->mbuf_size : RTE_MBUF_DEFAULT_DATAROOM;
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
		n = o->mbufs ? o->mbufs :
		    lsk_pool_size(per_socket[s], 0, n_workers, n_ports,
				  rte_lcore_count());
		pool_mbufs = n;
		snprintf(name, sizeof(name), "fwd_pool_%u", s);
		pools[s] = rte_pktmbuf_pool_create(name, n, LSK_POOL_CACHE, 0,
						   (uint16_t)(pool_data +
						   RTE_PKTMBUF_HEADROOM),
						   (int)s);
		if (pools[s] == NULL && s != 0)
			pools[s] = pools[0];
		if (pools[s] == NULL) {
			fprintf(stderr, "cannot create a pool of %u mbufs of %u "
				"bytes: %s (give EAL more memory with -m, or "
				"fewer mbufs with --mbufs N)\n", n, pool_data,
				rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	return 0;
}

struct rte_mempool *
fwd_pool_of_port(uint16_t port)
{
	int sock = rte_eth_dev_socket_id(port);

	if (sock < 0 || sock >= RTE_MAX_NUMA_NODES || pools[sock] == NULL)
		sock = 0;
	return pools[sock];
}

/*
 * Would the device take its RX queue from a pool of the largest mbufs?
 * A few of them (the pool stays until the ports are closed: the queue
 * now names it).
 */
static bool
larger_mbufs_fit(uint16_t port)
{
	int sock = rte_eth_dev_socket_id(port);

	if (probe_pool == NULL)
		probe_pool = rte_pktmbuf_pool_create("fwd_probe", 64, 0, 0,
						     UINT16_MAX,
						     sock < 0 ? 0 : sock);
	return probe_pool != NULL &&
	       rte_eth_rx_queue_setup(port, 0, 0, (unsigned int)RTE_MAX(sock,
				      0), NULL, probe_pool) == 0;
}

/*
 * A device that runs short of mbufs fails its queue set-up or its start
 * (net_pcap with infinite_rx holds its whole file in them) with an errno
 * that does not say so, and so does one whose frames do not fit in an
 * mbuf (net_af_packet with a framesz above the data room: "8160 bytes
 * will not fit in mbuf (2048 bytes)"). A queue set up from a few of the
 * largest mbufs tells them apart: the operator is told which option
 * cures it.
 */
static void
port_error(uint16_t port, const char *what, int rc)
{
	if (strcmp(what, "configure") == 0 && larger_mbufs_fit(port))
		fprintf(stderr, "port %u: cannot %s: %s (an mbuf holds %u "
			"bytes of data, the device's frames need more: give "
			"--mbuf-size BYTES)\n", port, what, strerror(-rc),
			pool_data);
	else
		fprintf(stderr, "port %u: cannot %s: %s (the mbuf pool holds %u "
			"mbufs: if the device needs more, give --mbufs N)\n",
			port, what, strerror(-rc), pool_mbufs);
}

int
fwd_setup_ports(struct fwd_app *app, const struct fwd_opts *o,
		struct lsk_port_info *info)
{
	struct lsk_port_info guess = { .nb_rxd = 1024, .nb_txd = 1024 };
	uint16_t p;
	int rc;

	rc = create_pools(app->n_ports, app->n_workers, &guess, o);
	if (rc < 0)
		return rc;
	for (p = 0; p < app->n_ports; p++) {
		struct lsk_port_params pp = {
			.n_rxq = (uint16_t)app->n_workers,
			.n_txq = (uint16_t)app->n_workers,
			.pool = fwd_pool_of_port(p),
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

int
fwd_start_ports(struct fwd_app *app)
{
	uint16_t p;
	int rc;

	for (p = 0; p < app->n_ports; p++) {
		rc = rte_eth_dev_start(p);
		if (rc < 0) {
			port_error(p, "start", rc);
			return rc;
		}
		n_started = p + 1;
	}
	return 0;
}

void
fwd_close_ports(struct fwd_app *app)
{
	uint16_t p;

	/* a started device is stopped first, else ethdev refuses to close
	 * it ("Cannot close started device") */
	for (p = 0; p < n_started; p++)
		rte_eth_dev_stop(p);
	n_started = 0;
	for (p = 0; p < app->n_ports; p++)
		rte_eth_dev_close(p);
}

/* Each pool once (a node without one shares node 0's). */
static bool
pool_first(unsigned int s)
{
	unsigned int t;

	for (t = 0; t < s; t++)
		if (pools[t] == pools[s])
			return false;
	return pools[s] != NULL;
}

long long
fwd_mbufs_in_use(void)
{
	long long n = 0;
	unsigned int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (pool_first(s))
			n += rte_mempool_in_use_count(pools[s]);
	return n;
}

void
fwd_pools_each(void (*fn)(void *arg, struct rte_mempool *mp), void *arg)
{
	unsigned int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (pool_first(s))
			fn(arg, pools[s]);
}

void
fwd_free_pools(void)
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
	rte_mempool_free(probe_pool);
	probe_pool = NULL;
}
