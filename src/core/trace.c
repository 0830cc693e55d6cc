/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the worker's records (core/trace.h): called only while a
 * trace is armed, so nothing here is on the path of a stack that does not
 * trace. The hooks read the headers themselves, as the stage they follow
 * saw them, so that a stage passes only what it decided.
 */
#include <arpa/inet.h>
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
#include "core/stage.h"
#include "core/tx.h"

uint64_t lsk_trace_flag;
int lsk_trace_field = -1;

/* the dynfield: the trace's generation, the worker and the slot, so a
 * mark left by an older trace, or by another worker, is not this one's */
#define FIELD_GEN_SHIFT 16
#define FIELD_WID_SHIFT 10
#define FIELD_SLOT_MASK 0x3ffu

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
struct lsk_trace_pkt *
lsk_trace_slot(struct lsk_worker *w, const struct rte_mbuf *m)
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

bool
lsk_trace_fresh(struct lsk_worker *w, const struct rte_mbuf *m)
{
	const struct lsk_trace_pkt *p = lsk_trace_slot(w, m);

	return p != NULL && p->n_recs == 1 &&
	       p->rec[0].stage == lsk_rx_node.name;
}

/* Keep p: recorded as handed on, ended later (lsk_trace_kept_end). With
 * no room left (packets taken out of hold queues besides this worker's
 * own) it ends now, at the record that handed it on: never left open. */
void
lsk_trace_keep(struct lsk_worker *w, struct lsk_trace_pkt *p)
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
pkt_vrec(struct lsk_trace_pkt *p, const char *stage, bool end,
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
	r->stage = stage;
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
}

static void __attribute__((format(printf, 4, 5)))
pkt_rec(struct lsk_trace_pkt *p, const char *stage, bool end,
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
	   const char *stage, bool end, const char *fmt, va_list ap)
{
	pkt_vrec(p, stage, end, fmt, ap);
	if (end) {
		w->trace->w[w->id].open--;
		pkt_done(p);
	}
}

static void
trace_rec_end(struct lsk_worker *w, struct lsk_trace_pkt *p, const char *stage,
	      const char *text)
{
	pkt_rec(p, stage, true, "%s", text);
	w->trace->w[w->id].open--;
	pkt_done(p);
}

void
lsk_trace_rec(struct lsk_worker *w, const struct rte_mbuf *m,
	      const struct lsk_stage_desc *s, bool end, const char *fmt, ...)
{
	struct lsk_trace_pkt *p = lsk_trace_slot(w, m);
	va_list ap;

	if (p == NULL)
		return;
	va_start(ap, fmt);
	trace_vrec(w, p, s->name, end, fmt, ap);
	va_end(ap);
}

/* The datagrams of a list entry: m, then its train's members. */
const struct rte_mbuf *
lsk_trace_entry_next(const struct rte_mbuf *d, uint32_t meta)
{
	if (!(meta & LSK_META_COUNT_MASK) || lsk_train_next_offset < 0)
		return NULL;
	return *lsk_train_next((struct rte_mbuf *)(uintptr_t)d);
}

/* Any datagram of the entry traced: tested before a record is made, so
 * the packets not traced cost a flag test, not a formatted line. */
bool
lsk_trace_entry_traced(const struct rte_mbuf *m, uint32_t meta)
{
	const struct rte_mbuf *d;

	for (d = m; d != NULL; d = lsk_trace_entry_next(d, meta))
		if (lsk_traced(d))
			return true;
	return false;
}

void
lsk_trace_entry(struct lsk_worker *w, const struct rte_mbuf *m,
		uint32_t meta, const struct lsk_stage_desc *s, bool end,
		const char *fmt, ...)
{
	const struct rte_mbuf *d;
	va_list ap;

	for (d = m; d != NULL; d = lsk_trace_entry_next(d, meta)) {
		struct lsk_trace_pkt *p = lsk_trace_slot(w, d);

		if (p == NULL)
			continue;
		va_start(ap, fmt);
		trace_vrec(w, p, s->name, end, fmt, ap);
		va_end(ap);
	}
}

void
lsk_trace_addr(uint32_t a, char *buf, size_t len)
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

const struct rte_ipv4_hdr *
lsk_trace_ip4(const struct rte_mbuf *m)
{
	return frame_ip4(m, RTE_ETHER_HDR_LEN);
}

const struct rte_ipv6_hdr *
lsk_trace_ip6(const struct rte_mbuf *m)
{
	const struct rte_ipv6_hdr *ip;

	if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip))
		return NULL;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
				     RTE_ETHER_HDR_LEN);
	if ((((const uint8_t *)ip)[0] >> 4) != 6)
		return NULL;
	return ip;
}

void
lsk_trace_addr6(const uint8_t a[16], char *buf, size_t len)
{
	if (inet_ntop(AF_INET6, a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
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

/* a's first depth bits are prefix's */
static bool
prefix6_has(const uint8_t *prefix, uint8_t depth, const uint8_t *a)
{
	unsigned int full = depth / 8u, rest = depth % 8u;

	if (memcmp(prefix, a, full) != 0)
		return false;
	return rest == 0 ||
	       ((a[full] ^ prefix[full]) & (uint8_t)(0xff00u >> rest)) == 0;
}

/* trace_match's IPv6 half: addresses, the first next header, and the
 * ports of UDP or TCP right behind the fixed header. */
static bool
trace_match6(const struct lsk_trace_match *mt, const struct rte_mbuf *m,
	     uint32_t off)
{
	const struct rte_ipv6_hdr *ip;
	const uint8_t *p;

	if ((mt->fields & (LSK_TM_SRC | LSK_TM_DST)) ||
	    m->data_len < off + sizeof(*ip))
		return false;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, off);
	if ((((const uint8_t *)ip)[0] >> 4) != 6)
		return false;
	if ((mt->fields & LSK_TM_SRC6) &&
	    !prefix6_has(mt->src6, mt->src6_depth, ip->src_addr))
		return false;
	if ((mt->fields & LSK_TM_DST6) &&
	    !prefix6_has(mt->dst6, mt->dst6_depth, ip->dst_addr))
		return false;
	if ((mt->fields & LSK_TM_PROTO) && ip->proto != mt->proto)
		return false;
	if (!(mt->fields & (LSK_TM_SPORT | LSK_TM_DPORT)))
		return true;
	if ((ip->proto != IPPROTO_UDP && ip->proto != IPPROTO_TCP) ||
	    m->data_len < off + sizeof(*ip) + 4)
		return false;
	p = (const uint8_t *)(ip + 1);
	return (!(mt->fields & LSK_TM_SPORT) ||
		(uint16_t)(p[0] << 8 | p[1]) == mt->sport) &&
	       (!(mt->fields & LSK_TM_DPORT) ||
		(uint16_t)(p[2] << 8 | p[3]) == mt->dport);
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
			    LSK_TM_SPORT | LSK_TM_DPORT | LSK_TM_SRC6 |
			    LSK_TM_DST6)))
		return true;
	if (type == RTE_ETHER_TYPE_IPV6)
		return trace_match6(mt, m, off);
	if ((mt->fields & (LSK_TM_SRC6 | LSK_TM_DST6)) ||
	    type != RTE_ETHER_TYPE_IPV4 || (ip = frame_ip4(m, off)) == NULL)
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
		lsk_trace_rec(w, m, &lsk_rx_node, false, "port %u len %u",
			      m->port, m->pkt_len);
	}
}

void
lsk_trace_end(struct lsk_worker *w, const struct rte_mbuf *m)
{
	struct lsk_trace_pkt *p = lsk_trace_slot(w, m);

	if (p == NULL)
		return;
	w->trace->w[w->id].open--;
	pkt_done(p);
}

void
lsk_trace_tx(struct lsk_worker *w, uint16_t port, uint16_t queue,
	     struct rte_mbuf *const *pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct lsk_trace_pkt *p = lsk_trace_slot(w, pkts[i]);

		if (p == NULL)
			continue;
		lsk_trace_rec(w, pkts[i], &lsk_tx_stage, false,
			      "port %u queue %u", port, queue);
		lsk_trace_keep(w, p);
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
	struct lsk_trace_pkt *p = lsk_trace_slot(w, m);

	if (p == NULL)
		return;
	w->trace->w[w->id].open--;
	/* the records so far go with m, under the entry's lock */
	__atomic_store_n(&p->state, LSK_TRACE_HELD, __ATOMIC_RELEASE);
}

void
lsk_trace_unhold_entry(struct lsk_worker *w, const struct rte_mbuf *m,
		       const struct lsk_stage_desc *hold)
{
	struct lsk_trace *t = w->trace;
	struct lsk_trace_pkt *p = mark_slot(t, m);

	if (p == NULL ||
	    __atomic_load_n(&p->state, __ATOMIC_ACQUIRE) != LSK_TRACE_HELD)
		return;
	if (w->id >= t->n_workers) {
		/* a worker made after the trace: it keeps no records */
		pkt_rec(p, hold->name, true, "went on with worker %u, "
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
	pkt_rec(p, "drop", true, "%s", name);
	pkt_done(p);
}

static const char *const port_counter_names[] = {
	"rx", "tx", "rx_dropped", "tx_dropped",
};

void
lsk_drop_name(uint16_t drop_at, char *buf, size_t len)
{
	const size_t ports = offsetof(struct lsk_stats, ports);
	const size_t off = (size_t)drop_at - 1;
	const struct lsk_counter_desc *c =
		drop_at != 0 ? lsk_counter_at(off) : NULL;

	if (c != NULL) {
		snprintf(buf, len, "%s.%s", c->section, c->name);
		return;
	}
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
	const struct rte_mbuf *d;
	char name[64];

	if (!lsk_trace_entry_traced(m, meta))
		return;
	lsk_drop_name(drop_at, name, sizeof(name));
	for (d = m; d != NULL; d = lsk_trace_entry_next(d, meta)) {
		struct lsk_trace_pkt *p = lsk_trace_slot(w, d);

		if (p != NULL)
			trace_rec_end(w, p, "drop", strcmp(name, "drop") == 0 ?
				      "uncounted" : name);
	}
}
