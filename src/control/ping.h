/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping and traceroute, the stack's side (control/ping.c): a sink for the
 * answers published to the workers (core/ping.h), echo requests built
 * here and queued on the send ring worker 0 drains (ip4/ip4_output.c),
 * and a wait that lets the stack's lock go. Control thread only.
 */
#ifndef LSK_CONTROL_PING_H
#define LSK_CONTROL_PING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ping.h"
#include "listack/ip6.h"

struct lsk_stack;

/* The most bytes of data after the ICMP header a probe carries: the
 * frame fits one mbuf of the send pool and a 1500-byte MTU. */
#define LSK_PING_SIZE_MAX 1472

struct lsk_ping_probe {
	uint32_t dst, src;	/* host order; src 0: the route's */
	uint16_t size;		/* data bytes after the ICMP header */
	uint16_t seq;
	uint8_t ttl;		/* IPv6: the hop limit */
	/* IPv6 (v6): an ICMPv6 echo request from src6 (given, never
	 * unspecified) to dst6; iface: the interface a link-local dst6
	 * is on (LSK_IFACE_ANY otherwise) */
	bool v6;
	uint16_t iface;
	struct lsk_ip6_addr dst6, src6;
};

/*
 * A new sink (its ICMP id chosen here) published to the workers.
 * -EBUSY when a ping is in progress already, -ENOMEM.
 */
int lsk_ping_open(struct lsk_stack *s, struct lsk_ping_sink **out);
/* The sink withdrawn (after a grace period), its records and itself
 * freed. */
void lsk_ping_close(struct lsk_stack *s, struct lsk_ping_sink *k);

/*
 * The source a probe to dst leaves from (the route's, as
 * lsk_route_get gives it): 0, or -ENETUNREACH without a route or
 * source.
 */
int lsk_ping_source(struct lsk_stack *s, uint32_t dst, uint32_t *src);
/* IPv6's: the source lsk_route6_get gives dst (iface: the interface of
 * a link-local dst, else LSK_IFACE_ANY); -ENETUNREACH likewise. */
int lsk_ping6_source(struct lsk_stack *s, const struct lsk_ip6_addr *dst,
		     uint16_t iface, struct lsk_ip6_addr *src);

/* Queue one echo request (ICMP, or ICMPv6 for p->v6); its send time (rte_rdtsc) in *tsc.
 * 0, or -ENOBUFS (no mbuf, the ring full). */
int lsk_ping_send(struct lsk_stack *s, const struct lsk_ping_sink *k,
		  const struct lsk_ping_probe *p, uint64_t *tsc);

/* Up to n answers taken; never waits. */
unsigned int lsk_ping_recv(struct lsk_ping_sink *k, struct lsk_ping_reply *r,
			   unsigned int n);

/* Sleep ms, without the stack's lock when this thread holds it (the
 * metrics and the services go on meanwhile). */
void lsk_ping_sleep(struct lsk_stack *s, unsigned int ms);

/* Stop (or no longer stop) the pings on s: one in progress ends at its
 * next look with what it has (lsk_ctl_stop: shutting down waits for no
 * ping). Any thread. */
void lsk_ping_stop(struct lsk_stack *s, bool stop);
bool lsk_ping_stopped(const struct lsk_stack *s);

/* Whether this thread holds s's lock (control/stack.c). */
bool lsk_stack_lock_is_mine(const struct lsk_stack *s);

#endif /* LSK_CONTROL_PING_H */
