/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * icmp4: the ICMP a router owes. icmp4_input answers echo requests to our
 * addresses; lsk_icmp4_error builds destination unreachable and time
 * exceeded messages by Linux's rules (icmp_send): never about an ICMP
 * error, a non-first fragment, a broadcast or multicast, or a martian
 * source; the source is the original destination when it was ours,
 * otherwise the ingress port's address; the offending header and as much
 * of the datagram as fits in 576 bytes is quoted; a token bucket
 * (icmp_msgs_per_sec 1000, icmp_msgs_burst 50) limits what is sent, and
 * every error is either sent or counted OutRateLimited.
 */
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include <rte_ring.h>

#include "core/list.h"
#include "core/ping.h"
#include "core/shared.h"
#include "core/cksum.h"
#include "core/drop.h"
#include "core/reasm.h"
#include "core/stage.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"
#include "udp/udp.h"
#include "host/host.h"

enum icmp_in_drop {
	ICMP_DROP_MALFORMED,
	ICMP_DROP_CSUM,
	/* the errors and replies it could not send (no packet of its own:
	 * counted where they fail) */
	ICMP_DROP_OUT_ERRORS,
	ICMP_DROP_RATE_LIMITED,
	ICMP_DROP_NO_ADDRS,
};

static const struct lsk_drop icmp_in_drops[] = {
	[ICMP_DROP_MALFORMED] = LSK_DROP1(icmp.InErrors),
	[ICMP_DROP_CSUM] = LSK_DROP2(icmp.InCsumErrors, icmp.InErrors),
	[ICMP_DROP_OUT_ERRORS] = LSK_DROP1(icmp.OutErrors),
	[ICMP_DROP_RATE_LIMITED] = LSK_DROP1(icmp.OutRateLimited),
	[ICMP_DROP_NO_ADDRS] = LSK_DROP1(icmp.OutNoAddrs),
};

static lsk_trace_fmt_t icmp_in_trace;

LSK_STAGE_DECLARE(lsk_icmp4_input_stage,
	.name = "icmp4_input", .id = LSK_STAGE_ICMP4_INPUT,
	.next = LSK_NEXT("icmp", "host"),
	.drops = icmp_in_drops, .n_drops = RTE_DIM(icmp_in_drops),
	.trace = icmp_in_trace);

/* The ICMP messages the stages queue (errors, echo replies): routed and
 * sent by ip4_output after each burst (a node, not a timed stage). */
LSK_STAGE_DECLARE(lsk_icmp_node,
	.name = "icmp", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("ip4_output"));

#define ICMP_MSGS_PER_SEC 1000
#define ICMP_MSGS_BURST 50
#define ICMP_ERROR_MAX 576	/* RFC 1812: the error datagram's limit */
/* Linux's error TOS: RT_TOS(tos) | IPTOS_PREC_INTERNETCONTROL */
#define ICMP_TOS_MASK 0x1e
#define ICMP_TOS_INTERNETCONTROL 0xc0

static bool
icmp_type_is_error(uint8_t type)
{
	switch (type) {
	case RTE_IP_ICMP_ECHO_REPLY:
	case RTE_IP_ICMP_ECHO_REQUEST:
	case 13: case 14: case 15: case 16: case 17: case 18:
		return false;
	default:
		return true;	/* errors, and types we do not know */
	}
}

/* Linux's icmp_send rules for whether an error may be sent about ip. */
static bool
icmp_may_answer(const struct lsk_worker *w, const struct rte_mbuf *m,
		const struct rte_ipv4_hdr *ip, uint32_t meta)
{
	uint32_t src = rte_be_to_cpu_32(ip->src_addr);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	uint32_t hlen = (ip->version_ihl & 0xf) * 4u;

	if (meta & LSK_META_L2_BCAST)
		return false;
	if (dst >= 0xe0000000 || lsk_fwd_is_broadcast(w->fwd, dst))
		return false;
	if (src == 0 || src >= 0xe0000000 || (src >> 24) == 127 ||
	    (src >> 24) == 0 || lsk_fwd_is_broadcast(w->fwd, src))
		return false;
	if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK))
		return false;
	if (ip->next_proto_id == IPPROTO_ICMP) {
		const uint8_t *icmp = (const uint8_t *)ip + hlen;

		if (RTE_ETHER_HDR_LEN + hlen + 1 > m->data_len ||
		    icmp_type_is_error(icmp[0]))
			return false;
	}
	return true;
}

/* One token from the bucket, refilled at ICMP_MSGS_PER_SEC. */
static bool
icmp_token(struct lsk_worker *w)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	uint64_t per_token = hz / ICMP_MSGS_PER_SEC;

	if (w->ip4w->icmp_tokens_tsc == 0) {
		w->ip4w->icmp_tokens = ICMP_MSGS_BURST;
		w->ip4w->icmp_tokens_tsc = now;
	}
	if (now - w->ip4w->icmp_tokens_tsc >= per_token) {
		uint64_t add = (now - w->ip4w->icmp_tokens_tsc) / per_token;

		w->ip4w->icmp_tokens = RTE_MIN((uint64_t)ICMP_MSGS_BURST,
					 w->ip4w->icmp_tokens + add);
		w->ip4w->icmp_tokens_tsc += add * per_token;
	}
	if (w->ip4w->icmp_tokens == 0)
		return false;
	w->ip4w->icmp_tokens--;
	return true;
}

void
lsk_icmp4_count_out(struct lsk_worker *w, uint8_t type)
{
	w->stats.icmp.OutMsgs++;
	if (type == LSK_ICMP_DEST_UNREACH)
		w->stats.icmp.OutDestUnreachs++;
	else if (type == LSK_ICMP_TIME_EXCEEDED)
		w->stats.icmp.OutTimeExcds++;
	else if (type == RTE_IP_ICMP_ECHO_REPLY)
		w->stats.icmp.OutEchoReps++;
	else if (type == RTE_IP_ICMP_ECHO_REQUEST)
		w->stats.icmp.OutEchos++;	/* ping's (control/ping.c) */
}

/* icmp4_input's record, before the stage: the message's type and what
 * becomes of it (an echo request goes on as its reply, in place; the
 * rest is counted and ends here). */
static void
icmp_in_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *m = l->pkts[i];
		const struct rte_ipv4_hdr *ip;
		const uint8_t *ih;
		uint32_t hlen;

		if (!lsk_traced(m) ||
		    (ip = lsk_trace_ip4(m)) == NULL)
			continue;
		hlen = (ip->version_ihl & 0xf) * 4u;
		if (m->data_len < RTE_ETHER_HDR_LEN + hlen + 4) {
			lsk_trace_rec(w, m, &lsk_icmp4_input_stage, true,
				      "no ICMP header: icmp.InErrors");
			continue;
		}
		ih = (const uint8_t *)ip + hlen;
		lsk_trace_rec(w, m, &lsk_icmp4_input_stage, ih[0] != 8,
			      "type %u code %u: %s", ih[0], ih[1],
			      ih[0] == 8 ? "echo reply" : "counted");
	}
}

/* The error about a traced packet, made or why not (core/trace.h). */
static inline void
icmp_trace(struct lsk_worker *w, const struct rte_mbuf *m, uint8_t type,
	   uint8_t code, const char *what)
{
	if (lsk_trace_on(w))
		lsk_trace_rec(w, m, &lsk_icmp_node, false,
			      "error type %u code %u: %s", type, code, what);
}

void
lsk_icmp4_error(struct lsk_worker *w, const struct rte_mbuf *m, uint32_t meta,
		uint8_t type, uint8_t code, uint16_t mtu)
{
	const struct rte_ipv4_hdr *oip = rte_pktmbuf_mtod_offset(
		m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	const struct lsk_fwd_table *t = w->fwd;
	struct rte_ipv4_hdr *ip;
	struct rte_icmp_hdr *ih;
	struct rte_mbuf *e;
	const void *q;
	uint32_t src, quote;
	char *frame;

	if (!icmp_may_answer(w, m, oip, meta)) {
		icmp_trace(w, m, type, code, "none owed");
		return;
	}
	src = rte_be_to_cpu_32(oip->dst_addr);
	if (!lsk_addr_is_ours(t, src))
		src = m->port < LSK_MAX_IFACES ? t->port_addr[m->port] : 0;
	if (src == 0) {
		w->stats.icmp.OutNoAddrs++;	/* the port has no address */
		icmp_trace(w, m, type, code, "no address to send from");
		return;
	}
	/* as Linux's icmpv4_mask_allow: PMTU discovery is never limited */
	if (!(type == LSK_ICMP_DEST_UNREACH && code == LSK_ICMP_FRAG_NEEDED) &&
	    !icmp_token(w)) {
		w->stats.icmp.OutRateLimited++;
		icmp_trace(w, m, type, code, "rate-limited");
		return;
	}
	if (w->icmp_out.n == LSK_BURST_MAX) {
		w->stats.icmp.OutErrors++;
		return;
	}
	quote = RTE_MIN(rte_pktmbuf_pkt_len(m) - RTE_ETHER_HDR_LEN,
			(uint32_t)(ICMP_ERROR_MAX - sizeof(*ip) - sizeof(*ih)));
	quote = RTE_MIN(quote, (uint32_t)rte_be_to_cpu_16(oip->total_length));
	/* up to 590 bytes, in an mbuf of the datagram's pool: one with a
	 * small data room (the send pool, or a PMD's that chains frames)
	 * may not hold them */
	e = rte_pktmbuf_alloc(m->pool);
	frame = e == NULL ? NULL : rte_pktmbuf_append(e, (uint16_t)(
		RTE_ETHER_HDR_LEN + sizeof(*ip) + sizeof(*ih) + quote));
	if (frame == NULL) {
		rte_pktmbuf_free(e);
		w->stats.icmp.OutErrors++;
		return;
	}
	((struct rte_ether_hdr *)frame)->ether_type =
		RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(frame + RTE_ETHER_HDR_LEN);
	ih = (struct rte_icmp_hdr *)(ip + 1);
	ip->version_ihl = 0x45;
	ip->type_of_service = (oip->type_of_service & ICMP_TOS_MASK) |
			      ICMP_TOS_INTERNETCONTROL;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(sizeof(*ip) +
						       sizeof(*ih) + quote));
	ip->packet_id = rte_cpu_to_be_16(w->ip4w->icmp_ip_id++);
	ip->fragment_offset = 0;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = oip->src_addr;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	ih->icmp_type = type;
	ih->icmp_code = code;
	ih->icmp_cksum = 0;
	ih->icmp_ident = 0;
	ih->icmp_seq_nb = rte_cpu_to_be_16(mtu);
	/* rte_pktmbuf_read copies only when m is in segments: else it
	 * points into m, and the copy is ours to make */
	q = rte_pktmbuf_read(m, RTE_ETHER_HDR_LEN, quote, ih + 1);
	if (q != NULL && q != (const void *)(ih + 1))
		memcpy(ih + 1, q, quote);
	ih->icmp_cksum = (uint16_t)~rte_raw_cksum(ih, sizeof(*ih) + quote);
	e->port = m->port;
	lsk_list_push(&w->icmp_out, e, 0);
	icmp_trace(w, m, type, code, "made");
}

void
lsk_ip4_drop(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	     const struct lsk_drop *r, uint16_t mtu)
{
	lsk_drop_note(w, m, meta, r, lsk_meta_count(meta));
	if (r->icmp_type != 0) {
		bool frag = r->icmp_type == LSK_ICMP_DEST_UNREACH &&
			    r->icmp_code == LSK_ICMP_FRAG_NEEDED;

		lsk_icmp4_error_entry(w, m, meta, r->icmp_type, r->icmp_code,
				      frag ? mtu : 0);
	}
	lsk_drop_done(w, m, meta, r);	/* traced after its ICMP */
}

/* What waited in vain for ARP: counted arp.UnresolvedDiscards when its
 * entry failed (l2/neigh_table.c), named so here. */
static const struct lsk_drop unreach_drop =
	LSK_DROP_ELSEWHERE(arp.UnresolvedDiscards, LSK_ICMP_DEST_UNREACH,
			   LSK_ICMP_HOST_UNREACH);

void
lsk_icmp4_unreach_host(struct lsk_worker *w, struct lsk_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		lsk_ip4_drop(w, l->pkts[i], l->meta[i], &unreach_drop, 0);
	l->n = 0;
}

/*
 * A merged train's datagrams are in its head: each is rebuilt as it
 * arrived (gso.c) to be quoted; one that cannot be (no mbuf, no room) is
 * an error that could not be built.
 */
static void
icmp_error_merged(struct lsk_worker *w, const struct rte_mbuf *m,
		  uint32_t meta, uint8_t type, uint8_t code, uint16_t mtu)
{
	unsigned int k, n = lsk_meta_count(meta);

	for (k = 0; k < n; k++) {
		struct rte_mbuf *d = lsk_gso_rebuild(m, k);

		if (d == NULL) {
			w->stats.icmp.OutErrors++;
			continue;
		}
		lsk_icmp4_error(w, d, meta, type, code, mtu);
		rte_pktmbuf_free(d);
	}
}

/* Errors for an entry: one per datagram, as per-packet processing would. */
void
lsk_icmp4_error_entry(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		      uint8_t type, uint8_t code, uint16_t mtu)
{
	if (unlikely(meta & LSK_META_MERGED)) {
		icmp_error_merged(w, m, meta, type, code, mtu);
		return;
	}
	lsk_icmp4_error(w, m, meta, type, code, mtu);
	if (unlikely(meta & LSK_META_COUNT_MASK)) {
		struct rte_mbuf *x;

		for (x = *lsk_train_next(m); x != NULL; x = *lsk_train_next(x))
			lsk_icmp4_error(w, x, meta, type, code, mtu);
	}
}

/* An echo request to us becomes the reply, in place. */
static bool
icmp_echo(struct lsk_worker *w, struct rte_mbuf *m, struct rte_ipv4_hdr *ip,
	  struct rte_icmp_hdr *ih)
{
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	uint32_t sum;

	/* icmp_echo_ignore_broadcasts */
	if (!lsk_addr_is_ours(w->fwd, dst))
		return false;
	if (unlikely(ip->version_ihl != 0x45)) {
		/* ip_options_echo keeps no NOP or EOL: reply without. The
		 * headers move up over the options, so a message in
		 * segments (reassembled) stays where it is. */
		uint32_t opt = (ip->version_ihl & 0xf) * 4u - sizeof(*ip);
		uint16_t icmp_len = rte_be_to_cpu_16(ip->total_length) -
				    (uint16_t)(sizeof(*ip) + opt);
		uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);

		memmove(frame + opt, frame, RTE_ETHER_HDR_LEN + sizeof(*ip));
		rte_pktmbuf_adj(m, (uint16_t)opt);
		ip = (struct rte_ipv4_hdr *)(frame + opt + RTE_ETHER_HDR_LEN);
		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16((uint16_t)(sizeof(*ip) +
							       icmp_len));
		lsk_mbuf_trim_to(m, RTE_ETHER_HDR_LEN + sizeof(*ip) + icmp_len);
	}
	ih->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	sum = (uint16_t)~ih->icmp_cksum;
	sum += (uint16_t)~RTE_BE16(RTE_IP_ICMP_ECHO_REQUEST << 8);
	sum += RTE_BE16(RTE_IP_ICMP_ECHO_REPLY << 8);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	ih->icmp_cksum = (uint16_t)~sum;
	ip->dst_addr = ip->src_addr;
	ip->src_addr = rte_cpu_to_be_32(dst);
	ip->time_to_live = 64;
	ip->packet_id = rte_cpu_to_be_16(w->ip4w->icmp_ip_id++);
	ip->fragment_offset = 0;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return true;
}

/*
 * The message's len bytes are all in m, and what is read in place is in
 * its first segment: the header, or in a reassembled message (segments)
 * what lsk_ping_match may read (the header, a quoted IPv4 header with
 * options and 8 bytes of what it quoted).
 */
static bool
icmp_in_whole(const struct rte_mbuf *m, uint32_t hlen, uint32_t len)
{
	uint32_t head = m->nb_segs == 1 ? len :
		RTE_MIN(len, (uint32_t)(sizeof(struct rte_icmp_hdr) + 60 +
					sizeof(struct rte_icmp_hdr)));

	return len >= sizeof(struct rte_icmp_hdr) &&
	       RTE_ETHER_HDR_LEN + hlen + len <= rte_pktmbuf_pkt_len(m) &&
	       RTE_ETHER_HDR_LEN + hlen + head <= m->data_len;
}

/* The ICMP checksum over the message, in one segment or several. */
static bool
icmp_in_sum_ok(const struct rte_mbuf *m, const struct rte_icmp_hdr *ih,
	       uint32_t hlen, uint32_t len)
{
	uint16_t sum;

	if (likely(m->nb_segs == 1))
		return rte_raw_cksum(ih, len) == 0xffff;
	return lsk_mbuf_cksum(m, RTE_ETHER_HDR_LEN + hlen, len, &sum) == 0 &&
	       sum == 0xffff;
}

/*
 * An answer to the control thread's ping or traceroute goes to its sink
 * (core/ping.h) as a record; the packet is freed by the caller either
 * way. An echo reply no ping waits for (or that finds the sink full) is
 * counted InEchoRepsUnmatched.
 */
static bool
icmp_ping(struct lsk_worker *w, const struct rte_ipv4_hdr *ip, uint32_t len)
{
	const struct lsk_ping_sink *sink = lsk_published(w->sh->ping);
	const uint8_t type =
		((const uint8_t *)ip)[(ip->version_ihl & 0xf) * 4u];
	struct lsk_ping_reply r;

	if (lsk_ping_match(sink, ip, len, &r)) {
		r.tsc = rte_rdtsc();
		if (rte_ring_mp_enqueue_elem(sink->ring, &r, sizeof(r)) == 0)
			return true;
	}
	if (type == RTE_IP_ICMP_ECHO_REPLY)
		w->stats.icmp.InEchoRepsUnmatched++;
	return false;
}

void
lsk_icmp4_input(struct lsk_worker *w, struct lsk_list *l)
{
	struct lsk_icmp_stats *st = &w->stats.icmp;
	uint32_t i;

	LSK_STAGE_TRACE(w, &lsk_icmp4_input_stage, l, NULL);
	for (i = 0; i < l->n; i++) {
		/* a message reassembled from fragments, read from a copy
		 * in one mbuf when it fits one; else checked and answered
		 * in segments (the reply leaves in fragments) */
		struct rte_mbuf *m = lsk_reasm_one_segment(l->pkts[i]);
		struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
			m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
		uint32_t hlen = (ip->version_ihl & 0xf) * 4u;
		uint32_t len = rte_be_to_cpu_16(ip->total_length) - hlen;
		struct rte_icmp_hdr *ih = (struct rte_icmp_hdr *)
			((uint8_t *)ip + hlen);

		st->InMsgs++;
		if (!icmp_in_whole(m, hlen, len)) {
			lsk_drop(w, m, 0, &icmp_in_drops[ICMP_DROP_MALFORMED]);
			continue;
		}
		if (!icmp_in_sum_ok(m, ih, hlen, len)) {
			lsk_drop(w, m, 0, &icmp_in_drops[ICMP_DROP_CSUM]);
			continue;
		}
		if (ih->icmp_type == RTE_IP_ICMP_ECHO_REQUEST) {
			st->InEchos++;
			if (w->icmp_out.n < LSK_BURST_MAX &&
			    icmp_echo(w, m, ip, ih)) {
				lsk_list_push(&w->icmp_out, m, 0);
				continue;
			}
			if (!lsk_addr_is_ours(w->fwd, rte_be_to_cpu_32(
						ip->dst_addr)))
				st->InErrors++;	/* to a broadcast */
			rte_pktmbuf_free(m);
			continue;
		}
		if (ih->icmp_type == LSK_ICMP_DEST_UNREACH) {
			st->InDestUnreachs++;
		} else if (ih->icmp_type == RTE_IP_ICMP_ECHO_REPLY) {
			st->InEchoReps++;
		} else if (ih->icmp_type == LSK_ICMP_TIME_EXCEEDED) {
			st->InTimeExcds++;
		}
		/* what listack's own ping does not claim is the kernel's
		 * (its pings' replies, errors about its sends), when the
		 * interface has a host-if (host/host.h) */
		if ((ih->icmp_type == LSK_ICMP_DEST_UNREACH ||
		     ih->icmp_type == RTE_IP_ICMP_ECHO_REPLY ||
		     ih->icmp_type == LSK_ICMP_TIME_EXCEEDED) &&
		    icmp_ping(w, ip, len)) {
			rte_pktmbuf_free(m);
			continue;
		}
		if (lsk_host_punt(w, m))
			continue;
		rte_pktmbuf_free(m);
	}
	l->n = 0;
}

void
lsk_icmp4_output(struct lsk_worker *w)
{
	struct lsk_list *l = &w->icmp_out;

	while (l->n != 0) {
		struct rte_mbuf *pkts[LSK_BURST_MAX];
		unsigned int n = l->n;

		/* sending may queue more (host unreachable after ARP) */
		memcpy(pkts, l->pkts, n * sizeof(pkts[0]));
		l->n = 0;
		lsk_ip4_output_burst(w, pkts, n, false);
	}
}
