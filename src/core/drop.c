/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one drop path (core/drop.h): count, capture, trace, free. Out of
 * line: a drop is never the common case, and one copy of the sequence
 * keeps every stage's drops alike (a capture's comment and a trace's
 * last record name the same counter the drop bumped).
 */
#include "core/drop.h"
#include "core/capture.h"
#include "core/list.h"
#include "core/trace.h"

void
lsk_drop_note(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	      const struct lsk_drop *r, uint32_t n)
{
	lsk_drop_count(w, r, n);
	/* a drop counted nowhere (an ICMP error with no route back, as
	 * Linux counts none) is traced, not captured */
	if (r->counter[0] != 0)
		lsk_capture_drop(w, m, meta, r->counter[0]);
}

void
lsk_drop_done(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	      const struct lsk_drop *r)
{
	lsk_trace_drop(w, m, meta, r->counter[0]);
	lsk_entry_free(m, meta);
}

void
lsk_drop_n(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	   const struct lsk_drop *r, uint32_t n)
{
	lsk_drop_note(w, m, meta, r, n);
	lsk_drop_done(w, m, meta, r);
}
