/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stages in order, for one list of any length: eth_input, then
 * ARP, IPv4's stages and IPv6's, each a timed stage call
 * (LSK_STAGE_CALL). worker/worker.c calls it for a burst (list mode) or
 * for each packet (single mode), after the run pass and the fast paths.
 * It runs in two copies, with the trace's hooks and without, so that a
 * stack that traces nothing pays no test per list.
 */
#include <rte_mbuf.h>

#include "core/worker.h"
#include "core/stage.h"
#include "core/trace.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "udp/udp.h"
#include "worker/worker_stages.h"

/* From the IPv4 list on. trace: lsk_trace_on(w), constant per burst:
 * the worker runs a copy of this (and of worker_run_stages) with the
 * trace hooks and one without, chosen once per burst (lsk_worker_input),
 * so a stack that traces nothing pays no test per list here. */
static __rte_always_inline void
worker_run_ip4(struct lsk_worker *w, const bool trace)
{
	uint16_t n;

	if (w->set.gro_flows != 0) {
		n = (uint16_t)w->ip4.n;
		LSK_STAGE_CALL(w, LSK_STAGE_UDP4_GRO, n,
			       lsk_udp4_gro(w, &w->ip4));
		if (trace)	/* every member its own record */
			lsk_udp4_gro_stage.trace(w, &w->ip4, NULL);
	}

	n = (uint16_t)w->ip4.n;
	if (trace)	/* ip4_input's record: the header as it came */
		lsk_ip4_input_stage.trace(w, &w->ip4, NULL);
	LSK_STAGE_CALL(w, LSK_STAGE_IP4_INPUT, n, lsk_ip4_input(w, &w->ip4));
	if (unlikely(w->ip4.n == 0))
		return;

	if (w->filter != NULL) {
		n = (uint16_t)w->ip4.n;
		LSK_STAGE_CALL(w, LSK_STAGE_IP4_FILTER, n,
			       lsk_ip4_filter(w, &w->ip4));
		if (unlikely(w->ip4.n == 0))
			return;
	}

	n = (uint16_t)w->ip4.n;
	LSK_STAGE_CALL(w, LSK_STAGE_IP4_ROUTE, n,
		       lsk_ip4_route(w, &w->ip4, &w->local));
	if (trace) {	/* ip4_route's: the next hop in the meta */
		lsk_ip4_route_stage.trace(w, &w->ip4, NULL);
		lsk_ip4_route_stage.trace(w, &w->local, NULL);
	}

	if (w->local.n) {
		n = (uint16_t)w->local.n;
		LSK_STAGE_CALL(w, LSK_STAGE_IP4_LOCAL, n,
			       lsk_ip4_local(w, &w->local, &w->udp4, &w->icmp4));
		if (w->udp4.n) {
			n = (uint16_t)w->udp4.n;
			LSK_STAGE_CALL(w, LSK_STAGE_UDP4_INPUT, n,
				       lsk_udp4_input(w, &w->udp4));
		}
		if (w->icmp4.n) {
			n = (uint16_t)w->icmp4.n;
			LSK_STAGE_CALL(w, LSK_STAGE_ICMP4_INPUT, n,
				       lsk_icmp4_input(w, &w->icmp4));
		}
	}
	if (w->ip4.n) {
		n = (uint16_t)w->ip4.n;
		if (trace)	/* the TTL it will write */
			lsk_ip4_forward_stage.trace(w, &w->ip4, NULL);
		LSK_STAGE_CALL(w, LSK_STAGE_IP4_FORWARD, n,
			       lsk_ip4_forward(w, &w->ip4));
	}
}

/* Its two copies, calls as before the copies were made. */
static __rte_noinline void
worker_ip4(struct lsk_worker *w)
{
	worker_run_ip4(w, false);
}

static __rte_noinline void
worker_ip4_traced(struct lsk_worker *w)
{
	worker_run_ip4(w, true);
}

/* From the IPv6 list on (trace: as worker_run_ip4's). */
static __rte_always_inline void
worker_run_ip6(struct lsk_worker *w, const bool trace)
{
	uint16_t n;

	/* one entry: a train of the run pass's only (its counts) */
	if (w->set.gro_flows != 0 &&
	    (w->ip6.n > 1 ||
	     (w->ip6.n == 1 && (w->ip6.meta[0] & LSK_META_COUNT_MASK)))) {
		n = (uint16_t)w->ip6.n;
		LSK_STAGE_CALL(w, LSK_STAGE_UDP6_GRO, n,
			       lsk_udp6_gro(w, &w->ip6));
		if (trace)	/* every member its own record */
			lsk_udp6_gro_stage.trace(w, &w->ip6, NULL);
	}
	n = (uint16_t)w->ip6.n;
	if (trace)	/* ip6_input's record: the header as it came */
		lsk_ip6_input_stage.trace(w, &w->ip6, NULL);
	LSK_STAGE_CALL(w, LSK_STAGE_IP6_INPUT, n, lsk_ip6_input(w, &w->ip6));
	if (unlikely(w->ip6.n == 0))
		return;

	n = (uint16_t)w->ip6.n;
	LSK_STAGE_CALL(w, LSK_STAGE_IP6_ROUTE, n,
		       lsk_ip6_route(w, &w->ip6, &w->local6));
	if (trace) {	/* ip6_route's: the next hop, or local */
		lsk_ip6_route_stage.trace(w, &w->ip6, NULL);
		lsk_ip6_route_stage.trace(w, &w->local6, w);
	}

	if (w->local6.n) {
		n = (uint16_t)w->local6.n;
		LSK_STAGE_CALL(w, LSK_STAGE_IP6_LOCAL, n,
			       lsk_ip6_local(w, &w->local6, &w->udp6,
					     &w->icmp6));
		if (w->udp6.n) {
			n = (uint16_t)w->udp6.n;
			LSK_STAGE_CALL(w, LSK_STAGE_UDP6_INPUT, n,
				       lsk_udp6_input(w, &w->udp6));
		}
		if (w->icmp6.n) {
			n = (uint16_t)w->icmp6.n;
			LSK_STAGE_CALL(w, LSK_STAGE_ICMP6_INPUT, n,
				       lsk_icmp6_input(w, &w->icmp6));
		}
	}
	if (w->ip6.n) {
		n = (uint16_t)w->ip6.n;
		if (trace)	/* the hop limit it will write */
			lsk_ip6_forward_stage.trace(w, &w->ip6, NULL);
		LSK_STAGE_CALL(w, LSK_STAGE_IP6_FORWARD, n,
			       lsk_ip6_forward(w, &w->ip6));
	}
}

static __rte_noinline void
worker_ip6(struct lsk_worker *w)
{
	worker_run_ip6(w, false);
}

static __rte_noinline void
worker_ip6_traced(struct lsk_worker *w)
{
	worker_run_ip6(w, true);
}

/* The stages in order, for one list of any length (trace: as above). */
static __rte_always_inline void
worker_run_stages(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
		  const uint8_t *members, const bool trace)
{
	struct lsk_list *const eth_next[LSK_ETH_NEXT_COUNT] = {
		[LSK_ETH_NEXT_IP4] = &w->ip4,
		[LSK_ETH_NEXT_ARP] = &w->arp,
		[LSK_ETH_NEXT_IP6] = &w->ip6,
	};
	uint16_t done = 0, used;

	/* ARP after IPv4 starts a new round, as protocol changes split
	 * Linux's lists: rarely more than one round */
	while (done < n) {
		/* eth_input's record, the frames as they came, tags and all */
		if (trace)
			lsk_eth_input_stage.trace(w, NULL,
				&(struct lsk_eth_trace_arg){ pkts + done,
					members != NULL ? members + done :
					NULL, (uint16_t)(n - done) });
		LSK_STAGE_CALL(w, LSK_STAGE_ETH_INPUT, used,
			used = lsk_eth_input(w, pkts + done, n - done,
				members != NULL ? members + done : NULL,
				eth_next));
		done += used;
		if (unlikely(w->arp.n != 0)) {
			uint16_t k = (uint16_t)w->arp.n;

			LSK_STAGE_CALL(w, LSK_STAGE_ARP_INPUT, k,
				       lsk_arp_input(w, &w->arp));
		}
		if (w->ip4.n != 0)
			trace ? worker_ip4_traced(w) : worker_ip4(w);
		/* each protocol keeps its own order, not the order
		 * between them: IPv6 after IPv4 in each round */
		if (w->ip6.n != 0)
			trace ? worker_ip6_traced(w) : worker_ip6(w);
	}
}


/* The two copies: without the trace's hooks, and with them. */
void
lsk_worker_stages(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
		  const uint8_t *members)
{
	worker_run_stages(w, pkts, n, members, false);
}

void
lsk_worker_stages_traced(struct lsk_worker *w, struct rte_mbuf **pkts,
			 uint16_t n, const uint8_t *members)
{
	worker_run_stages(w, pkts, n, members, true);
}
