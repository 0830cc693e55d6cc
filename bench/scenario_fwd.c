/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The scenarios. To add one: a variants table, a configure function for
 * its traffic, and an entry in scenarios[] below (the traffic model lives
 * in traffic.c; a scenario that needs other traffic, such as local UDP,
 * adds its destination plan there).
 *
 * fwd: UDP/IPv4 forwarding from port 0 to a gateway on port 1 over R
 * routes, the same traffic through each variant. fwd6 and gro6-fwd, the
 * same over IPv6: scenario_fwd6.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "table.h"
#include "listack/udp.h"

struct lsk_udp_ep *bench_ep;

static const struct bench_variant fwd_variants[] = {
	{ .name = "single", .mode = LSK_MODE_SINGLE },
	{ .name = "list", .mode = LSK_MODE_LIST },
	/*
	 * The per-worker route cache in front of the FIB. A stack that
	 * does not know the command (-ENOTSUP) gets the variant reported
	 * as skipped.
	 */
	{ .name = "list+cache", .mode = LSK_MODE_LIST,
	  .config = { "route-cache on entries 4096" } },
	/* every packet claimed by a trace (the first LSK_TRACE_PKTS
	 * recorded, the rest counted overflow): the hooks' cost when on */
	{ .name = "list+trace", .mode = LSK_MODE_LIST,
	  .action = "trace add 1000000000" },
};

int
bench_fwd_configure(struct lsk_stack *s, const struct bench_traffic *t, char *err,
	      size_t len)
{
	uint32_t k;
	int rc;

	rc = lsk_port_set(s, 0, &t->port_mac[0], 0);
	if (rc == 0)
		rc = lsk_port_set(s, 1, &t->port_mac[1], 0);
	if (rc == 0)
		rc = lsk_address_add(s, t->port_addr[0], 24, 0);
	if (rc == 0)
		rc = lsk_address_add(s, t->port_addr[1], 24, 1);
	if (rc == 0)
		rc = lsk_neigh_add(s, t->gw_addr, &t->gw_mac);
	if (rc < 0) {
		snprintf(err, len, "ports, addresses, neighbour: %s",
			 strerror(-rc));
		return rc;
	}
	if (t->table != NULL)	/* --table (route-churn): its routes */
		return bench_table_configure(s, t, err, len);
	for (k = 0; k < t->routes; k++) {
		rc = lsk_route_add(s, bench_route_prefix(t, k), 24,
				   LSK_ROUTE_VIA, t->gw_addr);
		if (rc < 0) {
			snprintf(err, len, "route %u of %u: %s", k + 1,
				 t->routes, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/*
 * udp-local: F (default 10) flows of 1-byte datagrams to port 0's address,
 * port 9, one endpoint; a consumer empties its ring with
 * lsk_udp_recv_burst(32) + rte_pktmbuf_free_bulk, on the main lcore
 * between generator bursts (default) or in the worker loop after
 * lsk_worker_flush (--drain worker). Measured: udp.InDatagrams.
 */
static const struct bench_variant udp_local_variants[] = {
	{ .name = "single", .mode = LSK_MODE_SINGLE },
	{ .name = "list", .mode = LSK_MODE_LIST },
};

static int
bind_local(struct lsk_stack *s, const struct bench_traffic *t,
	   uint32_t ring, char *err, size_t len)
{
	struct lsk_udp_bind_opts bo = { .ring_size = ring,
					.socket_id = SOCKET_ID_ANY,
					.flags = LSK_UDP_SP };
	int rc;

	rc = lsk_udp_bind(s, t->port_addr[0], BENCH_UDP_DPORT, &bo, &bench_ep);
	if (rc < 0) {
		bench_ep = NULL;
		snprintf(err, len, "lsk_udp_bind: %s", strerror(-rc));
	}
	return rc;
}

static int
udp_local_configure(struct lsk_stack *s, const struct bench_traffic *t,
		    char *err, size_t len)
{
	int rc = bench_fwd_configure(s, t, err, len);

	/* 4096 > every mbuf the generator keeps going: the ring never
	 * fills, whoever drains it */
	return rc < 0 ? rc : bind_local(s, t, 4096, err, len);
}

static void
udp_local_defaults(struct bench_opts *o)
{
	if (!o->flows_given)
		o->flows = 10;
	if (!o->size_given)
		o->size = BENCH_HDR_LEN + 1;	/* 1-byte payload: 43 B */
}

/*
 * udp-recv: the consumer side of a flood. Rounds of 32768 datagrams fed
 * through the worker into a 65536-datagram ring, then emptied by the
 * consumer with lsk_udp_recv_burst(ep, msgs, 1) vs (ep, msgs, 32), timed.
 */
static const struct bench_variant udp_recv_variants[] = {
	{ .name = "per-datagram", .mode = LSK_MODE_LIST, .recv_batch = 1 },
	{ .name = "bulk", .mode = LSK_MODE_LIST, .recv_batch = 32 },
};

static int
udp_recv_configure(struct lsk_stack *s, const struct bench_traffic *t,
		   char *err, size_t len)
{
	int rc = bench_fwd_configure(s, t, err, len);

	return rc < 0 ? rc : bind_local(s, t, 65536, err, len);
}

/*
 * gro-fwd: 1460-byte payloads (1502-byte frames) forwarded, GRO off, the
 * payload-merging GRO and fraglist GRO, without and with 1000 filter rules
 * (none matching: every datagram is classified and accepted). The GRO
 * scenarios' frames carry the checksum flags a NIC sets (rx_cksum_good):
 * the ring feed's generator sets them, the pcap feed's RX callback
 * computes them (rx_cksum.c).
 */
static const struct bench_variant gro_fwd_variants[] = {
	{ .name = "off", .mode = LSK_MODE_LIST, .config = { "gro off" } },
	{ .name = "merge", .mode = LSK_MODE_LIST,
	  .config = { "gro merge" } },
	{ .name = "fraglist", .mode = LSK_MODE_LIST,
	  .config = { "gro fraglist" } },
	{ .name = "off+acl", .mode = LSK_MODE_LIST, .acl_rules = 1000,
	  .config = { "gro off" } },
	{ .name = "merge+acl", .mode = LSK_MODE_LIST, .acl_rules = 1000,
	  .config = { "gro merge" } },
	{ .name = "fraglist+acl", .mode = LSK_MODE_LIST, .acl_rules = 1000,
	  .config = { "gro fraglist" } },
};

static void
gro_fwd_defaults(struct bench_opts *o)
{
	if (!o->size_given)
		o->size = RTE_ETHER_HDR_LEN + 20 + 8 + 1460;	/* 1502 */
}

/* gro-adversarial: every datagram of a burst its own flow. */
static const struct bench_variant gro_adv_variants[] = {
	{ .name = "off", .mode = LSK_MODE_LIST, .config = { "gro off" } },
	{ .name = "fraglist", .mode = LSK_MODE_LIST,
	  .config = { "gro fraglist" } },
};

static void
gro_adv_defaults(struct bench_opts *o)
{
	if (!o->flows_given)
		o->flows = 100000;
}

/*
 * route-cache: 1M routes (distinct /24s via one gateway), destinations
 * from a hot set of 256 random routes or uniformly random over all.
 */
static const struct bench_variant route_cache_variants[] = {
	{ .name = "fib", .mode = LSK_MODE_LIST, .dst = BENCH_DST_HOT },
	{ .name = "cache-hot", .mode = LSK_MODE_LIST, .dst = BENCH_DST_HOT,
	  .config = { "route-cache on entries 4096" } },
	{ .name = "fib-random", .mode = LSK_MODE_LIST,
	  .dst = BENCH_DST_RANDOM },
	{ .name = "cache-random", .mode = LSK_MODE_LIST,
	  .dst = BENCH_DST_RANDOM,
	  .config = { "route-cache on entries 4096" } },
};

static void
route_cache_defaults(struct bench_opts *o)
{
	if (!o->routes_given)
		o->routes = 65536;	/* 1M: see RESULTS.md */
}

static const struct bench_scenario scenarios[] = {
	{
		.name = "fwd",
		.summary = "UDP/IPv4 forwarding port 0 -> port 1 over F flows "
			   "and R routes",
		.baseline = "single",
		.variants = fwd_variants,
		.n_variants = RTE_DIM(fwd_variants),
		.configure = bench_fwd_configure,
	},
	{
		.name = "fwd6",
		.summary = "UDP/IPv6 forwarding port 0 -> port 1 over F flows "
			   "and R routes (/56 each)",
		.baseline = "single",
		.variants = bench_fwd6_variants,
		.n_variants = 2,
		.configure = bench_fwd6_configure,
		.ip6 = true,
	},
	{
		.name = "udp-local",
		.summary = "1-byte UDP datagrams of F flows (default 10) to "
			   "one local endpoint, ring drained by a consumer",
		.baseline = "single",
		.variants = udp_local_variants,
		.n_variants = RTE_DIM(udp_local_variants),
		.configure = udp_local_configure,
		.defaults = udp_local_defaults,
		.measure = BENCH_MEASURE_DELIVERED,
		.dst = BENCH_DST_LOCAL,
		.ring_only = true,
	},
	{
		.name = "udp-recv",
		.summary = "consumer of a flood: 1 datagram per "
			   "lsk_udp_recv_burst call vs 32",
		.baseline = "per-datagram",
		.variants = udp_recv_variants,
		.n_variants = RTE_DIM(udp_recv_variants),
		.configure = udp_recv_configure,
		.defaults = udp_local_defaults,
		.measure = BENCH_MEASURE_CONSUMER,
		.dst = BENCH_DST_LOCAL,
		.pool_extra = 32768 + 1024,
		.ring_only = true,
	},
	{
		.name = "gro-fwd",
		.summary = "1460-byte UDP payload forwarding, GRO off / merge "
			   "/ fraglist, no filter and 1000 filter rules",
		.baseline = "off",
		.variants = gro_fwd_variants,
		.n_variants = RTE_DIM(gro_fwd_variants),
		.configure = bench_fwd_configure,
		.defaults = gro_fwd_defaults,
		.rx_cksum_good = true,
		.per_flow_ip_id = true,
	},
	{
		.name = "gro6-fwd",
		.summary = "1452-byte UDP payload forwarding over IPv6, GRO "
			   "off / fraglist",
		.baseline = "off",
		.variants = bench_gro6_variants,
		.n_variants = 2,
		.configure = bench_fwd6_configure,
		.defaults = bench_gro6_defaults,
		.rx_cksum_good = true,
		.ip6 = true,
	},
	{
		.name = "gro-adversarial",
		.summary = "F (default 100000) flows in turn, nothing "
			   "mergeable: fraglist GRO vs off",
		.baseline = "off",
		.variants = gro_adv_variants,
		.n_variants = RTE_DIM(gro_adv_variants),
		.configure = bench_fwd_configure,
		.defaults = gro_adv_defaults,
		.rx_cksum_good = true,
		.per_flow_ip_id = true,
	},
	{
		.name = "route-cache",
		.summary = "R-route FIB (default 65536; 1M: --routes 1048576 with -m 2048), hot set of 256 destinations or "
			   "uniformly random ones: route cache vs FIB",
		.baseline = "fib",
		.variants = route_cache_variants,
		.n_variants = RTE_DIM(route_cache_variants),
		.configure = bench_fwd_configure,
		.defaults = route_cache_defaults,
		.max_routes = 1100000,
		.ring_only = true,
	},
	{
		.name = "route-churn",
		.summary = "fwd while a control thread changes routes: none, "
			   "1000/s, as fast as it can (scenario_churn.c)",
		.baseline = "none",
		.variants = bench_churn_variants,
		.n_variants = 3,
		.configure = bench_churn_configure,
		.defaults = bench_churn_defaults,
		.churn_routes = 64,
		/* the pcap feed too (issue 25): every variant sends the
		 * same traffic; up to the full table */
		.max_routes = 1100000,
	},
};

const struct bench_scenario *
bench_scenario_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(scenarios); i++)
		if (strcmp(scenarios[i].name, name) == 0)
			return &scenarios[i];
	return NULL;
}

void
bench_scenarios_list(FILE *f)
{
	unsigned int i, v;

	for (i = 0; i < RTE_DIM(scenarios); i++) {
		fprintf(f, "  %-16s %s; variants:", scenarios[i].name,
			scenarios[i].summary);
		for (v = 0; v < scenarios[i].n_variants; v++)
			fprintf(f, " %s", scenarios[i].variants[v].name);
		fprintf(f, " (baseline %s)\n", scenarios[i].baseline);
	}
}
