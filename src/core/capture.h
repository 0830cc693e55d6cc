/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture, the worker's side: the capture the control thread
 * published (sh->capture, core/shared.h; loaded into w->cap with the
 * tables once per burst, its bit in the observe word w->obs that the
 * trace shares) and the hooks where a worker takes a burst in (RX),
 * hands a port's buffer to the tx function (TX: what the port took; what
 * it refused is a drop) and drops a packet with a counted reason (drop).
 * With no capture running each hook is one predictable branch on w->obs
 * per burst, buffer or drop; with one, the matching packets are copied
 * (snaplen bytes) into the capture's pool and handed to its writer
 * thread through a ring. A full ring or an empty
 * pool loses the copy, counted in the capture: the worker never waits.
 * The control side and the writer are control/capture.c.
 */
#ifndef LSK_CORE_CAPTURE_H
#define LSK_CORE_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#include "listack/listack.h"
#include "core/worker.h"

struct rte_ring;
struct rte_mempool;
struct lsk_drop;

/* what a capture takes */
#define LSK_CAP_RX 1u
#define LSK_CAP_TX 2u
#define LSK_CAP_DROP 4u
#define LSK_CAP_ALL (LSK_CAP_RX | LSK_CAP_TX | LSK_CAP_DROP)

/* every port */
#define LSK_CAP_ANY_PORT UINT16_MAX

/* The direction of a copy, as pcapng's epb_flags say it. */
enum lsk_cap_dir {
	LSK_CAP_DIR_IN = 1,
	LSK_CAP_DIR_OUT = 2,
};

/* What a copy carries for the writer, in its pool's private area. */
struct lsk_cap_meta {
	uint64_t tsc;		/* when the worker saw it */
	uint32_t orig_len;	/* the packet's length before snaplen */
	uint16_t port;
	uint8_t dir;		/* enum lsk_cap_dir */
	uint8_t pad;
	/* a drop's first counter as core/drop.h places it (offset in
	 * struct lsk_stats plus one); 0: not a drop */
	uint16_t drop_at;
};

/* One worker's counts, written by that worker only. */
struct lsk_cap_worker_stats {
	uint64_t seen;		/* matched and taken (count not reached) */
	uint64_t lost;		/* of those: no mbuf, or no room in the ring */
} __rte_cache_aligned;

/*
 * A running capture as workers see it: made by the control thread
 * before it is published and never changed after, but for the counters
 * (each worker its own) and taken (atomic, when count bounds it).
 */
struct lsk_capture {
	uint32_t what;		/* LSK_CAP_* */
	uint16_t port;		/* LSK_CAP_ANY_PORT: every port */
	uint32_t snaplen;
	uint64_t count;		/* packets to take; 0: no bound */
	uint64_t taken;		/* with count: packets taken so far */
	struct rte_ring *ring;	/* copies to the writer (MP, SC) */
	struct rte_mempool *pool;	/* the copies */
	struct lsk_cap_worker_stats w[LSK_MAX_WORKERS];
	struct lsk_cap_worker_stats ctl;	/* drops off the workers'
						 * own counts: atomic */
};

/* The copies of pkts[0..n) that match (core/capture.c): ring them,
 * counting what is lost. drop_at: as in struct lsk_cap_meta.
 * Ownership: pkts stay the caller's. */
void lsk_capture_take(struct lsk_worker *w, struct rte_mbuf *const *pkts,
		      uint16_t n, uint16_t port, enum lsk_cap_dir dir,
		      uint16_t drop_at);
/* A dropped list entry: the packet, or each datagram of a fraglist
 * train. Ownership: m stays the caller's. */
void lsk_capture_drop_entry(struct lsk_worker *w, struct rte_mbuf *m,
			    uint32_t meta, uint16_t drop_at);

/* RX: a burst as the worker takes it.
 * Ownership: pkts stay the caller's. */
static inline void
lsk_capture_rx(struct lsk_worker *w, struct rte_mbuf *const *pkts, uint16_t n)
{
	if (unlikely(w->obs & LSK_OBS_CAPTURE) && (w->cap->what & LSK_CAP_RX))
		lsk_capture_take(w, pkts, n, LSK_CAP_ANY_PORT, LSK_CAP_DIR_IN,
				 0);
}

/* The drop_at (struct lsk_cap_meta) of ports[port].tx_dropped. */
static inline uint16_t
lsk_capture_tx_dropped_at(uint16_t port)
{
	return (uint16_t)(offsetof(struct lsk_stats, ports) +
			  port * sizeof(struct lsk_port_stats) +
			  offsetof(struct lsk_port_stats, tx_dropped) + 1);
}

/* TX with tx in the capture: pkts[0..n) to port's tx function (w->tx_fn)
 * and the copies of what matches, taken before it (sent, the mbufs are
 * the driver's): each written as sent (outbound) if the port took it,
 * or, if it refused it, as a drop named portN.tx_dropped (outbound)
 * when the capture takes drops, and not at all when not. One record a
 * frame, as ports[].tx and tx_dropped count it. Returns what was sent.
 * Ownership: takes pkts[0..sent); the rest stay the caller's. */
uint16_t lsk_capture_tx_burst(struct lsk_worker *w, uint16_t port,
			      uint16_t queue, struct rte_mbuf **pkts,
			      uint16_t n);

/* Does the capture want what port's buffer sends? Then lsk_capture_tx_burst
 * sends it. */
static inline bool
lsk_capture_tx_on(const struct lsk_worker *w)
{
	return unlikely(w->obs & LSK_OBS_CAPTURE) &&
	       (w->cap->what & LSK_CAP_TX);
}

/* TX refused with drop but not tx in the capture: what port's tx
 * function did not take, dropped, counted in ports[port].tx_dropped.
 * Ownership: pkts stay the caller's. */
static inline void
lsk_capture_refused(struct lsk_worker *w, uint16_t port,
		    struct rte_mbuf *const *pkts, uint16_t n)
{
	if (unlikely(w->obs & LSK_OBS_CAPTURE) &&
	    (w->cap->what & (LSK_CAP_TX | LSK_CAP_DROP)) == LSK_CAP_DROP)
		lsk_capture_take(w, pkts, n, port, LSK_CAP_DIR_OUT,
				 lsk_capture_tx_dropped_at(port));
}

/* Drop: an entry dropped for a reason whose first counter is drop_at.
 * Ownership: m stays the caller's. */
static inline void
lsk_capture_drop(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		 uint16_t drop_at)
{
	if (unlikely(w->obs & LSK_OBS_CAPTURE) && (w->cap->what & LSK_CAP_DROP))
		lsk_capture_drop_entry(w, m, meta, drop_at);
}

/* A drop on a thread that may be no worker (l2/neigh_hold.c: what a
 * hold queue held, dropped by the control thread or an eviction): m's
 * copy to the capture published in *slot, if it takes drops, counted in
 * its ctl figures. Ownership: m stays the caller's. */
void lsk_capture_drop_any_entry(struct lsk_capture *cap, struct rte_mbuf *m,
				uint16_t drop_at);

static inline void
lsk_capture_drop_any(struct lsk_capture *const *slot, struct rte_mbuf *m,
		     uint16_t drop_at)
{
	struct lsk_capture *cap = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (unlikely(cap != NULL) && (cap->what & LSK_CAP_DROP))
		lsk_capture_drop_any_entry(cap, m, drop_at);
}

#endif /* LSK_CORE_CAPTURE_H */
