/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Delivery to the endpoints, for udp4_input and udp6_input alike: the
 * datagrams of one burst gathered per endpoint (a slot each, filled
 * while the headers are in the worker's cache), then one bulk ring
 * enqueue per endpoint. A full ring never blocks the worker: what does
 * not fit is dropped under the caller's row (RcvbufErrors). And what
 * no endpoint takes, to the kernel when the interface has a host-if.
 */
#include <string.h>
#include <sys/socket.h>

#include <rte_ring.h>

#include "core/drop.h"
#include "core/worker.h"
#include "udp/udp.h"
#include "host/host.h"

/* Datagrams in pkts[from, to): a coalesced train is one per segment. */
static uint64_t
udp_datagrams(const struct lsk_udp_pending *p, uint32_t from, uint32_t to)
{
	uint64_t n = 0;
	uint32_t i;

	if (likely(!(p->ep->flags & LSK_UDP_GRO)))
		return to - from;
	for (i = from; i < to; i++)
		n += p->slots[i].gso_size ? p->slots[i].mbuf->nb_segs : 1;
	return n;
}

void
lsk_udp_punt(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta)
{
	struct lsk_dgram_iter it;

	for (m = lsk_dgram_first(&it, w, m, meta); m != NULL;
	     m = lsk_dgram_next(&it))
		if (!lsk_host_punt(w, m))
			rte_pktmbuf_free(m);
}

void
lsk_udp_deliver(struct lsk_worker *w, struct lsk_udp_pending *p,
		const struct lsk_drop *full)
{
	unsigned int done;

	done = rte_ring_enqueue_burst_elem(p->ep->ring, p->slots,
					   sizeof(p->slots[0]), p->n, NULL);
	if (likely(p->ep->family != AF_INET6))
		w->stats.udp.InDatagrams += udp_datagrams(p, 0, done);
	else
		w->stats.udp6.InDatagrams += udp_datagrams(p, 0, done);
	if (unlikely(done < p->n)) {
		for (; done < p->n; done++)
			lsk_drop_n(w, p->slots[done].mbuf, 0, full,
				   udp_datagrams(p, done, done + 1));
	}
	p->n = 0;
}

static inline void
udp_fill(const struct lsk_udp_ep *ep, struct lsk_udp_slot *slot,
	 struct rte_mbuf *m)
{
	if (likely(ep->family != AF_INET6))
		lsk_udp_slot_fill(slot, m, ep->flags & LSK_UDP_GRO);
	else
		lsk_udp6_slot_fill(slot, m);
}

void
lsk_udp_pend(struct lsk_worker *w, struct lsk_udp_deliveries *d,
	     struct lsk_udp_ep *ep, struct rte_mbuf *m,
	     const struct lsk_drop *full)
{
	unsigned int i;

	for (i = 0; i < d->n; i++) {
		if (d->ep[i].ep == ep) {
			udp_fill(ep, &d->ep[i].slots[d->ep[i].n++], m);
			return;
		}
	}
	if (d->n == LSK_UDP_PENDING_EPS) {
		/* many endpoints in one burst: make room in arrival order;
		 * the first's datagrams came from one family, hence full */
		lsk_udp_deliver(w, &d->ep[0], full);
		memmove(&d->ep[0], &d->ep[1],
			(LSK_UDP_PENDING_EPS - 1) * sizeof(d->ep[0]));
		d->n--;
	}
	d->ep[d->n].ep = ep;
	d->ep[d->n].n = 0;
	udp_fill(ep, &d->ep[d->n].slots[d->ep[d->n].n++], m);
	d->n++;
}
