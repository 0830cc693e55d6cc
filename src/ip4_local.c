/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_local: datagrams addressed to us (our addresses on any port, subnet
 * and limited broadcasts).
 *
 * Known gaps: no protocol handlers yet, so every datagram is counted
 * InDelivers and freed; UDP delivery and ICMP come next.
 */
#include <rte_mbuf.h>

#include "lsk_priv.h"

void
lsk_ip4_local(struct lsk_worker *w, struct lsk_list *l)
{
	w->stats.ip.InDelivers += l->n;
	rte_pktmbuf_free_bulk(l->pkts, l->n);
	l->n = 0;
}
