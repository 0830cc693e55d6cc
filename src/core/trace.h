/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the worker's side: the trace the control thread
 * published (s->trace, loaded with the tables once per burst) and the
 * record helpers every stage calls for a traced packet.
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
 * Records live in the published trace: per worker a fixed number of
 * packets, each a fixed number of stage records. A packet with no slot
 * left is counted (overflow), a record with no room left too
 * (recs_lost); the worker never waits. A packet's records are written by
 * its worker only, and published whole by a release store of its state
 * when its trace ends (sent, dropped, delivered): the control thread
 * reads only ended packets, which are never written again. A packet
 * held for ARP (the neighbour table's hold queue) is no worker's while
 * it waits: whoever takes it out, a worker or the control thread, owns
 * its records from then on, under the mbuf's own hand-over (the entry's
 * lock), so it ends as sent or dropped wherever it leaves (below,
 * lsk_trace_hold). `trace add`
 * and `trace clear` publish a new trace (or none) and free the old one
 * after the grace period, so nothing is ever reset under a worker.
 *
 * Built with -DLSK_TRACE=0 (meson -Dtrace=false) every hook compiles to
 * nothing: the baseline the hooks' cost is measured against.
 */
#ifndef LSK_CORE_TRACE_H
#define LSK_CORE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#include "listack/listack.h"
#include "core/worker.h"

#ifndef LSK_TRACE
#define LSK_TRACE 1
#endif

#define LSK_TRACE_PKTS 128	/* traced packets a worker keeps */
#define LSK_TRACE_RECS 14	/* stage records a packet keeps */
#define LSK_TRACE_TEXT 96	/* one record's text */

/* What records a line (the stages of listack.h and a few more). */
enum lsk_trace_stage {
	LSK_TR_RX,
	LSK_TR_ETH_INPUT,
	LSK_TR_ARP,
	LSK_TR_UDP4_GRO,
	LSK_TR_IP4_INPUT,
	LSK_TR_IP4_FILTER,
	LSK_TR_IP4_ROUTE,
	LSK_TR_IP4_LOCAL,
	LSK_TR_IP4_FORWARD,
	LSK_TR_GSO,
	LSK_TR_UDP4_INPUT,
	LSK_TR_ICMP4,
	LSK_TR_NEIGH,
	LSK_TR_TX,
	LSK_TR_DROP,
	LSK_TR_IP4_OUTPUT,
	LSK_TR_COUNT,
};

/* the match's fields */
#define LSK_TM_SRC 1u
#define LSK_TM_DST 2u
#define LSK_TM_PROTO 4u
#define LSK_TM_SPORT 8u
#define LSK_TM_DPORT 16u
#define LSK_TM_PORT 32u
#define LSK_TM_VLAN 64u

struct lsk_trace_match {
	uint32_t fields;	/* LSK_TM_*: the ones to test */
	uint32_t src, src_mask, dst, dst_mask;	/* host order */
	uint16_t sport, dport, port, vlan;
	uint8_t proto;
};

struct lsk_trace_rec {
	uint8_t stage;		/* enum lsk_trace_stage */
	char text[LSK_TRACE_TEXT];
};

/* states of a packet's slot */
#define LSK_TRACE_OPEN 1u	/* its owner records */
#define LSK_TRACE_DONE 2u	/* ended: never written again */
#define LSK_TRACE_HELD 3u	/* in a hold queue: nobody's until it leaves */

struct lsk_trace_pkt {
	uint32_t state;		/* 0, OPEN, HELD, DONE (release store) */
	uint16_t port;		/* where it came in */
	uint16_t n_recs;
	uint32_t recs_lost;	/* records that found no room */
	uint8_t rcache;		/* the route cache's answer: 0 none (off),
				 * 1 bypassed, 2 miss, 3 hit */
	uint8_t owner;		/* OPEN: the worker that records (and counts
				 * it open): the one that claimed it, or
				 * took it out of a hold queue */
	uint64_t tsc;
	struct lsk_trace_rec rec[LSK_TRACE_RECS];
};

/* One worker's records: written by that worker only, but for the packets
 * another thread took out of a hold queue (then written by it alone). */
struct lsk_trace_worker {
	uint32_t used;		/* slots handed out */
	uint32_t open;		/* OPEN slots this worker owns, any array's */
	uint64_t overflow;	/* claimed packets with no slot (relaxed) */
	/* recorded as handed on (tx, a UDP ring) but not ended yet: what
	 * the port or the ring refuses ends as a drop, the rest by
	 * lsk_trace_kept_end, by slot, once the mbufs are no longer ours
	 * (a slot of another worker's array when it came out of a hold
	 * queue here) */
	uint32_t n_kept;
	struct lsk_trace_pkt *kept[LSK_TRACE_PKTS];
	struct lsk_trace_pkt pkt[LSK_TRACE_PKTS];
} __rte_cache_aligned;

/*
 * An armed trace as workers see it: made by the control thread before it
 * is published, never changed after but for claimed (atomic) and each
 * worker's own records.
 */
struct lsk_trace {
	uint16_t gen;		/* new for each trace: marks of an old one
				 * are not this one's */
	uint64_t budget;	/* packets to trace */
	uint64_t claimed;	/* atomic: packets claimed so far */
	struct lsk_trace_match match;
	unsigned int n_workers;	/* w[] holds this many */
	struct lsk_trace_worker w[];
};

extern uint64_t lsk_trace_flag;	/* the dynflag's bit; 0: never armed */
extern int lsk_trace_field;	/* the dynfield's offset */

/* Register the dynflag and dynfield (control thread, before the first
 * trace is published). 0 or a negative errno. */
int lsk_trace_register(void);

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

/*
 * Append a record for m, traced or not (the call tests); end closes
 * its trace (sent, dropped, delivered). m's train members, if meta says
 * it has any, get the same record with lsk_trace_entry.
 * Ownership: m stays the caller's.
 */
void lsk_trace_rec(struct lsk_worker *w, const struct rte_mbuf *m,
		   enum lsk_trace_stage stage, bool end, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void lsk_trace_entry(struct lsk_worker *w, const struct rte_mbuf *m,
		     uint32_t meta, enum lsk_trace_stage stage, bool end,
		     const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * The stages' hooks, each called only when lsk_trace_on (core/trace.c
 * reads the headers itself, so a stage passes only what it decided).
 * Ownership: every mbuf stays the caller's.
 */
void lsk_trace_rx_burst(struct lsk_worker *w, struct rte_mbuf *const *pkts,
			uint16_t n);
void lsk_trace_eth(struct lsk_worker *w, struct rte_mbuf *const *pkts,
		   uint16_t n, const uint8_t *members);
void lsk_trace_ip4_input(struct lsk_worker *w, const struct lsk_list *l);
void lsk_trace_gro(struct lsk_worker *w, const struct lsk_list *l);
void lsk_trace_filter(struct lsk_worker *w, const struct lsk_list *l,
		      const uint32_t *verdict, const bool *drop);
/* probe: the route cache's answer for a destination (-1 miss, 0 or 1
 * hit; ip4/route_cache.c), asked only of traced packets. */
void lsk_trace_route_cache(struct lsk_worker *w, const struct lsk_list *l,
			   const uint32_t *dst,
			   int (*probe)(const struct lsk_worker *, uint32_t));
/* Before ip4_route: what the route cache answers, kept for the record
 * lsk_trace_route makes. After ip4_route: l's entries carry their next
 * hop in the meta; the record names the prefix that matched (the
 * published FIB's RIB: never changed while a worker can read it), the
 * next hop's address, port and MTU, and the cache's answer. */
void lsk_trace_route(struct lsk_worker *w, const struct lsk_list *l);
void lsk_trace_list(struct lsk_worker *w, const struct lsk_list *l,
		    enum lsk_trace_stage stage, bool end, const char *what);
void lsk_trace_icmp(struct lsk_worker *w, const struct lsk_list *l);
/* ARP: each traced packet's operation and addresses (not ended). */
void lsk_trace_arp(struct lsk_worker *w, const struct lsk_list *l);
/* m's trace ends with its last record (ARP that answers nothing). */
void lsk_trace_end(struct lsk_worker *w, const struct rte_mbuf *m);
/* udp4_input: m (traced or not) goes to the endpoint addr:port, its
 * ring named ring; kept until its delivery ends it. */
void lsk_trace_udp(struct lsk_worker *w, const struct rte_mbuf *m,
		   uint32_t addr, uint16_t port, const char *ring);
void lsk_trace_gso(struct lsk_worker *w, const struct rte_mbuf *head);
/* m, whose next hop to is not resolved, goes to the neighbour table. */
void lsk_trace_neigh(struct lsk_worker *w, const struct rte_mbuf *m,
		     uint32_t meta, uint32_t to);
/* m, over mtu with DF clear, is sent as fragments: its trace ends. */
void lsk_trace_frag(struct lsk_worker *w, const struct rte_mbuf *m,
		    uint16_t mtu);
/* The same for what the stack sends (an echo reply), in ip4_output. */
void lsk_trace_out_frag(struct lsk_worker *w, const struct rte_mbuf *m,
			uint16_t mtu);
/* The name of a record's stage (enum lsk_trace_stage). */
const char *lsk_trace_stage_name(unsigned int stage);
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
void lsk_trace_unhold_entry(struct lsk_worker *w, const struct rte_mbuf *m);
void lsk_trace_held_drop_entry(struct lsk_trace *t, const struct rte_mbuf *m,
			       uint16_t drop_at);

static inline void
lsk_trace_hold(struct lsk_worker *w, const struct rte_mbuf *m)
{
	if (lsk_trace_on(w) && lsk_traced(m))
		lsk_trace_hold_entry(w, m);
}

/* Slow path: tested on the trace, not on the observe word, which is off
 * on a worker that traces nothing of its own. */
static inline void
lsk_trace_unhold(struct lsk_worker *w, const struct rte_mbuf *m)
{
#if LSK_TRACE
	if (unlikely(w->trace != NULL) && lsk_traced(m))
		lsk_trace_unhold_entry(w, m);
#else
	(void)w;
	(void)m;
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
