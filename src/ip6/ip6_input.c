/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_input: the checks of Linux's ip6_rcv_core, in its order and with
 * its counters (RFC 8200 3, RFC 4291 2.7), then the extension header
 * chain walked with a bound (ip6/ip6_ext.h). Trims Ethernet padding to
 * the payload length. The hop limit is ip6_forward's to check.
 *
 * Stricter than Linux: a chain of more than LSK_IP6_EXT_MAX headers, or
 * one that does not end in the first LSK_IP6_CHAIN_MAX bytes, is dropped
 * (ip6.InHdrErrors, no ICMPv6), forwarded or not; a routing header of
 * type 0 with segments left is refused for every destination (RFC 5095
 * deprecates it; Linux refuses it only for its own).
 *
 * Known gaps: no jumbograms (RFC 2675: a payload length of 0 is a
 * datagram of none); no ECN counters.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/cksum.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/fwd6.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"

enum ip6_verdict {
	IP6_PASS,
	IP6_DROP_HDR,		/* InHdrErrors: version, addresses, chain */
	IP6_DROP_TRUNCATED,	/* InTruncatedPkts */
	IP6_DROP_OPTION,	/* InHdrErrors: an option says discard */
	IP6_DROP_PARAM_HDR,	/* InHdrErrors, parameter problem 0 */
	IP6_DROP_PARAM_NEXTHDR,	/* InHdrErrors, parameter problem 1 */
	IP6_DROP_PARAM_OPTION,	/* InHdrErrors, parameter problem 2 */
};

static const struct lsk_drop ip6_drops[] = {
	[IP6_DROP_HDR] = LSK_DROP1(ip6.InHdrErrors),
	[IP6_DROP_TRUNCATED] = LSK_DROP1(ip6.InTruncatedPkts),
	[IP6_DROP_OPTION] = LSK_DROP1(ip6.InHdrErrors),
	[IP6_DROP_PARAM_HDR] = LSK_DROP_ICMP(ip6.InHdrErrors,
			LSK_ICMP6_PARAM_PROB, LSK_ICMP6_HDR_FIELD),
	[IP6_DROP_PARAM_NEXTHDR] = LSK_DROP_ICMP(ip6.InHdrErrors,
			LSK_ICMP6_PARAM_PROB, LSK_ICMP6_UNK_NEXTHDR),
	[IP6_DROP_PARAM_OPTION] = LSK_DROP_ICMP(ip6.InHdrErrors,
			LSK_ICMP6_PARAM_PROB, LSK_ICMP6_UNK_OPTION),
};

static lsk_trace_fmt_t ip6_input_trace;

LSK_STAGE_DECLARE(lsk_ip6_input_stage,
	.name = "ip6_input", .id = LSK_STAGE_IP6_INPUT,
	.next = LSK_NEXT("ip6_route", "icmp6"),
	.drops = ip6_drops, .n_drops = RTE_DIM(ip6_drops),
	.trace = ip6_input_trace);

/* hop-by-hop and destination options (RFC 8200 4.2) */
#define OPT_PAD1 0
#define OPT_PADN 1
#define OPT_ROUTER_ALERT 5

/*
 * The options of the header at o (hl bytes) of the chain p: the walk's
 * verdict. An unknown option acts on its two high bits: 00 skip, 01
 * discard, 10 discard and parameter problem (code 2, pointing at it),
 * 11 the same unless the destination is multicast.
 */
static enum lsk_ip6_chain_verdict
chain_options(const uint8_t *p, uint32_t o, uint32_t hl, uint32_t flags,
	      struct lsk_ip6_chain *c)
{
	uint32_t i = o + 2, end = o + hl;

	while (i < end) {
		uint8_t type = p[i], ol;

		if (type == OPT_PAD1) {
			i++;
			continue;
		}
		if (i + 2 > end)
			return LSK_CHAIN_BAD;
		ol = p[i + 1];
		if (i + 2 + ol > end)
			return LSK_CHAIN_BAD;
		switch (type) {
		case OPT_PADN:
			break;
		case OPT_ROUTER_ALERT:
			if (ol != 2)
				return LSK_CHAIN_BAD;
			c->router_alert = 1;
			break;
		default:
			switch (type >> 6) {
			case 0:
				break;
			case 1:
				return LSK_CHAIN_DISCARD;
			case 3:
				if (flags & LSK_CHAIN_MCAST)
					return LSK_CHAIN_DISCARD;
				/* fall through */
			default:
				c->err_code = LSK_ICMP6_UNK_OPTION;
				c->err_ptr = (uint16_t)i;
				return LSK_CHAIN_PARAM;
			}
		}
		i += 2u + ol;
	}
	return LSK_CHAIN_OK;
}

static enum lsk_ip6_chain_verdict
chain_param(struct lsk_ip6_chain *c, uint8_t code, uint32_t ptr)
{
	c->err_code = code;
	c->err_ptr = (uint16_t)ptr;
	return LSK_CHAIN_PARAM;
}

/* One extension header at o of the chain p (avail bytes there): its
 * length in *hl, and what its content says. */
static enum lsk_ip6_chain_verdict
chain_header(const uint8_t *p, uint32_t avail, uint32_t o, uint8_t nh,
	     uint32_t flags, struct lsk_ip6_chain *c, uint32_t *hl)
{
	if (o + 8 > avail)	/* every extension header is 8 bytes or more */
		return LSK_CHAIN_BAD;
	if (nh == LSK_IP6_FRAGMENT)
		*hl = 8;
	else if (nh == LSK_IP6_AH)
		*hl = (p[o + 1] + 2u) * 4u;
	else
		*hl = (p[o + 1] + 1u) * 8u;
	if (o + *hl > avail)
		return LSK_CHAIN_BAD;
	switch (nh) {
	case LSK_IP6_HOPOPTS:
		return chain_options(p, o, *hl, flags, c);
	case LSK_IP6_DSTOPTS:
		return (flags & LSK_CHAIN_LOCAL) ?
		       chain_options(p, o, *hl, flags, c) : LSK_CHAIN_OK;
	case LSK_IP6_ROUTING:
		/* segments left: an unknown type (all are ours: we route
		 * by none) is refused, at its type field (RFC 8200
		 * 4.4); type 0 by everyone (RFC 5095) */
		if (p[o + 3] != 0 &&
		    (p[o + 2] == 0 || (flags & LSK_CHAIN_LOCAL)))
			return chain_param(c, LSK_ICMP6_HDR_FIELD, o + 2);
		return LSK_CHAIN_OK;
	default:
		return LSK_CHAIN_OK;
	}
}

enum lsk_ip6_chain_verdict
lsk_ip6_chain_walk(const struct rte_mbuf *m, uint32_t hdr_off, uint32_t len,
		   uint32_t flags, struct lsk_ip6_chain *c)
{
	uint8_t buf[LSK_IP6_CHAIN_MAX];
	const uint32_t avail = RTE_MIN(len, (uint32_t)LSK_IP6_CHAIN_MAX);
	const uint8_t *p;
	uint32_t o = sizeof(struct rte_ipv6_hdr), hl;
	enum lsk_ip6_chain_verdict v;
	uint8_t nh;

	memset(c, 0, sizeof(*c));
	if (len < o || rte_pktmbuf_pkt_len(m) < hdr_off + avail)
		return LSK_CHAIN_BAD;
	p = rte_pktmbuf_read(m, hdr_off, avail, buf);
	if (p == NULL)
		return LSK_CHAIN_BAD;
	nh = p[6];
	c->nh_off = 6;
	while (lsk_ip6_is_ext(nh)) {
		/* hop-by-hop options only right after the IPv6 header:
		 * elsewhere its value names no header (RFC 8200 4.1) */
		if (nh == LSK_IP6_HOPOPTS && o != sizeof(struct rte_ipv6_hdr))
			return chain_param(c, LSK_ICMP6_UNK_NEXTHDR,
					   c->nh_off);
		if (++c->n_ext > LSK_IP6_EXT_MAX)
			return LSK_CHAIN_BAD;
		v = chain_header(p, avail, o, nh, flags, c, &hl);
		if (v != LSK_CHAIN_OK)
			return v;
		if (nh == LSK_IP6_FRAGMENT) {
			c->frag_off = (uint16_t)o;
			/* a later piece: the rest of its chain is the first
			 * piece's */
			if ((p[o + 2] << 8 | (p[o + 3] & 0xf8)) != 0)
				break;
		}
		c->nh_off = (uint16_t)o;
		nh = p[o];
		o += hl;
	}
	c->proto = nh;
	c->off = (uint16_t)o;
	return LSK_CHAIN_OK;
}

static enum ip6_verdict
ip6_chain_verdict(struct rte_mbuf *m, const struct rte_ipv6_hdr *ip,
		  uint32_t len, uint32_t *info)
{
	struct lsk_ip6_chain c;
	uint32_t flags = lsk_ip6_is_multicast(lsk_ip6_dst(ip)) ?
			 LSK_CHAIN_MCAST : 0;

	switch (lsk_ip6_chain_walk(m, RTE_ETHER_HDR_LEN, len, flags, &c)) {
	case LSK_CHAIN_OK:
		return IP6_PASS;
	case LSK_CHAIN_DISCARD:
		return IP6_DROP_OPTION;
	case LSK_CHAIN_PARAM:
		*info = c.err_ptr;
		return c.err_code == LSK_ICMP6_UNK_OPTION ?
		       IP6_DROP_PARAM_OPTION : c.err_code ==
		       LSK_ICMP6_UNK_NEXTHDR ? IP6_DROP_PARAM_NEXTHDR :
		       IP6_DROP_PARAM_HDR;
	default:
		return IP6_DROP_HDR;
	}
}

/* ip6_rcv_core's order. info: the parameter problem's pointer. */
static enum ip6_verdict
ip6_check(struct rte_mbuf *m, uint32_t *info)
{
	const struct rte_ipv6_hdr *ip;
	const struct lsk_ip6_addr *src, *dst;
	uint32_t l3_len, len;

	if (unlikely(m->pkt_len < RTE_ETHER_HDR_LEN + sizeof(*ip) ||
		     m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip)))
		return IP6_DROP_HDR;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
				     RTE_ETHER_HDR_LEN);
	if (unlikely((((const uint8_t *)ip)[0] >> 4) != 6))
		return IP6_DROP_HDR;
	src = lsk_ip6_src(ip);
	dst = lsk_ip6_dst(ip);
	/* ::1 only on a loopback; interface-local (scope 1) and reserved
	 * (scope 0) multicast never from a link; no multicast source */
	if (unlikely(lsk_ip6_is_loopback(src) || lsk_ip6_is_loopback(dst)))
		return IP6_DROP_HDR;
	if (unlikely(lsk_ip6_is_multicast(dst) && (dst->a[1] & 0x0f) <= 1))
		return IP6_DROP_HDR;
	if (unlikely(lsk_ip6_is_multicast(src)))
		return IP6_DROP_HDR;
	l3_len = m->pkt_len - RTE_ETHER_HDR_LEN;
	len = sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len);
	if (unlikely(len > l3_len))
		return IP6_DROP_TRUNCATED;
	if (unlikely(len < l3_len))
		lsk_mbuf_trim_to(m, RTE_ETHER_HDR_LEN + len);
	if (unlikely(lsk_ip6_is_ext(ip->proto)))
		return ip6_chain_verdict(m, ip, len, info);
	return IP6_PASS;
}

/* ip6_input's record of one datagram. */
static void
ip6_input_trace_one(struct lsk_worker *w, const struct rte_mbuf *d)
{
	const struct rte_ipv6_hdr *ip;
	char src[LSK_TRACE_ADDR6_LEN], dst[LSK_TRACE_ADDR6_LEN];

	if (!lsk_traced(d))
		return;
	ip = lsk_trace_ip6(d);
	if (ip == NULL) {
		lsk_trace_rec(w, d, &lsk_ip6_input_stage, false,
			      "no IPv6 header");
		return;
	}
	lsk_trace_addr6(ip->src_addr, src, sizeof(src));
	lsk_trace_addr6(ip->dst_addr, dst, sizeof(dst));
	lsk_trace_rec(w, d, &lsk_ip6_input_stage, false,
		      "%s > %s next %u hlim %u plen %u", src, dst, ip->proto,
		      ip->hop_limits, rte_be_to_cpu_16(ip->payload_len));
}

/* ip6_input's record: the header as it came (before the stage). */
static void
ip6_input_trace(struct lsk_worker *w, const struct lsk_list *l,
		const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *d;

		/* each member of a train, as IPv4's */
		for (d = l->pkts[i]; d != NULL;
		     d = lsk_trace_entry_next(d, l->meta[i]))
			ip6_input_trace_one(w, d);
	}
}

void
lsk_ip6_input(struct lsk_worker *w, struct lsk_list *l)
{
	const uint32_t n = l->n;
	uint32_t i, kept = 0, count = 0;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		uint32_t info = 0;
		enum ip6_verdict v = ip6_check(m, &info);

		count += lsk_meta_count(l->meta[i]);
		if (likely(v == IP6_PASS)) {
			l->pkts[kept] = m;
			l->meta[kept] = l->meta[i];
			kept++;
		} else {
			lsk_ip6_drop(w, m, l->meta[i], &ip6_drops[v], info);
		}
	}
	w->stats.ip6.InReceives += count;
	l->n = kept;
}
