/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TX buffering: queue one packet for a port (or a VLAN on one); flush
 * sends what a port holds.
 */
#ifndef LSK_CORE_TX_H
#define LSK_CORE_TX_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

#include "core/worker.h"
/* the number of ports, read from the stack (control/control.h) */
#include "control/control.h"

/* Send what port's buffer holds (core/worker.c). */
void lsk_tx_flush_port(struct lsk_worker *w, uint16_t port);
/* Tag m for its VLAN sub-interface; returns the port it leaves by, or
 * UINT16_MAX when m had to be dropped (l2/vlan.c). */
uint16_t lsk_vlan_tag(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m);

/* Queue m to leave by iface (a port, or a VLAN on one). */
static inline void
lsk_tx_enqueue(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m)
{
	uint16_t port = likely(iface < w->stack->n_ports) ? iface :
			lsk_vlan_tag(w, iface, m);
	struct lsk_txbuf *b;

	if (unlikely(port == UINT16_MAX))
		return;		/* no room for the tag: counted, freed */
	b = &w->tx[port];

	b->pkts[b->n++] = m;
	if (unlikely(b->n == RTE_DIM(b->pkts)))
		lsk_tx_flush_port(w, port);
}

#endif /* LSK_CORE_TX_H */
