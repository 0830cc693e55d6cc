/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control thread's side of the data plane's own state: workers made
 * and registered in the stack, each worker's route cache published, VLAN
 * sub-interfaces, and the public calls on the neighbour table. The data
 * plane's files read and run these (worker/, l2/, ip4/); what changes
 * them, and needs the stack, is here.
 */
#include <errno.h>

#include <rte_common.h>

#include "core/shared.h"
#include "core/worker.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "ip6/nd6.h"
#include "worker/worker.h"
#include "control/control.h"

/* The stack whose shared state w holds (the control thread's to know). */
static struct lsk_stack *
worker_stack(const struct lsk_worker *w)
{
	return container_of((struct lsk_shared *)(uintptr_t)w->sh,
			    struct lsk_stack, sh);
}

int
lsk_worker_create(struct lsk_stack *s, unsigned int id,
		  struct lsk_worker **out)
{
	struct lsk_worker *w;
	int rc;

	if (id >= LSK_MAX_WORKERS || s->workers[id] != NULL)
		return -EINVAL;
	rc = lsk_worker_make(&s->sh, id, (uint16_t)s->n_ports,
			     s->rcache_entries, &w);
	if (rc < 0)
		return rc;
	s->workers[id] = w;
	*out = w;
	return 0;
}

void
lsk_worker_destroy(struct lsk_worker *w)
{
	struct lsk_stack *s;

	if (w == NULL)
		return;
	s = worker_stack(w);
	lsk_worker_retire(w);
	__atomic_store_n(&s->workers[w->id], NULL, __ATOMIC_RELEASE);
	/* a telemetry read that still found it listed ends first */
	lsk_stack_reader_quiesce();
	lsk_worker_free(w);
}

/*
 * The control thread makes every worker's new cache first (a failure
 * changes nothing), then publishes each in its worker, where the worker
 * loads it with the burst's tables; the old ones are freed once no worker
 * can be reading them.
 */
int
lsk_route_cache_set(struct lsk_stack *s, uint32_t entries)
{
	struct lsk_route_cache *made[LSK_MAX_WORKERS] = { NULL };
	struct lsk_route_cache *old[LSK_MAX_WORKERS] = { NULL };
	unsigned int i;

	if (entries > (1u << 24))
		return -EINVAL;
	if (entries == s->rcache_entries)
		return 0;
	for (i = 0; i < LSK_MAX_WORKERS && entries != 0; i++) {
		if (s->workers[i] == NULL)
			continue;
		made[i] = lsk_route_cache_create(entries, s->sh.socket_id);
		if (made[i] == NULL) {
			while (i-- > 0)
				lsk_route_cache_free(made[i]);
			return -ENOMEM;
		}
	}
	s->rcache_entries = entries;
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		struct lsk_worker *w = s->workers[i];

		if (w == NULL)
			continue;
		old[i] = w->ip4w->rcache_pub;
		__atomic_store_n(&w->ip4w->rcache_pub, made[i],
				 __ATOMIC_RELEASE);
	}
	lsk_stack_synchronize(s);
	for (i = 0; i < LSK_MAX_WORKERS; i++)
		lsk_route_cache_free(old[i]);
	return 0;
}

int
lsk_vlan_iface(struct lsk_stack *s, uint16_t port, uint16_t vlan)
{
	unsigned int i;

	if (port >= s->n_ports)
		return -ENODEV;
	if (vlan == 0 || vlan >= 4095)
		return -EINVAL;
	for (i = s->n_ports; i < s->n_ifaces; i++)
		if (s->ports[i].parent == port && s->ports[i].vlan == vlan)
			return (int)i;
	if (s->n_ifaces == LSK_MAX_IFACES)
		return -ENOSPC;
	i = s->n_ifaces++;
	s->ports[i] = s->ports[port];
	s->ports[i].parent = port;
	s->ports[i].vlan = vlan;
	return (int)i;
}

uint32_t
lsk_neigh_drop_held(struct lsk_stack *s)
{
	/* IPv6's too, counted nd.UnresolvedDiscards */
	return lsk_neigh_table_drop_held(s->sh.neigh, &s->ctl_stats) +
	       lsk_nd6_drop_held(s->sh.nd6, &s->ctl_stats);
}

void
lsk_neigh_set_hold_max(struct lsk_stack *s, uint32_t mbufs)
{
	lsk_neigh_table_set_hold_max(s->sh.neigh, mbufs);
}
