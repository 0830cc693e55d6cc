/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly of the fragments addressed to us, answered as Linux's
 * net/ipv4/ip_fragment.c answers them:
 *
 * - any number of pieces, up to 65535 bytes of datagram (DPDK's
 *   rte_ip_frag holds RTE_LIBRTE_IP_FRAG_MAX_FRAG pieces, 8 in Debian's
 *   build: a 16 KB datagram over a 1500-byte MTU never came whole);
 * - a duplicate (a piece inside what is held) is dropped alone, the
 *   datagram kept; a piece that overlaps others drops the datagram
 *   (ReasmOverlaps, ReasmFails), as do a second, different last piece,
 *   data past the last piece's end, an empty piece, and more than 65535
 *   bytes in all;
 * - 30 s after its first piece a datagram still in pieces is dropped
 *   (ReasmTimeout, ReasmFails), with an ICMP time exceeded (fragment
 *   reassembly) to its sender when the piece at offset 0 had come.
 *
 * Bounded per worker: REASM_ENTRIES datagrams, REASM_PIECES_MAX pieces
 * each and LSK_REASM_HELD_MAX mbufs in all, which the pool is sized for
 * (drivers/port.c), so that fragments a sender never completes cannot
 * starve the ports' RX of mbufs. When a piece finds the table or the
 * mbufs full, the oldest datagrams go (ReasmFails each, as Linux's
 * evictor counts them): junk that never completes cannot keep the
 * datagrams of real senders out for its 30 s.
 */
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_hash.h>
#include <rte_ip.h>
#include <rte_jhash.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip4/ip4.h"

#define REASM_ENTRIES 256
#define REASM_PIECES_MAX LSK_REASM_PIECES_MAX
#define REASM_TIMEOUT_S 30	/* Linux's ipfrag_time */
#define REASM_NONE UINT16_MAX

struct reasm_key {
	uint32_t src, dst;
	uint16_t id;
	uint8_t proto;
	uint8_t zero;
};

struct reasm_piece {
	uint16_t off, end;	/* the payload's bytes [off, end) */
	/* the fragment: the one at offset 0 whole (Ethernet and IP
	 * headers), the others their payload only */
	struct rte_mbuf *m;
};

struct reasm_entry {
	struct reasm_key key;
	uint64_t expires;	/* TSC */
	uint32_t meta;		/* the piece at offset 0's, for ICMP */
	uint32_t len;		/* the furthest end; the datagram's if last_in */
	uint32_t covered;	/* bytes held (pieces never overlap) */
	uint16_t n;
	uint16_t older, newer;	/* the age list, by first piece */
	bool last_in;
	struct reasm_piece piece[REASM_PIECES_MAX];
};

struct lsk_reasm {
	struct rte_hash *index;	/* key -> entry */
	uint64_t timeout;	/* TSC ticks */
	uint32_t held;		/* mbufs in every entry */
	uint16_t oldest, newest;
	struct reasm_entry e[REASM_ENTRIES];
};

int
lsk_reasm_worker_init(struct lsk_worker *w)
{
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = name,
		.entries = REASM_ENTRIES,
		.key_len = sizeof(struct reasm_key),
		.hash_func = rte_jhash,
		.socket_id = w->sh->socket_id,
		/* full only when every entry is taken */
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};
	struct lsk_reasm *r;

	r = rte_zmalloc_socket("lsk_reasm", sizeof(*r), RTE_CACHE_LINE_SIZE,
			       w->sh->socket_id);
	if (r == NULL)
		return -ENOMEM;
	snprintf(name, sizeof(name), "lskrsm%p", (void *)r);
	r->index = rte_hash_create(&hp);
	if (r->index == NULL) {
		rte_free(r);
		return -ENOMEM;
	}
	r->timeout = rte_get_tsc_hz() * REASM_TIMEOUT_S;
	r->oldest = r->newest = REASM_NONE;
	w->ip4w->reasm = r;
	w->ip4w->reasm_expires = UINT64_MAX;
	return 0;
}

static void
entry_free(struct lsk_worker *w, struct lsk_reasm *r, uint16_t i)
{
	struct reasm_entry *e = &r->e[i];
	unsigned int k;

	for (k = 0; k < e->n; k++)
		rte_pktmbuf_free(e->piece[k].m);
	r->held -= e->n;
	e->n = 0;
	rte_hash_del_key(r->index, &e->key);
	if (e->older != REASM_NONE)
		r->e[e->older].newer = e->newer;
	else
		r->oldest = e->newer;
	if (e->newer != REASM_NONE)
		r->e[e->newer].older = e->older;
	else
		r->newest = e->older;
	w->ip4w->reasm_expires = r->oldest == REASM_NONE ? UINT64_MAX :
				r->e[r->oldest].expires;
}

void
lsk_reasm_worker_fini(struct lsk_worker *w)
{
	struct lsk_reasm *r = w->ip4w->reasm;

	if (r == NULL)
		return;
	while (r->oldest != REASM_NONE)
		entry_free(w, r, r->oldest);
	rte_hash_free(r->index);
	rte_free(r);
	w->ip4w->reasm = NULL;
}

int
lsk_frag_drop_incomplete(struct lsk_worker *w)
{
	struct lsk_reasm *r = w->ip4w->reasm;

	while (r != NULL && r->oldest != REASM_NONE)
		entry_free(w, r, r->oldest);
	return 0;
}

/* The entry of key, made (the newest) if there is none, the oldest
 * evicted for it when the table is full; REASM_NONE when rte_hash still
 * refuses. */
static uint16_t
entry_get(struct lsk_worker *w, struct lsk_reasm *r,
	  const struct reasm_key *key, uint64_t now)
{
	struct reasm_entry *e;
	int32_t pos = rte_hash_lookup(r->index, key);

	if (pos >= 0)
		return (uint16_t)pos;
	pos = rte_hash_add_key(r->index, key);
	if (pos < 0 && r->oldest != REASM_NONE) {
		entry_free(w, r, r->oldest);
		w->stats.ip.ReasmFails++;
		pos = rte_hash_add_key(r->index, key);
	}
	if (pos < 0)
		return REASM_NONE;
	if (pos >= REASM_ENTRIES) {	/* rte_hash promises less */
		rte_hash_del_key(r->index, key);
		return REASM_NONE;
	}
	e = &r->e[pos];
	e->key = *key;
	e->expires = now + r->timeout;
	e->len = e->covered = 0;
	e->n = 0;
	e->last_in = false;
	e->older = r->newest;
	e->newer = REASM_NONE;
	if (r->newest != REASM_NONE) {
		r->e[r->newest].newer = (uint16_t)pos;
	} else {
		r->oldest = (uint16_t)pos;
		w->ip4w->reasm_expires = e->expires;
	}
	r->newest = (uint16_t)pos;
	return (uint16_t)pos;
}

enum piece_verdict { PIECE_IN, PIECE_DUP, PIECE_OVERLAP, PIECE_TOO_MANY };

/* Where [off, end) goes among e's pieces (sorted by offset, apart). */
static enum piece_verdict
piece_place(const struct reasm_entry *e, uint32_t off, uint32_t end,
	    uint16_t *at)
{
	uint16_t i = e->n, j;

	/* in order is the common case: from the last piece back */
	while (i > 0 && e->piece[i - 1].off > off)
		i--;
	if (i > 0 && e->piece[i - 1].end > off) {
		/* inside the run of touching pieces from i - 1: a copy */
		for (j = i - 1; e->piece[j].end < end && j + 1 < e->n &&
		     e->piece[j + 1].off == e->piece[j].end; j++)
			;
		return e->piece[j].end >= end ? PIECE_DUP : PIECE_OVERLAP;
	}
	if (i < e->n && e->piece[i].off < end)
		return PIECE_OVERLAP;
	if (e->n == REASM_PIECES_MAX)
		return PIECE_TOO_MANY;
	*at = i;
	return PIECE_IN;
}

/* The pieces chained behind the first into one datagram. */
static struct rte_mbuf *
entry_join(struct lsk_worker *w, struct lsk_reasm *r, uint16_t i)
{
	struct reasm_entry *e = &r->e[i];
	struct rte_mbuf *whole = e->piece[0].m;
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		whole, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	unsigned int k;

	for (k = 1; k < e->n; k++) {
		/* nb_segs is 16 bits: a datagram of many chained pieces
		 * cannot reach it (128 pieces, 65535 bytes) */
		if (rte_pktmbuf_chain(whole, e->piece[k].m) < 0)
			break;
	}
	if (k < e->n) {
		/* pieces 1 .. k-1 are whole's segments now */
		memmove(&e->piece[1], &e->piece[k],
			(e->n - k) * sizeof(e->piece[0]));
		r->held -= k - 1u;
		e->n = (uint16_t)(e->n - (k - 1u));
		entry_free(w, r, i);
		w->stats.ip.ReasmFails++;
		return NULL;
	}
	r->held -= e->n;
	e->n = 0;
	entry_free(w, r, i);
	ip->total_length = rte_cpu_to_be_16((uint16_t)(
		whole->pkt_len - RTE_ETHER_HDR_LEN));
	/* the datagram reads as one; DF as its first piece had it */
	ip->fragment_offset &= RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	/* the PMD's L4 verdict was about one piece only */
	whole->ol_flags &= ~RTE_MBUF_F_RX_L4_CKSUM_MASK;
	w->stats.ip.ReasmOKs++;
	return whole;
}

/* m's bytes beyond want (Ethernet padding, a tail cut to 8 bytes) go;
 * false when they are not all in its last segment. */
static bool
piece_trim(struct rte_mbuf *m, uint32_t want)
{
	if (m->pkt_len == want)
		return true;
	return m->pkt_len > want &&
	       rte_pktmbuf_trim(m, (uint16_t)(m->pkt_len - want)) == 0;
}

static void
fragment_drop(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta)
{
	lsk_drop(w, m, meta, &lsk_ip4_local_drops[LSK_LOCAL_DROP_REASM_FAILS]);
}

struct rte_mbuf *
lsk_ip4_reassemble(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta)
{
	struct lsk_reasm *r = w->ip4w->reasm;
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint16_t frag = rte_be_to_cpu_16(ip->fragment_offset);
	uint32_t ihl = (ip->version_ihl & 0xf) * 4u;
	uint32_t off = (uint32_t)(frag & RTE_IPV4_HDR_OFFSET_MASK) * 8;
	/* ip4_input checked that total length covers the header and
	 * that the frame holds it */
	uint32_t end = off + rte_be_to_cpu_16(ip->total_length) - ihl;
	bool more = frag & RTE_IPV4_HDR_MF_FLAG;
	struct reasm_key key = {
		.src = ip->src_addr, .dst = ip->dst_addr,
		.id = ip->packet_id, .proto = ip->next_proto_id,
	};
	struct reasm_entry *e;
	enum piece_verdict v;
	uint16_t i, at = 0;
	uint64_t now;

	w->stats.ip.ReasmReqds++;
	/* a piece never joins a datagram whose time is up */
	now = rte_rdtsc();
	if (unlikely(now >= w->ip4w->reasm_expires))
		lsk_reasm_expire(w);
	if (unlikely(rte_be_to_cpu_16(ip->total_length) < ihl)) {
		fragment_drop(w, m, meta);
		return NULL;
	}
	if (more)
		end &= ~7u;	/* all but the last piece: 8-byte units */
	i = entry_get(w, r, &key, now);
	if (i == REASM_NONE) {
		fragment_drop(w, m, meta);	/* no room */
		return NULL;
	}
	e = &r->e[i];
	/* no mbuf to spare: older datagrams go (never this one, which
	 * holds at most REASM_PIECES_MAX of them) */
	while (r->held >= LSK_REASM_HELD_MAX) {
		uint16_t o = r->oldest != i ? r->oldest : e->newer;

		if (o == REASM_NONE) {
			fragment_drop(w, m, meta);
			return NULL;
		}
		entry_free(w, r, o);
		w->stats.ip.ReasmFails++;
	}
	if (!more) {
		/* the last piece: nothing beyond it, and only one */
		if (end < e->len || (e->last_in && end != e->len))
			goto discard;
		e->last_in = true;
		e->len = end;
	} else if (end > e->len) {
		if (e->last_in)
			goto discard;	/* beyond the last piece's end */
		e->len = end;
	}
	if (end <= off || ihl + e->len > UINT16_MAX)
		goto discard;	/* empty, or past 65535 bytes */
	v = piece_place(e, off, end, &at);
	if (v == PIECE_DUP) {
		/* dropped alone, the datagram kept (Linux counts it
		 * nowhere; listack's own counter) */
		lsk_drop(w, m, meta,
			 &lsk_ip4_local_drops[LSK_LOCAL_DROP_REASM_DUPLICATES]);
		return NULL;
	}
	if (v == PIECE_OVERLAP)
		w->stats.ip.ReasmOverlaps++;
	if (v != PIECE_IN)
		goto discard;
	/* the piece keeps its payload only, the first its headers too */
	if (off != 0 && rte_pktmbuf_adj(m, (uint16_t)(RTE_ETHER_HDR_LEN +
						      ihl)) == NULL)
		goto discard;
	if (!piece_trim(m, (off == 0 ? RTE_ETHER_HDR_LEN + ihl : 0) +
			       end - off))
		goto discard;
	if (off == 0) {
		m->l2_len = RTE_ETHER_HDR_LEN;
		m->l3_len = ihl;
		e->meta = meta;
	}
	memmove(&e->piece[at + 1], &e->piece[at],
		(e->n - at) * sizeof(e->piece[0]));
	e->piece[at] = (struct reasm_piece){ .off = (uint16_t)off,
					     .end = (uint16_t)end, .m = m };
	e->n++;
	r->held++;
	e->covered += end - off;
	if (e->last_in && e->covered == e->len)
		return entry_join(w, r, i);
	return NULL;
discard:
	entry_free(w, r, i);
	fragment_drop(w, m, meta);
	return NULL;
}

void
lsk_reasm_expire(struct lsk_worker *w)
{
	struct lsk_reasm *r = w->ip4w->reasm;
	uint64_t now = rte_rdtsc();

	while (r->oldest != REASM_NONE && r->e[r->oldest].expires <= now) {
		struct reasm_entry *e = &r->e[r->oldest];

		w->stats.ip.ReasmTimeout++;
		w->stats.ip.ReasmFails++;
		/* Linux's ip_expire: only with the first piece to quote */
		if (e->n != 0 && e->piece[0].off == 0)
			lsk_icmp4_error(w, e->piece[0].m, e->meta,
					LSK_ICMP_TIME_EXCEEDED,
					LSK_ICMP_EXC_FRAGTIME, 0);
		entry_free(w, r, r->oldest);
	}
}

void
lsk_reasm_timeout_set(struct lsk_worker *w, uint64_t tsc)
{
	w->ip4w->reasm->timeout = tsc;
}

unsigned int
lsk_reasm_held(const struct lsk_worker *w)
{
	return w->ip4w->reasm != NULL ? w->ip4w->reasm->held : 0;
}
