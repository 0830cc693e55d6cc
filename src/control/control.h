/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control path: the stack (the configuration as given and the tables
 * published from it), the table builds, counters and telemetry.
 */
#ifndef LSK_CONTROL_H
#define LSK_CONTROL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "listack/listack.h"
#include "listack/udp.h"
#include "core/counters.h"
#include "core/fwd.h"
#include "core/settings.h"
#include "core/shared.h"

struct rte_hash;
struct rte_ring;
struct rte_mempool;
struct rte_rcu_qsbr;
struct lsk_worker;
struct lsk_capture;
struct lsk_capture_ctl;

/* A `filter add` rule, in host order; depth 0 and 0-65535 match all. */
struct lsk_filter_rule {
	bool drop;
	uint8_t proto;		/* 0 = any */
	uint8_t src_depth, dst_depth;
	uint32_t src, dst;
	uint16_t sport_lo, sport_hi, dport_lo, dport_hi;
};

#define LSK_FILTER_MAX_RULES 65536

struct lsk_route {
	uint32_t prefix;
	uint8_t depth;
	uint8_t type;		/* enum lsk_route_type */
	uint32_t gateway;
};

/*
 * One route change as the FIB sees it: the route of (prefix, depth)
 * before and after (none when !before_set / !now_set). The forwarding
 * tables apply it, or its inverse to undo it.
 */
struct lsk_route_delta {
	struct lsk_route before, now;
	bool before_set, now_set;
};

/* A change a batch made to s->routes, to undo it (route_table.c). */
struct lsk_route_undo {
	uint8_t op;		/* enum in route_table.c */
	unsigned int pos, n;	/* the place changed; n: a flush's count */
	struct lsk_route r;	/* what was there */
	struct lsk_route *saved;	/* a flush's list */
};

/* route changes a batch applies to the tables one by one at commit;
 * more, or a flush, and the commit builds them whole */
#define LSK_ROUTE_LOG_MAX 64

struct lsk_neigh {
	uint32_t addr;
	struct rte_ether_addr mac;
};

struct lsk_stack {
	/* what workers see (core/shared.h): the published tables (fwd,
	 * udp, filter; the build of fwd: fwd_standby below), the settings
	 * word, capture and trace, RCU, pools, rings, the neighbours */
	struct lsk_shared sh;
	/* serialises control calls: the control socket's batches and the
	 * application's own (lsk_stack_lock, listack/ctl.h) */
	pthread_mutex_t lock;
	char name[32];
	unsigned int n_ports;
	enum lsk_mode mode;
	uint32_t max_routes;

	unsigned int n_ifaces;	/* ports, then VLAN sub-interfaces */
	struct lsk_port_conf ports[LSK_MAX_IFACES];
	/* the devices follow the ports' MTUs (lsk_port_mtu_hook) */
	lsk_port_mtu_hook_t mtu_hook;
	void *mtu_hook_arg;
	/* the last refusal, for the batch's error: port (-1 none), MTU */
	int mtu_refused_port;
	uint16_t mtu_refused;

	/* the configuration as given (the RIB); the FIB is built from it */
	unsigned int n_addrs;
	struct lsk_ifaddr addrs[LSK_MAX_ADDRS];
	unsigned int n_routes, routes_cap;
	struct lsk_route *routes;
	struct rte_hash *route_index;	/* which (prefix, depth) are routed */
	unsigned int n_neighs, neighs_cap;
	struct lsk_neigh *neighs;

	/* fraglist GRO: off when gro_flows is 0; gro_merge copies payloads
	 * into the head instead (the baseline fraglist is measured against) */
	uint32_t gro_flows, gro_segs;
	bool gro_merge;
	/* route cache entries per worker, 0 = off; each worker's cache is
	 * made by the control thread and published in its worker */
	uint32_t rcache_entries;

	/* filter rules as given (the classifier workers read: sh.filter) */
	uint32_t n_filters, filters_cap;
	struct lsk_filter_rule *filters;
	uint32_t filter_generation;

	bool in_batch;
	struct lsk_rib_copy *batch_rib;	/* the RIB at lsk_config_begin */
	/* settings a batch makes at its commit, once its tables are in */
	struct lsk_batch_settings {
		bool gro, rcache, stats_clear, mode;
		bool gro_merge;
		uint8_t mode_value;	/* enum lsk_mode */
		uint32_t gro_flows, gro_segs, rcache_entries;
	} batch_set;
	uint32_t fib_generation;	/* names each FIB uniquely */
	/* the same as fwd, seen by no worker: route changes are made to it
	 * before it is published (control/fwd_table.c); NULL until routes
	 * change one at a time, or when it could not be built */
	struct lsk_fwd_table *fwd_standby;
	bool fwd_keep_standby;
	/* a batch's changes to the list, to put it back */
	unsigned int n_route_undo, route_undo_cap;
	struct lsk_route_undo *route_undo;
	/* a batch's route changes, for its commit */
	unsigned int n_route_log;
	bool route_log_full;
	struct lsk_route_delta route_log[LSK_ROUTE_LOG_MAX];

	/* what the control path itself counted (added to every read) */
	struct lsk_stats ctl_stats;
	/* the sums at the last `stats clear`, which reads subtract: the
	 * counters themselves are the workers' to write */
	struct lsk_stats stats_base;

	/* UDP endpoints: the control list (the table workers read: sh.udp) */
	unsigned int n_eps, eps_cap;
	struct lsk_udp_ep **eps;
	uint32_t udp_generation;
	/* closed while the published table still names them: freed once a
	 * table without them is */
	struct lsk_udp_ep *closed;

	unsigned int n_services, services_cap;
	struct lsk_service **services;
	/* closed by the batch in progress: freed at its commit */
	struct lsk_service *services_closed;
	bool udp_defer;		/* endpoint changes wait for the commit */

	/* what the last capture counted (the one workers read: sh.capture;
	 * control/capture.c) */
	struct lsk_capture_ctl *capture_ctl;
	/* the trace workers fill is sh.trace (control/trace_arm.c) */
	uint16_t trace_gen;

	struct lsk_worker *workers[LSK_MAX_WORKERS];
};

/* The control thread's tests on its own lists; workers ask the published
 * table (core/fwd.h). A subnet broadcast of ours, or 255.255.255.255. */
bool lsk_stack_is_broadcast(const struct lsk_stack *s, uint32_t addr);
/* One of our addresses (as configured, batch or not). */
bool lsk_stack_is_own(const struct lsk_stack *s, uint32_t addr);
/* The address of ours whose subnet broadcast addr is, or NULL. */
const struct lsk_ifaddr *lsk_stack_broadcast_of(const struct lsk_stack *s,
						uint32_t addr);

const struct lsk_ifaddr *lsk_connected_lookup(const struct lsk_stack *s,
					      uint32_t addr);

/* Room for entry n of *arr (elements of elem bytes, *cap of them): the
 * array doubles, from first, when full. A failure leaves it as it was. */
int lsk_array_grow(void **arr, unsigned int *cap, unsigned int n, size_t elem,
		   unsigned int first);

/* Wait until no worker can still be reading a table replaced before the
 * call: each has passed a quiescent state since (control/stack.c). */
void lsk_stack_synchronize(struct lsk_stack *s);

/*
 * Hand table t to the workers in slot (s->sh.fwd, s->sh.udp, s->sh.filter),
 * which they load once per burst (lsk_published, core/shared.h), and
 * free the table it
 * replaces once none can be reading it. It cannot fail: what can fail
 * (the build) comes before it, and the old table is kept until then.
 */
#define lsk_publish(s, slot, t, free_fn) do {				\
	__typeof__(t) lsk_old_ = (slot);				\
	__atomic_store_n(&(slot), (t), __ATOMIC_RELEASE);		\
	lsk_stack_synchronize(s);					\
	free_fn(lsk_old_);						\
} while (0)

/* Tables (control path). */
int lsk_filter_table_build(struct lsk_stack *s, struct lsk_filter_table **out);
void lsk_filter_table_free(struct lsk_filter_table *t);
int lsk_filter_add(struct lsk_stack *s, const struct lsk_filter_rule *rule);
int lsk_filter_flush(struct lsk_stack *s);
int lsk_filter_commit(struct lsk_stack *s);
/* Rule n (from 0, as `show filter` numbers them from 1) goes. */
int lsk_filter_del(struct lsk_stack *s, uint32_t n);
int lsk_fwd_table_build(struct lsk_stack *s, struct lsk_fwd_table **out);
void lsk_fwd_table_free(struct lsk_fwd_table *t);
/* Route r in t, a table no worker sees, or (prefix, depth) out of it: a
 * failure leaves t as it was (control/fwd_table.c). */
int lsk_fwd_route_set(struct lsk_stack *s, struct lsk_fwd_table *t,
		      const struct lsk_route *r);
int lsk_fwd_route_unset(struct lsk_fwd_table *t, uint32_t prefix,
			uint8_t depth);
/* A change of (prefix, depth) touches no entry a build adds besides it. */
bool lsk_fwd_route_isolated(const struct lsk_stack *s, uint32_t prefix,
			    uint8_t depth);
/* Hand a table built whole to the workers (lsk_publish); the standby
 * is built anew. Cannot fail (a standby that cannot be built is none). */
void lsk_fwd_publish(struct lsk_stack *s, struct lsk_fwd_table *t);
/*
 * Make route changes d[0..n) (already made to s->routes) to the tables:
 * to the standby, which is then published, then to the table it
 * replaced once no worker reads it. When that cannot be done (no
 * standby, a change touching neighbour or local entries, a full FIB)
 * and whole is set, a table is built whole instead. A failure (-ENOMEM,
 * -ENOSPC; or -EAGAIN: not done in place and !whole) leaves both tables
 * as they were. Control thread only.
 */
int lsk_fwd_routes_apply(struct lsk_stack *s, const struct lsk_route_delta *d,
			 unsigned int n, bool whole);

/* The routes (control/route_table.c): the index made at stack creation,
 * rebuilt from s->routes when a failed batch puts the list back. */
int lsk_route_table_init(struct lsk_stack *s);
void lsk_route_table_free(struct lsk_stack *s);
void lsk_route_index_rebuild(struct lsk_stack *s);
/* The route of (prefix, depth) in s->routes, or NULL. */
const struct lsk_route *lsk_route_find(const struct lsk_stack *s,
				       uint32_t prefix, uint8_t depth);
/* A batch's start; at its commit, when it changed nothing but routes:
 * make them to the tables in place (0), or -EAGAIN: build them whole.
 * lsk_route_batch_undo puts the list and its index back as the batch
 * found them (for a batch refused or whose tables cannot be built). */
void lsk_route_batch_begin(struct lsk_stack *s);
int lsk_route_batch_commit(struct lsk_stack *s);
void lsk_route_batch_undo(struct lsk_stack *s);

/* Packet trace (control/trace_arm.c): arm n packets matching match (a
 * new trace: the last one's records go), clear, and free at the stack's
 * end. 0 or a negative errno; a failure leaves the trace as it was. */
struct lsk_trace_match;
int lsk_trace_arm(struct lsk_stack *s, uint64_t n,
		  const struct lsk_trace_match *match);
void lsk_trace_clear(struct lsk_stack *s);
void lsk_trace_free_stack(struct lsk_stack *s);

/* Build the forwarding table from the lists and publish it (nothing in a
 * batch: its commit does), and the settings word with the ports' MTUs
 * (control/stack.c). */
int lsk_stack_publish(struct lsk_stack *s);
void lsk_stack_settings_publish(struct lsk_stack *s);
/* The devices of the ports whose MTU differs between from and to are
 * set to to's (the MTU hook); on the first refusal those already set go
 * back to from's and its errno is returned. */
int lsk_port_mtus_follow(struct lsk_stack *s,
			 const struct lsk_port_conf *from,
			 const struct lsk_port_conf *to);

/* The interface id of port's VLAN vlan (0: the port), or -ENODEV. */
int lsk_iface_find(const struct lsk_stack *s, uint16_t port, uint16_t vlan);
/* Forget addr's neighbour entry (0: every entry): at the batch's commit,
 * or now outside a batch. */
int lsk_stack_forget_neigh(struct lsk_stack *s, uint32_t addr);

/* UDP endpoints (control/udp_table.c): the table workers read, built
 * from the endpoint list, and the list's end with the stack. */
int lsk_udp_table_build(struct lsk_stack *s, struct lsk_udp_table **out);
void lsk_udp_table_free(struct lsk_udp_table *t);
void lsk_udp_close_all(struct lsk_stack *s);
/* UDP endpoints in a batch: publish a table built from
 * the endpoint list, then free what was closed before it. */
void lsk_udp_table_publish(struct lsk_stack *s, struct lsk_udp_table *t);
/* Take ep out of the endpoint list, or put it back, without publishing
 * (a batch publishes at its commit). */
void lsk_udp_unlist(struct lsk_udp_ep *ep);
void lsk_udp_relist(struct lsk_udp_ep *ep);
/* Free an endpoint no published table ever named (made in a batch that
 * is put back). */
void lsk_udp_ep_discard(struct lsk_udp_ep *ep);
/* Services (control/services.c): echo, discard and pcap endpoints that
 * lsk_services_poll runs. */
enum lsk_service_kind {
	LSK_SERVICE_ECHO,
	LSK_SERVICE_DISCARD,
	LSK_SERVICE_PCAP,
};
struct lsk_service;
int lsk_service_add(struct lsk_stack *s, enum lsk_service_kind kind,
		    uint32_t addr, uint16_t port, const char *path,
		    uint32_t ring_size);
void lsk_services_free(struct lsk_stack *s);
/* Services in a batch. */
int lsk_service_close(struct lsk_stack *s, uint32_t addr, uint16_t port);
void lsk_services_batch_end(struct lsk_stack *s, bool commit);
/* The service on addr:port (NULL: none), and what it is. */
const struct lsk_service *lsk_service_find(const struct lsk_stack *s,
					   uint32_t addr, uint16_t port);
struct lsk_service_info {
	uint32_t addr;
	uint16_t port;
	const char *kind;	/* "echo", "discard", "pcap" */
	const char *path;	/* pcap only */
	uint32_t ring_size;
	uint64_t datagrams;
};
void lsk_service_info(const struct lsk_service *svc,
		      struct lsk_service_info *out);

/* Stop serving a stack that is going away. */
void lsk_telemetry_forget(const struct lsk_stack *stack);
/* Wait for a telemetry read in progress: after it, a worker no longer
 * listed in its stack may be freed. */
void lsk_telemetry_quiesce(void);

#endif /* LSK_CONTROL_H */
