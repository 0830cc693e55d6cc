/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker's life outside the loop: made by the control thread
 * (control/dataplane.c) with each layer's state in one block behind it,
 * its TX queue and function set, retired (what it still holds sent or
 * freed, its tables freed, RCU left) and freed. Nothing here runs per
 * burst: the loop is worker/worker.c.
 */
#include <errno.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "core/worker.h"
#include "core/tx.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "udp/udp.h"
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
	w->loaded = false;	/* offline, it holds no pointer of a poll */
	if (w->online) {
		rte_rcu_qsbr_thread_offline(w->sh->qsbr, w->id);
		w->online = false;
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
