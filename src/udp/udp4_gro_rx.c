/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GRO's run pass, before eth_input: datagrams that continue the frame
 * before them back to back are chained behind it, so eth_input and the
 * stages after see the run once (udp/gro.h, lsk_gro_rx_runs). The flow
 * tables (udp4_gro.c, udp6_gro.c) take these trains as they would have
 * made them, and count them.
 */
#include <rte_byteorder.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "core/list.h"
#include "core/rx.h"
#include "core/worker.h"
#include "udp/gro.h"
#include "udp/gro_cmp.h"
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

/* Could m head an IPv6 train: its UDP length when so, else 0. */
static inline uint16_t
gro_rx_head6(const struct rte_mbuf *m)
{
	if (!gro_run_head6_ok(m) ||
	    rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->ether_type !=
	    RTE_BE16(RTE_ETHER_TYPE_IPV6))
		return 0;
	return lsk_udp6_gro_head_ulen(m);
}

/*
 * Chain behind tail the frames from pkts[i] on that continue the run r
 * (at most to end); returns the index after the last. v6: the family's
 * compare (a constant, gro_continues_af).
 */
static __rte_always_inline uint32_t
gro_rx_chain(struct rte_mbuf **pkts, uint32_t i, uint32_t end, uint16_t n,
	     const struct gro_run *r, struct rte_mbuf **tailp, const bool v6)
{
	const int link = lsk_train_next_offset;
	struct rte_mbuf *tail = *tailp;

	while (i < end && gro_continues_af(r, pkts[i], v6)) {
		lsk_rx_prefetch(pkts, (uint16_t)i, n);
		*RTE_MBUF_DYNFIELD(tail, link, struct rte_mbuf **) = pkts[i];
		tail = pkts[i++];
	}
	*tailp = tail;
	return i;
}

uint16_t
lsk_gro_rx_runs(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n)
{
	const uint32_t max_segs = w->set.gro_segs;
	/* not uint16_t: the index is in every member's loop, whose
	 * compares and loads would widen it each time */
	uint32_t i = 0, k = 0;

	/* this pass is the first to read the burst */
	lsk_rx_prefetch_start(pkts, n);
	while (i < n) {
		struct rte_mbuf *head, *tail;
		uint32_t start;
		struct gro_view v;
		struct gro_run r;
		uint16_t ulen;

		lsk_rx_prefetch(pkts, (uint16_t)i, n);
		head = tail = pkts[i++];
		start = i;
		w->udpw->gro.rx_heads[k] = head;
		if (i < n && gro_rx_head_ok(head, &v)) {
			gro_run_init(&r, head, rte_be_to_cpu_16(
					v.uh->dgram_len));
			i = gro_rx_chain(pkts, i, RTE_MIN((uint32_t)n,
				i + gro_room(&r, 1, 28u + r.seg_bytes,
					     max_segs)), n, &r, &tail, false);
		} else if (i < n && (ulen = gro_rx_head6(head)) != 0) {
			/* IPv6 counts 20 bytes more of header than
			 * gro_room's 28: as a train 20 bytes longer */
			gro_run_init_af(&r, head, ulen, true);
			i = gro_rx_chain(pkts, i, RTE_MIN((uint32_t)n,
				i + gro_room(&r, 1, 48u + 20u + r.seg_bytes,
					     max_segs)), n, &r, &tail, true);
		}
		/* counted when udp4_gro (udp6_gro) takes it in */
		if (i != start)
			*lsk_train_next(tail) = NULL;
		w->udpw->gro.rx_members[k++] = (uint8_t)(i - start);
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
