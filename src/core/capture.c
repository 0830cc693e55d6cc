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
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint16_t p = port == LSK_CAP_ANY_PORT ? m->port : port;
		struct lsk_cap_meta *meta;
		struct rte_mbuf *c;

		if (cap->port != LSK_CAP_ANY_PORT && cap->port != p)
			continue;
		if (!cap_reserve(cap))
			break;
		st->seen++;
		c = rte_pktmbuf_copy(m, cap->pool, 0, cap->snaplen);
		if (unlikely(c == NULL)) {
			st->lost++;
			continue;
		}
		meta = rte_mbuf_to_priv(c);
		meta->tsc = tsc;
		meta->orig_len = m->pkt_len;
		meta->port = p;
		meta->dir = (uint8_t)dir;
		meta->pad = 0;
		meta->drop_at = drop_at;
		copies[k++] = c;
		if (k == CAP_BATCH) {
			cap_flush(cap, st, copies, k);
			k = 0;
		}
	}
	cap_flush(cap, st, copies, k);
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
