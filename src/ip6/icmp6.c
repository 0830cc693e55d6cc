/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * icmp6_input: the ICMPv6 messages to us (RFC 4443). The checksum is
 * checked (InCsumErrors), every message counted by type (Icmp6In*),
 * echo requests answered in place (from the address they were sent to;
 * to a group, from our address on that interface toward the sender),
 * neighbour discovery's messages (133-137) handed to nd (ip6/nd6.h),
 * the rest counted and freed. The ICMPv6 the stages queue leaves by
 * lsk_icmp6_output; errors are made in icmp6_error.c.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/cksum.h"
#include "core/list.h"
#include "core/drop.h"
#include "core/reasm.h"
#include "core/stage.h"
#include "core/fwd6.h"
#include "core/ping.h"
#include "core/shared.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"
#include "ip6/nd6.h"
#include "host/host.h"

enum icmp6_in_drop {
	ICMP6_DROP_MALFORMED,
	ICMP6_DROP_CSUM,
	ICMP6_DROP_ECHO_REPLY,	/* counted by type: no ping of ours waits */
	ICMP6_DROP_TAKEN,	/* errors and the rest: counted, ended here */
};

static const struct lsk_drop icmp6_in_drops[] = {
	[ICMP6_DROP_MALFORMED] = LSK_DROP1(icmp6.InErrors),
	[ICMP6_DROP_CSUM] = LSK_DROP2(icmp6.InCsumErrors, icmp6.InErrors),
	[ICMP6_DROP_ECHO_REPLY] = LSK_DROP_ELSEWHERE(icmp6.InEchoReplies, 0,
						     0),
	[ICMP6_DROP_TAKEN] = LSK_DROP_ELSEWHERE(icmp6.InMsgs, 0, 0),
};

static lsk_trace_fmt_t icmp6_in_trace;

LSK_STAGE_DECLARE(lsk_icmp6_input_stage,
	.name = "icmp6_input", .id = LSK_STAGE_ICMP6_INPUT,
	.next = LSK_NEXT("icmp6", "nd6"),
	.drops = icmp6_in_drops, .n_drops = RTE_DIM(icmp6_in_drops),
	.trace = icmp6_in_trace);

/* The ICMPv6 the stages queue (errors, echo replies): routed and sent by
 * ip6_output after each burst (a node, not a timed stage). */
LSK_STAGE_DECLARE(lsk_icmp6_node,
	.name = "icmp6", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("ip6_output"));

/* The upper layer's offset, as ip6_local left it in the meta word. */
static inline uint32_t
icmp6_off(uint32_t meta)
{
	return meta & LSK_META_NH_MASK;
}

/* icmp6_input's record, before the stage: type, code and what becomes
 * of it. */
static void
icmp6_in_trace(struct lsk_worker *w, const struct lsk_list *l,
	       const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *m = l->pkts[i];
		const uint32_t off = RTE_ETHER_HDR_LEN + icmp6_off(l->meta[i]);
		const uint8_t *ih;

		if (!lsk_traced(m))
			continue;
		if (m->data_len < off + 4) {
			lsk_trace_rec(w, m, &lsk_icmp6_input_stage, false,
				      "no ICMPv6 header");
			continue;
		}
		ih = rte_pktmbuf_mtod_offset(m, const uint8_t *, off);
		lsk_trace_rec(w, m, &lsk_icmp6_input_stage, false,
			      "type %u code %u: %s", ih[0], ih[1],
			      ih[0] == LSK_ICMP6_ECHO_REQUEST ? "echo reply" :
			      ih[0] >= LSK_ND_ROUTER_SOLICIT &&
			      ih[0] <= LSK_ND_REDIRECT ? "to nd" : "counted");
	}
}

/* Count a message we received, by type. */
static void
icmp6_count_in(struct lsk_icmp6_stats *st, uint8_t type)
{
	st->InMsgs++;
	switch (type) {
	case LSK_ICMP6_DST_UNREACH: st->InDestUnreachs++; break;
	case LSK_ICMP6_PKT_TOO_BIG: st->InPktTooBigs++; break;
	case LSK_ICMP6_TIME_EXCEEDED: st->InTimeExcds++; break;
	case LSK_ICMP6_PARAM_PROB: st->InParmProblems++; break;
	case LSK_ICMP6_ECHO_REQUEST: st->InEchos++; break;
	case LSK_ICMP6_ECHO_REPLY: st->InEchoReplies++; break;
	case LSK_ND_ROUTER_SOLICIT: st->InRouterSolicits++; break;
	case LSK_ND_ROUTER_ADVERT: st->InRouterAdvertisements++; break;
	case LSK_ND_NEIGHBOR_SOLICIT: st->InNeighborSolicits++; break;
	case LSK_ND_NEIGHBOR_ADVERT: st->InNeighborAdvertisements++; break;
	case LSK_ND_REDIRECT: st->InRedirects++; break;
	default: break;
	}
}

void
lsk_icmp6_count_out(struct lsk_worker *w, uint8_t type)
{
	struct lsk_icmp6_stats *st = &w->stats.icmp6;

	st->OutMsgs++;
	switch (type) {
	case LSK_ICMP6_DST_UNREACH: st->OutDestUnreachs++; break;
	case LSK_ICMP6_PKT_TOO_BIG: st->OutPktTooBigs++; break;
	case LSK_ICMP6_TIME_EXCEEDED: st->OutTimeExcds++; break;
	case LSK_ICMP6_PARAM_PROB: st->OutParmProblems++; break;
	case LSK_ICMP6_ECHO_REQUEST: st->OutEchos++; break;
	case LSK_ICMP6_ECHO_REPLY: st->OutEchoReplies++; break;
	case LSK_ND_ROUTER_ADVERT: st->OutRouterAdvertisements++; break;
	case LSK_ND_NEIGHBOR_SOLICIT: st->OutNeighborSolicits++; break;
	case LSK_ND_NEIGHBOR_ADVERT: st->OutNeighborAdvertisements++; break;
	default: break;
	}
}

/*
 * An echo request (ICMPv6 at off of the IPv6 header, len bytes) becomes
 * its reply in place: the extension headers go, the addresses turn, the
 * checksum is made anew; data left at the IPv6 header for ip6_output.
 * false: no address of ours to answer from.
 */
static bool
icmp6_echo(struct lsk_worker *w, struct rte_mbuf *m, uint32_t off,
	   uint32_t len)
{
	struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
		struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	const struct lsk_ip6_addr *dst = lsk_ip6_dst(ip);
	const struct lsk_ifaddr6 *a = NULL;
	struct lsk_ip6_addr from;
	uint8_t *ih;

	if (!lsk_ip6_is_multicast(dst))
		a = lsk_fwd6_ours(w->fwd6, dst, m->port);
	if (a == NULL)
		a = lsk_fwd6_source(w->fwd6, lsk_ip6_src(ip), m->port);
	if (a == NULL)
		return false;
	from = a->addr;
	if (off != sizeof(*ip)) {
		/* the extension headers go: the headers move up over them,
		 * so a message in segments stays where it is */
		uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
		uint32_t ext = off - sizeof(*ip);

		memmove(frame + ext, frame, RTE_ETHER_HDR_LEN + sizeof(*ip));
		rte_pktmbuf_adj(m, (uint16_t)ext);
		ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
					     RTE_ETHER_HDR_LEN);
		lsk_mbuf_trim_to(m, RTE_ETHER_HDR_LEN + sizeof(*ip) + len);
	}
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16((uint16_t)len);
	ip->proto = LSK_IP6_ICMP;
	ip->hop_limits = 64;
	memcpy(ip->dst_addr, ip->src_addr, sizeof(ip->dst_addr));
	memcpy(ip->src_addr, &from, sizeof(ip->src_addr));
	ih = (uint8_t *)(ip + 1);
	ih[0] = LSK_ICMP6_ECHO_REPLY;
	ih[2] = ih[3] = 0;
	{
		uint16_t ck = (uint16_t)~lsk_ip6_l4_sum(ip, LSK_IP6_ICMP, m,
					RTE_ETHER_HDR_LEN + sizeof(*ip), len);

		memcpy(ih + 2, &ck, 2);
	}
	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
	return true;
}

/*
 * An answer to the control thread's ping or traceroute (an echo reply,
 * an unreachable or time exceeded quoting a probe) goes to its sink
 * (core/ping.h) as a record, as icmp4_input's (ip4/icmp4.c); the caller
 * frees the packet either way. What the matcher reads (the header and a
 * quoted probe's 48 bytes) is in the first segment.
 */
static bool
icmp6_ping(struct lsk_worker *w, const struct rte_mbuf *m, uint32_t off,
	   uint32_t len)
{
	const struct lsk_ping_sink *sink = lsk_published(w->sh->ping);
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	struct lsk_ping_reply r;

	if (sink == NULL ||
	    RTE_ETHER_HDR_LEN + off + RTE_MIN(len, 8u + 48u) > m->data_len ||
	    !lsk_ping6_match(sink, ip, off, len, &r))
		return false;
	r.tsc = rte_rdtsc();
	return rte_ring_mp_enqueue_elem(sink->ring, &r, sizeof(r)) == 0;
}

/* What to do with one message; nd collects neighbour discovery's. */
static void
icmp6_one(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	  struct lsk_list *nd)
{
	const struct rte_ipv6_hdr *ip;
	uint32_t off = icmp6_off(meta), len;
	uint8_t *ih;

	/* a message reassembled from fragments, read from a copy in one
	 * mbuf when it fits one; else an echo request is answered in
	 * segments (the reply leaves in fragments, as IPv4's) */
	m = lsk_reasm_one_segment(m);
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
				     RTE_ETHER_HDR_LEN);
	len = sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len);
	/* all of it there, its header (an echo's 8 bytes) in the first
	 * segment; ND's whole in one (below) */
	if (len < off + 4 || RTE_ETHER_HDR_LEN + len > m->pkt_len ||
	    RTE_ETHER_HDR_LEN + RTE_MIN(len, off + 8) > m->data_len) {
		w->stats.icmp6.InMsgs++;
		lsk_drop(w, m, 0, &icmp6_in_drops[ICMP6_DROP_MALFORMED]);
		return;
	}
	len -= off;
	if (lsk_ip6_l4_sum(ip, LSK_IP6_ICMP, m, RTE_ETHER_HDR_LEN + off,
			   len) != 0xffff) {
		w->stats.icmp6.InMsgs++;
		lsk_drop(w, m, 0, &icmp6_in_drops[ICMP6_DROP_CSUM]);
		return;
	}
	ih = rte_pktmbuf_mtod_offset(m, uint8_t *, RTE_ETHER_HDR_LEN + off);
	icmp6_count_in(&w->stats.icmp6, ih[0]);
	if (ih[0] == LSK_ICMP6_ECHO_REQUEST) {
		if (w->icmp6_out.n < LSK_BURST_MAX &&
		    icmp6_echo(w, m, off, len)) {
			lsk_list_push(&w->icmp6_out, m, 0);
			return;
		}
		w->stats.icmp6.OutErrors++;
		lsk_drop(w, m, 0, &icmp6_in_drops[ICMP6_DROP_TAKEN]);
		return;
	}
	if (ih[0] >= LSK_ND_ROUTER_SOLICIT && ih[0] <= LSK_ND_REDIRECT) {
		/* nd reads the message right behind the IPv6 header, in
		 * one segment */
		if (off != sizeof(*ip) || m->nb_segs != 1) {
			w->stats.icmp6.InErrors++;
			lsk_drop(w, m, 0, &icmp6_in_drops[ICMP6_DROP_TAKEN]);
			return;
		}
		rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
		lsk_list_push(nd, m, 0);
		return;
	}
	if ((ih[0] == LSK_ICMP6_ECHO_REPLY || ih[0] == LSK_ICMP6_DST_UNREACH ||
	     ih[0] == LSK_ICMP6_TIME_EXCEEDED) && icmp6_ping(w, m, off, len)) {
		rte_pktmbuf_free(m);
		return;
	}
	/* what listack does not consume (echo replies, errors, MLD) is
	 * the kernel's when the interface has a host-if (host/host.h): its
	 * ping6 and traceroute6 get their answers */
	if (lsk_host_punt(w, m))
		return;
	lsk_drop(w, m, 0, &icmp6_in_drops[ih[0] == LSK_ICMP6_ECHO_REPLY ?
		 ICMP6_DROP_ECHO_REPLY : ICMP6_DROP_TAKEN]);
}

void
lsk_icmp6_input(struct lsk_worker *w, struct lsk_list *l)
{
	struct lsk_list nd;
	uint32_t i;

	nd.n = 0;
	LSK_STAGE_TRACE(w, &lsk_icmp6_input_stage, l, NULL);
	for (i = 0; i < l->n; i++)
		icmp6_one(w, l->pkts[i], l->meta[i], &nd);
	l->n = 0;
	if (nd.n != 0)
		lsk_nd6_input(w, &nd);
}

void
lsk_icmp6_output(struct lsk_worker *w)
{
	struct lsk_list *l = &w->icmp6_out;

	while (l->n != 0) {
		struct rte_mbuf *pkts[LSK_BURST_MAX];
		unsigned int n = l->n;

		/* sending may queue more (address unreachable after ND) */
		memcpy(pkts, l->pkts, n * sizeof(pkts[0]));
		l->n = 0;
		lsk_ip6_output_burst(w, pkts, n, LSK_OUT_ICMP);
	}
}
