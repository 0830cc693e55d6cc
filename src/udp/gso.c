/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gso: unchain a train on its way out. Every member gets what the stages
 * decided for the head (Ethernet addresses, TOS, TTL, and addresses or
 * ports if a stage rewrote them), keeps its own IP ID and lengths, and
 * gets a correct IP checksum and a UDP checksum updated for any rewritten
 * address or port. The wire then carries byte for byte what per-packet
 * processing would have sent.
 */
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "core/stage.h"
#include "core/list.h"
#include "core/cksum.h"
#include "core/trace.h"
#include "core/worker.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "udp/udp.h"

/* Part of the output of ip4_forward and ip4_output (not a timed stage,
 * no edge of its own): its trace records the segments. */
static lsk_trace_fmt_t gso_trace;

LSK_STAGE_DECLARE(lsk_gso_node,
	.name = "gso", .id = LSK_STAGE_NONE,
	.trace = gso_trace);


/* gso's record: each datagram's place among the train's segments (arg:
 * the head). */
static void
gso_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	const struct rte_mbuf *head = arg;
	const struct rte_mbuf *d;
	unsigned int k = 0, j = 0;

	RTE_SET_USED(l);
	if (lsk_train_next_offset < 0)
		return;
	for (d = head; d != NULL; d = *lsk_train_next((struct rte_mbuf *)
						      (uintptr_t)d))
		k++;
	for (d = head; d != NULL; d = *lsk_train_next((struct rte_mbuf *)
						      (uintptr_t)d)) {
		j++;
		if (lsk_traced(d))
			lsk_trace_rec(w, d, &lsk_gso_node, false,
				      "segment %u of %u", j, k);
	}
}
/* The addresses and ports as UDP's checksum covers them, as 16-bit words. */
#define FLOW_WORDS 6

static void
flow_words(uint16_t w[FLOW_WORDS], const struct rte_ipv4_hdr *ip,
	   const struct rte_udp_hdr *uh)
{
	memcpy(&w[0], &ip->src_addr, 4);
	memcpy(&w[2], &ip->dst_addr, 4);
	w[4] = uh->src_port;
	w[5] = uh->dst_port;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') */
static uint16_t
csum_replace(uint16_t check, const uint16_t *o, const uint16_t *n)
{
	uint32_t sum = (uint16_t)~check;
	unsigned int i;

	for (i = 0; i < FLOW_WORDS; i++)
		sum += (uint16_t)~o[i] + (uint32_t)n[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void
gso_replicate(const struct rte_ether_hdr *heh, struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *hip = (const struct rte_ipv4_hdr *)(heh + 1);
	const struct rte_udp_hdr *huh = (const struct rte_udp_hdr *)(hip + 1);
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(ip + 1);

	memcpy(eh, heh, 2 * RTE_ETHER_ADDR_LEN);
	if (likely(ip->time_to_live == hip->time_to_live + 1 &&
		   ip->type_of_service == hip->type_of_service &&
		   ip->src_addr == hip->src_addr &&
		   ip->dst_addr == hip->dst_addr &&
		   lsk_udp_ports(uh) == lsk_udp_ports(huh))) {
		/* forwarding changed only the TTL: the very update the
		 * head got, so each bit equals per-packet output */
		lsk_ip4_decrease_ttl(ip);
		return;
	}
	ip->type_of_service = hip->type_of_service;
	ip->time_to_live = hip->time_to_live;
	if (unlikely(ip->src_addr != hip->src_addr ||
		     ip->dst_addr != hip->dst_addr ||
		     uh->src_port != huh->src_port ||
		     uh->dst_port != huh->dst_port)) {
		uint16_t o[FLOW_WORDS], n[FLOW_WORDS];

		flow_words(o, ip, uh);
		flow_words(n, hip, huh);
		/* a zero UDP checksum (none) never joins a train */
		uh->dgram_cksum = csum_replace(uh->dgram_cksum, o, n);
		if (uh->dgram_cksum == 0)
			uh->dgram_cksum = 0xffff;
		ip->src_addr = hip->src_addr;
		ip->dst_addr = hip->dst_addr;
		uh->src_port = huh->src_port;
		uh->dst_port = huh->dst_port;
	}
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

struct rte_mbuf *
lsk_gso_unchain(struct rte_mbuf *head)
{
	const struct rte_ether_hdr *heh =
		rte_pktmbuf_mtod(head, const struct rte_ether_hdr *);
	struct rte_mbuf *first = *lsk_train_next(head), *m;

	*lsk_train_next(head) = NULL;
	for (m = first; m != NULL; m = *lsk_train_next(m))
		gso_replicate(heh, m);
	return first;
}

/* As gso_send, for a next hop whose MAC ARP must find first. */
static void
gso_resolve(struct lsk_worker *w, struct rte_mbuf *head, uint32_t addr,
	    uint16_t port)
{
	struct rte_mbuf *m = lsk_gso_unchain(head), *next;
	uint64_t n = 1;

	lsk_neigh_resolve(w, addr, port, head);
	for (; m != NULL; m = next) {
		next = *lsk_train_next(m);
		lsk_neigh_resolve(w, addr, port, m);
		n++;
	}
	w->stats.gso.Segments += n;
}

/*
 * Is the forwarded head (TTL already lowered) still as its members were
 * received: same TOS, TTL one less, same addresses and ports?
 */
static inline bool
gso_head_as_received(const struct rte_ipv4_hdr *hip,
		     struct rte_mbuf *member)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(member,
		const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)(ip + 1);
	const struct rte_udp_hdr *huh = (const struct rte_udp_hdr *)(hip + 1);

	return ip->time_to_live == (uint8_t)(hip->time_to_live + 1) &&
	       ip->type_of_service == hip->type_of_service &&
	       ip->src_addr == hip->src_addr && ip->dst_addr == hip->dst_addr &&
	       lsk_udp_ports(uh) == lsk_udp_ports(huh);
}

/*
 * The common case, a train forwarded out of a port: unchained and queued
 * in one walk. Members joined only when their TOS, TTL, addresses and
 * ports equalled the head's, so one member tells for all whether a stage
 * rewrote the head after that: if not (forwarding alone touched it), each
 * member takes the head's Ethernet addresses and TTL and the very checksum
 * update the head got; if so, gso_replicate carries the rewrite over.
 * The TX buffer's count stays in a register (core/tx.h's train cursor).
 */
static void
gso_send_port(struct lsk_worker *w, struct rte_mbuf *head, uint16_t port)
{
	const uint8_t *hp = rte_pktmbuf_mtod(head, const uint8_t *);
	const struct rte_ipv4_hdr *hip = (const void *)(hp + RTE_ETHER_HDR_LEN);
	struct rte_mbuf *m = *lsk_train_next(head), *next;
	/* the link's offset in a register: the header stores below could
	 * alias the global as far as the compiler knows */
	const int link = lsk_train_next_offset;
	const uint8_t ttl = hip->time_to_live;
	const bool as_received = m != NULL && gso_head_as_received(hip, m);
	uint64_t macs_lo, segs = 1;
	uint32_t macs_hi;
	struct lsk_tx_train tx;

	memcpy(&macs_lo, hp, 8);
	memcpy(&macs_hi, hp + 8, 4);
	*lsk_train_next(head) = NULL;
	lsk_tx_enqueue(w, port, head);
	tx = lsk_tx_train_begin(w, port);
	for (; m != NULL; m = next) {
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		struct rte_ipv4_hdr *ip = (void *)(p + RTE_ETHER_HDR_LEN);

		next = *RTE_MBUF_DYNFIELD(m, link, struct rte_mbuf **);
		if (likely(as_received)) {
			uint32_t check = ip->hdr_checksum + RTE_BE16(0x0100);

			memcpy(p, &macs_lo, 8);
			memcpy(p + 8, &macs_hi, 4);
			ip->hdr_checksum = (uint16_t)(check + (check >= 0xffff));
			ip->time_to_live = ttl;
		} else {
			gso_replicate((const struct rte_ether_hdr *)hp, m);
		}
		lsk_tx_train_add(w, port, &tx, m);
		segs++;
	}
	lsk_tx_train_end(&tx);
	w->stats.gso.Segments += segs;
}

/* Unchain a fraglist train to TX, members rewritten like the head. */
static void
gso_send(struct lsk_worker *w, struct rte_mbuf *head, uint16_t port)
{
	const struct rte_ether_hdr *heh =
		rte_pktmbuf_mtod(head, const struct rte_ether_hdr *);
	struct rte_mbuf *m, *next;
	uint64_t n = 1;

	/* each member: its segment of the train */
	LSK_STAGE_TRACE(w, &lsk_gso_node, NULL, head);
	if (likely(port < w->n_ports)) {
		gso_send_port(w, head, port);
		return;
	}
	/* a VLAN sub-interface: each member gets its tag on the way */
	m = *lsk_train_next(head);
	*lsk_train_next(head) = NULL;
	lsk_tx_enqueue(w, port, head);
	for (; m != NULL; m = next) {
		next = *lsk_train_next(m);
		gso_replicate(heh, m);
		lsk_tx_enqueue(w, port, m);
		n++;
	}
	w->stats.gso.Segments += n;
}

/*
 * The one way a train leaves the stack (udp/gso.h): a fraglist train is
 * unchained, its members rewritten like the head; a merged one is cut
 * back into its datagrams; a datagram alone goes as it is.
 */
void
lsk_gso_output(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	       uint16_t port, uint32_t next_hop)
{
	struct lsk_dgram_iter it;

	if (lsk_meta_fraglist(meta)) {
		if (next_hop != 0)
			gso_resolve(w, m, next_hop, port);
		else
			gso_send(w, m, port);
		return;
	}
	for (m = lsk_dgram_first(&it, w, m, meta); m != NULL;
	     m = lsk_dgram_next(&it)) {
		if (next_hop != 0)
			lsk_neigh_resolve(w, next_hop, port, m);
		else
			lsk_tx_enqueue(w, port, m);
	}
}

/* Copy len bytes at off of m (in segments or not) to dst. */
static void
gso_copy(const struct rte_mbuf *m, uint32_t off, uint32_t len, void *dst)
{
	const void *p = rte_pktmbuf_read(m, off, len, dst);

	if (p != NULL && p != dst)
		memcpy(dst, p, len);
}

/*
 * One datagram of a merged train, off bytes into the head's payload:
 * the head's headers with its own lengths, ID and checksums, in a fresh
 * mbuf of the head's pool. NULL when there is no mbuf, or no room in one
 * (a pool with a small data room).
 */
static struct rte_mbuf *
gso_rebuild(const struct rte_mbuf *head, uint32_t off, uint32_t len,
	    uint16_t id)
{
	const uint32_t hdrs = RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) +
			      sizeof(struct rte_udp_hdr);
	struct rte_mbuf *m = rte_pktmbuf_alloc(head->pool);
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *uh;
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(hdrs + len));
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	gso_copy(head, 0, hdrs, p);
	gso_copy(head, hdrs + off, len, p + hdrs);
	ip = (struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);
	uh = (struct rte_udp_hdr *)(ip + 1);
	ip->total_length = rte_cpu_to_be_16((uint16_t)(28 + len));
	ip->packet_id = rte_cpu_to_be_16(id);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	uh->dgram_len = rte_cpu_to_be_16((uint16_t)(8 + len));
	uh->dgram_cksum = 0;
	uh->dgram_cksum = rte_ipv4_udptcp_cksum(ip, uh);
	if (uh->dgram_cksum == 0)
		uh->dgram_cksum = 0xffff;
	m->port = head->port;
	return m;
}

/* The payload bytes of a merged head, and its first IP ID. */
static inline uint32_t
gso_merged_total(const struct rte_mbuf *head, uint16_t *id)
{
	const struct rte_ipv4_hdr *hip = rte_pktmbuf_mtod_offset(head,
		const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);

	*id = rte_be_to_cpu_16(hip->packet_id);
	return rte_be_to_cpu_16(hip->total_length) - 28u;
}

struct rte_mbuf *
lsk_gso_rebuild(const struct rte_mbuf *head, unsigned int k)
{
	uint16_t id;
	uint32_t total = gso_merged_total(head, &id);
	uint32_t seg = head->tso_segsz, off = k * seg;

	if (off >= total)
		return NULL;
	return gso_rebuild(head, off, RTE_MIN(seg, total - off),
			   (uint16_t)(id + k));
}

unsigned int
lsk_gso_resegment(struct lsk_worker *w, struct rte_mbuf *head, uint32_t meta,
		  struct rte_mbuf **out)
{
	uint16_t id;
	uint32_t total = gso_merged_total(head, &id);
	uint32_t seg = head->tso_segsz, off = 0;
	unsigned int n = 0, count = lsk_meta_count(meta);

	while (off < total && n < count) {
		uint32_t len = RTE_MIN(seg, total - off);
		struct rte_mbuf *m = gso_rebuild(head, off, len,
						 (uint16_t)(id + n));

		if (m == NULL)
			break;
		out[n++] = m;
		off += len;
	}
	if (off < total)
		w->stats.ip.OutDiscards += count - n;	/* no mbufs, no room */
	rte_pktmbuf_free(head);
	w->stats.gso.Segments += n;
	return n;
}
