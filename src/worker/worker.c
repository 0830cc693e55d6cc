/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker runs the pipeline for the bursts its lcore receives. In list
 * mode a burst goes through every stage together; in single mode each
 * packet goes through the same stages alone (the baseline). This is the
 * one place that calls every stage, above them all: the stages and core
 * know nothing of it. A worker sees of the stack only the shared state
 * (w->sh, core/shared.h); the control thread makes and registers it
 * (control/dataplane.c).
 */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
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

static uint16_t
worker_tx_ethdev(void *arg, uint16_t port, uint16_t queue,
		 struct rte_mbuf **pkts, uint16_t n)
{
	(void)arg;
	return rte_eth_tx_burst(port, queue, pkts, n);
}

/* A worker and, behind it in the same block, each layer's own state
 * (core/worker.h says why they are not embedded). */
struct worker_block {
	struct lsk_worker w;
	struct lsk_ip4_worker ip4;
	struct lsk_ip6_worker ip6;
	struct lsk_udp_worker udp;
};

int
lsk_worker_make(const struct lsk_shared *sh, unsigned int id,
		uint16_t n_ports, uint32_t rcache_entries,
		struct lsk_worker **out)
{
	struct worker_block *blk;
	struct lsk_worker *w;
	unsigned int p;

	blk = rte_zmalloc_socket("lsk_worker", sizeof(*blk),
				 RTE_CACHE_LINE_SIZE, sh->socket_id);
	if (blk == NULL)
		return -ENOMEM;
	w = &blk->w;
	w->ip4w = &blk->ip4;
	w->ip6w = &blk->ip6;
	w->ip6w->reasm_expires = UINT64_MAX;
	w->udpw = &blk->udp;
	w->sh = sh;
	w->id = id;
	w->n_ports = n_ports;
	w->tx_fn = worker_tx_ethdev;
	for (p = 0; p < LSK_MAX_PORTS; p++)
		w->tx[p].queue = (uint16_t)id;
	if (rcache_entries != 0) {
		w->ip4w->rcache_pub = lsk_route_cache_create(rcache_entries,
							     sh->socket_id);
		if (w->ip4w->rcache_pub == NULL) {
			rte_free(blk);
			return -ENOMEM;
		}
	}
	if (lsk_reasm_worker_init(w) < 0) {
		lsk_route_cache_free(w->ip4w->rcache_pub);
		rte_free(blk);
		return -ENOMEM;
	}
	if (lsk_reasm6_worker_init(w) < 0) {
		lsk_reasm_worker_fini(w);
		lsk_route_cache_free(w->ip4w->rcache_pub);
		rte_free(blk);
		return -ENOMEM;
	}
	/* online (waited for by table updates) from its first poll on */
	if (rte_rcu_qsbr_thread_register(sh->qsbr, id) != 0) {
		lsk_reasm6_worker_fini(w);
		lsk_reasm_worker_fini(w);
		lsk_route_cache_free(w->ip4w->rcache_pub);
		rte_free(blk);
		return -EINVAL;
	}
	*out = w;
	return 0;
}

void
lsk_worker_retire(struct lsk_worker *w)
{
	unsigned int p;

	w->cap = NULL;	/* the control thread's: no capture of its own */
	w->obs = 0;	/* nor a trace */
	w->trace = NULL;
	for (p = 0; p < LSK_MAX_PORTS; p++)
		if (w->tx[p].n)
			lsk_tx_flush_port(w, (uint16_t)p);
	lsk_route_cache_free(w->ip4w->rcache_pub);
	w->ip4w->rcache_pub = NULL;
	rte_pktmbuf_free_bulk(w->icmp_out.pkts, w->icmp_out.n);
	w->icmp_out.n = 0;
	rte_pktmbuf_free_bulk(w->icmp6_out.pkts, w->icmp6_out.n);
	w->icmp6_out.n = 0;
	lsk_reasm_worker_fini(w);
	lsk_reasm6_worker_fini(w);
	lsk_worker_offline(w);
	rte_rcu_qsbr_thread_unregister(w->sh->qsbr, w->id);
}

void
lsk_worker_free(struct lsk_worker *w)
{
	/* the block's first member: its address is the block's */
	rte_free(w);
}

void
lsk_worker_offline(struct lsk_worker *w)
{
	if (w->online) {
		rte_rcu_qsbr_thread_offline(w->sh->qsbr, w->id);
		w->online = false;
	}
}

static inline void
worker_online(struct lsk_worker *w)
{
	if (unlikely(!w->online)) {
		rte_rcu_qsbr_thread_online(w->sh->qsbr, w->id);
		w->online = true;
	}
}

void
lsk_worker_set_txq(struct lsk_worker *w, uint16_t port, uint16_t queue)
{
	if (port < LSK_MAX_PORTS)
		w->tx[port].queue = queue;
}

void
lsk_worker_set_tx_fn(struct lsk_worker *w, lsk_tx_fn fn, void *arg)
{
	w->tx_fn = fn ? fn : worker_tx_ethdev;
	w->tx_arg = fn ? arg : NULL;
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

	if (w->set.gro_flows != 0 && w->ip6.n > 1) {
		n = (uint16_t)w->ip6.n;
		LSK_STAGE_CALL(w, LSK_STAGE_UDP6_GRO, n,
			       lsk_udp6_gro(w, &w->ip6));
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
static void
worker_stages(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	      const uint8_t *members)
{
	worker_run_stages(w, pkts, n, members, false);
}

static void
worker_stages_traced(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
		     const uint8_t *members)
{
	worker_run_stages(w, pkts, n, members, true);
}

/* The burst may take a forwarding fast path (ip4/fwd_fast.c,
 * ip6/fwd6_fast.c; the family of its first frame's): no
 * trains, no filter to ask (rte_acl classifies a list), no route cache
 * (it counts every lookup, and what the fast path hands on would be
 * looked up twice); with GRO on, only a burst in which no train can form
 * (udp/gro.h, lsk_gro_burst_repeats). A traced burst takes the stages,
 * whose records the trace shows. */
static inline bool
worker_fast_on(struct lsk_worker *w, struct rte_mbuf **pkts, uint16_t n,
	       const uint8_t *members)
{
	if (members != NULL || w->filter != NULL || w->ip4w->rcache != NULL)
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
	lsk_capture_rx(w, pkts, n);
	lsk_trace_rx(w, pkts, n);
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
			worker_stages_traced(w, pkts, n, members);
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
					LSK_STAGE_CALL(w, LSK_STAGE_FWD_FAST,
						n - left, left =
						lsk_fwd6_fast(w, pkts, n, rest));
				if (left != n)	/* else: pkts, as they came */
					pkts = rest;
				n = left;
			}
			if (n != 0)
				worker_stages(w, pkts, n, members);
		}
		if (unlikely(w->icmp_out.n | w->icmp6_out.n))
			worker_icmp_outputs(w);
		return;
	}
	for (i = 0; i < n; i++) {
		if (lsk_trace_on(w))
			worker_stages_traced(w, &pkts[i], 1, NULL);
		else
			worker_stages(w, &pkts[i], 1, NULL);
		if (unlikely(w->icmp_out.n | w->icmp6_out.n))
			worker_icmp_outputs(w);
		worker_lists_clear(w);
	}
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
	uint64_t t;

	worker_online(w);
	/* TX below copies for the capture of this flush, not a stale one */
	w->cap = lsk_published(w->sh->capture);
	w->obs = w->cap != NULL ? LSK_OBS_CAPTURE : 0;
	lsk_trace_load(w, &w->sh->trace);
	if (w->id == 0) {
		worker_load(w);
		/* one clock read and one test a flush for ARP's and ND's
		 * timers: ARP's deadline is the earlier of the two */
		if (unlikely(rte_rdtsc() >= w->sh->neigh->next_timer))
			worker_timers(w);
		if (unlikely(w->host != NULL))
			worker_host_inject(w);
		if (rte_ring_count(w->sh->out_ring) != 0) {
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
	rte_rcu_qsbr_quiescent(w->sh->qsbr, w->id);
}
