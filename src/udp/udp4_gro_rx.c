/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp4_gro's run pass, before eth_input: datagrams that continue the
 * frame before them back to back are chained behind it, so eth_input and
 * the stages after see the run once (udp/gro.h, lsk_gro_rx_runs). The
 * flow table (udp4_gro.c) takes these trains as it would have made them,
 * and counts them.
 */
#include <rte_byteorder.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "core/list.h"
#include "core/rx.h"
#include "core/worker.h"
#include "udp/gro.h"
#include "udp/gro_run.h"
#include "udp/udp.h"

/* Could m head a train, judged on the raw frame (before eth_input)? */
static inline bool
gro_rx_head_ok(struct rte_mbuf *m, struct gro_view *v)
{
	if (!gro_run_head_ok(m))
		return false;
	gro_view(m, v);
	return v->eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4) &&
	       gro_shape_ok(m, v);
}

uint16_t
lsk_gro_rx_runs(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n)
{
	const int link = lsk_train_next_offset;
	const uint32_t max_segs = w->set.gro_segs;
	/* not uint16_t: the index is in every member's loop, whose
	 * compares and loads would widen it each time */
	uint32_t i = 0, k = 0;

	/* this pass is the first to read the burst */
	lsk_rx_prefetch_start(pkts, n);
	while (i < n) {
		struct rte_mbuf *head, *tail;
		uint32_t count = 1;
		struct gro_view v;
		struct gro_run r;

		lsk_rx_prefetch(pkts, (uint16_t)i, n);
		head = tail = pkts[i++];
		w->udpw->gro.rx_heads[k] = head;
		if (i < n && gro_rx_head_ok(head, &v)) {
			uint32_t end;

			gro_run_init(&r, head, rte_be_to_cpu_16(
					v.uh->dgram_len));
			end = RTE_MIN((uint32_t)n, i + gro_room(&r, 1,
					28u + r.seg_bytes, max_segs));
			while (i < end && gro_continues(&r, pkts[i])) {
				lsk_rx_prefetch(pkts, (uint16_t)i, n);
				*RTE_MBUF_DYNFIELD(tail, link,
						   struct rte_mbuf **) = pkts[i];
				tail = pkts[i++];
				count++;
			}
		}
		/* counted when udp4_gro takes it in (gro_train_in) */
		if (count > 1)
			*lsk_train_next(tail) = NULL;
		w->udpw->gro.rx_members[k++] = (uint8_t)(count - 1);
	}
	w->udpw->gro.no_runs = k == n;
	return (uint16_t)k;
}

bool
lsk_gro_burst_repeats(struct lsk_gro_table *t, struct rte_mbuf *const *pkts,
		      uint16_t n)
{
	uint32_t list = lsk_gro_note_start(t);
	uint16_t i;

	for (i = 0; i < n && !t->repeat; i++)
		lsk_gro_note(t, pkts[i], 0, list);
	return t->repeat;
}
