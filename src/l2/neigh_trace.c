/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour's trace record of a traced packet: what it did with it,
 * written where the outcome is decided (neigh_table.c), before the
 * packet leaves this worker's hands (sent, held, or dropped).
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
			uint32_t addr, enum lsk_neigh_outcome o, uint64_t word,
			uint32_t n_held)
{
	struct rte_ether_addr mac;
	char a[16], b[RTE_ETHER_ADDR_FMT_SIZE];

	lsk_trace_addr(addr, a, sizeof(a));
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
			      "%s not resolved: held for ARP (%u waiting)", a,
			      n_held);
		break;
	case LSK_NEIGH_HELD_FULL:
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s not resolved: held for ARP (%u waiting, the "
			      "oldest dropped to make room)", a, n_held);
		break;
	case LSK_NEIGH_FAILED_DROP:
		lsk_trace_rec(w, m, &lsk_neigh_node, false,
			      "%s failed (ARP unanswered): dropped", a);
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
