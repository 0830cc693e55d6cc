/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A stage's drop reasons as a table indexed by its verdict: each row the
 * counters the reason bumps (by the datagrams dropped) and the ICMP error
 * it owes, if any. The table is the one place that says what a verdict
 * counts; the stage counts with lsk_drop_count, raises the error (ip4 and
 * udp, through icmp4) and frees.
 */
#ifndef LSK_CORE_DROP_H
#define LSK_CORE_DROP_H

#include <stddef.h>
#include <stdint.h>

#include "core/worker.h"

struct lsk_drop {
	/* where the counters are in struct lsk_stats, plus one; 0: none */
	uint16_t counter[2];
	uint8_t icmp_type;	/* 0 (an echo reply, never an error): none */
	uint8_t icmp_code;
};

/* A counter of struct lsk_stats for a row: LSK_DROP_AT(ip.InHdrErrors). */
#define LSK_DROP_AT(field) ((uint16_t)(offsetof(struct lsk_stats, field) + 1))
/* Rows: one counter, two, or one and the ICMP error the reason owes. */
#define LSK_DROP1(a) { .counter = { LSK_DROP_AT(a) } }
#define LSK_DROP2(a, b) { .counter = { LSK_DROP_AT(a), LSK_DROP_AT(b) } }
#define LSK_DROP_ICMP(a, type, code) \
	{ .counter = { LSK_DROP_AT(a) }, .icmp_type = (type), \
	  .icmp_code = (code) }

/* n datagrams dropped for reason r: its counters. */
static inline void
lsk_drop_count(struct lsk_worker *w, const struct lsk_drop *r, uint32_t n)
{
	unsigned int k;

	for (k = 0; k < RTE_DIM(r->counter); k++) {
		if (r->counter[k] != 0) {
			uint64_t *c = (uint64_t *)(void *)((char *)&w->stats +
							  r->counter[k] - 1);

			*c += n;
		}
	}
}

#endif /* LSK_CORE_DROP_H */
