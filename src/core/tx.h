/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TX buffering, the only way a stage sends: queue one packet for a port
 * (or a VLAN on one), queue a train's datagrams as they are unchained,
 * flush what a port holds. Stages never touch struct lsk_txbuf
 * themselves (core/tx.c sends).
 */
#ifndef LSK_CORE_TX_H
#define LSK_CORE_TX_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

#include "core/worker.h"

/* Send what port's buffer holds; what the port refuses is freed and
 * counted in ports[port].tx_dropped (core/tx.c).
 * Ownership: takes the buffered mbufs. */
struct lsk_stage_desc;
extern const struct lsk_stage_desc lsk_tx_stage;	/* core/stage.h */

void lsk_tx_flush_port(struct lsk_worker *w, uint16_t port);
/* Tag m for its VLAN sub-interface; returns the port it leaves by, or
 * UINT16_MAX when m had to be dropped, counted in the parent's
 * ports[].tx_dropped (core/tx.c).
 * Ownership: takes m when it returns UINT16_MAX, else m stays the caller's. */
uint16_t lsk_vlan_tag(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m);

/* Queue m to leave by iface (a port, or a VLAN on one). A VLAN tag that
 * finds no headroom drops m, counted in the parent port's
 * ports[].tx_dropped; a full buffer is flushed.
 * Ownership: takes m. */
static inline void
lsk_tx_enqueue(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m)
{
	uint16_t port = likely(iface < w->n_ports) ? iface :
			lsk_vlan_tag(w, iface, m);
	struct lsk_txbuf *b;

	if (unlikely(port == UINT16_MAX))
		return;		/* no room for the tag: tx_dropped, freed */
	b = &w->tx[port];

	b->pkts[b->n++] = m;
	if (unlikely(b->n == RTE_DIM(b->pkts)))
		lsk_tx_flush_port(w, port);
}

/*
 * A train's datagrams queued on one port (not a VLAN) as the caller
 * unchains them: the buffer's count stays in the cursor, a register,
 * where the caller's header stores could otherwise alias it.
 */
struct lsk_tx_train {
	struct lsk_txbuf *b;
	uint16_t n;
};

static inline struct lsk_tx_train
lsk_tx_train_begin(struct lsk_worker *w, uint16_t port)
{
	struct lsk_tx_train c = { .b = &w->tx[port], .n = w->tx[port].n };

	return c;
}

/* Queue m, one unchained datagram of the train; a full buffer is flushed.
 * Ownership: takes m. */
static inline void
lsk_tx_train_add(struct lsk_worker *w, uint16_t port, struct lsk_tx_train *c,
		 struct rte_mbuf *m)
{
	c->b->pkts[c->n++] = m;
	if (unlikely(c->n == RTE_DIM(c->b->pkts))) {
		c->b->n = c->n;
		lsk_tx_flush_port(w, port);
		c->n = c->b->n;
	}
}

static inline void
lsk_tx_train_end(struct lsk_tx_train *c)
{
	c->b->n = c->n;
}

#endif /* LSK_CORE_TX_H */
