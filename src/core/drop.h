/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one drop path. A stage's drop reasons are a table indexed by its
 * verdict (named in the stage's declaration, core/stage.h): each row the
 * counters the reason bumps (by the datagrams dropped) and the ICMP error
 * it owes, if any. lsk_drop counts, captures, traces and frees; every
 * stage drops through it (ip4 and udp through lsk_ip4_drop, which raises
 * the row's ICMP error between the two halves, lsk_drop_note and
 * lsk_drop_done, so that a trace shows the error before the drop).
 * Off the hot path: out of line (core/drop.c).
 */
#ifndef LSK_CORE_DROP_H
#define LSK_CORE_DROP_H

#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "core/worker.h"

struct lsk_drop {
	/* where the counters are in struct lsk_stats, plus one; 0: none */
	uint16_t counter[2];
	uint8_t icmp_type;	/* 0 (an echo reply, never an error): none */
	uint8_t icmp_code;
	/* counted where its cause was found (a failed ARP entry): the row
	 * names the drop for capture and trace, lsk_drop counts nothing */
	uint8_t counted_elsewhere;
};

/* A counter of struct lsk_stats for a row: LSK_DROP_AT(ip.InHdrErrors). */
#define LSK_DROP_AT(field) ((uint16_t)(offsetof(struct lsk_stats, field) + 1))
/* Rows: one counter, two, or one and the ICMP error the reason owes;
 * a counter counted elsewhere; none at all (trace: "uncounted"). */
#define LSK_DROP1(a) { .counter = { LSK_DROP_AT(a) } }
#define LSK_DROP2(a, b) { .counter = { LSK_DROP_AT(a), LSK_DROP_AT(b) } }
#define LSK_DROP_ICMP(a, type, code) \
	{ .counter = { LSK_DROP_AT(a) }, .icmp_type = (type), \
	  .icmp_code = (code) }
#define LSK_DROP_ELSEWHERE(a, type, code) \
	{ .counter = { LSK_DROP_AT(a) }, .icmp_type = (type), \
	  .icmp_code = (code), .counted_elsewhere = 1 }
#define LSK_DROP_NONE { .counter = { 0 } }

/* n datagrams dropped for reason r: its counters. */
static inline void
lsk_drop_count(struct lsk_worker *w, const struct lsk_drop *r, uint32_t n)
{
	unsigned int k;

	if (r->counted_elsewhere)
		return;
	for (k = 0; k < RTE_DIM(r->counter); k++) {
		if (r->counter[k] != 0) {
			uint64_t *c = (uint64_t *)(void *)((char *)&w->stats +
							  r->counter[k] - 1);

			*c += n;
		}
	}
}

/*
 * The list entry m (a packet, or a train of meta's count) dropped for
 * reason r: counted (n datagrams), captured and traced under r's first
 * counter's name, freed. lsk_drop_n counts n instead of the entry's
 * datagrams (a delivery that held several, udp/udp4_input.c).
 * Ownership: takes m and its train's members.
 */
void lsk_drop_n(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		const struct lsk_drop *r, uint32_t n);

static inline void
lsk_drop(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
	 const struct lsk_drop *r)
{
	lsk_drop_n(w, m, meta, r, lsk_meta_count(meta));
}

/* The two halves of lsk_drop, for a caller that owes an error between
 * them (lsk_ip4_drop): counted and captured; then traced and freed.
 * Ownership: note leaves m the caller's; done takes m and its members. */
void lsk_drop_note(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		   const struct lsk_drop *r, uint32_t n);
void lsk_drop_done(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		   const struct lsk_drop *r);

#endif /* LSK_CORE_DROP_H */
