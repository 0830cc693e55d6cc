/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-worker state: the lists between stages, the tables loaded for
 * the burst, each layer's state, TX buffers and counters. It includes the
 * layers' headers whose structs it embeds (udp/gro.h, udp/udp.h).
 */
#ifndef LSK_CORE_WORKER_H
#define LSK_CORE_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ip_frag.h>
#include <rte_mbuf.h>

#include "listack/listack.h"
#include "core/list.h"
#include "core/settings.h"
#include "udp/gro.h"
#include "udp/udp.h"

struct lsk_stack;
struct lsk_fwd_table;
struct lsk_udp_table;
struct lsk_filter_table;
struct lsk_route_cache;

struct lsk_txbuf {
	uint16_t queue;
	uint16_t n;
	struct rte_mbuf *pkts[2 * LSK_BURST_MAX];
};

struct lsk_worker {
	struct lsk_stack *stack;
	unsigned int id;
	bool online;		/* in the RCU quiescent-state reporting */
	lsk_tx_fn tx_fn;
	void *tx_arg;
	/* the stack's table as loaded at the start of the current burst */
	const struct lsk_fwd_table *fwd;

	const struct lsk_udp_table *udp;
	const struct lsk_filter_table *filter;
	struct lsk_settings set;	/* mode and GRO, for this burst */

	/* the burst with runs of one flow chained (lsk_gro_rx_runs): each
	 * entry and how many datagrams follow it in its train */
	struct rte_mbuf *rx_heads[LSK_BURST_MAX];
	uint8_t rx_members[LSK_BURST_MAX];

	/* lists between stages, reused every burst */
	struct lsk_list ip4;
	struct lsk_list arp;
	struct lsk_list local;
	struct lsk_list icmp4;		/* ICMP to us */
	struct lsk_list icmp_out;	/* ICMP we send */
	struct lsk_list out_local;	/* our sends to ourselves */
	uint64_t icmp_tokens, icmp_tokens_tsc;
	struct rte_ip_frag_tbl *reasm;
	struct rte_ip_frag_death_row death_row;
	uint16_t icmp_ip_id;
	struct lsk_list udp4;
	struct lsk_udp_deliveries udp_pending;
	struct lsk_gro_table gro;
	struct lsk_route_cache *rcache;	/* rcache_pub, for this burst */
	/* this worker's route cache as the control thread published it
	 * (lsk_route_cache_set), NULL when off */
	struct lsk_route_cache *rcache_pub;

	struct lsk_txbuf tx[LSK_MAX_PORTS];
	struct lsk_stats stats;		/* stages[].cycles: timed runs only */
	uint64_t stage_timed[LSK_STAGE_COUNT];	/* packets of timed runs */
} __rte_cache_aligned;

#endif /* LSK_CORE_WORKER_H */
