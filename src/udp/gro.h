/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp4_gro: the flow table of fraglist GRO, its repeat check, and its two
 * passes (the run pass before eth_input, the stage between eth_input and
 * ip4_input).
 */
#ifndef LSK_UDP_GRO_H
#define LSK_UDP_GRO_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ether.h>
#include <rte_hash_crc.h>
#include <rte_mbuf.h>

#include "listack/listack.h"
#include "core/list.h"

struct lsk_worker;

/* udp4_gro's flow table, emptied at the end of every burst, and the run
 * pass's result */
#define LSK_GRO_SLOTS (2 * LSK_BURST_MAX)
#define LSK_GRO_SEEN (4 * LSK_BURST_MAX)

struct lsk_gro_slot {
	bool used;		/* the flow was seen in this burst */
	bool head_checked;	/* the head's checksums were verified */
	uint16_t in_port;
	uint32_t src, dst, ports;	/* as on the wire */
	struct rte_mbuf *head;	/* the open train, NULL when none */
	struct rte_mbuf *tail;	/* NULL: not found yet (gro_tail) */
	uint32_t count;		/* datagrams in the train */
	uint32_t bytes;		/* as Linux counts: 28 + the payloads */
	uint16_t ulen;		/* the train's UDP length */
	uint32_t list_idx;	/* where the head sits in the list */
	uint32_t train_id;
};

/* open trains in the order they opened, for closing the oldest */
struct lsk_gro_age {
	uint16_t slot;
	uint32_t train_id;
};

struct lsk_gro_table {
	uint32_t slot_mask;	/* slots in use this burst, minus one */
	bool track_age;		/* more datagrams than open trains allowed */
	uint32_t n_open;
	uint32_t n_touched;
	uint32_t n_age, age_first;
	uint32_t next_train_id;
	uint16_t touched[LSK_BURST_MAX];
	struct lsk_gro_age age[LSK_BURST_MAX];
	struct lsk_gro_slot slots[LSK_GRO_SLOTS];
	bool no_runs;		/* lsk_gro_rx_runs found none last time */
	uint32_t rx_probe;	/* bursts since, for lsk_gro_rx_runs tries */
	/* the repeat check (lsk_gro_note): list number << 32 | flow hash */
	uint32_t seen_list;
	uint32_t noted;		/* entries of the list noted, from its first */
	bool repeat;		/* two of them hashed alike */
	uint64_t seen[LSK_GRO_SEEN];
	/* the burst with runs of one flow chained (lsk_gro_rx_runs): each
	 * entry and how many datagrams follow it in its train */
	struct rte_mbuf *rx_heads[LSK_BURST_MAX];
	uint8_t rx_members[LSK_BURST_MAX];
};

/* Where the flow key sits in an IHL-5 frame: addresses, then ports. */
#define LSK_GRO_KEY_OFF (RTE_ETHER_HDR_LEN + 12)
#define LSK_GRO_KEY_END (LSK_GRO_KEY_OFF + 12)

/*
 * The repeat check's hash: the NIC's RSS hash when it gave one (as Linux
 * picks the GRO bucket by skb->hash), else a CRC of the addresses and
 * ports at their IHL-5 places. Either is equal for two datagrams that
 * can join one train; other packets of a flow may hash otherwise, which
 * does not matter: only two datagrams that can join make a train.
 */
/* Ownership: m stays the caller's. */
static inline uint32_t
lsk_gro_repeat_hash(const struct rte_mbuf *m)
{
	const uint8_t *key = rte_pktmbuf_mtod_offset(m, const uint8_t *,
						     LSK_GRO_KEY_OFF);
	uint64_t addrs;
	uint32_t ports;

	if (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH)
		return m->hash.rss;
	memcpy(&addrs, key, 8);
	memcpy(&ports, key + 8, 4);
	return rte_hash_crc_8byte(addrs, ports);
}

/* A new list for the repeat check; returns its number. */
static inline uint32_t
lsk_gro_note_start(struct lsk_gro_table *t)
{
	t->noted = 0;
	t->repeat = false;
	if (unlikely(++t->seen_list == 0)) {
		memset(t->seen, 0, sizeof(t->seen));
		t->seen_list = 1;
	}
	return t->seen_list;
}

/*
 * Note an entry of the list (meta its meta word). Only if two entries of
 * a list hash alike, or one is a train already (the run pass's: its flow
 * came twice), can a train form, so a list of many flows (a scan, a
 * flood of new connections) skips GRO's table work.
 * Ownership: m stays the caller's.
 */
static inline void
lsk_gro_note(struct lsk_gro_table *t, const struct rte_mbuf *m, uint32_t meta,
	     uint32_t list)
{
	if (unlikely(meta & LSK_META_COUNT_MASK)) {
		t->repeat = true;
		return;
	}
	if (likely(m->data_len >= LSK_GRO_KEY_END)) {
		uint32_t h = lsk_gro_repeat_hash(m), i;
		uint64_t want = (uint64_t)list << 32 | h;

		for (i = h & (LSK_GRO_SEEN - 1);; i = (i + 1) & (LSK_GRO_SEEN - 1)) {
			uint64_t e = t->seen[i];

			if ((uint32_t)(e >> 32) != list) {
				t->seen[i] = want;
				return;
			}
			if (e == want) {
				t->repeat = true;
				return;
			}
		}
	}
}

/* Note l's entries from `from` on, until a repeat is found; the list's
 * entries before them were noted under list. */
static inline void
lsk_gro_note_from(struct lsk_gro_table *t, const struct lsk_list *l,
		  uint32_t from, uint32_t list)
{
	uint32_t i;

	for (i = from; i < l->n && !t->repeat; i++)
		lsk_gro_note(t, l->pkts[i], l->meta[i], list);
	t->noted = l->n;
}

/*
 * Can a train form in the burst pkts[0, n) at all: do two of its frames
 * hash alike (lsk_gro_note's test, on every frame as it came, a superset
 * of the IPv4 list eth_input notes)? When not, GRO leaves the burst as
 * it is, and the worker may forward it by the fast path. Stops at the
 * first repeat. Out of line (udp4_gro_rx.c): its loop then has the
 * registers to itself, which the worker loop's would not give it.
 * Ownership: pkts stay the caller's.
 */
bool lsk_gro_burst_repeats(struct lsk_gro_table *t,
			   struct rte_mbuf *const *pkts, uint16_t n);

/* bursts between two tries of lsk_gro_rx_runs while it finds no run;
 * prime, so the tries do not always fall on the bursts whose stages are
 * timed (one in LSK_STAGE_SAMPLE) */
#define LSK_GRO_RX_PROBE 61

/*
 * Should this burst take the run pass? Only with fraglist GRO (`gro
 * merge` copies payloads: not here). udp4_gro makes the same trains
 * without it, so while it finds no run (flows interleaved, or many
 * flows) it is tried on one burst in LSK_GRO_RX_PROBE only.
 */
static inline bool
lsk_gro_rx_due(struct lsk_gro_table *t, uint32_t flows, bool merge)
{
	return flows != 0 && !merge &&
	       (!t->no_runs || ++t->rx_probe % LSK_GRO_RX_PROBE == 0);
}

/*
 * Before eth_input: datagrams that continue the frame before them back to
 * back (its first 48 bytes but for IP ID and checksums, checksums the
 * PMD vouched for) are chained behind it into a train, so eth_input and
 * GRO see the run once (IPv4's; IPv6's alike, their first 64 bytes but
 * for the UDP checksum). Fills w->udpw->gro.rx_heads and rx_members;
 * returns their number. udp4_gro and udp6_gro take these trains as they
 * would have made them. Call it when lsk_gro_rx_due says so.
 * Ownership: pkts stay the caller's, as the heads in
 * w->udpw->gro.rx_heads and the members chained behind them.
 */
uint16_t lsk_gro_rx_runs(struct lsk_worker *w, struct rte_mbuf **pkts,
			 uint16_t n);

/* A received burst as the stages take it: frames, or the heads of
 * trains with how many datagrams follow each (members; NULL: none). */
struct lsk_gro_burst {
	struct rte_mbuf **pkts;
	const uint8_t *members;
	uint16_t n;
};

/* GRO's one entry before L2: lsk_gro_input (udp/udp.h, beside the
 * per-worker state it reaches). */
/* Chain the datagrams that join a train behind its head: l keeps the
 * heads and the rest, compacted in place.
 * Ownership: takes the mbufs it drops or merges; the rest stay in l
 * (members chained behind their heads). */
struct lsk_stage_desc;
extern const struct lsk_stage_desc lsk_udp4_gro_stage;	/* core/stage.h */

void lsk_udp4_gro(struct lsk_worker *w, struct lsk_list *l);

/* The same for the IPv6 list (udp6_gro.c), before ip6_input: trains of
 * UDP over IPv6 under IPv4's rules, the run pass's taken in; its heads
 * and the rest stay in l.
 * Ownership: l's mbufs stay in l (members chained behind their heads). */
extern const struct lsk_stage_desc lsk_udp6_gro_stage;	/* core/stage.h */

void lsk_udp6_gro(struct lsk_worker *w, struct lsk_list *l);

#endif /* LSK_UDP_GRO_H */
