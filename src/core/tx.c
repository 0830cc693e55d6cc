/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TX: send what a port's buffer holds (core/tx.h queues).
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/stage.h"
#include "core/worker.h"
#include "core/tx.h"
#include "core/capture.h"
#include "core/trace.h"

/* The ports' TX buffers and the tx function: port N's tx_dropped is its
 * drop (what the port refused, or all it was given while admin down,
 * core/tx.c), a per-port counter. */
LSK_STAGE_DECLARE(lsk_tx_stage,
	.name = "tx", .id = LSK_STAGE_TX);

/* What an observer sees, or a port admin down: the trace's records
 * around the tx function, the capture's copies of what is sent or
 * refused. */
static __rte_noinline void
tx_flush_observed(struct lsk_worker *w, uint16_t port)
{
	struct lsk_txbuf *b = &w->tx[port];
	struct lsk_port_stats *ps = &w->stats.ports[port];
	uint16_t sent;

	if (lsk_trace_on(w))	/* before: sent, they are the driver's */
		lsk_trace_tx(w, port, b->queue, b->pkts, b->n);
	if (unlikely((w->ports_down >> port) & 1))
		sent = 0;	/* admin down: refused, as a full device */
	else if (lsk_capture_tx_on(w))	/* copies, then the tx function */
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

/* What the port refused, no observer: counted, freed. */
static __rte_noinline void
tx_refused(struct lsk_worker *w, uint16_t port, uint16_t sent)
{
	struct lsk_txbuf *b = &w->tx[port];

	w->stats.ports[port].tx_dropped += b->n - sent;
	rte_pktmbuf_free_bulk(&b->pkts[sent], b->n - sent);
	b->n = 0;
}

/* Every burst's case first, in few registers: no capture, no trace
 * recording, the port up (one test of the observe word and the down
 * bits), the port takes all. */
void
lsk_tx_flush_port(struct lsk_worker *w, uint16_t port)
{
	struct lsk_txbuf *b = &w->tx[port];
	uint16_t sent;

	if (unlikely((w->obs & (LSK_OBS_CAPTURE | LSK_OBS_TRACE)) |
		     ((w->ports_down >> port) & 1))) {
		tx_flush_observed(w, port);
		return;
	}
	sent = w->tx_fn(w->tx_arg, port, b->queue, b->pkts, b->n);
	w->stats.ports[port].tx += sent;
	if (unlikely(sent != b->n)) {
		tx_refused(w, port, sent);
		return;
	}
	b->n = 0;
}

/* A VLAN sub-interface's tag goes on as the frame is queued: a plain
 * header push, so TX needs nothing of l2. */
uint16_t
lsk_vlan_tag(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m)
{
	const struct lsk_port_conf *pc = &w->fwd->ifaces[iface];
	struct rte_ether_hdr *eh;
	struct rte_vlan_hdr *vh;

	eh = (struct rte_ether_hdr *)rte_pktmbuf_prepend(m, RTE_VLAN_HLEN);
	if (unlikely(eh == NULL)) {
		w->stats.ports[pc->parent].tx_dropped++;
		rte_pktmbuf_free(m);
		return UINT16_MAX;
	}
	memmove(eh, (uint8_t *)eh + RTE_VLAN_HLEN, 2 * RTE_ETHER_ADDR_LEN);
	/* the old ethertype is already where the tag's protocol goes */
	vh = (struct rte_vlan_hdr *)(eh + 1);
	vh->vlan_tci = rte_cpu_to_be_16(pc->vlan);
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
	return pc->parent;
}
