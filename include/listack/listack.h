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
 * broadcast address. -EEXIST if the address is already configured. */
int lsk_address_add(struct lsk_stack *stack, uint32_t addr, uint8_t depth,
		    uint16_t port);
/*
 * The VLAN sub-interface vlan (1-4094) of port, made on first use: tagged
 * frames of that VLAN are its own, what it sends is tagged. Returns its
 * interface id (for lsk_address_add's port argument) or a negative errno.
 */
int lsk_vlan_iface(struct lsk_stack *stack, uint16_t port, uint16_t vlan);

enum lsk_route_type {
	LSK_ROUTE_VIA = 0,	/* forward to a gateway on a connected subnet */
	LSK_ROUTE_BLACKHOLE,	/* drop silently, counted ip.InDiscards */
};

/*
 * Routes (addresses in host order). A change outside a batch is made to
 * the forwarding table in place, in time independent of the number of
 * routes (the table is built whole when it is full, or when the change
 * decides which neighbour /32s it needs); there is no fixed limit.
 *
 * lsk_route_add: -ENETUNREACH when a gateway is not on a connected
 * subnet, -EINVAL for a bad prefix or a gateway that is ours or a
 * broadcast, -EEXIST when the prefix is already routed (or is a
 * connected subnet).
 */
int lsk_route_add(struct lsk_stack *stack, uint32_t prefix, uint8_t depth,
		  enum lsk_route_type type, uint32_t gateway);
/* Add, or replace the route of (prefix, depth) (iproute2's `route
 * replace`); errors as lsk_route_add's, but -EEXIST only for a connected
 * subnet. */
int lsk_route_replace(struct lsk_stack *stack, uint32_t prefix, uint8_t depth,
		      enum lsk_route_type type, uint32_t gateway);
/* -ENOENT when no such route was added. */
int lsk_route_del(struct lsk_stack *stack, uint32_t prefix, uint8_t depth);
/* Delete every route lsk_route_add and lsk_route_replace made (not the
 * connected subnets of our addresses): how many, or a negative errno. */
int lsk_route_flush(struct lsk_stack *stack);

/* What the data path does with a destination (lsk_route_get). */
enum lsk_route_verdict {
	LSK_VERDICT_NO_ROUTE = 0,	/* dropped, ICMP net unreachable */
	LSK_VERDICT_LOCAL,		/* one of our addresses */
	LSK_VERDICT_BROADCAST,		/* a subnet broadcast, or all-ones */
	LSK_VERDICT_BLACKHOLE,		/* dropped silently */
	LSK_VERDICT_FORWARD,		/* sent out iface to next_hop */
};

/* The state of the next hop's neighbour entry, as Linux's NUD_*. */
enum lsk_route_neigh {
	LSK_RNEIGH_NONE = 0,	/* no entry yet: the first packet asks ARP */
	LSK_RNEIGH_INCOMPLETE,	/* ARP asked, no answer yet */
	LSK_RNEIGH_REACHABLE,
	LSK_RNEIGH_STALE,	/* known, unconfirmed: used, and probed */
	LSK_RNEIGH_FAILED,	/* no answer: packets to it are dropped */
	LSK_RNEIGH_STATIC,	/* `neigh add` */
};

/* What the prefix that matched is. */
enum lsk_route_origin {
	LSK_ORIGIN_NONE = 0,	/* nothing matched */
	LSK_ORIGIN_ROUTE,	/* lsk_route_add / replace */
	LSK_ORIGIN_CONNECTED,	/* the subnet of one of our addresses */
	LSK_ORIGIN_LOCAL,	/* our address, or a broadcast (a /32) */
};

struct lsk_route_answer {
	uint8_t verdict;	/* enum lsk_route_verdict */
	uint8_t origin;		/* enum lsk_route_origin */
	uint8_t depth;		/* of the matching prefix */
	uint8_t neigh_state;	/* enum lsk_route_neigh (FORWARD only) */
	uint32_t prefix;	/* the matching prefix */
	/* FORWARD: the gateway, or the destination itself when on a
	 * connected subnet */
	uint32_t next_hop;
	uint32_t src;		/* the source our own packets get (0: none) */
	uint16_t iface;		/* interface id: a port or a VLAN of one */
	uint16_t port;		/* the physical port */
	uint16_t vlan;		/* 0: untagged */
	uint16_t mtu;		/* IP MTU out of iface */
	struct rte_ether_addr neigh_mac;	/* when the state has one */
	uint32_t generation;	/* of the forwarding table answered from */
};

/*
 * What a packet to addr would meet now: read from the forwarding table
 * the workers use and the neighbour table, not from the configuration
 * (in a batch, the table before it). 0, or -EINVAL.
 */
int lsk_route_get(struct lsk_stack *stack, uint32_t addr,
		  struct lsk_route_answer *answer);

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
 * Read a configuration file (the control-command grammar, README.md
 * "Configuration") and apply it as one batch: every line is checked,
 * then all are applied, or none. On error returns a negative errno,
 * writes "FILE:LINE: what is wrong" into err and changes nothing.
 */
int lsk_config_load(struct lsk_stack *stack, const char *path, char *err,
		    size_t err_len);
/* Apply one command line (inside a batch, as part of it); file/line are
 * used in the error text only. */
int lsk_config_exec(struct lsk_stack *stack, const char *line,
		    const char *file, unsigned int lineno, char *err,
		    size_t err_len);

/*
 * Transmit hook. The default sends with rte_eth_tx_burst on the queue set
 * by lsk_worker_set_txq. Must return how many of pkts it took; the worker
 * frees the rest and counts them ports[].tx_dropped.
 * Ownership: takes the first (returned) of pkts; the rest stay the
 * caller's.
 */
typedef uint16_t (*lsk_tx_fn)(void *arg, uint16_t port, uint16_t queue,
			      struct rte_mbuf **pkts, uint16_t n);

/* Create the per-lcore state of worker `id` (0-based, < LSK_MAX_WORKERS). */
int lsk_worker_create(struct lsk_stack *stack, unsigned int id,
		      struct lsk_worker **worker);
void lsk_worker_destroy(struct lsk_worker *worker);
/*
 * Table updates (lsk_route_add, lsk_udp_bind, ...) wait until every
 * worker that has polled since it was created or last taken offline has
 * passed a lsk_worker_flush. A worker whose lcore stops polling (before
 * exiting its loop, or to sleep) must say so with lsk_worker_offline, or
 * updates wait for it; its next lsk_worker_input/flush brings it back.
 */
void lsk_worker_offline(struct lsk_worker *worker);

/*
 * Drop the packets still waiting for ARP answers, counted
 * arp.UnresolvedDiscards; for shutdown, once the workers stopped.
 * Returns how many.
 */
uint32_t lsk_neigh_drop_held(struct lsk_stack *stack);
/*
 * Most mbufs all neighbours together may hold while ARP resolves them;
 * more are dropped (arp.UnresolvedDiscards). 0, the default: an eighth
 * of the pool the packet to hold came from.
 */
void lsk_neigh_set_hold_max(struct lsk_stack *stack, uint32_t mbufs);
void lsk_worker_set_txq(struct lsk_worker *worker, uint16_t port,
			uint16_t queue);
void lsk_worker_set_tx_fn(struct lsk_worker *worker, lsk_tx_fn fn,
			  void *arg);

/*
 * Push a received burst (each mbuf's port field says where it arrived).
 * Each mbuf is sent, queued for sending, or counted and freed before
 * this call returns. n may be at most LSK_BURST_MAX.
 * Ownership: takes every mbuf of pkts.
 */
void lsk_worker_input(struct lsk_worker *worker, struct rte_mbuf **pkts,
		      uint16_t n);
/*
 * Send what the TX buffers hold and report a quiescent state to the
 * stack's RCU. Call once per poll loop iteration.
 */
void lsk_worker_flush(struct lsk_worker *worker);

/*
 * Counters, named after the Linux SNMP MIB. Summed over workers. Each
 * section's counters are listed once, here: X(name) for each, in the
 * order the JSON writes them; the structs below and the names the JSON
 * and telemetry use (src/control/stats.c) are made from these lists.
 */
#define LSK_IP_COUNTERS(X) \
	X(InReceives) X(InHdrErrors) X(InTruncatedPkts) X(InCsumErrors) \
	X(InAddrErrors) X(InNoRoutes) X(InDiscards) X(InUnknownProtos) \
	X(ForwDatagrams) X(OutDiscards) X(InDelivers) X(OutNoRoutes) \
	X(FragFails) X(FragOKs) X(FragCreates) X(ReasmReqds) X(ReasmOKs) \
	X(ReasmFails) X(ReasmTimeout) X(ReasmOverlaps) \
	X(ReasmDuplicates)	/* pieces dropped alone: Linux counts none */
#define LSK_UDP_COUNTERS(X) \
	X(InDatagrams) X(NoPorts) X(InErrors) X(InCsumErrors) \
	X(RcvbufErrors) X(OutDatagrams) X(IgnoredMulti)
#define LSK_ICMP_COUNTERS(X) \
	X(InMsgs) X(InErrors) X(InCsumErrors) X(InEchos) X(InEchoReps) \
	X(InDestUnreachs) X(InTimeExcds) \
	X(OutMsgs) X(OutErrors) X(OutEchoReps) X(OutDestUnreachs) \
	X(OutTimeExcds) X(OutRateLimited) \
	X(OutNoAddrs)		/* errors not sent: no address to send from */
#define LSK_ETH_COUNTERS(X) \
	X(InFrames) X(NotForUs) X(UnknownType) X(UnknownVlan) X(Runts)
#define LSK_ARP_COUNTERS(X) \
	X(InRequests) X(InReplies) X(InErrors) X(OutRequests) X(OutReplies) \
	X(Updates)		/* neighbour entries learnt or refreshed */ \
	X(ResFailed)		/* resolutions that got no answer */ \
	X(UnresolvedDiscards)	/* packets dropped for want of a MAC */ \
	X(TableFulls)		/* neighbours not made: no entry could go */ \
	X(Evictions)		/* entries the collector took for new ones */ \
	X(OutDiscards)		/* requests not sent: no mbuf */
#define LSK_GRO_COUNTERS(X) \
	X(Trains)		/* trains formed with at least two members */ \
	X(Merged)		/* datagrams that joined a train */
#define LSK_ROUTE_CACHE_COUNTERS(X) \
	X(Hits) X(Misses) X(Evictions) \
	/* lookups sent straight to the FIB while the cache hit too little \
	 * to pay for itself (fewer than 1 in 8 of 1024 lookups) */ \
	X(Bypassed)
#define LSK_FILTER_COUNTERS(X) \
	X(Dropped)		/* datagrams a filter rule dropped */
#define LSK_GSO_COUNTERS(X) \
	X(Segments)		/* datagrams sent by unchaining trains */

/* The sections in the JSON's order: S(section, struct tag, list). */
#define LSK_COUNTER_SECTIONS(S) \
	S(ip, lsk_ip_stats, LSK_IP_COUNTERS) \
	S(udp, lsk_udp_stats, LSK_UDP_COUNTERS) \
	S(icmp, lsk_icmp_stats, LSK_ICMP_COUNTERS) \
	S(eth, lsk_eth_stats, LSK_ETH_COUNTERS) \
	S(arp, lsk_arp_stats, LSK_ARP_COUNTERS) \
	S(gro, lsk_gro_stats, LSK_GRO_COUNTERS) \
	S(route_cache, lsk_route_cache_stats, LSK_ROUTE_CACHE_COUNTERS) \
	S(filter, lsk_filter_stats, LSK_FILTER_COUNTERS) \
	S(gso, lsk_gso_stats, LSK_GSO_COUNTERS)

#define LSK_COUNTER_FIELD(name) uint64_t name;
#define LSK_COUNTER_STRUCT(section, tag, list) \
	struct tag { list(LSK_COUNTER_FIELD) };
LSK_COUNTER_SECTIONS(LSK_COUNTER_STRUCT)
#undef LSK_COUNTER_STRUCT

struct lsk_port_stats {
	uint64_t rx, tx, rx_dropped, tx_dropped;
};

/* The stages counted in struct lsk_stats, in pipeline order (the order
 * of the stats' "stages" array). Each stage's name, the stages it hands
 * packets to and its drop reasons are in its declaration, at the top of
 * its file; lsk_stage_name gives the name. */
enum lsk_stage_id {
	LSK_STAGE_FWD_FAST,
	LSK_STAGE_ETH_INPUT,
	LSK_STAGE_ARP_INPUT,
	LSK_STAGE_UDP4_GRO,
	LSK_STAGE_IP4_INPUT,
	LSK_STAGE_IP4_FILTER,
	LSK_STAGE_IP4_ROUTE,
	LSK_STAGE_IP4_LOCAL,
	LSK_STAGE_IP4_FORWARD,
	LSK_STAGE_UDP4_INPUT,
	LSK_STAGE_ICMP4_INPUT,
	LSK_STAGE_IP4_OUTPUT,
	LSK_STAGE_TX,
	LSK_STAGE_COUNT,
};

struct lsk_stage_stats {
	uint64_t calls, packets, cycles;
};

struct lsk_stats {
	struct lsk_ip_stats ip;
	struct lsk_udp_stats udp;
	struct lsk_icmp_stats icmp;
	struct lsk_eth_stats eth;
	struct lsk_arp_stats arp;
	struct lsk_gro_stats gro;
	struct lsk_gso_stats gso;
	struct lsk_route_cache_stats route_cache;
	struct lsk_filter_stats filter;
	struct lsk_port_stats ports[LSK_MAX_PORTS];
	struct lsk_stage_stats stages[LSK_STAGE_COUNT];
};

const char *lsk_stage_name(enum lsk_stage_id id);

/* Sum the counters of every worker of the stack into *out. */
int lsk_stats_read(const struct lsk_stack *stack, struct lsk_stats *out);
/* Counters read from now on count from zero (the workers' own counters
 * are left alone: reads subtract what they were now). */
void lsk_stats_clear(struct lsk_stack *stack);
/* Counters of one worker only. */
void lsk_worker_stats_read(const struct lsk_worker *worker,
			   struct lsk_stats *out);

/*
 * Write the counters object (what --stats-json writes). mbufs_in_use < 0
 * leaves the field out (it is meaningful only after shutdown). extra, when
 * not NULL, is more members written as they are ("\"services\": [...]").
 */
int lsk_stats_write_json(const struct lsk_stats *stats, unsigned int n_ports,
			 long long mbufs_in_use, const char *extra, FILE *out);

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
