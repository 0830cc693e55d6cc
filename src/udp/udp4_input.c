/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp4_input: Linux's __udp4_lib_rcv for the datagrams ip4_local handed
 * over: length checks, the checksum, endpoint lookup (address:port, then
 * 0.0.0.0:port; broadcasts only reach wildcard endpoints), then one bulk
 * ring enqueue per endpoint per burst. A full ring never blocks the
 * worker: what does not fit is counted and freed.
 *
 * No endpoint: the kernel's when the interface has a host-if
 * (host/host.h), else ICMP port unreachable (unicast only).
 */
#include <rte_byteorder.h>
#include <rte_hash.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "core/list.h"
#include "core/cksum.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"
#include "udp/udp.h"
#include "host/host.h"

enum udp_verdict {
	UDP_DELIVER,
	UDP_DROP_LENGTH,	/* InErrors */
	UDP_DROP_CSUM,		/* InCsumErrors and InErrors */
	UDP_DROP_NO_PORT,	/* NoPorts */
	UDP_DROP_IGNORED_BCAST,	/* IgnoredMulti: broadcast, no listener */
	UDP_DROP_RCVBUF,	/* RcvbufErrors and InErrors: ring full */
};

static const struct lsk_drop udp_drops[] = {
	[UDP_DROP_LENGTH] = LSK_DROP1(udp.InErrors),
	[UDP_DROP_CSUM] = LSK_DROP2(udp.InCsumErrors, udp.InErrors),
	[UDP_DROP_NO_PORT] = LSK_DROP_ICMP(udp.NoPorts,
			LSK_ICMP_DEST_UNREACH, LSK_ICMP_PORT_UNREACH),
	[UDP_DROP_IGNORED_BCAST] = LSK_DROP1(udp.IgnoredMulti),
	/* as Linux, a full receive queue counts twice */
	[UDP_DROP_RCVBUF] = LSK_DROP2(udp.RcvbufErrors, udp.InErrors),
};

static lsk_trace_fmt_t udp_trace;

LSK_STAGE_DECLARE(lsk_udp4_input_stage,
	.name = "udp4_input", .id = LSK_STAGE_UDP4_INPUT,
	.next = LSK_NEXT("icmp", "host"),
	.drops = udp_drops, .n_drops = RTE_DIM(udp_drops),
	.trace = udp_trace);


/* udp4_input's record, once the deliveries are known: the endpoint and
 * its ring (kept: a full ring ends it as udp.RcvbufErrors). */
static void
udp_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	const struct lsk_udp_deliveries *d = arg;
	unsigned int i, j;

	RTE_SET_USED(l);
	for (i = 0; i < d->n; i++) {
		const struct lsk_udp_pending *p = &d->ep[i];

		for (j = 0; j < p->n; j++) {
			char a[16];

			struct lsk_trace_pkt *t = lsk_trace_slot(w,
							     p->slots[j].mbuf);

			if (t == NULL)
				continue;
			lsk_trace_addr(p->ep->addr, a, sizeof(a));
			lsk_trace_rec(w, p->slots[j].mbuf, &lsk_udp4_input_stage,
				      false, "endpoint %s:%u, ring %s", a,
				      p->ep->port, p->ep->ring->name);
			lsk_trace_keep(w, t);
		}
	}
}
/* The same over a datagram in segments (reassembled from fragments). */
static bool
udp_csum_valid_segs(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
		    uint16_t ulen)
{
	uint32_t off = RTE_ETHER_HDR_LEN + (ip->version_ihl & 0xf) * 4u;
	uint32_t sum = __rte_raw_cksum(&ip->src_addr, 8, 0);
	uint16_t body;

	if (lsk_mbuf_cksum(m, off, ulen, &body) != 0)
		return false;
	sum += rte_cpu_to_be_16(IPPROTO_UDP) + rte_cpu_to_be_16(ulen) + body;
	return __rte_raw_cksum_reduce(sum) == 0xffff;
}

/* Pseudo-header plus the ulen bytes of UDP header and payload. */
static bool
udp_csum_ok(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	    const struct rte_udp_hdr *uh, uint16_t ulen)
{
	uint64_t flag = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	if (uh->dgram_cksum == 0)
		return true;	/* the sender computed none */
	/* NONE: the PMD verified the data, the field itself is not valid */
	if (flag == RTE_MBUF_F_RX_L4_CKSUM_GOOD ||
	    flag == RTE_MBUF_F_RX_L4_CKSUM_NONE)
		return true;
	if (flag == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		return false;
	if (likely(m->nb_segs == 1))
		return lsk_udp4_csum_valid(ip, uh, ulen);
	return udp_csum_valid_segs(m, ip, ulen);
}

static struct lsk_udp_ep *
udp_lookup(const struct lsk_udp_table *t, uint32_t dst, uint16_t port,
	   bool bcast)
{
	uint64_t key;
	void *ep;

	if (t == NULL || t->n == 0)
		return NULL;
	if (!bcast) {
		key = lsk_udp_key(dst, port);
		if (rte_hash_lookup_data(t->hash, &key, &ep) >= 0)
			return ep;
	}
	key = lsk_udp_key(0, port);
	if (rte_hash_lookup_data(t->hash, &key, &ep) >= 0)
		return ep;
	return NULL;
}

static enum udp_verdict
udp_check(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	  struct lsk_udp_ep **ep)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t hlen = (ip->version_ihl & 0xf) * 4u;
	uint32_t ip_payload = rte_be_to_cpu_16(ip->total_length) - hlen;
	const struct rte_udp_hdr *uh;
	const struct lsk_nexthop *nh;
	uint16_t ulen;

	if (unlikely(ip_payload < sizeof(*uh) ||
		     RTE_ETHER_HDR_LEN + hlen + sizeof(*uh) > m->data_len))
		return UDP_DROP_LENGTH;
	uh = (const struct rte_udp_hdr *)((const uint8_t *)ip + hlen);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (unlikely(ulen < sizeof(*uh) || ulen > ip_payload))
		return UDP_DROP_LENGTH;
	if (unlikely(ulen < ip_payload))
		lsk_mbuf_trim_to(m, RTE_ETHER_HDR_LEN + hlen + ulen);

	nh = &w->fwd->nexthops[meta & LSK_META_NH_MASK];
	*ep = NULL;
	if (unlikely(nh->type == LSK_NH_LOCAL_BCAST)) {
		/* a broadcast reaches wildcard endpoints only */
		*ep = udp_lookup(w->udp, 0, rte_be_to_cpu_16(uh->dst_port),
				 true);
		if (*ep == NULL)
			return UDP_DROP_IGNORED_BCAST;
	}
	if (unlikely(!udp_csum_ok(m, ip, uh, ulen)))
		return UDP_DROP_CSUM;
	if (*ep == NULL)
		*ep = udp_lookup(w->udp, rte_be_to_cpu_32(ip->dst_addr),
				 rte_be_to_cpu_16(uh->dst_port), false);
	return *ep != NULL ? UDP_DELIVER : UDP_DROP_NO_PORT;
}

/*
 * A train for a UDP_GRO-like endpoint becomes one datagram: the members'
 * payloads chained behind the head as segments, lengths set to the total,
 * the segment size kept in tso_segsz for the application.
 */
static void
udp_train_coalesce(struct rte_mbuf *head)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		head, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(ip + 1);
	struct rte_mbuf *m = *lsk_train_next(head), *next, *last = head;
	uint32_t payload = rte_be_to_cpu_16(uh->dgram_len) - sizeof(*uh);

	/* as a NIC's LRO marks what it coalesced: one datagram a segment */
	head->tso_segsz = (uint16_t)payload;
	head->ol_flags |= RTE_MBUF_F_RX_LRO;
	*lsk_train_next(head) = NULL;
	for (; m != NULL; m = next) {
		next = *lsk_train_next(m);
		rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN + sizeof(*ip) +
				   sizeof(*uh));
		last->next = m;
		last = m;
		head->nb_segs++;
		head->pkt_len += m->data_len;
		payload += m->data_len;
	}
	uh->dgram_len = rte_cpu_to_be_16((uint16_t)(sizeof(*uh) + payload));
	ip->total_length = rte_cpu_to_be_16((uint16_t)(sizeof(*ip) +
						       sizeof(*uh) + payload));
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

void
lsk_udp4_input(struct lsk_worker *w, struct lsk_list *l)
{
	const struct lsk_drop *full = &udp_drops[UDP_DROP_RCVBUF];
	struct lsk_udp_deliveries *d = &w->udpw->pending;
	uint32_t i;

	d->n = 0;
	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		struct lsk_udp_ep *ep;
		enum udp_verdict v = udp_check(w, m, l->meta[i], &ep);

		struct lsk_dgram_iter it;

		if (unlikely(v == UDP_DROP_NO_PORT ||
			     v == UDP_DROP_IGNORED_BCAST) &&
		    lsk_host_wants(w->host, m->port)) {
			/* no endpoint: the kernel's, through the host-if
			 * (host/host.h), each datagram as it came */
			lsk_udp_punt(w, m, l->meta[i]);
		} else if (unlikely(v != UDP_DELIVER)) {
			lsk_ip4_drop(w, m, l->meta[i], &udp_drops[v], 0);
		} else if (likely(!(l->meta[i] & LSK_META_COUNT_MASK))) {
			lsk_udp_pend(w, d, ep, m, full);
		} else if (lsk_meta_fraglist(l->meta[i]) &&
			   (ep->flags & LSK_UDP_GRO)) {
			/* a fraglist train to a UDP_GRO socket: one */
			udp_train_coalesce(m);
			lsk_udp_pend(w, d, ep, m, full);
		} else {
			/* members go in as the datagrams they are */
			for (m = lsk_dgram_first(&it, w, m, l->meta[i]);
			     m != NULL; m = lsk_dgram_next(&it))
				lsk_udp_pend(w, d, ep, m, full);
		}
	}
	/* before: delivered, they are the app's */
	LSK_STAGE_TRACE(w, &lsk_udp4_input_stage, NULL, d);
	for (i = 0; i < d->n; i++)
		lsk_udp_deliver(w, &d->ep[i], full);
	if (lsk_trace_on(w))	/* delivered: ended by slot */
		lsk_trace_kept_end(w);
	l->n = 0;
}
