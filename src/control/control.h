/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control path: the stack (the configuration as given and the tables
 * published from it), the table builds and the counters.
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
#include "control/filter.h"
#include "control/fpm_ctl.h"
#include "control/routes.h"
#include "control/routes6.h"

struct rte_hash;
struct rte_ring;
struct rte_mempool;
struct rte_rcu_qsbr;
struct lsk_worker;
struct lsk_capture;
struct lsk_capture_ctl;
struct lsk_host_ctl;

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
	/* `port N mac` given (show config writes it only then: a replaced
	 * NIC keeps its own), and the MAC the port had before it */
	bool mac_given[LSK_MAX_PORTS];
	struct rte_ether_addr dev_mac[LSK_MAX_PORTS];
	/* config save|reload (cli/config_file.c): the file (NULL: none),
	 * the mode a fresh start from it gets; scratch: a stack a reload
	 * loads the file into to check it, which opens no file */
	char *config_path;
	enum lsk_mode start_mode;
	bool scratch;
	/* the devices follow the ports' MTUs (lsk_port_mtu_hook) */
	lsk_port_mtu_hook_t mtu_hook;
	void *mtu_hook_arg;
	/* the application's port facts and admin-state calls (listack/iface.h)
	 * and the ports' names ("": none), kept with the batch's copy */
	struct lsk_port_ops port_ops;
	void *port_ops_arg;
	char port_names[LSK_MAX_PORTS][LSK_PORT_NAME_MAX];
	/* the last refusal, for the batch's error: port (-1 none), MTU */
	int mtu_refused_port;
	uint16_t mtu_refused;

	/* the configuration as given (the RIB); the FIB is built from it */
	unsigned int n_addrs;
	struct lsk_ifaddr addrs[LSK_MAX_ADDRS];
	unsigned int n_routes, routes_cap;
	struct lsk_route *routes;
	struct rte_hash *route_index;	/* which (prefix, depth) are routed */
	/* learned routes and their index (control/route_learn.c); the
	 * entries lsk_route_learn skipped; ECMP path sets (route_paths.c) */
	unsigned int n_learned, learned_cap;
	struct lsk_route *learned;
	struct rte_hash *learn_index;
	uint64_t learn_skipped;
	unsigned int n_psets, psets_cap, n_pset_free;
	struct lsk_path_set *psets;
	uint32_t *pset_free;
	struct rte_hash *pset_index;
	unsigned int n_neighs, neighs_cap;
	struct lsk_neigh *neighs;
	/* IPv6's configuration (control/routes6.h): addresses as given
	 * (each interface's automatic link-local one is made from its MAC
	 * by every build, not kept), routes, static neighbours, the
	 * interfaces sending router advertisements (bit i: iface i) */
	unsigned int n_addrs6;
	struct lsk_ifaddr6 addrs6[LSK_MAX_ADDRS6];
	unsigned int n_routes6, routes6_cap;
	struct lsk_route6 *routes6;
	/* IPv6's learned routes and their index (control/route6_learn.c) */
	unsigned int n_learned6, learned6_cap;
	struct lsk_route6 *learned6;
	struct rte_hash *learn6_index;
	unsigned int n_neighs6, neighs6_cap;
	struct lsk_neigh6 *neighs6;
	uint64_t ra6;
	uint32_t fib6_generation;	/* names each IPv6 FIB uniquely */
	/* the same as fwd6, seen by no worker, and a batch's IPv6 route
	 * changes for its commit: as IPv4's below (control/fwd6_update.c) */
	struct lsk_fwd6_table *fwd6_standby;
	bool fwd6_keep_standby;
	unsigned int n_route6_log;
	bool route6_log_full;
	struct lsk_route6_delta route6_log[LSK_ROUTE_LOG_MAX];

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
		bool gro, rcache, stats_clear, mode, fpm;
		bool gro_merge;
		uint8_t mode_value;	/* enum lsk_mode */
		uint32_t gro_flows, gro_segs, rcache_entries;
		uint32_t fpm_addr;
		uint16_t fpm_port;
	} batch_set;
	uint32_t fib_generation;	/* names each FIB uniquely */
	/* `stats clear`'s count, published in the settings word; read by
	 * lsk_worker_poll_gap_max on any thread (atomic) */
	uint8_t poll_gap_epoch;
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
	/* and each worker's own stage counts then, unscaled: cycles per
	 * packet since the clear come from the runs timed since */
	struct lsk_stage_base {
		const struct lsk_worker *w;	/* whose they were */
		uint64_t packets[LSK_STAGE_COUNT];
		uint64_t cycles[LSK_STAGE_COUNT];	/* sampled */
		uint64_t timed[LSK_STAGE_COUNT];
	} stage_base[LSK_MAX_WORKERS];
	int64_t created;	/* CLOCK_MONOTONIC ns: `show version`'s uptime */

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
	/* `fpm listen` and the FPM server's state (control/fpm_ctl.h) */
	struct lsk_fpm_conf fpm;

	struct lsk_worker *workers[LSK_MAX_WORKERS];

	/* the host path (control/host_ctl.c): each port's host-if ("":
	 * none; its VLANs' are NAME.V), its punt rate (0: the default),
	 * and the kernel's side as made (NULL: nothing yet) */
	char host_if[LSK_MAX_PORTS][16];
	uint32_t host_rate[LSK_MAX_PORTS];
	struct lsk_host_ctl *host;
	char host_refused[16];	/* the TAP the last sync could not make */
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
/* The same for entries n .. n + more (the learned routes' stores of
 * both families, control/route_learn.c and route6_learn.c). */
int lsk_array_room(void **arr, unsigned int *cap, unsigned int n,
		   unsigned int more, size_t elem, unsigned int first);

/* Packet trace (control/trace_arm.c): arm n packets matching match (a
 * new trace: the last one's records go), clear, and free at the stack's
 * end. 0 or a negative errno; a failure leaves the trace as it was. */
struct lsk_trace_match;
int lsk_trace_arm(struct lsk_stack *s, uint64_t n,
		  const struct lsk_trace_match *match);
void lsk_trace_clear(struct lsk_stack *s);
void lsk_trace_free_stack(struct lsk_stack *s);

/* The interface id of port's VLAN vlan (0: the port), or -ENODEV. */
int lsk_iface_find(const struct lsk_stack *s, uint16_t port, uint16_t vlan);
/* Forget addr's neighbour entry (0: every entry): at the batch's commit,
 * or now outside a batch. */
int lsk_stack_forget_neigh(struct lsk_stack *s, uint32_t addr);

/* How the stack's tables reach the workers (control/publish.h). */
#include "control/publish.h"

#endif /* LSK_CONTROL_H */
