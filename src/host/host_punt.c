/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Punt: what is addressed to the router and that no stage consumes
 * (ip4_input's multicast, ip4_local's other protocols, udp4_input's
 * datagrams no endpoint takes, icmp4_input's messages other than echo
 * requests; IPv6's twins: ip6_local, udp6_input, icmp6_input) goes to the kernel through its interface's TAP, as the frame
 * it arrived in. A worker only puts it on its own ring, under a token
 * bucket per interface, so a flood at the router costs the worker one
 * test and one enqueue or free per packet and never more than the rate
 * in the host thread's writes (host_thread.c).
 */
#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/drop.h"
#include "core/shared.h"
#include "core/stage.h"
#include "core/worker.h"
#include "host/host.h"

static const struct lsk_drop lsk_host_drops[] = {
	[LSK_HOST_DROP_RATE] = LSK_DROP2(host.Drops, host.DropsRate),
	[LSK_HOST_DROP_RING] = LSK_DROP2(host.Drops, host.DropsRing),
	[LSK_HOST_DROP_ARP] = LSK_DROP2(host.Drops, host.DropsArp),
	[LSK_HOST_DROP_NOT_IP4] = LSK_DROP2(host.Drops, host.DropsNotIp4),
	[LSK_HOST_DROP_ND] = LSK_DROP2(host.Drops, host.DropsNd),
};

/* The host path as a node: not timed (what it costs a worker is the
 * enqueue, counted in the stage that punts). */
LSK_STAGE_DECLARE(lsk_host_node,
	.name = "host", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("ip4_output", "ip6_output", "tx"),
	.drops = lsk_host_drops, .n_drops = RTE_DIM(lsk_host_drops));
const struct lsk_drop *const lsk_host_drop_rows = lsk_host_drops;

/* One token of worker w's bucket for iface, refilled at the table's
 * rate. */
static bool
host_token(const struct lsk_host_table *t, unsigned int wid, uint16_t iface)
{
	struct lsk_host_bucket *b = &t->host->buckets[wid][iface];
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	uint64_t per_token = hz / t->rate[iface];

	if (per_token == 0)
		per_token = 1;
	if (b->tsc == 0) {
		b->tokens = t->burst[iface];
		b->tsc = now;
	}
	if (now - b->tsc >= per_token) {
		uint64_t add = (now - b->tsc) / per_token;

		b->tokens = RTE_MIN((uint64_t)t->burst[iface], b->tokens + add);
		b->tsc += add * per_token;
	}
	if (b->tokens == 0)
		return false;
	b->tokens--;
	return true;
}

bool
lsk_host_punt(struct lsk_worker *w, struct rte_mbuf *m)
{
	const struct lsk_host_table *t = w->host;
	uint16_t iface = m->port;

	if (!lsk_host_wants(t, iface))
		return false;
	if (unlikely(!host_token(t, w->id, iface))) {
		lsk_drop(w, m, 0, &lsk_host_drops[LSK_HOST_DROP_RATE]);
		return true;
	}
	if (unlikely(rte_ring_sp_enqueue(t->host->punt[w->id], m) != 0)) {
		lsk_drop(w, m, 0, &lsk_host_drops[LSK_HOST_DROP_RING]);
		return true;
	}
	return true;
}
