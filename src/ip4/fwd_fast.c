/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd_fast: the common forwarded packet in two passes over the burst,
 * where the stages take four (eth_input, ip4_input, ip4_route,
 * ip4_forward, each reading the mbuf and the frame again and handing the
 * next one a list).
 *
 * The common packet: an IPv4 frame to its port's MAC (the test of
 * l2/eth_fast.h), untagged or tagged with a VLAN of its port (then every
 * frame the pass takes is of that VLAN, and keeps its tag until the
 * second pass rewrites or drops it with the MACs: fast_run_l2), a datagram ip4_input's fast test passes
 * (ip4/ip4_fast.h), that the filter, when there is one, does not drop
 * (ip4_filter.c classifies what the first pass took, between it and the
 * lookup, as the stages have it), routed to a resolved next hop, TTL over
 * 1, not over the MTU. An ECMP route's packets are forwarded one at a
 * time by fast_rest (each to its flow's member, ip4/ecmp.h). The first pass applies the first two tests
 * and gathers the destinations; one bulk FIB lookup (of one destination
 * when the burst goes to one), or the route cache's (ip4/route_cache.c);
 * the second pass forwards, in runs of one next hop, as ip4_forward's
 * fast runs do.
 *
 * The first pass ends at the first frame it cannot decide (an ARP reply
 * after forwarded frames is then still learnt after them): that frame
 * and every one after it go to the stages (worker/worker.c), whose full
 * checks decide them as they always did. In the second, a packet it
 * cannot forward (to us, TTL, MTU, a next hop not resolved) goes to the
 * stages too, as it came (its tag put back), and the others are still
 * forwarded, unless the stages will send that packet now (fragments):
 * then every later one goes with it (fast_rest). Each port sends what it
 * sends in the order it came, as without the fast path, and what goes to
 * the stages keeps the burst's order.
 *
 * Every counter the stages would have counted for these packets is
 * counted here, once per burst: the port's rx, eth InFrames, ip
 * InReceives and ForwDatagrams; a filter's drops as ip4_filter counts
 * them. With the route cache on, the lookup is counted as ip4_route
 * counts it: a packet handed on is uncounted here, since the stages look
 * it up again. The worker runs it only when no trace wants the burst, and
 * with GRO on only when no train can form in it (worker/worker.c).
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
#include "l2/l2.h"
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

/* The 8 bytes from a tagged frame's ethertype on, as loaded, that
 * fast_frame wants: the 802.1Q ethertype, tci, the IPv4 ethertype, the
 * IPv4 header's version and length (0x45; the TOS after it 0: not
 * compared); with ff, the mask it compares them under: every bit of the
 * ethertypes and of 0x45's byte, those of tci. */
static __rte_always_inline uint64_t
fast_tag_word(rte_be16_t tci, uint8_t ff)
{
	const rte_be16_t w[4] = {
		ff ? 0xffff : RTE_BE16(RTE_ETHER_TYPE_VLAN), tci,
		ff ? 0xffff : RTE_BE16(RTE_ETHER_TYPE_IPV4),
		ff ? RTE_BE16(0xff00) : RTE_BE16(0x4500),
	};
	uint64_t v;

	memcpy(&v, w, sizeof(v));
	return v;
}

/* Does m pass the tests of eth_input's and ip4_input's fast paths? Its
 * destination (host order) to *dst. The whole of both headers in the
 * first segment is tested first, once: every test after it reads inside
 * them. Tagged (the burst's first frame was): an 802.1Q frame of the
 * burst's VLAN (vid_word: fast_tag_word of its VID bits as on the wire),
 * carrying IPv4, as eth_input takes it for the VLAN's sub-interface. */
static __rte_always_inline bool
fast_frame(const struct rte_mbuf *m, uint16_t port, uint64_t mac48,
	   uint64_t bloom, uint32_t *dst, const bool tagged, uint64_t vid_word)
{
	const uint32_t l2_len = RTE_ETHER_HDR_LEN + (tagged ? RTE_VLAN_HLEN : 0);
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + l2_len);

	if (unlikely(m->data_len < l2_len + sizeof(*ip)))
		return false;
	if (tagged) {
		uint64_t tag;

		/* the 802.1Q ethertype, the VID, the IPv4 ethertype and
		 * version: one word from the ethertype on (fast_tag_word);
		 * lsk_ip4_fast_hdr_v45 then tests no version of its own */
		memcpy(&tag, p + 2 * RTE_ETHER_ADDR_LEN, sizeof(tag));
		if (unlikely(m->port != port || !lsk_eth_mac48_is(p, mac48) ||
			     (tag & fast_tag_word(RTE_BE16(0x0fff), 0xff)) !=
			     vid_word ||
			     !lsk_ip4_fast_hdr_v45(bloom, m, ip, l2_len)))
			return false;
	} else if (unlikely(!lsk_eth_fast_hdr_v45(m, p, port, mac48) ||
			    !lsk_ip4_fast_hdr_v45(bloom, m, ip,
						  RTE_ETHER_HDR_LEN))) {
		return false;
	}
	*dst = lsk_be32(ip->dst_addr);
	return true;
}

/* d ^ first, first being dst[0]: on x86 xor-ed from memory (the stack),
 * where GCC kept it in a register and reloaded the Bloom filter from the
 * stack each frame instead (callgrind --dump-instr=yes: bench/RESULTS.md,
 * "Where listack's own instructions go") */
static __rte_always_inline uint32_t
fast_xor_first(uint32_t d, const uint32_t *dst, uint32_t first)
{
#if defined(RTE_ARCH_X86)
	RTE_SET_USED(first);
	__asm__("xorl %1, %0" : "+r"(d) : "m"(dst[0]));
	return d;
#else
	RTE_SET_USED(dst);
	return d ^ first;
#endif
}

/* pkts[i, end) by fast_frame while they pass, their destinations to dst
 * and or-ed (xor the first) into *diff; with ahead, each asks for the
 * frame LSK_RX_AHEAD on (which the caller knows is there). Returns where
 * it stopped. */
static __rte_always_inline uint32_t
fast_check_run(struct rte_mbuf **pkts, uint32_t i, uint32_t end,
	       uint16_t port, uint64_t mac48, uint64_t bloom, uint32_t first,
	       uint32_t *dst, uint32_t *diff, const bool ahead,
	       const bool tagged, uint64_t vid_word)
{
	/* one counter, from i - end up to 0, indexing both arrays from
	 * their ends: an add and a branch a frame (three counters and a
	 * compare when pkts, dst and i each had one) */
	struct rte_mbuf **const pe = pkts + end;
	uint32_t *const de = dst + end;
	intptr_t j;

	if (i >= end)
		return i;
	for (j = (intptr_t)i - (intptr_t)end; j != 0; j++) {
		if (unlikely(!fast_frame(pe[j], port, mac48, bloom, &de[j],
					 tagged, vid_word)))
			break;
		*diff |= fast_xor_first(de[j], dst, first);
		if (ahead)
			lsk_rx_prefetch_frame(pe[j + LSK_RX_AHEAD]);
	}
	return (uint32_t)((intptr_t)end + j);
}

/* How many of pkts[0, n), from the first on, pass fast_frame; their
 * destinations to dst, and whether they all equal the first to *one. */
static __rte_always_inline uint32_t
fast_check_as(const struct lsk_fwd_table *t, struct rte_mbuf **pkts,
	      uint16_t n, uint32_t *dst, bool *one, const bool tagged,
	      uint64_t vid_word)
{
	const uint16_t port = pkts[0]->port;
	const uint64_t mac48 = lsk_eth_port_mac48(t, port);
	const uint64_t bloom = t->local_bloom;
	const uint32_t ahead_end = n > LSK_RX_AHEAD ? n - LSK_RX_AHEAD : 0;
	uint32_t i, diff = 0;

	if (unlikely(port >= t->n_ports))	/* no MAC: the stages' */
		return 0;
	lsk_rx_prefetch_start(pkts, n);
	/* the first on its own: the others are compared with its
	 * destination, kept in a register */
	if (unlikely(!fast_frame(pkts[0], port, mac48, bloom, &dst[0], tagged,
				 vid_word)))
		return 0;
	i = fast_check_run(pkts, 1, ahead_end, port, mac48, bloom, dst[0],
			   dst, &diff, true, tagged, vid_word);
	if (i >= ahead_end)
		i = fast_check_run(pkts, RTE_MAX(i, 1u), n, port, mac48, bloom,
				   dst[0], dst, &diff, false, tagged, vid_word);
	*one = diff == 0;
	return i;
}

/* fast_check_as of a tagged burst, out of line: inlined in
 * fast_burst_tagged, which holds the whole burst's work, its loops
 * spilled (bench/callgrind.sh: 1.4 instructions a packet more, the call
 * saved included) */
static __rte_noinline uint32_t
fast_check_tagged(const struct lsk_fwd_table *t, struct rte_mbuf **pkts,
		  uint16_t n, uint32_t *dst, bool *one, rte_be16_t vid)
{
	return fast_check_as(t, pkts, n, dst, one, true,
			     fast_tag_word(vid, 0));
}

/* Does m hold an 802.1Q header? */
static __rte_always_inline bool
fast_first_tagged(const struct rte_mbuf *m)
{
	return m->data_len >= RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN &&
	       rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_VLAN);
}

/* The VID of a burst whose first frame (which fast_first_tagged took) is
 * tagged with a VLAN of its port (as on the wire); 0, none, when it is
 * not (the stages decide it: an unknown VLAN, a priority tag). */
static __rte_always_inline rte_be16_t
fast_burst_vid(const struct lsk_fwd_table *t, const struct rte_mbuf *m)
{
	const rte_be16_t vid = rte_pktmbuf_mtod_offset(m,
		const struct rte_vlan_hdr *, RTE_ETHER_HDR_LEN)->vlan_tci &
		RTE_BE16(0x0fff);

	if (vid == 0 || m->port >= t->n_ports ||
	    lsk_vlan_lookup(t, m->port, lsk_be16(vid)) < 0)
		return 0;
	return vid;
}

/*
 * Entries of pkts from i on, up to end, while each is the next hop's
 * (nh_idx[i] == nh; every one when one) and under its TTL and MTU
 * (lsk_ip4_fast_ttl_dec, and the frame's length): each forwarded, with the next hop's Ethernet header
 * (mac_lo, mac_hi) and put at out. Returns where it stopped. in_tag: the
 * frames still carry the burst's 802.1Q tag (fwd_fast's first pass took
 * them so); out_tag: the next hop is on a VLAN (tci: its TCI as on the
 * wire). Tagged in and out, the tag's TCI is rewritten in place with the
 * MACs; in only, the frame starts RTE_VLAN_HLEN later, where the MACs
 * are written (the old tag's protocol is the ethertype); out only, it
 * starts RTE_VLAN_HLEN earlier (a frame without the headroom stops the
 * run) and the header is written whole, the old ethertype the tag's
 * protocol. Each frame is what eth_input's strip and lsk_vlan_tag's push
 * (core/tx.c) make of it, without their moves of the MACs.
 */
static __rte_always_inline uint32_t
fast_run_l2(struct rte_mbuf *const *pkts, const uint64_t *nh_idx,
	    uint32_t i, uint32_t end, uint64_t nh, uint32_t mtu,
	    uint64_t mac_lo, uint32_t mac_hi, rte_be16_t tci,
	    struct rte_mbuf **out, const bool one, const bool in_tag,
	    const bool out_tag)
{
	const uint32_t l2_in = RTE_ETHER_HDR_LEN + (in_tag ? RTE_VLAN_HLEN : 0);
	/* the MTU's test on the frame's length, in host order in the mbuf:
	 * the first pass saw it equal the total length plus l2_in */
	const uint32_t max_len = mtu + l2_in;
	/* the 4 bytes after the MACs when the frame leaves tagged */
	const uint64_t hi_tag = (uint64_t)mac_hi |
		(uint64_t)RTE_BE16(RTE_ETHER_TYPE_VLAN) << 32 |
		(uint64_t)tci << 48;

	/* one counter from i - end up to 0, as in fast_check_run */
	struct rte_mbuf *const *const pe = pkts + end;
	struct rte_mbuf **const oe = out + (end - i);
	const uint64_t *const ne = nh_idx + end;
	intptr_t j;

	if (i >= end)
		return i;
	for (j = (intptr_t)i - (intptr_t)end; j != 0; j++) {
		struct rte_mbuf *m = pe[j];
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

		if (unlikely((!one && ne[j] != nh) ||
			     (out_tag && !in_tag &&
			      rte_pktmbuf_headroom(m) < RTE_VLAN_HLEN) ||
			     m->pkt_len > max_len ||
			     !lsk_ip4_fast_ttl_dec((struct rte_ipv4_hdr *)
						   (p + l2_in))))
			break;
		if (in_tag && !out_tag) {	/* rte_pktmbuf_adj's */
			m->data_off += RTE_VLAN_HLEN;
			m->data_len -= RTE_VLAN_HLEN;
			m->pkt_len -= RTE_VLAN_HLEN;
			p += RTE_VLAN_HLEN;
		} else if (out_tag && !in_tag) { /* rte_pktmbuf_prepend's */
			m->data_off -= RTE_VLAN_HLEN;
			m->data_len += RTE_VLAN_HLEN;
			m->pkt_len += RTE_VLAN_HLEN;
			p -= RTE_VLAN_HLEN;
		}
		memcpy(p, &mac_lo, sizeof(mac_lo));
		if (out_tag)
			memcpy(p + sizeof(mac_lo), &hi_tag, sizeof(hi_tag));
		else
			memcpy(p + sizeof(mac_lo), &mac_hi, sizeof(mac_hi));
		oe[j] = m;
	}
	return (uint32_t)((intptr_t)end + j);
}

/* fast_run_l2 of untagged frames to a VLAN's next hop, out of line (the
 * untagged runs' loop keeps its registers) */
static __rte_noinline uint32_t
fast_run_vlan(struct rte_mbuf *const *pkts, const uint64_t *nh_idx,
	      uint32_t i, uint32_t end, uint64_t nh, uint32_t mtu,
	      uint64_t mac_lo, uint32_t mac_hi, rte_be16_t tci,
	      struct rte_mbuf **out, bool one)
{
	return fast_run_l2(pkts, nh_idx, i, end, nh, mtu, mac_lo, mac_hi, tci,
			   out, one, false, true);
}

/* The second pass over pkts[0, k) with their next hops (nh_idx[0] for
 * all when one), tagged still with the burst's VLAN when in_tag; returns
 * how many it forwarded. */
static __rte_always_inline uint32_t
fast_forward(struct lsk_worker *w, struct rte_mbuf **pkts, uint32_t k,
	     const uint64_t *nh_idx, const bool one, const bool in_tag)
{
	const struct lsk_nexthop *nexthops = w->fwd->nexthops;
	uint32_t done = 0;

	while (done < k) {
		const uint64_t nhi = nh_idx[one ? 0 : done];
		const struct lsk_nexthop *nh = &nexthops[(uint32_t)nhi];
		struct lsk_txbuf *b;
		uint64_t mac_lo;
		uint32_t mac_hi, end, j;

		uint16_t port = nh->port;

		if (unlikely(nh->type != LSK_NH_FORWARD || !nh->resolved ||
			     port >= w->n_ports)) {
			if (nh->type != LSK_NH_FORWARD || !nh->resolved ||
			    port >= w->fwd->n_ifaces)
				break;
			/* a VLAN: its parent port's buffer, a tagged run */
			port = w->fwd->ifaces[nh->port].parent;
		}
		lsk_ip4_fast_macs(nh, &mac_lo, &mac_hi);
		b = &w->tx[port];
		end = RTE_MIN(k, done + (uint32_t)(RTE_DIM(b->pkts) - b->n));
		if (likely(port == nh->port))
			j = fast_run_l2(pkts, nh_idx, done, end, nhi, nh->mtu,
					mac_lo, mac_hi, 0, &b->pkts[b->n], one,
					in_tag, false);
		else if (in_tag)
			j = fast_run_l2(pkts, nh_idx, done, end, nhi, nh->mtu,
					mac_lo, mac_hi, rte_cpu_to_be_16(
					w->fwd->ifaces[nh->port].vlan),
					&b->pkts[b->n], one, true, true);
		else
			j = fast_run_vlan(pkts, nh_idx, done, end, nhi, nh->mtu,
					  mac_lo, mac_hi, rte_cpu_to_be_16(
					  w->fwd->ifaces[nh->port].vlan),
					  &b->pkts[b->n], one);
		b->n = (uint16_t)(b->n + (j - done));
		done = j;
		if (unlikely(b->n == RTE_DIM(b->pkts))) {
			lsk_tx_flush_port(w, port);
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
 * what leaves a port: when it is too big and may be fragmented (a VLAN's
 * next hop is the fast path's now, fast_rest). Every other packet handed
 * on here is dropped, delivered to us, or held for ARP behind the ones
 * before it to the same next hop, as it would be without the fast path.
 */
static inline bool
fast_rest_sends(const struct lsk_nexthop *nh, const struct rte_ipv4_hdr *ip)
{
	if (nh->type != LSK_NH_FORWARD || !nh->resolved ||
	    ip->time_to_live <= 1)
		return false;
	return lsk_be16(ip->total_length) > nh->mtu &&
	       !(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG));
}

/* m, looked up (the cache answered it as seen[at], with seen), to the
 * stages, whose ip4_route looks it up again: the cache forgets this
 * lookup (lsk_route_cache_unsee), so it counts it once. A tagged frame
 * goes with its tag, as received. */
static inline void
fast_hand_on(struct lsk_worker *w, struct rte_mbuf *m, const uint8_t *seen,
	     uint32_t at, bool tagged, struct rte_mbuf **rest, uint32_t *n_rest)
{
	rest[(*n_rest)++] = m;
	if (unlikely(seen != NULL))
		lsk_route_cache_unsee(w, lsk_be32(rte_pktmbuf_mtod_offset(m,
			const struct rte_ipv4_hdr *,
			RTE_ETHER_HDR_LEN)->dst_addr), seen[at]);
	/* its tag back as it came (fast_untag left its bytes in place) */
	if (unlikely(tagged))
		rte_pktmbuf_prepend(m, RTE_VLAN_HLEN);
}

/* The tags of a tagged burst's pkts[0, k) off: each frame starts
 * RTE_VLAN_HLEN on, where it reads as an untagged one but for the MACs,
 * which the rewrite writes; the bytes stay, for fast_hand_on. For the
 * filter and fast_rest, which read untagged frames. */
static __rte_noinline void
fast_untag(struct rte_mbuf **pkts, uint32_t k)
{
	uint32_t i;

	for (i = 0; i < k; i++)
		rte_pktmbuf_adj(pkts[i], RTE_VLAN_HLEN);
}

/*
 * From the first packet the runs stopped at (pkts[i], which the fast
 * path cannot forward), pkts[i, k) one at a time: what it cannot forward
 * goes to rest, in order, and the others are forwarded, unless the
 * stages will send one of those handed on (fast_rest_sends): then every
 * later one goes to rest too, so that each port sends its datagrams in
 * the order they came, as without the fast path. Returns how many it
 * forwarded; *n_rest counts rest. still_tagged: pkts[i, k) carry the
 * burst's tag yet (tagged: the burst had one).
 */
static uint32_t
fast_rest(struct lsk_worker *w, struct rte_mbuf **pkts, uint32_t i,
	  uint32_t k, const uint64_t *nh_idx, const uint8_t *seen,
	  bool tagged, bool still_tagged, const bool one,
	  struct rte_mbuf **rest, uint32_t *n_rest)
{
	const struct lsk_nexthop *nexthops = w->fwd->nexthops;
	uint32_t forwarded = 0;

	if (still_tagged)	/* the second pass left them tagged */
		fast_untag(&pkts[i], k - i);

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
		/* a VLAN's (a port above the ports) is tagged as queued */
		if (nh->type != LSK_NH_FORWARD || !nh->resolved ||
		    nh->port >= w->fwd->n_ifaces ||
		    !lsk_ip4_fast_rewrite(m, nh->mtu, mac_lo, mac_hi)) {
			fast_hand_on(w, m, seen, one ? 0 : i, tagged, rest,
				     n_rest);
			if (unlikely(fast_rest_sends(nh,
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
		fast_hand_on(w, pkts[i], seen, one ? 0 : i, tagged, rest,
			     n_rest);
	return forwarded;
}

/* lsk_fwd_fast of a burst, tagged (vlan) or not: vid, the VLAN of its
 * first frame (fast_burst_vid), as on the wire */
static __rte_always_inline uint16_t
fast_burst(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	   struct rte_mbuf **rest, const bool vlan, rte_be16_t vid)
{
	const struct lsk_fwd_table *t = w->fwd;
	uint32_t dst[LSK_BURST_MAX];
	uint64_t nh_idx[LSK_BURST_MAX];
	/* with the route cache: how it answered each lookup */
	uint8_t seen_buf[LSK_BURST_MAX], *seen = NULL;
	uint32_t k, m, done, n_rest = 0;
	uint16_t port;
	bool one, tagged;

	if (unlikely(n == 0))
		return 0;
	port = pkts[0]->port;
	k = vlan ? fast_check_tagged(t, pkts, n, dst, &one, vid) :
	    fast_check_as(t, pkts, n, dst, &one, false, 0);
	if (unlikely(k == 0))
		return n;	/* rest untouched: it would be pkts itself */
	/* a full table's entries asked for now, in a loop of their own (a
	 * prefetching copy of the first pass cost every burst, prefetched or
	 * not, 3.6 instructions a packet: fast_check_tagged), while the
	 * untagging and the filter run; not for one destination, whose
	 * entry is read once */
	if (!one && t->fib_tbl24 != 0)
		lsk_fib4_prefetch_bulk(t->fib_tbl24, t->fib_shift, dst, k);
	/* a tagged burst's frames keep their tags into the second pass,
	 * which rewrites the tag or drops it with the MACs; the filter
	 * reads untagged ones */
	tagged = vlan;
	if (unlikely(tagged) && w->filter != NULL) {
		fast_untag(pkts, k);
		tagged = false;
	}
	/* the filter between the checks and the lookup, where the stages
	 * have it: pkts[0, m) what it kept (pkts[k, n) stay as they are) */
	m = k;
	if (w->filter != NULL)
		m = lsk_ip4_filter_fast(w, pkts, dst, k, one);
	if (unlikely(w->ip4w->rcache != NULL))
		seen = seen_buf;
	if (unlikely(m == 0)) {
		done = 0;
	} else if (one) {
		if (unlikely(seen != NULL))
			lsk_route_cache_lookup_same(w, dst[0], nh_idx, m, seen);
		else
			rte_fib_lookup_bulk(t->fib, dst, nh_idx, 1);
		done = likely(!tagged) ?
		       fast_forward(w, pkts, m, nh_idx, true, false) :
		       fast_forward(w, pkts, m, nh_idx, true, true);
		if (unlikely(done < m))
			done += fast_rest(w, pkts, done, m, nh_idx, seen,
					  vlan, tagged, true, rest,
					  &n_rest);
	} else {
		if (unlikely(seen != NULL))
			lsk_route_cache_lookup(w, dst, nh_idx, m, seen);
		else
			rte_fib_lookup_bulk(t->fib, dst, nh_idx, (int)m);
		done = likely(!tagged) ?
		       fast_forward(w, pkts, m, nh_idx, false, false) :
		       fast_forward(w, pkts, m, nh_idx, false, true);
		if (unlikely(done < m))
			done += fast_rest(w, pkts, done, m, nh_idx, seen,
					  vlan, tagged, false, rest,
					  &n_rest);
	}
	/* what the stages' counters would have said of these packets */
	w->stats.ports[port].rx += done + (k - m);
	w->stats.eth.InFrames += done + (k - m);
	w->stats.ip.InReceives += done + (k - m);
	w->stats.ip.ForwDatagrams += done;
	/* checked, looked up, then handed on: more than it took */
	if (unlikely(n_rest > done))
		w->ip4w->fast_skip = FAST_SKIP_BURSTS;
	/* a burst taken whole (the common one) calls no memcpy */
	if (unlikely(k < n))
		memcpy(&rest[n_rest], &pkts[k], (n - k) * sizeof(pkts[0]));
	return (uint16_t)(n_rest + n - k);
}

/* A burst whose first frame is tagged (lsk_fwd_fast saw its 802.1Q
 * ethertype), in a copy of its own: the untagged one keeps its
 * registers, and a tagged burst pays one call, not one for each pass. A
 * VLAN that is not its port's, or a priority tag: all of it the stages',
 * as the untagged pass would have had it. */
static __rte_noinline uint16_t
fast_burst_tagged(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
		  struct rte_mbuf **rest)
{
	const rte_be16_t vid = fast_burst_vid(w->fwd, pkts[0]);

	if (vid == 0)
		return n;
	return fast_burst(w, pkts, n, rest, true, vid);
}

uint16_t
lsk_fwd_fast(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	     struct rte_mbuf **rest)
{
	if (unlikely(w->fwd->n_ifaces != w->fwd->n_ports) && n != 0 &&
	    fast_first_tagged(pkts[0]))
		return fast_burst_tagged(w, pkts, n, rest);
	return fast_burst(w, pkts, n, rest, false, 0);
}
