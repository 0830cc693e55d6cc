/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * UDP endpoints, the application side of the bulk API: one ring dequeue
 * per receive call, and sends that build whole datagrams and queue them
 * for worker 0 to route. Bind and close (the endpoint table rebuilt and
 * published with RCU like the FIB) are the control thread's
 * (control/udp_table.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "core/fwd6.h"
#include "core/stage.h"
#include "udp/udp.h"
#include "core/shared.h"

/* The datagrams applications send (lsk_udp_send*): ip4_output takes
 * them from the send ring (a node, not a timed stage). */
LSK_STAGE_DECLARE(lsk_send_node,
	.name = "send", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("ip4_output"));

#define UDP_HDRS_LEN (sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr))
#define UDP6_HDRS_LEN (sizeof(struct rte_ipv6_hdr) + sizeof(struct rte_udp_hdr))
/* The most a receive call hands out at once. */
#define UDP_RECV_MAX 512	/* slots on the stack of one receive call */

uint32_t
lsk_udp_ep_addr(const struct lsk_udp_ep *ep)
{
	return ep->addr;
}

uint16_t
lsk_udp_ep_port(const struct lsk_udp_ep *ep)
{
	return ep->port;
}

void
lsk_udp_ep_local(const struct lsk_udp_ep *ep, struct lsk_udp_addr *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->family = ep->family;
	if (ep->family == AF_INET6)
		addr->v6 = ep->addr6;
	else
		addr->v4 = ep->addr;
}

void
lsk_udp_slot_fill(struct lsk_udp_slot *slot, struct rte_mbuf *m, bool gro)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)
		((uint8_t *)ip + (ip->version_ihl & 0xf) * 4u);

	slot->mbuf = m;
	slot->payload = uh + 1;
	slot->src_addr = rte_be_to_cpu_32(ip->src_addr);
	slot->dst_addr = rte_be_to_cpu_32(ip->dst_addr);
	slot->src_port = rte_be_to_cpu_16(uh->src_port);
	slot->len = (uint16_t)(rte_be_to_cpu_16(uh->dgram_len) - sizeof(*uh));
	slot->in_port = m->port;
	slot->gso_size = gro && (m->ol_flags & RTE_MBUF_F_RX_LRO) ?
			 m->tso_segsz : 0;
}

void
lsk_udp6_slot_fill(struct lsk_udp_slot *slot, struct rte_mbuf *m)
{
	const struct rte_udp_hdr *uh = rte_pktmbuf_mtod_offset(m,
		const struct rte_udp_hdr *, m->l2_len + m->l3_len);

	slot->mbuf = m;
	slot->payload = (void *)(uintptr_t)(uh + 1);
	slot->src_addr = slot->dst_addr = 0;
	slot->src_port = rte_be_to_cpu_16(uh->src_port);
	slot->len = (uint16_t)(rte_be_to_cpu_16(uh->dgram_len) - sizeof(*uh));
	slot->in_port = m->port;
	slot->gso_size = 0;
}

/* An IPv6 datagram's addresses, from its header behind the Ethernet
 * header (udp6_input delivers frames). */
static void
udp6_msg_addrs(struct lsk_udp_msg *msg)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(msg->mbuf,
		const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);

	memcpy(&msg->src_addr6, ip->src_addr, sizeof(msg->src_addr6));
	memcpy(&msg->dst_addr6, ip->dst_addr, sizeof(msg->dst_addr6));
}

int
lsk_udp_recv_burst(struct lsk_udp_ep *ep, struct lsk_udp_msg *msgs,
		   unsigned int n)
{
	struct lsk_udp_slot slots[UDP_RECV_MAX];
	unsigned int got, i;

	if (ep == NULL || (msgs == NULL && n > 0))
		return -EINVAL;
	got = rte_ring_sc_dequeue_burst_elem(ep->ring, slots, sizeof(slots[0]),
					     RTE_MIN(n, (unsigned int)UDP_RECV_MAX),
					     NULL);
	for (i = 0; i < got; i++) {
		struct lsk_udp_msg *msg = &msgs[i];

		/* the application frees it next: start fetching its lines */
		rte_prefetch0(slots[i].mbuf);
		rte_prefetch0(RTE_PTR_ADD(slots[i].mbuf, RTE_CACHE_LINE_SIZE));
		msg->src_addr = slots[i].src_addr;
		msg->dst_addr = slots[i].dst_addr;
		msg->src_port = slots[i].src_port;
		msg->dst_port = ep->port;
		msg->in_port = slots[i].in_port;
		msg->gso_size = slots[i].gso_size;
		msg->len = slots[i].len;
		msg->payload = slots[i].payload;
		msg->mbuf = slots[i].mbuf;
		if (unlikely(ep->family == AF_INET6))
			udp6_msg_addrs(msg);
	}
	return (int)got;
}

int
lsk_udp_recv_burst_timeout(struct lsk_udp_ep *ep, struct lsk_udp_msg *msgs,
			   unsigned int n, uint64_t timeout_us)
{
	const uint64_t hz = rte_get_timer_hz();
	uint64_t deadline = rte_get_timer_cycles() + timeout_us * hz / 1000000;
	unsigned int want = RTE_MIN(n, (unsigned int)UDP_RECV_MAX);

	if (ep == NULL || (msgs == NULL && n > 0))
		return -EINVAL;
	while (rte_ring_count(ep->ring) < want) {
		uint64_t now = rte_get_timer_cycles();

		if (now >= deadline)
			break;
		if ((deadline - now) * 1000000 / hz > 200) {
			/* far from the deadline: leave the CPU to others */
			struct timespec ts = { 0, 50 * 1000 };

			nanosleep(&ts, NULL);
		} else {
			rte_pause();
		}
	}
	return lsk_udp_recv_burst(ep, msgs, n);
}

/* The largest port MTU, from the settings word: the sending thread reads
 * no control-plane list (core/settings.h). */
static uint16_t
udp_max_mtu(const struct lsk_shared *sh)
{
	struct lsk_settings set;

	lsk_settings_load(&sh->settings, &set);
	return set.max_mtu;
}

/* The IP and UDP headers' bytes of ep's datagrams. */
static uint32_t
udp_hdrs_len(const struct lsk_udp_ep *ep)
{
	return ep->family == AF_INET6 ? UDP6_HDRS_LEN : UDP_HDRS_LEN;
}

/* An IPv4 header of a datagram of len bytes of payload; worker 0 adds
 * the source when it is 0 and the checksums (lsk_ip4_output). */
static struct rte_udp_hdr *
udp4_hdr(struct rte_ipv4_hdr *ip, const struct lsk_udp_ep *ep,
	 const struct lsk_udp_msg *msg, uint32_t len, uint16_t ip_id)
{
	ip->version_ihl = 0x45;
	ip->type_of_service = 0;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(UDP_HDRS_LEN + len));
	ip->packet_id = rte_cpu_to_be_16(ip_id);
	ip->fragment_offset = RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->hdr_checksum = 0;
	ip->src_addr = rte_cpu_to_be_32(msg->src_addr ? msg->src_addr :
					ep->addr);
	ip->dst_addr = rte_cpu_to_be_32(msg->dst_addr);
	return (struct rte_udp_hdr *)(ip + 1);
}

/* The same in IPv6 (no id: fragments get theirs from worker 0); an
 * unspecified source is worker 0's to choose (lsk_ip6_output_burst). */
static struct rte_udp_hdr *
udp6_hdr(struct rte_ipv6_hdr *ip, const struct lsk_udp_ep *ep,
	 const struct lsk_udp_msg *msg, uint32_t len)
{
	const struct lsk_ip6_addr *src = lsk_ip6_is_unspecified(
		&msg->src_addr6) ? &ep->addr6 : &msg->src_addr6;

	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16((uint16_t)(
		sizeof(struct rte_udp_hdr) + len));
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, src, sizeof(ip->src_addr));
	memcpy(ip->dst_addr, &msg->dst_addr6, sizeof(ip->dst_addr));
	return (struct rte_udp_hdr *)(ip + 1);
}

/* Headers of one datagram of len bytes of payload, and what of it fits
 * in m, with the lengths of total bytes of payload. */
static void
udp_build(struct rte_mbuf *m, const struct lsk_udp_ep *ep,
	  const struct lsk_udp_msg *msg, const uint8_t *payload,
	  uint32_t len, uint32_t total, uint16_t ip_id)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_udp_hdr *uh;

	memset(eh, 0, sizeof(*eh));
	if (ep->family == AF_INET6) {
		eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
		uh = udp6_hdr((struct rte_ipv6_hdr *)(eh + 1), ep, msg, total);
	} else {
		eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		uh = udp4_hdr((struct rte_ipv4_hdr *)(eh + 1), ep, msg, total,
			      ip_id);
	}
	uh->src_port = rte_cpu_to_be_16(msg->src_port ? msg->src_port :
					ep->port);
	uh->dst_port = rte_cpu_to_be_16(msg->dst_port);
	uh->dgram_len = rte_cpu_to_be_16((uint16_t)(sizeof(*uh) + total));
	uh->dgram_cksum = 0;
	memcpy(uh + 1, payload, len);
	m->data_len = (uint16_t)(RTE_ETHER_HDR_LEN + udp_hdrs_len(ep) + len);
	m->pkt_len = m->data_len;
}

/*
 * A datagram larger than one mbuf (and than the MTU: worker 0 sends it
 * in fragments, as Linux's IP_PMTUDISC_WANT does): the headers and what
 * fits in m, the rest of the payload in mbufs chained behind it.
 * -ENOBUFS without mbufs (m is then the caller's to free).
 */
static int
udp_build_chain(struct rte_mbuf *m, struct rte_mempool *pool,
		const struct lsk_udp_ep *ep, const struct lsk_udp_msg *msg,
		uint16_t ip_id)
{
	const uint8_t *payload = msg->payload;
	uint32_t first = rte_pktmbuf_tailroom(m) - RTE_ETHER_HDR_LEN -
			 udp_hdrs_len(ep);
	uint32_t off;

	udp_build(m, ep, msg, payload, first, msg->len, ip_id);
	for (off = first; off < msg->len;) {
		struct rte_mbuf *s = rte_pktmbuf_alloc(pool);
		uint32_t n;

		if (s == NULL)
			return -ENOBUFS;
		n = RTE_MIN(msg->len - off, (uint32_t)rte_pktmbuf_tailroom(s));
		memcpy(rte_pktmbuf_mtod(s, uint8_t *), payload + off, n);
		s->data_len = (uint16_t)n;
		s->pkt_len = n;
		if (rte_pktmbuf_chain(m, s) < 0) {
			rte_pktmbuf_free(s);
			return -ENOBUFS;
		}
		off += n;
	}
	return 0;
}

/* Datagrams a message becomes, or a negative errno. */
static int
udp_segments(const struct lsk_udp_ep *ep, const struct lsk_udp_msg *msg)
{
	uint32_t seg = msg->gso_size ? msg->gso_size : msg->len;
	unsigned int n;

	if (msg->dst_port == 0 || (msg->len > 0 && msg->payload == NULL) ||
	    (ep->family == AF_INET6 && lsk_ip6_is_unspecified(
		&msg->dst_addr6)))
		return -EINVAL;
	if (msg->len > LSK_UDP_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (msg->len == 0 || seg >= msg->len)
		return 1;	/* one datagram: fragmented if need be */
	/* GSO's pieces are datagrams of their own: each must fit */
	if (udp_hdrs_len(ep) + seg > udp_max_mtu(ep->sh))
		return -EMSGSIZE;
	n = (msg->len + seg - 1) / seg;
	if (n > LSK_UDP_MAX_SEGMENTS)
		return -EMSGSIZE;
	return (int)n;
}

static int
udp_send_one(struct lsk_udp_ep *ep, const struct lsk_udp_msg *msg)
{
	struct rte_mbuf *segs[LSK_UDP_MAX_SEGMENTS];
	const uint8_t *payload = msg->payload;
	struct rte_mempool *pool;
	uint32_t seg_len, off = 0;
	uint16_t id;
	int n, i;

	n = udp_segments(ep, msg);
	if (n < 0)
		return n;
	pool = ep->pool ? ep->pool : ep->sh->send_pool;
	if (pool == NULL ||
	    rte_pktmbuf_alloc_bulk(pool, segs, (unsigned int)n) != 0)
		return -ENOBUFS;
	seg_len = n > 1 ? msg->gso_size : msg->len;
	if (RTE_ETHER_HDR_LEN + udp_hdrs_len(ep) + seg_len >
	    rte_pktmbuf_tailroom(segs[0])) {
		/* one datagram, in mbufs chained: GSO's pieces fit an MTU,
		 * which an mbuf of the send pool holds */
		if (n > 1 || rte_pktmbuf_tailroom(segs[0]) <=
			     RTE_ETHER_HDR_LEN + udp_hdrs_len(ep)) {
			rte_pktmbuf_free_bulk(segs, (unsigned int)n);
			return -EMSGSIZE;
		}
		id = __atomic_fetch_add(&ep->next_ip_id, 1, __ATOMIC_RELAXED);
		if (udp_build_chain(segs[0], pool, ep, msg, id) < 0) {
			rte_pktmbuf_free(segs[0]);
			return -ENOBUFS;
		}
		goto enqueue;
	}
	id = __atomic_fetch_add(&ep->next_ip_id, (uint16_t)n,
				__ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		uint32_t len = RTE_MIN(seg_len, msg->len - off);

		udp_build(segs[i], ep, msg, payload + off, len, len,
			  (uint16_t)(id + i));
		off += len;
	}
enqueue:
	if (rte_ring_mp_enqueue_bulk(ep->sh->out_ring, (void **)segs,
				     (unsigned int)n, NULL) == 0) {
		rte_pktmbuf_free_bulk(segs, (unsigned int)n);
		return -ENOBUFS;
	}
	return 0;
}

int
lsk_udp_send_burst(struct lsk_udp_ep *ep, const struct lsk_udp_msg *msgs,
		   unsigned int n)
{
	unsigned int i;
	int rc;

	if (ep == NULL || (msgs == NULL && n > 0))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		rc = udp_send_one(ep, &msgs[i]);
		if (rc < 0)
			return i == 0 ? rc : (int)i;
	}
	return (int)n;
}
