/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp6_gro: fraglist GRO for UDP over IPv6, IPv4's rules (udp4_gro.c) on
 * IPv6's header. Consecutive datagrams of one flow in the IPv6 list are
 * chained behind the first (the head) into a train, payloads never
 * copied, so ip6_input, ip6_route and ip6_forward (or ip6_local and
 * udp6_input) run once per train; trains live for the burst only.
 *
 * A datagram joins its flow's open train when it came in on the same
 * port with the same L2 header and the same IPv6 header but for the
 * payload length (version, traffic class, flow label, next header UDP:
 * no extension header, hop limit, addresses), the same ports, no
 * padding, a UDP checksum that is not zero and is valid, and a UDP
 * length equal to the train's (a shorter one joins and closes it); at
 * most `segs` members and 64 KiB, as IPv4's. Any other IPv6 packet
 * between the same addresses (an extension header, a fragment, a bad
 * checksum, another length) closes their trains first, so per-flow
 * order holds. At most `flows` trains are open; the oldest closes.
 *
 * `gro merge` copies payloads into the head and rebuilds IPv4's IDs:
 * IPv4's only, IPv6's datagrams go alone under it.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "core/list.h"
#include "core/stage.h"
#include "core/trace.h"
#include "core/worker.h"
#include "ip6/ip6_ext.h"
#include "udp/gro.h"
#include "udp/gro_run.h"
#include "udp/udp.h"

static void g6_trace(struct lsk_worker *w, const struct lsk_list *l,
		     const void *arg);

/* No drops: what cannot join goes on alone. */
LSK_STAGE_DECLARE(lsk_udp6_gro_stage,
	.name = "udp6_gro", .id = LSK_STAGE_UDP6_GRO,
	.next = LSK_NEXT("ip6_input"),
	.trace = g6_trace);

#define G6_IP_OFF RTE_ETHER_HDR_LEN
#define G6_UDP_OFF (G6_IP_OFF + (uint32_t)sizeof(struct rte_ipv6_hdr))
#define G6_HDRS (G6_UDP_OFF + (uint32_t)sizeof(struct rte_udp_hdr))
/* IPv6's and UDP's headers, as Linux counts a train's bytes (IPv4's
 * 28, gro_room_bytes, is 20 less) */
#define G6_L3_HDRS 48u
#define G6_ADDRS_OFF (G6_IP_OFF + 8)

/* An open train. */
struct g6_train {
	struct rte_mbuf *head;
	struct rte_mbuf *tail;	/* NULL: not found yet (gro_train_tail) */
	uint32_t hash;		/* of the addresses and ports */
	uint32_t count;		/* datagrams in it */
	uint32_t bytes;		/* 48 + the payloads */
	uint32_t list_idx;	/* where the head sits in the list */
	uint32_t age;		/* opened when: the oldest closes first */
	uint16_t ulen;		/* the train's UDP length */
	bool checked;		/* the head's UDP checksum verified */
};

struct g6_table {
	uint32_t n, next_age, max_open;
	struct g6_train t[LSK_BURST_MAX];
};

/* Could m be in a train at all (its shape, not its checksum)? What
 * it is not, in IPv4's shapes (gro_run.h; OPTIONS: an extension header
 * other than a fragment's), for the trace. */
static inline enum gro_shape
g6_shape(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv6_hdr *ip = (const void *)(p + G6_IP_OFF);
	const struct rte_udp_hdr *uh = (const void *)(p + G6_UDP_OFF);
	uint16_t plen;

	if (m->data_len < G6_HDRS || m->nb_segs != 1)
		return GRO_SHAPE_LENGTHS;
	if ((p[G6_IP_OFF] >> 4) != 6)
		return GRO_SHAPE_NOT_UDP;
	if (ip->proto != IPPROTO_UDP)
		return ip->proto == LSK_IP6_FRAGMENT ? GRO_SHAPE_FRAGMENT :
		       lsk_ip6_is_ext(ip->proto) ? GRO_SHAPE_OPTIONS :
		       GRO_SHAPE_NOT_UDP;
	plen = rte_be_to_cpu_16(ip->payload_len);
	return plen + G6_UDP_OFF == m->pkt_len &&
	       rte_be_to_cpu_16(uh->dgram_len) == plen &&
	       plen > sizeof(*uh) && uh->dgram_cksum != 0 ? GRO_SHAPE_OK :
							    GRO_SHAPE_LENGTHS;
}

static inline bool
g6_shape_ok(const struct rte_mbuf *m)
{
	return g6_shape(m) == GRO_SHAPE_OK;
}

uint16_t
lsk_udp6_gro_head_ulen(const struct rte_mbuf *m)
{
	if (!g6_shape_ok(m))
		return 0;
	return rte_be_to_cpu_16(rte_pktmbuf_mtod_offset(m,
		const struct rte_udp_hdr *, G6_UDP_OFF)->dgram_len);
}

/* The UDP checksum, from the PMD's flag when it set one; a software
 * check is recorded as GOOD so udp6_input does not redo it. */
static bool
g6_csum_ok(struct rte_mbuf *m)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv6_hdr *, G6_IP_OFF);
	uint64_t l4f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	if (l4f == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		return false;
	if (l4f == RTE_MBUF_F_RX_L4_CKSUM_GOOD ||
	    l4f == RTE_MBUF_F_RX_L4_CKSUM_NONE)
		return true;
	if (lsk_ip6_l4_sum(ip, IPPROTO_UDP, m, G6_UDP_OFF,
			   rte_be_to_cpu_16(ip->payload_len)) != 0xffff)
		return false;
	m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_RX_L4_CKSUM_MASK) |
		      RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	return true;
}

/* The addresses (and, for train material, the ports) hashed. */
static inline uint32_t
g6_hash(const uint8_t *p, bool ports)
{
	uint64_t a[4];
	uint32_t h = 0, pw, k;

	/* copied out: the frame's addresses are not 8-byte aligned */
	memcpy(a, p + G6_ADDRS_OFF, sizeof(a));
	for (k = 0; k < 4; k++)
		h = rte_hash_crc_8byte(a[k], h);
	if (!ports)
		return h;
	memcpy(&pw, p + G6_UDP_OFF, 4);
	return rte_hash_crc_4byte(pw, h);
}

/*
 * Is m the train's next member: the same port, the head's bytes up to
 * the UDP length but for the payload length, and no longer than it?
 */
static inline bool
g6_matches(const struct g6_train *t, const struct rte_mbuf *m,
	   const uint8_t *p, uint32_t max_segs)
{
	const uint8_t *h = rte_pktmbuf_mtod(t->head, const uint8_t *);
	const struct rte_udp_hdr *uh = (const void *)(p + G6_UDP_OFF);
	uint16_t ulen = rte_be_to_cpu_16(uh->dgram_len);

	return m->port == t->head->port &&
	       memcmp(p, h, G6_IP_OFF + 4) == 0 &&
	       memcmp(p + G6_IP_OFF + 6, h + G6_IP_OFF + 6,
		      G6_UDP_OFF + 4 - (G6_IP_OFF + 6)) == 0 &&
	       ulen <= t->ulen && t->count < max_segs &&
	       (int32_t)ulen - 8 <= gro_room_bytes(t->bytes) - 20;
}

/* Does the open train t carry the flow of frame p (addresses, ports)? */
static inline bool
g6_same_flow(const struct g6_train *t, const uint8_t *p, bool ports)
{
	const uint8_t *h = rte_pktmbuf_mtod(t->head, const uint8_t *);

	return memcmp(h + G6_ADDRS_OFF, p + G6_ADDRS_OFF, 32) == 0 &&
	       (!ports || memcmp(h + G6_UDP_OFF, p + G6_UDP_OFF, 4) == 0);
}

static inline void
g6_close(struct g6_table *tb, uint32_t k)
{
	tb->t[k] = tb->t[--tb->n];
}

/* Close every open train between the addresses of p (all of them when
 * m is too short to say). */
static void
g6_close_addrs(struct g6_table *tb, const struct rte_mbuf *m, const uint8_t *p)
{
	uint32_t k = 0;

	if (m->data_len < G6_UDP_OFF) {
		tb->n = 0;
		return;
	}
	while (k < tb->n) {
		if (g6_same_flow(&tb->t[k], p, false))
			g6_close(tb, k);
		else
			k++;
	}
}

static void
g6_open(struct g6_table *tb, struct rte_mbuf *m, uint32_t hash,
	uint32_t list_idx)
{
	const struct rte_udp_hdr *uh = rte_pktmbuf_mtod_offset(m,
		const struct rte_udp_hdr *, G6_UDP_OFF);
	struct g6_train *t;

	if (tb->n >= tb->max_open) {
		uint32_t k, old = 0;

		for (k = 1; k < tb->n; k++)
			if (tb->t[k].age < tb->t[old].age)
				old = k;
		g6_close(tb, old);
	}
	t = &tb->t[tb->n++];
	t->head = t->tail = m;
	t->hash = hash;
	t->count = 1;
	t->ulen = rte_be_to_cpu_16(uh->dgram_len);
	t->bytes = G6_L3_HDRS + t->ulen - 8u;
	t->list_idx = list_idx;
	t->age = tb->next_age++;
	t->checked = false;
}

/* The open train of the flow whose hash is hash and bytes p, or -1. */
static inline int
g6_find(const struct g6_table *tb, uint32_t hash, const uint8_t *p)
{
	uint32_t k;

	for (k = 0; k < tb->n; k++)
		if (tb->t[k].hash == hash && g6_same_flow(&tb->t[k], p, true))
			return (int)k;
	return -1;
}

/*
 * One datagram through the table: opens, joins or closes its flow's
 * train. Returns true when it stays in the list (at position kept).
 */
static bool
g6_one(struct lsk_worker *w, struct lsk_list *l, struct g6_table *tb,
       struct rte_mbuf *m, uint32_t kept, uint32_t max_segs)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct g6_train *t;
	uint32_t hash;
	uint16_t ulen;
	int k;

	if (!g6_shape_ok(m)) {
		/* not train material; its addresses' trains end here */
		g6_close_addrs(tb, m, p);
		return true;
	}
	hash = g6_hash(p, true);
	k = g6_find(tb, hash, p);
	if (k < 0) {
		g6_open(tb, m, hash, kept);
		return true;
	}
	t = &tb->t[k];
	if (!g6_matches(t, m, p, max_segs)) {
		g6_close(tb, (uint32_t)k);
		g6_open(tb, m, hash, kept);
		return true;
	}
	/* both checksums are needed only now that a train forms */
	if (!t->checked) {
		if (!g6_csum_ok(t->head)) {
			g6_close(tb, (uint32_t)k);
			if (g6_csum_ok(m)) {
				g6_open(tb, m, hash, kept);
				tb->t[tb->n - 1].checked = true;
			}
			return true;
		}
		t->checked = true;
	}
	if (!g6_csum_ok(m)) {
		g6_close(tb, (uint32_t)k);
		return true;
	}
	*lsk_train_next(gro_train_tail(&t->tail, t->head)) = m;
	*lsk_train_next(m) = NULL;
	t->tail = m;
	if (t->count == 1)
		w->stats.gro.Trains++;
	w->stats.gro.Merged++;
	t->count++;
	ulen = rte_be_to_cpu_16(((const struct rte_udp_hdr *)
				 (p + G6_UDP_OFF))->dgram_len);
	t->bytes += ulen - 8u;
	l->meta[t->list_idx] += 1u << LSK_META_COUNT_SHIFT;
	if (ulen < t->ulen)	/* a shorter datagram ends the train */
		g6_close(tb, (uint32_t)k);
	return false;
}

/*
 * A train the run pass formed before eth_input (udp/udp4_gro_rx.c), as
 * udp4_gro takes it: with no open train of its flow it opens one as it
 * is (its checksums vouched for by the PMD, the head's flags all share);
 * otherwise its datagrams go through one by one, as if no run had been
 * formed. Counted here. Returns the new kept.
 */
static uint32_t
g6_train_in(struct lsk_worker *w, struct lsk_list *l, struct g6_table *tb,
	    struct rte_mbuf *m, uint32_t meta, uint32_t kept,
	    uint32_t max_segs)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rte_mbuf *d, *next;
	struct g6_train *t;
	uint32_t hash;

	if (unlikely(!g6_shape_ok(m))) {
		/* not the run pass's (none else makes trains): alone, and
		 * its addresses' trains closed */
		g6_close_addrs(tb, m, p);
		return gro_keep(l, kept, m, meta);
	}
	hash = g6_hash(p, true);
	if (g6_find(tb, hash, p) < 0) {
		g6_open(tb, m, hash, kept);
		t = &tb->t[tb->n - 1];
		t->checked = true;
		return gro_train_take(w, l, kept, m, meta, &t->tail, &t->count,
				      &t->bytes, t->ulen);
	}
	meta &= ~LSK_META_COUNT_MASK;
	for (d = m; d != NULL; d = next) {
		next = *lsk_train_next(d);
		*lsk_train_next(d) = NULL;
		if (g6_one(w, l, tb, d, kept, max_segs))
			kept = gro_keep(l, kept, d, meta);
	}
	return kept;
}

void
lsk_udp6_gro(struct lsk_worker *w, struct lsk_list *l)
{
	struct g6_table tb;
	uint32_t i, kept = 0;

	/* one entry: only the run pass's train has its counts to make */
	if (w->set.gro_merge || l->n == 0 ||
	    (l->n == 1 && !(l->meta[0] & LSK_META_COUNT_MASK)))
		return;
	tb.n = 0;
	tb.next_age = 0;
	tb.max_open = RTE_MIN((uint32_t)w->set.gro_flows,
			      (uint32_t)LSK_BURST_MAX);
	for (i = 0; i < l->n; i++) {
		struct rte_mbuf *m = l->pkts[i];
		uint32_t meta = l->meta[i];

		if (unlikely(meta & LSK_META_COUNT_MASK)) {
			kept = g6_train_in(w, l, &tb, m, meta, kept,
					   w->set.gro_segs);
			continue;
		}
		if (!g6_one(w, l, &tb, m, kept, w->set.gro_segs))
			continue;
		l->pkts[kept] = m;
		l->meta[kept] = meta;
		kept++;
	}
	l->n = kept;
}

/* Why a datagram stayed alone, as udp4_gro's trace says it
 * (udp/udp4_gro_trace.c): its shape, or `gro merge` (IPv4's only). */
static const char *
g6_alone_why(const struct lsk_worker *w, const struct rte_mbuf *m)
{
	static const char *const why[] = {
		[GRO_SHAPE_OK] = "no datagram of its flow beside it",
		[GRO_SHAPE_NOT_UDP] = "not UDP",
		[GRO_SHAPE_FRAGMENT] = "a fragment",
		[GRO_SHAPE_OPTIONS] = "an extension header",
		[GRO_SHAPE_LENGTHS] = "not one whole datagram with a checksum",
	};

	if (w->set.gro_merge)
		return "gro merge is IPv4's only";
	return why[g6_shape(m)];
}

/* udp6_gro's record, after the stage, as udp4_gro's: each datagram's
 * train and place (every member its own record), or why it stayed
 * alone. */
static void
g6_trace(struct lsk_worker *w, const struct lsk_list *l, const void *arg)
{
	uint32_t i;

	RTE_SET_USED(arg);
	for (i = 0; i < l->n; i++) {
		uint32_t meta = l->meta[i], k = lsk_meta_count(meta), j = 0;
		const struct rte_mbuf *d;

		if (k == 1) {
			const struct rte_mbuf *m = l->pkts[i];

			if (lsk_traced(m))
				lsk_trace_rec(w, m, &lsk_udp6_gro_stage, false,
					      "alone: %s", g6_alone_why(w, m));
			continue;
		}
		for (d = l->pkts[i]; d != NULL;
		     d = lsk_trace_entry_next(d, meta), j++)
			if (lsk_traced(d))
				lsk_trace_rec(w, d, &lsk_udp6_gro_stage, false,
					      "train of %u, position %u", k,
					      j + 1);
	}
}
