/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker runs the pipeline for the bursts its lcore receives. In list
 * mode a burst goes through every stage together; in single mode each
 * packet goes through the same stages alone (the baseline). The worker
 * module is the one place that calls every stage, above them all: the
 * stages and core know nothing of it. A worker sees of the stack only
 * the shared state (w->sh, core/shared.h); the control thread makes and
 * registers it (control/dataplane.c, worker/worker_make.c).
 *
 * This file is the loop's two calls: lsk_worker_input (what was
 * published loaded, the capture's and trace's RX hooks, the run pass, the
 * fast paths, then the stages in order, worker/worker_stages.c) and
 * lsk_worker_flush (the longest gap between polls, worker 0's timers, the
 * kernel's frames and the send ring, reassembly timeouts, queued ICMP,
 * TX, RCU's quiescent state).
 */
#include <rte_cycles.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "core/worker.h"
#include "core/capture.h"
#include "core/fwd.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "ip6/nd6.h"
#include "udp/gro.h"
#include "udp/udp.h"
#include "host/host.h"
#include "worker/worker.h"
#include "worker/worker_stages.h"

/* online (waited for by table updates) from the first poll after it was
 * made or set offline (lsk_worker_offline, worker/worker_make.c) */
static inline void
worker_online(struct lsk_worker *w)
{
	if (unlikely(!w->online)) {
		rte_rcu_qsbr_thread_online(w->sh->qsbr, w->id);
		w->online = true;
	}
}

/* What the control thread published, for this burst: the tables, this
 * worker's route cache, the settings word. */
static inline void
worker_load(struct lsk_worker *w)
{
	const struct lsk_shared *sh = w->sh;

	w->fwd = lsk_published(sh->fwd);
	w->fwd6 = lsk_published(sh->fwd6);
	w->ports_down = w->fwd->ports_down;
	w->udp = lsk_published(sh->udp);
	w->filter = lsk_published(sh->filter);
	w->host = lsk_published(sh->host);
	w->ip4w->rcache = lsk_published(w->ip4w->rcache_pub);
	lsk_settings_load(&sh->settings, &w->set);
	w->cap = lsk_published(sh->capture);
	w->obs = w->cap != NULL ? LSK_OBS_CAPTURE : 0;
	lsk_trace_load(w, &sh->trace);
	/* this poll's flush loads nothing again (lsk_worker_flush) */
	w->loaded = true;
}

/* ICMP the stages queued goes out through ip4_output, a stage call */
static inline void
worker_icmp_output(struct lsk_worker *w)
{
	uint32_t n = w->icmp_out.n;

	LSK_STAGE_CALL(w, LSK_STAGE_IP4_OUTPUT, n, lsk_icmp4_output(w));
}

/* ICMPv6 the stages queued goes out through ip6_output, a stage call */
static inline void
worker_icmp6_output(struct lsk_worker *w)
{
	uint32_t n = w->icmp6_out.n;

	LSK_STAGE_CALL(w, LSK_STAGE_IP6_OUTPUT, n, lsk_icmp6_output(w));
}

/* Both families' queued ICMP, one test for the two (either may be
 * empty). */
static __rte_noinline void
worker_icmp_outputs(struct lsk_worker *w)
{
	if (w->icmp_out.n)
		worker_icmp_output(w);
	if (w->icmp6_out.n)
		worker_icmp6_output(w);
}

/* Both families' reassembly timeouts, one test for the two (the and of
 * their next expiries is UINT64_MAX only when neither waits). */
static __rte_noinline void
worker_reasm_expire(struct lsk_worker *w)
{
	if (w->ip4w->reasm_expires != UINT64_MAX)
		lsk_reasm_expire(w);
	if (w->ip6w->reasm_expires != UINT64_MAX)
		lsk_reasm6_expire(w);
}

/* What the kernel sent on the TAPs (host/host.h): unicast IPv4 through
 * ip4_output, IPv6 through ip6_output, timed as they; the rest sent or
 * dropped by the host path. */
static void
worker_host_inject(struct lsk_worker *w)
{
	struct rte_mbuf *pkts[LSK_BURST_MAX], *pkts6[LSK_BURST_MAX];
	unsigned int n6, n = lsk_host_inject_take(w, pkts, pkts6, &n6);

	if (n != 0)
		LSK_STAGE_CALL(w, LSK_STAGE_IP4_OUTPUT, n,
			       lsk_ip4_output_burst(w, pkts, n, LSK_OUT_HOST));
	if (n6 != 0)
		LSK_STAGE_CALL(w, LSK_STAGE_IP6_OUTPUT, n6,
			       lsk_ip6_output_burst(w, pkts6, n6, LSK_OUT_HOST));
}

/* The lists between stages, empty for the next burst (or packet). */
static inline void
worker_lists_clear(struct lsk_worker *w)
{
	w->ip4.n = 0;
	w->arp.n = 0;
	w->local.n = 0;
	w->udp4.n = 0;
	w->icmp4.n = 0;
	w->ip6.n = 0;
	w->local6.n = 0;
	w->udp6.n = 0;
	w->icmp6.n = 0;
}

/* The burst may take a forwarding fast path (ip4/fwd_fast.c,
 * ip6/fwd6_fast.c; the family of its first frame's): no trains; with GRO
 * on, only a burst in which no train can form (udp/gro.h,
 * lsk_gro_burst_repeats). The filter and the route cache are asked by
 * IPv4's fast path as by the stages; IPv6's has no filter to ask (its
 * stages have none either). A traced burst takes the stages, whose
 * records the trace shows. */
static inline bool
worker_fast_on(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	       const uint8_t *members)
{
	if (members != NULL)
		return false;
	return w->set.gro_flows == 0 ||
	       !lsk_gro_burst_repeats(&w->udpw->gro, pkts, n);
}

/* Does the burst start with an untagged IPv6 frame (fwd6_fast's to
 * try; data_len: its header is there to read)? */
static inline bool
worker_ip6_first(const struct rte_mbuf *m)
{
	return m->data_len >= RTE_ETHER_HDR_LEN &&
	       rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_IPV6);
}

/* What a port that is admin down received is dropped before any stage
 * sees it, counted in its rx_dropped; the rest close up in pkts. */
static uint16_t
worker_drop_down(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i, k = 0;

	for (i = 0; i < n; i++) {
		uint16_t p = pkts[i]->port;

		if (p < LSK_MAX_PORTS && (w->ports_down >> p) & 1) {
			w->stats.ports[p].rx_dropped++;
			rte_pktmbuf_free(pkts[i]);
		} else {
			pkts[k++] = pkts[i];
		}
	}
	return k;
}

void
lsk_worker_input(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	if (unlikely(n > LSK_BURST_MAX)) {
		lsk_worker_input(w, pkts, LSK_BURST_MAX);
		lsk_worker_input(w, pkts + LSK_BURST_MAX, n - LSK_BURST_MAX);
		return;
	}
	worker_online(w);
	worker_load(w);
	if (unlikely(w->ports_down != 0)) {
		n = worker_drop_down(w, pkts, n);
		if (n == 0)
			return;
	}
	if (unlikely(w->obs != 0)) {	/* one test when nothing observes */
		lsk_capture_rx(w, pkts, n);
		lsk_trace_rx(w, pkts, n);
	}
	worker_lists_clear(w);
	if (w->set.mode == LSK_MODE_LIST) {
		struct lsk_gro_burst b = { .pkts = pkts, .n = n };
		const uint8_t *members;

		/* runs of a flow become trains before eth_input, which
		 * then sees each once: GRO's one entry before L2 */
		if (w->set.gro_flows != 0)
			lsk_gro_input(w, &b);
		pkts = b.pkts;
		n = b.n;
		members = b.members;
		if (lsk_trace_on(w)) {
			lsk_worker_stages_traced(w, pkts, n, members);
		} else {
			struct rte_mbuf *rest[LSK_BURST_MAX];

			if (worker_fast_on(w, pkts, n, members)) {
				uint16_t left = n;

				if (lsk_fwd_fast_due(w->ip4w))
					LSK_STAGE_CALL(w, LSK_STAGE_FWD_FAST,
						n - left, left =
						lsk_fwd_fast(w, pkts, n, rest));
				/* none taken, IPv6 first: IPv6's may take
				 * it */
				if (unlikely(left == n) && n != 0 &&
				    worker_ip6_first(pkts[0]) &&
				    lsk_fwd6_fast_due(w->ip6w))
					LSK_STAGE_CALL(w, LSK_STAGE_FWD6_FAST,
						n - left, left =
						lsk_fwd6_fast(w, pkts, n, rest));
				if (left != n)	/* else: pkts, as they came */
					pkts = rest;
				n = left;
			}
			if (n != 0)
				lsk_worker_stages(w, pkts, n, members);
		}
		if (unlikely(w->icmp_out.n | w->icmp6_out.n))
			worker_icmp_outputs(w);
		return;
	}
	for (i = 0; i < n; i++) {
		if (lsk_trace_on(w))
			lsk_worker_stages_traced(w, &pkts[i], 1, NULL);
		else
			lsk_worker_stages(w, &pkts[i], 1, NULL);
		if (unlikely(w->icmp_out.n | w->icmp6_out.n))
			worker_icmp_outputs(w);
		worker_lists_clear(w);
	}
}

/* The time since the last poll, the longest kept; `stats clear` (a new
 * epoch in the published settings word) starts the longest again. The
 * word is this poll's (loaded by its first burst, or by a flush alone),
 * so that a flush alone sees a clear. */
static inline void
worker_poll_gap(struct lsk_worker *w, uint64_t now)
{
	uint64_t gap = now - w->poll_last;

	if (unlikely(w->set.poll_gap_epoch != w->poll_gap_epoch)) {
		__atomic_store_n(&w->poll_gap_epoch, w->set.poll_gap_epoch,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&w->poll_gap_max, 0, __ATOMIC_RELAXED);
	} else if (unlikely(gap > w->poll_gap_max) && w->poll_last != 0) {
		__atomic_store_n(&w->poll_gap_max, gap, __ATOMIC_RELAXED);
	}
	w->poll_last = now;
}

/* Worker 0's timers, due (lsk_worker_flush): ARP's, then ND's, whose
 * next deadline, when earlier, becomes ARP's table's, the one the flush
 * tests (l2/neigh_hold.c reads it again, and goes on from it). */
static __rte_noinline void
worker_timers(struct lsk_worker *w)
{
	struct lsk_neigh_table *nt = w->sh->neigh;
	uint64_t nd6_due;

	lsk_neigh_timer(w, &w->unreach);
	if (unlikely(w->unreach.n))
		lsk_icmp4_unreach_host(w, &w->unreach);
	nd6_due = lsk_nd6_timer(w, &w->unreach6);
	if (unlikely(w->unreach6.n))
		lsk_icmp6_unreach_addr(w, &w->unreach6);
	if (nd6_due < nt->next_timer)
		nt->next_timer = nd6_due;
}

void
lsk_worker_flush(struct lsk_worker *w)
{
	uint32_t sent = 0;
	unsigned int p;
	uint64_t t, now = rte_rdtsc();

	/* A burst of this poll loaded what was published, and holds it
	 * until the quiescent report below: the flush goes on with it (what
	 * is published meanwhile is the next poll's). A flush alone (no
	 * burst, or the worker set offline since) loads it all: TX copies
	 * for the capture of now, the poll gap sees a `stats clear`, the
	 * timers, sends and ICMP use the tables in force, never a pointer
	 * an earlier poll loaded (gone after its grace period). */
	if (!w->loaded) {
		worker_online(w);
		worker_load(w);
	}
	worker_poll_gap(w, now);
	if (w->id == 0) {
		/* one clock read and one test a flush for ARP's and ND's
		 * timers: ARP's deadline is the earlier of the two */
		if (unlikely(now >= w->sh->neigh->next_timer))
			worker_timers(w);
		if (unlikely(w->host != NULL))
			worker_host_inject(w);
		/* rte_ring_empty reads the two tails alone, not the mask
		 * and capacity line rte_ring_count also reads */
		if (!rte_ring_empty(w->sh->out_ring)) {
			/* datagrams (IPv6's too), and ping's echo requests
			 * routed */
			uint64_t out = w->stats.udp.OutDatagrams +
				       w->stats.udp6.OutDatagrams +
				       w->stats.icmp.OutEchos;

			LSK_STAGE_CALL(w, LSK_STAGE_IP4_OUTPUT,
				       w->stats.udp.OutDatagrams +
				       w->stats.udp6.OutDatagrams +
				       w->stats.icmp.OutEchos - out,
				       lsk_ip4_output(w));
		}
	}
	/* datagrams whose pieces stopped coming: their ICMP goes out
	 * below */
	if (unlikely((w->ip4w->reasm_expires & w->ip6w->reasm_expires) !=
		     UINT64_MAX))
		worker_reasm_expire(w);
	/* last: what the sends above answered (a port unreachable to
	 * ourselves) goes out in this flush too */
	if (unlikely(w->icmp_out.n | w->icmp6_out.n))
		worker_icmp_outputs(w);
	/* not LSK_STAGE_CALL: a flush that sends nothing is no call */
	t = lsk_stage_begin(w, LSK_STAGE_TX);
	for (p = 0; p < w->n_ports; p++) {
		if (w->tx[p].n) {
			sent += w->tx[p].n;
			lsk_tx_flush_port(w, (uint16_t)p);
		}
	}
	if (sent)
		lsk_stage_end(w, LSK_STAGE_TX, sent, t);
	w->loaded = false;
	rte_rcu_qsbr_quiescent(w->sh->qsbr, w->id);
}
