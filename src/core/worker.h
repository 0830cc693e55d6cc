/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-worker state: the lists between stages, the tables loaded for
 * the burst, TX buffers and counters, and where each layer keeps its own.
 *
 * Core knows no stage, so a layer's per-worker state (struct
 * lsk_ip4_worker in ip4/ip4.h, struct lsk_udp_worker in udp/udp.h) is
 * reached through a pointer to a type core leaves incomplete. The worker
 * loop (worker/worker_make.c), the one place that knows every layer, allocates
 * them in the same block as the worker, right behind it, so they stay as
 * near as when they were embedded; a stage pays one load of the pointer
 * per call, not per packet. (Embedding them by value would make core
 * include every layer's header; moving this struct above the layers
 * would make core's own TX, capture and trace code include a header of
 * the worker loop.)
 */
#ifndef LSK_CORE_WORKER_H
#define LSK_CORE_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "listack/listack.h"
#include "core/list.h"
#include "core/settings.h"
#include "core/shared.h"

struct lsk_ip4_worker;
struct lsk_ip6_worker;
struct lsk_udp_worker;
struct lsk_fwd_table;
struct lsk_fwd6_table;
struct lsk_udp_table;
struct lsk_filter_table;
struct lsk_host_table;
struct lsk_capture;
struct lsk_trace;

#define LSK_OBS_CAPTURE 1u	/* w->cap runs (core/capture.h) */
#define LSK_OBS_TRACE 2u	/* w->trace wants records (core/trace.h) */
#define LSK_OBS_TRACE_RX 4u	/* w->trace claims packets (core/trace.h) */

struct lsk_txbuf {
	uint16_t queue;
	uint16_t n;
	struct rte_mbuf *pkts[2 * LSK_BURST_MAX];
};

struct lsk_worker {
	/* what the control thread shares with the workers (core/shared.h) */
	const struct lsk_shared *sh;
	unsigned int id;
	bool online;		/* in the RCU quiescent-state reporting */
	/* what was published is loaded for this poll (worker/worker.c) */
	bool loaded;
	uint16_t n_ports;	/* the stack's, fixed at its creation */
	lsk_tx_fn tx_fn;
	void *tx_arg;
	/* what the control thread published, as loaded for this burst */
	const struct lsk_fwd_table *fwd;
	const struct lsk_fwd6_table *fwd6;
	const struct lsk_udp_table *udp;
	const struct lsk_filter_table *filter;
	const struct lsk_host_table *host;	/* NULL: no host path */
	struct lsk_settings set;	/* mode and GRO */
	/* the ports that are admin down, bit p for port p: copied from the
	 * forwarding table per burst, so that a flush outside a burst
	 * (lsk_worker_retire) reads no table that may be gone */
	uint16_t ports_down;
	struct lsk_capture *cap;	/* NULL: none runs (core/capture.h) */
	struct lsk_trace *trace;	/* NULL: none armed (core/trace.h) */
	/* the observe word, LSK_OBS_*: what the observers (capture, trace)
	 * want of this burst, loaded with the tables, so that with none
	 * every hook is one test of one word */
	uint32_t obs;

	/* lists between stages, reused every burst */
	struct lsk_list ip4;
	struct lsk_list arp;
	struct lsk_list local;
	struct lsk_list icmp4;		/* ICMP to us */
	struct lsk_list icmp_out;	/* ICMP we send */
	struct lsk_list udp4;
	struct lsk_list unreach;	/* held for ARP in vain: ICMP */
	/* IPv6's (ip6/ip6.h) */
	struct lsk_list ip6;
	struct lsk_list local6;
	struct lsk_list icmp6;		/* ICMPv6 to us, ND's included */
	struct lsk_list icmp6_out;	/* ICMPv6 errors we send */
	struct lsk_list udp6;
	struct lsk_list unreach6;	/* held for ND in vain: ICMPv6 */

	/* each layer's own state, behind the worker in its block (l2 keeps
	 * none: its neighbour table is shared, sh->neigh) */
	struct lsk_ip4_worker *ip4w;	/* ip4/ip4.h */
	struct lsk_ip6_worker *ip6w;	/* ip6/ip6.h */
	struct lsk_udp_worker *udpw;	/* udp/udp.h, GRO's in udp/gro.h */

	struct lsk_txbuf tx[LSK_MAX_PORTS];
	struct lsk_stats stats;		/* stages[].cycles: timed runs only */
	uint64_t stage_timed[LSK_STAGE_COUNT];	/* packets of timed runs */
	/* the longest time between two polls (lsk_worker_flush calls), in
	 * TSC cycles, since the settings' poll_gap_epoch was this one's (a
	 * `stats clear` publishes a new one, core/settings.h): a stall
	 * (a long burst, a preempted lcore) as the RX queues see it. The
	 * worker writes it, the control thread reads it (relaxed) */
	uint64_t poll_last;
	uint64_t poll_gap_max;
	uint8_t poll_gap_epoch;
} __rte_cache_aligned;

#endif /* LSK_CORE_WORKER_H */
