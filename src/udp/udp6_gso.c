/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp6_gso: a train of UDP over IPv6 (udp6_gro.c) on its way out, cut
 * back into its datagrams as they came. Its members joined only with the
 * head's IPv6 header but for the payload length, and IPv6 has no header
 * checksum, so each member gets the head's first eight header bytes but
 * for its own payload length (the hop limit ip6_forward lowered) and the
 * wire carries byte for byte what per-packet forwarding would have sent.
 * ND is asked once per train, for the head (lsk_nd6_resolve_mac): sent,
 * every member takes the head's MACs and follows it out (out of a port,
 * the trace off: in one walk, gso6_send_port); held or dropped, each
 * member goes through ND in order behind it, so one held keeps its
 * place. Also lsk_train_alone, a train's
 * datagrams each through a stage on its own (both families' forward).
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/tx.h"
#include "core/worker.h"
#include "l2/l2.h"
#include "l2/neigh.h"
#include "ip6/nd6.h"
#include "udp/udp.h"

void
lsk_train_alone(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		void (*stage)(struct lsk_worker *w, struct lsk_list *l))
{
	const uint32_t alone = meta & ~(LSK_META_COUNT_MASK | LSK_META_MERGED);
	struct lsk_dgram_iter it;
	struct lsk_list one;

	for (m = lsk_dgram_first(&it, w, m, meta); m != NULL;
	     m = lsk_dgram_next(&it)) {
		one.n = 0;
		lsk_list_push(&one, m, alone);
		stage(w, &one);
	}
}

/* A member sent on its head's lookup: its neighbour record, as the
 * head's says what ND did. */
static void
gso6_trace_member(struct lsk_worker *w, const struct rte_mbuf *d,
		  const struct lsk_ip6_addr *to,
		  const struct rte_ether_addr *mac)
{
	char a[LSK_TRACE_ADDR6_LEN], b[RTE_ETHER_ADDR_FMT_SIZE];

	lsk_trace_addr6(to->a, a, sizeof(a));
	rte_ether_format_addr(b, sizeof(b), mac);
	lsk_trace_rec(w, d, &lsk_neigh_node, false,
		      "%s at %s: sent with its train's head", a, b);
}

/*
 * The common case, a train sent out of a port, the trace off: its
 * members (from d on) unchained and queued in one walk, as IPv4's
 * gso_send_port (gso.c): each takes the head's MACs (mac, the port's),
 * first header word and hop limit, the TX buffer's count in a register
 * (core/tx.h's train cursor). Returns how many.
 */
static uint64_t
gso6_send_port(struct lsk_worker *w, struct rte_mbuf *d, uint16_t port,
	       const struct rte_ether_addr *mac, uint32_t vtc_flow,
	       uint8_t hlim)
{
	/* the link's offset in a register: the header stores below could
	 * alias the global as far as the compiler knows */
	const int link = lsk_train_next_offset;
	struct rte_ether_hdr eh = { .dst_addr = *mac,
				    .src_addr = w->fwd->ifaces[port].mac };
	struct lsk_tx_train tx = lsk_tx_train_begin(w, port);
	struct rte_mbuf *next;
	uint64_t macs_lo, n = 0;
	uint32_t macs_hi;

	memcpy(&macs_lo, &eh, 8);
	memcpy(&macs_hi, (const uint8_t *)&eh + 8, 4);
	for (; d != NULL; d = next) {
		uint8_t *p = rte_pktmbuf_mtod(d, uint8_t *);
		struct rte_ipv6_hdr *ip = (void *)(p + RTE_ETHER_HDR_LEN);

		next = *RTE_MBUF_DYNFIELD(d, link, struct rte_mbuf **);
		memcpy(p, &macs_lo, 8);
		memcpy(p + 8, &macs_hi, 4);
		ip->vtc_flow = vtc_flow;
		ip->hop_limits = hlim;
		lsk_tx_train_add(w, port, &tx, d);
		n++;
	}
	lsk_tx_train_end(&tx);
	return n;
}

void
lsk_gso6_output(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		const struct lsk_ip6_addr *to, uint16_t iface)
{
	const struct rte_ipv6_hdr *hip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	struct lsk_ip6_addr next_hop = *to;	/* may sit in the head */
	struct rte_ether_addr mac;
	struct rte_mbuf *d, *next;
	bool sent;
	uint32_t vtc_flow = hip->vtc_flow;
	uint8_t hlim = hip->hop_limits;
	uint64_t n = 1;

	if (!lsk_meta_fraglist(meta)) {
		lsk_nd6_resolve(w, &next_hop, iface, m);
		return;
	}
	/* each member: its segment of the train, as IPv4's (gso.c) */
	LSK_STAGE_TRACE(w, &lsk_gso_node, NULL, m);
	d = *lsk_train_next(m);
	*lsk_train_next(m) = NULL;
	sent = lsk_nd6_resolve_mac(w, &next_hop, iface, m, &mac);
	if (likely(sent && iface < w->n_ports && !lsk_trace_on(w))) {
		w->stats.gso.Segments += n + gso6_send_port(w, d, iface, &mac,
							    vtc_flow, hlim);
		return;
	}
	for (; d != NULL; d = next) {
		struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(d,
			struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);

		next = *lsk_train_next(d);
		*lsk_train_next(d) = NULL;
		ip->vtc_flow = vtc_flow;
		ip->hop_limits = hlim;
		if (sent) {
			if (lsk_trace_on(w) && lsk_traced(d))
				gso6_trace_member(w, d, &next_hop, &mac);
			lsk_neigh_output(w, iface, &mac, d);
		} else {
			lsk_nd6_resolve(w, &next_hop, iface, d);
		}
		n++;
	}
	w->stats.gso.Segments += n;
}
