/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack: a user-space IPv4/UDP stack that moves packets through its
 * stages as lists (vectors of mbufs) instead of one at a time.
 *
 * Threading model: one control thread owns a struct lsk_stack and is the
 * only caller of the configuration functions (lsk_address_add,
 * lsk_route_add, ...). Each worker lcore owns one struct lsk_worker and is
 * the only caller of lsk_worker_input / lsk_worker_flush on it. Workers read
 * the shared tables lock-free; the control thread publishes new tables and
 * waits for every registered worker to pass a quiescent state (rte_rcu_qsbr)
 * before freeing the old ones.
 *
 * Errors are negative errno values. The library never exits and never
 * writes to stdout.
 *
 * Addresses in this API are IPv4 addresses in host byte order.
 */
#ifndef LISTACK_H
#define LISTACK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LSK_MAX_PORTS 16
/* Interfaces: the ports themselves (ids 0 .. n_ports-1), then VLAN
 * sub-interfaces of them. */
#define LSK_MAX_IFACES 64
#define LSK_MAX_WORKERS 64
/* Largest burst lsk_worker_input accepts in one call. */
#define LSK_BURST_MAX 256
/* The most fragments a worker holds for reassembly: pools must have room
 * for them beside the ports' descriptors (lsk_pool_size counts them). */
#define LSK_REASM_HELD_MAX 1024

struct lsk_stack;
struct lsk_worker;

enum lsk_mode {
	LSK_MODE_LIST = 0,	/* a burst traverses every stage together */
	LSK_MODE_SINGLE,	/* each packet traverses the stages alone */
};

struct lsk_stack_params {
	unsigned int n_ports;	/* ports 0 .. n_ports-1 */
	int socket_id;		/* where shared tables live; SOCKET_ID_ANY ok */
	enum lsk_mode mode;
	/* FIB capacity to start with; 0 = sized from the routes. The FIB
	 * grows when routes need it. */
	uint32_t max_routes;
	/* mbufs for datagrams the stack sends (lsk_udp_send_burst); may
	 * be NULL when every endpoint brings its own pool */
	struct rte_mempool *send_pool;
	uint32_t out_ring_size;	/* queued sends; 0 = default (8192) */
	const char *name;	/* unique per process; NULL = "lsk" */
};

/* Create a stack. On success *stack is set and 0 returned. */
int lsk_stack_create(const struct lsk_stack_params *params,
		     struct lsk_stack **stack);
/* Frees the stack's tables. Workers must have been destroyed first. */
void lsk_stack_destroy(struct lsk_stack *stack);

enum lsk_mode lsk_stack_mode(const struct lsk_stack *stack);
/*
 * How workers run a burst from their next burst on (the `mode` command):
 * the mode the stack was created with until then. -EINVAL for a value
 * that is not an enum lsk_mode (nothing changes).
 */
int lsk_mode_set(struct lsk_stack *stack, enum lsk_mode mode);

/*
 * Fraglist GRO: flows = trains open at once (0 turns GRO off), segs =
 * datagrams per train (at most 64, Linux's UDP_GRO_CNT_MAX).
 */
int lsk_gro_set(struct lsk_stack *stack, uint32_t flows, uint32_t segs);
/*
 * merge: instead of chaining datagrams, copy each member's payload into
 * the head and cut it up again on the way out (how plain, non-fraglist
 * GRO forwards). Only a baseline for listack-bench: fraglist is faster.
 */
void lsk_gro_set_merge(struct lsk_stack *stack, bool merge);

/*
 * Route cache: each worker keeps up to `entries` destinations (0 turns it
 * off) in front of the FIB; any route or neighbour change empties it.
 */
int lsk_route_cache_set(struct lsk_stack *stack, uint32_t entries);

/* Port settings. mac NULL keeps the current MAC; mtu 0 keeps the MTU. */
int lsk_port_set(struct lsk_stack *stack, uint16_t port,
		 const struct rte_ether_addr *mac, uint16_t mtu);
int lsk_port_get(const struct lsk_stack *stack, uint16_t port,
		 struct rte_ether_addr *mac, uint16_t *mtu);
/*
 * The device behind a port follows its MTU: once set, the hook is called
 * for every port whose MTU a change (lsk_port_set, or a batch's commit)
 * makes different, before the tables with the new MTU are published. A
 * negative errno refuses the change: the devices already changed are set
 * back and the stack keeps its old MTUs. The application owns the ports,
 * so the hook is its own (listack-fwd's calls rte_eth_dev_set_mtu); NULL
 * turns it off (the stack's MTU alone, as before a hook is set).
 */
typedef int (*lsk_port_mtu_hook_t)(void *arg, uint16_t port, uint16_t mtu);
void lsk_port_mtu_hook(struct lsk_stack *stack, lsk_port_mtu_hook_t hook,
		       void *arg);

/* Interface address: adds the local /32, the connected subnet and its
 * broadcast address. -EEXIST if the address is already configured;
 * -EINVAL for a subnet's network or broadcast address (/30 and shorter);
 * -EADDRINUSE when the subnet overlaps another interface's. */
int lsk_address_add(struct lsk_stack *stack, uint32_t addr, uint8_t depth,
		    uint16_t port);
/*
 * The VLAN sub-interface vlan (1-4094) of port, made on first use: tagged
 * frames of that VLAN are its own, what it sends is tagged. Returns its
 * interface id (for lsk_address_add's port argument) or a negative errno.
 */
int lsk_vlan_iface(struct lsk_stack *stack, uint16_t port, uint16_t vlan);

/* Routes: listack/route.h. */
#include "listack/route.h"

/* IPv6: listack/ip6.h. */
#include "listack/ip6.h"

/* Admin state, names, the device's facts: listack/iface.h. */
#include "listack/iface.h"

/*
 * Remove one of our addresses (the interface it was added to, and its
 * prefix length, must match: else -EADDRNOTAVAIL). Its subnet and
 * broadcast go with it, and, as in Linux, the routes via a gateway and
 * the static neighbours no connected subnet reaches any more. -EBUSY
 * while a `udp listen` service is bound to it.
 */
int lsk_address_del(struct lsk_stack *stack, uint32_t addr, uint8_t depth,
		    uint16_t port);

/* Static neighbour. -ENETUNREACH when addr is on no connected subnet. */
int lsk_neigh_add(struct lsk_stack *stack, uint32_t addr,
		  const struct rte_ether_addr *mac);
/* Forget addr's neighbour, static or learnt (-ENOENT: none); forget them
 * all. Learnt ones come back with the next ARP exchange. */
int lsk_neigh_del(struct lsk_stack *stack, uint32_t addr);
int lsk_neigh_flush(struct lsk_stack *stack);

/*
 * Configuration changes made between lsk_config_begin and lsk_config_commit
 * are published to the workers once, at commit: the forwarding, filter and
 * UDP endpoint tables (each built before any is published), `udp listen`
 * services, the GRO and route-cache settings, neighbours forgotten. Outside
 * such a batch every change is published at once. A change (or a commit)
 * whose tables cannot be built fails (-ENOMEM) and leaves the tables in
 * force and the configuration as they were (for a batch: as
 * lsk_config_begin found them). lsk_config_begin fails (-ENOMEM) when it
 * cannot keep a copy to put back; there is then no batch.
 */
int lsk_config_begin(struct lsk_stack *stack);
int lsk_config_commit(struct lsk_stack *stack);
/* End a batch without applying it: the configuration is put back as
 * lsk_config_begin found it (the workers saw none of it). */
void lsk_config_abort(struct lsk_stack *stack);

/*
 * Read a configuration file (the control-command grammar,
 * docs/configuration.md) and apply it as one batch: every line is checked,
 * then all are applied, or none. On error returns a negative errno,
 * writes "FILE:LINE: what is wrong" into err and changes nothing: one
 * such line for each bad line, newlines between them (the first 20, then
 * "... and N more"; 4096 bytes hold them), cut at err_len.
 */
int lsk_config_load(struct lsk_stack *stack, const char *path, char *err,
		    size_t err_len);
/* 1 when the file at path has a command (a line other than blanks and
 * comments), 0 when it has none, a negative errno when it cannot be read. */
int lsk_config_file_has_commands(const char *path);
/*
 * config save and config reload (docs/configuration.md). The file they
 * use when given none (NULL: none): listack-fwd's --config. Save writes
 * the running configuration (`show config`) to path (NULL: that file)
 * atomically: a temporary file in its directory, fsync, rename. Reload
 * applies the difference between the running configuration and the file
 * as one batch (what both have is not touched); msg gets what it did
 * ("FILE: N added, N removed, N changed"). Both return 0, or a negative
 * errno with the reason in err/msg ("FILE:LINE: ..." for a bad line),
 * nothing changed. Under lsk_stack_lock when a control socket serves.
 */
int lsk_config_set_path(struct lsk_stack *stack, const char *path);
int lsk_config_save(struct lsk_stack *stack, const char *path, char *err,
		    size_t err_len);
int lsk_config_reload(struct lsk_stack *stack, const char *path, char *msg,
		      size_t msg_len);
/* Apply one command line (inside a batch, as part of it); file/line are
 * used in the error text only. */
int lsk_config_exec(struct lsk_stack *stack, const char *line,
		    const char *file, unsigned int lineno, char *err,
		    size_t err_len);

/* The workers: listack/worker.h. */
#include "listack/worker.h"

/* Counters: listack/stats.h. */
#include "listack/stats.h"

/*
 * Services of `udp listen ADDR:PORT echo | discard | pcap FILE`: the
 * config binds them; whoever calls lsk_services_poll runs them (one thread
 * only). Returns the datagrams handled.
 */
unsigned int lsk_services_poll(struct lsk_stack *stack);
/* The mbufs datagrams sent by the stack (echo replies, endpoints bound
 * without a pool) are taken from. */
void lsk_stack_set_send_pool(struct lsk_stack *stack,
			     struct rte_mempool *pool);
/* Per-service datagram counts as a JSON array. */
int lsk_services_write_json(const struct lsk_stack *stack, FILE *out);

/*
 * Serve the stack's counters on DPDK telemetry as /listack/stats. One
 * stack per process; calling again switches to the new stack.
 */
int lsk_telemetry_register(const struct lsk_stack *stack);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_H */
