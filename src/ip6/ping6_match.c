/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which ICMPv6 messages answer the control thread's probes (core/ping.h),
 * ip4/ping_match.c's twin: an echo reply with the probes' id, or a
 * destination unreachable or time exceeded whose quoted packet is an
 * echo request with it. Our probes carry no extension header, so the
 * quote is their IPv6 header and the ICMPv6 header right behind it
 * (RFC 4443 quotes as much as fits, always more than these 48 bytes).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "core/ping.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"

/* The ICMPv6 header's first 8 bytes: type, code, checksum, id, seq. */
struct ping6_icmp {
	uint8_t type, code;
	rte_be16_t cksum, ident, seq;
};

bool
lsk_ping6_match(const struct lsk_ping_sink *sink,
		const struct rte_ipv6_hdr *ip, uint32_t off, uint32_t len,
		struct lsk_ping_reply *r)
{
	const struct ping6_icmp *ih = (const struct ping6_icmp *)
		((const uint8_t *)ip + off);
	const struct rte_ipv6_hdr *qip;
	const struct ping6_icmp *q;

	if (sink == NULL || len < sizeof(*ih))
		return false;
	if (ih->type == LSK_ICMP6_ECHO_REPLY) {
		if (rte_be_to_cpu_16(ih->ident) != sink->ident)
			return false;
		q = ih;
	} else if (ih->type == LSK_ICMP6_DST_UNREACH ||
		   ih->type == LSK_ICMP6_TIME_EXCEEDED) {
		/* 4 unused bytes, then the quote */
		if (len < sizeof(*ih) + sizeof(*qip) + sizeof(*q))
			return false;
		qip = (const struct rte_ipv6_hdr *)((const uint8_t *)ih +
						   sizeof(*ih));
		if ((rte_be_to_cpu_32(qip->vtc_flow) >> 28) != 6 ||
		    qip->proto != LSK_IP6_ICMP)
			return false;
		q = (const struct ping6_icmp *)(qip + 1);
		if (q->type != LSK_ICMP6_ECHO_REQUEST ||
		    rte_be_to_cpu_16(q->ident) != sink->ident)
			return false;
	} else {
		return false;
	}
	r->tsc = 0;
	r->from = 0;
	r->seq = rte_be_to_cpu_16(q->seq);
	r->len = (uint16_t)len;
	r->type = ih->type;
	r->code = ih->code;
	r->ttl = ip->hop_limits;
	r->v6 = 1;
	memcpy(r->from6, ip->src_addr, sizeof(r->from6));
	return true;
}
