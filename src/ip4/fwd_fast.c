/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd_fast: the common forwarded packet in two passes over the burst,
 * where the stages take four (eth_input, ip4_input, ip4_route,
 * ip4_forward, each reading the mbuf and the frame again and handing the
 * next one a list).
 *
 * The common packet: an untagged IPv4 frame to its port's MAC (the test
 * of l2/eth_fast.h), a datagram ip4_input's fast test passes
 * (ip4/ip4_fast.h), routed to a resolved next hop that leaves by a port,
 * TTL over 1, not over the MTU. An ECMP route's packets are forwarded
 * one at a time by fast_rest, each to its flow's member (ip4/ecmp.h). The first pass applies the first two
 * tests and gathers the destinations; one bulk FIB lookup (of one
 * destination when the burst goes to one); the second pass forwards, in
 * runs of one next hop, as ip4_forward's fast runs do.
 *
 * The first pass ends at the first frame it cannot decide (an ARP reply
 * after forwarded frames is then still learnt after them): that frame
 * and every one after it go to the stages (worker/worker.c), whose full
 * checks decide them as they always did. In the second, a packet it
 * cannot forward (to us, TTL, MTU, a next hop not resolved) goes to the
 * stages too, and the others are still forwarded, unless the stages will
 * send that packet now (fragments, a VLAN): then every later one goes
 * with it (fast_rest). Each port sends what it sends in the order it
 * came, as without the fast path, and what goes to the stages keeps the
 * burst's order.
 *
 * Every counter the stages would have counted for these packets is
 * counted here, once per burst: the port's rx, eth InFrames, ip
 * InReceives and ForwDatagrams. The worker runs it only when no filter,
 * route cache or trace wants the burst, and with GRO on only when no
 * train can form in it (worker/worker.c).
 *
 * Traffic it checks and then hands on (to us, to unresolved next hops)
 * would pay the first pass twice: when it hands on more of what it
 * checked than it took, it steps aside for FAST_SKIP_BURSTS bursts, then
 * tries again.
 */
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_fib.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/cksum.h"
#include "core/fwd.h"
#include "core/rx.h"
#include "core/stage.h"
#include "core/tx.h"
#include "core/worker.h"
#include "l2/eth_fast.h"
#include "ip4/ecmp.h"
#include "ip4/fib4_prefetch.h"
#include "ip4/ip4.h"
#include "ip4/ip4_fast.h"

/* It forwards what it takes; what it cannot decide on goes on to the
 * stages as received (rx -> eth_input), so it drops nothing. */
LSK_STAGE_DECLARE(lsk_fwd_fast_stage,
	.name = "fwd_fast", .id = LSK_STAGE_FWD_FAST,
	.next = LSK_NEXT("tx"));

/* bursts the pass steps aside for (lsk_fwd_fast_due) */
#define FAST_SKIP_BURSTS 64

/* Does m pass the tests of eth_input's and ip4_input's fast paths? Its
 * destination (host order) to *dst. The whole of both headers in the
 * first segment is tested first, once: every test after it reads inside
 * them. */
static __rte_always_inline bool
fast_frame(const struct rte_mbuf *m, uint16_t port, uint64_t mac48,
	   uint64_t bloom, uint32_t *dst)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip =
		(const struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);

	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip)))
		return false;
	if (unlikely(!lsk_eth_fast_hdr(m, p, port, mac48) ||
		     !lsk_ip4_fast_hdr(bloom, m, ip)))
		return false;
	*dst = lsk_be32(ip->dst_addr);
	return true;
}

/* pkts[i, end) by fast_frame while they pass, their destinations to dst
 * and or-ed (xor the first) into *diff; with ahead, each asks for the
 * frame LSK_RX_AHEAD on (which the caller knows is there); with pf (the
 * FIB's tbl24 at pf_base), for the FIB entry of its destination, which
 * the bulk lookup reads after this pass. Returns where it stopped. */
static __rte_always_inline uint32_t
fast_check_run(struct rte_mbuf **pkts, uint32_t i, uint32_t end,
	       uint16_t port, uint64_t mac48, uint64_t bloom, uint32_t first,
	       uint32_t *dst, uint32_t *diff, const bool ahead, const bool pf,
	       uintptr_t pf_base, uint8_t pf_shift)
{
	for (; i < end; i++) {
		if (unlikely(!fast_frame(pkts[i], port, mac48, bloom, &dst[i])))
			break;
		if (pf)
			lsk_fib4_prefetch(pf_base, pf_shift, dst[i]);
		*diff |= dst[i] ^ first;
		if (ahead)
			lsk_rx_prefetch_frame(pkts[i + LSK_RX_AHEAD]);
	}
	return i;
}

/* How many of pkts[0, n), from the first on, pass fast_frame; their
 * destinations to dst, and whether they all equal the first to *one;
 * with pf, their FIB entries prefetched (fast_check_run). */
static __rte_always_inline uint32_t
fast_check(const struct lsk_fwd_table *t, struct rte_mbuf **pkts, uint16_t n,
	   uint32_t *dst, bool *one, const bool pf)
{
	const uint16_t port = pkts[0]->port;
	const uint64_t mac48 = lsk_eth_port_mac48(t, port);
	const uint64_t bloom = t->local_bloom;
	const uint32_t ahead_end = n > LSK_RX_AHEAD ? n - LSK_RX_AHEAD : 0;
	uint32_t i, diff = 0;

	lsk_rx_prefetch_start(pkts, n);
	/* the first on its own: the others are compared with its
	 * destination, kept in a register */
	if (unlikely(!fast_frame(pkts[0], port, mac48, bloom, &dst[0])))
		return 0;
	if (pf)
		lsk_fib4_prefetch(t->fib_tbl24, t->fib_shift, dst[0]);
	i = fast_check_run(pkts, 1, ahead_end, port, mac48, bloom, dst[0],
			   dst, &diff, true, pf, t->fib_tbl24, t->fib_shift);
	if (i >= ahead_end)
		i = fast_check_run(pkts, RTE_MAX(i, 1u), n, port, mac48, bloom,
				   dst[0], dst, &diff, false, pf, t->fib_tbl24,
				   t->fib_shift);
	*one = diff == 0;
	return i;
}

/*
 * Entries of pkts from i on, up to end, while each is the next hop's
 * (nh_idx[i] == nh; every one when one) and lsk_ip4_fast_rewrite
 * forwards it (under the TTL and the MTU, the next hop's Ethernet header:
 * mac_lo, mac_hi): each put at out. Returns where it stopped.
 */
static __rte_always_inline uint32_t
fast_run(struct rte_mbuf *const *pkts, const uint64_t *nh_idx, uint32_t i,
	 uint32_t end, uint64_t nh, uint32_t mtu, uint64_t mac_lo,
	 uint32_t mac_hi, struct rte_mbuf **out, const bool one)
{
	for (; i < end; i++) {
		if (unlikely((!one && nh_idx[i] != nh) ||
			     !lsk_ip4_fast_rewrite(pkts[i], mtu, mac_lo,
						   mac_hi)))
			break;
		*out++ = pkts[i];
	}
	return i;
}

/* The second pass over pkts[0, k) with their next hops (nh_idx[0] for
 * all when one); returns how many it forwarded. */
static __rte_always_inline uint32_t
fast_forward(struct lsk_worker *w, struct rte_mbuf **pkts, uint32_t k,
	     const uint64_t *nh_idx, const bool one)
{
	const struct lsk_nexthop *nexthops = w->fwd->nexthops;
	uint32_t done = 0;

	while (done < k) {
		const uint64_t nhi = nh_idx[one ? 0 : done];
		const struct lsk_nexthop *nh = &nexthops[(uint32_t)nhi];
		struct lsk_txbuf *b;
		uint64_t mac_lo;
		uint32_t mac_hi, end, j;

		if (unlikely(nh->type != LSK_NH_FORWARD || !nh->resolved ||
			     nh->port >= w->n_ports))
			break;
		lsk_ip4_fast_macs(nh, &mac_lo, &mac_hi);
		b = &w->tx[nh->port];
		end = RTE_MIN(k, done + (uint32_t)(RTE_DIM(b->pkts) - b->n));
		j = fast_run(pkts, nh_idx, done, end, nhi, nh->mtu, mac_lo,
			     mac_hi, &b->pkts[b->n], one);
		b->n = (uint16_t)(b->n + (j - done));
		done = j;
		if (unlikely(b->n == RTE_DIM(b->pkts))) {
			lsk_tx_flush_port(w, nh->port);
			continue;
		}
		/* stopped by a packet of this next hop: the stages' */
		if (j < k && (one || nh_idx[j] == nhi))
			break;
	}
	return done;
}

/*
 * Will the stages send a datagram of this packet, handed on with next
 * hop nh, in this burst? Only then can handing it on change the order of
 * what leaves a port: when its next hop is a VLAN (leaving by its parent
 * port), or when it is too big and may be fragmented. Every other packet
 * handed on here is dropped, delivered to us, or held for ARP behind the
 * ones before it to the same next hop, as it would be without the fast
 * path.
 */
static inline bool
fast_rest_sends(const struct lsk_worker *w, const struct lsk_nexthop *nh,
		const struct rte_ipv4_hdr *ip)
{
	if (nh->type != LSK_NH_FORWARD || !nh->resolved ||
	    ip->time_to_live <= 1)
		return false;
	return nh->port >= w->n_ports ||
	       (lsk_be16(ip->total_length) > nh->mtu &&
		!(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG)));
}

/*
 * From the first packet the runs stopped at (pkts[i], which the fast
 * path cannot forward), pkts[i, k) one at a time: what it cannot forward
 * goes to rest, in order, and the others are forwarded, unless the
 * stages will send one of those handed on (fast_rest_sends): then every
 * later one goes to rest too, so that each port sends its datagrams in
 * the order they came, as without the fast path. Returns how many it
 * forwarded; *n_rest counts rest.
 */
static uint32_t
fast_rest(struct lsk_worker *w, struct rte_mbuf **pkts, uint32_t i,
	  uint32_t k, const uint64_t *nh_idx, const bool one,
	  struct rte_mbuf **rest, uint32_t *n_rest)
{
	const struct lsk_nexthop *nexthops = w->fwd->nexthops;
	uint32_t forwarded = 0;

	for (; i < k; i++) {
		struct rte_mbuf *m = pkts[i];
		const struct lsk_nexthop *nh =
			&nexthops[(uint32_t)nh_idx[one ? 0 : i]];
		uint64_t mac_lo;
		uint32_t mac_hi;

		/* an ECMP route: the member of m's flow (the runs stop at
		 * its group, which is no FORWARD next hop) */
		if (nh->type == LSK_NH_GROUP)
			nh = &nexthops[lsk_ecmp_pick(w->fwd, w->sh->neigh, nh,
						     lsk_ecmp_pkt_hash(m),
						     rte_rdtsc())];

		lsk_ip4_fast_macs(nh, &mac_lo, &mac_hi);
		if (nh->type != LSK_NH_FORWARD || !nh->resolved ||
		    nh->port >= w->n_ports ||
		    !lsk_ip4_fast_rewrite(m, nh->mtu, mac_lo, mac_hi)) {
			rest[(*n_rest)++] = m;
			if (unlikely(fast_rest_sends(w, nh,
				rte_pktmbuf_mtod_offset(m,
					const struct rte_ipv4_hdr *,
					RTE_ETHER_HDR_LEN))))
				break;
			continue;
		}
		lsk_tx_enqueue(w, nh->port, m);
		forwarded++;
	}
	/* after one the stages send: all of them the stages' */
	for (i++; i < k; i++)
		rest[(*n_rest)++] = pkts[i];
	return forwarded;
}

uint16_t
lsk_fwd_fast(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	     struct rte_mbuf **rest)
{
	const struct lsk_fwd_table *t = w->fwd;
	uint32_t dst[LSK_BURST_MAX];
	uint64_t nh_idx[LSK_BURST_MAX];
	uint32_t k, done, n_rest = 0;
	uint16_t port;
	bool one;

	if (unlikely(n == 0))
		return 0;
	port = pkts[0]->port;
	/* the FIB entries prefetched unless the last burst went to one
	 * destination (whose entry is cached) or the table has no tbl24 */
	if (w->ip4w->fast_one || t->fib_tbl24 == 0)
		k = fast_check(t, pkts, n, dst, &one, false);
	else
		k = fast_check(t, pkts, n, dst, &one, true);
	if (unlikely(k == 0))
		return n;	/* rest untouched: it would be pkts itself */
	w->ip4w->fast_one = one;
	if (one) {
		rte_fib_lookup_bulk(t->fib, dst, nh_idx, 1);
		done = fast_forward(w, pkts, k, nh_idx, true);
		if (unlikely(done < k))
			done += fast_rest(w, pkts, done, k, nh_idx, true,
					  rest, &n_rest);
	} else {
		rte_fib_lookup_bulk(t->fib, dst, nh_idx, (int)k);
		done = fast_forward(w, pkts, k, nh_idx, false);
		if (unlikely(done < k))
			done += fast_rest(w, pkts, done, k, nh_idx, false,
					  rest, &n_rest);
	}
	/* what the stages' counters would have said of these packets */
	w->stats.ports[port].rx += done;
	w->stats.eth.InFrames += done;
	w->stats.ip.InReceives += done;
	w->stats.ip.ForwDatagrams += done;
	/* checked, looked up, then handed on: more than it took */
	if (unlikely(n_rest > done))
		w->ip4w->fast_skip = FAST_SKIP_BURSTS;
	memcpy(&rest[n_rest], &pkts[k], (n - k) * sizeof(pkts[0]));
	return (uint16_t)(n_rest + n - k);
}
