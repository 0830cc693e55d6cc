/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd6_fast: the common forwarded IPv6 packet in two passes over the
 * burst, as IPv4's (ip4/fwd_fast.c, whose header says why), where the
 * stages take four (eth_input, ip6_input, ip6_route, ip6_forward).
 *
 * The common packet: an untagged IPv6 frame to its port's MAC (l2/
 * eth_fast.h), a datagram whose header ip6_input's, ip6_route's and
 * ip6_forward's tests pass at once (ip6/ip6_fast.h: no extension header,
 * global addresses, the length the frame's), routed by the FIB to a
 * FORWARD next hop out of a port (not a VLAN, not an ECMP group: those
 * are the stages'), the neighbour reachable (or static) in ND's table,
 * hop limit over 1, not over the MTU. The first pass applies the header
 * tests and gathers the destinations, one bulk FIB lookup (of one
 * destination when the burst goes to one), the second forwards, looking
 * the neighbour up once per run of one next hop (one destination, for an
 * onlink one).
 *
 * The first pass ends at the first frame it cannot decide (an IPv4 one
 * too: a burst goes through one family's fast path, from its first
 * frame, worker/worker.c): that frame and every one after it go to the
 * stages. In the second, a packet it cannot forward goes to the stages,
 * and the others are still forwarded, unless the stages will send that
 * one now (a VLAN or an ECMP next hop, a neighbour known but stale):
 * then every later one goes with it, so that each port sends what it
 * sends in the order it came. What is handed on otherwise (to us, no
 * route, hop limit, too big, a neighbour not resolved) is dropped,
 * answered by ICMPv6 after the burst, delivered, or held by ND behind
 * what went before it, as without the fast path.
 *
 * Counted once per burst, as the stages would have: the port's rx, eth
 * InFrames, ip6 InReceives and OutForwDatagrams. It runs when IPv4's may
 * (no trace or train; worker/worker.c; IPv6 has no filter or route
 * cache to ask), and steps
 * aside FAST6_SKIP_BURSTS bursts when it hands on more than it takes.
 */
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_fib6.h>
#include <rte_hash.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/fwd6.h"
#include "core/rx.h"
#include "core/stage.h"
#include "core/tx.h"
#include "core/worker.h"
#include "l2/eth_fast.h"
#include "l2/neigh.h"
#include "ip6/ip6.h"
#include "ip6/ip6_fast.h"
#include "ip6/nd6_priv.h"

/* As fwd_fast's: it drops nothing (what it cannot forward goes on to
 * the stages as received). */
LSK_STAGE_DECLARE(lsk_fwd6_fast_stage,
	.name = "fwd6_fast", .id = LSK_STAGE_FWD6_FAST,
	.next = LSK_NEXT("tx"));

/* bursts the pass steps aside for (lsk_fwd6_fast_due) */
#define FAST6_SKIP_BURSTS 64

/* What ND's table says of a neighbour, for the fast path. */
enum fast6_neigh {
	FAST6_NEIGH_MAC,	/* reachable or static: its MAC */
	FAST6_NEIGH_SENDS,	/* known but stale: the stages send, and
				 * probe */
	FAST6_NEIGH_HOLDS,	/* unknown, incomplete, failed: the stages
				 * hold (or drop) */
};

/* Does m pass the frame's and the header's tests? Its destination to
 * dst. */
static __rte_always_inline bool
fast6_frame(const struct rte_mbuf *m, uint16_t port, uint64_t mac48,
	    uint8_t *dst)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv6_hdr *ip =
		(const struct rte_ipv6_hdr *)(p + RTE_ETHER_HDR_LEN);

	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip)))
		return false;
	if (unlikely(!lsk_eth_fast6_hdr(m, p, port, mac48) ||
		     !lsk_ip6_fast_hdr(m, ip)))
		return false;
	memcpy(dst, ip->dst_addr, RTE_FIB6_IPV6_ADDR_SIZE);
	return true;
}

/* How many of pkts[0, n), from the first on, pass fast6_frame; their
 * destinations to dst, and whether they all equal the first to *one. */
static __rte_always_inline uint32_t
fast6_check(const struct lsk_fwd_table *t, struct rte_mbuf **pkts,
	    uint16_t n, uint8_t (*dst)[RTE_FIB6_IPV6_ADDR_SIZE], bool *one)
{
	const uint16_t port = pkts[0]->port;
	const uint64_t mac48 = lsk_eth_port_mac48(t, port);
	uint64_t first[2] = { 0, 0 }, diff = 0;
	uint32_t i;

	lsk_rx_prefetch_start(pkts, n);
	for (i = 0; i < n; i++) {
		uint64_t q[2];

		if (unlikely(!fast6_frame(pkts[i], port, mac48, dst[i])))
			break;
		if (i + LSK_RX_AHEAD < n)
			lsk_rx_prefetch_frame(pkts[i + LSK_RX_AHEAD]);
		memcpy(q, dst[i], sizeof(q));
		if (i == 0) {
			first[0] = q[0];
			first[1] = q[1];
		}
		diff |= (q[0] ^ first[0]) | (q[1] ^ first[1]);
	}
	*one = diff == 0;
	return i;
}

/* The neighbour addr on iface in ND's table, read as lsk_nd6_resolve
 * reads it (nd6_table.c: the word, its generation unchanged): its MAC
 * to *mac when it is reachable (confirmed within NEIGH_REACHABLE_S:
 * else the stages make it stale) or static. */
static enum fast6_neigh
fast6_neigh(const struct lsk_nd6_table *t, const uint8_t *addr,
	    uint16_t iface, uint64_t now, uint64_t reachable,
	    struct rte_ether_addr *mac)
{
	struct nd6_key k = { .iface = iface };
	const struct lsk_nd6_entry *e;
	uint64_t word;
	uint8_t state;
	void *data;

	if (unlikely(t == NULL))
		return FAST6_NEIGH_HOLDS;	/* the stages drop */
	memcpy(k.addr.a, addr, sizeof(k.addr.a));
	if (rte_hash_lookup_data(t->hash, &k, &data) < 0)
		return FAST6_NEIGH_HOLDS;
	e = &t->e[(uint32_t)(uintptr_t)data];
	word = __atomic_load_n(&e->word, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&e->gen, __ATOMIC_ACQUIRE) !=
	    (uint32_t)((uintptr_t)data >> 32))
		return FAST6_NEIGH_SENDS;	/* changing: the stages' */
	state = word_state(word);
	if (state == LSK_NEIGH_STATIC ||
	    (state == LSK_NEIGH_REACHABLE &&
	     now - __atomic_load_n(&e->confirmed, __ATOMIC_RELAXED) <=
	     reachable)) {
		word_mac(word, mac);
		return FAST6_NEIGH_MAC;
	}
	return word_resolved(word) ? FAST6_NEIGH_SENDS : FAST6_NEIGH_HOLDS;
}

/* The second pass over pkts[0, k) with their next hops (nh_idx[0] for
 * all when one): each forwarded, or put on rest (*n_rest) as the header
 * says. Returns how many it forwarded. */
static uint32_t
fast6_forward(struct lsk_worker *w, struct rte_mbuf **pkts, uint32_t k,
	      const uint64_t *nh_idx, const bool one, struct rte_mbuf **rest,
	      uint32_t *n_rest)
{
	const struct lsk_nexthop6 *nexthops = w->fwd6->nexthops;
	const struct lsk_nd6_table *nd = w->sh->nd6;
	uint64_t now = 0, reachable = 0, cur = UINT64_MAX;
	uint64_t mac_lo = 0;
	uint32_t mac_hi = 0, i, forwarded = 0;
	enum fast6_neigh cur_v = FAST6_NEIGH_HOLDS;
	uint8_t cur_addr[RTE_FIB6_IPV6_ADDR_SIZE];

	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint64_t nhi = nh_idx[one ? 0 : i];
		const struct lsk_nexthop6 *nh = &nexthops[(uint32_t)nhi];
		const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
			const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
		const uint8_t *via;
		bool sends;

		if (unlikely(nh->type != LSK_NH_FORWARD ||
			     nh->iface >= w->n_ports)) {
			/* a group's member, a VLAN: the stages send it */
			sends = nh->type == LSK_NH_FORWARD ||
				nh->type == LSK_NH_GROUP;
			goto hand_on;
		}
		via = nh->onlink ? ip->dst_addr : nh->gateway.a;
		if (nhi != cur || (nh->onlink &&
				   memcmp(via, cur_addr, sizeof(cur_addr)))) {
			struct rte_ether_addr mac = { { 0 } };
			uint8_t hdr[2 * RTE_ETHER_ADDR_LEN];

			if (now == 0) {
				now = rte_rdtsc();
				reachable = NEIGH_REACHABLE_S *
					    rte_get_tsc_hz();
			}
			cur = nhi;
			memcpy(cur_addr, via, sizeof(cur_addr));
			cur_v = fast6_neigh(nd, via, nh->iface, now, reachable,
					    &mac);
			memcpy(hdr, &mac, RTE_ETHER_ADDR_LEN);
			memcpy(hdr + RTE_ETHER_ADDR_LEN,
			       &w->fwd->ifaces[nh->iface].mac,
			       RTE_ETHER_ADDR_LEN);
			memcpy(&mac_lo, hdr, sizeof(mac_lo));
			memcpy(&mac_hi, hdr + sizeof(mac_lo), sizeof(mac_hi));
		}
		if (likely(cur_v == FAST6_NEIGH_MAC &&
			   lsk_ip6_fast_rewrite(m, nh->mtu, mac_lo, mac_hi))) {
			lsk_tx_enqueue(w, nh->iface, m);
			forwarded++;
			continue;
		}
		/* the hop limit out or too big: ICMPv6 after the burst */
		sends = cur_v == FAST6_NEIGH_SENDS && ip->hop_limits > 1 &&
			lsk_be16(ip->payload_len) + sizeof(*ip) <= nh->mtu;
hand_on:
		rest[(*n_rest)++] = m;
		if (unlikely(sends)) {
			/* after one the stages send: all of them theirs */
			for (i++; i < k; i++)
				rest[(*n_rest)++] = pkts[i];
			break;
		}
	}
	return forwarded;
}

uint16_t
lsk_fwd6_fast(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	      struct rte_mbuf **rest)
{
	const struct lsk_fwd6_table *t = w->fwd6;
	uint8_t dst[LSK_BURST_MAX][RTE_FIB6_IPV6_ADDR_SIZE];
	uint64_t nh_idx[LSK_BURST_MAX];
	uint32_t k, done, n_rest = 0;
	uint16_t port;
	bool one;

	if (unlikely(n == 0 || t == NULL || t->fib == NULL))
		return n;
	port = pkts[0]->port;
	k = fast6_check(w->fwd, pkts, n, dst, &one);
	if (unlikely(k == 0))
		return n;	/* rest untouched: it would be pkts itself */
	rte_fib6_lookup_bulk(t->fib, dst, nh_idx, one ? 1 : (int)k);
	done = fast6_forward(w, pkts, k, nh_idx, one, rest, &n_rest);
	/* what the stages' counters would have said of these packets */
	w->stats.ports[port].rx += done;
	w->stats.eth.InFrames += done;
	w->stats.ip6.InReceives += done;
	w->stats.ip6.OutForwDatagrams += done;
	/* checked, looked up, then handed on: more than it took */
	if (unlikely(n_rest > done))
		w->ip6w->fast_skip = FAST6_SKIP_BURSTS;
	memcpy(&rest[n_rest], &pkts[k], (n - k) * sizeof(pkts[0]));
	return (uint16_t)(n_rest + n - k);
}
