/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour's trace record of a traced packet: what it did with it,
 * written where the outcome is decided (neigh_table.c, neigh_hold.c,
 * ip6/nd6_resolve.c), before the packet leaves this worker's hands (sent,
 * held, or dropped). Both families': the address comes as text.
 */
#include <stdio.h>

#include "core/trace.h"
#include "core/worker.h"
#include "l2/neigh.h"

static const char *
neigh_state_word(uint8_t state)
{
	switch (state) {
	case LSK_NEIGH_REACHABLE: return "reachable";
	case LSK_NEIGH_STALE: return "stale";
	case LSK_NEIGH_STATIC: return "static";
	default: return "?";
	}
}

void
lsk_neigh_trace_outcome(struct lsk_worker *w, const struct rte_mbuf *m,
			const char *a, const char *by,
			enum lsk_neigh_outcome o, uint64_t word,
			uint32_t n_held)
{
	struct rte_ether_addr mac;
	char b[RTE_ETHER_ADDR_FMT_SIZE];

	switch (o) {
	case LSK_NEIGH_SENT:
		word_mac(word, &mac);
		rte_ether_format_addr(b, sizeof(b), &mac);
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s resolved, at %s (%s): sent", a, b,
			      neigh_state_word(word_state(word)));
		break;
	case LSK_NEIGH_HELD:
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s not resolved: held for %s (%u waiting)", a,
			      by, n_held);
		break;
	case LSK_NEIGH_HELD_FULL:
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s not resolved: held for %s (%u waiting, the "
			      "oldest dropped to make room)", a, by, n_held);
		break;
	case LSK_NEIGH_FAILED_DROP:
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s failed (%s unanswered): dropped", a, by);
		break;
	case LSK_NEIGH_NO_ROOM:
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s not resolved: the hold queues are full, "
			      "dropped", a);
		break;
	case LSK_NEIGH_NO_ENTRY:
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s: no neighbour entry free, dropped", a);
		break;
	}
}
