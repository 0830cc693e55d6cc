/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench: what its parts share. A run is one scenario (traffic plus
 * stack configuration) measured under each of its variants in turn, over
 * one feed (how packets reach the worker's rte_eth_rx_burst):
 *
 *   ring  the bench's own net_ring ports and a generator on the main lcore
 *   pcap  a pcap written by the bench, replayed by net_pcap infinite_rx
 *         (the GRO scenarios: checksum flags and RSS hash set by an RX
 *         callback as sfc sets them, rx_cksum.c)
 *   dut   ports given on the EAL command line, fed from outside
 *   ports the dut feed's ports for one variant, forwarded until a signal
 *         (feed_ports.c: whole-run and ethdev counters, for a generator
 *         whose counters are read after a common stop)
 */
#ifndef LSK_BENCH_H
#define LSK_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "listack/listack.h"

#define BENCH_BURST 32			/* rte_eth_rx_burst size, as l3fwd */
#define BENCH_MAX_RXQ 16
#define BENCH_MAX_VARIANTS 8
#define BENCH_MAX_VARIANT_CONFIG 4
#define BENCH_MAX_REPEAT 1000

enum bench_feed_kind {
	BENCH_FEED_RING,
	BENCH_FEED_PCAP,
	BENCH_FEED_DUT,		/* from here on: ports from the EAL */
	BENCH_FEED_PORTS,
};

struct bench_opts {
	const char *scenario;
	uint64_t packets;		/* 0 = measure by time */
	double seconds;
	double warmup;
	uint32_t flows;
	uint32_t routes;
	uint16_t size;			/* frame size without FCS */
	enum bench_feed_kind feed;
	bool feed_given;
	const char *json;
	const char *pcap_path;		/* pcap feed: where to write the file */
	const char *config;		/* dut: stack config instead of ours */
	const char *stats_json;		/* ports: whole-run counters file */
	const char *variants;		/* comma list to run; NULL = all */
	bool flows_given, size_given, routes_given;
	bool drain_worker;		/* udp-local: drain in the worker loop */
	bool rx_scattered;		/* ring feed: --rx-order scattered */
	const char *table;		/* route-churn: --table FILE */
	unsigned int repeat;		/* rounds of all the variants */
};

/*
 * The traffic: F UDP/IPv4 flows from hosts behind port 0 to R destination
 * prefixes behind a gateway on port 1. Frames are built whole once per
 * mbuf; recycled mbufs get new headers only.
 */
struct bench_traffic {
	uint32_t flows, routes;
	uint16_t size;			/* frame */
	uint16_t ip_len, udp_len, payload_len;
	uint8_t ttl;
	struct rte_ether_addr port_mac[2];	/* the stack's ports */
	struct rte_ether_addr client_mac;	/* sender of the frames */
	struct rte_ether_addr gw_mac;		/* next hop behind port 1 */
	uint32_t port_addr[2];			/* host order, /24 each */
	uint32_t gw_addr;
	/* route-churn: routes 0 .. churn_routes-1 move between gw and gw2
	 * (scenario_churn.c); a packet to them may leave by either */
	uint32_t churn_routes;
	struct rte_ether_addr gw2_mac;
	uint32_t gw2_addr;
	uint32_t route_base;			/* first /24 of the routes */
	uint32_t ip_base_sum;			/* raw sums of what stays */
	uint32_t udp_base_sum;			/* fixed: payload, lengths */
	uint8_t hdr[64];			/* Ethernet+IPv4+UDP template */
	/* IPv6 (traffic6.c): the same flows with the 32-bit fields in
	 * IPv6 addresses; hdr is then Ethernet+IPv6+UDP, hdr_len long */
	bool ip6;
	uint16_t hdr_len;
	/* --table (table.h): the routes and each flow's destination, which
	 * the generator sends instead of its route's (BENCH_DST_TABLE) */
	const struct bench_table *table;
	const struct bench_table_flow *table_flows;
};

struct bench_table;

/* --table (table.h): flow i's destination (host order) and the gateways
 * it may leave by (alt == gw unless its route is churned) */
struct bench_table_flow {
	uint32_t dst;
	uint8_t gw, alt;
};

/* Per-flow fields, host order. */
struct bench_flow {
	uint32_t src, dst;
	uint16_t sport, dport;
};

#define BENCH_HDR_LEN (RTE_ETHER_HDR_LEN + 20 + 8)

/* Walks the flows in order, 0 .. F-1, 0, ..., without a division. */
struct bench_flow_cursor {
	uint32_t i;		/* flow number */
	uint32_t route;		/* i % R */
	uint32_t dst_host;	/* (i / R) % DST_HOSTS */
	uint32_t sport;		/* i % SPORT_SPAN */
	uint32_t src_host;	/* (i / SPORT_SPAN) % SRC_HOSTS */
};

#define BENCH_SPORT_BASE 1024u
#define BENCH_SPORT_SPAN 64512u	/* source ports 1024..65535 */
#define BENCH_SRC_HOSTS 253u	/* 10.0.0.2 .. 10.0.0.254 */
#define BENCH_DST_HOSTS 254u	/* .1 .. .254 in each routed /24 */
#define BENCH_UDP_DPORT 9	/* discard */

int bench_traffic_init(struct bench_traffic *t, uint32_t flows,
		       uint32_t routes, uint16_t size);
/*
 * Make t's traffic IPv6 (traffic6.c): sender i of port 0 is
 * 2001:db8:a::/64 with its IPv4 address as the low 32 bits, route k is
 * 2001:db8:X::/56 where X is route k's IPv4 /24 (so host h of the
 * route is the 8 bits below the /56, interface ::1), port 0 is
 * 2001:db8:a::1/64, port 1 2001:db8:b::1/64, the gateway 2001:db8:b::2.
 */
int bench_traffic_init6(struct bench_traffic *t);
/* The IPv6 address of a 32-bit field (host order): a sender's, or a
 * destination's; the /56 of route k. */
void bench_ip6_src(const struct bench_traffic *t, uint32_t v, uint8_t a[16]);
void bench_ip6_dst(uint32_t v, uint8_t a[16]);
/* Frame offsets of the 32-bit fields in the IPv6 template. */
#define BENCH_IP6_SRC_OFF (RTE_ETHER_HDR_LEN + 8 + 12)
#define BENCH_IP6_DST_OFF (RTE_ETHER_HDR_LEN + 24 + 4)
#define BENCH_HDR6_LEN (RTE_ETHER_HDR_LEN + 40 + 8)
/* The fields of flow i. */
void bench_flow_get(const struct bench_traffic *t, uint32_t i,
		    struct bench_flow *f);
void bench_flow_cursor_init(struct bench_flow_cursor *c);

/* The k-th routed /24 (host order). */
static inline uint32_t
bench_route_prefix(const struct bench_traffic *t, uint32_t k)
{
	return t->route_base + (k << 8);
}

static inline void
bench_flow_fields(const struct bench_traffic *t, uint32_t route,
		  uint32_t dst_host, uint32_t sport, uint32_t src_host,
		  struct bench_flow *f)
{
	f->dst = bench_route_prefix(t, route) | (1 + dst_host);
	f->src = (t->port_addr[0] & 0xffffff00) | (2 + src_host);
	f->sport = (uint16_t)(BENCH_SPORT_BASE + sport);
	f->dport = BENCH_UDP_DPORT;
}

/* The cursor's flow, and the cursor moved to the next one. */
static inline void
bench_flow_next(const struct bench_traffic *t, struct bench_flow_cursor *c,
		struct bench_flow *f)
{
	bench_flow_fields(t, c->route, c->dst_host, c->sport, c->src_host, f);
	if (unlikely(++c->i == t->flows)) {
		memset(c, 0, sizeof(*c));
		return;
	}
	if (++c->route == t->routes) {
		c->route = 0;
		if (++c->dst_host == BENCH_DST_HOSTS)
			c->dst_host = 0;
	}
	if (unlikely(++c->sport == BENCH_SPORT_SPAN)) {
		c->sport = 0;
		if (++c->src_host == BENCH_SRC_HOSTS)
			c->src_host = 0;
	}
}
/* One's complement sum of the 16-bit halves of a network-order word. */
static inline uint32_t
bench_halves(uint32_t be)
{
	return (be & 0xffff) + (be >> 16);
}

static inline uint16_t
bench_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* bench_write_headers of IPv6 traffic: the 32-bit fields into the
 * addresses, the UDP checksum from the sum of the fixed parts (which
 * holds the addresses' fixed bytes); no IP ID. */
static inline void
bench_write_headers6(const struct bench_traffic *t, uint8_t *frame,
		     const struct bench_flow *f)
{
	struct rte_udp_hdr *udp =
		(struct rte_udp_hdr *)(frame + RTE_ETHER_HDR_LEN + 40);
	uint32_t src = rte_cpu_to_be_32(f->src);
	uint32_t dst = rte_cpu_to_be_32(f->dst);
	uint16_t sport = rte_cpu_to_be_16(f->sport);
	uint16_t dport = rte_cpu_to_be_16(f->dport);
	uint32_t sum;
	uint16_t c;

	memcpy(frame, t->hdr, BENCH_HDR6_LEN);
	memcpy(frame + BENCH_IP6_SRC_OFF, &src, 4);
	memcpy(frame + BENCH_IP6_DST_OFF, &dst, 4);
	udp->src_port = sport;
	udp->dst_port = dport;
	sum = t->udp_base_sum + bench_halves(src) + bench_halves(dst) +
	      sport + dport;
	c = (uint16_t)~bench_fold(sum);
	udp->dgram_cksum = c == 0 ? 0xffff : c;
}

/*
 * Write the Ethernet, IPv4 and UDP headers of a flow, checksums from the
 * sums of the fixed parts (the generator's per-packet work: inline).
 */
static inline void
bench_write_headers(const struct bench_traffic *t, uint8_t *frame,
		    const struct bench_flow *f, uint16_t ip_id)
{
	struct rte_ipv4_hdr *ip =
		(struct rte_ipv4_hdr *)(frame + RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint32_t src = rte_cpu_to_be_32(f->src);
	uint32_t dst = rte_cpu_to_be_32(f->dst);
	uint16_t id = rte_cpu_to_be_16(ip_id);
	uint16_t sport = rte_cpu_to_be_16(f->sport);
	uint16_t dport = rte_cpu_to_be_16(f->dport);
	uint32_t sum;
	uint16_t c;

	if (t->ip6) {
		bench_write_headers6(t, frame, f);
		return;
	}
	memcpy(frame, t->hdr, BENCH_HDR_LEN);
	ip->packet_id = id;
	ip->src_addr = src;
	ip->dst_addr = dst;
	sum = t->ip_base_sum + bench_halves(src) + bench_halves(dst) + id;
	ip->hdr_checksum = (uint16_t)~bench_fold(sum);
	udp->src_port = sport;
	udp->dst_port = dport;
	sum = t->udp_base_sum + bench_halves(src) + bench_halves(dst) +
	      sport + dport;
	c = (uint16_t)~bench_fold(sum);
	udp->dgram_cksum = c == 0 ? 0xffff : c;
}
/* Write a whole frame (headers and payload). */
void bench_write_frame(const struct bench_traffic *t, uint8_t *frame,
		       const struct bench_flow *f, uint16_t ip_id);
/*
 * Is m what the stack must send for our traffic: out port 1, the gateway's
 * MAC from port 1's MAC, TTL-1, a valid IPv4 checksum, a routed
 * destination, the UDP datagram untouched? On failure why says what.
 */
bool bench_check_forwarded(const struct bench_traffic *t,
			   const struct rte_mbuf *m, uint16_t out_port,
			   char *why, size_t len);
/* The same for IPv6 traffic (traffic6.c): hop limit - 1, the UDP
 * checksum verifies. */
bool bench_check_forwarded6(const struct bench_traffic *t,
			    const struct rte_mbuf *m, uint16_t out_port,
			    char *why, size_t len);
/* m is neighbour discovery's upkeep (IPv6 to a multicast MAC: DAD's
 * solicitations, listener reports), not the traffic: neither checked
 * nor recycled. */
bool bench_nd_upkeep(const struct rte_mbuf *m);

/* Where the generator sends each packet (scenario or variant). */
enum bench_dst_plan {
	BENCH_DST_ROUTES = 0,	/* the flow's routed destination (fwd) */
	BENCH_DST_LOCAL,	/* port 0's address, port BENCH_UDP_DPORT */
	BENCH_DST_HOT,		/* BENCH_HOT_SET random routes, repeating */
	BENCH_DST_RANDOM,	/* uniformly random route per packet */
	BENCH_DST_TABLE,	/* the flow's t->table_flows[].dst */
};

#define BENCH_HOT_SET 256u
#define BENCH_RANDOM_TABLE (1u << 20)	/* precomputed random routes */

/*
 * The packets of a variant in order: each one's flow, IP ID and RSS hash,
 * as the scenario and variant plan them. The ring feed's generator makes
 * its traffic with it, the pcap feed writes its file with it, so both
 * feeds carry the same packets.
 */
struct bench_gen {
	struct bench_flow_cursor cursor;
	uint16_t ip_id;
	enum bench_dst_plan plan;
	uint32_t *table;		/* route numbers, HOT and RANDOM */
	uint32_t tmask, tpos;
	uint16_t *flow_ids;		/* per-flow IP IDs, or NULL */
	uint32_t *flow_rss;		/* per-flow RSS hashes, or NULL */
	uint32_t rss;			/* the RSS hash of the last packet */
};

/* The Toeplitz hash (host-order fields, the key NICs commonly get) of an
 * IPv4 4-tuple (l4) or address pair, as a NIC with RSS on computes it. */
uint32_t bench_rss_v4(uint32_t src, uint32_t dst, uint16_t sport,
		      uint16_t dport, bool l4);
extern const uint8_t bench_rss_key[40];
/* The same of an IPv6 address pair (16 bytes each) and ports. */
uint32_t bench_rss_v6(const uint8_t *src, const uint8_t *dst,
		      uint16_t sport, uint16_t dport, bool l4);

struct bench_scenario;
struct bench_variant;
/*
 * Plan the traffic of sc's variant v (NULL: the scenario's own plan) from
 * its first packet: destinations, per-flow IP IDs if the scenario wants
 * them, and with rss each flow's Toeplitz hash (as a NIC with RSS on
 * computes it) for bench_gen_next to hand out. 0 or -ENOMEM.
 */
int bench_gen_init(struct bench_gen *g, const struct bench_traffic *t,
		   const struct bench_scenario *sc,
		   const struct bench_variant *v, bool rss);
void bench_gen_fini(struct bench_gen *g);

/* The next packet's fields and IP ID, by the plan (the ring feed's
 * per-packet work: inline). */
static inline void
bench_gen_next(const struct bench_traffic *t, struct bench_gen *g,
	       struct bench_flow *fl, uint16_t *id)
{
	uint32_t i = g->cursor.i;

	bench_flow_next(t, &g->cursor, fl);
	switch (g->plan) {
	case BENCH_DST_LOCAL:
		fl->dst = t->port_addr[0];
		break;
	case BENCH_DST_HOT:
	case BENCH_DST_RANDOM:
		fl->dst = bench_route_prefix(t, g->table[g->tpos++ &
							 g->tmask]) | 1;
		break;
	case BENCH_DST_TABLE:
		fl->dst = t->table_flows[i].dst;
		break;
	default:
		break;
	}
	*id = g->flow_ids != NULL ? g->flow_ids[i]++ : g->ip_id++;
	if (g->flow_rss != NULL)
		g->rss = g->flow_rss[i];
}

/* What a scenario measures per variant. */
enum bench_measure {
	BENCH_MEASURE_FORWARDED = 0,	/* ports[].tx, worker cycles */
	BENCH_MEASURE_DELIVERED,	/* udp.InDatagrams, worker cycles */
	BENCH_MEASURE_CONSUMER,		/* datagrams the consumer took out,
					 * consumer cycles */
};

/* A variant: how the stack is created, plus control commands. */
struct bench_variant {
	const char *name;
	enum lsk_mode mode;
	enum bench_dst_plan dst;	/* overrides the scenario's if set */
	unsigned int recv_batch;	/* udp-recv: datagrams per recv call */
	unsigned int acl_rules;		/* filter rules added in the batch */
	/* control commands (docs/configuration.md) applied after the scenario's
	 * own; a variant whose command the stack refuses with -ENOTSUP is
	 * reported as skipped */
	const char *config[BENCH_MAX_VARIANT_CONFIG];
	/* a command run once the worker exists, outside the batch (an
	 * action such as `trace add`, which needs the worker); NULL: none */
	const char *action;
	/* route-churn: a control thread changes routes during the run, so
	 * many a second (BENCH_CHURN_MAX: as fast as it can); 0: none */
	int churn;
};

#define BENCH_CHURN_MAX (-1)

struct bench_scenario {
	const char *name;
	const char *summary;
	const char *baseline;
	const struct bench_variant *variants;
	unsigned int n_variants;
	/* addresses, routes, neighbours for the scenario's traffic */
	int (*configure)(struct lsk_stack *s, const struct bench_traffic *t,
			 char *err, size_t len);
	/* option defaults of the scenario, for options not given */
	void (*defaults)(struct bench_opts *o);
	enum bench_measure measure;
	enum bench_dst_plan dst;
	uint32_t max_routes;		/* FIB capacity; 0 = routes + 256 */
	uint32_t ep_ring;		/* local endpoint ring size */
	unsigned int pool_extra;	/* mbufs beyond the feed's own */
	bool rx_cksum_good;		/* mbufs flagged IP/L4 cksum good */
	bool per_flow_ip_id;		/* IP IDs count per flow */
	const char *consumer_note;	/* printed in the header */
	bool ip6;			/* IPv6 traffic (traffic6.c) */
	bool ring_only;			/* only the ring feed has its traffic */
	uint32_t churn_routes;		/* traffic.churn_routes */
};

/* The local endpoint of udp-local / udp-recv (NULL otherwise). */
extern struct lsk_udp_ep *bench_ep;
struct lsk_udp_msg;
/* Is msg a datagram of our local traffic (1-byte payload to port 0)? */
bool bench_check_delivered(const struct bench_traffic *t,
			   const struct lsk_udp_msg *msg, char *why,
			   size_t len);

/* fwd's configuration: ports, addresses, the gateway, R routes. */
int bench_fwd_configure(struct lsk_stack *s, const struct bench_traffic *t,
			char *err, size_t len);
/* The IPv6 scenarios (scenario_fwd6.c). */
extern const struct bench_variant bench_fwd6_variants[];
extern const unsigned int bench_n_fwd6_variants;
extern const struct bench_variant bench_gro6_variants[];
extern const unsigned int bench_n_gro6_variants;
int bench_fwd6_configure(struct lsk_stack *s, const struct bench_traffic *t,
			 char *err, size_t len);
void bench_gro6_defaults(struct bench_opts *o);
/* The route-churn control thread (scenario_churn.c). */
extern const struct bench_variant bench_churn_variants[];
extern const unsigned int bench_n_churn_variants;
int bench_churn_configure(struct lsk_stack *s, const struct bench_traffic *t,
			  char *err, size_t len);
void bench_churn_defaults(struct bench_opts *o);
struct bench_churn;
struct bench_result;
/* Start changing routes of s as v says (NULL: v changes none); stop,
 * and put what it did in res. */
int bench_churn_start(struct lsk_stack *s, const struct bench_traffic *t,
		      const struct bench_variant *v, struct bench_churn **out);
void bench_churn_stop(struct bench_churn *c, struct bench_result *res);

const struct bench_scenario *bench_scenario_find(const char *name);
void bench_scenarios_list(FILE *f);

/*
 * The pcap feed's work on the worker's lcore that a NIC would not leave
 * to it, timed on the TSC (the GRO scenarios only, whose figures are read
 * as the device's cycles per datagram); written by the worker only:
 *   cb_*    the RX callback that flags checksums and sets the RSS hash
 *           (rx_cksum.c), as a NIC's hardware does: frames seen, flagged
 *           IP and L4 GOOD, cycles
 *   sink_*  net_null's rte_eth_tx_burst, which frees each mbuf one at a
 *           time (a NIC frees them later, in bulk): packets, cycles
 */
struct bench_feed_work {
	uint64_t cb_packets, cb_good, cb_cycles;
	uint64_t sink_packets, sink_cycles;
	/* the callback's RSS hash of the last tuple (rx_cksum.c) */
	bool rss_valid, rss_l4;
	uint32_t rss_src, rss_dst, rss_ports, rss;
	bool rss_is6;			/* the memo is an IPv6 tuple's */
	uint8_t rss_addr6[32];		/* its addresses */
};

/* What one variant measured. */
struct bench_stage_result {
	uint64_t calls, packets, cycles;
};

struct bench_result {
	const char *name;
	bool ran;		/* false: skipped (see note) */
	bool failed;		/* wrong output, lost mbufs, no traffic */
	char note[768];
	uint64_t forwarded;	/* ports[].tx over the interval */
	uint64_t received;	/* ports[].rx over the interval */
	uint64_t dropped;	/* counted drops over the interval */
	uint64_t tsc;		/* worker TSC cycles over the interval */
	uint64_t polls, empty_polls;
	double cpu_share;	/* worker thread CPU time / wall time */
	double core_to_core;	/* cycles, one way, main <-> worker lcore */
	double seconds, mpps, cycles_per_packet, ratio;
	struct bench_stage_result stages[LSK_STAGE_COUNT];
	uint64_t checked, check_failures;
	uint64_t cache_hits, cache_misses;	/* route cache, interval */
	uint64_t cache_bypassed;
	uint64_t delivered, rcvbuf_errors;	/* udp, interval */
	uint64_t gro_trains, gro_merged, gso_segments;
	double gbps;				/* frames' bytes, w/o FCS */
	uint64_t counted;	/* what mpps counts: forwarded, delivered
				 * or taken out by the consumer */
	uint64_t consumer_calls;
	/* the pcap feed's RX callback over the interval (rx_cksum.c) */
	struct bench_feed_work emul;
	long long mbufs_in_use;
	/* route-churn: the control thread's changes over the run */
	bool churned;
	uint64_t route_changes, route_refused;
	uint64_t next_hops_checked;	/* bench_feed's */
	double route_changes_per_s;
	/* a summary of rounds (repeat.c): the spread of the runs */
	double mpps_min, mpps_max, ratio_min, ratio_max;
};

/*
 * --repeat N runs every selected variant once per round, in the same order
 * each round. A run's ratio is to the baseline's run of the same round.
 */
struct bench_round {
	unsigned int n;		/* variants run (fewer if interrupted) */
	struct bench_result r[BENCH_MAX_VARIANTS];
};

/* Set each run's ratio to the baseline's run in the same round. */
void bench_round_ratios(const struct bench_scenario *sc,
			struct bench_round *round);
/* One result per variant of round 0 from the runs of all the rounds. */
void bench_summarise(const struct bench_round *rounds, unsigned int n_rounds,
		     struct bench_result *sum);
void bench_print_rounds(const struct bench_scenario *sc,
			const struct bench_round *rounds,
			unsigned int n_rounds);
void bench_json_rounds(FILE *f, const struct bench_round *rounds,
		       unsigned int n_rounds);
void bench_json_number(FILE *f, double v);

/* The checksum flags the sfc PMD would set on m, computed from its bytes
 * (rx_cksum.c). */
uint64_t bench_rx_cksum_flags(const struct rte_mbuf *m);
/* rte_eth_add_rx_callback's function: each frame's checksum flags replaced
 * by bench_rx_cksum_flags, and an IPv4 frame's RSS hash set (as sfc with
 * RSS on); arg is a struct bench_feed_work. */
uint16_t bench_rx_cksum_cb(uint16_t port, uint16_t queue,
			   struct rte_mbuf **pkts, uint16_t n, uint16_t max,
			   void *arg);

/* The worker's side of a run: RX queues, phases, snapshots. */
struct bench_rxq {
	uint16_t port, queue;
};

struct bench_run {
	struct lsk_worker *w;
	unsigned int n_rxq;
	struct bench_rxq rxq[BENCH_MAX_RXQ];
	uint64_t warmup_tsc;	/* warm-up length */
	uint64_t measure_tsc;	/* measured interval length (time mode) */
	uint64_t packets;	/* measured packets (packet mode), else 0 */
	bool wait_first;	/* start the warm-up at the first packet */
	/* ports feed: forward on after the interval until stopped, then
	 * drain the RX queues and take s_end */
	bool until_stop;

	volatile bool stop;	/* asked to stop (signal, main) */
	volatile bool done;	/* the worker has left its loop */

	/* results, written by the worker before done */
	bool measured;		/* both snapshots taken */
	uint64_t t0, t1;
	uint64_t cpu0_ns, cpu1_ns;	/* the worker thread's CPU time */
	struct lsk_stats s0, s1;
	struct lsk_stats s_end;	/* until_stop: the whole run's, at the end */
	bool interval_whole;	/* the interval ended before the stop */
	uint64_t polls, empty_polls;
	/* the pcap feed's checksum flags: running, and at each snapshot */
	struct bench_feed_work emul, emul0, emul1;

	/* udp-local with the drain in the worker loop */
	struct bench_feed *drain_feed;
	/* udp-recv: what the consumer on the main lcore measured */
	uint64_t consumer_pkts, consumer_tsc, consumer_calls;
	bool consumer_measured;
};

/* Empty the local endpoint: spot-check, free. Returns datagrams taken. */
unsigned int bench_drain_ep(struct bench_feed *f);

int bench_worker_loop(void *arg);

extern volatile sig_atomic_t bench_signalled;

/* Feeds. */
struct bench_feed;

struct bench_feed_ops {
	const char *name;
	/* once, after EAL init: pool, files */
	int (*init)(struct bench_feed *f);
	/* per variant: ports created, configured and started */
	int (*open)(struct bench_feed *f, struct bench_run *run);
	/* main lcore during the run: generate or sleep until run->done */
	void (*drive)(struct bench_feed *f, struct bench_run *run);
	/* per variant: ports stopped (and closed unless persistent), every
	 * mbuf back in the pool */
	void (*close)(struct bench_feed *f);
	/* once, at exit */
	void (*fini)(struct bench_feed *f);
	/* the worker's TX hook, or NULL for plain rte_eth_tx_burst */
	lsk_tx_fn tx_fn;
};

struct bench_feed {
	const struct bench_feed_ops *ops;
	const struct bench_opts *opts;
	const struct bench_traffic *traffic;
	const struct bench_scenario *scenario;
	const struct bench_variant *variant;	/* the one running */
	unsigned int n_ports;
	struct rte_mempool *pool;
	/* spot checks of forwarded packets */
	uint64_t checked, check_failures;
	/* route-churn on the pcap feed: packets whose next hop was checked
	 * (every one, feed_pcap.c) */
	uint64_t next_hops_checked;
	char first_failure[256];
	/* the ports feed's whole-run counters (feed_ports.h), or NULL */
	struct bench_ports *ports;
	/* feed-private state */
	void *priv;
};

extern const struct bench_feed_ops bench_feed_ring;
extern const struct bench_feed_ops bench_feed_pcap;
extern const struct bench_feed_ops bench_feed_dut;

/* Are the ports the EAL's (dut, ports)? */
static inline bool
bench_feed_from_eal(const struct bench_opts *o)
{
	return o->feed >= BENCH_FEED_DUT;
}

/* The counters that say a packet went nowhere (not forwarded): name
 * ("ip.InNoRoutes") and offset in struct lsk_stats (report.c). */
struct bench_drop_reason {
	const char *name;
	size_t offset;
};

extern const struct bench_drop_reason bench_drop_reasons[];
extern const unsigned int bench_n_drop_reasons;
/* Their sum, and every port's tx_dropped. */
uint64_t bench_stats_drops(const struct lsk_stats *s);

/* The counter at offset in s. */
static inline uint64_t
bench_stat_at(const struct lsk_stats *s, size_t offset)
{
	uint64_t v;

	memcpy(&v, (const char *)s + offset, sizeof(v));
	return v;
}

/* Record one spot check (any lcore, never concurrently). */
void bench_feed_check(struct bench_feed *f, const struct rte_mbuf *m,
		      uint16_t out_port);

/* Sleep without spinning (the worker may share the machine's 2 CPUs). */
void bench_sleep_ms(unsigned int ms);
/* drive for a feed whose traffic comes from elsewhere (a file replayed
 * by the PMD, the wire): wait for the run to end, passing a signal on */
void bench_feed_idle(struct bench_feed *f, struct bench_run *run);
/* fini for a feed whose only state is f->priv */
void bench_feed_free_priv(struct bench_feed *f);

/* Output. */
void bench_print_header(const struct bench_opts *o,
			const struct bench_scenario *sc, unsigned int worker,
			double rdtsc_cost);
/* r: the summary of the rounds (with one round: its runs as they are) */
void bench_print_results(const struct bench_scenario *sc,
			 const struct bench_result *r, unsigned int n,
			 const struct bench_round *rounds,
			 unsigned int n_rounds);
int bench_write_json(const char *path, const struct bench_scenario *sc,
		     const struct bench_result *r, unsigned int n,
		     const struct bench_round *rounds, unsigned int n_rounds);

#endif
