/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reassembly table both families share (core/reasm.c): datagrams
 * in pieces by key, their pieces sorted and apart, an age list, the
 * bounds, the timeout. What a key is, where a piece's payload starts and
 * what the whole datagram's header says are the family's
 * (ip4/ip4_reasm.c, ip6/ip6_reasm.c), as Linux's inet_fragment.c serves
 * ip_fragment.c and reassembly.c.
 *
 * Bounded per worker and family: LSK_REASM_ENTRIES datagrams,
 * LSK_REASM_PIECES_MAX pieces each and LSK_REASM_HELD_MAX mbufs in all
 * (the pool is sized for them, drivers/port.c). When a piece finds the
 * table or the mbufs full, the oldest datagrams go (the fails row each):
 * junk that never completes cannot keep real senders' datagrams out.
 */
#ifndef LSK_CORE_REASM_H
#define LSK_CORE_REASM_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

struct lsk_worker;
struct lsk_drop;
struct lsk_reasm;

#define LSK_REASM_ENTRIES 256
/* Pieces one datagram may have: 65535 bytes in pieces of 512, what a
 * 576-byte MTU (RFC 791's smallest datagram every host takes) carries */
#define LSK_REASM_PIECES_MAX 128
#define LSK_REASM_KEY_MAX 40	/* IPv6's: two addresses, id, interface */

/* What a family tells the table when it makes it. */
struct lsk_reasm_conf {
	uint32_t key_len;	/* bytes of a key, <= LSK_REASM_KEY_MAX */
	uint32_t timeout_s;	/* from a datagram's first piece */
	/* bytes of the frame ahead of the data a piece is given with
	 * (IPv6's Ethernet header), put back when a piece is dropped */
	uint32_t front;
	/* the family's copy of the oldest datagram's timeout (TSC;
	 * UINT64_MAX: none), which its workers test per poll */
	uint64_t *expires;
	/* rows (core/drop.h): a datagram dropped whole (the piece that
	 * ended it is dropped under it), a duplicate piece dropped alone;
	 * counted only: a piece that overlapped others (besides fails),
	 * a datagram whose time was up (timeout and fails) */
	const struct lsk_drop *fails, *dup, *overlap, *timeout;
	/* a datagram whose time was up had its first piece, first (data
	 * at it as it was given, meta its word): the family owes its
	 * sender a time exceeded (fragment reassembly) */
	void (*expired)(struct lsk_worker *w, const struct rte_mbuf *first,
			uint32_t meta);
};

/* One piece as the family read it from its header. */
struct lsk_reasm_piece {
	uint32_t off, end;	/* the payload's bytes [off, end) */
	uint32_t hdr;		/* m's bytes before the payload */
	uint32_t max;		/* the most payload the datagram may have */
	bool more;		/* not the last piece */
};

/* A table for worker w, NULL without memory. */
struct lsk_reasm *lsk_reasm_table_create(struct lsk_worker *w,
					 const struct lsk_reasm_conf *c);
/* Free r and every piece it holds (NULL: nothing). */
void lsk_reasm_table_free(struct lsk_worker *w, struct lsk_reasm *r);
/* Drop every datagram in pieces, uncounted (tests, fuzzers). */
void lsk_reasm_table_flush(struct lsk_worker *w, struct lsk_reasm *r);
/*
 * Put the piece m (p as its header says; key the family's key of it) in
 * r: returns the whole datagram when its last piece came, the first
 * piece (its headers as they came, p->hdr bytes of them) with the
 * others' payloads chained behind it; else NULL (held, or dropped and
 * counted). The family writes the whole's header.
 * Ownership: takes m; returns an mbuf the caller owns.
 */
struct rte_mbuf *lsk_reasm_table_add(struct lsk_worker *w, struct lsk_reasm *r,
				     const void *key, struct rte_mbuf *m,
				     uint32_t meta,
				     const struct lsk_reasm_piece *p);
/* Drop the datagrams whose time is up (the conf's timeout row, its
 * expired call where the first piece had come). */
void lsk_reasm_table_expire(struct lsk_worker *w, struct lsk_reasm *r);
/* Mbufs r holds. */
unsigned int lsk_reasm_table_held(const struct lsk_reasm *r);
/* The time a datagram has for its pieces (tests). */
void lsk_reasm_table_timeout_set(struct lsk_reasm *r, uint64_t tsc);
/*
 * A whole datagram as lsk_reasm_table_add gives it is in segments:
 * ICMP (ip4/icmp4.c, ip6/icmp6.c) reads it from a copy in one mbuf of
 * m's pool when it fits one; else (too long, no mbuf) m stays as it is.
 * Ownership: takes m; returns the mbuf to go on with (m or the copy).
 */
struct rte_mbuf *lsk_reasm_one_segment(struct rte_mbuf *m);

#endif /* LSK_CORE_REASM_H */
