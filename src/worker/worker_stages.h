/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stages in order (worker/worker_stages.c), for the loop
 * (worker/worker.c) only: one call a burst in list mode, one a packet in
 * single mode.
 */
#ifndef LSK_WORKER_WORKER_STAGES_H
#define LSK_WORKER_WORKER_STAGES_H

#include <stdint.h>

#include "core/worker.h"

/*
 * pkts[0..n) through eth_input and every stage after it, members (the
 * run pass's train sizes, udp/gro.h) or NULL. _traced: the same with the
 * trace's hooks, for a burst lsk_trace_on(w) says is traced.
 * Ownership: takes every mbuf of pkts.
 */
void lsk_worker_stages(struct lsk_worker *w, struct rte_mbuf **pkts,
		       uint16_t n, const uint8_t *members);
void lsk_worker_stages_traced(struct lsk_worker *w, struct rte_mbuf **pkts,
			      uint16_t n, const uint8_t *members);

#endif /* LSK_WORKER_WORKER_STAGES_H */
