/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * UDP endpoints: bind and close (control path, the endpoint table is
 * rebuilt and published with RCU like the FIB), and the application side
 * of the bulk API: one ring dequeue per receive call, and sends that build
 * whole datagrams and queue them for worker 0 to route.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "core/stage.h"
#include "udp/udp.h"
#include "control/control.h"

/* The datagrams applications send (lsk_udp_send*): ip4_output takes
 * them from the send ring (a node, not a timed stage). */
LSK_STAGE_DECLARE(lsk_send_node,
	.name = "send", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("ip4_output"));

#define UDP_HDRS_LEN (sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr))
/* The most a receive call hands out at once. */
#define UDP_RECV_MAX 512	/* slots on the stack of one receive call */

void
lsk_udp_table_free(struct lsk_udp_table *t)
{
	if (t == NULL)
		return;
	rte_hash_free(t->hash);
	rte_free(t);
}

int
lsk_udp_table_build(struct lsk_stack *s, struct lsk_udp_table **out)
{
	struct rte_hash_parameters hp = { 0 };
	struct lsk_udp_table *t;
	char name[64];
	unsigned int i;

	t = rte_zmalloc_socket("lsk_udp", sizeof(*t), 0, s->socket_id);
	if (t == NULL)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%.20s_udp%u", s->name,
		 ++s->udp_generation);
	hp.name = name;
	hp.entries = RTE_MAX(64u, 2 * s->n_eps);
	hp.key_len = sizeof(uint64_t);
	hp.hash_func = rte_hash_crc;
	hp.socket_id = s->socket_id;
	t->hash = rte_hash_create(&hp);
	if (t->hash == NULL) {
		rte_free(t);
		return -(rte_errno ? rte_errno : ENOMEM);
	}
	for (i = 0; i < s->n_eps; i++) {
		uint64_t key = lsk_udp_key(s->eps[i]->addr, s->eps[i]->port);

		if (rte_hash_add_key_data(t->hash, &key, s->eps[i]) < 0) {
			lsk_udp_table_free(t);
			return -ENOSPC;
		}
	}
	t->n = s->n_eps;
	*out = t;
	return 0;
}

static void
udp_ep_free(struct lsk_udp_ep *ep)
{
	struct lsk_udp_slot slot;

	if (ep->ring != NULL) {
		while (rte_ring_sc_dequeue_elem(ep->ring, &slot,
						sizeof(slot)) == 0)
			rte_pktmbuf_free(slot.mbuf);
		rte_ring_free(ep->ring);
	}
	rte_free(ep);
}

/* Endpoints closed before the table now published: no worker can reach
 * them any more. */
static void
udp_free_closed(struct lsk_stack *s)
{
	while (s->closed != NULL) {
		struct lsk_udp_ep *ep = s->closed;

		s->closed = ep->next_closed;
		udp_ep_free(ep);
	}
}

void
lsk_udp_table_publish(struct lsk_stack *s, struct lsk_udp_table *t)
{
	lsk_publish(s, s->udp, t, lsk_udp_table_free);
	udp_free_closed(s);
}

/* A failure leaves the published table, and every endpoint it names, as
 * they were. Endpoints a batch changes are published at its commit. */
static int
udp_publish(struct lsk_stack *s)
{
	struct lsk_udp_table *t;
	int rc;

	if (s->udp_defer)
		return 0;
	rc = lsk_udp_table_build(s, &t);
	if (rc < 0)
		return rc;
	lsk_publish(s, s->udp, t, lsk_udp_table_free);
	udp_free_closed(s);
	return 0;
}

int
lsk_udp_bind(struct lsk_stack *s, uint32_t addr, uint16_t port,
	     const struct lsk_udp_bind_opts *opts, struct lsk_udp_ep **out)
{
	static unsigned int ring_id;
	struct lsk_udp_bind_opts o = { 0 };
	struct lsk_udp_ep *ep;
	unsigned int i, flags;
	char name[RTE_RING_NAMESIZE];
	int rc;

	if (s == NULL || out == NULL || port == 0)
		return -EINVAL;
	if (opts != NULL)
		o = *opts;
	if (o.ring_size == 0)
		o.ring_size = LSK_UDP_RING_DEFAULT;
	if (o.ring_size > RTE_RING_SZ_MASK)
		return -EINVAL;
	if (addr != 0 && !lsk_stack_is_own(s, addr))
		return -EADDRNOTAVAIL;
	for (i = 0; i < s->n_eps; i++)
		if (s->eps[i]->addr == addr && s->eps[i]->port == port)
			return -EADDRINUSE;
	if (lsk_array_grow((void **)&s->eps, &s->eps_cap, s->n_eps,
			   sizeof(*s->eps), 16) < 0)
		return -ENOMEM;
	ep = rte_zmalloc_socket("lsk_udp_ep", sizeof(*ep), RTE_CACHE_LINE_SIZE,
				s->socket_id);
	if (ep == NULL)
		return -ENOMEM;
	ep->stack = s;
	ep->addr = addr;
	ep->port = port;
	ep->flags = o.flags;
	ep->pool = o.pool;
	ep->next_ip_id = 1;
	flags = RING_F_SC_DEQ | RING_F_EXACT_SZ;
	if (o.flags & LSK_UDP_SP)
		flags |= RING_F_SP_ENQ;
	snprintf(name, sizeof(name), "lsk_ep%u",
		 __atomic_fetch_add(&ring_id, 1, __ATOMIC_RELAXED));
	ep->ring = rte_ring_create_elem(name, sizeof(struct lsk_udp_slot),
					o.ring_size,
					o.socket_id == SOCKET_ID_ANY || !opts ?
					s->socket_id : o.socket_id, flags);
	if (ep->ring == NULL) {
		rc = -(rte_errno ? rte_errno : ENOMEM);
		udp_ep_free(ep);
		return rc;
	}
	s->eps[s->n_eps++] = ep;
	rc = udp_publish(s);
	if (rc < 0) {
		s->n_eps--;
		udp_ep_free(ep);
		return rc;
	}
	*out = ep;
	return 0;
}

void
lsk_udp_unlist(struct lsk_udp_ep *ep)
{
	struct lsk_stack *s = ep->stack;
	unsigned int i;

	for (i = 0; i < s->n_eps; i++) {
		if (s->eps[i] == ep) {
			s->eps[i] = s->eps[--s->n_eps];
			break;
		}
	}
}

/* Room is there: the list had ep when it was taken out, and what came
 * in since went out first. */
void
lsk_udp_relist(struct lsk_udp_ep *ep)
{
	struct lsk_stack *s = ep->stack;

	if (s->n_eps < s->eps_cap)
		s->eps[s->n_eps++] = ep;
}

void
lsk_udp_ep_discard(struct lsk_udp_ep *ep)
{
	lsk_udp_unlist(ep);
	udp_ep_free(ep);
}

void
lsk_udp_close(struct lsk_udp_ep *ep)
{
	struct lsk_stack *s;
	unsigned int i;

	if (ep == NULL)
		return;
	s = ep->stack;
	for (i = 0; i < s->n_eps; i++) {
		if (s->eps[i] == ep) {
			s->eps[i] = s->eps[--s->n_eps];
			break;
		}
	}
	/* freed once a table without it is published: now, or, when no
	 * table can be built now, with the next one (until then the table
	 * in force still delivers to it) */
	ep->next_closed = s->closed;
	s->closed = ep;
	udp_publish(s);
}

void
lsk_udp_close_all(struct lsk_stack *s)
{
	while (s->n_eps > 0)
		lsk_udp_close(s->eps[s->n_eps - 1]);
	/* the stack is going: no worker reads the table any more */
	lsk_udp_table_free(s->udp);
	s->udp = NULL;
	udp_free_closed(s);
}

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
udp_max_mtu(const struct lsk_stack *s)
{
	struct lsk_settings set;

	lsk_settings_load(&s->settings, &set);
	return set.max_mtu;
}

/* Headers of one datagram; worker 0 adds the source when it is 0, the
 * checksums and the Ethernet addresses (lsk_ip4_output). */
static void
udp_build(struct rte_mbuf *m, const struct lsk_udp_ep *ep,
	  const struct lsk_udp_msg *msg, const uint8_t *payload,
	  uint32_t len, uint16_t ip_id)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(ip + 1);

	memset(eh, 0, sizeof(*eh));
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
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
	uh->src_port = rte_cpu_to_be_16(msg->src_port ? msg->src_port :
					ep->port);
	uh->dst_port = rte_cpu_to_be_16(msg->dst_port);
	uh->dgram_len = rte_cpu_to_be_16((uint16_t)(sizeof(*uh) + len));
	uh->dgram_cksum = 0;
	memcpy(uh + 1, payload, len);
	m->data_len = (uint16_t)(RTE_ETHER_HDR_LEN + UDP_HDRS_LEN + len);
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
			 UDP_HDRS_LEN;
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(ip + 1);
	uint32_t off;

	udp_build(m, ep, msg, payload, first, ip_id);
	/* the lengths of the whole */
	ip->total_length = rte_cpu_to_be_16((uint16_t)(UDP_HDRS_LEN +
						       msg->len));
	uh->dgram_len = rte_cpu_to_be_16((uint16_t)(sizeof(*uh) + msg->len));
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
udp_segments(const struct lsk_stack *s, const struct lsk_udp_msg *msg)
{
	uint32_t seg = msg->gso_size ? msg->gso_size : msg->len;
	unsigned int n;

	if (msg->dst_port == 0 || (msg->len > 0 && msg->payload == NULL))
		return -EINVAL;
	if (msg->len > LSK_UDP_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (msg->len == 0 || seg >= msg->len)
		return 1;	/* one datagram: fragmented if need be */
	/* GSO's pieces are datagrams of their own: each must fit */
	if (UDP_HDRS_LEN + seg > udp_max_mtu(s))
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

	n = udp_segments(ep->stack, msg);
	if (n < 0)
		return n;
	pool = ep->pool ? ep->pool : ep->stack->send_pool;
	if (pool == NULL ||
	    rte_pktmbuf_alloc_bulk(pool, segs, (unsigned int)n) != 0)
		return -ENOBUFS;
	seg_len = n > 1 ? msg->gso_size : msg->len;
	if (RTE_ETHER_HDR_LEN + UDP_HDRS_LEN + seg_len >
	    rte_pktmbuf_tailroom(segs[0])) {
		/* one datagram, in mbufs chained: GSO's pieces fit an MTU,
		 * which an mbuf of the send pool holds */
		if (n > 1 || rte_pktmbuf_tailroom(segs[0]) <=
			     RTE_ETHER_HDR_LEN + UDP_HDRS_LEN) {
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

		udp_build(segs[i], ep, msg, payload + off, len,
			  (uint16_t)(id + i));
		off += len;
	}
enqueue:
	if (rte_ring_mp_enqueue_bulk(ep->stack->out_ring, (void **)segs,
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
