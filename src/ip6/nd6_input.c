/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nd6_input: ND's messages to us (from icmp6_input), each checked as RFC
 * 4861 says (hop limit 255, code 0, its length, options of non-zero
 * length within the message) and then: an NS for one of our addresses
 * answered with an NA (router, override, solicited when it was) and its
 * sender learnt stale; an NA updating an entry we have (7.2.5), or
 * telling that one of our tentative addresses is another's (DAD); an RS
 * answered with an RA where `port N ra on`; RAs and redirects of others
 * left (we are a router). icmp6_input counted each by its type; the
 * malformed ones are counted icmp6.InErrors under the reasons below.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/fwd6.h"
#include "core/list.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip6/nd6_priv.h"

const struct lsk_drop nd6_drops[ND6_DROP_COUNT] = {
	[ND6_DROP_UNRESOLVED] = LSK_DROP1(nd.UnresolvedDiscards),
	[ND6_DROP_TABLE_FULL] = LSK_DROP1(nd.TableFulls),
	[ND6_DROP_HOP_LIMIT] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_CODE] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_SHORT] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_TARGET] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_OPTIONS] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_DAD_FORM] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_SOLICITED_MCAST] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_RA_SOURCE] = LSK_DROP1(icmp6.InErrors),
	[ND6_DROP_NOT_ICMP6] = LSK_DROP1(icmp6.InErrors),
};

static lsk_trace_fmt_t nd6_trace;

/* Neighbour discovery: its messages, its table's hold queues and their
 * timer (a node, not a timed stage). */
LSK_STAGE_DECLARE(lsk_nd6_node,
	.name = "nd6", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("tx"),
	.drops = nd6_drops, .n_drops = RTE_DIM(nd6_drops),
	.trace = nd6_trace);

#define ND6_VERDICT_DONE ND6_DROP_COUNT	/* learnt from, answered: freed */

/* What a message says, read once its checks passed. */
struct nd6_msg {
	const struct rte_ipv6_hdr *ip;
	const uint8_t *icmp;
	uint16_t len;
	struct lsk_ip6_addr src, dst, target;
	const struct rte_ether_addr *slla, *tlla;	/* NULL: none */
};

/* The options from off: each of non-zero length within the message;
 * the link-layer ones of Ethernet's length kept, others passed over. */
static bool
nd6_options(struct nd6_msg *g, uint16_t off)
{
	while (off < g->len) {
		const uint8_t *o = g->icmp + off;
		uint16_t olen;

		if (g->len - off < 2 || o[1] == 0)
			return false;
		olen = (uint16_t)(o[1] * 8);
		if (olen > g->len - off)
			return false;
		if (o[1] == 1 && o[0] == 1)
			g->slla = (const struct rte_ether_addr *)(o + 2);
		else if (o[1] == 1 && o[0] == 2)
			g->tlla = (const struct rte_ether_addr *)(o + 2);
		off += olen;
	}
	return true;
}

/* The checks every ND message has (RFC 4861 6.1, 7.1). */
static int
nd6_parse(struct rte_mbuf *m, struct nd6_msg *g, uint16_t fixed)
{
	g->ip = rte_pktmbuf_mtod(m, const struct rte_ipv6_hdr *);
	g->icmp = (const uint8_t *)(g->ip + 1);
	g->slla = g->tlla = NULL;
	if (g->ip->proto != IPPROTO_ICMPV6)
		return ND6_DROP_NOT_ICMP6;
	g->len = rte_be_to_cpu_16(g->ip->payload_len);
	if (rte_pktmbuf_data_len(m) < sizeof(*g->ip) + g->len ||
	    g->len < fixed)
		return ND6_DROP_SHORT;
	if (g->ip->hop_limits != 255)
		return ND6_DROP_HOP_LIMIT;
	if (g->icmp[1] != 0)
		return ND6_DROP_CODE;
	memcpy(&g->src, g->ip->src_addr, 16);
	memcpy(&g->dst, g->ip->dst_addr, 16);
	if (fixed >= 24)
		memcpy(&g->target, g->icmp + 8, 16);
	if (!nd6_options(g, fixed))
		return ND6_DROP_OPTIONS;
	return -1;
}

/* RFC 4861 7.2.3, 7.1.1; RFC 4862 5.4.3 for DAD's probes. */
static int
nd6_ns(struct lsk_worker *w, struct rte_mbuf *m, struct nd6_msg *g)
{
	const struct lsk_ifaddr6 *ours;
	struct lsk_ip6_addr group;
	bool dad = lsk_ip6_is_unspecified(&g->src);
	uint16_t iface = m->port;

	if (lsk_ip6_is_multicast(&g->target))
		return ND6_DROP_TARGET;
	nd6_solicited_node(&g->target, &group, NULL);
	if (dad && (g->slla != NULL || !lsk_ip6_equal(&g->dst, &group)))
		return ND6_DROP_DAD_FORM;
	ours = lsk_fwd6_ours(w->fwd6, &g->target, iface);
	if (ours == NULL || ours->iface != iface)
		return ND6_VERDICT_DONE;	/* not ours: no proxy */
	if (!lsk_nd6_addr_usable(w->sh->nd6, &g->target, iface)) {
		/* tentative, another node probes for it: ours is a
		 * duplicate; tentative or duplicate, not answered */
		if (dad)
			nd6_dad_conflict(w, &g->target, iface);
		return ND6_VERDICT_DONE;
	}
	if (dad) {
		static const struct lsk_ip6_addr all_nodes = { .a = { 0xff,
			0x02, [15] = 1 } };

		nd6_send_na(w, iface, &g->target, &all_nodes, NULL, false,
			    m->pool);
		return ND6_VERDICT_DONE;
	}
	if (g->slla != NULL)
		nd6_learn_ns(w, &g->src, iface, g->slla);
	/* to its MAC if it told it, else through the table */
	nd6_send_na(w, iface, &g->target, &g->src, g->slla, true, m->pool);
	return ND6_VERDICT_DONE;
}

/* RFC 4861 7.1.2, 7.2.5; RFC 4862 5.4.4. */
static int
nd6_na(struct lsk_worker *w, struct rte_mbuf *m, struct nd6_msg *g)
{
	const struct lsk_ifaddr6 *ours;
	uint8_t flags = g->icmp[4];
	uint16_t iface = m->port;

	if (lsk_ip6_is_multicast(&g->target))
		return ND6_DROP_TARGET;
	if ((flags & 0x40) && lsk_ip6_is_multicast(&g->dst))
		return ND6_DROP_SOLICITED_MCAST;
	ours = lsk_fwd6_ours(w->fwd6, &g->target, iface);
	if (ours != NULL) {
		/* another on its link has our address: DAD fails while
		 * tentative; after, Linux only logs it */
		if (ours->iface == iface &&
		    nd6_addr_tentative(w->sh->nd6, &g->target, iface))
			nd6_dad_conflict(w, &g->target, iface);
		return ND6_VERDICT_DONE;
	}
	nd6_learn_na(w, &g->target, iface, g->tlla, flags & 0x40,
		     flags & 0x20, flags & 0x80);
	return ND6_VERDICT_DONE;
}

/* RFC 4861 6.1.1, 6.2.6. */
static int
nd6_rs(struct lsk_worker *w, struct rte_mbuf *m, struct nd6_msg *g)
{
	bool unspecified = lsk_ip6_is_unspecified(&g->src);

	if (unspecified && g->slla != NULL)
		return ND6_DROP_DAD_FORM;
	if (!((w->fwd6 != NULL ? w->fwd6->ra_ifaces : 0) >> m->port & 1))
		return ND6_VERDICT_DONE;	/* not a router here */
	if (!unspecified && g->slla != NULL)
		nd6_learn_ns(w, &g->src, m->port, g->slla);
	nd6_ra_solicited(w, m->port);
	return ND6_VERDICT_DONE;
}

static int
nd6_process(struct lsk_worker *w, struct rte_mbuf *m)
{
	struct nd6_msg g;
	uint8_t type;
	int v;

	if (rte_pktmbuf_data_len(m) < sizeof(*g.ip) + 4)
		return ND6_DROP_SHORT;
	type = rte_pktmbuf_mtod_offset(m, const uint8_t *, sizeof(*g.ip))[0];
	switch (type) {
	case LSK_ND_ROUTER_SOLICIT:
		v = nd6_parse(m, &g, 8);
		return v >= 0 ? v : nd6_rs(w, m, &g);
	case LSK_ND_ROUTER_ADVERT:
		v = nd6_parse(m, &g, 16);
		break;
	case LSK_ND_NEIGHBOR_SOLICIT:
		v = nd6_parse(m, &g, 24);
		return v >= 0 ? v : nd6_ns(w, m, &g);
	case LSK_ND_NEIGHBOR_ADVERT:
		v = nd6_parse(m, &g, 24);
		return v >= 0 ? v : nd6_na(w, m, &g);
	default:
		v = nd6_parse(m, &g, 40);
		break;
	}
	/* an RA or a redirect: checked (RFC 4861 6.1.2, 8.1), not used */
	if (v >= 0)
		return v;
	return lsk_ip6_is_linklocal(&g.src) ? ND6_VERDICT_DONE :
	       ND6_DROP_RA_SOURCE;
}

/* nd6's record: each traced message's type, addresses and target (not
 * ended: it ends below, dropped or done). */
static void
nd6_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	static const char *const names[] = { "RS", "RA", "NS", "NA",
					     "redirect" };
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *m = l->pkts[i];
		struct lsk_ip6_addr a;
		const uint8_t *b;
		char s[48], d[48], t[48] = "-";
		uint8_t type;

		if (!lsk_traced(m))
			continue;
		b = rte_pktmbuf_mtod(m, const uint8_t *);
		if (rte_pktmbuf_data_len(m) < 40 + 4 || b[40] < 133 ||
		    b[40] > 137) {
			lsk_trace_rec(w, m, &lsk_nd6_node, false,
				      "%u bytes: truncated",
				      rte_pktmbuf_data_len(m));
			continue;
		}
		type = b[40];
		memcpy(&a, b + 8, 16);
		nd6_addr_text(&a, s, sizeof(s));
		memcpy(&a, b + 24, 16);
		nd6_addr_text(&a, d, sizeof(d));
		if (type >= LSK_ND_NEIGHBOR_SOLICIT &&
		    rte_pktmbuf_data_len(m) >= 40 + 24) {
			memcpy(&a, b + 48, 16);
			nd6_addr_text(&a, t, sizeof(t));
		}
		lsk_trace_rec(w, m, &lsk_nd6_node, false,
			      "%s %s > %s target %s (hop limit %u)",
			      names[type - 133], s, d, t, b[7]);
	}
}

void
lsk_nd6_input(struct lsk_worker *w, struct lsk_list *l)
{
	uint32_t i;

	LSK_STAGE_TRACE(w, &lsk_nd6_node, l, NULL);
	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		int v = nd6_process(w, m);

		if (v != ND6_VERDICT_DONE) {
			lsk_drop(w, m, l->meta[i], &nd6_drops[v]);
			continue;
		}
		if (lsk_trace_on(w))
			lsk_trace_end(w, m);
		rte_pktmbuf_free(m);
	}
	l->n = 0;
}
