/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping and traceroute, the stack's side (control/ping.h). The control
 * thread touches no worker state: it builds whole echo requests (source,
 * checksums) and queues them on the send ring that worker 0 routes
 * (ip4/ip4_output.c sends the ICMP among them as ICMP, the ICMPv6 to
 * ip6_output); the answers come back as records in the sink's ring
 * (core/ping.h, ip4/icmp4.c, ip6/icmp6.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "control/control.h"
#include "control/ping.h"
#include "listack/ctl.h"

/* Answers held between two looks (a look every few ms). */
#define PING_RING_SIZE 1024

int
lsk_ping_open(struct lsk_stack *s, struct lsk_ping_sink **out)
{
	static uint16_t next;
	char name[RTE_RING_NAMESIZE];
	struct lsk_ping_sink *k;

	if (s->sh.ping != NULL)
		return -EBUSY;
	k = rte_zmalloc("lsk_ping", sizeof(*k), 0);
	if (k == NULL)
		return -ENOMEM;
	/* an id of its own for each ping, as Linux's ping sockets give */
	k->ident = (uint16_t)((getpid() & 0xff) << 8 | (++next & 0xff));
	snprintf(name, sizeof(name), "lsk_ping_%u_%u", (unsigned)getpid(),
		 next);
	k->ring = rte_ring_create_elem(name, sizeof(struct lsk_ping_reply),
				       PING_RING_SIZE, s->sh.socket_id,
				       RING_F_SC_DEQ);
	if (k->ring == NULL) {
		rte_free(k);
		return -(rte_errno ? rte_errno : ENOMEM);
	}
	__atomic_store_n(&s->sh.ping, k, __ATOMIC_RELEASE);
	*out = k;
	return 0;
}

void
lsk_ping_close(struct lsk_stack *s, struct lsk_ping_sink *k)
{
	if (k == NULL)
		return;
	__atomic_store_n(&s->sh.ping, NULL, __ATOMIC_RELEASE);
	lsk_stack_synchronize(s);	/* no worker holds k any more */
	rte_ring_free(k->ring);
	rte_free(k);
}

int
lsk_ping_source(struct lsk_stack *s, uint32_t dst, uint32_t *src)
{
	struct lsk_route_answer a;

	if (lsk_route_get(s, dst, &a) < 0 ||
	    a.verdict != LSK_VERDICT_FORWARD || a.src == 0)
		return -ENETUNREACH;
	*src = a.src;
	return 0;
}

int
lsk_ping6_source(struct lsk_stack *s, const struct lsk_ip6_addr *dst,
		 uint16_t iface, struct lsk_ip6_addr *src)
{
	static const struct lsk_ip6_addr any;
	struct lsk_route6_answer a;

	if (lsk_route6_get(s, dst, iface, &a) < 0 ||
	    a.verdict != LSK_VERDICT_FORWARD ||
	    memcmp(&a.src, &any, sizeof(any)) == 0)
		return -ENETUNREACH;
	*src = a.src;
	return 0;
}

/* The probe's echo request (data bytes 0, 1, 2...) behind its IPv6
 * header at ip, its ICMPv6 checksum made. */
static void
ping6_fill(struct rte_ipv6_hdr *ip, const struct lsk_ping_sink *k,
	   const struct lsk_ping_probe *p)
{
	struct rte_icmp_hdr *ih = (struct rte_icmp_hdr *)(ip + 1);
	uint8_t *data = (uint8_t *)(ih + 1);
	uint16_t i;

	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16((uint16_t)(sizeof(*ih) + p->size));
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = p->ttl;
	memcpy(ip->src_addr, &p->src6, sizeof(ip->src_addr));
	memcpy(ip->dst_addr, &p->dst6, sizeof(ip->dst_addr));
	ih->icmp_type = 128;	/* echo request (RFC 4443 4.1) */
	ih->icmp_code = 0;
	ih->icmp_cksum = 0;
	ih->icmp_ident = rte_cpu_to_be_16(k->ident);
	ih->icmp_seq_nb = rte_cpu_to_be_16(p->seq);
	for (i = 0; i < p->size; i++)
		data[i] = (uint8_t)i;
	ih->icmp_cksum = rte_ipv6_udptcp_cksum(ip, ih);
}

/* The probe's echo request behind its IPv4 header at ip (len bytes in
 * all), its checksums made. */
static void
ping4_fill(struct rte_ipv4_hdr *ip, uint16_t len,
	   const struct lsk_ping_sink *k, const struct lsk_ping_probe *p)
{
	struct rte_icmp_hdr *ih = (struct rte_icmp_hdr *)(ip + 1);
	uint8_t *data = (uint8_t *)(ih + 1);
	uint16_t i;

	ip->version_ihl = 0x45;
	ip->type_of_service = 0;
	ip->total_length = rte_cpu_to_be_16(len);
	ip->packet_id = rte_cpu_to_be_16(p->seq);
	ip->fragment_offset = 0;
	ip->time_to_live = p->ttl;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = rte_cpu_to_be_32(p->src);
	ip->dst_addr = rte_cpu_to_be_32(p->dst);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	ih->icmp_type = RTE_IP_ICMP_ECHO_REQUEST;
	ih->icmp_code = 0;
	ih->icmp_cksum = 0;
	ih->icmp_ident = rte_cpu_to_be_16(k->ident);
	ih->icmp_seq_nb = rte_cpu_to_be_16(p->seq);
	for (i = 0; i < p->size; i++)
		data[i] = (uint8_t)i;
	ih->icmp_cksum = (uint16_t)~rte_raw_cksum(ih, sizeof(*ih) + p->size);
}

int
lsk_ping_send(struct lsk_stack *s, const struct lsk_ping_sink *k,
	      const struct lsk_ping_probe *p, uint64_t *tsc)
{
	const uint16_t len = (uint16_t)((p->v6 ? sizeof(struct rte_ipv6_hdr) :
					 sizeof(struct rte_ipv4_hdr)) +
					sizeof(struct rte_icmp_hdr) + p->size);
	struct rte_ether_hdr *eh;
	struct rte_mbuf *m;

	m = s->sh.send_pool == NULL ? NULL :
	    rte_pktmbuf_alloc(s->sh.send_pool);
	eh = m == NULL ? NULL : (struct rte_ether_hdr *)
		rte_pktmbuf_append(m, (uint16_t)(RTE_ETHER_HDR_LEN + len));
	if (eh == NULL) {
		rte_pktmbuf_free(m);
		return -ENOBUFS;
	}
	memset(eh, 0, RTE_ETHER_HDR_LEN);
	if (p->v6) {
		eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
		/* a link-local destination's interface: ip6_output reads
		 * it from the mbuf's port */
		m->port = p->iface;
		ping6_fill((struct rte_ipv6_hdr *)(eh + 1), k, p);
	} else {
		eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		ping4_fill((struct rte_ipv4_hdr *)(eh + 1), len, k, p);
	}
	*tsc = rte_rdtsc();
	if (rte_ring_mp_enqueue(s->sh.out_ring, m) != 0) {
		rte_pktmbuf_free(m);
		return -ENOBUFS;
	}
	return 0;
}

unsigned int
lsk_ping_recv(struct lsk_ping_sink *k, struct lsk_ping_reply *r,
	      unsigned int n)
{
	return rte_ring_sc_dequeue_burst_elem(k->ring, r, sizeof(*r), n,
					      NULL);
}

/* The stack whose pings are told to end (one stack a process, as
 * listack-fwd has; a library with several stops them one by one). */
static struct lsk_stack *ping_stopping;

void
lsk_ping_stop(struct lsk_stack *s, bool stop)
{
	if (stop)
		__atomic_store_n(&ping_stopping, s, __ATOMIC_RELEASE);
	else
		__atomic_compare_exchange_n(&ping_stopping, &s, NULL, false,
					    __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED);
}

bool
lsk_ping_stopped(const struct lsk_stack *s)
{
	return __atomic_load_n(&ping_stopping, __ATOMIC_ACQUIRE) == s;
}

void
lsk_ping_sleep(struct lsk_stack *s, unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	bool mine = lsk_stack_lock_is_mine(s);

	if (mine)
		lsk_stack_unlock(s);
	nanosleep(&ts, NULL);
	if (mine)
		lsk_stack_lock(s);
}
