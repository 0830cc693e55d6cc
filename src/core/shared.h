/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What workers share with the control thread: the slots the control
 * thread publishes tables in, the settings word, the observers (capture,
 * trace), RCU, the pools and rings of what the stack sends, and the
 * neighbour table. Everything else of the stack (the configuration as
 * given, batches, the servers) is the control thread's alone
 * (control/control.h), and no worker can reach it: a worker holds this,
 * not the stack.
 *
 * The control thread writes a slot with lsk_publish (control/control.h:
 * a release store, then an RCU grace period before the old table goes);
 * workers read it once per burst with lsk_published below.
 */
#ifndef LSK_CORE_SHARED_H
#define LSK_CORE_SHARED_H

#include "core/settings.h"

struct rte_mempool;
struct rte_rcu_qsbr;
struct rte_ring;
struct lsk_capture;
struct lsk_filter_table;
struct lsk_fwd_table;
struct lsk_fwd6_table;
struct lsk_host_table;
struct lsk_nd6_table;
struct lsk_neigh_table;
struct lsk_ping_sink;
struct lsk_trace;
struct lsk_udp_table;

struct lsk_shared {
	/* the published tables (NULL filter: no rules) */
	struct lsk_fwd_table *fwd;
	struct lsk_fwd6_table *fwd6;	/* IPv6's (core/fwd6.h) */
	struct lsk_udp_table *udp;
	struct lsk_filter_table *filter;
	/* the host path's TAPs and rates (host/host.h; NULL: none) */
	struct lsk_host_table *host;
	/* mode and GRO as workers read them, stored whole (core/settings.h) */
	struct lsk_settings settings;
	/* the capture workers feed and the trace they fill (NULL: none) */
	struct lsk_capture *capture;
	struct lsk_trace *trace;
	struct rte_rcu_qsbr *qsbr;
	/* learnt and static neighbours: workers learn and resolve, the
	 * control thread sets static entries (l2/neigh_table.c) */
	struct lsk_neigh_table *neigh;
	/* IPv6's neighbours, learnt by neighbour discovery (ip6/nd6.h),
	 * and the state of our addresses' duplicate address detection */
	struct lsk_nd6_table *nd6;
	/* datagrams applications send, drained by worker 0 */
	struct rte_ring *out_ring;
	struct rte_mempool *send_pool;
	/* the answers a ping or traceroute in progress waits for (NULL:
	 * none; core/ping.h) */
	struct lsk_ping_sink *ping;
	/* fragments' data references */
	struct rte_mempool *indirect_pool;
	int socket_id;
};

/* A published slot's table as it is now: an acquire load, paired with
 * lsk_publish's release store, so the table's contents are seen whole. */
#define lsk_published(slot) __atomic_load_n(&(slot), __ATOMIC_ACQUIRE)

#endif /* LSK_CORE_SHARED_H */
