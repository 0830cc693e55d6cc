/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_filter: the PRE_ROUTING filter hook. One rte_acl classification for
 * the whole list (one key per entry: a train is classified once, by its
 * head); a drop counts every datagram it stands for.
 */
#include <rte_acl.h>
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/stage.h"
#include "core/list.h"
#include "core/cksum.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"

/* a rule's drop: counted as the rule's and as a discard, as Linux's
 * PRE_ROUTING drop counts in InDiscards */
static const struct lsk_drop filter_drops[] = {
	LSK_DROP2(filter.Dropped, ip.InDiscards),
};

static lsk_trace_fmt_t filter_trace;

LSK_STAGE_DECLARE(lsk_ip4_filter_stage,
	.name = "ip4_filter", .id = LSK_STAGE_IP4_FILTER,
	.next = LSK_NEXT("ip4_route"),
	.drops = filter_drops, .n_drops = RTE_DIM(filter_drops),
	.trace = filter_trace);

struct filter_trace_arg {
	const uint32_t *verdict;	/* per entry: 0 none, else rule + 1 */
	const bool *drop;		/* per rule */
};

/* The 5-tuple as on the wire; ports are 0 when there are none to read. */
static inline void
filter_key(const struct rte_mbuf *m, struct lsk_filter_key *k)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t hlen = (ip->version_ihl & 0xf) * 4u;

	k->proto = ip->next_proto_id;
	k->src = ip->src_addr;
	k->dst = ip->dst_addr;
	k->ports = 0;
	if ((k->proto == IPPROTO_UDP || k->proto == IPPROTO_TCP) &&
	    (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK)) == 0 &&
	    RTE_ETHER_HDR_LEN + hlen + 4 <= m->data_len)
		k->ports = lsk_udp_ports((const uint8_t *)ip + hlen);
}

/* ip4_filter's record: the rule that matched and what it said. */
static void
filter_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	const struct filter_trace_arg *a = arg;
	const uint32_t *verdict = a->verdict;
	const bool *drop = a->drop;
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		uint32_t v = verdict[i];

		if (!lsk_trace_entry_traced(l->pkts[i], l->meta[i]))
			continue;
		if (v == 0)
			lsk_trace_entry(w, l->pkts[i], l->meta[i],
					&lsk_ip4_filter_stage, false,
					"no rule matched: accept");
		else if (!drop[v - 1])
			lsk_trace_entry(w, l->pkts[i], l->meta[i],
					&lsk_ip4_filter_stage, false,
					"rule %u: accept", v);
		else
			lsk_trace_entry(w, l->pkts[i], l->meta[i],
					&lsk_ip4_filter_stage, false,
					"rule %u: drop", v);
	}
}

/* Is v in a screen's map (ip4/ip4.h)? */
static inline bool
screen_has(const uint8_t map[256], uint8_t v)
{
	return map[v] != 0;
}

/* May a rule match k? False only when one of its screened bytes is in
 * no rule's set (struct lsk_filter_screen says why that is exact). */
static inline bool
filter_screen(const struct lsk_filter_screen *sc,
	      const struct lsk_filter_key *k)
{
	return screen_has(sc->dst, ((const uint8_t *)&k->dst)[0]) &&
	       screen_has(sc->proto, k->proto) &&
	       screen_has(sc->src, ((const uint8_t *)&k->src)[0]) &&
	       screen_has(sc->dport, ((const uint8_t *)&k->dport)[0]);
}

static inline bool
filter_key_same(const struct lsk_filter_key *a, const struct lsk_filter_key *b)
{
	return a->proto == b->proto && a->src == b->src && a->dst == b->dst &&
	       a->ports == b->ports;
}

/*
 * pkts[0, n) classified, each one key (a train by its head): verdict 0
 * none matched, else the rule + 1. A key the screen rules out is
 * accepted without rte_acl. A run of one flow's packets (the same key as
 * the last one classified) is classified once, by its first: the verdict
 * is the key's alone, and rte_acl's walk is the cost a packet (1000
 * rules: about 230 instructions a packet, bench/callgrind.sh).
 */
static inline void
filter_classify(const struct lsk_filter_table *t, struct rte_mbuf *const *pkts,
		uint32_t n, uint32_t *verdict)
{
	struct lsk_filter_key keys[LSK_BURST_MAX];
	const uint8_t *data[LSK_BURST_MAX];
	uint32_t run_verdict[LSK_BURST_MAX + 1];
	uint16_t run_of[LSK_BURST_MAX];	/* each entry's run + 1, 0: screened */
	uint32_t i, runs = 0;

	run_verdict[0] = 0;
	for (i = 0; i < n; i++) {
		filter_key(pkts[i], &keys[runs]);
		if (!filter_screen(&t->screen, &keys[runs])) {
			run_of[i] = 0;
			continue;
		}
		if (runs == 0 || !filter_key_same(&keys[runs], &keys[runs - 1])) {
			data[runs] = (const uint8_t *)&keys[runs];
			runs++;
		}
		run_of[i] = (uint16_t)runs;
	}
	/* the vector classifiers run 4 or more lanes whatever the count: a
	 * list of one to three (a train, a trickle) is cheaper scalar
	 * (gro-fwd fraglist+acl: 77-86 -> 64-73 cycles a one-train list) */
	if (runs >= 1 && runs < 4)
		rte_acl_classify_alg(t->ctx, data, run_verdict + 1, runs, 1,
				     RTE_ACL_CLASSIFY_SCALAR);
	else if (runs >= 4)
		rte_acl_classify(t->ctx, data, run_verdict + 1, runs, 1);
	for (i = 0; i < n; i++)
		verdict[i] = run_verdict[run_of[i]];
}

/* Does a rule drop what got this verdict? */
static inline bool
filter_drops_it(const struct lsk_filter_table *t, uint32_t verdict)
{
	return unlikely(verdict != 0 && t->drop[verdict - 1]);
}

void
lsk_ip4_filter(struct lsk_worker *w, struct lsk_list *l)
{
	const struct lsk_filter_table *t = w->filter;
	uint32_t verdict[LSK_BURST_MAX];
	uint32_t i, kept = 0;

	filter_classify(t, l->pkts, l->n, verdict);
	LSK_STAGE_TRACE(w, &lsk_ip4_filter_stage, l,
			(&(struct filter_trace_arg){ verdict, t->drop }));
	for (i = 0; i < l->n; i++) {
		if (!filter_drops_it(t, verdict[i])) {
			l->pkts[kept] = l->pkts[i];
			l->meta[kept] = l->meta[i];
			kept++;
			continue;
		}
		lsk_drop(w, l->pkts[i], l->meta[i], &filter_drops[0]);
	}
	l->n = kept;
}

/* May a rule match m, whose destination is dst (host order)? The
 * screen, its destination's byte first: it is at hand. */
static inline bool
filter_may_match(const struct lsk_filter_table *t, const struct rte_mbuf *m,
		 uint32_t dst)
{
	struct lsk_filter_key k;

	if (likely(!screen_has(t->screen.dst, (uint8_t)(dst >> 24))))
		return false;
	filter_key(m, &k);
	return filter_screen(&t->screen, &k);
}

uint32_t
lsk_ip4_filter_fast(struct lsk_worker *w, struct rte_mbuf **pkts,
		    uint32_t *dst, uint32_t n, bool one)
{
	const struct lsk_filter_table *t = w->filter;
	uint32_t verdict[LSK_BURST_MAX];
	uint32_t i, first, kept;

	/* a burst to one destination no rule covers: all kept, where they
	 * are, without a look at each */
	if (one && likely(!screen_has(t->screen.dst, (uint8_t)(dst[0] >> 24))))
		return n;
	/* pkts[0, first) match no rule: all kept, where they are */
	for (first = 0; first < n; first++)
		if (filter_may_match(t, pkts[first], dst[first]))
			break;
	if (likely(first == n))
		return n;
	filter_classify(t, pkts + first, n - first, verdict);
	kept = first;
	for (i = first; i < n; i++) {
		if (!filter_drops_it(t, verdict[i - first])) {
			pkts[kept] = pkts[i];
			dst[kept++] = dst[i];
			continue;
		}
		lsk_drop(w, pkts[i], 0, &filter_drops[0]);
	}
	return kept;
}
