/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack: the workers, one per lcore: their making, the burst they take
 * in, their transmit and their quiescent states.
 * Part of listack/listack.h, which includes it; include that.
 */
#ifndef LISTACK_WORKER_H
#define LISTACK_WORKER_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_stack;
struct lsk_worker;

/*
 * Transmit hook. The default sends with rte_eth_tx_burst on the queue set
 * by lsk_worker_set_txq. Must return how many of pkts it took; the worker
 * frees the rest and counts them ports[].tx_dropped.
 * Ownership: takes the first (returned) of pkts; the rest stay the
 * caller's.
 */
typedef uint16_t (*lsk_tx_fn)(void *arg, uint16_t port, uint16_t queue,
			      struct rte_mbuf **pkts, uint16_t n);

/* Create the per-lcore state of worker `id` (0-based, < LSK_MAX_WORKERS). */
int lsk_worker_create(struct lsk_stack *stack, unsigned int id,
		      struct lsk_worker **worker);
void lsk_worker_destroy(struct lsk_worker *worker);
/*
 * Table updates (lsk_route_add, lsk_udp_bind, ...) wait until every
 * worker that has polled since it was created or last taken offline has
 * passed a lsk_worker_flush. A worker whose lcore stops polling (before
 * exiting its loop, or to sleep) must say so with lsk_worker_offline, or
 * updates wait for it; its next lsk_worker_input/flush brings it back.
 */
void lsk_worker_offline(struct lsk_worker *worker);

/*
 * Drop the packets still waiting for ARP answers, counted
 * arp.UnresolvedDiscards, and for neighbour discovery's (IPv6), counted
 * nd.UnresolvedDiscards; for shutdown, once the workers stopped.
 * Returns how many.
 */
uint32_t lsk_neigh_drop_held(struct lsk_stack *stack);
/*
 * Most mbufs all neighbours together may hold while ARP resolves them;
 * more are dropped (arp.UnresolvedDiscards). 0, the default: an eighth
 * of the pool the packet to hold came from.
 */
void lsk_neigh_set_hold_max(struct lsk_stack *stack, uint32_t mbufs);
void lsk_worker_set_txq(struct lsk_worker *worker, uint16_t port,
			uint16_t queue);
void lsk_worker_set_tx_fn(struct lsk_worker *worker, lsk_tx_fn fn,
			  void *arg);

/*
 * Push a received burst (each mbuf's port field says where it arrived).
 * Each mbuf is sent, queued for sending, or counted and freed before
 * this call returns. n may be at most LSK_BURST_MAX.
 * Ownership: takes every mbuf of pkts.
 */
void lsk_worker_input(struct lsk_worker *worker, struct rte_mbuf **pkts,
		      uint16_t n);
/*
 * Send what the TX buffers hold and report a quiescent state to the
 * stack's RCU. Call once per poll loop iteration.
 */
void lsk_worker_flush(struct lsk_worker *worker);
#ifdef __cplusplus
}
#endif

#endif /* LISTACK_WORKER_H */
