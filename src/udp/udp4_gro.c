/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp4_gro: fraglist GRO. Consecutive datagrams of one UDP flow in a burst
 * are chained behind the first (the head) into a train, payloads never
 * copied, so the stages after run once per train. Trains live only for
 * the burst they were formed in: nothing waits.
 *
 * A datagram joins its flow's open train when it matches (ingress port,
 * L2 header, addresses, ports, TOS, TTL, DF), is a plain IHL-5
 * non-fragment with no padding, has valid IP and non-zero valid UDP
 * checksums, and its UDP length equals the train's (a shorter one joins
 * and closes the train); at most `segs` members and 64 KiB. One that
 * cannot join closes its flow's train first, so per-flow order holds.
 * At most `flows` trains are open; the oldest closes to make room.
 *
 * Three ways in, cheapest first: lsk_gro_rx_runs (udp4_gro_rx.c) chains
 * back-to-back runs in the raw burst before eth_input (checksums the PMD
 * vouched for); a list in which no flow came twice returns at once;
 * otherwise the flow table below, with a tight loop for datagrams that
 * continue the train just grown and a direct join for a datagram equal
 * to its open train's head (flows interleaved). All make the same
 * trains: the shortcuts only take what the flow table would have joined.
 */
#include <assert.h>
#include <stddef.h>

#include <rte_byteorder.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_udp.h>
#include <rte_vect.h>

#include "core/stage.h"
#include "core/list.h"
#include "core/cksum.h"
#include "core/worker.h"
#include "udp/gro.h"
#include "udp/gro_cmp.h"
#include "udp/udp.h"

/* No drops: what cannot join goes on alone. */
LSK_STAGE_DECLARE(lsk_udp4_gro_stage,
	.name = "udp4_gro", .id = LSK_STAGE_UDP4_GRO,
	.next = LSK_NEXT("ip4_input"),
	.trace = lsk_gro_trace);	/* udp4_gro_trace.c */

/*
 * Trains and Merged are counted here only: n datagrams joined a train
 * that held count (a train is counted once it has a member).
 */
static inline void
gro_count_join(struct lsk_worker *w, uint32_t count, uint32_t n)
{
	if (count == 1)
		w->stats.gro.Trains++;
	w->stats.gro.Merged += n;
}

/* A flow key copied out of a frame in segments. */
struct gro_key {
	struct rte_ipv4_hdr ip;
	uint32_t ports;
};

/*
 * The key of a frame whose first segment ends before its ports: copied
 * out (it is rare), so that such a datagram still ends its flow's train.
 * v is pointed at the copy.
 */
static bool
gro_key_copy(const struct rte_mbuf *m, struct gro_view *v,
	     struct gro_key *k)
{
	const void *p;
	uint32_t hlen;

	p = rte_pktmbuf_read(m, RTE_ETHER_HDR_LEN, sizeof(k->ip), &k->ip);
	if (p == NULL)
		return false;
	if (p != &k->ip)
		memcpy(&k->ip, p, sizeof(k->ip));
	hlen = (k->ip.version_ihl & 0xf) * 4u;
	p = rte_pktmbuf_read(m, RTE_ETHER_HDR_LEN + hlen, sizeof(k->ports),
			     &k->ports);
	if (p == NULL)
		return false;
	if (p != &k->ports)
		memcpy(&k->ports, p, sizeof(k->ports));
	v->ip = &k->ip;
	v->uh = (struct rte_udp_hdr *)&k->ports;
	return true;
}

/* Is it a UDP header that names its flow (a first fragment does)? */
static inline bool
gro_names_flow(const struct rte_ipv4_hdr *ip)
{
	return (ip->version_ihl >> 4) == 4 && (ip->version_ihl & 0xf) >= 5 &&
	       ip->next_proto_id == IPPROTO_UDP &&
	       !(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK));
}

/*
 * Does the packet name a UDP flow, even if it cannot join (IP options, a
 * first fragment, segments)? Then v->ip and v->uh are pointed at its
 * addresses and ports (copied into k when its first segment ends before
 * them).
 */
static inline bool
gro_has_flow(const struct rte_mbuf *m, struct gro_view *v, struct gro_key *k)
{
	uint32_t hlen;

	if (m->data_len >= RTE_ETHER_HDR_LEN + sizeof(*v->ip)) {
		hlen = (v->ip->version_ihl & 0xf) * 4u;
		if (RTE_ETHER_HDR_LEN + hlen + 4 <= m->data_len) {
			v->uh = (struct rte_udp_hdr *)((uint8_t *)v->ip + hlen);
			return gro_names_flow(v->ip);
		}
	}
	return m->nb_segs != 1 && gro_key_copy(m, v, k) &&
	       gro_names_flow(v->ip);
}

/* Checksums, from the PMD's flags when it set them; software ones are
 * recorded as flags so ip4_input and udp4_input do not redo them. */
static bool
gro_csums_ok(struct rte_mbuf *m, const struct gro_view *v)
{
	uint64_t ipf = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
	uint64_t l4f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	if (ipf == RTE_MBUF_F_RX_IP_CKSUM_BAD || l4f == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		return false;
	/* NONE: the PMD verified what the field does not show */
	if (ipf != RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
	    ipf != RTE_MBUF_F_RX_IP_CKSUM_NONE) {
		if (lsk_ip4_hdr_sum20(v->ip) != 0xffff)
			return false;
		m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_RX_IP_CKSUM_MASK) |
			      RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	}
	if (l4f != RTE_MBUF_F_RX_L4_CKSUM_GOOD &&
	    l4f != RTE_MBUF_F_RX_L4_CKSUM_NONE) {
		if (!lsk_udp4_csum_valid(v->ip, v->uh,
					 rte_be_to_cpu_16(v->uh->dgram_len)))
			return false;
		m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_RX_L4_CKSUM_MASK) |
			      RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	}
	return true;
}

/* The flow table's hash: any packet naming the flow finds its slot. */
static inline uint32_t
gro_hash(const struct rte_mbuf *m, const struct gro_view *v)
{
	uint64_t addrs;

	memcpy(&addrs, &v->ip->src_addr, 8);
	return rte_hash_crc_8byte(addrs, lsk_udp_ports(v->uh) ^ m->port);
}

static inline bool
gro_same_flow(const struct lsk_gro_slot *s, const struct rte_mbuf *m,
	      const struct gro_view *v)
{
	return s->src == v->ip->src_addr && s->dst == v->ip->dst_addr &&
	       s->ports == lsk_udp_ports(v->uh) && s->in_port == m->port;
}

/* Find the flow's slot from the flow's hash, or claim an empty one. */
static struct lsk_gro_slot *
gro_slot_hashed(struct lsk_gro_table *t, const struct rte_mbuf *m,
		const struct gro_view *v, uint32_t hash)
{
	uint32_t i = hash & t->slot_mask;

	for (;; i = (i + 1) & t->slot_mask) {
		struct lsk_gro_slot *s = &t->slots[i];

		if (!s->used) {
			s->used = true;
			s->head = NULL;
			s->src = v->ip->src_addr;
			s->dst = v->ip->dst_addr;
			s->ports = lsk_udp_ports(v->uh);
			s->in_port = m->port;
			t->touched[t->n_touched++] = (uint16_t)i;
			return s;
		}
		if (gro_same_flow(s, m, v))
			return s;
	}
}

static inline struct lsk_gro_slot *
gro_slot(struct lsk_gro_table *t, const struct rte_mbuf *m,
	 const struct gro_view *v)
{
	return gro_slot_hashed(t, m, v, gro_hash(m, v));
}

/* Can m be the next member of the open train in s? */
static inline bool
gro_matches(const struct lsk_gro_slot *s, const struct gro_view *v,
	    uint32_t max_segs)
{
	const struct rte_ether_hdr *heh =
		rte_pktmbuf_mtod(s->head, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *hip = (const struct rte_ipv4_hdr *)(heh + 1);
	uint16_t ulen = rte_be_to_cpu_16(v->uh->dgram_len);

	return memcmp(heh, v->eh, RTE_ETHER_HDR_LEN) == 0 &&
	       hip->type_of_service == v->ip->type_of_service &&
	       hip->time_to_live == v->ip->time_to_live &&
	       hip->fragment_offset == v->ip->fragment_offset &&
	       ulen <= s->ulen && s->count < max_segs &&
	       (int32_t)ulen - 8 <= gro_room_bytes(s->bytes);
}

static void
gro_close(struct lsk_gro_table *t, struct lsk_gro_slot *s)
{
	if (s->head != NULL) {
		s->head = NULL;
		t->n_open--;
	}
}

/* Make room: close the oldest open train. */
static void
gro_close_oldest(struct lsk_gro_table *t)
{
	while (t->age_first < t->n_age) {
		struct lsk_gro_age *a = &t->age[t->age_first++];
		struct lsk_gro_slot *s = &t->slots[a->slot];

		if (s->head != NULL && s->train_id == a->train_id) {
			gro_close(t, s);
			return;
		}
	}
}

static void
gro_open(struct lsk_worker *w, struct lsk_gro_slot *s, struct rte_mbuf *m,
	 const struct gro_view *v, uint32_t list_idx, bool checked)
{
	struct lsk_gro_table *t = &w->udpw->gro;

	if (t->n_open >= w->set.gro_flows)
		gro_close_oldest(t);
	/* the head's train link is written only when a member joins */
	s->head = s->tail = m;
	s->count = 1;
	t->n_open++;
	s->ulen = rte_be_to_cpu_16(v->uh->dgram_len);
	s->bytes = 28u + s->ulen - 8u;
	s->list_idx = list_idx;
	s->head_checked = checked;
	s->train_id = ++t->next_train_id;
	if (unlikely(t->track_age)) {
		t->age[t->n_age].slot = (uint16_t)(s - t->slots);
		t->age[t->n_age].train_id = s->train_id;
		t->n_age++;
	}
}

/*
 * n datagrams of payload bytes each joined the train in s, the last of
 * them tail (chained behind the one before already): the one place a
 * join is written down, in the slot, the head's meta word and the
 * counters.
 */
static inline void
gro_joined(struct lsk_worker *w, struct lsk_list *l, struct lsk_gro_slot *s,
	   struct rte_mbuf *tail, uint32_t n, uint32_t payload)
{
	gro_count_join(w, s->count, n);
	s->tail = tail;
	s->count += n;
	s->bytes += n * payload;
	l->meta[s->list_idx] += n << LSK_META_COUNT_SHIFT;
}

/* The train's tail (gro_run.h, gro_train_tail). */
static inline struct rte_mbuf *
gro_tail(struct lsk_gro_slot *s)
{
	return gro_train_tail(&s->tail, s->head);
}

/* Chain m behind the train's tail. */
static inline void
gro_chain(struct lsk_gro_slot *s, struct rte_mbuf *m)
{
	*lsk_train_next(gro_tail(s)) = m;
	*lsk_train_next(m) = NULL;
}

static void
gro_join(struct lsk_worker *w, struct lsk_list *l, struct lsk_gro_slot *s,
	 struct rte_mbuf *m, const struct gro_view *v)
{
	uint16_t ulen = rte_be_to_cpu_16(v->uh->dgram_len);
	struct rte_mbuf *tail = gro_tail(s);	/* a merged train's: its head */

	if (w->set.gro_merge) {
		l->meta[s->list_idx] |= LSK_META_MERGED;
	} else {
		gro_chain(s, m);
		tail = m;
	}
	gro_joined(w, l, s, tail, 1, ulen - 8u);
	if (ulen < s->ulen)	/* a shorter datagram ends the train */
		gro_close(&w->udpw->gro, s);
}

/* Could two entries of the list be one flow? */
static bool
gro_flow_repeats(struct lsk_gro_table *t, const struct lsk_list *l)
{
	if (t->noted != l->n)	/* eth_input did not note them all */
		lsk_gro_note_from(t, l, 0, lsk_gro_note_start(t));
	return t->repeat;
}

/*
 * The commonest case: the datagrams from l->pkts[i] on continue the train
 * in s back to back. They join in a tight loop with the head's bytes and
 * the train's state in registers. Returns the index of the first that
 * does not join (the general path takes it).
 */
static uint32_t
gro_run_train(struct lsk_worker *w, struct lsk_list *l,
	      struct lsk_gro_slot *s, uint32_t i, uint32_t max_segs)
{
	const int link = lsk_train_next_offset;
	const uint32_t start = i;
	struct rte_mbuf *tail = gro_tail(s);
	uint32_t end, joined;
	struct gro_run r;

	/* the head's flags are the template: they must say verified (a
	 * software check records them so) */
	if (!gro_run_head_ok(s->head))
		return i;
	gro_run_init(&r, s->head, s->ulen);
	end = RTE_MIN(l->n, i + gro_room(&r, s->count, s->bytes, max_segs));
	for (; i < end; i++) {
		struct rte_mbuf *m = l->pkts[i];

		/* a train formed before eth_input takes the general path */
		if ((l->meta[i] & LSK_META_COUNT_MASK) != 0 ||
		    !gro_continues(&r, m))
			break;
		*RTE_MBUF_DYNFIELD(tail, link, struct rte_mbuf **) = m;
		tail = m;
	}
	joined = i - start;
	if (joined != 0) {
		*lsk_train_next(tail) = NULL;
		gro_joined(w, l, s, tail, joined, r.seg_bytes);
	}
	return i;
}

static void
gro_reset(struct lsk_gro_table *t)
{
	uint32_t i;

	for (i = 0; i < t->n_touched; i++)
		t->slots[t->touched[i]].used = false;
	t->n_touched = 0;
	t->n_open = 0;
	t->n_age = 0;
	t->age_first = 0;
}

/*
 * One datagram (seen through v) through the flow table: opens, joins or
 * closes its flow's train. hash: its gro_hash if the caller has it, else
 * NULL. Returns true when it stays in the list (at position kept).
 */
static bool
gro_one(struct lsk_worker *w, struct lsk_list *l, struct lsk_gro_slot **last,
	struct rte_mbuf *m, struct gro_view v, uint32_t kept,
	uint32_t max_segs, const uint32_t *hash)
{
	struct lsk_gro_table *t = &w->udpw->gro;
	struct lsk_gro_slot *s;

	if (!gro_shape_ok(m, &v)) {
		struct gro_key k;

		/* not train material; its flow's train ends here */
		if (gro_has_flow(m, &v, &k))
			gro_close(t, gro_slot(t, m, &v));
		return true;
	}
	/* datagrams of a flow mostly come back to back */
	if (*last == NULL || !gro_same_flow(*last, m, &v))
		*last = hash != NULL ? gro_slot_hashed(t, m, &v, *hash)
				     : gro_slot(t, m, &v);
	s = *last;
	/* a head the PMD vouched for is checked already (so the next
	 * datagram of its flow can take gro_join_fast); one it did not is
	 * checked in software only once a second datagram would join */
	if (s->head == NULL) {
		gro_open(w, s, m, &v, kept, gro_flags_good(m));
		return true;
	}
	if (!gro_matches(s, &v, max_segs)) {
		gro_close(t, s);
		gro_open(w, s, m, &v, kept, gro_flags_good(m));
		return true;
	}
	/* both checksums are needed only now that a train forms */
	if (!s->head_checked) {
		struct gro_view hv;

		gro_view(s->head, &hv);
		if (!gro_csums_ok(s->head, &hv)) {
			gro_close(t, s);
			if (gro_csums_ok(m, &v))
				gro_open(w, s, m, &v, kept, true);
			return true;
		}
		s->head_checked = true;
	}
	if (!gro_csums_ok(m, &v)) {
		gro_close(t, s);
		return true;
	}
	if (w->set.gro_merge && !lsk_gro_merge(s, &v)) {
		gro_close(t, s);
		gro_open(w, s, m, &v, kept, true);
		return true;
	}
	gro_join(w, l, s, m, &v);
	if (w->set.gro_merge)
		rte_pktmbuf_free(m);	/* its payload is the head's now */
	return false;
}

/*
 * Interleaved flows: a datagram whose flow has an open train in its home
 * slot and that equals the train's head but for IP ID and checksums
 * (gro_continues) joins at once, without gro_one's field by field checks.
 * The head's checksums were verified and its flags say so, so the equal
 * flags of the datagram do too. Anything else (a flow in another slot, a
 * shorter datagram, no room) goes to gro_one, which decides alike.
 */
static inline bool
gro_join_fast(struct lsk_worker *w, struct lsk_list *l,
	      struct lsk_gro_slot **last, struct rte_mbuf *m,
	      uint32_t hash, uint32_t max_segs)
{
	struct lsk_gro_table *t = &w->udpw->gro;
	struct lsk_gro_slot *s;
	struct gro_run r;

	/* a slot not used in this burst holds a stale head */
	s = &t->slots[hash & t->slot_mask];
	if (!s->used || s->head == NULL || !s->head_checked ||
	    !gro_run_head_ok(s->head) || s->count >= max_segs ||
	    (int32_t)s->ulen - 8 > gro_room_bytes(s->bytes))
		return false;
	gro_run_load(&r, s->head);
	if (!gro_continues(&r, m))
		return false;
	gro_chain(s, m);
	gro_joined(w, l, s, m, 1, s->ulen - 8u);
	*last = s;
	return true;
}

/*
 * A train lsk_gro_rx_runs formed before eth_input. With no open train of
 * its flow it opens one as it is; otherwise its datagrams go through one
 * by one, joining the open train as far as the rules let them, as if no
 * run had been formed. Its counts are made here, not in the run pass:
 * a train the flow table takes apart was never counted.
 * Returns the new kept.
 */
static uint32_t
gro_train_in(struct lsk_worker *w, struct lsk_list *l,
	     struct lsk_gro_slot **last, struct rte_mbuf *m, uint32_t meta,
	     uint32_t kept, uint32_t max_segs)
{
	struct lsk_gro_slot *s;
	struct rte_mbuf *d, *next;
	struct gro_view v;

	gro_view(m, &v);
	s = gro_slot(&w->udpw->gro, m, &v);
	*last = s;
	if (s->head == NULL) {
		gro_open(w, s, m, &v, kept, true);
		return gro_train_take(w, l, kept, m, meta, &s->tail, &s->count,
				      &s->bytes, s->ulen);
	}
	meta &= ~LSK_META_COUNT_MASK;
	for (d = m; d != NULL; d = next) {
		next = *lsk_train_next(d);
		gro_view(d, &v);
		if (gro_one(w, l, last, d, v, kept, max_segs, NULL))
			kept = gro_keep(l, kept, d, meta);
	}
	return kept;
}

void
lsk_udp4_gro(struct lsk_worker *w, struct lsk_list *l)
{
	struct lsk_gro_table *t = &w->udpw->gro;
	uint32_t max_segs = w->set.gro_segs;
	const bool merge = w->set.gro_merge;
	struct lsk_gro_slot *last = NULL;
	uint32_t i, kept = 0;
	bool repeats = gro_flow_repeats(t, l);

	t->noted = 0;	/* the list changes from here on */
	if (!repeats)
		return;
	/* the table in use grows with the burst (twice its flows at most),
	 * so a 32-packet burst touches 64 slots, not all of them; and only
	 * a burst with more datagrams than open trains are allowed can need
	 * the oldest one closed */
	t->slot_mask = rte_align32pow2(2 * RTE_MAX(l->n, 8u)) - 1;
	t->track_age = l->n > w->set.gro_flows;
	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		uint32_t meta = l->meta[i], h;
		/* a frame too short for a key is not read here: gro_one
		 * takes it out of GRO before reading it */
		const bool keyed = m->data_len >= GRO_HDRS;
		const uint32_t *hash;
		struct gro_view v;

		/* the flow of the datagram before, whose train is open:
		 * try the run */
		gro_view(m, &v);
		if (keyed && last != NULL && last->head != NULL &&
		    last->head_checked && !merge &&
		    gro_same_flow(last, m, &v)) {
			uint32_t next = gro_run_train(w, l, last, i, max_segs);

			if (next == l->n)
				break;
			if (next != i) {
				i = next - 1;	/* the loop's i++ takes it */
				continue;
			}
		}
		if (unlikely(meta & LSK_META_COUNT_MASK)) {
			kept = gro_train_in(w, l, &last, m, meta, kept,
					    max_segs);
			continue;
		}
		/* the flow's hash once, for the direct join and the table */
		hash = NULL;
		if (keyed) {
			h = gro_hash(m, &v);
			hash = &h;
			if (!merge &&
			    gro_join_fast(w, l, &last, m, h, max_segs))
				continue;
		}
		if (gro_one(w, l, &last, m, v, kept, max_segs, hash)) {
			l->pkts[kept] = m;
			l->meta[kept] = meta;
			kept++;
		}
	}
	l->n = kept;
	gro_reset(t);
}
