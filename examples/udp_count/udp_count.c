/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp_count: count the UDP datagrams that arrive at one address:port.
 *
 * A small DPDK application built on an installed liblistack, written to be
 * read top to bottom. It shows the whole life of a listack application:
 *
 *   1. EAL init; one mbuf pool sized with lsk_pool_size;
 *   2. a stack (lsk_stack_create) configured from a file (lsk_config_load);
 *   3. a UDP endpoint (lsk_udp_bind) on the address:port of --bind;
 *   4. the ports set up by lsk_port_configure, one RX/TX queue per worker;
 *   5. one worker per worker lcore: rte_eth_rx_burst -> lsk_worker_input
 *      -> lsk_worker_flush, over and over;
 *   6. the main lcore takes datagrams out of the endpoint with
 *      lsk_udp_recv_burst_timeout, counts them, frees them, and prints one
 *      line per second; then the total, and everything is torn down.
 *
 *   udp_count [EAL options] -- --config FILE --bind ADDR:PORT
 *             [--time SECONDS] [--idle-exit SECONDS]
 *
 * It needs at least two lcores (-l 0-1): the main lcore receives, every
 * other lcore runs a worker.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <listack/listack.h>
#include <listack/port.h>
#include <listack/udp.h>

#define EXIT_USAGE 2
#define RX_BURST 32		/* mbufs per rte_eth_rx_burst */
#define RECV_BATCH 256		/* datagrams per lsk_udp_recv_burst_timeout */
#define RECV_WAIT_MAX_US 100000	/* wake up at least this often */
#define MAX_RXQ_PER_WORKER 64

struct options {
	const char *config;
	uint32_t addr;		/* host byte order, like the whole API */
	uint16_t port;
	double run_time;	/* seconds; 0 = until a signal */
	double idle_exit;	/* seconds without a datagram; 0 = never */
};

struct worker {
	unsigned int lcore;
	struct lsk_worker *w;
	unsigned int n_rxq;
	struct {
		uint16_t port, queue;
	} rxq[MAX_RXQ_PER_WORKER];
};

struct counts {
	uint64_t datagrams, bytes;
};

static volatile bool force_quit;
static struct worker workers[LSK_MAX_WORKERS];
static unsigned int n_workers;

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [EAL options] -- --config FILE --bind ADDR:PORT\n"
		"          [--time SECONDS] [--idle-exit SECONDS]\n"
		"  --config FILE        listack configuration (addresses, ...)\n"
		"  --bind ADDR:PORT     where to count datagrams"
		" (0.0.0.0 = any local address)\n"
		"  --time SECONDS       stop after this long\n"
		"  --idle-exit SECONDS  stop when no datagram came for this long\n"
		"Needs 2 lcores or more (-l 0-1).\n", prog);
}

/* "10.0.0.1:9000" -> host byte order address and port. */
static int
parse_addr_port(const char *s, uint32_t *addr, uint16_t *port)
{
	const char *colon = strrchr(s, ':');
	char ip[INET_ADDRSTRLEN];
	struct in_addr in;
	unsigned long p;
	char *end;

	if (colon == NULL || (size_t)(colon - s) >= sizeof(ip))
		return -EINVAL;
	memcpy(ip, s, (size_t)(colon - s));
	ip[colon - s] = '\0';
	if (inet_pton(AF_INET, ip, &in) != 1)
		return -EINVAL;
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (errno || *end != '\0' || colon[1] == '\0' || p == 0 || p > 65535)
		return -EINVAL;
	*addr = ntohl(in.s_addr);
	*port = (uint16_t)p;
	return 0;
}

static int
parse_seconds(const char *name, const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	if (*end != '\0' || end == s || !(*out > 0)) {
		fprintf(stderr, "%s: '%s' is not a positive number of "
			"seconds\n", name, s);
		return -EINVAL;
	}
	return 0;
}

static int
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "bind", required_argument, NULL, 'b' },
		{ "time", required_argument, NULL, 't' },
		{ "idle-exit", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_bind = false;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config = optarg;
			break;
		case 'b':
			if (parse_addr_port(optarg, &o->addr, &o->port) < 0) {
				fprintf(stderr, "--bind: '%s' is not "
					"A.B.C.D:PORT\n", optarg);
				return -EINVAL;
			}
			have_bind = true;
			break;
		case 't':
			if (parse_seconds("--time", optarg, &o->run_time) < 0)
				return -EINVAL;
			break;
		case 'i':
			if (parse_seconds("--idle-exit", optarg,
					  &o->idle_exit) < 0)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (o->config == NULL || !have_bind) {
		fprintf(stderr, "--config and --bind are required\n");
		return -EINVAL;
	}
	return 0;
}

static void
on_signal(int sig)
{
	(void)sig;
	force_quit = true;
}

/*
 * A worker lcore: receive from its queues, push each burst into the stack,
 * and flush. The stack owns every mbuf handed to lsk_worker_input; the
 * datagrams for our endpoint come out of its ring on the main lcore.
 * lsk_worker_flush also reports a quiescent state to the stack's RCU, so
 * it must run every iteration, even when nothing was received.
 */
static int
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct rte_mbuf *pkts[RX_BURST];
	unsigned int i;

	while (!force_quit) {
		for (i = 0; i < wk->n_rxq; i++) {
			uint16_t n = rte_eth_rx_burst(wk->rxq[i].port,
						      wk->rxq[i].queue, pkts,
						      RX_BURST);

			if (n > 0)
				lsk_worker_input(wk->w, pkts, n);
		}
		lsk_worker_flush(wk->w);
	}
	return 0;
}

/* Stack and configuration. The stack's port numbers are ethdev port ids. */
static int
create_stack(const struct options *o, uint16_t n_ports,
	     struct rte_mempool *pool, struct lsk_stack **stack)
{
	struct lsk_stack_params sp = {
		.n_ports = n_ports,
		.socket_id = (int)rte_socket_id(),
		.mode = LSK_MODE_LIST,
		.send_pool = pool,
		.name = "udp_count",
	};
	char err[512];
	uint16_t p;
	int rc;

	rc = lsk_stack_create(&sp, stack);
	if (rc < 0) {
		fprintf(stderr, "cannot create the stack: %s\n", strerror(-rc));
		return rc;
	}
	/* the NIC's MAC, unless the config file gives the port another */
	for (p = 0; p < n_ports; p++) {
		struct rte_ether_addr mac;

		if (rte_eth_macaddr_get(p, &mac) == 0 &&
		    rte_is_unicast_ether_addr(&mac))
			lsk_port_set(*stack, p, &mac, 0);
	}
	rc = lsk_config_load(*stack, o->config, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "%s\n", err);	/* "FILE:LINE: what is wrong" */
	return rc;
}

/* One RX and one TX queue per worker on every port (not started yet). */
static int
setup_ports(struct lsk_stack *stack, uint16_t n_ports,
	    struct rte_mempool *pool)
{
	uint16_t p, q;
	int rc;

	for (p = 0; p < n_ports; p++) {
		struct lsk_port_params pp = {
			.n_rxq = (uint16_t)n_workers,
			.n_txq = (uint16_t)n_workers,
			.pool = pool,
		};
		struct lsk_port_info info;
		char desc[256];

		/* the MTU the config file gave the port */
		lsk_port_get(stack, p, NULL, &pp.mtu);
		rc = lsk_port_configure(p, &pp, &info);
		if (rc < 0) {
			fprintf(stderr, "port %u: cannot configure: %s\n", p,
				strerror(-rc));
			return rc;
		}
		/* each worker needs a TX queue of its own (no locking here) */
		if (info.n_txq < n_workers) {
			fprintf(stderr, "port %u has %u TX queues: run at most "
				"%u worker lcores\n", p, info.n_txq,
				info.n_txq);
			return -ENOTSUP;
		}
		/* the config may give the port a MAC the NIC filters out */
		rte_eth_promiscuous_enable(p);
		lsk_port_describe(p, &info, desc, sizeof(desc));
		printf("%s\n", desc);

		/* RX queue q goes to worker q % n_workers */
		for (q = 0; q < info.n_rxq; q++) {
			struct worker *wk = &workers[q % n_workers];

			if (wk->n_rxq == MAX_RXQ_PER_WORKER)
				continue;
			wk->rxq[wk->n_rxq].port = p;
			wk->rxq[wk->n_rxq].queue = q;
			wk->n_rxq++;
		}
	}
	return 0;
}

/*
 * Per-lcore stack state. A created worker is registered with the stack's
 * RCU at once, and lsk_udp_bind / lsk_udp_close wait for every registered
 * worker to pass lsk_worker_flush: so bind before creating the workers (or
 * once they run), and close after destroying them.
 */
static int
create_workers(struct lsk_stack *stack, uint16_t n_ports)
{
	unsigned int i = 0, lcore;
	uint16_t p;
	int rc;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		workers[i].lcore = lcore;
		rc = lsk_worker_create(stack, i, &workers[i].w);
		if (rc < 0) {
			fprintf(stderr, "cannot create worker %u: %s\n", i,
				strerror(-rc));
			return rc;
		}
		for (p = 0; p < n_ports; p++)
			lsk_worker_set_txq(workers[i].w, p, (uint16_t)i);
		i++;
	}
	return 0;
}

/* Count a batch and give its mbufs back: each datagram is ours to free. */
static void
consume(struct lsk_udp_msg *msgs, int n, struct counts *c)
{
	int i;

	for (i = 0; i < n; i++) {
		c->datagrams++;
		c->bytes += msgs[i].len;	/* payload, msgs[i].payload */
		rte_pktmbuf_free(msgs[i].mbuf);
	}
}

static const char *
addr_str(uint32_t addr, char *buf, size_t len)
{
	struct in_addr in = { .s_addr = htonl(addr) };

	return inet_ntop(AF_INET, &in, buf, (socklen_t)len);
}

static void
print_second(unsigned int second, const struct counts *c)
{
	printf("%4u s: %" PRIu64 " datagrams, %" PRIu64 " bytes\n", second,
	       c->datagrams, c->bytes);
	fflush(stdout);
}

/*
 * The application: wait for datagrams until the next second boundary (at
 * most RECV_WAIT_MAX_US, so signals are noticed), print each second's
 * counts, stop on a signal, --time or --idle-exit. Datagrams of the
 * unfinished second are left in *this_second.
 */
static int
receive_loop(struct lsk_udp_ep *ep, const struct options *o,
	     struct counts *total, struct counts *this_second,
	     unsigned int *second)
{
	const uint64_t hz = rte_get_timer_hz();
	const uint64_t start = rte_get_timer_cycles();
	const uint64_t run_cycles = (uint64_t)(o->run_time * (double)hz);
	const uint64_t idle_cycles = (uint64_t)(o->idle_exit * (double)hz);
	uint64_t next_tick = start + hz, last_rx = start;
	struct lsk_udp_msg msgs[RECV_BATCH];

	while (!force_quit) {
		uint64_t now = rte_get_timer_cycles();
		uint64_t wait_us = 0;
		int n;

		if (now < next_tick)
			wait_us = (next_tick - now) * 1000000 / hz;
		wait_us = RTE_MIN(wait_us, (uint64_t)RECV_WAIT_MAX_US);
		n = lsk_udp_recv_burst_timeout(ep, msgs, RECV_BATCH, wait_us);
		if (n < 0) {
			fprintf(stderr, "lsk_udp_recv_burst_timeout: %s\n",
				strerror(-n));
			return n;
		}
		consume(msgs, n, this_second);
		now = rte_get_timer_cycles();
		if (n > 0)
			last_rx = now;
		if (now >= next_tick) {
			print_second(++*second, this_second);
			total->datagrams += this_second->datagrams;
			total->bytes += this_second->bytes;
			memset(this_second, 0, sizeof(*this_second));
			next_tick += hz;
		}
		if (run_cycles > 0 && now - start >= run_cycles)
			break;
		if (idle_cycles > 0 && now - last_rx >= idle_cycles)
			break;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct counts total = { 0 }, this_second = { 0 };
	struct lsk_udp_bind_opts bo = { .socket_id = SOCKET_ID_ANY };
	struct lsk_stack *stack = NULL;
	struct lsk_udp_ep *ep = NULL;
	struct rte_mempool *pool;
	struct lsk_udp_msg msgs[RECV_BATCH];
	struct options o;
	char addr[INET_ADDRSTRLEN];
	unsigned int i, n_pool, second = 0;
	uint64_t start;
	uint16_t n_ports, p;
	int rc, n, ret = 1;

	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return EXIT_USAGE;
	}
	if (parse_options(argc - rc, argv + rc, &o) < 0) {
		usage(argv[0]);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	n_ports = rte_eth_dev_count_avail();
	n_workers = rte_lcore_count() - 1;
	if (n_ports == 0 || n_ports > LSK_MAX_PORTS) {
		fprintf(stderr, "%u ports: give 1 to %u ports with --vdev or "
			"PCI devices\n", n_ports, LSK_MAX_PORTS);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	if (n_workers == 0 || n_workers > LSK_MAX_WORKERS) {
		fprintf(stderr, "%u lcores: the main lcore receives and every "
			"other runs a worker, so give 2 to %u (-l 0-1)\n",
			rte_lcore_count(), LSK_MAX_WORKERS + 1);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}

	/*
	 * lsk_pool_size counts what the ports and workers can hold; the
	 * endpoint's ring keeps up to ring_size datagrams more until we
	 * dequeue them, and we hold one batch.
	 */
	bo.ring_size = LSK_UDP_RING_DEFAULT;
	n_pool = lsk_pool_size(n_ports * n_workers * 1024,
			       n_ports * n_workers * 1024, n_workers, n_ports,
			       rte_lcore_count()) + bo.ring_size + RECV_BATCH;
	pool = rte_pktmbuf_pool_create("udp_count", n_pool, LSK_POOL_CACHE, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       (int)rte_socket_id());
	if (pool == NULL) {
		fprintf(stderr, "cannot create a pool of %u mbufs: %s\n",
			n_pool, rte_strerror(rte_errno));
		rte_eal_cleanup();
		return 1;
	}

	if (create_stack(&o, n_ports, pool, &stack) < 0) {
		ret = EXIT_USAGE;
		goto out_stack;
	}
	/* one worker: its single-producer enqueue is enough */
	if (n_workers == 1)
		bo.flags |= LSK_UDP_SP;
	rc = lsk_udp_bind(stack, o.addr, o.port, &bo, &ep);
	if (rc < 0) {
		fprintf(stderr, "cannot bind %s:%u: %s\n",
			addr_str(o.addr, addr, sizeof(addr)), o.port,
			strerror(-rc));
		ret = EXIT_USAGE;
		goto out_stack;
	}
	if (setup_ports(stack, n_ports, pool) < 0 ||
	    create_workers(stack, n_ports) < 0)
		goto out_workers;
	for (p = 0; p < n_ports; p++) {
		rc = rte_eth_dev_start(p);
		if (rc < 0) {
			fprintf(stderr, "port %u: cannot start: %s\n", p,
				strerror(-rc));
			goto out_ports;
		}
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("udp_count: %u ports, %u workers, counting %s:%u\n", n_ports,
	       n_workers, addr_str(o.addr, addr, sizeof(addr)), o.port);
	fflush(stdout);
	for (i = 0; i < n_workers; i++)
		rte_eal_remote_launch(worker_main, &workers[i],
				      workers[i].lcore);

	start = rte_get_timer_cycles();
	rc = receive_loop(ep, &o, &total, &this_second, &second);
	force_quit = true;
	rte_eal_mp_wait_lcore();

	/* what the workers delivered before they stopped still counts */
	while ((n = lsk_udp_recv_burst(ep, msgs, RECV_BATCH)) > 0)
		consume(msgs, n, &this_second);
	if (this_second.datagrams > 0)
		print_second(++second, &this_second);
	total.datagrams += this_second.datagrams;
	total.bytes += this_second.bytes;
	printf("total: %" PRIu64 " datagrams, %" PRIu64 " bytes in %.1f s\n",
	       total.datagrams, total.bytes,
	       (double)(rte_get_timer_cycles() - start) /
	       (double)rte_get_timer_hz());
	ret = rc < 0 ? 1 : 0;

out_ports:
	for (p = 0; p < n_ports; p++)
		rte_eth_dev_stop(p);
out_workers:
	for (i = 0; i < n_workers; i++)
		lsk_worker_destroy(workers[i].w);
	/* after the workers are gone: close waits for registered workers */
	lsk_udp_close(ep);
	for (p = 0; p < n_ports; p++)
		rte_eth_dev_close(p);
out_stack:
	lsk_stack_destroy(stack);
	if (rte_mempool_in_use_count(pool) != 0) {
		fprintf(stderr, "%u mbufs were not given back\n",
			rte_mempool_in_use_count(pool));
		ret = 1;
	}
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return ret;
}
