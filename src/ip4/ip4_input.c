/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_input: the checks of Linux's ip_rcv_core, in its order and with its
 * counters, then the martian address rules of ip_route_input_slow and the
 * IP options policy. Trims Ethernet padding to the IP total length.
 *
 * Known gaps: options are checked for shape only (no record-route or
 * timestamp processing); no ECN counters.
 */
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/list.h"
#include "core/cksum.h"
#include "core/drop.h"
#include "core/stage.h"
#include "core/fwd.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"
#include "ip4/ip4_fast.h"
#include "host/host.h"

enum ip4_verdict {
	IP4_PASS,
	IP4_DROP_HDR,		/* InHdrErrors */
	IP4_DROP_CSUM,		/* InCsumErrors and InHdrErrors */
	IP4_DROP_TRUNCATED,	/* InTruncatedPkts */
	IP4_DROP_MARTIAN,	/* InAddrErrors */
	IP4_DROP_DISCARD,	/* InDiscards: multicast dst, source route */
	IP4_MCAST,		/* multicast dst: the kernel's through a
				 * host-if (host/host.h), else InDiscards */
};

static const struct lsk_drop ip4_drops[] = {
	[IP4_DROP_HDR] = LSK_DROP1(ip.InHdrErrors),
	[IP4_DROP_CSUM] = LSK_DROP2(ip.InCsumErrors, ip.InHdrErrors),
	[IP4_DROP_TRUNCATED] = LSK_DROP1(ip.InTruncatedPkts),
	[IP4_DROP_MARTIAN] = LSK_DROP1(ip.InAddrErrors),
	[IP4_DROP_DISCARD] = LSK_DROP1(ip.InDiscards),
};

static lsk_trace_fmt_t ip4_input_trace;

LSK_STAGE_DECLARE(lsk_ip4_input_stage,
	.name = "ip4_input", .id = LSK_STAGE_IP4_INPUT,
	.next = LSK_NEXT("ip4_filter", "ip4_route", "icmp", "host"),
	.drops = ip4_drops, .n_drops = RTE_DIM(ip4_drops),
	.trace = ip4_input_trace);

/* option types that carry pointers */
#define IP4_OPT_RR 7
#define IP4_OPT_TS 0x44
#define IP4_OPT_LSRR 0x83
#define IP4_OPT_SSRR 0x89

static bool
ip4_csum_ok(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	    unsigned int hlen)
{
	uint64_t flag = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	/* NONE: the PMD checked the header, the field itself is not valid */
	if (flag == RTE_MBUF_F_RX_IP_CKSUM_GOOD ||
	    flag == RTE_MBUF_F_RX_IP_CKSUM_NONE)
		return true;
	if (flag == RTE_MBUF_F_RX_IP_CKSUM_BAD)
		return false;
	if (likely(hlen == sizeof(*ip)))
		return lsk_ip4_hdr_sum20(ip) == 0xffff;
	return rte_raw_cksum(ip, hlen) == 0xffff;
}

/*
 * Options must be well formed (as ip_options_compile wants); source
 * routing is refused as with accept_source_route=0.
 */
static enum ip4_verdict
ip4_check_options(const uint8_t *opt, unsigned int len)
{
	unsigned int i = 0;

	while (i < len) {
		uint8_t type = opt[i], optlen;

		if (type == RTE_IPV4_HDR_OPT_EOL)
			break;
		if (type == RTE_IPV4_HDR_OPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			return IP4_DROP_HDR;
		optlen = opt[i + 1];
		if (optlen < 2 || optlen > len - i)
			return IP4_DROP_HDR;
		switch (type) {
		case IP4_OPT_LSRR:
		case IP4_OPT_SSRR:
		case IP4_OPT_RR:
			/* a pointer inside the option must leave a slot */
			if (optlen < 3 || opt[i + 2] < 4 ||
			    (opt[i + 2] <= optlen && opt[i + 2] + 3 > optlen))
				return IP4_DROP_HDR;
			if (type != IP4_OPT_RR)
				return IP4_DROP_DISCARD;
			break;
		case IP4_OPT_TS:
			/* slots of 4 bytes, or 8 with addresses (flags 1, 3) */
			if (optlen < 4 || opt[i + 2] < 5 ||
			    (opt[i + 2] <= optlen &&
			     opt[i + 2] + ((opt[i + 3] & 0xf) ? 7 : 3) > optlen))
				return IP4_DROP_HDR;
			break;
		}
		i += optlen;
	}
	return IP4_PASS;
}

static inline bool ip4_is_zeronet(uint32_t a) { return (a >> 24) == 0; }
static inline bool ip4_is_loopback(uint32_t a) { return (a >> 24) == 127; }
/* multicast, class E and the limited broadcast */
static inline bool ip4_is_mcast_or_above(uint32_t a) { return a >= 0xe0000000; }
static inline bool ip4_is_mcast(uint32_t a) { return (a >> 28) == 0xe; }

/* ip_route_input_slow's martian rules plus our own-address rule. */
static enum ip4_verdict
ip4_check_addresses(const struct lsk_fwd_table *t, uint32_t src, uint32_t dst)
{
	if (unlikely(ip4_is_mcast_or_above(src)))
		return IP4_DROP_MARTIAN;
	if (unlikely(ip4_is_zeronet(src)))	/* a DHCP client may say 0 */
		return src == 0 && dst == UINT32_MAX ? IP4_PASS :
						       IP4_DROP_MARTIAN;
	if (unlikely(ip4_is_zeronet(dst) || ip4_is_loopback(dst)))
		return IP4_DROP_MARTIAN;
	if (unlikely(ip4_is_loopback(src) || lsk_addr_is_local(t, src)))
		return IP4_DROP_MARTIAN;
	if (unlikely(ip4_is_mcast(dst)))
		return IP4_MCAST;
	return IP4_PASS;
}

static enum ip4_verdict
ip4_check(const struct lsk_fwd_table *t, struct rte_mbuf *m)
{
	struct rte_ipv4_hdr *ip;
	uint32_t l3_len, hlen, tot_len;
	enum ip4_verdict v;

	l3_len = m->pkt_len - RTE_ETHER_HDR_LEN;
	if (unlikely(m->pkt_len < RTE_ETHER_HDR_LEN + sizeof(*ip) ||
		     m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip)))
		return IP4_DROP_HDR;
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *,
				     RTE_ETHER_HDR_LEN);
	if (unlikely(ip->version_ihl != 0x45)) {
		if ((ip->version_ihl >> 4) != 4 || (ip->version_ihl & 0xf) < 5)
			return IP4_DROP_HDR;
	}
	hlen = (ip->version_ihl & 0xf) * 4u;
	if (unlikely(hlen + RTE_ETHER_HDR_LEN > m->data_len))
		return IP4_DROP_HDR;
	if (unlikely(!ip4_csum_ok(m, ip, hlen)))
		return IP4_DROP_CSUM;
	tot_len = rte_be_to_cpu_16(ip->total_length);
	if (unlikely(tot_len > l3_len))
		return IP4_DROP_TRUNCATED;
	if (unlikely(tot_len < hlen))
		return IP4_DROP_HDR;
	if (unlikely(tot_len < l3_len))
		lsk_mbuf_trim_to(m, RTE_ETHER_HDR_LEN + tot_len);

	v = ip4_check_addresses(t, rte_be_to_cpu_32(ip->src_addr),
				rte_be_to_cpu_32(ip->dst_addr));
	if (unlikely(hlen > sizeof(*ip)) && v == IP4_PASS)
		v = ip4_check_options((const uint8_t *)(ip + 1),
				      hlen - sizeof(*ip));
	return v;
}

/* What ip4_check_addresses refuses, by the address's first byte (the
 * fast test's tables, ip4/ip4_fast.h). */
const uint8_t lsk_ip4_refused[2][256] = {
	[LSK_IP4_SRC_REFUSED] = { [0] = 1, [127] = 1, [224 ... 255] = 1, },
	[LSK_IP4_DST_REFUSED] = { [0] = 1, [127] = 1, [224 ... 239] = 1, },
};

/* ip4/ip4_fast.h's test of the datagram in m. */
static __rte_always_inline bool
ip4_fast_pass(uint64_t bloom, const struct rte_mbuf *m)
{
	return lsk_ip4_fast_pass(bloom, m, rte_pktmbuf_mtod_offset(m,
			const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN));
}

/* How many of pkts[0, n) pass the fast test, from the first on. */
static uint32_t
ip4_fast_prefix(const struct lsk_fwd_table *t, struct rte_mbuf *const *pkts,
		uint32_t n)
{
	const uint64_t bloom = t->local_bloom;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (unlikely(!ip4_fast_pass(bloom, pkts[i])))
			break;
	return i;
}

/* ip4_input's record: the header as it came (before the stage). */
static void
ip4_input_trace(struct lsk_worker *w, const struct lsk_list *l,
		const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		const struct rte_mbuf *d;

		for (d = l->pkts[i]; d != NULL; d = lsk_trace_entry_next(d, l->meta[i])) {
			const struct rte_ipv4_hdr *ip;
			char src[16], dst[16];
			uint32_t hlen;
			bool ok;

			if (!lsk_traced(d))
				continue;
			ip = lsk_trace_ip4(d);
			if (ip == NULL) {
				lsk_trace_rec(w, d, &lsk_ip4_input_stage, false,
					      "no IPv4 header");
				continue;
			}
			hlen = (ip->version_ihl & 0xf) * 4u;
			ok = hlen >= sizeof(*ip) &&
			     d->data_len >= RTE_ETHER_HDR_LEN + hlen &&
			     rte_raw_cksum(ip, hlen) == 0xffff;
			lsk_trace_addr(rte_be_to_cpu_32(ip->src_addr), src,
				sizeof(src));
			lsk_trace_addr(rte_be_to_cpu_32(ip->dst_addr), dst,
				sizeof(dst));
			lsk_trace_rec(w, d, &lsk_ip4_input_stage, false,
				      "%s > %s proto %u ttl %u len %u cksum %s",
				      src, dst, ip->next_proto_id,
				      ip->time_to_live,
				      rte_be_to_cpu_16(ip->total_length),
				      ok ? "good" : "bad");
		}
	}
}

void
lsk_ip4_input(struct lsk_worker *w, struct lsk_list *l)
{
	const struct lsk_fwd_table *t = w->fwd;
	const uint32_t n = l->n;
	/* up to the first datagram the fast test does not pass, nothing
	 * moves */
	uint32_t kept = ip4_fast_prefix(t, l->pkts, n);
	uint32_t i, members = 0, metas = 0;

	/* only trains have members to count: a list without one (the
	 * meta words or-ed, a loop of its own) needs no sum */
	for (i = 0; i < kept; i++)
		metas |= l->meta[i];
	if (unlikely(metas & LSK_META_COUNT_MASK))
		for (i = 0; i < kept; i++)
			members += (l->meta[i] & LSK_META_COUNT_MASK) >>
				   LSK_META_COUNT_SHIFT;
	for (i = kept; i < n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		enum ip4_verdict v = ip4_fast_pass(t->local_bloom, m) ?
				     IP4_PASS : ip4_check(t, m);

		members += (l->meta[i] & LSK_META_COUNT_MASK) >>
			   LSK_META_COUNT_SHIFT;
		if (likely(v == IP4_PASS)) {
			/* compaction keeps order; with no drop it rewrites
			 * each slot with itself */
			l->pkts[kept] = m;
			l->meta[kept] = l->meta[i];
			kept++;
		} else if (v == IP4_MCAST &&
			   !(l->meta[i] & LSK_META_COUNT_MASK) &&
			   lsk_host_punt(w, m)) {
			/* a group the kernel may have joined on the TAP
			 * (OSPF's 224.0.0.5): it decides */
			w->stats.ip.InDelivers++;
		} else {
			if (v == IP4_MCAST)
				v = IP4_DROP_DISCARD;
			lsk_ip4_drop(w, m, l->meta[i], &ip4_drops[v], 0);
		}
	}
	/* every datagram, a train's members too */
	w->stats.ip.InReceives += n + members;
	l->n = kept;
}
