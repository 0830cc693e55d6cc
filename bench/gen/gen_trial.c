/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator over real ports (gen_trial.h): a trial sends TSC-paced
 * frames out of the TX port, receives on the RX port (and the TX port:
 * ARP, a hairpinning DUT) between bursts, then drains.
 *
 * Pacing: frame k is due at t0 + k x hz / rate. Each turn of the loop
 * sends the frames that are due, at most a burst (32); at low rates that
 * is one frame per turn, at high ones bursts grow towards 32. No PMD rate
 * limiter is used. A generator that falls behind (its CPU taken, the RX
 * side too slow, rates past what one lcore sends) catches up by at most
 * GEN_MAX_LAG_US of frames (two bursts at least) and skips the rest of
 * what it owes. That is 20 ms: a VM's vCPU stolen for a few milliseconds
 * (seen here: up to 8 ms) is caught up in bursts the wire's rings hold
 * (memif rsize=14: 16384 slots), where a 50 us window skipped frames at
 * 700 kpps and marked every trial limited; the trial
 * then reports generator_limited when what it offered falls short of the
 * schedule by more than 0.1 % (or a burst). At rate 0 every turn sends a
 * burst; a trial there with no loss is generator_limited too: the device
 * took everything the generator could send.
 *
 * Frames the port refuses (its ring full: the device did not take them)
 * are freed and counted as refused, and lost: the schedule does not wait.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "gen_frames.h"
#include "gen_trial.h"

#define GEN_BURST 32
#define GEN_POOL_MBUFS 8191
#define GEN_POOL_CACHE 256
#define GEN_RING 1024
#define GEN_MAX_LAG_US 20000.0
#define GEN_DRAIN_IDLE_S 0.010		/* nothing came for this long */
#define GEN_FLUSH_IDLE_S 0.010		/* before a trial */
#define GEN_FLUSH_MAX_S 0.200

static int
port_setup(struct gen_ctx *c, uint16_t port, struct rte_ether_addr *mac)
{
	struct rte_eth_conf conf;
	uint16_t nb_rxd = GEN_RING, nb_txd = GEN_RING;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, nb_rxd,
					    rte_eth_dev_socket_id(port), NULL,
					    c->rx_pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, nb_txd,
					    rte_eth_dev_socket_id(port), NULL);
	if (rc == 0) {
		/* frames come back to the DUT's gateway MAC, ARP to ours:
		 * take everything (a NIC would filter the first) */
		rte_eth_promiscuous_enable(port);
		rc = rte_eth_dev_start(port);
	}
	if (rc == 0)
		rc = rte_eth_macaddr_get(port, mac);
	if (rc < 0) {
		fprintf(stderr, "port %u: cannot set up: %s\n", port,
			strerror(-rc));
		return rc;
	}
	return 0;
}

static bool
link_up(uint16_t port)
{
	struct rte_eth_link link;

	return rte_eth_link_get_nowait(port, &link) == 0 &&
	       link.link_status == RTE_ETH_LINK_UP;
}

int
gen_open(struct gen_ctx *c, const struct gen_port_params *p)
{
	unsigned int n_ports = rte_eth_dev_count_avail();
	int rc;

	memset(c, 0, sizeof(*c));
	c->p = *p;
	if (p->tx_port >= n_ports || p->rx_port >= n_ports) {
		fprintf(stderr, "--generate: ports %u (TX) and %u (RX), but "
			"the EAL gave %u port(s) (--vdev or -a)\n",
			p->tx_port, p->rx_port, n_ports);
		return -EINVAL;
	}
	rc = bench_traffic_init(&c->traffic, 1, p->routes,
				p->ip6 ? GEN_MIN_SIZE6 - GEN_FCS_LEN : 60);
	if (rc == 0 && p->ip6)
		rc = bench_traffic_init6(&c->traffic);
	if (rc < 0)
		return rc;
	c->tx_pool = rte_pktmbuf_pool_create("gen_tx", GEN_POOL_MBUFS,
					     GEN_POOL_CACHE, 0,
					     RTE_MBUF_DEFAULT_BUF_SIZE,
					     (int)rte_socket_id());
	c->rx_pool = rte_pktmbuf_pool_create("gen_rx", GEN_POOL_MBUFS,
					     GEN_POOL_CACHE, 0,
					     RTE_MBUF_DEFAULT_BUF_SIZE,
					     (int)rte_socket_id());
	if (c->tx_pool == NULL || c->rx_pool == NULL) {
		fprintf(stderr, "cannot create the generator's pools: %s "
			"(give EAL more memory: -m 256)\n",
			rte_strerror(rte_errno));
		gen_close(c);
		return -ENOMEM;
	}
	gen_frames_pool_zero(c->tx_pool);
	c->started = true;
	rc = port_setup(c, p->tx_port, &c->tx_mac);
	if (rc == 0 && p->rx_port != p->tx_port)
		rc = port_setup(c, p->rx_port, &c->rx_mac);
	else
		c->rx_mac = c->tx_mac;
	if (rc < 0) {
		gen_close(c);
		return rc;
	}
	c->next_tag = (uint8_t)rte_rdtsc();
	c->rx.gw_addr = c->traffic.gw_addr;
	c->rx.gw2_addr = c->traffic.gw2_addr;
	c->rx.sender_net = c->traffic.port_addr[0] & 0xffffff00;
	c->rx.dut_addr0 = c->traffic.port_addr[0];
	c->rx.tx_port = p->tx_port;
	c->rx.rx_port = p->rx_port;
	c->rx.tx_mac = c->tx_mac;
	c->rx.rx_mac = c->rx_mac;
	c->rx.pool = c->tx_pool;
	return 0;
}

int
gen_wait_links(struct gen_ctx *c)
{
	const struct gen_port_params *p = &c->p;
	double waited = 0;

	printf("generator: port %u out, port %u back; waiting for the "
	       "link%s\n", p->tx_port, p->rx_port,
	       p->tx_port != p->rx_port ? "s" : "");
	fflush(stdout);
	while (!(link_up(p->tx_port) && link_up(p->rx_port))) {
		if (waited >= p->link_wait_s || bench_signalled) {
			fprintf(stderr, "--generate: the link%s did not come "
				"up in %.0f s (is the device under test "
				"running?)\n", p->tx_port != p->rx_port ?
				"s" : "", p->link_wait_s);
			return -ETIMEDOUT;
		}
		bench_sleep_ms(10);
		waited += 0.010;
	}
	return 0;
}

void
gen_close(struct gen_ctx *c)
{
	if (c->started) {
		rte_eth_dev_stop(c->p.tx_port);
		rte_eth_dev_close(c->p.tx_port);
		if (c->p.rx_port != c->p.tx_port) {
			rte_eth_dev_stop(c->p.rx_port);
			rte_eth_dev_close(c->p.rx_port);
		}
		c->started = false;
	}
	rte_mempool_free(c->tx_pool);
	rte_mempool_free(c->rx_pool);
	c->tx_pool = c->rx_pool = NULL;
}

static void
poll_ports(struct gen_ctx *c)
{
	struct rte_mbuf *pkts[GEN_BURST];
	uint16_t n;

	n = rte_eth_rx_burst(c->p.rx_port, 0, pkts, GEN_BURST);
	if (n)
		gen_rx_burst(&c->rx, c->p.rx_port, pkts, n, rte_rdtsc());
	if (c->p.tx_port == c->p.rx_port)
		return;
	n = rte_eth_rx_burst(c->p.tx_port, 0, pkts, GEN_BURST);
	if (n)
		gen_rx_burst(&c->rx, c->p.tx_port, pkts, n, rte_rdtsc());
}

/* Receive until nothing came for idle_s (counted from `from` at the
 * latest), at most until `until`. */
static void
drain(struct gen_ctx *c, uint64_t from, double idle_s, uint64_t until)
{
	uint64_t idle = (uint64_t)(idle_s * (double)rte_get_tsc_hz());
	uint64_t now;

	c->rx.last_rx_tsc = from;
	while ((now = rte_rdtsc()) < until &&
	       now - c->rx.last_rx_tsc < idle && !bench_signalled)
		poll_ports(c);
}

/* The drain ends when nothing came for a tenth of its longest (at least
 * GEN_DRAIN_IDLE_S): a device that holds frames longer than that (or
 * loses its CPU for that long) has them counted lost. */
static double
drain_idle(double drain_s)
{
	double idle = drain_s / 10;

	if (idle < GEN_DRAIN_IDLE_S)
		idle = GEN_DRAIN_IDLE_S;
	return idle < drain_s ? idle : drain_s;
}

static int
check_request(const struct gen_trial_request *req)
{
	if (!(req->rate_pps >= 0) || req->rate_pps > 1e9 ||
	    !(req->seconds > 0) || req->seconds > 3600 ||
	    req->flows == 0 || req->flows > GEN_MAX_FLOWS ||
	    (req->size != GEN_SIZE_IMIX &&
	     (req->size < GEN_MIN_SIZE || req->size > GEN_MAX_SIZE)))
		return -EINVAL;
	return 0;
}

struct tx_state {
	uint64_t k;		/* schedule position: frames offered + skipped */
	uint64_t sent, refused, skipped, no_mbuf;
	uint32_t flow;
	double max_lag;		/* cycles */
};

/* Send n frames at now. */
static void
send_frames(struct gen_ctx *c, struct gen_frames *fr, struct tx_state *s,
	    unsigned int n, uint64_t now)
{
	struct rte_mbuf *m[GEN_BURST];
	unsigned int i;
	uint16_t ret;

	if (rte_pktmbuf_alloc_bulk(c->tx_pool, m, n) != 0) {
		s->no_mbuf++;
		return;
	}
	for (i = 0; i < n; i++) {
		gen_frame_write(fr, m[i], s->flow, now);
		if (++s->flow == fr->flows)
			s->flow = 0;
	}
	ret = rte_eth_tx_burst(c->p.tx_port, 0, m, (uint16_t)n);
	s->sent += ret;
	if (ret < n) {
		s->refused += n - ret;
		rte_pktmbuf_free_bulk(&m[ret], n - ret);
	}
	s->k += n;
}

/* The sending phase: paced at rate (0: as fast as possible) until t_end. */
static void
send_phase(struct gen_ctx *c, struct gen_frames *fr, struct tx_state *s,
	   double rate, uint64_t t0, uint64_t t_end)
{
	const double hz = (double)rte_get_tsc_hz();
	const double tpf = rate > 0 ? hz / rate : 0;
	uint64_t max_behind = GEN_BURST;
	uint64_t now;

	if (rate > 0 && rate * GEN_MAX_LAG_US * 1e-6 > 2 * GEN_BURST)
		max_behind = (uint64_t)(rate * GEN_MAX_LAG_US * 1e-6);
	else if (rate > 0)
		max_behind = 2 * GEN_BURST;
	while ((now = rte_rdtsc()) < t_end && !bench_signalled) {
		unsigned int n = GEN_BURST;

		if (rate > 0) {
			uint64_t due = (uint64_t)((double)(now - t0) / tpf) + 1;
			uint64_t behind = due > s->k ? due - s->k : 0;

			if (behind > 0) {
				/* how late the oldest frame due is */
				double lag = (double)(now - t0) -
					     (double)s->k * tpf;

				if (lag > s->max_lag)
					s->max_lag = lag;
			}
			if (behind > max_behind) {
				s->skipped += behind - GEN_BURST;
				s->k += behind - GEN_BURST;
				behind = GEN_BURST;
			}
			n = behind < GEN_BURST ? (unsigned int)behind :
			    GEN_BURST;
		}
		if (n)
			send_frames(c, fr, s, n, now);
		poll_ports(c);
	}
}

static double
thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void
fill_latency(struct gen_latency *l, const struct gen_hist *h)
{
	const double ns = 1e9 / (double)rte_get_tsc_hz();

	memset(l, 0, sizeof(*l));
	l->samples = h->count;
	if (h->count == 0)
		return;
	l->min_ns = (double)h->min * ns;
	l->max_ns = (double)h->max * ns;
	l->mean_ns = gen_hist_mean(h) * ns;
	l->p50_ns = gen_hist_percentile(h, 50) * ns;
	l->p90_ns = gen_hist_percentile(h, 90) * ns;
	l->p99_ns = gen_hist_percentile(h, 99) * ns;
	l->p999_ns = gen_hist_percentile(h, 99.9) * ns;
}

int
gen_trial_run(void *ctx, const struct gen_trial_request *req,
	      struct gen_trial_result *res)
{
	struct gen_ctx *c = ctx;
	const double hz = (double)rte_get_tsc_hz();
	struct gen_frames fr;
	struct tx_state s;
	uint64_t t0, t_end, t_stop, offered, owed;
	double cpu0, cpu1;
	int rc;

	memset(res, 0, sizeof(*res));
	res->req = *req;
	rc = check_request(req);
	if (rc < 0)
		return rc;
	rc = gen_frames_init(&fr, &c->traffic, req->flows, req->size,
			     c->next_tag, &c->tx_mac, &c->p.dst_mac);
	if (rc < 0)
		return rc;
	rc = gen_seq_init(&c->rx.seq, req->flows, 0);
	if (rc < 0) {
		gen_frames_fini(&fr);
		return rc;
	}
	c->rx.tag = c->next_tag++;
	gen_hist_reset(&c->rx.hist);
	c->rx.foreign = 0;
	c->rx.stale = 0;
	/* what is still in flight from before is not this trial's */
	c->rx.counting = false;
	t0 = rte_rdtsc();
	drain(c, t0, GEN_FLUSH_IDLE_S, t0 + (uint64_t)(GEN_FLUSH_MAX_S * hz));
	c->rx.counting = true;

	memset(&s, 0, sizeof(s));
	cpu0 = thread_cpu_s();
	t0 = rte_rdtsc();
	t_end = t0 + (uint64_t)(req->seconds * hz);
	send_phase(c, &fr, &s, req->rate_pps, t0, t_end);
	t_stop = rte_rdtsc();
	cpu1 = thread_cpu_s();
	drain(c, t_stop, drain_idle(c->p.drain_s),
	      t_stop + (uint64_t)(c->p.drain_s * hz));
	c->rx.counting = false;

	res->elapsed_s = (double)(t_stop - t0) / hz;
	res->sent = s.sent;
	res->refused = s.refused;
	res->received = c->rx.seq.c.received;
	offered = s.sent + s.refused;
	res->lost = offered > res->received ? offered - res->received : 0;
	res->reordered = c->rx.seq.c.reordered;
	res->duplicates = c->rx.seq.c.duplicates;
	res->late = c->rx.seq.c.late;
	res->foreign = c->rx.foreign;
	res->stale = c->rx.stale;
	if (res->elapsed_s > 0) {
		res->cpu_share = (cpu1 - cpu0) / res->elapsed_s;
		res->offered_pps = (double)offered / res->elapsed_s;
		res->received_pps = (double)res->received / res->elapsed_s;
	}
	res->max_lag_us = s.max_lag / hz * 1e6;
	if (req->rate_pps > 0) {
		res->scheduled = (uint64_t)floor(res->elapsed_s *
						 req->rate_pps) + 1;
		owed = res->scheduled > offered ? res->scheduled - offered : 0;
		res->generator_limited = owed > GEN_BURST &&
					 owed > res->scheduled / 1000;
	} else {
		res->generator_limited = res->lost == 0;
	}
	/* next_seq[f] frames of flow f were offered (sent or refused) */
	gen_seq_flow_loss(&c->rx.seq, fr.next_seq, &res->flows_with_loss,
			  &res->max_flow_loss);
	fill_latency(&res->latency, &c->rx.hist);
	gen_seq_fini(&c->rx.seq);
	gen_frames_fini(&fr);
	return bench_signalled ? -EINTR : 0;
}

int
gen_wait_dut(struct gen_ctx *c, double timeout_s)
{
	const struct gen_trial_request probe = {
		.rate_pps = 1000, .seconds = 0.02,
		.size = c->p.ip6 ? GEN_MIN_SIZE6 : 64, .flows = 1,
	};
	struct gen_trial_result res;
	uint64_t end = rte_rdtsc() +
		       (uint64_t)(timeout_s * (double)rte_get_tsc_hz());
	double drain_s = c->p.drain_s;
	int rc;

	/* a probe that gets nothing back need not wait the trials' drain */
	c->p.drain_s = RTE_MIN(drain_s, 0.1);
	do {
		rc = gen_trial_run(c, &probe, &res);
		if (rc < 0 || res.received > 0)
			break;
		rc = -ETIMEDOUT;
	} while (rte_rdtsc() < end);
	c->p.drain_s = drain_s;
	return rc;
}

/* gen_print_dut_config of IPv6 traffic: traffic6.c's addressing. */
static void
gen_print_dut_config6(const struct gen_ctx *c, FILE *f, const char *dut,
		      const char *gw, unsigned int out)
{
	char a[INET6_ADDRSTRLEN];
	uint8_t pfx[16];
	uint32_t k;

	fprintf(f, "# listack configuration of the device under test "
		"(its port 0 on our port %u, port %u on our port %u)\n",
		c->p.tx_port, out, c->p.rx_port);
	fprintf(f, "port 0 mac %s\n", dut);
	fprintf(f, "address add 2001:db8:a::1/64 port 0\n");
	fprintf(f, "address add 2001:db8:b::1/64 port %u\n", out);
	fprintf(f, "neigh add 2001:db8:b::2 lladdr %s\n", gw);
	for (k = 0; k < c->traffic.routes; k++) {
		bench_ip6_dst(bench_route_prefix(&c->traffic, k), pfx);
		memset(pfx + 8, 0, 8);
		inet_ntop(AF_INET6, pfx, a, sizeof(a));
		fprintf(f, "route add %s/56 via 2001:db8:b::2\n", a);
	}
}

void
gen_print_dut_config(const struct gen_ctx *c, FILE *f)
{
	const struct bench_traffic *t = &c->traffic;
	char dut[RTE_ETHER_ADDR_FMT_SIZE], gw[RTE_ETHER_ADDR_FMT_SIZE];
	unsigned int out = c->p.rx_port != c->p.tx_port ? 1 : 0;
	uint32_t k;

	rte_ether_format_addr(dut, sizeof(dut), &c->p.dst_mac);
	rte_ether_format_addr(gw, sizeof(gw), &c->rx_mac);
	if (t->ip6) {
		gen_print_dut_config6(c, f, dut, gw, out);
		return;
	}
	fprintf(f, "# listack configuration of the device under test "
		"(its port 0 on our port %u, port %u on our port %u)\n",
		c->p.tx_port, out, c->p.rx_port);
	fprintf(f, "port 0 mac %s\n", dut);
	fprintf(f, "address add %u.%u.%u.%u/24 port 0\n",
		t->port_addr[0] >> 24, (t->port_addr[0] >> 16) & 255,
		(t->port_addr[0] >> 8) & 255, t->port_addr[0] & 255);
	fprintf(f, "address add %u.%u.%u.%u/24 port %u\n",
		t->port_addr[1] >> 24, (t->port_addr[1] >> 16) & 255,
		(t->port_addr[1] >> 8) & 255, t->port_addr[1] & 255, out);
	fprintf(f, "neigh add %u.%u.%u.%u lladdr %s\n", t->gw_addr >> 24,
		(t->gw_addr >> 16) & 255, (t->gw_addr >> 8) & 255,
		t->gw_addr & 255, gw);
	for (k = 0; k < t->routes; k++) {
		uint32_t r = bench_route_prefix(t, k);

		fprintf(f, "route add %u.%u.%u.%u/24 via %u.%u.%u.%u\n",
			r >> 24, (r >> 16) & 255, (r >> 8) & 255, r & 255,
			t->gw_addr >> 24, (t->gw_addr >> 16) & 255,
			(t->gw_addr >> 8) & 255, t->gw_addr & 255);
	}
}
