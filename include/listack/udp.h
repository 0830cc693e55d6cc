/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * UDP endpoints: the datagrams a worker delivers to an endpoint go into the
 * endpoint's rte_ring with one bulk enqueue per burst; the application
 * takes them out with one dequeue per call (protocol-level recvmmsg).
 *
 * Threads: any number of workers produce into an endpoint's ring (it is
 * multi-producer unless LSK_UDP_SP is given, for a stack with one worker);
 * ONE application thread consumes it: lsk_udp_recv_burst* on one endpoint
 * must not run in two threads at once. lsk_udp_send_burst may run in any
 * number of threads (the stack's output ring is multi-producer).
 * lsk_udp_bind and lsk_udp_close are control-thread calls, like the
 * configuration functions of listack.h.
 *
 * Addresses and ports are in host byte order.
 */
#ifndef LISTACK_UDP_H
#define LISTACK_UDP_H

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_udp_ep;

#define LSK_UDP_RING_DEFAULT 4096

/* lsk_udp_bind_opts.flags */
#define LSK_UDP_SP (1u << 0)	/* only one worker ever produces */
/*
 * Like Linux's UDP_GRO socket option: a train arrives as one datagram
 * whose payload is the members' payloads as mbuf segments, gso_size
 * telling the size of each (the last may be shorter).
 */
#define LSK_UDP_GRO (1u << 1)

struct lsk_udp_bind_opts {
	uint32_t ring_size;	/* datagrams the ring holds; 0 = 4096 */
	int socket_id;		/* ring memory; SOCKET_ID_ANY = the stack's */
	/* mbufs for lsk_udp_send_burst; NULL = the stack's send pool */
	struct rte_mempool *pool;
	unsigned int flags;
};

/*
 * Bind addr:port (addr 0 = every local address, and broadcasts).
 * -EADDRINUSE when that exact address:port is bound already,
 * -EADDRNOTAVAIL when addr is not one of ours, -EINVAL for port 0.
 * opts may be NULL.
 */
int lsk_udp_bind(struct lsk_stack *stack, uint32_t addr, uint16_t port,
		 const struct lsk_udp_bind_opts *opts, struct lsk_udp_ep **ep);

/* An address of either family (family AF_INET: v4, host order as
 * everywhere in this API; AF_INET6: v6, network order as listack/ip6.h). */
struct lsk_udp_addr {
	int family;
	union {
		uint32_t v4;
		struct lsk_ip6_addr v6;
	};
};

/*
 * Bind addr:port, either family: lsk_udp_bind for AF_INET. An endpoint
 * has one family: one bound to an IPv6 address takes the datagrams to
 * it, one bound to the unspecified address :: every IPv6 datagram to
 * its port (multicast included), never IPv4's (as a Linux AF_INET6
 * socket with IPV6_V6ONLY). Errors as lsk_udp_bind's, -EAFNOSUPPORT
 * for another family.
 */
int lsk_udp_bind_addr(struct lsk_stack *stack, const struct lsk_udp_addr *addr,
		      uint16_t port, const struct lsk_udp_bind_opts *opts,
		      struct lsk_udp_ep **ep);

/*
 * Unbind: after it returns no worker delivers to the endpoint any more;
 * datagrams still in its ring are freed. Datagrams already returned by
 * lsk_udp_recv_burst stay the application's to free.
 */
void lsk_udp_close(struct lsk_udp_ep *ep);

uint32_t lsk_udp_ep_addr(const struct lsk_udp_ep *ep);	/* 0 for IPv6's */
uint16_t lsk_udp_ep_port(const struct lsk_udp_ep *ep);
/* The endpoint's address, either family. */
void lsk_udp_ep_local(const struct lsk_udp_ep *ep, struct lsk_udp_addr *addr);

struct lsk_udp_msg {
	uint32_t src_addr;	/* recv: the sender; send: 0 = choose */
	uint32_t dst_addr;	/* recv: where it was sent; send: where to */
	uint16_t src_port;	/* recv: the sender; send: 0 = the ep's */
	uint16_t dst_port;
	uint16_t in_port;	/* recv: the port it arrived on */
	/*
	 * send: cut the payload into datagrams of gso_size bytes (the last
	 * may be shorter), as UDP_SEGMENT does; 0 = one datagram.
	 * recv (LSK_UDP_GRO endpoints): the size of each datagram that was
	 * coalesced into this one, 0 when it is a single datagram; the
	 * payload then spans mbuf's segments, payload pointing at the first.
	 */
	uint16_t gso_size;
	uint32_t len;		/* payload bytes */
	/* recv: points into mbuf; send: the bytes to send (copied) */
	void *payload;
	/*
	 * recv: the datagram's mbuf, data starting at its Ethernet header.
	 * The application owns it and frees it (rte_pktmbuf_free) when it
	 * is done with payload. send: unused.
	 */
	struct rte_mbuf *mbuf;
	/*
	 * An IPv6 endpoint's addresses, src_addr and dst_addr 0 (an IPv4
	 * endpoint's messages leave them alone): recv: the sender, where
	 * it was sent; send: the unspecified address = choose, where to.
	 */
	struct lsk_ip6_addr src_addr6, dst_addr6;
};

/*
 * Take up to n datagrams with one ring dequeue; never blocks, never
 * returns more than n. Returns how many were filled in.
 * Ownership: returns msgs[].mbuf, mbufs the caller owns.
 */
int lsk_udp_recv_burst(struct lsk_udp_ep *ep, struct lsk_udp_msg *msgs,
		       unsigned int n);

/*
 * As lsk_udp_recv_burst, but waits until n datagrams are queued or
 * timeout_us has passed, whichever is first, then dequeues once. The
 * timeout holds even when datagrams keep trickling in (unlike recvmmsg's
 * first timeout, checked only after each datagram). Returns 0..n.
 * Ownership: returns msgs[].mbuf, mbufs the caller owns.
 */
int lsk_udp_recv_burst_timeout(struct lsk_udp_ep *ep,
			       struct lsk_udp_msg *msgs, unsigned int n,
			       uint64_t timeout_us);

/*
 * Send up to n messages from the endpoint. Each message's payload is
 * copied into new mbufs; a message with gso_size leaves as
 * ceil(len / gso_size) datagrams, each with its own IP ID, lengths and
 * checksums. Without gso_size a message is one datagram of up to 65507
 * bytes, in fragments where it is over the egress MTU (as Linux's
 * IP_PMTUDISC_WANT, the UDP default). Messages are routed and resolved
 * like forwarded traffic by a worker (the one with id 0) at its next
 * lsk_worker_flush.
 * Returns how many messages were queued whole, or a negative errno when
 * the first one fails: -EMSGSIZE (a gso_size piece larger than every
 * port's MTU, a payload over 65507 bytes or more than 64 segments), -EINVAL
 * (port 0, no payload pointer), -ENOBUFS (no mbufs, or the output ring is
 * full). What happens after (no route, no neighbour) is counted by
 * worker 0.
 */
int lsk_udp_send_burst(struct lsk_udp_ep *ep, const struct lsk_udp_msg *msgs,
		       unsigned int n);

#define LSK_UDP_MAX_PAYLOAD 65507
#define LSK_UDP_MAX_SEGMENTS 64

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_UDP_H */
