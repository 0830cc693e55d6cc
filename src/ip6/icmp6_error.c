/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ICMPv6 errors a router owes (RFC 4443 2.4, as Linux's icmp6_send):
 * never about an ICMPv6 error or a redirect, about a datagram to a
 * multicast group or in an L2 broadcast or multicast frame only when it
 * is packet too big or an unknown option that said so (parameter
 * problem code 2), never to an unspecified or multicast source. The
 * source is the original destination when it was one of our unicast
 * addresses, else our address on the interface the datagram came in on
 * toward its source (lsk_fwd6_source). As much of the datagram is quoted
 * as fits in the minimum MTU (1280 bytes). A token bucket (1000 a
 * second, 50 at once, as ICMP's) limits every error but packet too big
 * (Linux's default ratemask); each is sent or counted OutRateLimited.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/fwd6.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip6/ip6.h"
#include "ip6/ip6_ext.h"

#define ICMP6_MSGS_PER_SEC 1000
#define ICMP6_MSGS_BURST 50
#define ICMP6_ERROR_MAX 1280	/* RFC 4443 2.4 (c): the error's limit */
#define ICMP6_HDR_LEN 8

/* RFC 4443 2.4 (e): may an error of type/code be sent about m (data at
 * its IPv6 header)? */
static bool
icmp6_may_answer(const struct rte_mbuf *m, const struct rte_ipv6_hdr *ip,
		 uint32_t meta, uint8_t type, uint8_t code)
{
	const bool loud = type == LSK_ICMP6_PKT_TOO_BIG ||
			  (type == LSK_ICMP6_PARAM_PROB &&
			   code == LSK_ICMP6_UNK_OPTION);
	struct lsk_ip6_chain c;

	if (lsk_ip6_is_unspecified(lsk_ip6_src(ip)) ||
	    lsk_ip6_is_multicast(lsk_ip6_src(ip)))
		return false;
	if (!loud && ((meta & LSK_META_L2_BCAST) ||
		      lsk_ip6_is_multicast(lsk_ip6_dst(ip))))
		return false;
	/* about an ICMPv6 error or redirect: never (a chain we cannot walk
	 * hides no ICMPv6 message we could tell) */
	if (lsk_ip6_chain_walk(m, 0, rte_pktmbuf_pkt_len(m), 0, &c) ==
	    LSK_CHAIN_OK && c.proto == LSK_IP6_ICMP) {
		uint8_t tb;
		const uint8_t *t = rte_pktmbuf_read(m, c.off, 1, &tb);

		if (t != NULL && (*t < LSK_ICMP6_ECHO_REQUEST || *t == 137))
			return false;
	}
	return true;
}

/* One token from the bucket, refilled at ICMP6_MSGS_PER_SEC. */
static bool
icmp6_token(struct lsk_ip6_worker *x)
{
	const uint64_t per_token = rte_get_tsc_hz() / ICMP6_MSGS_PER_SEC;
	uint64_t now = rte_rdtsc();

	if (x->icmp_tokens_tsc == 0) {
		x->icmp_tokens = ICMP6_MSGS_BURST;
		x->icmp_tokens_tsc = now;
	}
	if (now - x->icmp_tokens_tsc >= per_token) {
		uint64_t add = (now - x->icmp_tokens_tsc) / per_token;

		x->icmp_tokens = RTE_MIN((uint64_t)ICMP6_MSGS_BURST,
					 x->icmp_tokens + add);
		x->icmp_tokens_tsc += add * per_token;
	}
	if (x->icmp_tokens == 0)
		return false;
	x->icmp_tokens--;
	return true;
}

/* The error about a traced packet, made or why not. */
static inline void
icmp6_trace(struct lsk_worker *w, const struct rte_mbuf *m, uint8_t type,
	    uint8_t code, const char *what)
{
	if (lsk_trace_on(w))
		lsk_trace_rec(w, m, &lsk_icmp6_node, false,
			      "error type %u code %u: %s", type, code, what);
}

/* The address the error about ip (came in on iface) leaves from. */
static const struct lsk_ifaddr6 *
icmp6_source(const struct lsk_fwd6_table *t, const struct rte_ipv6_hdr *ip,
	     uint16_t iface)
{
	const struct lsk_ifaddr6 *a = NULL;

	if (!lsk_ip6_is_multicast(lsk_ip6_dst(ip)))
		a = lsk_fwd6_ours(t, lsk_ip6_dst(ip), iface);
	return a != NULL ? a : lsk_fwd6_source(t, lsk_ip6_src(ip), iface);
}

void
lsk_icmp6_error(struct lsk_worker *w, const struct rte_mbuf *m, uint32_t meta,
		uint8_t type, uint8_t code, uint32_t info)
{
	const uint32_t len = rte_pktmbuf_pkt_len(m);
	const struct rte_ipv6_hdr *oip;
	struct rte_ipv6_hdr ohdr, *ip;
	const struct lsk_ifaddr6 *a;
	struct rte_mbuf *e;
	uint32_t quote;
	uint16_t ck;
	uint8_t *ih;

	if (len < sizeof(ohdr))
		return;
	oip = rte_pktmbuf_read(m, 0, sizeof(ohdr), &ohdr);
	if (!icmp6_may_answer(m, oip, meta, type, code)) {
		icmp6_trace(w, m, type, code, "none owed");
		return;
	}
	a = icmp6_source(w->fwd6, oip, m->port);
	if (a == NULL) {
		w->stats.icmp6.OutErrors++;	/* no address to send from */
		icmp6_trace(w, m, type, code, "no address to send from");
		return;
	}
	if (type != LSK_ICMP6_PKT_TOO_BIG && !icmp6_token(w->ip6w)) {
		w->stats.icmp6.OutRateLimited++;
		icmp6_trace(w, m, type, code, "rate-limited");
		return;
	}
	if (w->icmp6_out.n == LSK_BURST_MAX) {
		w->stats.icmp6.OutErrors++;
		return;
	}
	quote = RTE_MIN(len, (uint32_t)(ICMP6_ERROR_MAX - sizeof(*ip) -
					ICMP6_HDR_LEN));
	/* up to 1280 bytes after the Ethernet header's room, in an mbuf
	 * of the datagram's pool */
	e = rte_pktmbuf_alloc(m->pool);
	ip = e == NULL ? NULL : (struct rte_ipv6_hdr *)rte_pktmbuf_append(e,
		(uint16_t)(sizeof(*ip) + ICMP6_HDR_LEN + quote));
	if (ip == NULL || rte_pktmbuf_headroom(e) < RTE_ETHER_HDR_LEN) {
		rte_pktmbuf_free(e);
		w->stats.icmp6.OutErrors++;
		return;
	}
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16((uint16_t)(ICMP6_HDR_LEN + quote));
	ip->proto = LSK_IP6_ICMP;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, &a->addr, sizeof(ip->src_addr));
	memcpy(ip->dst_addr, oip->src_addr, sizeof(ip->dst_addr));
	ih = (uint8_t *)(ip + 1);
	ih[0] = type;
	ih[1] = code;
	ih[2] = ih[3] = 0;
	/* the MTU of packet too big, the pointer of parameter problem */
	ih[4] = (uint8_t)(info >> 24);
	ih[5] = (uint8_t)(info >> 16);
	ih[6] = (uint8_t)(info >> 8);
	ih[7] = (uint8_t)info;
	{
		const void *q = rte_pktmbuf_read(m, 0, quote,
						 ih + ICMP6_HDR_LEN);

		if (q != NULL && q != (const void *)(ih + ICMP6_HDR_LEN))
			memcpy(ih + ICMP6_HDR_LEN, q, quote);
	}
	ck = (uint16_t)~lsk_ip6_l4_sum(ip, LSK_IP6_ICMP, e, sizeof(*ip),
				       ICMP6_HDR_LEN + quote);
	memcpy(ih + 2, &ck, sizeof(ck));
	/* where it came in: a link-local source is reached through it */
	e->port = m->port;
	lsk_list_push(&w->icmp6_out, e, 0);
	icmp6_trace(w, m, type, code, "made");
}

void
lsk_ip6_drop(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	     const struct lsk_drop *r, uint32_t info)
{
	lsk_drop_note(w, m, meta, r, lsk_meta_count(meta));
	/* only packet too big (the MTU) and parameter problem (the
	 * pointer) carry a word of their own */
	if (r->icmp_type != LSK_ICMP6_PKT_TOO_BIG &&
	    r->icmp_type != LSK_ICMP6_PARAM_PROB)
		info = 0;
	if (r->icmp_type != 0) {
		/* the stages hold frames: the error reads the datagram */
		struct rte_mbuf *x = m;

		rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
		lsk_icmp6_error(w, m, meta, r->icmp_type, r->icmp_code, info);
		if (unlikely(meta & LSK_META_COUNT_MASK)) {
			for (x = *lsk_train_next(m); x != NULL;
			     x = *lsk_train_next(x)) {
				rte_pktmbuf_adj(x, RTE_ETHER_HDR_LEN);
				lsk_icmp6_error(w, x, meta, r->icmp_type,
						r->icmp_code, info);
			}
		}
	}
	lsk_drop_done(w, m, meta, r);	/* traced after its ICMPv6 */
}

/* What waited in vain for ND: counted nd.UnresolvedDiscards when its
 * entry failed (ip6/nd6.h), named so here. */
static const struct lsk_drop unreach6_drop =
	LSK_DROP_ELSEWHERE(nd.UnresolvedDiscards, LSK_ICMP6_DST_UNREACH,
			   LSK_ICMP6_ADDR_UNREACH);

void
lsk_icmp6_unreach_addr(struct lsk_worker *w, struct lsk_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		lsk_ip6_drop(w, l->pkts[i], l->meta[i], &unreach6_drop, 0);
	l->n = 0;
}
