/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp6_input: Linux's __udp6_lib_rcv for the datagrams ip6_local handed
 * over (frames, the UDP header's offset in the meta word): length checks, the checksum, which
 * IPv6 requires (RFC 8200 8.1: a zero checksum is dropped and counted
 * as Linux counts it, InCsumErrors and InErrors), endpoint lookup
 * (address:port, then [::]:port; multicast only reaches [::] endpoints,
 * as Linux's sockets bound to :: take all-nodes), then delivery as
 * udp4_input's (udp_deliver.c).
 *
 * An endpoint has one family: one bound to an IPv6 address (or to [::])
 * takes IPv6 only, one bound to an IPv4 address (or 0.0.0.0) IPv4 only,
 * as Linux's AF_INET6 sockets with IPV6_V6ONLY set.
 *
 * No endpoint: the kernel's when the interface has a host-if
 * (host/host.h: punted as it came, a train each datagram as it came, as
 * IPv4's), else ICMPv6 port unreachable (never about multicast, which
 * counts IgnoredMulti). A train (udp6_gro.c, which checked each member's
 * checksum) is decided by its head and delivered as its datagrams.
 */
#include <rte_byteorder.h>
#include <rte_hash.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "core/cksum.h"
#include "core/drop.h"
#include "core/fwd6.h"
#include "core/list.h"
#include "core/stage.h"
#include "core/worker.h"
#include "host/host.h"
#include "ip6/ip6.h"
#include "udp/udp.h"

#define IP6_HDR_LEN 40

enum udp6_verdict {
	UDP6_DELIVER,
	UDP6_DROP_LENGTH,	/* InErrors */
	UDP6_DROP_CSUM,		/* InCsumErrors and InErrors */
	UDP6_DROP_ZERO_CSUM,	/* the same: IPv6 requires one */
	UDP6_DROP_NO_PORT,	/* NoPorts, port unreachable */
	UDP6_DROP_IGNORED_MULTI,	/* multicast, no listener */
	UDP6_DROP_RCVBUF,	/* RcvbufErrors and InErrors: ring full */
};

static const struct lsk_drop udp6_drops[] = {
	[UDP6_DROP_LENGTH] = LSK_DROP1(udp6.InErrors),
	[UDP6_DROP_CSUM] = LSK_DROP2(udp6.InCsumErrors, udp6.InErrors),
	[UDP6_DROP_ZERO_CSUM] = LSK_DROP2(udp6.InCsumErrors, udp6.InErrors),
	[UDP6_DROP_NO_PORT] = LSK_DROP_ICMP(udp6.NoPorts,
			LSK_ICMP6_DST_UNREACH, LSK_ICMP6_PORT_UNREACH),
	[UDP6_DROP_IGNORED_MULTI] = LSK_DROP1(udp6.IgnoredMulti),
	/* as Linux, a full receive queue counts twice */
	[UDP6_DROP_RCVBUF] = LSK_DROP2(udp6.RcvbufErrors, udp6.InErrors),
};

LSK_STAGE_DECLARE(lsk_udp6_input_stage,
	.name = "udp6_input", .id = LSK_STAGE_UDP6_INPUT,
	.next = LSK_NEXT("icmp6"),
	.drops = udp6_drops, .n_drops = RTE_DIM(udp6_drops));

/* Pseudo-header (RFC 8200 8.1) plus the ulen bytes from off. */
static bool
udp6_csum_ok(const struct rte_mbuf *m, const struct rte_ipv6_hdr *ip,
	     uint32_t off, uint16_t ulen)
{
	uint64_t flag = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;
	uint32_t sum;
	uint16_t body;

	if (flag == RTE_MBUF_F_RX_L4_CKSUM_GOOD ||
	    flag == RTE_MBUF_F_RX_L4_CKSUM_NONE)
		return true;
	if (flag == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		return false;
	sum = __rte_raw_cksum(ip->src_addr, 32, 0);
	sum += rte_cpu_to_be_16(IPPROTO_UDP) + rte_cpu_to_be_16(ulen);
	if (likely(m->nb_segs == 1))
		sum = __rte_raw_cksum(rte_pktmbuf_mtod_offset(m, const void *,
							      off), ulen, sum);
	else if (lsk_mbuf_cksum(m, off, ulen, &body) == 0)
		sum += body;
	else
		return false;
	return __rte_raw_cksum_reduce(sum) == 0xffff;
}

static struct lsk_udp_ep *
udp6_lookup(const struct lsk_udp_table *t, const uint8_t *dst, uint16_t port,
	    bool multi)
{
	struct lsk_udp_key6 key = { .port = port };
	void *ep;

	if (t == NULL || t->n6 == 0)
		return NULL;
	if (!multi) {
		memcpy(&key.addr, dst, sizeof(key.addr));
		if (rte_hash_lookup_data(t->hash6, &key, &ep) >= 0)
			return ep;
		memset(&key.addr, 0, sizeof(key.addr));
	}
	if (rte_hash_lookup_data(t->hash6, &key, &ep) >= 0)
		return ep;
	return NULL;
}

static enum udp6_verdict
udp6_check(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	   struct lsk_udp_ep **ep)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	/* ip6_local walked the chain: the UDP header's offset from the
	 * IPv6 header is in the meta word (ip6/ip6.h) */
	uint32_t off = meta & LSK_META_NH_MASK;
	uint32_t avail = IP6_HDR_LEN + rte_be_to_cpu_16(ip->payload_len);
	const struct rte_udp_hdr *uh;
	uint16_t ulen;
	bool multi;

	/* ip6_input cut the frame to the payload length; the headers up
	 * to UDP's are in the first segment */
	if (unlikely(off < IP6_HDR_LEN || off + sizeof(*uh) > avail ||
		     RTE_ETHER_HDR_LEN + avail > m->pkt_len ||
		     RTE_ETHER_HDR_LEN + off + sizeof(*uh) > m->data_len))
		return UDP6_DROP_LENGTH;
	uh = rte_pktmbuf_mtod_offset(m, const struct rte_udp_hdr *,
				     RTE_ETHER_HDR_LEN + off);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	/* a length of 0 is a jumbogram's (RFC 2675): none here */
	if (unlikely(ulen < sizeof(*uh) || ulen > avail - off))
		return UDP6_DROP_LENGTH;
	if (unlikely(ulen < avail - off))
		lsk_mbuf_trim_to(m, RTE_ETHER_HDR_LEN + off + ulen);
	m->l2_len = RTE_ETHER_HDR_LEN;
	m->l3_len = off;
	multi = ip->dst_addr[0] == 0xff;
	*ep = NULL;
	if (unlikely(multi)) {
		*ep = udp6_lookup(w->udp, NULL, rte_be_to_cpu_16(uh->dst_port),
				  true);
		if (*ep == NULL)
			return UDP6_DROP_IGNORED_MULTI;
	}
	if (unlikely(uh->dgram_cksum == 0))
		return UDP6_DROP_ZERO_CSUM;
	if (unlikely(!udp6_csum_ok(m, ip, RTE_ETHER_HDR_LEN + off, ulen)))
		return UDP6_DROP_CSUM;
	if (*ep == NULL)
		*ep = udp6_lookup(w->udp, ip->dst_addr,
				  rte_be_to_cpu_16(uh->dst_port), false);
	return *ep != NULL ? UDP6_DELIVER : UDP6_DROP_NO_PORT;
}

/* A train's datagrams each into ep's pending slots, with the head's
 * offsets (its members have the head's headers). */
static void
udp6_train_pend(struct lsk_worker *w, struct lsk_udp_deliveries *d,
		struct lsk_udp_ep *ep, struct rte_mbuf *head, uint32_t meta,
		const struct lsk_drop *full)
{
	const uint8_t l2 = head->l2_len;
	const uint16_t l3 = head->l3_len;
	struct lsk_dgram_iter it;
	struct rte_mbuf *m;

	for (m = lsk_dgram_first(&it, w, head, meta); m != NULL;
	     m = lsk_dgram_next(&it)) {
		m->l2_len = l2;
		m->l3_len = l3;
		lsk_udp_pend(w, d, ep, m, full);
	}
}

void
lsk_udp6_input(struct lsk_worker *w, struct lsk_list *l)
{
	const struct lsk_drop *full = &udp6_drops[UDP6_DROP_RCVBUF];
	struct lsk_udp_deliveries *d = &w->udpw->pending;
	uint32_t i;

	d->n = 0;
	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		struct lsk_udp_ep *ep;
		enum udp6_verdict v = udp6_check(w, m, l->meta[i], &ep);

		if (unlikely(v == UDP6_DROP_NO_PORT ||
			     v == UDP6_DROP_IGNORED_MULTI) &&
		    lsk_host_wants(w->host, m->port)) {
			/* no endpoint: the kernel's, through the host-if
			 * (host/host.h), each datagram as it came */
			lsk_udp_punt(w, m, l->meta[i]);
			continue;
		}
		if (unlikely(v != UDP6_DELIVER)) {
			lsk_ip6_drop(w, m, l->meta[i], &udp6_drops[v], 0);
			continue;
		}
		if (likely(!(l->meta[i] & LSK_META_COUNT_MASK))) {
			lsk_udp_pend(w, d, ep, m, full);
			continue;
		}
		/* a train (udp6_gro.c, which checked each member's
		 * checksum): its datagrams, as they came */
		udp6_train_pend(w, d, ep, m, l->meta[i], full);
	}
	for (i = 0; i < d->n; i++)
		lsk_udp_deliver(w, &d->ep[i], full);
	l->n = 0;
}
