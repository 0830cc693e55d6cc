/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which ICMP messages answer the control thread's probes (core/ping.h):
 * an echo reply with the probes' id, or a destination unreachable or
 * time exceeded whose quoted datagram is an ICMP echo request with it
 * (the quote holds the IP header and at least 8 bytes after it, RFC 792,
 * enough for the id and sequence number).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_icmp.h>
#include <rte_ip.h>

#include "core/ping.h"
#include "ip4/ip4.h"

bool
lsk_ping_match(const struct lsk_ping_sink *sink,
	       const struct rte_ipv4_hdr *ip, uint32_t len,
	       struct lsk_ping_reply *r)
{
	const struct rte_icmp_hdr *ih = (const struct rte_icmp_hdr *)
		((const uint8_t *)ip + (ip->version_ihl & 0xf) * 4u);
	const struct rte_icmp_hdr *q;
	const struct rte_ipv4_hdr *qip;
	uint32_t qhlen;

	if (sink == NULL || len < sizeof(*ih))
		return false;
	if (ih->icmp_type == RTE_IP_ICMP_ECHO_REPLY) {
		if (rte_be_to_cpu_16(ih->icmp_ident) != sink->ident)
			return false;
		q = ih;
	} else if (ih->icmp_type == LSK_ICMP_DEST_UNREACH ||
		   ih->icmp_type == LSK_ICMP_TIME_EXCEEDED) {
		if (len < sizeof(*ih) + sizeof(*qip))
			return false;
		qip = (const struct rte_ipv4_hdr *)(ih + 1);
		qhlen = (qip->version_ihl & 0xf) * 4u;
		if ((qip->version_ihl >> 4) != 4 || qhlen < sizeof(*qip) ||
		    len < sizeof(*ih) + qhlen + sizeof(*q) ||
		    qip->next_proto_id != IPPROTO_ICMP)
			return false;
		q = (const struct rte_icmp_hdr *)((const uint8_t *)qip + qhlen);
		if (q->icmp_type != RTE_IP_ICMP_ECHO_REQUEST ||
		    rte_be_to_cpu_16(q->icmp_ident) != sink->ident)
			return false;
	} else {
		return false;
	}
	r->tsc = 0;
	r->from = rte_be_to_cpu_32(ip->src_addr);
	r->seq = rte_be_to_cpu_16(q->icmp_seq_nb);
	r->len = (uint16_t)len;
	r->type = ih->icmp_type;
	r->code = ih->icmp_code;
	r->ttl = ip->time_to_live;
	r->v6 = 0;
	memset(r->from6, 0, sizeof(r->from6));
	return true;
}
