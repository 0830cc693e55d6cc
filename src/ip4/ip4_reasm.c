/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly of the IPv4 fragments addressed to us, answered as Linux's
 * net/ipv4/ip_fragment.c answers them, on the table both families share
 * (core/reasm.c: pieces, duplicates, overlaps, bounds, eviction); here
 * the IPv4 key (addresses, ID, protocol), the pieces' offsets and the
 * whole datagram's header:
 *
 * - up to 65535 bytes of datagram; a piece that overlaps others drops
 *   the datagram (ReasmOverlaps, ReasmFails), a duplicate is dropped
 *   alone (ReasmDuplicates);
 * - 30 s after its first piece a datagram still in pieces is dropped
 *   (ReasmTimeout, ReasmFails), with an ICMP time exceeded (fragment
 *   reassembly) to its sender when the piece at offset 0 had come.
 */
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/reasm.h"
#include "core/worker.h"
#include "ip4/ip4.h"

#define REASM_TIMEOUT_S 30	/* Linux's ipfrag_time */

struct reasm_key {
	uint32_t src, dst;
	uint16_t id;
	uint8_t proto;
	uint8_t zero;
};

/* counted per datagram by the table (core/reasm.c), never a drop */
static const struct lsk_drop timeout_row =
	LSK_DROP2(ip.ReasmTimeout, ip.ReasmFails);

static void
reasm_expired(struct lsk_worker *w, const struct rte_mbuf *first,
	      uint32_t meta)
{
	lsk_icmp4_error(w, first, meta, LSK_ICMP_TIME_EXCEEDED,
			LSK_ICMP_EXC_FRAGTIME, 0);
}

int
lsk_reasm_worker_init(struct lsk_worker *w)
{
	const struct lsk_reasm_conf c = {
		.key_len = sizeof(struct reasm_key),
		.timeout_s = REASM_TIMEOUT_S,
		.expires = &w->ip4w->reasm_expires,
		.fails = &lsk_ip4_local_drops[LSK_LOCAL_DROP_REASM_FAILS],
		.dup = &lsk_ip4_local_drops[LSK_LOCAL_DROP_REASM_DUPLICATES],
		.overlap = &lsk_ip4_local_drops[LSK_LOCAL_DROP_REASM_OVERLAPS],
		.timeout = &timeout_row,
		.expired = reasm_expired,
	};

	w->ip4w->reasm = lsk_reasm_table_create(w, &c);
	return w->ip4w->reasm == NULL ? -ENOMEM : 0;
}

void
lsk_reasm_worker_fini(struct lsk_worker *w)
{
	lsk_reasm_table_free(w, w->ip4w->reasm);
	w->ip4w->reasm = NULL;
}

int
lsk_frag_drop_incomplete(struct lsk_worker *w)
{
	lsk_reasm_table_flush(w, w->ip4w->reasm);
	return 0;
}

struct rte_mbuf *
lsk_ip4_reassemble(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint16_t frag = rte_be_to_cpu_16(ip->fragment_offset);
	uint32_t ihl = (ip->version_ihl & 0xf) * 4u;
	uint32_t tot = rte_be_to_cpu_16(ip->total_length);
	struct lsk_reasm_piece p = {
		.off = (uint32_t)(frag & RTE_IPV4_HDR_OFFSET_MASK) * 8,
		.hdr = RTE_ETHER_HDR_LEN + ihl,
		.max = UINT16_MAX - ihl,
		.more = frag & RTE_IPV4_HDR_MF_FLAG,
	};
	struct reasm_key key = {
		.src = ip->src_addr, .dst = ip->dst_addr,
		.id = ip->packet_id, .proto = ip->next_proto_id,
	};
	struct rte_ipv4_hdr *wip;
	struct rte_mbuf *whole;

	w->stats.ip.ReasmReqds++;
	/* ip4_input checked that the frame holds the header */
	if (unlikely(tot < ihl)) {
		lsk_drop(w, m, meta,
			 &lsk_ip4_local_drops[LSK_LOCAL_DROP_REASM_FAILS]);
		return NULL;
	}
	p.end = p.off + tot - ihl;
	if (p.more)
		p.end &= ~7u;	/* all but the last piece: 8-byte units */
	if (p.off == 0) {
		m->l2_len = RTE_ETHER_HDR_LEN;
		m->l3_len = ihl;
	}
	whole = lsk_reasm_table_add(w, w->ip4w->reasm, &key, m, meta, &p);
	if (whole == NULL)
		return NULL;
	wip = rte_pktmbuf_mtod_offset(whole, struct rte_ipv4_hdr *,
				      RTE_ETHER_HDR_LEN);
	wip->total_length = rte_cpu_to_be_16((uint16_t)(
		whole->pkt_len - RTE_ETHER_HDR_LEN));
	/* the datagram reads as one; DF as its first piece had it */
	wip->fragment_offset &= RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	wip->hdr_checksum = 0;
	wip->hdr_checksum = rte_ipv4_cksum(wip);
	w->stats.ip.ReasmOKs++;
	return whole;
}

void
lsk_reasm_expire(struct lsk_worker *w)
{
	lsk_reasm_table_expire(w, w->ip4w->reasm);
}

void
lsk_reasm_timeout_set(struct lsk_worker *w, uint64_t tsc)
{
	lsk_reasm_table_timeout_set(w->ip4w->reasm, tsc);
}

unsigned int
lsk_reasm_held(const struct lsk_worker *w)
{
	return lsk_reasm_table_held(w->ip4w->reasm);
}
