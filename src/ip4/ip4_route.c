/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_route: one bulk FIB lookup for the whole list (one lookup when it all
 * goes to one destination), then the list is split
 * by destination: local delivery, forwarding (the next hop rides in the
 * packet's meta word), or drop (no route: ICMP net unreachable; blackhole:
 * silent). Forwarded packets stay in the input list,
 * so when every packet is forwarded nothing is copied.
 */
#include <rte_byteorder.h>
#include <rte_fib.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/capture.h"
#include "core/drop.h"
#include "core/list.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"

enum route_verdict {
	ROUTE_FORWARD,
	ROUTE_LOCAL,
	ROUTE_DROP_NO_ROUTE,	/* InNoRoutes */
	ROUTE_DROP_BLACKHOLE,	/* InDiscards */
};

static inline enum route_verdict
route_verdict_of(const struct lsk_nexthop *nh)
{
	switch (nh->type) {
	case LSK_NH_FORWARD:
		return ROUTE_FORWARD;
	case LSK_NH_LOCAL:
	case LSK_NH_LOCAL_BCAST:
		return ROUTE_LOCAL;
	case LSK_NH_BLACKHOLE:
		return ROUTE_DROP_BLACKHOLE;
	default:
		return ROUTE_DROP_NO_ROUTE;
	}
}

/* Entry i's verdict carried out: forwarded entries compacted in l, locals
 * to local, drops counted and freed. */
static inline void
route_entry(struct lsk_worker *w, struct lsk_list *l, struct lsk_list *local,
	    uint32_t i, uint32_t nh, uint32_t *kept)
{
	const struct lsk_fwd_table *t = w->fwd;
	struct rte_mbuf *m = l->pkts[i];
	uint32_t meta = (l->meta[i] & ~LSK_META_NH_MASK) | nh;

	switch (route_verdict_of(&t->nexthops[nh])) {
	case ROUTE_FORWARD:
		l->pkts[*kept] = m;
		l->meta[*kept] = meta;
		(*kept)++;
		break;
	case ROUTE_LOCAL:
		lsk_list_push(local, m, meta);
		break;
	case ROUTE_DROP_BLACKHOLE:
		w->stats.ip.InDiscards += lsk_meta_count(meta);
		lsk_capture_drop(w, m, meta, LSK_DROP_AT(ip.InDiscards));
		if (lsk_trace_on(w))
			lsk_trace_entry(w, m, meta, LSK_TR_IP4_ROUTE,
					false, "blackhole");
		lsk_trace_drop(w, m, meta, LSK_DROP_AT(ip.InDiscards));
		lsk_entry_free(m, meta);
		break;
	case ROUTE_DROP_NO_ROUTE:
		w->stats.ip.InNoRoutes += lsk_meta_count(meta);
		lsk_capture_drop(w, m, meta, LSK_DROP_AT(ip.InNoRoutes));
		if (lsk_trace_on(w))
			lsk_trace_entry(w, m, meta, LSK_TR_IP4_ROUTE,
					false, "no route");
		lsk_icmp4_error_entry(w, m, meta,
				      LSK_ICMP_DEST_UNREACH,
				      LSK_ICMP_NET_UNREACH, 0);
		lsk_trace_drop(w, m, meta, LSK_DROP_AT(ip.InNoRoutes));
		lsk_entry_free(m, meta);
		break;
	}
}

/* The destination of m, host order. */
static inline uint32_t
route_dst(const struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);

	return rte_be_to_cpu_32(ip->dst_addr);
}

/* How many of nh_idx[0, n), from the first on, are forwarding next
 * hops. */
static inline uint32_t
route_forward_prefix(const struct lsk_nexthop *nexthops,
		     const uint64_t *nh_idx, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (unlikely(nexthops[(uint32_t)nh_idx[i]].type !=
			     LSK_NH_FORWARD))
			break;
	return i;
}

/*
 * A list whose datagrams all go to one destination (one flow, or a run
 * that fills the list) is looked up once: the FIB answers for the
 * destination, not the packet. With the route cache on, the cache is
 * asked for each, as its counters say.
 */
void
lsk_ip4_route(struct lsk_worker *w, struct lsk_list *l, struct lsk_list *local)
{
	const struct lsk_fwd_table *t = w->fwd;
	const uint32_t n = l->n;
	uint32_t dst[LSK_BURST_MAX];
	uint64_t nh_idx[LSK_BURST_MAX];
	uint32_t i, kept, diff = 0, first;

	/* first in a register: the stores may alias dst[0] */
	first = n != 0 ? route_dst(l->pkts[0]) : 0;
	for (i = 0; i < n; i++) {
		const uint32_t d = route_dst(l->pkts[i]);

		dst[i] = d;
		diff |= d ^ first;
	}
	if (w->ip4w->rcache != NULL) {
		if (lsk_trace_on(w))	/* before the lookup fills it */
			lsk_trace_route_cache(w, l, dst,
					      lsk_route_cache_probe);
		lsk_route_cache_lookup(w, dst, nh_idx, n);
	} else if (diff == 0 && n != 0) {
		rte_fib_lookup_bulk(t->fib, dst, nh_idx, 1);
		if (likely(t->nexthops[(uint32_t)nh_idx[0]].type ==
			   LSK_NH_FORWARD)) {
			const uint32_t nh = (uint32_t)nh_idx[0];

			for (i = 0; i < n; i++)
				l->meta[i] = (l->meta[i] & ~LSK_META_NH_MASK) |
					     nh;
			return;
		}
		for (i = 1; i < n; i++)
			nh_idx[i] = nh_idx[0];
	} else {
		rte_fib_lookup_bulk(t->fib, dst, nh_idx, (int)n);
	}

	/* up to the first entry not forwarded, nothing moves: that prefix
	 * found by loads and tests alone, its meta words then written by a
	 * loop the compiler makes a vector one */
	kept = route_forward_prefix(t->nexthops, nh_idx, n);
	for (i = 0; i < kept; i++)
		l->meta[i] = (l->meta[i] & ~LSK_META_NH_MASK) |
			     (uint32_t)nh_idx[i];
	for (i = kept; i < n; i++)
		route_entry(w, l, local, i, (uint32_t)nh_idx[i], &kept);
	l->n = kept;
}
