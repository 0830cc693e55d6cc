/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reassembly table both families share (core/reasm.h), answering as
 * Linux's inet_fragment.c does for ip_fragment.c and reassembly.c:
 *
 * - any number of pieces, up to the family's most bytes of datagram
 *   (DPDK's rte_ip_frag holds RTE_LIBRTE_IP_FRAG_MAX_FRAG pieces, 8 in
 *   Debian's build: a 16 KB datagram over a 1500-byte MTU never came
 *   whole);
 * - a duplicate (a piece inside what is held) is dropped alone, the
 *   datagram kept (RFC 8200 4.5 allows it for IPv6, RFC 5722 otherwise);
 *   a piece that overlaps others drops the datagram, as do a second,
 *   different last piece, data past the last piece's end, an empty
 *   piece, and more than the family's most bytes;
 * - a datagram still in pieces when its time is up is dropped, and its
 *   family told when its first piece had come (to send time exceeded).
 */
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/reasm.h"
#include "core/worker.h"

#define REASM_NONE UINT16_MAX

struct reasm_piece {
	uint16_t off, end;	/* the payload's bytes [off, end) */
	/* the piece: the one at offset 0 whole (its headers too), the
	 * others their payload only */
	struct rte_mbuf *m;
};

struct reasm_entry {
	uint8_t key[LSK_REASM_KEY_MAX];
	uint64_t expires;	/* TSC */
	uint32_t meta;		/* the piece at offset 0's, for ICMP */
	uint32_t len;		/* the furthest end; the datagram's if last_in */
	uint32_t covered;	/* bytes held (pieces never overlap) */
	uint16_t n;
	uint16_t older, newer;	/* the age list, by first piece */
	bool last_in;
	struct reasm_piece piece[LSK_REASM_PIECES_MAX];
};

struct lsk_reasm {
	struct rte_hash *index;	/* key -> entry */
	struct lsk_reasm_conf c;
	uint64_t timeout;	/* TSC ticks */
	uint32_t held;		/* mbufs in every entry */
	uint16_t oldest, newest;
	struct reasm_entry e[LSK_REASM_ENTRIES];
};

struct lsk_reasm *
lsk_reasm_table_create(struct lsk_worker *w, const struct lsk_reasm_conf *c)
{
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = name,
		.entries = LSK_REASM_ENTRIES,
		.key_len = c->key_len,
		.hash_func = rte_jhash,
		.socket_id = w->sh->socket_id,
		/* full only when every entry is taken */
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};
	struct lsk_reasm *r;

	if (c->key_len > LSK_REASM_KEY_MAX)
		return NULL;
	r = rte_zmalloc_socket("lsk_reasm", sizeof(*r), RTE_CACHE_LINE_SIZE,
			       w->sh->socket_id);
	if (r == NULL)
		return NULL;
	snprintf(name, sizeof(name), "lskrsm%p", (void *)r);
	r->index = rte_hash_create(&hp);
	if (r->index == NULL) {
		rte_free(r);
		return NULL;
	}
	r->c = *c;
	r->timeout = rte_get_tsc_hz() * c->timeout_s;
	r->oldest = r->newest = REASM_NONE;
	*r->c.expires = UINT64_MAX;
	return r;
}

static void
entry_free(struct lsk_reasm *r, uint16_t i)
{
	struct reasm_entry *e = &r->e[i];
	unsigned int k;

	for (k = 0; k < e->n; k++)
		rte_pktmbuf_free(e->piece[k].m);
	r->held -= e->n;
	e->n = 0;
	rte_hash_del_key(r->index, e->key);
	if (e->older != REASM_NONE)
		r->e[e->older].newer = e->newer;
	else
		r->oldest = e->newer;
	if (e->newer != REASM_NONE)
		r->e[e->newer].older = e->older;
	else
		r->newest = e->older;
	*r->c.expires = r->oldest == REASM_NONE ? UINT64_MAX :
			r->e[r->oldest].expires;
}

/* The piece m dropped under row, as the frame it came in: the family's
 * front bytes (IPv6's Ethernet header, ahead of the data it gives) put
 * back first, for the capture and the trace. */
static void
piece_drop(struct lsk_worker *w, const struct lsk_reasm *r,
	   struct rte_mbuf *m, uint32_t meta, const struct lsk_drop *row)
{
	if (r->c.front != 0 && rte_pktmbuf_headroom(m) >= r->c.front)
		rte_pktmbuf_prepend(m, (uint16_t)r->c.front);
	lsk_drop(w, m, meta, row);
}

/* A datagram dropped whole, the fails row counted for it. */
static void
entry_fail(struct lsk_worker *w, struct lsk_reasm *r, uint16_t i)
{
	entry_free(r, i);
	lsk_drop_count(w, r->c.fails, 1);
}

void
lsk_reasm_table_flush(struct lsk_worker *w, struct lsk_reasm *r)
{
	RTE_SET_USED(w);
	while (r != NULL && r->oldest != REASM_NONE)
		entry_free(r, r->oldest);
}

void
lsk_reasm_table_free(struct lsk_worker *w, struct lsk_reasm *r)
{
	if (r == NULL)
		return;
	lsk_reasm_table_flush(w, r);
	rte_hash_free(r->index);
	rte_free(r);
}

/* The entry of key, made (the newest) if there is none, the oldest
 * evicted for it when the table is full; REASM_NONE when rte_hash still
 * refuses. */
static uint16_t
entry_get(struct lsk_worker *w, struct lsk_reasm *r, const void *key,
	  uint64_t now)
{
	struct reasm_entry *e;
	int32_t pos = rte_hash_lookup(r->index, key);

	if (pos >= 0)
		return (uint16_t)pos;
	pos = rte_hash_add_key(r->index, key);
	if (pos < 0 && r->oldest != REASM_NONE) {
		entry_fail(w, r, r->oldest);
		pos = rte_hash_add_key(r->index, key);
	}
	if (pos < 0)
		return REASM_NONE;
	if (pos >= LSK_REASM_ENTRIES) {	/* rte_hash promises less */
		rte_hash_del_key(r->index, key);
		return REASM_NONE;
	}
	e = &r->e[pos];
	memcpy(e->key, key, r->c.key_len);
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
		*r->c.expires = e->expires;
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
	if (e->n == LSK_REASM_PIECES_MAX)
		return PIECE_TOO_MANY;
	*at = i;
	return PIECE_IN;
}

/* The pieces chained behind the first into one datagram, or NULL (the
 * datagram dropped). */
static struct rte_mbuf *
entry_join(struct lsk_worker *w, struct lsk_reasm *r, uint16_t i)
{
	struct reasm_entry *e = &r->e[i];
	struct rte_mbuf *whole = e->piece[0].m;
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
		entry_fail(w, r, i);
		return NULL;
	}
	r->held -= e->n;
	e->n = 0;
	entry_free(r, i);
	/* the PMD's L4 verdict was about one piece only */
	whole->ol_flags &= ~RTE_MBUF_F_RX_L4_CKSUM_MASK;
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

/* The datagram's last piece, or one within it: false when the datagram
 * can no longer be made. */
static bool
entry_extent(struct reasm_entry *e, const struct lsk_reasm_piece *p)
{
	if (!p->more) {
		/* the last piece: nothing beyond it, and only one */
		if (p->end < e->len || (e->last_in && p->end != e->len))
			return false;
		e->last_in = true;
		e->len = p->end;
	} else if (p->end > e->len) {
		if (e->last_in)
			return false;	/* beyond the last piece's end */
		e->len = p->end;
	}
	/* not empty, and not past the family's most */
	return p->end > p->off && e->len <= p->max;
}

struct rte_mbuf *
lsk_reasm_table_add(struct lsk_worker *w, struct lsk_reasm *r,
		    const void *key, struct rte_mbuf *m, uint32_t meta,
		    const struct lsk_reasm_piece *p)
{
	uint32_t off = p->off, end = p->end;
	struct reasm_entry *e;
	enum piece_verdict v;
	uint16_t i, at = 0;
	uint64_t now;

	/* a piece never joins a datagram whose time is up */
	now = rte_rdtsc();
	if (unlikely(now >= *r->c.expires))
		lsk_reasm_table_expire(w, r);
	i = entry_get(w, r, key, now);
	if (i == REASM_NONE) {
		piece_drop(w, r, m, meta, r->c.fails);	/* no room */
		return NULL;
	}
	e = &r->e[i];
	/* no mbuf to spare: older datagrams go (never this one, which
	 * holds at most LSK_REASM_PIECES_MAX of them) */
	while (r->held >= LSK_REASM_HELD_MAX) {
		uint16_t o = r->oldest != i ? r->oldest : e->newer;

		if (o == REASM_NONE) {
			piece_drop(w, r, m, meta, r->c.fails);
			return NULL;
		}
		entry_fail(w, r, o);
	}
	if (!entry_extent(e, p))
		goto discard;
	v = piece_place(e, off, end, &at);
	if (v == PIECE_DUP) {
		piece_drop(w, r, m, meta, r->c.dup);
		return NULL;
	}
	if (v == PIECE_OVERLAP)
		lsk_drop_count(w, r->c.overlap, 1);
	if (v != PIECE_IN)
		goto discard;
	/* the piece keeps its payload only, the first its headers too */
	if (off != 0 && rte_pktmbuf_adj(m, (uint16_t)p->hdr) == NULL)
		goto discard;
	if (!piece_trim(m, (off == 0 ? p->hdr : 0) + end - off))
		goto discard;
	if (off == 0)
		e->meta = meta;
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
	entry_free(r, i);
	piece_drop(w, r, m, meta, r->c.fails);
	return NULL;
}

void
lsk_reasm_table_expire(struct lsk_worker *w, struct lsk_reasm *r)
{
	uint64_t now = rte_rdtsc();

	while (r->oldest != REASM_NONE && r->e[r->oldest].expires <= now) {
		struct reasm_entry *e = &r->e[r->oldest];

		lsk_drop_count(w, r->c.timeout, 1);
		/* Linux's ip_expire and ip6_expire_frag_queue: only with
		 * the first piece to quote */
		if (e->n != 0 && e->piece[0].off == 0)
			r->c.expired(w, e->piece[0].m, e->meta);
		entry_free(r, r->oldest);
	}
}

void
lsk_reasm_table_timeout_set(struct lsk_reasm *r, uint64_t tsc)
{
	r->timeout = tsc;
}

unsigned int
lsk_reasm_table_held(const struct lsk_reasm *r)
{
	return r != NULL ? r->held : 0;
}

struct rte_mbuf *
lsk_reasm_one_segment(struct rte_mbuf *m)
{
	uint32_t len = rte_pktmbuf_pkt_len(m);
	struct rte_mbuf *c;
	const void *p;
	char *d;

	if (likely(m->nb_segs == 1))
		return m;
	c = rte_pktmbuf_alloc(m->pool);
	if (c == NULL)
		return m;
	if (len > rte_pktmbuf_tailroom(c)) {
		rte_pktmbuf_free(c);
		return m;
	}
	d = rte_pktmbuf_append(c, (uint16_t)len);
	p = rte_pktmbuf_read(m, 0, len, d);
	if (p != d)
		memcpy(d, p, len);
	c->port = m->port;
	rte_pktmbuf_free(m);
	return c;
}
