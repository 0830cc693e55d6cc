/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pcap feed: the traffic written to a pcap once, replayed forever by
 * net_pcap (rx_pcap=FILE,infinite_rx=1) as port 0; port 1 is a net_null
 * sink whose TX frees (no-rx=1). This is how DPDK's l3fwd is fed on a
 * machine without a NIC, so the same file runs through both: the bench
 * prints the l3fwd command line (with route files matching our routes).
 *
 * infinite_rx loads the whole file into mbufs of the RX queue's pool at
 * queue setup and copies each frame into a fresh mbuf in rx_burst, so the
 * pool holds the file plus the working set, and the copy is part of every
 * figure (of l3fwd's too). As a NIC's RX does, rx_burst writes each mbuf
 * and frame on the worker's own core (the ring feed's generator writes
 * them on another).
 *
 * The file holds the packets the ring feed's generator would make for the
 * scenario (bench_gen: flows in turn, per-flow IP IDs where the scenario
 * wants them), every flow at least once. net_pcap sets no checksum flags;
 * for a scenario whose traffic a NIC would flag (rx_cksum_good: the GRO
 * ones), an RX callback sets them as the sfc PMD does, from checksums it
 * computes (rx_cksum.c): GOOD only for a checksum that is right. Its
 * cycles are the NIC's work, and so are most of the sink's (net_null frees
 * each mbuf alone, a NIC's TX completion in bulk): for these scenarios the
 * bench times both and shows them apart.
 *
 * Forwarded packets are spot-checked in the worker's TX hook (the first
 * calls, then one packet every CHECK_EVERY calls) before they go to the
 * sink. With route churn (scenario_churn.c) every packet's next hop is
 * checked there too (a few compares a packet, in every variant alike):
 * one to a churned route leaves to either gateway, any other to the
 * first only, else the full check records it as a failure (misrouted).
 * With --table (table.h) the flow's allowed gateways are those of its
 * destination's longest match in the table (one load a packet more).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "bench.h"
#include "table.h"
#include "listack/port.h"

#define FILE_MIN_PACKETS 1024
#define CHECK_FIRST 8
#define CHECK_EVERY 256

struct pcap_feed {
	char path[PATH_MAX];
	char rules4[PATH_MAX + 16], rules6[PATH_MAX + 16];
	unsigned int file_packets;
	uint16_t port[2];
	bool open[2];
	uint64_t tx_calls;
	/* the GRO scenarios: the sink's cycles, timed (bench.h) */
	struct bench_feed_work *work;
	/* the checksum callback on port 0 (the GRO scenarios), removed at
	 * close: ethdev keeps a port id's callbacks after the port is
	 * closed, so the next variant's port 0 would run them too */
	const struct rte_eth_rxtx_callback *rx_cb;
};

static const char *const vdev_name[2] = { "net_pcap0", "net_null1" };

static int
pcap_write_file(struct pcap_feed *pf, const struct bench_feed *f)
{
	const struct bench_traffic *t = f->traffic;
	uint8_t frame[RTE_ETHER_HDR_LEN + 1500];
	struct pcap_pkthdr h;
	struct bench_gen gen;
	pcap_dumper_t *d;
	pcap_t *p;
	unsigned int i;
	int rc;

	/* the scenario's plan: its variants all send what it plans (a
	 * scenario whose variants plan otherwise is ring_only) */
	rc = bench_gen_init(&gen, t, f->scenario, NULL, false);
	if (rc < 0) {
		bench_gen_fini(&gen);
		return rc;
	}
	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (p == NULL) {
		bench_gen_fini(&gen);
		return -ENOMEM;
	}
	d = pcap_dump_open(p, pf->path);
	if (d == NULL) {
		fprintf(stderr, "%s: %s\n", pf->path, pcap_geterr(p));
		pcap_close(p);
		bench_gen_fini(&gen);
		return -EIO;
	}
	memset(&h, 0, sizeof(h));
	h.caplen = h.len = t->size;
	for (i = 0; i < pf->file_packets; i++) {
		struct bench_flow fl;
		uint16_t id;

		bench_gen_next(t, &gen, &fl, &id);
		bench_write_frame(t, frame, &fl, id);
		h.ts.tv_usec = (suseconds_t)i;
		pcap_dump((u_char *)d, &h, frame);
	}
	pcap_dump_close(d);
	pcap_close(p);
	bench_gen_fini(&gen);
	return 0;
}

/* l3fwd --rule_ipv4/--rule_ipv6 files: our routes, all out port 1. */
static int
pcap_write_rules(struct pcap_feed *pf, const struct bench_traffic *t)
{
	FILE *f4 = fopen(pf->rules4, "w"), *f6 = fopen(pf->rules6, "w");
	uint32_t k;
	int rc = 0;

	if (f4 == NULL || f6 == NULL) {
		rc = -errno;
	} else {
		for (k = 0; k < t->routes; k++) {
			uint32_t a = t->table != NULL ?
				     bench_table_addr(t->table, k) :
				     bench_route_prefix(t, k);

			fprintf(f4, "R%u.%u.%u.%u/%u 1\n", a >> 24,
				(a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff,
				t->table != NULL ?
				bench_table_len(t->table, k) : 24);
		}
		/* IPv6 traffic: the same /56s the stack routes; else
		 * one rule (l3fwd wants a file for each family) */
		for (k = 0; t->ip6 && k < t->routes; k++) {
			uint8_t a[16];
			char text[INET6_ADDRSTRLEN];

			bench_ip6_dst(bench_route_prefix(t, k), a);
			memset(a + 8, 0, 8);
			inet_ntop(AF_INET6, a, text, sizeof(text));
			fprintf(f6, "R%s/56 1\n", text);
		}
		if (!t->ip6)
			fprintf(f6, "R2001:db8::/32 1\n");
	}
	if (f4 != NULL && fclose(f4) != 0 && rc == 0)
		rc = -errno;
	if (f6 != NULL && fclose(f6) != 0 && rc == 0)
		rc = -errno;
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", pf->rules4, strerror(-rc));
	return rc;
}

static void
pcap_print_l3fwd(const struct pcap_feed *pf)
{
	const char *l3fwd = getenv("L3FWD");
	bool packaged = access("/usr/bin/dpdk-l3fwd", X_OK) == 0;
	char cmd[4 * PATH_MAX];

	if (l3fwd == NULL)
		l3fwd = packaged ? "/usr/bin/dpdk-l3fwd" : "dpdk-l3fwd";
	snprintf(cmd, sizeof(cmd),
		 "%s -l 1 --no-huge --no-pci -m 1024 --file-prefix l3fwd-cmp"
		 " --vdev 'net_pcap0,rx_pcap=%s,infinite_rx=1'"
		 " --vdev 'net_null1,no-rx=1' -- -p 0x3 --config '(0,0,1)'"
		 " --parse-ptype --rule_ipv4 %s --rule_ipv6 %s",
		 l3fwd, pf->path, pf->rules4, pf->rules6);
	printf("the same traffic through DPDK l3fwd (LPM, one forwarding "
	       "lcore, same feed and sink):\n  %s\n"
	       "its rate (port 1 opackets over telemetry):\n"
	       "  bench/ethdev-rate.py --ghz %.3f -- %s\n", cmd,
	       (double)rte_get_tsc_hz() / 1e9, cmd);
	if (getenv("L3FWD") == NULL && !packaged)
		printf("  (Debian packages no dpdk-l3fwd: bench/build-l3fwd.sh "
		       "builds it from dpdk-doc's examples; set L3FWD=path)\n");
}

static int
pcapfeed_init(struct bench_feed *f)
{
	const struct bench_traffic *t = f->traffic;
	struct pcap_feed *pf = calloc(1, sizeof(*pf));
	unsigned int n;
	int rc;

	if (pf == NULL)
		return -ENOMEM;
	f->priv = pf;
	f->n_ports = 2;
	if (f->opts->pcap_path != NULL)
		snprintf(pf->path, sizeof(pf->path), "%s", f->opts->pcap_path);
	else
		snprintf(pf->path, sizeof(pf->path),
			 "/tmp/listack-bench-%s-%uf-%ur-%ub.pcap",
			 f->opts->scenario, t->flows, t->routes, t->size);
	snprintf(pf->rules4, sizeof(pf->rules4), "%s.l3fwd-v4.rules",
		 pf->path);
	snprintf(pf->rules6, sizeof(pf->rules6), "%s.l3fwd-v6.rules",
		 pf->path);
	/* every flow at least once; F >= 1024 is one packet per flow */
	pf->file_packets = t->flows >= FILE_MIN_PACKETS ? t->flows :
		t->flows * ((FILE_MIN_PACKETS + t->flows - 1) / t->flows);
	rc = pcap_write_file(pf, f);
	if (rc == 0)
		rc = pcap_write_rules(pf, t);
	if (rc < 0)
		return rc;
	printf("pcap feed: %s, %u packets\n", pf->path, pf->file_packets);
	pcap_print_l3fwd(pf);

	n = pf->file_packets +
	    lsk_pool_size(1024, 1024, 1, 2, rte_lcore_count());
	f->pool = rte_pktmbuf_pool_create("bench_pool", n, LSK_POOL_CACHE, 0,
					  RTE_MBUF_DEFAULT_BUF_SIZE,
					  (int)rte_socket_id());
	if (f->pool == NULL) {
		fprintf(stderr, "cannot create a pool of %u mbufs: %s%s\n", n,
			rte_strerror(rte_errno),
			rte_errno == ENOMEM ? " (give EAL more memory: -m 1024)" :
			"");
		return -ENOMEM;
	}
	return 0;
}

/* Every packet's next hop (route-churn): the destination MAC against the
 * gateways its route may have now; the full check names what is wrong. */
static void
pcap_check_next_hops(struct bench_feed *f, struct rte_mbuf **pkts,
		     uint16_t n, uint16_t port)
{
	const struct bench_traffic *t = f->traffic;
	uint16_t i;

	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eh =
			rte_pktmbuf_mtod(pkts[i], const struct rte_ether_hdr *);
		const struct rte_ipv4_hdr *ip =
			(const struct rte_ipv4_hdr *)(eh + 1);
		uint32_t k = (rte_be_to_cpu_32(ip->dst_addr) -
			      t->route_base) >> 8;

		if (t->table_flows != NULL) {
			if (likely(port == 1 &&
				   pkts[i]->data_len >= BENCH_HDR_LEN &&
				   bench_table_hop_ok(t, eh)))
				continue;
		} else if (likely(port == 1 &&
			   (rte_is_same_ether_addr(&eh->dst_addr, &t->gw_mac) ||
			    (k < t->churn_routes &&
			     rte_is_same_ether_addr(&eh->dst_addr,
						    &t->gw2_mac)))))
			continue;
		bench_feed_check(f, pkts[i], port);
	}
	f->next_hops_checked += n;
}

static uint16_t
pcap_tx_checked(void *arg, uint16_t port, uint16_t queue,
		struct rte_mbuf **pkts, uint16_t n)
{
	struct bench_feed *f = arg;
	struct pcap_feed *pf = f->priv;

	struct bench_feed_work *work = pf->work;
	uint64_t t0;
	uint16_t sent;

	if (unlikely(pf->tx_calls++ < CHECK_FIRST ||
		     pf->tx_calls % CHECK_EVERY == 0))
		bench_feed_check(f, pkts[0], port);
	if (f->traffic->churn_routes != 0 && !f->traffic->ip6)
		pcap_check_next_hops(f, pkts, n, port);
	if (work == NULL)
		return rte_eth_tx_burst(port, queue, pkts, n);
	t0 = rte_rdtsc();
	sent = rte_eth_tx_burst(port, queue, pkts, n);
	work->sink_cycles += rte_rdtsc() - t0;
	work->sink_packets += sent;
	return sent;
}

static int
pcapfeed_open(struct bench_feed *f, struct bench_run *run)
{
	struct pcap_feed *pf = f->priv;
	char args[PATH_MAX + 32];
	unsigned int p;
	int rc;

	pf->tx_calls = 0;
	pf->work = f->scenario->rx_cksum_good ? &run->emul : NULL;
	for (p = 0; p < 2; p++) {
		struct lsk_port_params pp = { .n_rxq = 1, .n_txq = 1,
					      .pool = f->pool };
		struct lsk_port_info info;

		if (p == 0)
			snprintf(args, sizeof(args),
				 "rx_pcap=%s,infinite_rx=1", pf->path);
		else
			snprintf(args, sizeof(args), "no-rx=1");
		rc = rte_vdev_init(vdev_name[p], args);
		if (rc < 0) {
			fprintf(stderr, "%s,%s: %s\n", vdev_name[p], args,
				strerror(-rc));
			return rc;
		}
		pf->open[p] = true;
		rc = rte_eth_dev_get_port_by_name(vdev_name[p], &pf->port[p]);
		if (rc == 0 && pf->port[p] != p) {
			fprintf(stderr, "%s is port %u, not %u: an earlier "
				"port was not released\n", vdev_name[p],
				pf->port[p], p);
			rc = -EEXIST;
		}
		if (rc == 0)
			rc = lsk_port_configure(pf->port[p], &pp, &info);
		if (rc == 0 && p == 0 && f->scenario->rx_cksum_good) {
			pf->rx_cb = rte_eth_add_rx_callback(pf->port[p], 0,
				bench_rx_cksum_cb, &run->emul);
			if (pf->rx_cb == NULL)
				rc = -rte_errno;
		}
		if (rc == 0)
			rc = rte_eth_dev_start(pf->port[p]);
		if (rc < 0) {
			fprintf(stderr, "%s: %s%s\n", vdev_name[p],
				strerror(-rc), rc == -ENOMEM ?
				" (give EAL more memory: -m 1024)" : "");
			return rc;
		}
	}
	run->n_rxq = 1;
	run->rxq[0].port = pf->port[0];
	run->rxq[0].queue = 0;
	run->wait_first = false;
	return 0;
}

static void
pcapfeed_close(struct bench_feed *f)
{
	struct pcap_feed *pf = f->priv;
	unsigned int p;

	if (pf->rx_cb != NULL) {
		/* the worker has stopped: nothing runs the callback now,
		 * so its memory (ethdev's, not freed on removal) can go */
		if (rte_eth_remove_rx_callback(pf->port[0], 0, pf->rx_cb) == 0)
			rte_free((void *)(uintptr_t)pf->rx_cb);
		pf->rx_cb = NULL;
	}
	for (p = 0; p < 2; p++) {
		if (!pf->open[p])
			continue;
		rte_eth_dev_stop(pf->port[p]);
		rte_eth_dev_close(pf->port[p]);
		rte_vdev_uninit(vdev_name[p]);
		pf->open[p] = false;
	}
}

const struct bench_feed_ops bench_feed_pcap = {
	.name = "pcap",
	.init = pcapfeed_init,
	.open = pcapfeed_open,
	.drive = bench_feed_idle,
	.close = pcapfeed_close,
	.fini = bench_feed_free_priv,
	.tx_fn = pcap_tx_checked,
};
