/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_forward: Linux's ip_forward for the packets ip4_route sent on: no
 * forwarding of L2 broadcasts, TTL, MTU, then TTL-1 with the incremental
 * checksum and the next hop's Ethernet header, and on to the TX buffer.
 *
 * A train is decided once, by its head (its members share every field
 * looked at here and are no longer than the head), and unchained by gso
 * on its way to TX; but when the head is over the MTU, a shorter last
 * datagram may fit, so each is decided alone.
 *
 * TTL running out is answered with ICMP time exceeded, DF and too big with
 * fragmentation needed (the egress MTU), a next hop with no MAC yet goes
 * to ARP (neigh_table.c).
 *
 * Too big with DF clear: fragmented (ip4_frag.c).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/cksum.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "ip4/ip4_fast.h"
#include "udp/udp.h"

enum fwd_verdict {
	FWD_SEND,
	FWD_DROP_L2_BCAST,	/* InAddrErrors (RFC 1812 5.3.4) */
	FWD_DROP_TTL,		/* InHdrErrors, as Linux counts it */
	FWD_DROP_MTU,		/* FragFails: DF set and too big */
	FWD_FRAGMENT,		/* too big, DF clear: fragments */
	FWD_RESOLVE,		/* no MAC yet: to ARP */
};

static const struct lsk_drop fwd_drops[] = {
	[FWD_DROP_L2_BCAST] = LSK_DROP1(ip.InAddrErrors),
	[FWD_DROP_TTL] = LSK_DROP_ICMP(ip.InHdrErrors,
			LSK_ICMP_TIME_EXCEEDED, LSK_ICMP_EXC_TTL),
	[FWD_DROP_MTU] = LSK_DROP_ICMP(ip.FragFails,
			LSK_ICMP_DEST_UNREACH, LSK_ICMP_FRAG_NEEDED),
};

static lsk_trace_fmt_t forward_trace;

LSK_STAGE_DECLARE(lsk_ip4_forward_stage,
	.name = "ip4_forward", .id = LSK_STAGE_IP4_FORWARD,
	.next = LSK_NEXT("icmp", "tx"),
	.drops = fwd_drops, .n_drops = RTE_DIM(fwd_drops),
	.trace = forward_trace);

/* ip4_forward's record, before the stage: the TTL it will write, or
 * that it expires here. */
static void
forward_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	const struct rte_ipv4_hdr *ip;
	const struct rte_mbuf *d;
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		for (d = l->pkts[i]; d != NULL;
		     d = lsk_trace_entry_next(d, l->meta[i])) {
			if (!lsk_traced(d) || (ip = lsk_trace_ip4(d)) == NULL)
				continue;
			if (ip->time_to_live <= 1)
				lsk_trace_rec(w, d, &lsk_ip4_forward_stage,
					      false, "ttl %u: expires here",
					      ip->time_to_live);
			else
				lsk_trace_rec(w, d, &lsk_ip4_forward_stage,
					      false, "ttl %u -> %u",
					      ip->time_to_live,
					      ip->time_to_live - 1);
		}
	}
}

static inline enum fwd_verdict
fwd_check(const struct lsk_nexthop *nh, const struct rte_mbuf *m,
	  const struct rte_ipv4_hdr *ip, uint32_t meta)
{
	/* a merged train leaves as datagrams of its segment size */
	uint32_t len = likely(!(meta & LSK_META_MERGED)) ?
		       rte_be_to_cpu_16(ip->total_length) : 28u + m->tso_segsz;

	if (unlikely(meta & LSK_META_L2_BCAST))
		return FWD_DROP_L2_BCAST;
	if (unlikely(ip->time_to_live <= 1))
		return FWD_DROP_TTL;
	if (unlikely(len > nh->mtu))
		return ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG) ?
		       FWD_DROP_MTU : FWD_FRAGMENT;
	if (unlikely(!nh->resolved))
		return FWD_RESOLVE;
	return FWD_SEND;
}

/*
 * A train over the egress MTU: its datagrams but the last are the head's
 * length, the last may be shorter and fit (then it is sent whole, neither
 * dropped nor fragmented). Each goes its own way, as per-packet
 * forwarding sends it.
 */
static void
fwd_train_alone(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta)
{
	lsk_train_alone(w, m, meta, lsk_ip4_forward);
}

/* Forwarded, but the next hop's MAC is ARP's to find (or confirm). */
static void
fwd_resolve(struct lsk_worker *w, const struct lsk_nexthop *nh,
	    struct rte_mbuf *m, uint32_t meta)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	uint32_t to = nh->gateway ? nh->gateway
				  : rte_be_to_cpu_32(ip->dst_addr);

	/* the neighbour records what it did with each datagram
	 * (l2/neigh_table.c) */
	w->stats.ip.ForwDatagrams += lsk_meta_count(meta);
	lsk_ip4_decrease_ttl(ip);
	eh->src_addr = nh->src_mac;
	/* a train's members rewritten like the head */
	lsk_gso_output(w, m, meta, nh->port, to);
}

/* Too big for the egress MTU with DF clear: forwarded as fragments (a
 * datagram alone: fwd_train_alone splits trains first). */
static void
fwd_fragment(struct lsk_worker *w, const struct lsk_nexthop *nh,
	     struct rte_mbuf *m)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	uint32_t to = nh->gateway ? nh->gateway
				  : rte_be_to_cpu_32(ip->dst_addr);

	w->stats.ip.ForwDatagrams++;
	lsk_ip4_decrease_ttl(ip);
	if (lsk_trace_on(w))	/* the fragments are packets of their own */
		lsk_ip4_frag_trace(w, m, nh->mtu, &lsk_ip4_forward_stage);
	lsk_ip4_fragment(w, m, nh, to);
}

/* One entry by the full checks (every case); returns the datagrams it
 * sent on to TX here (resolve and fragment count their own). */
static uint32_t
fwd_entry(struct lsk_worker *w, const struct lsk_nexthop *nh,
	  struct rte_mbuf *m, uint32_t meta)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	enum fwd_verdict v = fwd_check(nh, m, ip, meta);

	if (unlikely(v == FWD_RESOLVE)) {
		fwd_resolve(w, nh, m, meta);
		return 0;
	}
	if (unlikely((v == FWD_FRAGMENT || v == FWD_DROP_MTU) &&
		     (meta & LSK_META_COUNT_MASK))) {
		fwd_train_alone(w, m, meta);
		return 0;
	}
	if (unlikely(v == FWD_FRAGMENT)) {
		fwd_fragment(w, nh, m);
		return 0;
	}
	if (unlikely(v != FWD_SEND)) {
		lsk_ip4_drop(w, m, meta, &fwd_drops[v], nh->mtu);
		return 0;
	}
	lsk_ip4_decrease_ttl(ip);
	/* dst and src MAC are adjacent in both headers */
	memcpy(eh, &nh->dst_mac, 2 * RTE_ETHER_ADDR_LEN);
	if (likely(!(meta & LSK_META_COUNT_MASK))) {
		lsk_tx_enqueue(w, nh->port, m);
		return 1;
	}
	/* a train's members carry the head's decisions out */
	lsk_gso_output(w, m, meta, nh->port, 0);
	return lsk_meta_count(meta);
}

/* A run of one next hop, as the fast path keeps it (in registers: the
 * struct never leaves lsk_ip4_forward). */
struct fwd_run {
	uint32_t nh;		/* its index; UINT32_MAX, no meta word: none */
	uint16_t port, mtu;
	struct lsk_txbuf *b;	/* its port's TX buffer */
	uint64_t mac_lo;	/* the Ethernet header's first 12 bytes */
	uint32_t mac_hi;
};

/* The run of nh, the next hop of an entry with meta word meta: none when
 * nh is not the fast path's (unresolved, or a VLAN). */
static __rte_always_inline void
fwd_run_start(struct lsk_worker *w, struct fwd_run *r,
	      const struct lsk_nexthop *nh, uint32_t meta)
{
	if (nh->resolved && nh->port < w->n_ports) {
		r->nh = meta & LSK_META_NH_MASK;
		r->port = nh->port;
		r->mtu = nh->mtu;
		lsk_ip4_fast_macs(nh, &r->mac_lo, &r->mac_hi);
		r->b = &w->tx[r->port];
	} else {
		r->nh = UINT32_MAX;
		r->b = NULL;
	}
}

/*
 * Entries of pkts/meta from i on, up to end, while each is the fast path's
 * of the run of next hop nh (its MTU, and the Ethernet header as mac_lo,
 * mac_hi): meta word nh and nothing else (no broadcast, no train), under
 * the TTL and the MTU. Each is forwarded and put at out (room for end -
 * i); returns where it stopped. A function of its own for long runs: its
 * loop keeps the run in registers and counts nothing.
 */
static __rte_always_inline uint32_t
fwd_run_fast_inline(struct rte_mbuf *const *pkts, const uint32_t *meta,
		    uint32_t i, uint32_t end, uint32_t nh, uint32_t mtu,
		    uint64_t mac_lo, uint32_t mac_hi, struct rte_mbuf **out)
{
	for (; i < end; i++) {
		if (unlikely(meta[i] != nh ||
			     !lsk_ip4_fast_rewrite(pkts[i], mtu, mac_lo,
						   mac_hi)))
			break;
		*out++ = pkts[i];
	}
	return i;
}

static __rte_noinline uint32_t
fwd_run_fast(struct rte_mbuf *const *pkts, const uint32_t *meta, uint32_t i,
	     uint32_t end, uint32_t nh, uint32_t mtu, uint64_t mac_lo,
	     uint32_t mac_hi, struct rte_mbuf **out)
{
	return fwd_run_fast_inline(pkts, meta, i, end, nh, mtu, mac_lo,
				   mac_hi, out);
}

/* A few entries (single mode's one) are not worth fwd_run_fast's call. */
#define FWD_RUN_CALL_MIN 8

/*
 * The list, in runs of one next hop. A run's fast entries (fwd_run_fast)
 * are forwarded with what the run keeps: the MTU, the Ethernet header,
 * the TX buffer; a full buffer is sent at once. A run is the fast path's
 * only when its next hop is resolved and leaves by a port (not a VLAN):
 * every check of fwd_check holds then. Every other entry takes
 * fwd_entry; it also starts the run of its next hop, as the first
 * entry's starts the first. ForwDatagrams: each fast entry is one, the
 * others count what fwd_entry says.
 */
void
lsk_ip4_forward(struct lsk_worker *w, struct lsk_list *l)
{
	const struct lsk_nexthop *nexthops = w->fwd->nexthops;
	const uint32_t n = l->n;
	uint64_t forwarded = 0;
	struct fwd_run r = { .nh = UINT32_MAX };
	uint32_t i = 0;

	if (n != 0)
		fwd_run_start(w, &r, &nexthops[l->meta[0] & LSK_META_NH_MASK],
			      l->meta[0]);
	while (i < n) {
		const struct lsk_nexthop *nh;
		uint32_t meta;

		if (r.b != NULL) {
			struct lsk_txbuf *b = r.b;
			const uint32_t room = RTE_DIM(b->pkts) - b->n;
			const uint32_t end = RTE_MIN(n, i + room);
			/* the run by value: it stays in registers here */
			uint32_t j = end - i >= FWD_RUN_CALL_MIN ?
				fwd_run_fast(l->pkts, l->meta, i, end, r.nh,
					     r.mtu, r.mac_lo, r.mac_hi,
					     &b->pkts[b->n]) :
				fwd_run_fast_inline(l->pkts, l->meta, i, end,
						    r.nh, r.mtu, r.mac_lo,
						    r.mac_hi, &b->pkts[b->n]);

			b->n = (uint16_t)(b->n + (j - i));
			forwarded += j - i;
			i = j;
			if (unlikely(b->n == RTE_DIM(b->pkts))) {
				lsk_tx_flush_port(w, r.port);
				continue;
			}
			if (i == n)
				break;
		}
		meta = l->meta[i];
		nh = &nexthops[meta & LSK_META_NH_MASK];
		forwarded += fwd_entry(w, nh, l->pkts[i], meta);
		fwd_run_start(w, &r, nh, meta);
		i++;
	}
	w->stats.ip.ForwDatagrams += forwarded;
	l->n = 0;
}
