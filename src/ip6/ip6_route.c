/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_route: global destinations are looked up in the FIB in bulk (once
 * when the whole list goes to one destination), then the list is split:
 * local delivery, forwarding (the next hop rides in the meta word, as
 * IPv4's), or drop (no route and unreachable routes: ICMPv6 no route;
 * prohibit: administratively prohibited, both counted InNoRoutes as
 * Linux's ip6_pkt_drop; blackhole: silent, InDiscards as IPv4's). An
 * ECMP route's group next hop gives each entry its member by the flow's
 * hash (ip6/ecmp6.h), as IPv4's ip4_route.
 *
 * Scoped destinations are not in the FIB: a link-local one is ours on
 * the interface it came in on (local) or dropped, never forwarded
 * (InAddrErrors, ICMPv6 beyond scope); a multicast group the interface
 * joined (lsk_fwd6_joined), or of link scope on an interface with a
 * host-if (for the kernel), is local, any other is dropped silently
 * (InDiscards; every multicast datagram counts InMcastPkts). The
 * unspecified destination is InAddrErrors.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_fib6.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_rib6.h>

#include "core/drop.h"
#include "core/stage.h"
#include "core/list.h"
#include "core/fwd6.h"
#include "core/trace.h"
#include "core/worker.h"
#include "host/host.h"
#include "ip6/ecmp6.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"
#include "ip6/nd6.h"

enum route6_verdict {
	ROUTE6_DROP_NO_ROUTE,
	ROUTE6_DROP_BLACKHOLE,
	ROUTE6_DROP_UNREACHABLE,
	ROUTE6_DROP_PROHIBIT,
	ROUTE6_DROP_ADDR,	/* the unspecified destination */
	ROUTE6_DROP_SCOPE,	/* link-local, not ours on this link */
	ROUTE6_DROP_MCAST,	/* a group the interface did not join */
	ROUTE6_DROP_TENTATIVE,	/* ours, but DAD has not passed */
	ROUTE6_FORWARD,
	ROUTE6_LOCAL,
	ROUTE6_GROUP,		/* ECMP: its member forwards */
};

static const struct lsk_drop route6_drops[] = {
	[ROUTE6_DROP_NO_ROUTE] = LSK_DROP_ICMP(ip6.InNoRoutes,
			LSK_ICMP6_DST_UNREACH, LSK_ICMP6_NOROUTE),
	[ROUTE6_DROP_BLACKHOLE] = LSK_DROP1(ip6.InDiscards),
	[ROUTE6_DROP_UNREACHABLE] = LSK_DROP_ICMP(ip6.InNoRoutes,
			LSK_ICMP6_DST_UNREACH, LSK_ICMP6_NOROUTE),
	[ROUTE6_DROP_PROHIBIT] = LSK_DROP_ICMP(ip6.InNoRoutes,
			LSK_ICMP6_DST_UNREACH, LSK_ICMP6_ADM_PROHIBITED),
	[ROUTE6_DROP_ADDR] = LSK_DROP1(ip6.InAddrErrors),
	[ROUTE6_DROP_SCOPE] = LSK_DROP_ICMP(ip6.InAddrErrors,
			LSK_ICMP6_DST_UNREACH, LSK_ICMP6_NOT_NEIGHBOUR),
	[ROUTE6_DROP_MCAST] = LSK_DROP1(ip6.InDiscards),
	[ROUTE6_DROP_TENTATIVE] = LSK_DROP1(ip6.InAddrErrors),
};

static lsk_trace_fmt_t route6_trace;

LSK_STAGE_DECLARE(lsk_ip6_route_stage,
	.name = "ip6_route", .id = LSK_STAGE_IP6_ROUTE,
	.next = LSK_NEXT("ip6_local", "ip6_forward", "icmp6"),
	.drops = route6_drops, .n_drops = RTE_DIM(route6_drops),
	.trace = route6_trace);

static const char *const route6_names[] = {
	[ROUTE6_DROP_NO_ROUTE] = "no route",
	[ROUTE6_DROP_BLACKHOLE] = "blackhole",
	[ROUTE6_DROP_UNREACHABLE] = "unreachable",
	[ROUTE6_DROP_PROHIBIT] = "prohibit",
	[ROUTE6_DROP_ADDR] = "unspecified destination",
	[ROUTE6_DROP_SCOPE] = "link-local, not ours on this link",
	[ROUTE6_DROP_MCAST] = "multicast group not joined",
	[ROUTE6_DROP_TENTATIVE] = "our address, tentative",
};

static inline const struct rte_ipv6_hdr *
route6_hdr(const struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
				       RTE_ETHER_HDR_LEN);
}

/* The prefix that matched dst, from the published FIB's RIB. */
static void
route6_prefix(const struct lsk_fwd6_table *t, const uint8_t *dst, char *buf,
	      size_t len)
{
	struct rte_rib6 *rib = rte_fib6_get_rib(t->fib);
	struct rte_rib6_node *n = rib ? rte_rib6_lookup(rib, dst) : NULL;
	uint8_t ip[16], depth;
	char a[LSK_TRACE_ADDR6_LEN];

	if (n == NULL || rte_rib6_get_ip(n, ip) < 0 ||
	    rte_rib6_get_depth(n, &depth) < 0) {
		snprintf(buf, len, "?");
		return;
	}
	lsk_trace_addr6(ip, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, depth);
}

/* route6_trace's record of one datagram d of an entry of meta. */
static void
route6_trace_one(struct lsk_worker *w, const struct rte_mbuf *d,
		 uint32_t meta, bool local)
{
	const struct lsk_fwd6_table *t = w->fwd6;
	const struct rte_ipv6_hdr *ip;
	char pfx[LSK_TRACE_ADDR6_LEN + 4], via[LSK_TRACE_ADDR6_LEN];
	const struct lsk_nexthop6 *nh;

	if (!lsk_traced(d) || (ip = lsk_trace_ip6(d)) == NULL)
		return;
	if (local) {
		lsk_trace_rec(w, d, &lsk_ip6_route_stage, false, "local (%s)",
			      lsk_ip6_is_multicast(lsk_ip6_dst(ip)) ?
			      "a group joined" :
			      lsk_ip6_is_linklocal(lsk_ip6_dst(ip)) ?
			      "link-local" : "our address");
		return;
	}
	nh = &t->nexthops[meta & LSK_META_NH_MASK];
	route6_prefix(t, ip->dst_addr, pfx, sizeof(pfx));
	lsk_trace_addr6(nh->onlink ? ip->dst_addr : nh->gateway.a, via,
			sizeof(via));
	lsk_trace_rec(w, d, &lsk_ip6_route_stage, false,
		      "%s via %s iface %u mtu %u, next hop %u", pfx, via,
		      nh->iface, nh->mtu, meta & LSK_META_NH_MASK);
}

/* After the split: a forwarded entry's next hop (FIB prefix, gateway,
 * interface, MTU), a local one's reason. */
static void
route6_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	const bool local = arg != NULL;
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *d;

		/* each member of a train, on its head's path, as IPv4's */
		for (d = l->pkts[i]; d != NULL;
		     d = lsk_trace_entry_next(d, l->meta[i]))
			route6_trace_one(w, d, l->meta[i], local);
	}
}

static inline enum route6_verdict
route6_verdict_of(const struct lsk_nexthop6 *nh)
{
	switch (nh->type) {
	case LSK_NH_FORWARD:
		return ROUTE6_FORWARD;
	case LSK_NH_GROUP:
		return ROUTE6_GROUP;
	case LSK_NH_LOCAL:
		return ROUTE6_LOCAL;
	case LSK_NH_BLACKHOLE:
		return ROUTE6_DROP_BLACKHOLE;
	case LSK_NH_UNREACHABLE:
		return ROUTE6_DROP_UNREACHABLE;
	case LSK_NH_PROHIBIT:
		return ROUTE6_DROP_PROHIBIT;
	default:
		return ROUTE6_DROP_NO_ROUTE;
	}
}

/* A destination the FIB does not answer for (scoped, unspecified): its
 * verdict. */
static enum route6_verdict
route6_scoped(struct lsk_worker *w, const struct rte_mbuf *m,
	      const struct lsk_ip6_addr *dst)
{
	const struct lsk_fwd6_table *t = w->fwd6;

	if (lsk_ip6_is_multicast(dst)) {
		w->stats.ip6.InMcastPkts++;
		/* a link-scope group (OSPFv3's ff02::5, ...) is the kernel's
		 * to take or not when the interface has a host-if
		 * (host/host.h), as IPv4's 224.0.0.0/24 */
		return lsk_fwd6_joined(t, dst, m->port) ||
		       ((dst->a[1] & 0x0f) == 2 &&
			lsk_host_wants(w->host, m->port)) ? ROUTE6_LOCAL :
		       ROUTE6_DROP_MCAST;
	}
	if (lsk_ip6_is_linklocal(dst))
		return lsk_fwd6_ours(t, dst, m->port) != NULL ? ROUTE6_LOCAL :
		       ROUTE6_DROP_SCOPE;
	return ROUTE6_DROP_ADDR;
}

/* Not for the FIB: multicast, link-local and the unspecified address
 * (fe80::/10 and ff00::/8 by their first bytes; :: is 0 in the first). */
static inline bool
route6_is_scoped(const struct lsk_ip6_addr *a)
{
	return a->a[0] == 0xff || (a->a[0] == 0xfe && (a->a[1] & 0xc0) ==
				   0x80) || lsk_ip6_is_unspecified(a);
}

/* A local destination may receive: a group, or one of our addresses
 * past DAD on the interface it is on (no ND table: nothing checks). */
static bool
route6_usable(const struct lsk_worker *w, const struct rte_mbuf *m)
{
	const struct lsk_ip6_addr *dst = lsk_ip6_dst(route6_hdr(m));
	const struct lsk_ifaddr6 *a;

	if (lsk_ip6_is_multicast(dst) || w->sh->nd6 == NULL)
		return true;
	a = lsk_fwd6_ours(w->fwd6, dst, m->port);
	return a != NULL && lsk_nd6_addr_usable(w->sh->nd6, &a->addr,
						a->iface);
}

/* Entry i's verdict v carried out: forwarded entries compacted in l,
 * locals to local, drops counted and freed. */
static void
route6_entry(struct lsk_worker *w, struct lsk_list *l, struct lsk_list *local,
	     uint32_t i, uint32_t nh, enum route6_verdict v, uint32_t *kept)
{
	struct rte_mbuf *m = l->pkts[i];
	uint32_t meta = (l->meta[i] & ~LSK_META_NH_MASK) | nh;

	if (v == ROUTE6_LOCAL && !route6_usable(w, m))
		v = ROUTE6_DROP_TENTATIVE;
	switch (v) {
	case ROUTE6_GROUP:
		/* its member by the flow's hash (a train by its head),
		 * which rides in the meta as any next hop: ip6_forward and
		 * ip6_output know no groups */
		meta = (l->meta[i] & ~LSK_META_NH_MASK) |
		       lsk_ecmp6_pick(w->fwd, w->fwd6, w->sh->nd6,
				      &w->fwd6->nexthops[nh],
				      lsk_ecmp6_pkt_hash(m), rte_rdtsc());
		/* fall through */
	case ROUTE6_FORWARD:
		l->pkts[*kept] = m;
		l->meta[*kept] = meta;
		(*kept)++;
		return;
	case ROUTE6_LOCAL:
		lsk_list_push(local, m, meta);
		return;
	default:
		break;
	}
	if (lsk_trace_on(w))
		lsk_trace_entry(w, m, meta, &lsk_ip6_route_stage, false, "%s",
				route6_names[v]);
	lsk_ip6_drop(w, m, meta, &route6_drops[v], 0);
}

void
lsk_ip6_route(struct lsk_worker *w, struct lsk_list *l, struct lsk_list *local)
{
	const struct lsk_fwd6_table *t = w->fwd6;
	const uint32_t n = l->n;
	uint8_t dst[LSK_BURST_MAX][RTE_FIB6_IPV6_ADDR_SIZE];
	uint64_t nh_idx[LSK_BURST_MAX];
	uint16_t at[LSK_BURST_MAX];
	uint64_t diff = 0, first[2] = { 0, 0 };
	uint32_t i, k = 0, g = 0, kept = 0;
	bool scoped = false;

	/* the global destinations, gathered for one bulk lookup */
	for (i = 0; i < n; i++) {
		const struct lsk_ip6_addr *d =
			lsk_ip6_dst(route6_hdr(l->pkts[i]));
		uint64_t q[2];

		if (unlikely(route6_is_scoped(d))) {
			scoped = true;
			continue;
		}
		memcpy(q, d, sizeof(q));
		if (k == 0) {
			first[0] = q[0];
			first[1] = q[1];
		}
		diff |= (q[0] ^ first[0]) | (q[1] ^ first[1]);
		memcpy(dst[k], d, sizeof(dst[k]));
		at[k++] = (uint16_t)i;
	}
	if (k != 0 && diff == 0) {
		/* one destination: one lookup answers for all */
		rte_fib6_lookup_bulk(t->fib, dst, nh_idx, 1);
		for (i = 1; i < k; i++)
			nh_idx[i] = nh_idx[0];
		if (likely(!scoped && t->nexthops[(uint32_t)nh_idx[0]].type ==
			   LSK_NH_FORWARD)) {
			const uint32_t nh = (uint32_t)nh_idx[0];

			/* the home run: nothing moves */
			for (i = 0; i < n; i++)
				l->meta[i] = (l->meta[i] & ~LSK_META_NH_MASK) |
					     nh;
			return;
		}
	} else if (k != 0) {
		rte_fib6_lookup_bulk(t->fib, dst, nh_idx, (int)k);
	}

	for (i = 0; i < n; i++) {
		enum route6_verdict v;
		uint32_t nh = 0;

		if (g < k && at[g] == i) {
			nh = (uint32_t)nh_idx[g++];
			v = route6_verdict_of(&t->nexthops[nh]);
		} else {
			v = route6_scoped(w, l->pkts[i],
					  lsk_ip6_dst(route6_hdr(l->pkts[i])));
		}
		route6_entry(w, l, local, i, nh, v, &kept);
	}
	l->n = kept;
}
