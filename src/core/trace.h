/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the worker's side: the trace the control thread
 * published (sh->trace, core/shared.h; loaded with the tables once per
 * burst) and the record helpers every stage calls for a traced packet.
 *
 * Cost when no trace is armed: each stage's hook is one predictable
 * branch per list on the worker's observe word (w->obs), loaded with the
 * tables; nothing is looked at per packet. Armed, the RX hook marks the
 * packets it claims with an mbuf dynamic flag (every datagram its own
 * mbuf, so each member of a train stays its own traced packet) and a
 * dynamic field naming its record slot; the stages' hooks walk their
 * list and record only marked packets (out of line, core/trace.c).
 *
 * Budget: the workers claim from one shared atomic (claimed < budget)
 * once per burst, for all the burst's matching packets at once, never
 * per packet.
 *
 * Records: core/trace_rec.h.
 *
 * Built with -DLSK_TRACE=0 (meson -Dtrace=false) every hook compiles to
 * nothing: the baseline the hooks' cost is measured against.
 */
#ifndef LSK_CORE_TRACE_H
#define LSK_CORE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "listack/listack.h"
#include "core/worker.h"
#include "core/trace_rec.h"

#ifndef LSK_TRACE
#define LSK_TRACE 1
#endif

/* The trace for this burst (or flush), and its bit of the observe word:
 * set while it has budget left or packets of this worker still open. */
static inline void
lsk_trace_load(struct lsk_worker *w, struct lsk_trace *const *slot)
{
#if LSK_TRACE
	struct lsk_trace *t = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	w->trace = t;
	w->obs &= ~(LSK_OBS_TRACE | LSK_OBS_TRACE_RX);
	if (unlikely(t != NULL) && w->id < t->n_workers) {
		const struct lsk_trace_worker *tw = &t->w[w->id];
		const bool more = __atomic_load_n(&t->claimed,
						  __ATOMIC_RELAXED) < t->budget;

		/* claiming goes on while budget is left (past the buffer,
		 * to count the overflow); the stages record only while
		 * this worker has a slot free or a packet open */
		if (more)
			w->obs |= LSK_OBS_TRACE_RX;
		if (tw->open != 0 || (more && tw->used < LSK_TRACE_PKTS))
			w->obs |= LSK_OBS_TRACE;
	}
#else
	(void)slot;
	w->trace = NULL;
	w->obs &= ~(LSK_OBS_TRACE | LSK_OBS_TRACE_RX);
#endif
}

/* Is a trace on for this list? The one branch a stage pays. */
static inline bool
lsk_trace_on(const struct lsk_worker *w)
{
#if LSK_TRACE
	return unlikely(w->obs & LSK_OBS_TRACE);
#else
	(void)w;
	return false;
#endif
}

/* Is m one of the packets being traced (only asked when on)? */
static inline bool
lsk_traced(const struct rte_mbuf *m)
{
	return (m->ol_flags & lsk_trace_flag) != 0;
}

struct lsk_stage_desc;

/*
 * Append stage s's record for m, traced or not (the call tests); end
 * closes its trace (sent, dropped, delivered). m's train members, if
 * meta says it has any, get the same record with lsk_trace_entry. Each
 * stage formats its own records (its declaration's formatter), with
 * these and the helpers below.
 * Ownership: m stays the caller's.
 */
void lsk_trace_rec(struct lsk_worker *w, const struct rte_mbuf *m,
		   const struct lsk_stage_desc *s, bool end, const char *fmt,
		   ...) __attribute__((format(printf, 5, 6)));
void lsk_trace_entry(struct lsk_worker *w, const struct rte_mbuf *m,
		     uint32_t meta, const struct lsk_stage_desc *s, bool end,
		     const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* m's open record slot this worker owns, or NULL (not traced here). */
struct lsk_trace_pkt *lsk_trace_slot(struct lsk_worker *w,
				     const struct rte_mbuf *m);
/* m is traced and nothing but its arrival recorded yet. */
bool lsk_trace_fresh(struct lsk_worker *w, const struct rte_mbuf *m);
/* Keep p, recorded as handed on (a UDP ring): it ends with
 * lsk_trace_kept_end, or as a drop if it is refused. */
void lsk_trace_keep(struct lsk_worker *w, struct lsk_trace_pkt *p);
/* Any datagram of the list entry m traced? */
bool lsk_trace_entry_traced(const struct rte_mbuf *m, uint32_t meta);
/* The datagram after d in its entry (a train's next member), or NULL. */
const struct rte_mbuf *lsk_trace_entry_next(const struct rte_mbuf *d,
					    uint32_t meta);
/* The IPv4 header of an untagged frame in its first segment, or NULL. */
const struct rte_ipv4_hdr *lsk_trace_ip4(const struct rte_mbuf *m);
/* "10.0.0.1" of a host-order address (buf: 16 bytes). */
void lsk_trace_addr(uint32_t a, char *buf, size_t len);
/* The IPv6 header of an untagged frame in its first segment, or NULL. */
const struct rte_ipv6_hdr *lsk_trace_ip6(const struct rte_mbuf *m);
/* "2001:db8::1" of an address as on the wire (buf: LSK_TRACE_ADDR6_LEN). */
#define LSK_TRACE_ADDR6_LEN 46
void lsk_trace_addr6(const uint8_t a[16], char *buf, size_t len);

/*
 * The trace's own records (core/trace.c: the RX claim, the end).
 * Ownership: every mbuf stays the caller's.
 */
void lsk_trace_rx_burst(struct lsk_worker *w, struct rte_mbuf *const *pkts,
			uint16_t n);
/* m's trace ends with its last record (ARP that answers nothing). */
void lsk_trace_end(struct lsk_worker *w, const struct rte_mbuf *m);
/* pkts[0..n) handed to port's queue: recorded, kept (not ended). */
void lsk_trace_tx(struct lsk_worker *w, uint16_t port, uint16_t queue,
		  struct rte_mbuf *const *pkts, uint16_t n);
/* What port refused of them: ends as portN.tx_dropped. */
void lsk_trace_tx_refused(struct lsk_worker *w, uint16_t port,
			  struct rte_mbuf *const *pkts, uint16_t n);
/* The kept packets not refused end (by slot: their mbufs may be gone). */
void lsk_trace_kept_end(struct lsk_worker *w);
/* "ip.InHdrErrors", "port1.tx_dropped": the counter at drop_at
 * (core/drop.h's place), or "drop". */
void lsk_drop_name(uint16_t drop_at, char *buf, size_t len);
/* A drop whose first counter is drop_at (core/drop.h's place). */
void lsk_trace_drop_entry(struct lsk_worker *w, const struct rte_mbuf *m,
			  uint32_t meta, uint16_t drop_at);

/*
 * The hold queue's hand-over (l2/neigh_table.c, l2/neigh_hold.c). m goes
 * into a hold queue on w: its trace (open, w's) is nobody's until it
 * leaves. m leaves one on w (sent, or dropped with a counted reason):
 * its trace, held, is w's from now on, recorded even when w traces
 * nothing else. m leaves one dropped on a thread that may be no worker
 * (the control thread's neigh flush, del and static entries, an
 * eviction, the teardown), the trace published in *slot current: its
 * trace, held, ends in drop with drop_at's name (core/drop.h's place).
 * Ownership: m stays the caller's.
 */
void lsk_trace_hold_entry(struct lsk_worker *w, const struct rte_mbuf *m);
void lsk_trace_unhold_entry(struct lsk_worker *w, const struct rte_mbuf *m,
			    const struct lsk_stage_desc *hold);
void lsk_trace_held_drop_entry(struct lsk_trace *t, const struct rte_mbuf *m,
			       uint16_t drop_at);

static inline void
lsk_trace_hold(struct lsk_worker *w, const struct rte_mbuf *m)
{
	if (lsk_trace_on(w) && lsk_traced(m))
		lsk_trace_hold_entry(w, m);
}

/* Slow path: tested on the trace, not on the observe word, which is off
 * on a worker that traces nothing of its own. hold: the hold queue's
 * node, whose record says when no worker follows m any more. */
static inline void
lsk_trace_unhold(struct lsk_worker *w, const struct rte_mbuf *m,
		 const struct lsk_stage_desc *hold)
{
#if LSK_TRACE
	if (unlikely(w->trace != NULL) && lsk_traced(m))
		lsk_trace_unhold_entry(w, m, hold);
#else
	(void)w;
	(void)m;
	(void)hold;
#endif
}

static inline void
lsk_trace_held_drop(struct lsk_trace *const *slot, const struct rte_mbuf *m,
		    uint16_t drop_at)
{
#if LSK_TRACE
	if (unlikely(lsk_traced(m)))
		lsk_trace_held_drop_entry(__atomic_load_n(slot,
							  __ATOMIC_ACQUIRE),
					  m, drop_at);
#else
	(void)slot;
	(void)m;
	(void)drop_at;
#endif
}

/* RX: claim and mark the burst's matching packets. */
static inline void
lsk_trace_rx(struct lsk_worker *w, struct rte_mbuf *const *pkts, uint16_t n)
{
#if LSK_TRACE
	if (unlikely(w->obs & LSK_OBS_TRACE_RX))
		lsk_trace_rx_burst(w, pkts, n);
#else
	(void)w;
	(void)pkts;
	(void)n;
#endif
}

/* Drop: the entry's trace ends with its counter's name. */
static inline void
lsk_trace_drop(struct lsk_worker *w, const struct rte_mbuf *m, uint32_t meta,
	       uint16_t drop_at)
{
	if (lsk_trace_on(w))
		lsk_trace_drop_entry(w, m, meta, drop_at);
}

#endif /* LSK_CORE_TRACE_H */
