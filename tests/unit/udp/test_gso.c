/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gso: unchaining a train on its way out. With GRO on, what leaves is
 * byte for byte what per-packet forwarding sends (docs/configuration.md "Trains":
 * every member gets the decremented TTL, the rewritten MACs and a correct
 * IP checksum), through a resolved next hop, one ARP resolves, and
 * fragmentation. A stage that rewrites the head's addresses or ports (a
 * NAT) has that carried to every member with correct IP and UDP checksums
 * (Linux cases E1-E4, E8; a zero UDP result becomes 0xFFFF).
 */
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"

#define IP(b) ((b) + UNIT_ETH_LEN)
#define UDP(b) ((b) + UNIT_ETH_LEN + 20)

/* The one's complement sum of the UDP datagram with its pseudo-header,
 * checksum field as it is. */
static uint16_t
udp_sum(const uint8_t *frame)
{
	uint16_t ulen = get16(UDP(frame) + 4);

	return fold(sum16(UDP(frame), ulen,
			  sum16(IP(frame) + 12, 8, 0) + IPPROTO_UDP + ulen));
}

/* Recompute the UDP checksum in full (a zero result is sent 0xFFFF). */
static void
udp_fix(uint8_t *frame)
{
	uint16_t ck;

	put16(UDP(frame) + 6, 0);
	ck = (uint16_t)~udp_sum(frame);
	put16(UDP(frame) + 6, ck == 0 ? 0xffff : ck);
}

static int
gro_setup(void **state)
{
	if (unit_setup_list(state) < 0)
		return -1;
	unit_cmd(*state, "gro fraglist flows 64 segs 64");
	return 0;
}

/* ------------------------------------------ GRO on and off, compared */

#define MAX_FRAMES 256

struct frames {
	unsigned int n;
	size_t len[MAX_FRAMES];
	uint16_t port[MAX_FRAMES];
	uint8_t b[MAX_FRAMES][UNIT_FRAME_MAX];
};

static void
add(struct frames *fr, const struct unit_pkt *p)
{
	assert_true(fr->n < MAX_FRAMES);
	fr->len[fr->n] = unit_pkt_build(p, fr->b[fr->n], sizeof(fr->b[0]));
	fr->port[fr->n] = p->port;
	fr->n++;
}

static void
feed(struct unit_fixture *f, const struct frames *fr)
{
	struct rte_mbuf *pkts[MAX_FRAMES];
	unsigned int i;

	for (i = 0; i < fr->n; i++)
		pkts[i] = unit_mbuf_from_bytes(fr->b[i], fr->len[i],
					       fr->port[i]);
	unit_input(f, pkts, (uint16_t)fr->n);
}

/* Frames x and y hold the same bytes, in whatever segments. */
static void
assert_same_bytes(const struct rte_mbuf *x, const struct rte_mbuf *y)
{
	static uint8_t bx[UNIT_FRAME_MAX], by[UNIT_FRAME_MAX];
	uint32_t len = rte_pktmbuf_pkt_len(x);

	assert_int_equal(len, rte_pktmbuf_pkt_len(y));
	assert_true(len <= UNIT_FRAME_MAX);
	assert_memory_equal(rte_pktmbuf_read(x, 0, len, bx),
			    rte_pktmbuf_read(y, 0, len, by), len);
}

/* Both fixtures sent the same frames on each port, in the same order. */
static void
assert_same_tx(const struct unit_fixture *a, const struct unit_fixture *b)
{
	unsigned int port, i;

	for (port = 0; port < 2; port++) {
		assert_int_equal(a->tx.n[port], b->tx.n[port]);
		for (i = 0; i < a->tx.n[port]; i++)
			assert_same_bytes(a->tx.pkts[port][i],
					  b->tx.pkts[port][i]);
	}
}

static void
free_both(struct unit_fixture *a, struct unit_fixture *b)
{
	unit_tx_free(a);
	unit_tx_free(b);
}

/*
 * E1-E4: flows one after the other, to both ports, of several lengths,
 * TOS and TTLs (a TTL of 195 whose checksum wraps, C15), IDs that do not
 * count up: the same frames in the same order with GRO off and on.
 */
static void
test_gro_on_off_identical(void **state)
{
	static struct frames fr;
	struct unit_fixture *on = *state, *off;
	struct unit_pkt p;
	unsigned int i;

	off = unit_fixture_create(LSK_MODE_LIST);
	assert_non_null(off);
	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 10; i++) {		/* flow G, E1's shape */
		unit_pkt_init(&p, UNIT_B_IP);
		p.id = (uint16_t)(1 + i);
		p.payload_len = i == 9 ? 600 : 1000;
		add(&fr, &p);
	}
	for (i = 0; i < 20; i++) {		/* via the gateway */
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = 7;			/* fixed */
		p.tos = 0xb8;
		p.ttl = 195;
		p.payload_len = 601 - 28;
		add(&fr, &p);
	}
	for (i = 0; i < 5; i++) {		/* from P1 to A */
		unit_pkt_init(&p, UNIT_A_IP);
		p.port = UNIT_P1;
		p.dst_mac = unit_p1_mac;
		p.src_mac = unit_b_mac;
		p.src = UNIT_B_IP;
		p.id = (uint16_t)(0xfffe + i);
		p.ttl = 2;
		p.df = false;
		p.payload_len = 18;
		add(&fr, &p);
	}
	for (i = 0; i < 64; i++) {		/* a full train of small ones */
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.sport = 1234;
		p.id = (uint16_t)(i * 3);
		p.payload_len = 1;
		add(&fr, &p);
	}
	feed(off, &fr);
	feed(on, &fr);
	assert_same_tx(off, on);
	unit_assert_same_counters(off, on, true);
	assert_int_equal(on->tx.n[UNIT_P1], 10 + 20 + 64);
	assert_int_equal(on->tx.n[UNIT_P0], 5);
	assert_int_equal(unit_stats(on).gso.Segments, 10 + 20 + 5 + 64);
	assert_int_equal(unit_stats(on).gro.Trains, 4);
	assert_int_equal(unit_stats(off).gso.Segments, 0);
	free_both(off, on);
	unit_fixture_destroy(off);
}

/* Datagrams on port with ports sport -> dport, in order. */
static unsigned int
flow_frames(const struct unit_fixture *f, uint16_t port, uint16_t sport,
	    struct rte_mbuf **out)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		struct rte_mbuf *m = f->tx.pkts[port][i];
		const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

		if (unit_frame_is_icmp(m) || unit_frame_is_arp(m))
			continue;
		if (get16(UDP(b)) == sport)
			out[n++] = m;
	}
	return n;
}

/*
 * Interleaved flows: trains leave where their heads were, so flows may
 * overtake each other, but each flow's datagrams leave in arrival order,
 * byte for byte as without GRO (docs/configuration.md: per-flow order holds).
 */
static void
test_interleaved_flows_keep_flow_order(void **state)
{
	static struct frames fr;
	struct unit_fixture *on = *state, *off;
	struct rte_mbuf *x[MAX_FRAMES], *y[MAX_FRAMES];
	struct unit_pkt p;
	unsigned int i, k, nx, ny;

	off = unit_fixture_create(LSK_MODE_LIST);
	assert_non_null(off);
	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 60; i++) {
		unit_pkt_init(&p, i % 2 ? UNIT_FAR_IP : UNIT_B_IP);
		p.sport = (uint16_t)(3000 + i % 4);
		p.id = (uint16_t)i;
		p.payload_len = (uint16_t)(i % 4 == 3 && i > 50 ? 100 : 700);
		add(&fr, &p);
	}
	feed(off, &fr);
	feed(on, &fr);
	for (k = 0; k < 4; k++) {
		nx = flow_frames(off, UNIT_P1, (uint16_t)(3000 + k), x);
		ny = flow_frames(on, UNIT_P1, (uint16_t)(3000 + k), y);
		assert_int_equal(nx, 15);
		assert_int_equal(ny, nx);
		for (i = 0; i < nx; i++)
			assert_same_bytes(x[i], y[i]);
	}
	unit_assert_same_counters(off, on, true);
	free_both(off, on);
	unit_fixture_destroy(off);
}

/*
 * A train to a next hop ARP must find: held like the datagrams it was
 * made of (the last three), sent as they would be once the answer comes;
 * and a train too big for the egress with DF clear: fragmented datagram
 * by datagram (E8).
 */
static void
test_resolve_and_fragment_identical(void **state)
{
	static const struct rte_ether_addr h7 = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x07 } };
	static struct frames fr;
	struct unit_fixture *on = *state, *off;
	struct unit_fixture *both[2];
	struct unit_pkt p;
	unsigned int i, k;

	off = unit_fixture_create(LSK_MODE_LIST);
	assert_non_null(off);
	both[0] = off;
	both[1] = on;
	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 5; i++) {
		unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 7));
		p.id = (uint16_t)(10 + i);
		add(&fr, &p);
	}
	feed(off, &fr);
	feed(on, &fr);
	assert_same_tx(off, on);		/* the ARP request */
	assert_int_equal(unit_tx_arp_requests(on, UNIT_P1,
					      UNIT_IPV4(10, 0, 1, 7)), 1);
	free_both(off, on);
	for (k = 0; k < 2; k++)
		unit_input_one(both[k], unit_arp_mbuf(UNIT_P1, 2,
			&unit_p1_mac, &h7, UNIT_IPV4(10, 0, 1, 7),
			&unit_p1_mac, UNIT_P1_IP));
	assert_same_tx(off, on);
	assert_int_equal(on->tx.n[UNIT_P1], 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(rte_be_to_cpu_16(
			unit_ip4(on->tx.pkts[UNIT_P1][i])->packet_id), 12 + i);
	unit_assert_same_counters(off, on, true);
	assert_int_equal(unit_stats(on).arp.UnresolvedDiscards, 2);
	free_both(off, on);

	/* 3 x 1028 with DF clear through an MTU of 1000: 6 fragments */
	for (k = 0; k < 2; k++)
		unit_cmd(both[k], "port 1 mtu 1000");
	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 3; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = (uint16_t)(20 + i);
		p.df = false;
		add(&fr, &p);
	}
	feed(off, &fr);
	feed(on, &fr);
	assert_same_tx(off, on);
	unit_assert_same_counters(off, on, true);
	assert_int_equal(on->tx.n[UNIT_P1], 6);
	assert_int_equal(unit_stats(on).ip.FragOKs, 3);
	assert_int_equal(unit_stats(on).ip.FragCreates, 6);
	free_both(off, on);
	unit_fixture_destroy(off);
}

/* ------------------------------------------- a head rewritten by hand */

/* What a NAT-like stage does to the head (and per-packet, to each). */
struct rewrite {
	uint32_t src, dst;
	uint16_t sport, dport;
	uint8_t tos;
	bool ttl_dec;
	const struct rte_ether_addr *dst_mac, *src_mac;
};

static void
rewrite_frame(uint8_t *b, const struct rewrite *r)
{
	memcpy(b, r->dst_mac, RTE_ETHER_ADDR_LEN);
	memcpy(b + 6, r->src_mac, RTE_ETHER_ADDR_LEN);
	IP(b)[1] = r->tos;
	if (r->ttl_dec)
		IP(b)[8]--;
	put32(IP(b) + 12, r->src);
	put32(IP(b) + 16, r->dst);
	unit_ip4_fix_cksum(IP(b));
	put16(UDP(b), r->sport);
	put16(UDP(b) + 2, r->dport);
	udp_fix(b);
}

/*
 * Make the bytes of datagram b such that, rewritten by r, its UDP sum
 * folds to 0xFFFF (the checksum computes to 0, sent as 0xFFFF); b keeps
 * a valid checksum of its own.
 */
static void
aim_zero_checksum(uint8_t *b, const struct rewrite *r)
{
	uint8_t t[UNIT_FRAME_MAX];
	uint16_t ulen = get16(UDP(b) + 4), s, w;
	uint8_t *word = UDP(b) + ulen - 2;	/* the last payload word */

	memcpy(t, b, UNIT_ETH_LEN + 20 + ulen);
	rewrite_frame(t, r);
	put16(UDP(t) + 6, 0);
	s = udp_sum(t);
	w = get16(word);
	w = fold((uint32_t)w + (uint16_t)~s);
	put16(word, w);
	udp_fix(b);
	memcpy(t, b, UNIT_ETH_LEN + 20 + ulen);
	rewrite_frame(t, r);
	assert_int_equal(get16(UDP(t) + 6), 0xffff);
}

/*
 * E3: a stage rewrites the train's head only (source and destination
 * address and port, TOS, TTL-1, MACs, full checksums). lsk_gso_output
 * gives every member the same, each keeping its IP ID, lengths and
 * payload, with correct IP and UDP checksums: the frames are those a
 * per-packet NAT would send, a member whose UDP checksum comes out 0
 * sent as 0xFFFF.
 */
static void
test_nat_rewrite_carried_to_members(void **state)
{
	static const uint16_t lens[] = { 1000, 1000, 1000, 1000, 600 };
	static const struct rewrite r = {
		.src = UNIT_P1_IP, .dst = UNIT_IPV4(10, 0, 1, 2),
		.sport = 40000, .dport = 3000, .tos = 0x28, .ttl_dec = true,
		.dst_mac = &unit_b_mac, .src_mac = &unit_p1_mac,
	};
	enum { N = RTE_DIM(lens) };
	static uint8_t in[N][UNIT_FRAME_MAX], want[N][UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[N];
	size_t len[N];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < N; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = (uint16_t)(100 + i);
		p.payload_len = lens[i];
		len[i] = unit_pkt_build(&p, in[i], sizeof(in[i]));
		if (i == 2)
			aim_zero_checksum(in[i], &r);
		assert_int_equal(udp_sum(in[i]), 0xffff);
		memcpy(want[i], in[i], len[i]);
		rewrite_frame(want[i], &r);
		m[i] = unit_mbuf_from_bytes(in[i], len[i], UNIT_P0);
	}
	/* the train, as udp4_gro chains it */
	for (i = 0; i + 1 < N; i++)
		*lsk_train_next(m[i]) = m[i + 1];
	*lsk_train_next(m[N - 1]) = NULL;
	/* the head rewritten, as a NAT stage would */
	rewrite_frame(rte_pktmbuf_mtod(m[0], uint8_t *), &r);

	lsk_gso_output(f->worker, m[0],
		       (uint32_t)(N - 1) << LSK_META_COUNT_SHIFT, UNIT_P1, 0);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.n[UNIT_P1], N);
	for (i = 0; i < N; i++) {
		struct rte_mbuf *o = f->tx.pkts[UNIT_P1][i];

		assert_ptr_equal(o, m[i]);
		assert_int_equal(rte_pktmbuf_pkt_len(o), len[i]);
		assert_memory_equal(rte_pktmbuf_mtod(o, void *), want[i],
				    len[i]);
		assert_int_equal(unit_ip4_hdr_sum(IP(want[i])), 0);
		assert_true(unit_udp_csum_ok(o));
	}
	assert_int_equal(get16(UDP(want[2]) + 6), 0xffff);
	assert_int_equal(unit_stats(f).gso.Segments, N);
	unit_tx_free(f);
}

/* Only the TOS (a DSCP mark) and TTL of the head changed: the members get
 * both, their UDP checksums untouched, the IP ones right. */
static void
test_tos_rewrite_carried_to_members(void **state)
{
	enum { N = 3 };
	static uint8_t in[N][UNIT_FRAME_MAX], want[N][UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[N];
	size_t len[N];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < N; i++) {
		unit_pkt_init(&p, UNIT_B_IP);
		p.id = (uint16_t)(0xfffe + i);
		p.payload_len = 200;
		len[i] = unit_pkt_build(&p, in[i], sizeof(in[i]));
		memcpy(want[i], in[i], len[i]);
		memcpy(want[i], &unit_b_mac, RTE_ETHER_ADDR_LEN);
		memcpy(want[i] + 6, &unit_p1_mac, RTE_ETHER_ADDR_LEN);
		IP(want[i])[1] = 0xb8;
		IP(want[i])[8] = 63;
		unit_ip4_fix_cksum(IP(want[i]));
		m[i] = unit_mbuf_from_bytes(in[i], len[i], UNIT_P0);
	}
	*lsk_train_next(m[0]) = m[1];
	*lsk_train_next(m[1]) = m[2];
	*lsk_train_next(m[2]) = NULL;
	memcpy(rte_pktmbuf_mtod(m[0], void *), want[0], len[0]);

	lsk_gso_output(f->worker, m[0],
		       (uint32_t)(N - 1) << LSK_META_COUNT_SHIFT, UNIT_P1, 0);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.n[UNIT_P1], N);
	for (i = 0; i < N; i++) {
		assert_memory_equal(rte_pktmbuf_mtod(f->tx.pkts[UNIT_P1][i],
						     void *), want[i], len[i]);
		assert_memory_equal(UDP(want[i]) + 6, UDP(in[i]) + 6, 2);
	}
	unit_tx_free(f);
}

/* ---------------------------------------------------------- no room */

#define SMALL_ROOM 256

/*
 * A merged train of two datagrams of seg payload bytes each, as `gro
 * merge` leaves it (lengths of the whole, tso_segsz the segment size),
 * in mbufs of mp filled to SMALL_ROOM bytes each.
 */
static struct rte_mbuf *
merged_train(struct rte_mempool *mp, uint16_t seg, uint32_t *meta)
{
	static uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *head;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_FAR_IP);
	p.payload_len = (uint16_t)(2 * seg);
	len = unit_pkt_build(&p, b, sizeof(b));
	head = unit_mbuf_in_pool(mp, b, len, SMALL_ROOM, UNIT_P0);
	head->tso_segsz = seg;
	*meta = 1u << LSK_META_COUNT_SHIFT | LSK_META_MERGED;
	return head;
}

/*
 * Issue 10, finding 8: lsk_gso_resegment rebuilds each datagram of a
 * merged train in a fresh mbuf of the head's pool. When that cannot hold
 * one (a pool with a small data room) nothing is written past it: the
 * datagrams not rebuilt are counted ip.OutDiscards, as when no mbuf can
 * be had, and every mbuf comes back. Datagrams that fit are rebuilt.
 */
static void
test_resegment_no_room(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mempool *mp = unit_small_pool("gso_small", SMALL_ROOM);
	struct rte_mbuf *out[64], *head;
	struct lsk_stats st;
	unsigned int n, k;
	uint32_t meta;

	head = merged_train(mp, 250, &meta);	/* 292-byte datagrams */
	n = lsk_gso_resegment(f->worker, head, meta, out);
	assert_int_equal(n, 0);
	st = unit_stats(f);
	assert_int_equal(st.ip.OutDiscards, 2);
	assert_int_equal(st.gso.Segments, 0);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);

	head = merged_train(mp, 100, &meta);	/* 142-byte ones fit */
	n = lsk_gso_resegment(f->worker, head, meta, out);
	assert_int_equal(n, 2);
	for (k = 0; k < n; k++) {
		assert_int_equal(rte_pktmbuf_pkt_len(out[k]), 142);
		assert_int_equal(get16(IP(rte_pktmbuf_mtod(out[k],
			const uint8_t *)) + 4), 1 + k);	/* IP IDs */
		assert_true(unit_udp_csum_ok(out[k]));
	}
	rte_pktmbuf_free_bulk(out, n);
	st = unit_stats(f);
	assert_int_equal(st.ip.OutDiscards, 2);
	assert_int_equal(st.gso.Segments, 2);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);
	rte_mempool_free(mp);
}

/* ---------------------------------------------- lsk_dgram_first/next */

/*
 * The for-each-datagram iterator (udp/udp.h) gives a datagram alone as
 * it is, a fraglist train's datagrams in order with their train links
 * cleared, and a merged train cut back into its datagrams (the head
 * consumed); each datagram is the caller's.
 */
static void
test_dgram_iter(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mempool *mp = unit_small_pool("gso_iter", SMALL_ROOM);
	struct rte_mbuf *m[3], *d;
	struct lsk_dgram_iter it;
	struct unit_pkt p;
	unsigned int k, in_use = unit_pool_in_use();
	uint32_t meta;

	unit_pkt_init(&p, UNIT_FAR_IP);
	for (k = 0; k < 3; k++)
		m[k] = unit_pkt_mbuf(&p);

	/* alone: itself, then nothing */
	d = lsk_dgram_first(&it, f->worker, m[0], 0);
	assert_ptr_equal(d, m[0]);
	assert_null(lsk_dgram_next(&it));
	rte_pktmbuf_free(d);

	/* fraglist: m[1], m[2] in order, unchained */
	*lsk_train_next(m[1]) = m[2];
	*lsk_train_next(m[2]) = NULL;
	k = 0;
	for (d = lsk_dgram_first(&it, f->worker, m[1],
				 1u << LSK_META_COUNT_SHIFT);
	     d != NULL; d = lsk_dgram_next(&it)) {
		assert_ptr_equal(d, m[1 + k]);
		assert_null(*lsk_train_next(d));
		k++;
	}
	assert_int_equal(k, 2);
	rte_pktmbuf_free(m[1]);
	rte_pktmbuf_free(m[2]);
	assert_int_equal(unit_pool_in_use(), in_use);

	/* merged: two datagrams of 100 payload bytes, rebuilt */
	d = merged_train(mp, 100, &meta);
	k = 0;
	for (d = lsk_dgram_first(&it, f->worker, d, meta); d != NULL;
	     d = lsk_dgram_next(&it)) {
		assert_int_equal(rte_pktmbuf_pkt_len(d), 142);
		assert_true(unit_udp_csum_ok(d));
		rte_pktmbuf_free(d);
		k++;
	}
	assert_int_equal(k, 2);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);
	rte_mempool_free(mp);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, gro_setup, unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_gro_on_off_identical),
		T(test_resegment_no_room),
		T(test_dgram_iter),
		T(test_interleaved_flows_keep_flow_order),
		T(test_resolve_and_fragment_identical),
		T(test_nat_rewrite_carried_to_members),
		T(test_tos_rewrite_carried_to_members),
	};

	return cmocka_run_group_tests_name("gso", tests, unit_group_setup,
					   unit_group_teardown);
}
