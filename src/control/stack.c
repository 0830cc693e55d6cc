/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stack: its creation and teardown, the control calls' lock, and the
 * settings workers read (mode, GRO) published whole. Ports, addresses and
 * neighbours, and the forwarding table built from them, are
 * control/ifaces.c's; routes control/route_table.c's; batches of changes
 * control/batch.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_malloc.h>
#include <rte_errno.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "listack/ctl.h"
#include "core/list.h"
#include "core/fwd.h"
#include "l2/l2.h"
#include "ip6/nd6.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/udp_ctl.h"
#include "control/capture.h"
#include "control/ping.h"
#include "control/host_ctl.h"

#define LSK_DEFAULT_MTU 1500

#define LSK_OUT_RING_DEFAULT 8192

static int
stack_out_ring_create(struct lsk_stack *s, uint32_t size)
{
	char name[RTE_RING_NAMESIZE];

	snprintf(name, sizeof(name), "%.20s_out", s->name);
	/* any application thread sends; worker 0 alone drains */
	s->sh.out_ring = rte_ring_create(name,
					 size ? size : LSK_OUT_RING_DEFAULT,
					 s->sh.socket_id,
					 RING_F_SC_DEQ | RING_F_EXACT_SZ);
	return s->sh.out_ring ? 0 : -(rte_errno ? rte_errno : ENOMEM);
}

int
lsk_stack_create(const struct lsk_stack_params *p, struct lsk_stack **out)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct lsk_stack *s;
	struct timespec now;
	size_t qsz;
	unsigned int i;
	int rc;

	if (p == NULL || out == NULL || p->n_ports > LSK_MAX_PORTS ||
	    (p->mode != LSK_MODE_LIST && p->mode != LSK_MODE_SINGLE))
		return -EINVAL;
	s = rte_zmalloc_socket("lsk_stack", sizeof(*s), RTE_CACHE_LINE_SIZE,
			       p->socket_id);
	if (s == NULL)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &now);
	s->created = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	snprintf(s->name, sizeof(s->name), "%s", p->name ? p->name : "lsk");
	s->n_ports = p->n_ports;
	s->n_ifaces = p->n_ports;
	s->sh.socket_id = p->socket_id;
	s->mode = p->mode;
	s->start_mode = p->mode;
	s->max_routes = p->max_routes;
	for (i = 0; i < LSK_MAX_PORTS; i++) {
		s->ports[i].parent = (uint16_t)i;
		s->ports[i].mtu = LSK_DEFAULT_MTU;
		/* locally administered, distinct per port until set */
		s->ports[i].mac.addr_bytes[0] = 0x02;
		s->ports[i].mac.addr_bytes[5] = (uint8_t)i;
	}

	qsz = rte_rcu_qsbr_get_memsize(LSK_MAX_WORKERS);
	s->sh.qsbr = rte_zmalloc_socket("lsk_qsbr", qsz, RTE_CACHE_LINE_SIZE,
					p->socket_id);
	if (s->sh.qsbr == NULL ||
	    rte_rcu_qsbr_init(s->sh.qsbr, LSK_MAX_WORKERS)) {
		lsk_stack_destroy(s);
		return -ENOMEM;
	}
	rc = lsk_route_table_init(s);
	if (rc == 0)
		rc = lsk_neigh_table_create(&s->sh, s->name, LSK_NEIGH_MAX);
	/* IPv6's, under the same bound (ip6/nd6.h) */
	if (rc == 0)
		rc = lsk_nd6_table_create(&s->sh, s->name, LSK_NEIGH_MAX);
	if (rc == 0)
		rc = lsk_fwd_table_build(s, &s->sh.fwd);
	/* IPv6's, with each interface's link-local address: workers never
	 * find the slot empty */
	if (rc == 0)
		rc = lsk_fwd6_table_build(s, &s->sh.fwd6);
	if (rc == 0)
		rc = lsk_udp_table_build(s, &s->sh.udp);
	if (rc == 0)
		rc = stack_out_ring_create(s, p->out_ring_size);
	if (rc < 0) {
		lsk_stack_destroy(s);
		return rc;
	}
	lsk_stack_settings_publish(s);
	s->sh.send_pool = p->send_pool;
	snprintf(name, sizeof(name), "%.20s_ind", s->name);
	/* fragments point into the datagram they were cut from */
	s->sh.indirect_pool = rte_pktmbuf_pool_create(name, 8191, 64, 0, 0,
						   p->socket_id);
	if (s->sh.indirect_pool == NULL) {
		lsk_stack_destroy(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

void
lsk_stack_destroy(struct lsk_stack *s)
{
	if (s == NULL)
		return;
	lsk_stack_reader_forget(s);
	lsk_capture_free(s);	/* its file written whole */
	lsk_trace_free_stack(s);
	lsk_config_abort(s);	/* a batch left open: its lists go back */
	lsk_services_free(s);
	lsk_udp_close_all(s);
	lsk_host_destroy(s);	/* TAPs, thread, rings: workers are gone */
	free(s->eps);
	if (s->sh.out_ring != NULL) {
		void *m;

		while (rte_ring_sc_dequeue(s->sh.out_ring, &m) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(s->sh.out_ring);
	}
	lsk_fwd_table_free(s->sh.fwd);
	lsk_fwd6_table_free(s->sh.fwd6);
	lsk_fwd6_standby_free(s);
	free(s->routes6);
	lsk_route6_learn_free(s);
	free(s->neighs6);
	lsk_route_table_free(s);
	lsk_neigh_table_free(s->sh.neigh);
	lsk_nd6_table_free(s->sh.nd6);
	lsk_filter_table_free(s->sh.filter);
	free(s->filters);
	free(s->neighs);
	rte_free(s->sh.qsbr);
	rte_mempool_free(s->sh.indirect_pool);
	free(s->config_path);
	rte_free(s);
}

void
lsk_stack_set_send_pool(struct lsk_stack *s, struct rte_mempool *pool)
{
	s->sh.send_pool = pool;
}

/* The stack whose lock this thread holds: a long action (ping,
 * control/ping.c) lets it go while it waits, and only when it is its. */
static __thread struct lsk_stack *lock_held;

/* The control calls' lock (listack/ctl.h): the control socket's batches
 * (serve/ctl_server.c) and the application's own take it. */
void
lsk_stack_lock(struct lsk_stack *stack)
{
	pthread_mutex_lock(&stack->lock);
	lock_held = stack;
}

void
lsk_stack_unlock(struct lsk_stack *stack)
{
	lock_held = NULL;
	pthread_mutex_unlock(&stack->lock);
}

int
lsk_stack_trylock(struct lsk_stack *stack)
{
	if (pthread_mutex_trylock(&stack->lock) != 0)
		return -EBUSY;
	lock_held = stack;
	return 0;
}

bool
lsk_stack_lock_is_mine(const struct lsk_stack *stack)
{
	return lock_held == stack;
}

enum lsk_mode
lsk_stack_mode(const struct lsk_stack *s)
{
	return s->mode;
}

int
lsk_mode_set(struct lsk_stack *s, enum lsk_mode mode)
{
	if (mode != LSK_MODE_LIST && mode != LSK_MODE_SINGLE)
		return -EINVAL;
	s->mode = mode;
	lsk_stack_settings_publish(s);
	return 0;
}

void
lsk_stack_synchronize(struct lsk_stack *s)
{
	rte_rcu_qsbr_synchronize(s->sh.qsbr, RTE_QSBR_THRID_INVALID);
}

/* The settings word from the configuration and the published forwarding
 * table: workers load it whole at their next burst (core/settings.h). */
void
lsk_stack_settings_publish(struct lsk_stack *s)
{
	const struct lsk_fwd_table *t = s->sh.fwd;
	struct lsk_settings v = {
		.gro_flows = (uint16_t)s->gro_flows,
		.gro_segs = (uint8_t)s->gro_segs,
		.gro_merge = s->gro_merge,
		.mode = (uint8_t)s->mode,
		.poll_gap_epoch = s->poll_gap_epoch,
	};
	unsigned int p;

	/* the MTUs the published table has (a batch's come at commit) */
	for (p = 0; t != NULL && p < t->n_ports; p++)
		v.max_mtu = RTE_MAX(v.max_mtu, t->ifaces[p].mtu);
	lsk_settings_store(&s->sh.settings, v);
}

int
lsk_gro_set(struct lsk_stack *s, uint32_t flows, uint32_t segs)
{
	if (flows > LSK_BURST_MAX || segs > LSK_GRO_SEGS_MAX ||
	    (flows != 0 && segs < 2))
		return -EINVAL;
	if (flows != 0 && lsk_train_next_offset < 0) {
		int rc = lsk_train_register();

		if (rc < 0)
			return rc;
	}
	s->gro_segs = segs;
	s->gro_flows = flows;
	lsk_stack_settings_publish(s);
	return 0;
}

void
lsk_gro_set_merge(struct lsk_stack *s, bool merge)
{
	s->gro_merge = merge;
	lsk_stack_settings_publish(s);
}

static const struct lsk_stack_reader *stack_reader;

void
lsk_stack_reader_set(const struct lsk_stack_reader *r)
{
	__atomic_store_n(&stack_reader, r, __ATOMIC_RELEASE);
}

void
lsk_stack_reader_forget(const struct lsk_stack *s)
{
	const struct lsk_stack_reader *r =
		__atomic_load_n(&stack_reader, __ATOMIC_ACQUIRE);

	if (r != NULL)
		r->forget(s);
}

void
lsk_stack_reader_quiesce(void)
{
	const struct lsk_stack_reader *r =
		__atomic_load_n(&stack_reader, __ATOMIC_ACQUIRE);

	if (r != NULL)
		r->quiesce();
}
