/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Prometheus metrics: one call starts a thread that serves the stack's
 * counters as `GET /metrics` over HTTP/1.0 and 1.1 on a TCP address, in
 * the Prometheus text format (every counter of the stats JSON, with
 * port, stage and worker labels). The thread is a plain pthread, not an
 * EAL thread; it takes lsk_stack_lock (listack/ctl.h) only while it
 * reads the counters, so a slow or stuck client costs the stack nothing.
 *
 * Bounds: LSK_METRICS_CLIENTS clients at once (one more is answered 503
 * and closed), a request head of 8 KiB, which must arrive whole within
 * 5 s of its first byte; an answer the client does not read for 5 s (or
 * has not read whole in 30 s), or a connection idle for 60 s, is
 * closed. A bad request (another method or path, garbage, a head too
 * large) gets its HTTP error status and the connection closes; nothing
 * else changes.
 */
#ifndef LISTACK_METRICS_H
#define LISTACK_METRICS_H

#include <stdint.h>

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LSK_METRICS_CLIENTS 16

struct lsk_metrics;
struct rte_mempool;

/*
 * Serve addr (a numeric IPv4 or IPv6 address; "0.0.0.0" or "::" for
 * every one) on TCP port (0: one the kernel picks, see
 * lsk_metrics_port). -EADDRINUSE when taken, -EINVAL for a bad address.
 * Stop it before destroying the stack or any of its workers.
 */
int lsk_metrics_start(struct lsk_stack *stack, const char *addr,
		      uint16_t port, struct lsk_metrics **metrics);
/*
 * Whether lsk_metrics_start could serve addr:port now (bound, then
 * closed): 0, -EADDRINUSE, -EADDRNOTAVAIL, -EINVAL (a bad address). An
 * application checks it before it starts what is costly to undo.
 */
int lsk_metrics_probe(const char *addr, uint16_t port);
/* The TCP port served. */
uint16_t lsk_metrics_port(const struct lsk_metrics *metrics);
/*
 * Count pool's mbufs in listack_mbufs_in_use (up to 8 pools; -ENOSPC
 * past that). Any thread; the pool must outlive the server.
 */
int lsk_metrics_add_pool(struct lsk_metrics *metrics,
			 struct rte_mempool *pool);
/* Stop serving and close every client. */
void lsk_metrics_stop(struct lsk_metrics *metrics);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_METRICS_H */
