/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the worker's records (core/trace.h): called only while a
 * trace is armed, so nothing here is on the path of a stack that does not
 * trace. The hooks read the headers themselves, as the stage they follow
 * saw them, so that a stage passes only what it decided.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_fib.h>
#include <rte_ip.h>
#include <rte_mbuf_dyn.h>
#include <rte_rib.h>
#include <rte_ring.h>

#include "core/trace.h"
#include "core/fwd.h"
#include "core/list.h"
#include "core/counters.h"

uint64_t lsk_trace_flag;
int lsk_trace_field = -1;

/* the dynfield: the trace's generation, the worker and the slot, so a
 * mark left by an older trace, or by another worker, is not this one's */
#define FIELD_GEN_SHIFT 16
#define FIELD_WID_SHIFT 10
#define FIELD_SLOT_MASK 0x3ffu

static const char *const stage_names[LSK_TR_COUNT] = {
	[LSK_TR_RX] = "rx",
	[LSK_TR_ETH_INPUT] = "eth_input",
	[LSK_TR_ARP] = "arp",
	[LSK_TR_UDP4_GRO] = "udp4_gro",
	[LSK_TR_IP4_INPUT] = "ip4_input",
	[LSK_TR_IP4_FILTER] = "ip4_filter",
	[LSK_TR_IP4_ROUTE] = "ip4_route",
	[LSK_TR_IP4_LOCAL] = "ip4_local",
	[LSK_TR_IP4_FORWARD] = "ip4_forward",
	[LSK_TR_GSO] = "gso",
	[LSK_TR_UDP4_INPUT] = "udp4_input",
	[LSK_TR_ICMP4] = "icmp4",
	[LSK_TR_NEIGH] = "neigh",
	[LSK_TR_TX] = "tx",
	[LSK_TR_DROP] = "drop",
	[LSK_TR_IP4_OUTPUT] = "ip4_output",
};

const char *
lsk_trace_stage_name(unsigned int stage)
{
	return stage < LSK_TR_COUNT ? stage_names[stage] : "?";
}

int
lsk_trace_register(void)
{
	static const struct rte_mbuf_dynflag flag = {
		.name = "lsk_dynflag_trace",
	};
	static const struct rte_mbuf_dynfield field = {
		.name = "lsk_dynfield_trace",
		.size = sizeof(uint32_t),
		.align = __alignof__(uint32_t),
	};
	int bit, off;

	if (lsk_trace_flag != 0)
		return 0;
	off = rte_mbuf_dynfield_register(&field);
	if (off < 0)
		return -rte_errno;
	bit = rte_mbuf_dynflag_register(&flag);
	if (bit < 0)
		return -rte_errno;
	lsk_trace_field = off;
	lsk_trace_flag = UINT64_C(1) << bit;
	return 0;
}

static inline uint32_t *
trace_field(const struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, lsk_trace_field, uint32_t *);
}

/* m's record slot in trace t, whatever its state, or NULL: not marked
 * for t. The slot may be in another worker's array. */
static struct lsk_trace_pkt *
mark_slot(struct lsk_trace *t, const struct rte_mbuf *m)
{
	uint32_t v, slot, wid;

	if (t == NULL || !lsk_traced(m))
		return NULL;
	v = *trace_field(m);
	slot = v & FIELD_SLOT_MASK;
	wid = (v >> FIELD_WID_SHIFT) & 0x3fu;
	if ((v >> FIELD_GEN_SHIFT) != t->gen || wid >= t->n_workers ||
	    slot >= LSK_TRACE_PKTS)
		return NULL;
	return &t->w[wid].pkt[slot];
}

/* m's open record slot that this worker owns, or NULL. */
static struct lsk_trace_pkt *
trace_slot(struct lsk_worker *w, const struct rte_mbuf *m)
{
	struct lsk_trace_pkt *p;

	if (!(w->obs & LSK_OBS_TRACE))
		return NULL;
	p = mark_slot(w->trace, m);
	/* a copy that carries the mark (a fragment, a segment) after its
	 * packet's trace ended finds it DONE: never written again; a slot
	 * another worker owns, or that waits in a hold queue, is not ours */
	if (p == NULL ||
	    __atomic_load_n(&p->state, __ATOMIC_ACQUIRE) != LSK_TRACE_OPEN ||
	    p->owner != w->id)
		return NULL;
	return p;
}

/* m is traced and nothing but its arrival recorded yet. */
static bool
trace_fresh(struct lsk_worker *w, const struct rte_mbuf *m)
{
	const struct lsk_trace_pkt *p = trace_slot(w, m);

	return p != NULL && p->n_recs == 1 && p->rec[0].stage == LSK_TR_RX;
}

/* Keep p: recorded as handed on, ended later (lsk_trace_kept_end). With
 * no room left (packets taken out of hold queues besides this worker's
 * own) it ends now, at the record that handed it on: never left open. */
static void
trace_keep(struct lsk_worker *w, struct lsk_trace_pkt *p)
{
	struct lsk_trace_worker *tw = &w->trace->w[w->id];

	if (likely(tw->n_kept < RTE_DIM(tw->kept))) {
		tw->kept[tw->n_kept++] = p;
		return;
	}
	tw->open--;
	__atomic_store_n(&p->state, LSK_TRACE_DONE, __ATOMIC_RELEASE);
}

/* Append a record to p, which the caller alone writes; the end takes
 * the last record when they are all used. */
static void
pkt_vrec(struct lsk_trace_pkt *p, enum lsk_trace_stage stage, bool end,
	 const char *fmt, va_list ap)
{
	struct lsk_trace_rec *r;

	if (p->n_recs < LSK_TRACE_RECS) {
		r = &p->rec[p->n_recs++];
	} else {
		/* full: the end takes the last record, so every trace shows
		 * how it ended */
		p->recs_lost++;
		if (!end)
			return;
		r = &p->rec[LSK_TRACE_RECS - 1];
	}
	r->stage = (uint8_t)stage;
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
}

static void __attribute__((format(printf, 4, 5)))
pkt_rec(struct lsk_trace_pkt *p, enum lsk_trace_stage stage, bool end,
	const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pkt_vrec(p, stage, end, fmt, ap);
	va_end(ap);
}

/* p's trace ended: the records above are whole before the control
 * thread can see it (release). */
static inline void
pkt_done(struct lsk_trace_pkt *p)
{
	__atomic_store_n(&p->state, LSK_TRACE_DONE, __ATOMIC_RELEASE);
}

static void
trace_vrec(struct lsk_worker *w, struct lsk_trace_pkt *p,
	   enum lsk_trace_stage stage, bool end, const char *fmt, va_list ap)
{
	pkt_vrec(p, stage, end, fmt, ap);
	if (end) {
		w->trace->w[w->id].open--;
		pkt_done(p);
	}
}

void
lsk_trace_rec(struct lsk_worker *w, const struct rte_mbuf *m,
	      enum lsk_trace_stage stage, bool end, const char *fmt, ...)
{
	struct lsk_trace_pkt *p = trace_slot(w, m);
	va_list ap;

	if (p == NULL)
		return;
	va_start(ap, fmt);
	trace_vrec(w, p, stage, end, fmt, ap);
	va_end(ap);
}

/* The datagrams of a list entry: m, then its train's members. */
static inline const struct rte_mbuf *
entry_next(const struct rte_mbuf *d, uint32_t meta)
{
	if (!(meta & LSK_META_COUNT_MASK) || lsk_train_next_offset < 0)
		return NULL;
	return *lsk_train_next((struct rte_mbuf *)(uintptr_t)d);
}

/* Any datagram of the entry traced: tested before a record is made, so
 * the packets not traced cost a flag test, not a formatted line. */
static inline bool
entry_traced(const struct rte_mbuf *m, uint32_t meta)
{
	const struct rte_mbuf *d;

	for (d = m; d != NULL; d = entry_next(d, meta))
		if (lsk_traced(d))
			return true;
	return false;
}

void
lsk_trace_entry(struct lsk_worker *w, const struct rte_mbuf *m,
		uint32_t meta, enum lsk_trace_stage stage, bool end,
		const char *fmt, ...)
{
	const struct rte_mbuf *d;
	va_list ap;

	for (d = m; d != NULL; d = entry_next(d, meta)) {
		struct lsk_trace_pkt *p = trace_slot(w, d);

		if (p == NULL)
			continue;
		va_start(ap, fmt);
		trace_vrec(w, p, stage, end, fmt, ap);
		va_end(ap);
	}
}

static void
mac_text(const struct rte_ether_addr *a, char *buf, size_t len)
{
	rte_ether_format_addr(buf, (uint16_t)len, a);
}

static void
ip_text(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
		 (a >> 8) & 0xff, a & 0xff);
}

/* The IPv4 header of an untagged frame in its first segment, or NULL. */
static const struct rte_ipv4_hdr *
frame_ip4(const struct rte_mbuf *m, uint32_t off)
{
	const struct rte_ipv4_hdr *ip;

	if (m->data_len < off + sizeof(*ip))
		return NULL;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, off);
	if ((ip->version_ihl >> 4) != 4)
		return NULL;
	return ip;
}

/* Source and destination ports, when m's first segment has them. */
static bool
frame_ports(const struct rte_mbuf *m, uint32_t off,
	    const struct rte_ipv4_hdr *ip, uint16_t *sp, uint16_t *dp)
{
	uint32_t hlen = (ip->version_ihl & 0xf) * 4u;
	const uint8_t *p;

	if ((ip->next_proto_id != IPPROTO_UDP &&
	     ip->next_proto_id != IPPROTO_TCP) ||
	    (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK)) != 0 ||
	    m->data_len < off + hlen + 4)
		return false;
	p = (const uint8_t *)ip + hlen;
	*sp = (uint16_t)(p[0] << 8 | p[1]);
	*dp = (uint16_t)(p[2] << 8 | p[3]);
	return true;
}

static bool
trace_match(const struct lsk_trace_match *mt, const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh;
	const struct rte_ipv4_hdr *ip;
	uint16_t type, vlan = 0, sp, dp;
	uint32_t off = RTE_ETHER_HDR_LEN;

	if (mt->fields == 0)
		return true;
	if ((mt->fields & LSK_TM_PORT) && m->port != mt->port)
		return false;
	if (m->data_len < RTE_ETHER_HDR_LEN)
		return false;
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	type = rte_be_to_cpu_16(eh->ether_type);
	if (type == RTE_ETHER_TYPE_VLAN) {
		const struct rte_vlan_hdr *vh = (const void *)(eh + 1);

		if (m->data_len < RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)
			return false;
		vlan = rte_be_to_cpu_16(vh->vlan_tci) & 0x0fff;
		type = rte_be_to_cpu_16(vh->eth_proto);
		off += RTE_VLAN_HLEN;
	}
	if ((mt->fields & LSK_TM_VLAN) && vlan != mt->vlan)
		return false;
	if (!(mt->fields & (LSK_TM_SRC | LSK_TM_DST | LSK_TM_PROTO |
			    LSK_TM_SPORT | LSK_TM_DPORT)))
		return true;
	if (type != RTE_ETHER_TYPE_IPV4 || (ip = frame_ip4(m, off)) == NULL)
		return false;
	if ((mt->fields & LSK_TM_SRC) &&
	    (rte_be_to_cpu_32(ip->src_addr) & mt->src_mask) != mt->src)
		return false;
	if ((mt->fields & LSK_TM_DST) &&
	    (rte_be_to_cpu_32(ip->dst_addr) & mt->dst_mask) != mt->dst)
		return false;
	if ((mt->fields & LSK_TM_PROTO) && ip->next_proto_id != mt->proto)
		return false;
	if (!(mt->fields & (LSK_TM_SPORT | LSK_TM_DPORT)))
		return true;
	if (!frame_ports(m, off, ip, &sp, &dp))
		return false;
	return (!(mt->fields & LSK_TM_SPORT) || sp == mt->sport) &&
	       (!(mt->fields & LSK_TM_DPORT) || dp == mt->dport);
}

void
lsk_trace_rx_burst(struct lsk_worker *w, struct rte_mbuf *const *pkts,
		   uint16_t n)
{
	struct lsk_trace *t = w->trace;
	struct lsk_trace_worker *tw = &t->w[w->id];
	uint16_t cand[LSK_BURST_MAX];
	uint64_t cur, take;
	uint16_t i, k = 0;

	for (i = 0; i < n && k < LSK_BURST_MAX; i++)
		if (!lsk_traced(pkts[i]) && trace_match(&t->match, pkts[i]))
			cand[k++] = i;
	if (k == 0)
		return;
	/* one claim for the burst's matches, not one per packet */
	cur = __atomic_load_n(&t->claimed, __ATOMIC_RELAXED);
	do {
		if (cur >= t->budget)
			return;
		take = RTE_MIN((uint64_t)k, t->budget - cur);
	} while (!__atomic_compare_exchange_n(&t->claimed, &cur, cur + take,
					      false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	for (i = 0; i < take; i++) {
		struct rte_mbuf *m = pkts[cand[i]];
		struct lsk_trace_pkt *p;
		uint32_t slot;

		/* no slot, or no recording this burst: counted, not marked */
		if (tw->used == LSK_TRACE_PKTS || !(w->obs & LSK_OBS_TRACE)) {
			__atomic_store_n(&tw->overflow, tw->overflow + take - i,
					 __ATOMIC_RELAXED);
			break;
		}
		slot = tw->used++;
		p = &tw->pkt[slot];
		p->port = m->port;
		p->n_recs = 0;
		p->recs_lost = 0;
		p->owner = (uint8_t)w->id;
		p->tsc = rte_rdtsc();
		__atomic_store_n(&p->state, LSK_TRACE_OPEN, __ATOMIC_RELAXED);
		tw->open++;
		*trace_field(m) = (uint32_t)t->gen << FIELD_GEN_SHIFT |
				  w->id << FIELD_WID_SHIFT | slot;
		m->ol_flags |= lsk_trace_flag;
		lsk_trace_rec(w, m, LSK_TR_RX, false, "port %u len %u",
			      m->port, m->pkt_len);
	}
}

void
lsk_trace_eth(struct lsk_worker *w, struct rte_mbuf *const *pkts, uint16_t n,
	      const uint8_t *members)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		uint32_t meta = (members != NULL ? members[i] : 0u)
				<< LSK_META_COUNT_SHIFT;
		const struct rte_mbuf *d;

		for (d = pkts[i]; d != NULL; d = entry_next(d, meta)) {
			const struct rte_ether_hdr *eh;
			char src[RTE_ETHER_ADDR_FMT_SIZE];
			char dst[RTE_ETHER_ADDR_FMT_SIZE];
			uint16_t type, vlan = 0;

			/* eth_input may stop short (ARP after IPv4) and be
			 * called again on the rest: each frame once */
			if (!lsk_traced(d) || !trace_fresh(w, d))
				continue;
			if (d->data_len < RTE_ETHER_HDR_LEN) {
				lsk_trace_rec(w, d, LSK_TR_ETH_INPUT, false,
					      "%u bytes: no Ethernet header",
					      d->data_len);
				continue;
			}
			eh = rte_pktmbuf_mtod(d, const struct rte_ether_hdr *);
			type = rte_be_to_cpu_16(eh->ether_type);
			if (type == RTE_ETHER_TYPE_VLAN &&
			    d->data_len >= RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN) {
				const struct rte_vlan_hdr *vh =
					(const void *)(eh + 1);

				vlan = rte_be_to_cpu_16(vh->vlan_tci) & 0xfff;
				type = rte_be_to_cpu_16(vh->eth_proto);
			}
			mac_text(&eh->src_addr, src, sizeof(src));
			mac_text(&eh->dst_addr, dst, sizeof(dst));
			lsk_trace_rec(w, d, LSK_TR_ETH_INPUT, false,
				      "%s > %s vlan %u type 0x%04x: %s", src,
				      dst, vlan, type,
				      type == RTE_ETHER_TYPE_IPV4 ? "ip4" :
				      type == RTE_ETHER_TYPE_ARP ? "arp" :
				      "other");
		}
	}
}

void
lsk_trace_ip4_input(struct lsk_worker *w, const struct lsk_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *d;

		for (d = l->pkts[i]; d != NULL; d = entry_next(d, l->meta[i])) {
			const struct rte_ipv4_hdr *ip;
			char src[16], dst[16];
			uint32_t hlen;
			bool ok;

			if (!lsk_traced(d))
				continue;
			ip = frame_ip4(d, RTE_ETHER_HDR_LEN);
			if (ip == NULL) {
				lsk_trace_rec(w, d, LSK_TR_IP4_INPUT, false,
					      "no IPv4 header");
				continue;
			}
			hlen = (ip->version_ihl & 0xf) * 4u;
			ok = hlen >= sizeof(*ip) &&
			     d->data_len >= RTE_ETHER_HDR_LEN + hlen &&
			     rte_raw_cksum(ip, hlen) == 0xffff;
			ip_text(rte_be_to_cpu_32(ip->src_addr), src,
				sizeof(src));
			ip_text(rte_be_to_cpu_32(ip->dst_addr), dst,
				sizeof(dst));
			lsk_trace_rec(w, d, LSK_TR_IP4_INPUT, false,
				      "%s > %s proto %u ttl %u len %u cksum %s",
				      src, dst, ip->next_proto_id,
				      ip->time_to_live,
				      rte_be_to_cpu_16(ip->total_length),
				      ok ? "good" : "bad");
		}
	}
}

/* Why a datagram stayed alone: what GRO needs that it lacks. */
static const char *
gro_alone_why(const struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip = frame_ip4(m, RTE_ETHER_HDR_LEN);

	if (ip == NULL || ip->next_proto_id != IPPROTO_UDP)
		return "not UDP";
	if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG |
					   RTE_IPV4_HDR_OFFSET_MASK))
		return "a fragment";
	if ((ip->version_ihl & 0xf) != 5)
		return "IP options";
	return "no datagram of its flow beside it";
}

void
lsk_trace_gro(struct lsk_worker *w, const struct lsk_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		uint32_t meta = l->meta[i], k = lsk_meta_count(meta), j = 0;
		const bool merged = (meta & LSK_META_MERGED) != 0;
		const struct rte_mbuf *d;

		if (k == 1) {
			if (lsk_traced(l->pkts[i]))
				lsk_trace_rec(w, l->pkts[i], LSK_TR_UDP4_GRO,
					      false, "alone: %s",
					      gro_alone_why(l->pkts[i]));
			continue;
		}
		for (d = l->pkts[i]; d != NULL; d = entry_next(d, meta), j++) {
			if (!lsk_traced(d))
				continue;
			/* a merged member's payload is in the head now: its
			 * own trace ends here */
			lsk_trace_rec(w, d, LSK_TR_UDP4_GRO, merged && j != 0,
				      "train of %u, position %u%s", k, j + 1,
				      merged ? (j != 0 ? ": merged into the "
					       "head" : " (merged)") : "");
		}
	}
}

void
lsk_trace_filter(struct lsk_worker *w, const struct lsk_list *l,
		 const uint32_t *verdict, const bool *drop)
{
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		uint32_t v = verdict[i];

		if (!entry_traced(l->pkts[i], l->meta[i]))
			continue;
		if (v == 0)
			lsk_trace_entry(w, l->pkts[i], l->meta[i],
					LSK_TR_IP4_FILTER, false,
					"no rule matched: accept");
		else if (!drop[v - 1])
			lsk_trace_entry(w, l->pkts[i], l->meta[i],
					LSK_TR_IP4_FILTER, false,
					"rule %u: accept", v);
		else
			lsk_trace_entry(w, l->pkts[i], l->meta[i],
					LSK_TR_IP4_FILTER, false,
					"rule %u: drop", v);
	}
}

/* The TTL ip4_forward will write, or that it expires there. */
static void
trace_forward(struct lsk_worker *w, const struct rte_mbuf *m, uint32_t meta)
{
	const struct rte_mbuf *d;

	for (d = m; d != NULL; d = entry_next(d, meta)) {
		const struct rte_ipv4_hdr *ip;

		if (!lsk_traced(d) ||
		    (ip = frame_ip4(d, RTE_ETHER_HDR_LEN)) == NULL)
			continue;
		if (ip->time_to_live <= 1)
			lsk_trace_rec(w, d, LSK_TR_IP4_FORWARD, false,
				      "ttl %u: expires here", ip->time_to_live);
		else
			lsk_trace_rec(w, d, LSK_TR_IP4_FORWARD, false,
				      "ttl %u -> %u", ip->time_to_live,
				      ip->time_to_live - 1);
	}
}

void
lsk_trace_route_cache(struct lsk_worker *w, const struct lsk_list *l,
		      const uint32_t *dst,
		      int (*probe)(const struct lsk_worker *, uint32_t))
{
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *d;
		uint8_t a;

		if (!entry_traced(l->pkts[i], l->meta[i]))
			continue;
		a = (uint8_t)(2 + probe(w, dst[i]));
		for (d = l->pkts[i]; d != NULL; d = entry_next(d, l->meta[i])) {
			struct lsk_trace_pkt *p = trace_slot(w, d);

			if (p != NULL)
				p->rcache = a;
		}
	}
}

/* "10.9.0.0/16": the FIB's prefix that dst matched, or "?". */
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
	ip_text(ip, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, depth);
}

/* The record of d, one datagram of an entry routed to next hop k. */
static void
trace_route_one(struct lsk_worker *w, const struct rte_mbuf *d,
		unsigned int k)
{
	static const char *const cache[] = { "", ", cache bypassed",
					     ", cache miss", ", cache hit" };
	const struct lsk_nexthop *nh = &w->fwd->nexthops[k];
	const struct rte_ipv4_hdr *ip = frame_ip4(d, RTE_ETHER_HDR_LEN);
	struct lsk_trace_pkt *p = trace_slot(w, d);
	uint32_t dst;
	char pfx[24], via[16];

	if (p == NULL || ip == NULL)
		return;
	dst = rte_be_to_cpu_32(ip->dst_addr);
	route_prefix(w->fwd, dst, pfx, sizeof(pfx));
	ip_text(nh->gateway ? nh->gateway : dst, via, sizeof(via));
	if (nh->type == LSK_NH_FORWARD)
		lsk_trace_rec(w, d, LSK_TR_IP4_ROUTE, false, "%s via %s port %u "
			      "mtu %u, next hop %u%s", pfx, via, nh->port,
			      nh->mtu, k, cache[p->rcache & 3]);
	else
		lsk_trace_rec(w, d, LSK_TR_IP4_ROUTE, false, "%s local%s, "
			      "next hop %u%s", pfx, nh->type ==
			      LSK_NH_LOCAL_BCAST ? " broadcast" : "", k,
			      cache[p->rcache & 3]);
}

void
lsk_trace_route(struct lsk_worker *w, const struct lsk_list *l)
{
	const struct lsk_fwd_table *t = w->fwd;
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		const unsigned int k = l->meta[i] & LSK_META_NH_MASK;
		const struct lsk_nexthop *nh = &t->nexthops[k];
		const struct rte_mbuf *d;

		if (!entry_traced(l->pkts[i], l->meta[i]))
			continue;
		if (nh->type != LSK_NH_FORWARD && nh->type != LSK_NH_LOCAL &&
		    nh->type != LSK_NH_LOCAL_BCAST)
			continue;	/* dropped: recorded by ip4_route itself */
		for (d = l->pkts[i]; d != NULL; d = entry_next(d, l->meta[i]))
			trace_route_one(w, d, k);
		/* ip4_forward takes the list next, whole: its TTL written
		 * here saves the forwarding loop a hook */
		if (nh->type == LSK_NH_FORWARD)
			trace_forward(w, l->pkts[i], l->meta[i]);
	}
}

void
lsk_trace_list(struct lsk_worker *w, const struct lsk_list *l,
	       enum lsk_trace_stage stage, bool end, const char *what)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		if (entry_traced(l->pkts[i], l->meta[i]))
			lsk_trace_entry(w, l->pkts[i], l->meta[i], stage, end,
					"%s", what);
}

void
lsk_trace_icmp(struct lsk_worker *w, const struct lsk_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *m = l->pkts[i];
		const struct rte_ipv4_hdr *ip;
		const uint8_t *ih;
		uint32_t hlen;

		if (!lsk_traced(m) ||
		    (ip = frame_ip4(m, RTE_ETHER_HDR_LEN)) == NULL)
			continue;
		hlen = (ip->version_ihl & 0xf) * 4u;
		if (m->data_len < RTE_ETHER_HDR_LEN + hlen + 4) {
			lsk_trace_rec(w, m, LSK_TR_ICMP4, true,
				      "no ICMP header: icmp.InErrors");
			continue;
		}
		ih = (const uint8_t *)ip + hlen;
		/* an echo request goes on as its reply, in place; the rest
		 * is counted and ends here */
		lsk_trace_rec(w, m, LSK_TR_ICMP4, ih[0] != 8,
			      "type %u code %u: %s", ih[0], ih[1],
			      ih[0] == 8 ? "echo reply" : "counted");
	}
}

void
lsk_trace_arp(struct lsk_worker *w, const struct lsk_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *m = l->pkts[i];
		const struct rte_arp_hdr *ah;
		char s[16], t[16];
		unsigned int op;

		if (!lsk_traced(m))
			continue;
		if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ah)) {
			lsk_trace_rec(w, m, LSK_TR_ARP, false, "%u bytes: "
				      "truncated", m->data_len);
			continue;
		}
		ah = rte_pktmbuf_mtod_offset(m, const struct rte_arp_hdr *,
					     RTE_ETHER_HDR_LEN);
		op = rte_be_to_cpu_16(ah->arp_opcode);
		ip_text(rte_be_to_cpu_32(ah->arp_data.arp_sip), s, sizeof(s));
		ip_text(rte_be_to_cpu_32(ah->arp_data.arp_tip), t, sizeof(t));
		lsk_trace_rec(w, m, LSK_TR_ARP, false, "%s %s > %s (hrd %u pro "
			      "0x%04x hln %u pln %u)", op == RTE_ARP_OP_REQUEST ?
			      "request" : op == RTE_ARP_OP_REPLY ? "reply" :
			      "op ?", s, t, rte_be_to_cpu_16(ah->arp_hardware),
			      rte_be_to_cpu_16(ah->arp_protocol), ah->arp_hlen,
			      ah->arp_plen);
	}
}

void
lsk_trace_end(struct lsk_worker *w, const struct rte_mbuf *m)
{
	struct lsk_trace_pkt *p = trace_slot(w, m);

	if (p == NULL)
		return;
	w->trace->w[w->id].open--;
	pkt_done(p);
}

void
lsk_trace_udp(struct lsk_worker *w, const struct rte_mbuf *m, uint32_t addr,
	      uint16_t port, const char *ring)
{
	struct lsk_trace_pkt *t = trace_slot(w, m);
	char a[16];

	if (t == NULL)
		return;
	ip_text(addr, a, sizeof(a));
	/* kept: a full ring ends it as udp.RcvbufErrors */
	lsk_trace_rec(w, m, LSK_TR_UDP4_INPUT, false,
		      "endpoint %s:%u, ring %s", a, port, ring);
	trace_keep(w, t);
}

void
lsk_trace_gso(struct lsk_worker *w, const struct rte_mbuf *head)
{
	const struct rte_mbuf *d;
	unsigned int k = 0, j = 0;

	if (lsk_train_next_offset < 0)
		return;
	for (d = head; d != NULL; d = *lsk_train_next((struct rte_mbuf *)
						      (uintptr_t)d))
		k++;
	for (d = head; d != NULL; d = *lsk_train_next((struct rte_mbuf *)
						      (uintptr_t)d)) {
		j++;
		if (lsk_traced(d))
			lsk_trace_rec(w, d, LSK_TR_GSO, false,
				      "segment %u of %u", j, k);
	}
}

void
lsk_trace_neigh(struct lsk_worker *w, const struct rte_mbuf *m,
		uint32_t meta, uint32_t to)
{
	char a[16];

	ip_text(to, a, sizeof(a));
	lsk_trace_entry(w, m, meta, LSK_TR_NEIGH, false,
			"%s not resolved: held for ARP, or sent if it is now",
			a);
}

static void
trace_frag_at(struct lsk_worker *w, const struct rte_mbuf *m, uint16_t mtu,
	      enum lsk_trace_stage stage)
{
	const struct rte_ipv4_hdr *ip = frame_ip4(m, RTE_ETHER_HDR_LEN);
	uint32_t hlen, data, per, k;

	if (ip == NULL)
		return;
	hlen = (ip->version_ihl & 0xf) * 4u;
	data = rte_be_to_cpu_16(ip->total_length) - hlen;
	per = mtu > hlen ? ((mtu - hlen) & ~7u) : 0;
	k = per != 0 ? (data + per - 1) / per : 0;
	lsk_trace_rec(w, m, stage, true,
		      "%u bytes over mtu %u, DF clear: fragmented into %u",
		      rte_be_to_cpu_16(ip->total_length), mtu, k);
}

void
lsk_trace_frag(struct lsk_worker *w, const struct rte_mbuf *m, uint16_t mtu)
{
	trace_frag_at(w, m, mtu, LSK_TR_IP4_FORWARD);
}

void
lsk_trace_out_frag(struct lsk_worker *w, const struct rte_mbuf *m,
		   uint16_t mtu)
{
	trace_frag_at(w, m, mtu, LSK_TR_IP4_OUTPUT);
}

void
lsk_trace_tx(struct lsk_worker *w, uint16_t port, uint16_t queue,
	     struct rte_mbuf *const *pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct lsk_trace_pkt *p = trace_slot(w, pkts[i]);

		if (p == NULL)
			continue;
		lsk_trace_rec(w, pkts[i], LSK_TR_TX, false, "port %u queue %u",
			      port, queue);
		trace_keep(w, p);
	}
}

void
lsk_trace_tx_refused(struct lsk_worker *w, uint16_t port,
		     struct rte_mbuf *const *pkts, uint16_t n)
{
	const uint16_t at = (uint16_t)(offsetof(struct lsk_stats, ports) +
		port * sizeof(struct lsk_port_stats) +
		offsetof(struct lsk_port_stats, tx_dropped) + 1);
	uint16_t i;

	for (i = 0; i < n; i++)
		lsk_trace_drop_entry(w, pkts[i], 0, at);
}

void
lsk_trace_kept_end(struct lsk_worker *w)
{
	struct lsk_trace_worker *tw;
	uint32_t k;

	if (w->trace == NULL || w->id >= w->trace->n_workers)
		return;
	tw = &w->trace->w[w->id];
	for (k = 0; k < tw->n_kept; k++) {
		struct lsk_trace_pkt *p = tw->kept[k];

		if (p->state != LSK_TRACE_OPEN)
			continue;	/* refused: ended as a drop */
		tw->open--;
		pkt_done(p);
	}
	tw->n_kept = 0;
}

void
lsk_trace_hold_entry(struct lsk_worker *w, const struct rte_mbuf *m)
{
	struct lsk_trace_pkt *p = trace_slot(w, m);

	if (p == NULL)
		return;
	w->trace->w[w->id].open--;
	/* the records so far go with m, under the entry's lock */
	__atomic_store_n(&p->state, LSK_TRACE_HELD, __ATOMIC_RELEASE);
}

void
lsk_trace_unhold_entry(struct lsk_worker *w, const struct rte_mbuf *m)
{
	struct lsk_trace *t = w->trace;
	struct lsk_trace_pkt *p = mark_slot(t, m);

	if (p == NULL ||
	    __atomic_load_n(&p->state, __ATOMIC_ACQUIRE) != LSK_TRACE_HELD)
		return;
	if (w->id >= t->n_workers) {
		/* a worker made after the trace: it keeps no records */
		pkt_rec(p, LSK_TR_NEIGH, true, "went on with worker %u, "
			"which this trace does not follow", w->id);
		pkt_done(p);
		return;
	}
	p->owner = (uint8_t)w->id;
	t->w[w->id].open++;
	__atomic_store_n(&p->state, LSK_TRACE_OPEN, __ATOMIC_RELAXED);
	/* this burst's hooks record it, whatever else this worker traces */
	w->obs |= LSK_OBS_TRACE;
}

void
lsk_trace_held_drop_entry(struct lsk_trace *t, const struct rte_mbuf *m,
			  uint16_t drop_at)
{
	struct lsk_trace_pkt *p = mark_slot(t, m);
	char name[64];

	if (p == NULL ||
	    __atomic_load_n(&p->state, __ATOMIC_ACQUIRE) != LSK_TRACE_HELD)
		return;
	lsk_drop_name(drop_at, name, sizeof(name));
	pkt_rec(p, LSK_TR_DROP, true, "%s", name);
	pkt_done(p);
}

static const char *const port_counter_names[] = {
	"rx", "tx", "rx_dropped", "tx_dropped",
};

void
lsk_drop_name(uint16_t drop_at, char *buf, size_t len)
{
	const struct lsk_counter_desc *c;
	const size_t ports = offsetof(struct lsk_stats, ports);
	unsigned int n, i;
	size_t off;

	c = lsk_counters(&n);
	for (i = 0; i < n; i++) {
		if (c[i].offset + 1 == drop_at) {
			snprintf(buf, len, "%s.%s", c[i].section, c[i].name);
			return;
		}
	}
	off = (size_t)drop_at - 1;
	if (drop_at != 0 && off >= ports &&
	    off < ports + LSK_MAX_PORTS * sizeof(struct lsk_port_stats) &&
	    (off - ports) % sizeof(struct lsk_port_stats) % sizeof(uint64_t) ==
	    0) {
		size_t field = (off - ports) % sizeof(struct lsk_port_stats) /
			       sizeof(uint64_t);

		if (field < RTE_DIM(port_counter_names)) {
			snprintf(buf, len, "port%zu.%s",
				 (off - ports) / sizeof(struct lsk_port_stats),
				 port_counter_names[field]);
			return;
		}
	}
	snprintf(buf, len, "drop");
}

void
lsk_trace_drop_entry(struct lsk_worker *w, const struct rte_mbuf *m,
		     uint32_t meta, uint16_t drop_at)
{
	char name[64];

	if (!entry_traced(m, meta))
		return;
	lsk_drop_name(drop_at, name, sizeof(name));
	lsk_trace_entry(w, m, meta, LSK_TR_DROP, true, "%s",
			strcmp(name, "drop") == 0 ? "uncounted" : name);
}
