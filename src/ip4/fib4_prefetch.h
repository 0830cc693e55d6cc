/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fib4_prefetch: a burst's FIB entries asked for before the bulk lookup.
 *
 * With a full table the DIR-24-8's tbl24 (16M entries of 1, 2 or 4 bytes)
 * is far larger than the caches, and every lookup of a new destination
 * misses. rte_fib_lookup_bulk prefetches only a few entries ahead of
 * itself (5 to 15 by entry size); the fast path (ip4/fwd_fast.c) knows
 * every destination one pass earlier, and asks for each destination's
 * tbl24 line right after that pass (lsk_fib4_prefetch_bulk), so the
 * misses overlap with each other and with what runs before the lookup
 * (the filter).
 *
 * rte_fib keeps its DIR-24-8 private (DPDK 22.11, lib/fib/dir24_8.h, not
 * installed); lsk_fib4_tbl24 finds tbl24 in rte_fib_get_dp's memory and
 * checks the layout against what the FIB was created with. Only a
 * prefetch uses the address: it never reads through it, and a prefetch
 * of a wrong address cannot fault, so a layout that changed could cost
 * the speed, never the answer. The lookup stays rte_fib's.
 */
#ifndef LSK_IP4_FIB4_PREFETCH_H
#define LSK_IP4_FIB4_PREFETCH_H

#include <stdint.h>

#include <rte_prefetch.h>

struct rte_fib;
struct rte_fib_conf;

/*
 * Routes below which the prefetch costs more than it saves: their
 * entries' lines (64 B a route at most) stay in the caches. Measured:
 * 4096 flows over 1024 routes, 129.7 instructions a packet with it
 * against 123.9 without (bench/RESULTS.md, issue 25 item 1).
 */
#define LSK_FIB4_PREFETCH_ROUTES 65536

/*
 * The address of fib's tbl24 as an integer, or 0 when fib is not a
 * DIR-24-8 laid out as DPDK 22.11's with conf's sizes, or routes (what
 * the table is built with) is under LSK_FIB4_PREFETCH_ROUTES. To be
 * called as the FIB is created (before any route is added: the check
 * reads the entries conf's default next hop fills). *shift: log2 of an
 * entry's size in bytes.
 */
uintptr_t lsk_fib4_tbl24(const struct rte_fib *fib,
			 const struct rte_fib_conf *conf, uint32_t routes,
			 uint8_t *shift);

/* The byte of tbl24 (at base, entries of 1 << shift bytes) that a
 * lookup of dst (host order) reads first. */
static inline uintptr_t
lsk_fib4_entry_addr(uintptr_t base, uint8_t shift, uint32_t dst)
{
	return base + ((uintptr_t)(dst >> 8) << shift);
}

/* Ask for the tbl24 line of dst's entry. */
static inline void
lsk_fib4_prefetch(uintptr_t base, uint8_t shift, uint32_t dst)
{
	rte_prefetch0((const void *)lsk_fib4_entry_addr(base, shift, dst));
}

/* lsk_fib4_prefetch of dst[0, n), as the fast path (ip4/fwd_fast.c)
 * asks for a burst's entries after gathering them, before the bulk
 * lookup. */
static inline void
lsk_fib4_prefetch_bulk(uintptr_t base, uint8_t shift, const uint32_t *dst,
		       uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		lsk_fib4_prefetch(base, shift, dst[i]);
}

#endif
