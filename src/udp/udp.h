/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * UDP: endpoints and the table workers read, delivery to their rings,
 * udp4_input, GSO (trains cut back into datagrams). The endpoints' and
 * the services' control side is control/udp_table.c, control/services.c.
 */
#ifndef LSK_UDP_H
#define LSK_UDP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "listack/listack.h"
#include "listack/udp.h"

#include "core/list.h"
#include "core/stage.h"
#include "core/worker.h"
#include "udp/gro.h"

struct lsk_worker;
struct lsk_list;
struct lsk_drop;
struct rte_hash;
struct rte_ring;
struct rte_mempool;

/* The UDP endpoints as the workers see them, published like the FIB:
 * IPv4's and IPv6's apart (an endpoint has one family). */
struct lsk_udp_table {
	struct rte_hash *hash;	/* key: lsk_udp_key(addr, port) */
	uint32_t n;
	uint32_t n6;
	struct rte_hash *hash6;	/* key: struct lsk_udp_key6 */
};

/* An IPv6 endpoint's key: the unspecified address for `[::]:port`. */
struct lsk_udp_key6 {
	struct lsk_ip6_addr addr;
	uint16_t port;
	uint16_t zero;
};

static inline uint64_t
lsk_udp_key(uint32_t addr, uint16_t port)
{
	return (uint64_t)addr << 16 | port;
}

struct lsk_udp_ep {
	const struct lsk_shared *sh;	/* its stack's, for the sends */
	uint32_t addr;		/* IPv4's; 0 for an IPv6 endpoint */
	uint16_t port;
	uint8_t family;		/* AF_INET or AF_INET6 */
	struct lsk_ip6_addr addr6;	/* IPv6's */
	unsigned int flags;
	struct rte_ring *ring;
	struct rte_mempool *pool;
	uint16_t next_ip_id;	/* updated atomically by senders */
	struct lsk_udp_ep *next_closed;	/* on the stack's closed list */
};

/* Endpoints a burst may fill at once before one is delivered early. */
#define LSK_UDP_PENDING_EPS 8

/*
 * One datagram in an endpoint's ring. The worker, whose cache holds the
 * headers it just checked, writes what a receive reports next to the
 * mbuf pointer, so the application's core reads the ring and neither the
 * mbuf nor the frame. The destination port is the endpoint's.
 */
struct lsk_udp_slot {
	struct rte_mbuf *mbuf;
	void *payload;
	uint32_t src_addr, dst_addr;	/* host order */
	uint16_t src_port, len, in_port, gso_size;
};

/* Describe a checked datagram; gro: the endpoint takes coalesced trains.
 * Ownership: takes m into slot, whose ring's reader owns it. */
void lsk_udp_slot_fill(struct lsk_udp_slot *slot, struct rte_mbuf *m,
		       bool gro);

/* The same for a datagram to an IPv6 endpoint (data at its Ethernet
 * header, the IPv6 header behind it, the UDP header at l3_len from
 * that): the addresses stay in the frame, where a receive reads them.
 * Ownership: takes m into slot, whose ring's reader owns it. */
void lsk_udp6_slot_fill(struct lsk_udp_slot *slot, struct rte_mbuf *m);

/* udp4_input's and udp6_input's per-endpoint sublists of one burst */
struct lsk_udp_pending {
	struct lsk_udp_ep *ep;
	uint32_t n;
	struct lsk_udp_slot slots[LSK_BURST_MAX];
};

struct lsk_udp_deliveries {
	unsigned int n;
	struct lsk_udp_pending ep[LSK_UDP_PENDING_EPS];
};

/* The UDP layer's per-worker state (w->udpw): deliveries being gathered
 * for the endpoints, GRO's table and run pass. */
struct lsk_udp_worker {
	struct lsk_udp_deliveries pending;
	struct lsk_gro_table gro;
};

/*
 * GRO's one entry before L2, in list mode: runs of one flow become
 * trains (lsk_gro_rx_runs, when lsk_gro_rx_due says so), its cycles
 * counted with udp4_gro's. What the run pass left, GRO's table pass
 * (lsk_udp4_gro, its stage after eth_input) joins; whether it can join
 * anything at all, the fast path asks lsk_gro_burst_repeats. Inline: b
 * stays in the caller's registers.
 * Ownership: b's mbufs stay the caller's, as b says after the call.
 */
static inline void
lsk_gro_input(struct lsk_worker *w, struct lsk_gro_burst *b)
{
	struct lsk_gro_table *t = &w->udpw->gro;
	uint64_t tsc;

	if (!lsk_gro_rx_due(t, w->set.gro_flows, w->set.gro_merge))
		return;
	tsc = lsk_stage_begin(w, LSK_STAGE_UDP4_GRO);
	b->n = lsk_gro_rx_runs(w, b->pkts, b->n);
	lsk_stage_ahead(w, LSK_STAGE_UDP4_GRO, tsc);
	b->pkts = t->rx_heads;
	b->members = t->rx_members;
}

/*
 * Delivery (udp_deliver.c): m goes into ep's pending slots (the burst's
 * first endpoints' delivered early when d is full); then one enqueue per
 * endpoint, what its ring refuses dropped under full.
 * Ownership: takes m; takes p's mbufs.
 */
void lsk_udp_pend(struct lsk_worker *w, struct lsk_udp_deliveries *d,
		  struct lsk_udp_ep *ep, struct rte_mbuf *m,
		  const struct lsk_drop *full);
void lsk_udp_deliver(struct lsk_worker *w, struct lsk_udp_pending *p,
		     const struct lsk_drop *full);
/*
 * No endpoint, and m's interface has a host-if (lsk_host_wants): the
 * list entry m (a train: each datagram as it came) to the kernel,
 * udp4_input's and udp6_input's alike (udp_deliver.c).
 * Ownership: takes m and its members.
 */
void lsk_udp_punt(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta);

/* The stages' and nodes' declarations (core/stage.h). */
struct lsk_stage_desc;
extern const struct lsk_stage_desc lsk_udp4_input_stage;
extern const struct lsk_stage_desc lsk_udp6_input_stage;
extern const struct lsk_stage_desc lsk_gso_node;
extern const struct lsk_stage_desc lsk_send_node;

/* Deliver to the endpoints, answer or drop the rest; l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_udp4_input(struct lsk_worker *w, struct lsk_list *l);
/* The same for IPv6 (udp6_input.c): the checksum required, endpoints
 * bound to IPv6 addresses; l's entries frames as ip6_local hands them
 * (the UDP header's offset from the IPv6 header in the meta word's
 * LSK_META_NH_MASK bits); l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_udp6_input(struct lsk_worker *w, struct lsk_list *l);

/* GSO, a train cut back into datagrams (gso.c, udp6_gso.c). */
#include "udp/gso.h"

#endif /* LSK_UDP_H */
