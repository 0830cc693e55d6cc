/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_route: one bulk FIB lookup for the whole list (one lookup when it all
 * goes to one destination), then the list is split
 * by destination: local delivery, forwarding (the next hop rides in the
 * packet's meta word), or drop (no route: ICMP net unreachable; blackhole:
 * silent; unreachable and prohibit routes: ICMP host unreachable and
 * administratively prohibited, as Linux). An ECMP route's group next hop
 * gives each entry its member by the flow's hash (ip4/ecmp.h; a train by
 * its head), which rides in the meta as any next hop: ip4_forward and
 * ip4_output know no groups. Forwarded packets stay in the input list,
 * so when every packet is forwarded nothing is copied.
 */
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_fib.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_rib.h>

#include "core/drop.h"
#include "core/stage.h"
#include "core/list.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ecmp.h"
#include "ip4/ip4.h"

enum route_verdict {
	ROUTE_DROP_NO_ROUTE,
	ROUTE_DROP_BLACKHOLE,
	ROUTE_DROP_UNREACHABLE,
	ROUTE_DROP_PROHIBIT,
	ROUTE_FORWARD,
	ROUTE_LOCAL,
	ROUTE_GROUP,
};

static const struct lsk_drop route_drops[] = {
	[ROUTE_DROP_NO_ROUTE] = LSK_DROP_ICMP(ip.InNoRoutes,
			LSK_ICMP_DEST_UNREACH, LSK_ICMP_NET_UNREACH),
	[ROUTE_DROP_BLACKHOLE] = LSK_DROP1(ip.InDiscards),
	[ROUTE_DROP_UNREACHABLE] = LSK_DROP_ICMP(ip.InDiscards,
			LSK_ICMP_DEST_UNREACH, LSK_ICMP_HOST_UNREACH),
	[ROUTE_DROP_PROHIBIT] = LSK_DROP_ICMP(ip.InDiscards,
			LSK_ICMP_DEST_UNREACH, LSK_ICMP_ADMIN_PROHIBITED),
};

static lsk_trace_fmt_t route_trace;

LSK_STAGE_DECLARE(lsk_ip4_route_stage,
	.name = "ip4_route", .id = LSK_STAGE_IP4_ROUTE,
	.next = LSK_NEXT("ip4_local", "ip4_forward", "icmp"),
	.drops = route_drops, .n_drops = RTE_DIM(route_drops),
	.trace = route_trace);

/* Before the lookup: what the route cache answers, kept for the record
 * route_trace makes. */
static void
route_cache_trace(struct lsk_worker *w, const struct lsk_list *l,
		  const uint32_t *dst)
{
	uint32_t i;

	if (w->ip4w->rcache == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *d;
		uint8_t a;

		if (!lsk_trace_entry_traced(l->pkts[i], l->meta[i]))
			continue;
		a = (uint8_t)(2 + lsk_route_cache_probe(w, dst[i]));
		for (d = l->pkts[i]; d != NULL; d = lsk_trace_entry_next(d, l->meta[i])) {
			struct lsk_trace_pkt *p = lsk_trace_slot(w, d);

			if (p != NULL)
				p->rcache = a;
		}
	}
}

static void
route_prefix(const struct lsk_fwd_table *t, uint32_t dst, char *buf,
	     size_t len)
{
	struct rte_rib *rib = rte_fib_get_rib(t->fib);
	struct rte_rib_node *n = rib ? rte_rib_lookup(rib, dst) : NULL;
	uint32_t ip;
	uint8_t depth;
	char a[16];

	if (n == NULL || rte_rib_get_ip(n, &ip) < 0 ||
	    rte_rib_get_depth(n, &depth) < 0) {
		snprintf(buf, len, "?");
		return;
	}
	lsk_trace_addr(ip, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, depth);
}

static void
route_trace_one(struct lsk_worker *w, const struct rte_mbuf *d,
		unsigned int k)
{
	static const char *const cache[] = { "", ", cache bypassed",
					     ", cache miss", ", cache hit" };
	const struct lsk_nexthop *nh = &w->fwd->nexthops[k];
	const struct rte_ipv4_hdr *ip = lsk_trace_ip4(d);
	struct lsk_trace_pkt *p = lsk_trace_slot(w, d);
	uint32_t dst;
	char pfx[24], via[16];

	if (p == NULL || ip == NULL)
		return;
	dst = rte_be_to_cpu_32(ip->dst_addr);
	route_prefix(w->fwd, dst, pfx, sizeof(pfx));
	lsk_trace_addr(nh->gateway ? nh->gateway : dst, via, sizeof(via));
	if (nh->type == LSK_NH_FORWARD)
		lsk_trace_rec(w, d, &lsk_ip4_route_stage, false, "%s via %s port %u "
			      "mtu %u, next hop %u%s", pfx, via, nh->port,
			      nh->mtu, k, cache[p->rcache & 3]);
	else
		lsk_trace_rec(w, d, &lsk_ip4_route_stage, false, "%s local%s, "
			      "next hop %u%s", pfx, nh->type ==
			      LSK_NH_LOCAL_BCAST ? " broadcast" : "", k,
			      cache[p->rcache & 3]);
}

/* After the lookup: l's entries carry their next hop in the meta; the
 * record names the prefix that matched (the published FIB's RIB: never
 * changed while a worker can read it), the next hop's address, port and
 * MTU, and the cache's answer. */
static void
route_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	const struct lsk_fwd_table *t = w->fwd;
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const unsigned int k = l->meta[i] & LSK_META_NH_MASK;
		const struct lsk_nexthop *nh = &t->nexthops[k];
		const struct rte_mbuf *d;

		if (!lsk_trace_entry_traced(l->pkts[i], l->meta[i]))
			continue;
		if (nh->type != LSK_NH_FORWARD && nh->type != LSK_NH_LOCAL &&
		    nh->type != LSK_NH_LOCAL_BCAST)
			continue;	/* dropped: recorded by ip4_route itself */
		for (d = l->pkts[i]; d != NULL; d = lsk_trace_entry_next(d, l->meta[i]))
			route_trace_one(w, d, k);
	}
}

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
	case LSK_NH_GROUP:
		return ROUTE_GROUP;
	case LSK_NH_UNREACHABLE:
		return ROUTE_DROP_UNREACHABLE;
	case LSK_NH_PROHIBIT:
		return ROUTE_DROP_PROHIBIT;
	default:
		return ROUTE_DROP_NO_ROUTE;
	}
}

/* The member of group next hop nh m's flow takes. */
static uint32_t
route_ecmp(struct lsk_worker *w, const struct lsk_fwd_table *t, uint32_t nh,
	   const struct rte_mbuf *m)
{
	return lsk_ecmp_pick(t, w->sh->neigh, &t->nexthops[nh],
			     lsk_ecmp_pkt_hash(m), rte_rdtsc());
}

/* An unreachable or prohibit route's drop, with its ICMP error. */
static void
route_refuse(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	     enum route_verdict v)
{
	if (lsk_trace_on(w))
		lsk_trace_entry(w, m, meta, &lsk_ip4_route_stage, false, "%s",
				v == ROUTE_DROP_PROHIBIT ? "prohibit" :
				"unreachable");
	lsk_ip4_drop(w, m, meta, &route_drops[v], 0);
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
	case ROUTE_GROUP:
		/* its member forwards */
		meta = (l->meta[i] & ~LSK_META_NH_MASK) |
		       route_ecmp(w, t, nh, m);
		/* fall through */
	case ROUTE_FORWARD:
		l->pkts[*kept] = m;
		l->meta[*kept] = meta;
		(*kept)++;
		break;
	case ROUTE_LOCAL:
		lsk_list_push(local, m, meta);
		break;
	case ROUTE_DROP_BLACKHOLE:
		if (lsk_trace_on(w))
			lsk_trace_entry(w, m, meta, &lsk_ip4_route_stage,
					false, "blackhole");
		lsk_drop(w, m, meta, &route_drops[ROUTE_DROP_BLACKHOLE]);
		break;
	case ROUTE_DROP_NO_ROUTE:
		if (lsk_trace_on(w))
			lsk_trace_entry(w, m, meta, &lsk_ip4_route_stage,
					false, "no route");
		lsk_ip4_drop(w, m, meta, &route_drops[ROUTE_DROP_NO_ROUTE], 0);
		break;
	case ROUTE_DROP_UNREACHABLE:
	case ROUTE_DROP_PROHIBIT:
		route_refuse(w, m, meta, route_verdict_of(&t->nexthops[nh]));
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
			route_cache_trace(w, l, dst);
		lsk_route_cache_lookup(w, dst, nh_idx, n, NULL);
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
