/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp4_gro's trace formatter (its declaration in udp4_gro.c names it), in
 * a file of its own to keep udp4_gro.c within bounds: after the stage,
 * each datagram's train and place, or why it stayed alone, as GRO's own
 * shape test (gro_run.h) says.
 */
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/worker.h"
#include "udp/gro.h"
#include "udp/gro_run.h"

/* Why a datagram stayed alone: GRO's own shape test says (gro_run.h). */
static const char *
gro_alone_why(const struct rte_mbuf *m)
{
	static const char *const why[] = {
		[GRO_SHAPE_OK] = "no datagram of its flow beside it",
		[GRO_SHAPE_NOT_UDP] = "not UDP",
		[GRO_SHAPE_FRAGMENT] = "a fragment",
		[GRO_SHAPE_OPTIONS] = "IP options",
		[GRO_SHAPE_LENGTHS] = "not one whole datagram with a checksum",
	};
	struct gro_view v;

	gro_view((struct rte_mbuf *)(uintptr_t)m, &v);
	return why[gro_shape(m, &v)];
}

/* udp4_gro's record, after the stage: each datagram's train and place
 * (every member its own record), or why it stayed alone. */
void
lsk_gro_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		uint32_t meta = l->meta[i], k = lsk_meta_count(meta), j = 0;
		const bool merged = (meta & LSK_META_MERGED) != 0;
		const struct rte_mbuf *d;

		if (k == 1) {
			if (lsk_traced(l->pkts[i]))
				lsk_trace_rec(w, l->pkts[i], &lsk_udp4_gro_stage,
					      false, "alone: %s",
					      gro_alone_why(l->pkts[i]));
			continue;
		}
		for (d = l->pkts[i]; d != NULL; d = lsk_trace_entry_next(d, meta), j++) {
			if (!lsk_traced(d))
				continue;
			/* a merged member's payload is in the head now: its
			 * own trace ends here */
			lsk_trace_rec(w, d, &lsk_udp4_gro_stage, merged && j != 0,
				      "train of %u, position %u%s", k, j + 1,
				      merged ? (j != 0 ? ": merged into the "
					       "head" : " (merged)") : "");
		}
	}
}
