/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly of the IPv6 fragments addressed to us, answered as Linux's
 * net/ipv6/reassembly.c answers them, on the table both families share
 * (core/reasm.c: pieces, duplicates, overlaps, bounds, eviction); here
 * the key (addresses, the fragment header's id, the interface for
 * link-local and multicast destinations), the fragment header and the
 * whole datagram's headers:
 *
 * - an atomic fragment (offset 0, M clear) is the datagram alone, its
 *   fragment header taken out, never mixed with fragments of the same
 *   id (RFC 6946): ReasmReqds, ReasmOKs;
 * - a piece with M set whose length is no multiple of 8, or one that
 *   would end past 65535 bytes, is answered with parameter problem
 *   (pointing at the payload length, the fragment offset) and counted
 *   InHdrErrors, as Linux's ipv6_frag_rcv;
 * - a piece that overlaps others drops the datagram (RFC 5722;
 *   ReasmFails), an exact duplicate is dropped alone (RFC 8200 4.5
 *   allows it; ReasmDuplicates, which Linux does not count);
 * - 60 s after its first piece (Linux's IPV6_FRAG_TIMEOUT) a datagram
 *   still in pieces is dropped (ReasmTimeout, ReasmFails), with time
 *   exceeded code 1 to its sender when the piece at offset 0 had come.
 *
 * Known gap: a first fragment without the whole header chain (RFC 8200
 * 4.5, RFC 7112) is reassembled, not answered with parameter problem
 * code 3.
 */
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/fwd6.h"
#include "core/reasm.h"
#include "core/stage.h"
#include "core/worker.h"
#include "ip6/ip6.h"

#define REASM6_TIMEOUT_S 60	/* Linux's IPV6_FRAG_TIMEOUT */
#define IP6_HDR_LEN 40
#define FRAG_HDR_LEN 8
#define IP6_PROTO_AH 51

struct reasm6_key {
	struct lsk_ip6_addr src, dst;
	rte_be32_t id;
	uint32_t iface;		/* a link-local or multicast dst's only */
};

enum reasm6_drop {
	REASM6_DROP_FAILS,
	REASM6_DROP_DUPLICATES,
	REASM6_DROP_HDR,	/* parameter problem */
	/* counted per datagram, never a drop */
	REASM6_DROP_TIMEOUT,
	REASM6_DROP_OVERLAP,
};

static const struct lsk_drop reasm6_drops[] = {
	[REASM6_DROP_FAILS] = LSK_DROP1(ip6.ReasmFails),
	[REASM6_DROP_DUPLICATES] = LSK_DROP1(ip6.ReasmDuplicates),
	[REASM6_DROP_HDR] = LSK_DROP_ICMP(ip6.InHdrErrors,
			LSK_ICMP6_PARAM_PROB, LSK_ICMP6_HDR_FIELD),
	[REASM6_DROP_TIMEOUT] = LSK_DROP2(ip6.ReasmTimeout, ip6.ReasmFails),
	/* RFC 5722: the datagram goes (fails); Linux's snmp6 has no
	 * overlap counter */
	[REASM6_DROP_OVERLAP] = LSK_DROP_NONE,
};

/* ip6_local's reassembly (a node: its cycles are ip6_local's). */
LSK_STAGE_DECLARE(lsk_ip6_reasm_node,
	.name = "ip6_reasm", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("icmp6"),
	.drops = reasm6_drops, .n_drops = REASM6_DROP_TIMEOUT);

static void
reasm6_expired(struct lsk_worker *w, const struct rte_mbuf *first,
	       uint32_t meta)
{
	lsk_icmp6_error(w, first, meta, LSK_ICMP6_TIME_EXCEEDED,
			LSK_ICMP6_EXC_FRAGTIME, 0);
}

int
lsk_reasm6_worker_init(struct lsk_worker *w)
{
	const struct lsk_reasm_conf c = {
		.key_len = sizeof(struct reasm6_key),
		.timeout_s = REASM6_TIMEOUT_S,
		.front = RTE_ETHER_HDR_LEN,	/* ip6_local stepped over it */
		.expires = &w->ip6w->reasm_expires,
		.fails = &reasm6_drops[REASM6_DROP_FAILS],
		.dup = &reasm6_drops[REASM6_DROP_DUPLICATES],
		.overlap = &reasm6_drops[REASM6_DROP_OVERLAP],
		.timeout = &reasm6_drops[REASM6_DROP_TIMEOUT],
		.expired = reasm6_expired,
	};

	w->ip6w->reasm = lsk_reasm_table_create(w, &c);
	return w->ip6w->reasm == NULL ? -ENOMEM : 0;
}

void
lsk_reasm6_worker_fini(struct lsk_worker *w)
{
	lsk_reasm_table_free(w, w->ip6w->reasm);
	w->ip6w->reasm = NULL;
}

void
lsk_reasm6_expire(struct lsk_worker *w)
{
	lsk_reasm_table_expire(w, w->ip6w->reasm);
}

void
lsk_reasm6_timeout_set(struct lsk_worker *w, uint64_t tsc)
{
	lsk_reasm_table_timeout_set(w->ip6w->reasm, tsc);
}

unsigned int
lsk_reasm6_held(const struct lsk_worker *w)
{
	return lsk_reasm_table_held(w->ip6w->reasm);
}

void
lsk_reasm6_flush(struct lsk_worker *w)
{
	lsk_reasm_table_flush(w, w->ip6w->reasm);
}

/*
 * The fragment header at frag_off goes out of m (data at the IPv6
 * header, the headers before it in the first segment): the header
 * before it names what followed it, the payload length shrinks. The
 * bytes move up, the Ethernet header in front of them too when there
 * is room for it, so that what is ahead of the data stays a frame.
 */
static void
frag_hdr_remove(struct rte_mbuf *m, uint16_t frag_off)
{
	uint8_t *ip = rte_pktmbuf_mtod(m, uint8_t *);
	uint8_t next = ip[frag_off];	/* the fragment header's */
	uint8_t *prev = ip + 6;		/* the IPv6 header's next header */
	uint32_t pos = IP6_HDR_LEN, back;
	struct rte_ipv6_hdr *h;

	/* ip6_input walked these; only the hop-by-hop, destination and
	 * routing headers (and AH) may stand before a fragment header */
	while (pos < frag_off) {
		uint32_t len = *prev == IP6_PROTO_AH ? (ip[pos + 1] + 2u) * 4u :
			       (ip[pos + 1] + 1u) * 8u;

		prev = ip + pos;
		pos += len;
	}
	*prev = next;
	back = rte_pktmbuf_headroom(m) >= RTE_ETHER_HDR_LEN ?
	       RTE_ETHER_HDR_LEN : 0;
	memmove(ip - back + FRAG_HDR_LEN, ip - back, back + frag_off);
	rte_pktmbuf_adj(m, FRAG_HDR_LEN);
	h = rte_pktmbuf_mtod(m, struct rte_ipv6_hdr *);
	h->payload_len = rte_cpu_to_be_16((uint16_t)(m->pkt_len -
						     IP6_HDR_LEN));
}

/* Parameter problem about m: lsk_ip6_drop takes the frame, whose
 * Ethernet header ip6_local stepped over. */
static void
reasm6_bad_header(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		  uint32_t pointer)
{
	if (rte_pktmbuf_prepend(m, RTE_ETHER_HDR_LEN) == NULL) {
		lsk_drop(w, m, meta, &reasm6_drops[REASM6_DROP_HDR]);
		return;
	}
	lsk_ip6_drop(w, m, meta, &reasm6_drops[REASM6_DROP_HDR], pointer);
}

struct rte_mbuf *
lsk_ip6_reassemble(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		   uint16_t frag_off)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod(m,
		const struct rte_ipv6_hdr *);
	const struct rte_ipv6_fragment_ext *fh;
	uint32_t plen = rte_be_to_cpu_16(ip->payload_len);
	struct reasm6_key key;
	struct lsk_reasm_piece p;
	struct rte_mbuf *whole;
	uint16_t fd;

	w->stats.ip6.ReasmReqds++;
	/* ip6_input walked the chain to the fragment header and trimmed
	 * the frame to the payload length; what a caller did not check is
	 * a header error here */
	if (unlikely(frag_off < IP6_HDR_LEN ||
		     (uint32_t)frag_off + FRAG_HDR_LEN > m->data_len ||
		     (uint32_t)frag_off + FRAG_HDR_LEN > IP6_HDR_LEN + plen ||
		     IP6_HDR_LEN + plen > m->pkt_len)) {
		reasm6_bad_header(w, m, meta, 4);	/* payload length */
		return NULL;
	}
	fh = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_fragment_ext *,
				     frag_off);
	fd = rte_be_to_cpu_16(fh->frag_data);
	p.off = fd & 0xfff8u;
	p.more = fd & 1u;
	p.hdr = frag_off + FRAG_HDR_LEN;
	p.end = p.off + IP6_HDR_LEN + plen - p.hdr;
	if (p.off == 0 && !p.more) {
		/* RFC 6946: alone, whatever else has this id */
		frag_hdr_remove(m, frag_off);
		w->stats.ip6.ReasmOKs++;
		return m;
	}
	if (p.more && (p.end & 7u) != 0) {
		reasm6_bad_header(w, m, meta, 4);	/* payload length */
		return NULL;
	}
	if (p.end > UINT16_MAX) {
		reasm6_bad_header(w, m, meta, frag_off + 2u);	/* offset */
		return NULL;
	}
	/* the headers before the fragment header count in the whole's
	 * payload length */
	p.max = UINT16_MAX - (frag_off - IP6_HDR_LEN);
	memset(&key, 0, sizeof(key));
	memcpy(&key.src, ip->src_addr, sizeof(key.src));
	memcpy(&key.dst, ip->dst_addr, sizeof(key.dst));
	key.id = fh->id;
	if (lsk_ip6_is_linklocal(&key.dst) || lsk_ip6_is_multicast(&key.dst))
		key.iface = m->port;
	whole = lsk_reasm_table_add(w, w->ip6w->reasm, &key, m, meta, &p);
	if (whole == NULL)
		return NULL;
	frag_hdr_remove(whole, frag_off);
	w->stats.ip6.ReasmOKs++;
	return whole;
}
