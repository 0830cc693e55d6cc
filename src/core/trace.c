/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the worker's records (core/trace.h): called only while a
 * trace is armed, so nothing here is on the path of a stack that does not
 * trace. The hooks read the headers themselves, as the stage they follow
 * saw them, so that a stage passes only what it decided.
 *
 * Here: the mark a traced mbuf carries, the records and how a packet's
 * trace ends (sent, held, dropped); which packets a trace takes, and the
 * header peeks the formatters use, are core/trace_match.c.
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
lsk_trace_rx_burst(struct lsk_worker *w, struct rte_mbuf *const *pkts,
		   uint16_t n)
{
	struct lsk_trace *t = w->trace;
	struct lsk_trace_worker *tw = &t->w[w->id];
	uint16_t cand[LSK_BURST_MAX];
	uint64_t cur, take;
	uint16_t i, k = 0;

	for (i = 0; i < n && k < LSK_BURST_MAX; i++)
		if (!lsk_traced(pkts[i]) &&
		    lsk_trace_matches(&t->match, pkts[i]))
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
