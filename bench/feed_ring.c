/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ring feed: two net_ring ports made with rte_eth_from_rings and a
 * generator on the main lcore, standing in for a NIC.
 *
 *   generator --rx ring--> port 0 RX -> worker (listack) -> port 1 TX
 *       ^                                                      |
 *       +-------------------- tx ring <------------------------+
 *
 * Like a NIC's DMA the generator hands the worker mbufs whose frame is
 * already in memory: a fresh mbuf gets its whole frame written once; an
 * mbuf that comes back through port 1's TX ring gets new Ethernet, IPv4
 * and UDP headers only (the next flow, its checksums) and the mbuf fields
 * a PMD's RX would set. Mbufs the stack drops go back to the mempool and
 * are replaced by fresh ones. The worker pays no payload copy (unlike the
 * pcap feed, whose rx_burst copies every frame).
 *
 * The generator spot-checks forwarded packets as they come back (first
 * bursts whole, then one packet every CHECK_EVERY bursts) and counts
 * anything the stack sends out port 0 as wrong.
 *
 * Every packet's mbuf line and frame line cross between the two cores
 * twice (generator -> worker -> generator), so the figures of this feed
 * follow the core-to-core latency, which the bench measures and prints:
 * under KVM the host moves the vCPUs and it changes from run to run. The
 * generator hides its side of it by prefetching a batch one round ahead;
 * the worker's side is the stack's, as with a NIC's DMA'd frames. When the
 * ring is full the generator waits on the TSC (no PAUSE loop, no touching
 * the ring's shared lines).
 */
#include <errno.h>
#include <stdio.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "bench.h"
#include "listack/port.h"
#include "listack/udp.h"

#define RX_RING_SIZE 1024u	/* as a NIC's RX descriptor ring */
#define TX_RING_SIZE 2048u
#define GEN_BURST 64u
static_assert(GEN_BURST >= BENCH_BURST, "generator arrays also take drained bursts");
#define CHECK_FIRST_BURSTS 4
#define CHECK_EVERY 16		/* bursts between spot checks */

struct ring_feed {
	struct rte_ring *rx[2], *tx[2];
	uint16_t port[2];
	char name[2][RTE_ETH_NAME_MAX_LEN];
	unsigned int opened;		/* variants so far: unique names */
	struct bench_gen gen;		/* the traffic plan of the variant */
	unsigned int population;	/* mbufs the generator keeps going */
	uint32_t mbuf_to_data;		/* mbuf address -> frame address */
	uint64_t ol_flags;		/* what the "PMD" flags on RX */
	uint64_t drain_calls;		/* bench_drain_ep bursts */
	uint32_t shuffle;		/* --rx-order scattered's state */
};

static int
ring_init(struct bench_feed *f)
{
	struct ring_feed *rf = calloc(1, sizeof(*rf));
	unsigned int n;

	if (rf == NULL)
		return -ENOMEM;
	f->priv = rf;
	f->n_ports = 2;
	/* the RX ring full, a burst at the worker, a burst in the
	 * generator's hands, the TX ring, and every lcore's cache */
	n = lsk_pool_size(RX_RING_SIZE, TX_RING_SIZE, 1, 2, rte_lcore_count()) +
	    f->scenario->pool_extra;
	f->pool = rte_pktmbuf_pool_create("bench_pool", n, LSK_POOL_CACHE, 0,
					  RTE_MBUF_DEFAULT_BUF_SIZE,
					  (int)rte_socket_id());
	if (f->pool == NULL) {
		fprintf(stderr, "cannot create a pool of %u mbufs: %s\n", n,
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	/* enough to keep the RX ring full like a NIC's descriptor ring,
	 * with a batch being rewritten, the next one prefetched and a
	 * burst or two at the worker */
	rf->population = RX_RING_SIZE - 1 + 2 * GEN_BURST + 2 * BENCH_BURST;
	rf->shuffle = 2463534242u;	/* xorshift32 needs a non-zero seed */
	rf->mbuf_to_data = (uint32_t)(sizeof(struct rte_mbuf) +
				      rte_pktmbuf_priv_size(f->pool) +
				      RTE_PKTMBUF_HEADROOM);
	return 0;
}

static struct rte_ring *
ring_make(const char *what, unsigned int v, unsigned int p,
	  unsigned int size)
{
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;

	snprintf(name, sizeof(name), "b%s%u_%u", what, v, p);
	r = rte_ring_create(name, size, (int)rte_socket_id(),
			    RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (r == NULL)
		fprintf(stderr, "cannot create ring %s: %s\n", name,
			rte_strerror(rte_errno));
	return r;
}

static int
ring_open(struct bench_feed *f, struct bench_run *run)
{
	struct ring_feed *rf = f->priv;
	unsigned int v = rf->opened++, p;
	int rc;

	for (p = 0; p < 2; p++) {
		struct lsk_port_params pp = { .n_rxq = 1, .n_txq = 1,
					      .nb_rxd = RX_RING_SIZE,
					      .nb_txd = TX_RING_SIZE,
					      .pool = f->pool };
		struct lsk_port_info info;

		rf->rx[p] = ring_make("rx", v, p, RX_RING_SIZE);
		rf->tx[p] = ring_make("tx", v, p, TX_RING_SIZE);
		if (rf->rx[p] == NULL || rf->tx[p] == NULL)
			return -ENOMEM;
		snprintf(rf->name[p], sizeof(rf->name[p]), "net_ring_b%up%u",
			 v, p);
		rc = rte_eth_from_rings(rf->name[p], &rf->rx[p], 1,
					&rf->tx[p], 1, rte_socket_id());
		if (rc < 0) {
			fprintf(stderr, "rte_eth_from_rings %s: %s\n",
				rf->name[p], rte_strerror(rte_errno));
			rf->name[p][0] = '\0';
			return -rte_errno;
		}
		rf->port[p] = (uint16_t)rc;
		if (rf->port[p] != p) {
			fprintf(stderr, "%s is port %u, not %u: an earlier "
				"port was not released\n", rf->name[p],
				rf->port[p], p);
			return -EEXIST;
		}
		rc = lsk_port_configure(rf->port[p], &pp, &info);
		if (rc == 0)
			rc = rte_eth_dev_start(rf->port[p]);
		if (rc < 0) {
			fprintf(stderr, "port %u: %s\n", p, strerror(-rc));
			return rc;
		}
	}
	/* every variant sees the same packets in the same order; as sfc
	 * with RSS on, the flow's hash with each packet */
	rc = bench_gen_init(&rf->gen, f->traffic, f->scenario, f->variant,
			    f->scenario->rx_cksum_good);
	if (rc < 0)
		return rc;
	rf->drain_calls = 0;
	/* IPv6 has no header checksum: a NIC vouches for UDP's only */
	rf->ol_flags = !f->scenario->rx_cksum_good ? 0 :
		f->traffic->ip6 ? RTE_MBUF_F_RX_L4_CKSUM_GOOD :
		RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	if (rf->gen.flow_rss != NULL)
		rf->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
	run->n_rxq = 1;
	run->rxq[0].port = rf->port[0];
	run->rxq[0].queue = 0;
	run->wait_first = false;
	return 0;
}

/* Set the fields a PMD's RX sets; the frame is in place. */
static inline void
mbuf_as_received(struct rte_mbuf *m, uint16_t size, uint16_t port,
		 uint64_t ol_flags)
{
	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = size;
	m->pkt_len = size;
	m->nb_segs = 1;
	m->port = port;
	m->ol_flags = ol_flags;
	m->packet_type = 0;
}

/* Both lines the generator writes: the mbuf's first and the frame's. */
static inline void
prefetch_for_write(const struct ring_feed *rf, struct rte_mbuf *m)
{
	__builtin_prefetch(m, 1, 3);
	__builtin_prefetch((uint8_t *)m + rf->mbuf_to_data, 1, 3);
}

/*
 * Forwarded packets back from port 1's TX: spot-check (whole bursts at
 * first, then one packet every CHECK_EVERY bursts; all of them under
 * route churn), then new headers.
 * ring_drive has prefetched the lines.
 */
static unsigned int
ring_recycle(struct bench_feed *f, struct ring_feed *rf,
	     struct rte_mbuf **b, unsigned int n, unsigned int burst)
{
	const struct bench_traffic *t = f->traffic;
	unsigned int i;

	/* IPv6: the stack's own ND upkeep (DAD) is no mbuf of ours */
	if (unlikely(t->ip6)) {
		unsigned int k = 0;

		for (i = 0; i < n; i++) {
			if (bench_nd_upkeep(b[i]))
				rte_pktmbuf_free(b[i]);
			else
				b[k++] = b[i];
		}
		n = k;
	}

	/* route-churn: every packet, for the one a change misrouted */
	if (burst < CHECK_FIRST_BURSTS || t->churn_routes != 0)
		for (i = 0; i < n; i++)
			bench_feed_check(f, b[i], 1);
	else if (burst % CHECK_EVERY == 0)
		bench_feed_check(f, b[0], 1);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = b[i];
		struct bench_flow fl;
		uint16_t id;

		bench_gen_next(t, &rf->gen, &fl, &id);
		mbuf_as_received(m, t->size, rf->port[0], rf->ol_flags);
		m->hash.rss = rf->gen.rss;
		/* the frame's address from the mbuf's: no load to wait on */
		bench_write_headers(t, (uint8_t *)m + rf->mbuf_to_data, &fl,
				    id);
	}
	return n;
}

/* Fresh mbufs: the whole frame, once. */
static unsigned int
ring_fresh(struct bench_feed *f, struct ring_feed *rf, struct rte_mbuf **b,
	   unsigned int want)
{
	const struct bench_traffic *t = f->traffic;
	unsigned int in_use = rte_mempool_in_use_count(f->pool), i;

	if (in_use >= rf->population)
		return 0;
	want = RTE_MIN(want, rf->population - in_use);
	if (rte_pktmbuf_alloc_bulk(f->pool, b, want) != 0)
		return 0;
	for (i = 0; i < want; i++) {
		struct bench_flow fl;
		uint16_t id;

		bench_gen_next(t, &rf->gen, &fl, &id);
		mbuf_as_received(b[i], t->size, rf->port[0], rf->ol_flags);
		b[i]->hash.rss = rf->gen.rss;
		bench_write_frame(t, rte_pktmbuf_mtod(b[i], uint8_t *), &fl,
				  id);
	}
	return want;
}

/* Whatever the stack sent out port 0 is wrong for this traffic. */
static void
ring_drain_wrong(struct bench_feed *f, struct ring_feed *rf)
{
	struct rte_mbuf *b[GEN_BURST];
	unsigned int n;

	while ((n = rte_ring_sc_dequeue_burst(rf->tx[0], (void **)b,
					      GEN_BURST, NULL)) > 0) {
		unsigned int i;

		for (i = 0; i < n; i++)
			bench_feed_check(f, b[i], 0);
		rte_pktmbuf_free_bulk(b, n);
	}
}

/* About 1 us on the TSC, without PAUSE: under KVM a run of PAUSEs
 * exits to the hypervisor (pause-loop exiting), which can take the
 * worker's CPU. */
static void
wait_a_little(void)
{
	const uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000000;

	while (rte_rdtsc() < end)
		;
}

/* Empty the local endpoint: spot-check (first bursts whole, then one
 * datagram every CHECK_EVERY bursts) and free. */
unsigned int
bench_drain_ep(struct bench_feed *f)
{
	struct ring_feed *rf = f->priv;
	struct lsk_udp_msg msgs[BENCH_BURST];
	struct rte_mbuf *m[BENCH_BURST];
	unsigned int total = 0;
	char why[200];
	int n, i;

	if (bench_ep == NULL)
		return 0;
	while ((n = lsk_udp_recv_burst(bench_ep, msgs, BENCH_BURST)) > 0) {
		uint64_t c = rf->drain_calls++;

		for (i = 0; i < n; i++) {
			if (c < CHECK_FIRST_BURSTS ||
			    (i == 0 && c % CHECK_EVERY == 0)) {
				f->checked++;
				if (!bench_check_delivered(f->traffic, &msgs[i],
							   why, sizeof(why))
				    && f->check_failures++ == 0)
					snprintf(f->first_failure,
						 sizeof(f->first_failure),
						 "%s", why);
			}
			m[i] = msgs[i].mbuf;
		}
		rte_pktmbuf_free_bulk(m, (unsigned int)n);
		total += (unsigned int)n;
	}
	return total;
}

#define RECV_FILL 32768u	/* udp-recv: datagrams per round */

static void
fill_failure(struct bench_feed *f, const char *why)
{
	if (f->check_failures++ == 0)
		snprintf(f->first_failure, sizeof(f->first_failure), "%s",
			 why);
}

/*
 * udp-recv: rounds of (1) RECV_FILL fresh datagrams through port 0 to the
 * worker, which delivers them into the endpoint's ring, (2) once the
 * worker has taken them all, the consumer on this lcore empties the ring
 * with lsk_udp_recv_burst(ep, msgs, batch) and frees each datagram
 * (batch 1: rte_pktmbuf_free per datagram; else rte_pktmbuf_free_bulk per
 * call), timed on the TSC. Warm-up rounds check every datagram, untimed.
 */
static void
ring_drive_fill(struct bench_feed *f, struct bench_run *run)
{
	struct ring_feed *rf = f->priv;
	const struct bench_traffic *t = f->traffic;
	const uint64_t hz = rte_get_tsc_hz();
	const unsigned int batch = f->variant->recv_batch;
	struct rte_ring *rx = rf->rx[0];
	struct lsk_udp_msg msgs[BENCH_BURST];
	/* filled GEN_BURST at a time, drained BENCH_BURST at a time */
	struct rte_mbuf *m[GEN_BURST];
	uint64_t start = rte_rdtsc();
	uint64_t warm_end = start + (uint64_t)(f->opts->warmup * hz);
	uint64_t end = warm_end + (uint64_t)(f->opts->seconds * hz);
	unsigned int rounds = 0;
	char why[200];

	while (!bench_signalled) {
		unsigned int left = RECV_FILL, got = 0;
		bool timed = rounds > 0 && rte_rdtsc() >= warm_end;
		uint64_t t0, t1, calls = 0;
		int n, i;

		if (timed && rte_rdtsc() >= end)
			break;
		while (left > 0 && !bench_signalled) {
			unsigned int k = RTE_MIN(RTE_MIN(left, GEN_BURST),
						 rte_ring_free_count(rx));

			if (k == 0 || rte_pktmbuf_alloc_bulk(f->pool, m, k)
				      != 0) {
				wait_a_little();
				continue;
			}
			for (i = 0; i < (int)k; i++) {
				struct bench_flow fl;
				uint16_t id;

				bench_gen_next(t, &rf->gen, &fl, &id);
				mbuf_as_received(m[i], t->size, rf->port[0],
						 rf->ol_flags);
				m[i]->hash.rss = rf->gen.rss;
				bench_write_frame(t, rte_pktmbuf_mtod(m[i],
						  uint8_t *), &fl, id);
			}
			rte_ring_sp_enqueue_bulk(rx, (void **)m, k, NULL);
			left -= k;
		}
		/* the worker has taken the last burst and delivered it */
		while (!rte_ring_empty(rx) && !bench_signalled)
			wait_a_little();
		for (i = 0; i < 50; i++)
			wait_a_little();

		if (!timed) {
			while ((n = lsk_udp_recv_burst(bench_ep, msgs,
						       BENCH_BURST)) > 0) {
				for (i = 0; i < n; i++) {
					f->checked++;
					if (!bench_check_delivered(t, &msgs[i],
							why, sizeof(why)))
						fill_failure(f, why);
					m[i] = msgs[i].mbuf;
				}
				rte_pktmbuf_free_bulk(m, (unsigned int)n);
				got += (unsigned int)n;
			}
		} else if (batch == 1) {
			t0 = rte_rdtsc();
			while (got < RECV_FILL &&
			       lsk_udp_recv_burst(bench_ep, msgs, 1) == 1) {
				rte_pktmbuf_free(msgs[0].mbuf);
				got++;
			}
			t1 = rte_rdtsc();
			calls = got;
			run->consumer_tsc += t1 - t0;
		} else {
			t0 = rte_rdtsc();
			while (got < RECV_FILL &&
			       (n = lsk_udp_recv_burst(bench_ep, msgs,
						       batch)) > 0) {
				for (i = 0; i < n; i++)
					m[i] = msgs[i].mbuf;
				rte_pktmbuf_free_bulk(m, (unsigned int)n);
				got += (unsigned int)n;
				calls++;
			}
			t1 = rte_rdtsc();
			run->consumer_tsc += t1 - t0;
		}
		if (got != RECV_FILL) {
			snprintf(why, sizeof(why), "round %u: the consumer "
				 "took %u datagrams of %u fed", rounds, got,
				 RECV_FILL);
			fill_failure(f, why);
		}
		if (timed) {
			run->consumer_pkts += got;
			run->consumer_calls += calls;
			run->consumer_measured = true;
		}
		rounds++;
	}
	run->stop = true;
	while (!__atomic_load_n(&run->done, __ATOMIC_ACQUIRE))
		bench_sleep_ms(1);
}

/*
 * --rx-order scattered: a burst in shuffled order (Fisher-Yates with a
 * fixed-seed xorshift), so that the mbufs' addresses follow no stride the
 * worker's hardware prefetcher could pick up, as when a NIC refills its
 * ring from a mempool cache. By default the mbufs come back in the order
 * the worker sent them, which is often address order.
 */
static void
scatter(struct ring_feed *rf, struct rte_mbuf **b, unsigned int n)
{
	unsigned int i;

	for (i = n - 1; i > 0; i--) {
		unsigned int j;
		struct rte_mbuf *x;

		rf->shuffle ^= rf->shuffle << 13;
		rf->shuffle ^= rf->shuffle >> 17;
		rf->shuffle ^= rf->shuffle << 5;
		j = rf->shuffle % (i + 1);
		x = b[i];
		b[i] = b[j];
		b[j] = x;
	}
}

/*
 * The generator loop. Forwarded mbufs come back with their lines in the
 * worker's cache: each batch is dequeued and prefetched one round before
 * it is rewritten, so the transfers overlap the rewriting of the batch
 * before it.
 */
static void
ring_drive(struct bench_feed *f, struct bench_run *run)
{
	struct ring_feed *rf = f->priv;
	struct rte_ring *rx = rf->rx[0], *back = rf->tx[1];
	struct rte_mbuf *b[GEN_BURST], *next[GEN_BURST];
	unsigned int bursts = 0, idle = 0, n_next = 0, i;
	const bool drain = f->scenario->measure == BENCH_MEASURE_DELIVERED &&
			   run->drain_feed == NULL;

	if (f->scenario->measure == BENCH_MEASURE_CONSUMER) {
		ring_drive_fill(f, run);
		return;
	}
	while (!__atomic_load_n(&run->done, __ATOMIC_ACQUIRE)) {
		unsigned int room = rte_ring_free_count(rx);
		unsigned int n, got, k;

		if (bench_signalled)
			run->stop = true;
		if (drain)	/* udp-local: the consumer on the main lcore */
			bench_drain_ep(f);
		if ((++idle & 1023) == 0)
			ring_drain_wrong(f, rf);
		if (room < BENCH_BURST) {
			/* the worker is behind: wait a little without
			 * touching the ring's shared lines */
			wait_a_little();
			continue;
		}
		n = RTE_MIN(room, GEN_BURST);
		got = RTE_MIN(n_next, n);
		memcpy(b, next, got * sizeof(b[0]));
		n_next -= got;
		memmove(next, next + got, n_next * sizeof(next[0]));
		k = rte_ring_sc_dequeue_burst(back, (void **)next + n_next,
					      GEN_BURST - n_next, NULL);
		for (i = n_next; i < n_next + k; i++)
			prefetch_for_write(rf, next[i]);
		n_next += k;
		if (got)
			got = ring_recycle(f, rf, b, got, bursts++);
		if (got < n && n_next == 0 && rte_ring_empty(back))
			got += ring_fresh(f, rf, b + got, n - got);
		if (got && f->opts->rx_scattered)
			scatter(rf, b, got);
		if (got)
			rte_ring_sp_enqueue_bulk(rx, (void **)b, got, NULL);
	}
	for (i = 0; i < n_next; i++)
		bench_feed_check(f, next[i], 1);
	rte_pktmbuf_free_bulk(next, n_next);
}

static void
ring_close(struct bench_feed *f)
{
	struct ring_feed *rf = f->priv;
	struct rte_mbuf *b[GEN_BURST];
	unsigned int n, p;

	bench_gen_fini(&rf->gen);
	for (p = 0; p < 2; p++) {
		if (rf->name[p][0] == '\0')
			continue;
		rte_eth_dev_stop(rf->port[p]);
		rte_eth_dev_close(rf->port[p]);
		rte_vdev_uninit(rf->name[p]);
		rf->name[p][0] = '\0';
	}
	/* forwarded packets still in the TX ring are checked too */
	if (rf->tx[1] != NULL)
		while ((n = rte_ring_sc_dequeue_burst(rf->tx[1], (void **)b,
						      GEN_BURST, NULL)) > 0) {
			bench_feed_check(f, b[0], 1);
			rte_pktmbuf_free_bulk(b, n);
		}
	if (rf->tx[0] != NULL)
		ring_drain_wrong(f, rf);
	for (p = 0; p < 2; p++) {
		if (rf->rx[p] != NULL)
			while ((n = rte_ring_sc_dequeue_burst(rf->rx[p],
					(void **)b, GEN_BURST, NULL)) > 0)
				rte_pktmbuf_free_bulk(b, n);
		rte_ring_free(rf->rx[p]);
		rte_ring_free(rf->tx[p]);
		rf->rx[p] = rf->tx[p] = NULL;
	}
}

const struct bench_feed_ops bench_feed_ring = {
	.name = "ring",
	.init = ring_init,
	.open = ring_open,
	.drive = ring_drive,
	.close = ring_close,
	.fini = bench_feed_free_priv,
	.tx_fn = NULL,
};
