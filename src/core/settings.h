/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The settings workers and sending threads follow (mode, GRO, the largest
 * MTU, the poll gap's epoch), published as one word: the
 * control thread keeps the configuration as given in struct lsk_stack and
 * stores a new word built from it; a worker loads the word once per burst
 * into its own copy (w->set), so a change takes effect between bursts and
 * a burst sees one consistent set. A word, not a table: storing it cannot
 * fail and nothing is left to reclaim. GRO holds no train across bursts
 * (udp4_gro closes every train by the end of its list), so a new flow or
 * train bound needs no flush.
 */
#ifndef LSK_CORE_SETTINGS_H
#define LSK_CORE_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

struct lsk_settings {
	/* aligned as a word, for the atomic load and store */
	_Alignas(uint64_t) uint16_t gro_flows;	/* open trains at most; 0: off */
	uint8_t gro_segs;	/* datagrams per train at most */
	bool gro_merge;		/* copy payloads into the head instead */
	uint8_t mode;		/* enum lsk_mode */
	/* `stats clear`'s count (mod 256): a worker that sees it change
	 * starts its longest poll gap again (worker/worker.c); one that
	 * missed exactly 256 clears between two polls keeps its longest */
	uint8_t poll_gap_epoch;
	/* the largest port MTU, as the forwarding table in force has it:
	 * what an application's send may be (udp/udp_ep.c) */
	uint16_t max_mtu;
};

_Static_assert(sizeof(struct lsk_settings) == sizeof(uint64_t),
	       "the settings are loaded and stored as one word");

/* The control thread's store (the settings word of the stack). */
static inline void
lsk_settings_store(struct lsk_settings *slot, struct lsk_settings v)
{
	__atomic_store(slot, &v, __ATOMIC_RELEASE);
}

/* A worker's load, once per burst (or a sending thread's). */
static inline void
lsk_settings_load(const struct lsk_settings *slot, struct lsk_settings *to)
{
	__atomic_load(slot, to, __ATOMIC_ACQUIRE);
}

#endif /* LSK_CORE_SETTINGS_H */
