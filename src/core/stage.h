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
 * The stages, in pipeline order (core/worker.c runs them), are declared
 * in their layers' headers: l2/l2.h, udp/gro.h, ip4/ip4.h, udp/udp.h.
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

#endif /* LSK_CORE_STAGE_H */
