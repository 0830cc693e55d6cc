/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TX: send what a port's buffer holds (core/tx.h queues).
 */
#include <rte_mbuf.h>

#include "core/stage.h"
#include "core/worker.h"
#include "core/tx.h"
#include "core/capture.h"
#include "core/trace.h"

/* The ports' TX buffers and the tx function: port N's tx_dropped is its
 * drop (what the port refused, core/tx.c), a per-port counter. */
LSK_STAGE_DECLARE(lsk_tx_stage,
	.name = "tx", .id = LSK_STAGE_TX);

void
lsk_tx_flush_port(struct lsk_worker *w, uint16_t port)
{
	struct lsk_txbuf *b = &w->tx[port];
	struct lsk_port_stats *ps = &w->stats.ports[port];
	uint16_t sent;

	if (lsk_trace_on(w))	/* before: sent, they are the driver's */
		lsk_trace_tx(w, port, b->queue, b->pkts, b->n);
	if (lsk_capture_tx_on(w))	/* copies, then the tx function */
		sent = lsk_capture_tx_burst(w, port, b->queue, b->pkts, b->n);
	else
		sent = w->tx_fn(w->tx_arg, port, b->queue, b->pkts, b->n);
	ps->tx += sent;
	if (unlikely(sent < b->n)) {
		ps->tx_dropped += b->n - sent;
		lsk_capture_refused(w, port, &b->pkts[sent], b->n - sent);
		if (lsk_trace_on(w))
			lsk_trace_tx_refused(w, port, &b->pkts[sent],
					     b->n - sent);
		rte_pktmbuf_free_bulk(&b->pkts[sent], b->n - sent);
	}
	if (lsk_trace_on(w))	/* the rest: sent, ended by slot */
		lsk_trace_kept_end(w);
	b->n = 0;
}
