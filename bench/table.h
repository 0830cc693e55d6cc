/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A route table read from a file (--table FILE: A.B.C.D/L lines, such as
 * `bench/dut/fulltable.py prefixes`, whose BGP-like shape the route-churn
 * scenario then loads) and the oracle that checks every forwarded frame's
 * next hop against it (table.c).
 *
 * Next hops: BENCH_TABLE_GWS gateways behind port 1, gateway g at the
 * traffic's gw_addr + g with gw_mac's last byte + g (so gateway 0 is the
 * traffic's gw, 1 its gw2). Prefix j of the table sorted by address then
 * length leaves by gateway j % BENCH_TABLE_GWS: a prefix and a more
 * specific right after it in that order have different gateways, so a
 * lookup that matched the covering prefix instead of the longest shows as
 * a wrong next hop.
 *
 * Churned prefixes: up to BENCH_TABLE_CHURN, spread over the table, each
 * of /30 or shorter with no more specific in the table (so the cycle's
 * half prefix, scenario_churn.c, never collides with one of the table's).
 * Each moves between its own gateway and the next one (alt).
 *
 * Flows: flow i is sent to tb->flow[i].dst; one flow in BENCH_TABLE_HOT_EVERY
 * goes to a churned prefix (so that churn meets traffic), the others to a
 * prefix drawn uniformly over the table, a host in it drawn uniformly.
 * Each flow's allowed next hops are those of its destination's longest
 * match in the table (found by binary search, not by the stack's FIB):
 * gw, and alt too when that prefix is churned.
 */
#ifndef LSK_BENCH_TABLE_H
#define LSK_BENCH_TABLE_H

#include "bench.h"

#define BENCH_TABLE_GWS 8u
#define BENCH_TABLE_CHURN 64u
#define BENCH_TABLE_HOT_EVERY 256u
#define BENCH_TABLE_MAX (1u << 20)	/* prefixes, as --routes */

struct bench_table {
	uint32_t n;		/* prefixes */
	uint64_t *key;		/* address << 8 | length, sorted */
	uint32_t n_churn;
	uint32_t churn[BENCH_TABLE_CHURN];	/* indices into key */
	struct bench_table_flow *flow;		/* per flow */
};

static inline uint32_t
bench_table_addr(const struct bench_table *tb, uint32_t j)
{
	return (uint32_t)(tb->key[j] >> 8);
}

static inline uint8_t
bench_table_len(const struct bench_table *tb, uint32_t j)
{
	return (uint8_t)tb->key[j];
}

/*
 * Read path into tb, flows destinations drawn over it, and t made to send
 * them (t->table_flows, t->routes, t->churn_routes). On error, err says
 * FILE:LINE: what (or what else) and tb holds nothing.
 */
int bench_table_load(struct bench_table *tb, const char *path,
		     struct bench_traffic *t, char *err, size_t len);
void bench_table_free(struct bench_table *tb);
/* The longest match of addr in tb: its index, or -1 (none). */
int64_t bench_table_lookup(const struct bench_table *tb, uint32_t addr);
/* The gateways (1 .. BENCH_TABLE_GWS - 1: 0 is bench_fwd_configure's) and
 * the table's routes into s. */
int bench_table_configure(struct lsk_stack *s, const struct bench_traffic *t,
			  char *err, size_t len);
/* Churned route k: prefix, length, its gateway's address and alt's. */
void bench_table_churned(const struct bench_traffic *t, uint32_t k,
			 uint32_t *prefix, uint8_t *plen, uint32_t *gw,
			 uint32_t *alt);

/*
 * Did the frame at eh (m->data_len >= BENCH_HDR_LEN: the caller's check)
 * leave for one of its flow's allowed next hops? The flow is found from
 * the source host and port (bench_flow_next's numbering); the destination
 * must be the flow's. A few compares and one load a frame.
 */
static inline bool
bench_table_hop_ok(const struct bench_traffic *t,
		   const struct rte_ether_hdr *eh)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eh + 1);
	const struct rte_udp_hdr *udp = (const struct rte_udp_hdr *)(ip + 1);
	uint32_t host = (rte_be_to_cpu_32(ip->src_addr) & 0xff) - 2;
	uint32_t sport = rte_be_to_cpu_16(udp->src_port) - BENCH_SPORT_BASE;
	uint32_t i = host * BENCH_SPORT_SPAN + sport;
	const struct bench_table_flow *fl;
	uint8_t g;

	if (host >= BENCH_SRC_HOSTS || sport >= BENCH_SPORT_SPAN ||
	    i >= t->flows)
		return false;
	fl = &t->table_flows[i];
	g = (uint8_t)(eh->dst_addr.addr_bytes[5] - t->gw_mac.addr_bytes[5]);
	return rte_be_to_cpu_32(ip->dst_addr) == fl->dst &&
	       memcmp(&eh->dst_addr, &t->gw_mac, RTE_ETHER_ADDR_LEN - 1) == 0 &&
	       (g == fl->gw || g == fl->alt);
}

#endif
