/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Capture, the worker's copies (core/capture.h): called only while a
 * capture runs, so nothing here is on the path of a stack that does not
 * capture.
 */
#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/capture.h"
#include "core/list.h"
#include "core/worker.h"

#define CAP_BATCH 64

/* Room for one more packet under the capture's count. */
static inline bool
cap_reserve(struct lsk_capture *cap)
{
	if (cap->count == 0)
		return true;
	if (__atomic_load_n(&cap->taken, __ATOMIC_RELAXED) >= cap->count)
		return false;
	return __atomic_fetch_add(&cap->taken, 1, __ATOMIC_RELAXED) <
	       cap->count;
}

/* Ring what copies holds; what does not fit is lost. */
static void
cap_flush(struct lsk_capture *cap, struct lsk_cap_worker_stats *st,
	  struct rte_mbuf **copies, unsigned int n)
{
	unsigned int q;

	if (n == 0)
		return;
	q = rte_ring_mp_enqueue_burst(cap->ring, (void **)copies, n, NULL);
	if (q < n) {
		st->lost += n - q;
		rte_pktmbuf_free_bulk(copies + q, n - q);
	}
}

/* The copy of m for the capture, its meta filled, or NULL: not wanted
 * (another port), lost (no mbuf: counted), or past the count (*full). */
static struct rte_mbuf *
cap_copy(struct lsk_capture *cap, struct lsk_cap_worker_stats *st,
	 const struct rte_mbuf *m, uint16_t port, enum lsk_cap_dir dir,
	 uint16_t drop_at, uint64_t tsc, bool *full)
{
	uint16_t p = port == LSK_CAP_ANY_PORT ? m->port : port;
	struct lsk_cap_meta *meta;
	struct rte_mbuf *c;

	if (cap->port != LSK_CAP_ANY_PORT && cap->port != p)
		return NULL;
	if (!cap_reserve(cap)) {
		*full = true;
		return NULL;
	}
	st->seen++;
	c = rte_pktmbuf_copy(m, cap->pool, 0, cap->snaplen);
	if (unlikely(c == NULL)) {
		st->lost++;
		return NULL;
	}
	meta = rte_mbuf_to_priv(c);
	meta->tsc = tsc;
	meta->orig_len = m->pkt_len;
	meta->port = p;
	meta->dir = (uint8_t)dir;
	meta->pad = 0;
	meta->drop_at = drop_at;
	return c;
}

void
lsk_capture_take(struct lsk_worker *w, struct rte_mbuf *const *pkts,
		 uint16_t n, uint16_t port, enum lsk_cap_dir dir,
		 uint16_t drop_at)
{
	struct lsk_capture *cap = w->cap;
	struct lsk_cap_worker_stats *st = &cap->w[w->id];
	struct rte_mbuf *copies[CAP_BATCH];
	uint64_t tsc = rte_rdtsc();
	unsigned int k = 0;
	bool full = false;
	uint16_t i;

	for (i = 0; i < n && !full; i++) {
		struct rte_mbuf *c = cap_copy(cap, st, pkts[i], port, dir,
					      drop_at, tsc, &full);

		if (c == NULL)
			continue;
		copies[k++] = c;
		if (k == CAP_BATCH) {
			cap_flush(cap, st, copies, k);
			k = 0;
		}
	}
	cap_flush(cap, st, copies, k);
}

uint16_t
lsk_capture_tx_burst(struct lsk_worker *w, uint16_t port, uint16_t queue,
		     struct rte_mbuf **pkts, uint16_t n)
{
	struct lsk_capture *cap = w->cap;
	struct lsk_cap_worker_stats *st = &cap->w[w->id];
	const uint16_t refused_at = lsk_capture_tx_dropped_at(port);
	struct rte_mbuf *copies[RTE_DIM(((struct lsk_txbuf *)0)->pkts)];
	uint16_t of[RTE_DIM(copies)];
	uint64_t tsc = rte_rdtsc();
	unsigned int k = 0, j, kept = 0;
	bool full = false;
	uint16_t i, sent;

	/* copied before: once sent, the mbufs are the driver's */
	for (i = 0; i < n && i < RTE_DIM(copies) && !full; i++) {
		struct rte_mbuf *c = cap_copy(cap, st, pkts[i], port,
					      LSK_CAP_DIR_OUT, 0, tsc, &full);

		if (c != NULL) {
			of[k] = i;
			copies[k++] = c;
		}
	}
	sent = w->tx_fn(w->tx_arg, port, queue, pkts, n);
	/* what the port refused is a drop, not a packet that left: named
	 * by its counter with drop, not written without */
	for (j = 0; j < k; j++) {
		struct lsk_cap_meta *meta = rte_mbuf_to_priv(copies[j]);

		if (of[j] >= sent) {
			if (!(cap->what & LSK_CAP_DROP)) {
				rte_pktmbuf_free(copies[j]);
				st->seen--;
				if (cap->count != 0)
					__atomic_fetch_sub(&cap->taken, 1,
							   __ATOMIC_RELAXED);
				continue;
			}
			meta->drop_at = refused_at;
		}
		copies[kept++] = copies[j];
	}
	cap_flush(cap, st, copies, kept);
	return sent;
}

void
lsk_capture_drop_entry(struct lsk_worker *w, struct rte_mbuf *m,
		       uint32_t meta, uint16_t drop_at)
{
	struct rte_mbuf *d;

	lsk_capture_take(w, &m, 1, LSK_CAP_ANY_PORT, LSK_CAP_DIR_IN, drop_at);
	if (!lsk_meta_fraglist(meta))
		return;
	for (d = *lsk_train_next(m); d != NULL; d = *lsk_train_next(d))
		lsk_capture_take(w, &d, 1, LSK_CAP_ANY_PORT, LSK_CAP_DIR_IN,
				 drop_at);
}

void
lsk_capture_drop_any_entry(struct lsk_capture *cap, struct rte_mbuf *m,
			   uint16_t drop_at)
{
	struct lsk_cap_worker_stats st = { 0 };
	bool full = false;
	struct rte_mbuf *c;

	c = cap_copy(cap, &st, m, LSK_CAP_ANY_PORT, LSK_CAP_DIR_IN, drop_at,
		     rte_rdtsc(), &full);
	if (c != NULL && rte_ring_mp_enqueue(cap->ring, c) != 0) {
		st.lost++;
		rte_pktmbuf_free(c);
	}
	/* a worker's eviction and the control thread may both be here */
	__atomic_fetch_add(&cap->ctl.seen, st.seen, __ATOMIC_RELAXED);
	__atomic_fetch_add(&cap->ctl.lost, st.lost, __ATOMIC_RELAXED);
}
