/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Stage accounting: the calls, packets and sampled cycles of every stage.
 */
#ifndef LSK_CORE_STAGE_H
#define LSK_CORE_STAGE_H

#include <stdint.h>

#include <rte_cycles.h>

#include "core/worker.h"

/*
 * Stage counters: calls and packets of every run, cycles of one run in
 * LSK_STAGE_SAMPLE (and of the first), scaled up when read. Reading the
 * TSC twice per stage per packet would cost single mode more than its
 * stages do and make every list/single ratio flatter than it is.
 */
#define LSK_STAGE_SAMPLE 16

static inline uint64_t
lsk_stage_begin(const struct lsk_worker *w, enum lsk_stage_id id)
{
	if (w->stats.stages[id].calls % LSK_STAGE_SAMPLE != 0)
		return 0;
	return rte_rdtsc();
}

static inline void
lsk_stage_end(struct lsk_worker *w, enum lsk_stage_id id, uint32_t n,
	      uint64_t start)
{
	struct lsk_stage_stats *s = &w->stats.stages[id];

	s->calls++;
	s->packets += n;
	if (start != 0) {
		s->cycles += rte_rdtsc() - start;
		w->stage_timed[id] += n;
	}
}

/*
 * Time one call of stage id: call is the stage call (any statement), n
 * the packets it handled, evaluated after it (a length taken before the
 * call, or what the call returned). Every stage call goes through this,
 * the loopback of local sends (ip4/ip4_output.c) included, so the stage
 * counters count every packet a stage sees.
 */
#define LSK_STAGE_CALL(w, id, n, call) do {				\
	uint64_t lsk_stage_t_ = lsk_stage_begin((w), (id));		\
	call;								\
	lsk_stage_end((w), (id), (uint32_t)(n), lsk_stage_t_);		\
} while (0)

/* Work of a stage done ahead of its call in the same burst: its cycles
 * count with the call that follows (sampled alike), no call of its own. */
static inline void
lsk_stage_ahead(struct lsk_worker *w, enum lsk_stage_id id, uint64_t start)
{
	if (start != 0)
		w->stats.stages[id].cycles += rte_rdtsc() - start;
}

/*
 * A stage declares itself once, at the top of its file:
 *
 *	LSK_STAGE_DECLARE(lsk_ip4_route_stage,
 *		.name = "ip4_route", .id = LSK_STAGE_IP4_ROUTE,
 *		.next = LSK_NEXT("ip4_local", "ip4_forward", "icmp"),
 *		.drops = route_drops, .n_drops = RTE_DIM(route_drops),
 *		.trace = route_trace);
 *
 * its name (the stats' "stages" names, `show runtime`, the trace's
 * records), its stats slot (enum lsk_stage_id, include/listack/stats.h;
 * LSK_STAGE_NONE for a node that is not timed: rx, the hold queue, gso,
 * what feeds ip4_output), the nodes it hands packets to (`show pipeline`
 * draws them), its drop reasons (core/drop.h: `show errors` groups their
 * counters by stage) and its trace formatter. The worker module lists
 * the declarations in pipeline order (worker/pipeline.c); nothing else
 * names a stage. A declaration is read by the views and the trace, never
 * per packet: a stage calls its own functions directly.
 *
 * A stage owns its input list's mbufs for the call. Most leave the list
 * empty: each mbuf is passed on in an output list, sent, queued, held or
 * freed and counted. Four compact their input in place and leave what
 * they pass in it for the next stage: ip4_input, ip4_filter and
 * ip4_route (which also moves locals to its local list) drop entries,
 * udp4_gro folds joined datagrams into their trains' heads. eth_input
 * takes an array, not a list, and may stop short (ARP after IPv4): it
 * returns how many it took. Each prototype's comment ends with its
 * Ownership line (docs/ARCHITECTURE.md).
 */
struct lsk_drop;
struct lsk_list;

/* A stage's trace formatter: records, for each traced packet of l, what
 * the stage decided (arg: what else it decided on, the stage's own). */
typedef void lsk_trace_fmt_t(struct lsk_worker *w, const struct lsk_list *l,
			     const void *arg);

#define LSK_STAGE_NONE (-1)

struct lsk_stage_desc {
	const char *name;
	int id;				/* enum lsk_stage_id or LSK_STAGE_NONE */
	const char *const *next;	/* the nodes it hands to, NULL-ended */
	const struct lsk_drop *drops;	/* its reasons; a row with no
					 * counter (a verdict's hole) is none */
	unsigned int n_drops;
	lsk_trace_fmt_t *trace;		/* NULL: it records nothing */
};

/* core's own node on the way in (core/stage.c) */
extern const struct lsk_stage_desc lsk_rx_node;

#define LSK_NEXT(...) ((const char *const []){ __VA_ARGS__, NULL })
#define LSK_STAGE_DECLARE(var, ...) \
	const struct lsk_stage_desc var = { __VA_ARGS__ }

/* A stage's record formatter called when a trace is on: the one branch
 * a list pays (the call is direct: s is the stage's own const object). */
#define LSK_STAGE_TRACE(w, s, l, arg) do {				\
	if (lsk_trace_on(w))						\
		(s)->trace((w), (l), (arg));				\
} while (0)

#endif /* LSK_CORE_STAGE_H */
