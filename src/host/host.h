/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path (DESIGN.md, "The host: exception path to the kernel"):
 * kernel TAP mirrors of our interfaces, the punt of what is addressed to
 * the router and that no stage consumes (worker -> ring -> host thread ->
 * TAP), and the inject of what the kernel sends (TAP -> host thread ->
 * ring -> worker 0 -> ip4_output). The only data plane code that makes
 * syscalls, all on the host thread (host_thread.c) or, for the TAPs
 * themselves, on the control thread that calls tap.c; never on a worker.
 *
 * Each listack interface (a port, or a VLAN on one) has at most one TAP,
 * its frames untagged: a VLAN's is a TAP of its own named NAME.V rather
 * than a kernel VLAN device on the port's TAP, so punt and inject never
 * push or strip a tag and the kernel's ifindex maps to one interface.
 */
#ifndef LSK_HOST_HOST_H
#define LSK_HOST_HOST_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "listack/listack.h"

struct rte_mbuf;
struct rte_mempool;
struct rte_ring;
struct lsk_worker;

/* A punt ring per worker, and the inject ring: their sizes. */
/* (a few milliseconds at the default rate: the host thread drains them
 * every millisecond, and what they hold is taken from the ports' pools) */
#define LSK_HOST_PUNT_RING 256
#define LSK_HOST_INJECT_RING 256
/* `host-if NAME rate PPS`: the default and the bounds */
#define LSK_HOST_RATE_DEFAULT 10000
#define LSK_HOST_RATE_MAX 10000000
/* a host-if's name: room for NAME.4094 in the kernel's IFNAMSIZ (16) */
#define LSK_HOST_NAME_MAX 11	/* with the NUL */

/* One worker's token bucket for one interface (written by that worker
 * only). */
struct lsk_host_bucket {
	uint64_t tsc;		/* of the last refill; 0: never */
	uint64_t tokens;
};

/* What the host thread counts itself (read by the control thread, summed
 * into the `host` section: control/host_ctl.c). */
struct lsk_host_counts {
	uint64_t to_kernel;	/* frames written to a TAP */
	uint64_t drops;		/* writes refused, reads with no mbuf or no
				 * room on the inject ring */
};

/*
 * The host path's long-lived state, made by the control thread with the
 * first TAP and freed with the stack: the rings, the buckets, the thread
 * and the TAPs' descriptors it reads and writes (under lock: the control
 * thread attaches and detaches them).
 */
struct lsk_host {
	struct rte_ring *punt[LSK_MAX_WORKERS];
	struct rte_ring *inject;
	struct rte_mempool *pool;	/* what the kernel sends lands in */
	/* buckets[w][iface], worker w's own */
	struct lsk_host_bucket (*buckets)[LSK_MAX_IFACES];

	pthread_mutex_t lock;
	int fds[LSK_MAX_IFACES];	/* -1: no TAP; under lock */
	uint32_t gen;			/* bumped by every attach/detach */
	uint32_t seen;			/* the gen the thread polls with */
	pthread_cond_t seen_cond;
	int wake_fd;			/* eventfd: the thread looks again */
	pthread_t thread;
	bool running;
	bool exited;			/* under lock: the thread is gone */
	volatile bool stop;
	struct lsk_host_counts counts;	/* atomics: the thread writes */
};

/*
 * What workers read, published by the control thread (sh.host; NULL: no
 * host-if anywhere, and every stage behaves as with no host path).
 */
struct lsk_host_table {
	uint64_t ifaces;	/* bit i: interface i has a TAP */
	uint16_t mcast_ports;	/* bit p: port p (or a VLAN of it) has one:
				 * eth_input takes 01:00:5e:00:00:xx */
	uint32_t rate[LSK_MAX_IFACES];	/* packets/s a worker may punt */
	uint32_t burst[LSK_MAX_IFACES];
	struct lsk_host *host;
};

/* --- the worker's side (host_punt.c) ------------------------------ */

/* The host path's drop reasons, each counted host.Drops (host_punt.c's
 * table), and its node for the views (worker/pipeline.c). */
enum lsk_host_drop {
	LSK_HOST_DROP_RATE,	/* over the host-if's rate */
	LSK_HOST_DROP_RING,	/* the worker's punt ring full */
	LSK_HOST_DROP_ARP,	/* ARP from the kernel: listack owns ARP */
	LSK_HOST_DROP_NOT_IP4,	/* from the kernel, neither ARP nor IP */
	LSK_HOST_DROP_ND,	/* ND from the kernel: listack owns ND */
	LSK_HOST_DROP_COUNT,
};
struct lsk_drop;
struct lsk_stage_desc;
extern const struct lsk_drop *const lsk_host_drop_rows;
extern const struct lsk_stage_desc lsk_host_node;

/* The ports on which eth_input takes 224.0.0.0/24's MACs. */
static inline uint16_t
lsk_host_mcast_ports(const struct lsk_host_table *t)
{
	return t->mcast_ports;
}

/* True when iface has a TAP: what the stages would drop for want of a
 * handler goes to the kernel instead. */
static inline bool
lsk_host_wants(const struct lsk_host_table *t, uint16_t iface)
{
	return t != NULL && iface < LSK_MAX_IFACES &&
	       ((t->ifaces >> iface) & 1);
}

/*
 * Hand m, addressed to the router and consumed by no stage, to the
 * kernel through the TAP of its interface (m->port), as the Ethernet
 * frame it arrived in (its VLAN tag stripped). Returns false, m
 * untouched, when that interface has no TAP: the caller drops it as it
 * would have. Over the interface's rate, or with the worker's ring full,
 * m is counted in host.Drops and freed.
 * Ownership: takes m when it returns true, else m stays the caller's.
 */
bool lsk_host_punt(struct lsk_worker *w, struct rte_mbuf *m);

/* The same for a train's datagrams (meta: its list entry's), one frame
 * each. Ownership: takes head and its members when it returns true. */
bool lsk_host_punt_entry(struct lsk_worker *w, struct rte_mbuf *head,
			 uint32_t meta);

/*
 * Worker 0, each flush: what the kernel sent since. ARP and ND are
 * dropped (listack owns them on the wire) and so is what is not IP,
 * counted in host.Drops; IPv4 multicast and broadcast leave at once by
 * the TAP's interface with the group's MAC; unicast IPv4 is left in
 * out[] (its number returned) for ip4_output to route and resolve as the
 * router's own, IPv6 in out6[] (*n6 of them, data at the IPv6 header,
 * m->port the TAP's interface) for ip6_output; at most LSK_BURST_MAX in
 * all (host.FromKernel counts what is sent or left).
 * Ownership: takes what it drops or sends; returns mbufs the caller owns
 * in out and out6.
 */
unsigned int lsk_host_inject_take(struct lsk_worker *w, struct rte_mbuf **out,
				  struct rte_mbuf **out6, unsigned int *n6);

/* --- the control thread's side ------------------------------------ */

/* The host path of a stack (host_thread.c): rings, buckets, the thread
 * running. NULL when something could not be made. */
struct lsk_host *lsk_host_create(int socket_id, struct rte_mempool *pool);
/* Stop the thread, free what the rings still hold (once no worker can
 * put anything on them), free it all. */
void lsk_host_free(struct lsk_host *h);
/* Let the thread read and write fd as interface iface's TAP (-1: none
 * any more; the caller closes the old descriptor after the call). */
void lsk_host_attach(struct lsk_host *h, uint16_t iface, int fd);
/* The thread's counts so far. */
void lsk_host_counts_read(const struct lsk_host *h, struct lsk_host_counts *c);

/* TAP devices (tap.c), on the control thread. name up to IFNAMSIZ-1. */
/* A new TAP (IFF_TAP | IFF_NO_PI, non-blocking, IFF_NOARP, IPv6 on but
 * for DAD, router solicitations and autoconfiguration: tap.c):
 * its descriptor, or a negative errno; *ifindex its kernel index. It
 * goes when the descriptor is closed. */
int lsk_tap_open(const char *name, unsigned int *ifindex);
int lsk_tap_set_mac(const char *name, const struct rte_ether_addr *mac);
int lsk_tap_set_mtu(const char *name, uint16_t mtu);
int lsk_tap_set_up(const char *name, bool up);
int lsk_tap_set_carrier(int fd, bool on);
/* Add (or delete) addr/depth (host order) on the TAP, by netlink. */
int lsk_tap_addr(unsigned int ifindex, uint32_t addr, uint8_t depth,
		 bool add);
/* The same for an IPv6 address (16 bytes, network order), no DAD. */
int lsk_tap_addr6(unsigned int ifindex, const uint8_t *addr, uint8_t depth,
		  bool add);

#endif /* LSK_HOST_HOST_H */
