/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Our own IPv6 datagrams larger than the egress MTU leave in fragments,
 * as a host's do (RFC 8200 4.5; forwarded ones never: ip6_forward
 * answers packet too big). Each fragment is the unfragmentable part (the
 * IPv6 header, hop-by-hop and routing headers and destination options
 * before a routing header), a fragment header with the datagram's id,
 * and its piece of the rest, in 8-byte units but the last; a piece is a
 * copy (rte_pktmbuf_copy), so the datagram may be in any segments. Each
 * goes to the neighbour through neighbour discovery (lsk_nd6_resolve).
 * FragOKs per datagram, FragCreates per fragment, FragFails when one
 * cannot be made (no mbuf). Fragments addressed to us are ip6_reasm.c's.
 *
 * The ids come from a counter per worker started at a random value
 * (RFC 7739 prefers one per destination: a known gap).
 */
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "core/fwd6.h"
#include "core/worker.h"
#include "ip6/ip6.h"
#include "ip6/nd6.h"

#define IP6_HDR_LEN 40
#define FRAG_HDR_LEN 8
#define IP6_PROTO_HOPOPTS 0
#define IP6_PROTO_ROUTING 43
#define IP6_PROTO_FRAGMENT 44
#define IP6_PROTO_DSTOPTS 60

/* The unfragmentable part's length and where its last next header
 * field is (an offset from the IPv6 header); 0 when the chain is not in
 * the first segment as it should be. */
static uint32_t
unfrag_len(const struct rte_mbuf *m, uint32_t *next_at)
{
	const uint8_t *ip = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t pos = IP6_HDR_LEN, at = 6, len;
	uint8_t nh = ip[6];

	while (nh == IP6_PROTO_HOPOPTS || nh == IP6_PROTO_ROUTING ||
	       nh == IP6_PROTO_DSTOPTS) {
		if (pos + 2 > m->data_len)
			return 0;
		len = (ip[pos + 1] + 1u) * 8u;
		/* destination options go with the fragments unless a
		 * routing header follows them */
		if (nh == IP6_PROTO_DSTOPTS &&
		    (pos + len + 1 > m->data_len ||
		     ip[pos] != IP6_PROTO_ROUTING))
			break;
		at = pos;
		nh = ip[pos];
		pos += len;
	}
	if (pos > m->data_len)
		return 0;
	*next_at = at;
	return pos;
}

/* Fragment k: the unfragmentable part, a fragment header and len bytes
 * of m from the fragmentable part's byte off, with room for an Ethernet
 * header in front; NULL without mbufs. */
static struct rte_mbuf *
frag_make(const struct rte_mbuf *m, uint32_t unfrag, uint32_t next_at,
	  uint32_t off, uint32_t len, bool more, rte_be32_t id)
{
	const uint8_t *ip = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rte_ipv6_fragment_ext *fh;
	struct rte_mbuf *h, *data;
	struct rte_ipv6_hdr *h6;
	uint8_t *p;

	h = rte_pktmbuf_alloc(m->pool);
	if (h == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(h, (uint16_t)(unfrag +
							FRAG_HDR_LEN));
	data = p == NULL ? NULL : rte_pktmbuf_copy(m, m->pool, unfrag + off,
						    len);
	if (data == NULL || rte_pktmbuf_chain(h, data) < 0) {
		rte_pktmbuf_free(data);
		rte_pktmbuf_free(h);
		return NULL;
	}
	memcpy(p, ip, unfrag);
	fh = (struct rte_ipv6_fragment_ext *)(p + unfrag);
	fh->next_header = ip[next_at];
	fh->reserved = 0;
	fh->frag_data = rte_cpu_to_be_16((uint16_t)(off | (more ? 1u : 0u)));
	fh->id = id;
	p[next_at] = IP6_PROTO_FRAGMENT;
	h6 = (struct rte_ipv6_hdr *)p;
	h6->payload_len = rte_cpu_to_be_16((uint16_t)(unfrag - IP6_HDR_LEN +
						      FRAG_HDR_LEN + len));
	h->port = m->port;
	return h;
}

void
lsk_ip6_fragment(struct lsk_worker *w, struct rte_mbuf *m,
		 const struct lsk_nexthop6 *nh, const struct lsk_ip6_addr *to)
{
	struct lsk_ip6_worker *ip6w = w->ip6w;
	uint32_t next_at = 0, unfrag = unfrag_len(m, &next_at);
	uint32_t total = rte_pktmbuf_pkt_len(m), rest, per, off;
	rte_be32_t id;

	if (unfrag == 0 || nh->mtu <= unfrag + FRAG_HDR_LEN + 8 ||
	    total <= unfrag) {
		w->stats.ip6.FragFails++;
		rte_pktmbuf_free(m);
		return;
	}
	per = (nh->mtu - unfrag - FRAG_HDR_LEN) & ~7u;
	rest = total - unfrag;
	if (unlikely(ip6w->frag_id == 0))
		ip6w->frag_id = (uint32_t)rte_rand() | 1u;
	id = rte_cpu_to_be_32(ip6w->frag_id++);
	for (off = 0; off < rest; off += per) {
		uint32_t len = RTE_MIN(per, rest - off);
		struct rte_mbuf *f = frag_make(m, unfrag, next_at, off, len,
					       off + len < rest, id);
		struct rte_ether_hdr *eh;

		eh = f == NULL ? NULL : (struct rte_ether_hdr *)
			rte_pktmbuf_prepend(f, sizeof(*eh));
		if (eh == NULL) {
			/* what went before is on its way: the datagram
			 * cannot be whole at the other end */
			rte_pktmbuf_free(f);
			w->stats.ip6.FragFails++;
			rte_pktmbuf_free(m);
			return;
		}
		eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
		w->stats.ip6.FragCreates++;
		lsk_nd6_resolve(w, to, nh->iface, f);
	}
	w->stats.ip6.FragOKs++;
	rte_pktmbuf_free(m);
}
