/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the records: the trace the control thread publishes and
 * the workers write into (core/trace.h has the hooks; control/trace_arm.c
 * arms it, cli/trace_cmd.c reads the ended packets).
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
 * lock), so it ends as sent or dropped wherever it leaves
 * (core/trace.h, lsk_trace_hold). `trace add` and `trace clear` publish
 * a new trace (or none) and free the old one after the grace period, so
 * nothing is ever reset under a worker.
 */
#ifndef LSK_CORE_TRACE_REC_H
#define LSK_CORE_TRACE_REC_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#define LSK_TRACE_PKTS 128	/* traced packets a worker keeps */
#define LSK_TRACE_RECS 14	/* stage records a packet keeps */
#define LSK_TRACE_TEXT 96	/* one record's text */

/* the match's fields */
#define LSK_TM_SRC 1u
#define LSK_TM_DST 2u
#define LSK_TM_PROTO 4u
#define LSK_TM_SPORT 8u
#define LSK_TM_DPORT 16u
#define LSK_TM_PORT 32u
#define LSK_TM_VLAN 64u
#define LSK_TM_SRC6 128u	/* IPv6 packets only: src6/src6_depth */
#define LSK_TM_DST6 256u

struct lsk_trace_match {
	uint32_t fields;	/* LSK_TM_*: the ones to test */
	uint32_t src, src_mask, dst, dst_mask;	/* host order */
	uint16_t sport, dport, port, vlan;
	uint8_t proto;		/* IPv6: the first next header */
	uint8_t src6_depth, dst6_depth;
	uint8_t src6[16], dst6[16];	/* network order, host bits 0 */
};

struct rte_mbuf;
/* Does m, a frame as it came (VLAN tag and all), match mt? Every length
 * checked (core/trace_match.c). */
bool lsk_trace_matches(const struct lsk_trace_match *mt,
		       const struct rte_mbuf *m);

struct lsk_trace_rec {
	const char *stage;	/* the declared name (core/stage.h), "drop" */
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

#endif /* LSK_CORE_TRACE_REC_H */
