/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_input: Linux's ip_rcv_core checks in their order and with their
 * counters, padding trim, the martian address rules and the options policy
 * (Linux cases B1-B21, C1-C7, C13; docs/configuration.md "What happens to a packet").
 * Most cases are rows of a table (a packet, how it is spoiled, what
 * ip4_input must do with it and count), each run alone by one runner.
 */
#include <string.h>

#include "unit_common.h"
#include "core/cksum.h"
#include "ip4/ip4.h"

#define IP(b) ((b) + UNIT_ETH_LEN)
/* a frame holding n bytes of L3 */
#define L3(n) (UNIT_ETH_LEN + (n))

/* payload lengths: a 60-byte frame, the fixture's default (1042 bytes) */
#define SMALL 18
#define BIG 1000

/* A short default datagram (60-byte frame) from A on P0 to dst. */
static void
small_pkt(struct unit_pkt *p, uint32_t dst)
{
	unit_pkt_init(p, dst);
	p->payload_len = SMALL;
}

/* Run ip4_input alone on one mbuf; true when it passes. A passed mbuf is
 * handed back in *kept (the caller frees it), a dropped one is gone. */
static bool
ip4_run(struct unit_fixture *f, struct rte_mbuf *m, struct rte_mbuf **kept)
{
	struct lsk_list l = { .n = 0 };

	lsk_list_push(&l, m, 0);
	lsk_ip4_input(f->worker, &l);
	if (l.n == 0)
		return false;
	assert_int_equal(l.n, 1);
	assert_ptr_equal(l.pkts[0], m);
	if (kept != NULL)
		*kept = m;
	else
		rte_pktmbuf_free(m);
	return true;
}

/* What ip4_input does with one datagram, and the counters it moves. */
enum want {
	PASS,		/* InReceives only */
	HDR,		/* InHdrErrors */
	CSUM,		/* InCsumErrors and InHdrErrors */
	TRUNC,		/* InTruncatedPkts */
	MARTIAN,	/* InAddrErrors */
	DISCARD,	/* InDiscards */
};

static const char *const want_name[] = {
	[PASS] = "pass", [HDR] = "InHdrErrors", [CSUM] = "InCsumErrors",
	[TRUNC] = "InTruncatedPkts", [MARTIAN] = "InAddrErrors",
	[DISCARD] = "InDiscards",
};

/* The counters one datagram with this fate leaves, from zero. */
static struct lsk_ip_stats
want_stats(enum want w)
{
	struct lsk_ip_stats s = { .InReceives = 1 };

	switch (w) {
	case PASS:
		break;
	case HDR:
		s.InHdrErrors = 1;
		break;
	case CSUM:
		s.InCsumErrors = 1;
		s.InHdrErrors = 1;
		break;
	case TRUNC:
		s.InTruncatedPkts = 1;
		break;
	case MARTIAN:
		s.InAddrErrors = 1;
		break;
	case DISCARD:
		s.InDiscards = 1;
		break;
	}
	return s;
}

/* m alone through ip4_input, the counters cleared first: it must pass or
 * be dropped as w says, and move only w's counters. */
static void
assert_fate(struct unit_fixture *f, const char *what, struct rte_mbuf *m,
	    enum want w)
{
	bool pass;

	lsk_stats_clear(f->stack);
	pass = ip4_run(f, m, NULL);
	if (pass != (w == PASS))
		print_error("%s: %s, expected %s\n", what,
			    pass ? "passed" : "dropped", want_name[w]);
	assert_int_equal(pass, w == PASS);
	unit_assert_ip(f, want_stats(w));
}

/* ------------------------------------------------- ip_rcv_core checks */

/* how a case's header checksum is set after its bytes are spoiled */
enum fix {
	STALE,		/* left as unit_pkt_build wrote it */
	FIXED,		/* over the whole header, as IHL says */
	FIXED20,	/* over the first 20 bytes only */
};

struct hdr_case {
	const char *what;
	uint16_t payload_len;
	uint8_t opt_len;		/* option bytes (zeros: EOL) */
	struct {
		uint8_t at, val;
	} set[2];			/* IP header bytes written */
	uint8_t n_set;
	enum fix fix;
	struct {
		uint8_t at, mask;
	} flip;				/* then xor-ed (mask 0: none) */
	uint16_t frame_len;		/* bytes of the frame kept (0: all) */
	uint64_t ol_flags;		/* the PMD's checksum flag */
	enum want want;
};

#define SET1(a, v) .set = { { a, v } }, .n_set = 1
#define SET2(a, v, b, w) .set = { { a, v }, { b, w } }, .n_set = 2

static const struct hdr_case hdr_cases[] = {
	{ "valid 1042-byte datagram", BIG, .want = PASS },
	{ "B1 19 bytes of L3", SMALL, .frame_len = L3(19), .want = HDR },
	{ "B1 no L3 at all", SMALL, .frame_len = L3(0), .want = HDR },
	{ "B2 version 6", SMALL, SET1(0, 0x65), .fix = FIXED, .want = HDR },
	/* even with the checksum left wrong, the version is seen first */
	{ "B2 version 6, checksum wrong", SMALL, SET1(0, 0x65), .fix = FIXED,
	  .flip = { 10, 0x11 }, .want = HDR },
	{ "B3 IHL 4", SMALL, SET1(0, 0x44), .fix = FIXED, .want = HDR },
	{ "B3 IHL 0, checksum wrong", SMALL, SET1(0, 0x40), .want = HDR },
	{ "B4 IHL 15 in 40 bytes of L3", 12, SET1(0, 0x4f), .frame_len = L3(40),
	  .want = HDR },
	{ "B4 IHL 6 in 20 bytes of L3", 12, SET1(0, 0x46), .frame_len = L3(20),
	  .want = HDR },
	{ "B5 checksum one bit off", BIG, .flip = { 11, 0x01 },
	  .want = CSUM },
	/* B10: the checksum covers the options too: right over the first 20
	 * bytes, wrong over the 24 (NOP NOP EOL EOL) IHL says */
	{ "B10 checksum over 20 bytes of a 24-byte header", SMALL,
	  .opt_len = 4, SET2(20, 1, 21, 1), .fix = FIXED20, .want = CSUM },
	{ "B6 tot_len 1028 in 600 bytes of L3", BIG, .frame_len = L3(600),
	  .want = TRUNC },
	{ "B6 one byte short", BIG, .frame_len = L3(1027), .want = TRUNC },
	{ "B7 tot_len 16", SMALL, SET2(2, 0, 3, 16), .fix = FIXED,
	  .want = HDR },
	{ "B7 tot_len 20 below IHL 6", SMALL, .opt_len = 4,
	  SET2(2, 0, 3, 20), .fix = FIXED, .want = HDR },
	/* the checksum is tested before the lengths: a broken header that
	 * is also truncated or too short counts as a checksum error */
	{ "bad checksum and truncated", BIG, .flip = { 11, 0x40 },
	  .frame_len = L3(600), .want = CSUM },
	{ "bad checksum and tot_len 16", SMALL, SET1(3, 16), .want = CSUM },
	/* the PMD's flags: BAD drops a valid header, GOOD passes a broken
	 * one, none leaves it to the software check */
	{ "PMD BAD on a valid header", SMALL,
	  .ol_flags = RTE_MBUF_F_RX_IP_CKSUM_BAD, .want = CSUM },
	{ "PMD GOOD on a broken checksum", SMALL, .flip = { 10, 0xff },
	  .ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD, .want = PASS },
	{ "no PMD flag on a broken checksum", SMALL, .flip = { 10, 0xff },
	  .want = CSUM },
};

/* The frame of case c, spoiled as it says; returns the bytes kept. */
static size_t
hdr_case_build(const struct hdr_case *c, uint8_t *b, size_t cap)
{
	struct unit_pkt p;
	uint8_t *ip = IP(b);
	unsigned int k;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = c->payload_len;
	p.opt_len = c->opt_len;
	len = unit_pkt_build(&p, b, cap);
	for (k = 0; k < c->n_set; k++)
		ip[c->set[k].at] = c->set[k].val;
	if (c->fix == FIXED) {
		unit_ip4_fix_cksum(ip);
	} else if (c->fix == FIXED20) {
		/* the sum of the first 20 bytes is right, not the whole
		 * header's: a check that stops at 20 bytes passes it */
		put16(ip + 10, 0);
		put16(ip + 10, (uint16_t)~fold(sum16(ip, 20, 0)));
		assert_int_equal(fold(sum16(ip, 20, 0)), 0xffff);
		assert_int_not_equal(unit_ip4_hdr_sum(ip), 0);
	}
	ip[c->flip.at] ^= c->flip.mask;
	return c->frame_len != 0 ? c->frame_len : len;
}

static void
test_header_checks(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	unsigned int i;

	for (i = 0; i < RTE_DIM(hdr_cases); i++) {
		const struct hdr_case *c = &hdr_cases[i];
		size_t len = hdr_case_build(c, b, sizeof(b));
		struct rte_mbuf *m = unit_mbuf_from_bytes(b, len, UNIT_P0);

		m->ol_flags |= c->ol_flags;
		assert_fate(f, c->what, m, c->want);
	}
}

/* A11: a 29-byte datagram in a 60-byte frame is cut to 14 + 29 bytes. */
static void
test_padding_trimmed(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m = NULL;
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 1;
	p.trailer_len = 17;
	m = unit_pkt_mbuf(&p);
	assert_int_equal(rte_pktmbuf_pkt_len(m), 60);
	assert_true(ip4_run(f, m, &m));
	assert_int_equal(rte_pktmbuf_pkt_len(m), UNIT_ETH_LEN + 29);
	assert_int_equal(rte_pktmbuf_data_len(m), UNIT_ETH_LEN + 29);
	rte_pktmbuf_free(m);

	/* B9: a trailer longer than padding */
	unit_pkt_init(&p, UNIT_P0_IP);
	p.trailer_len = 100;
	m = unit_pkt_mbuf(&p);
	assert_true(ip4_run(f, m, &m));
	assert_int_equal(rte_pktmbuf_pkt_len(m), UNIT_ETH_LEN + 1028);
	assert_int_equal(rte_pktmbuf_data_len(m), UNIT_ETH_LEN + 1028);
	rte_pktmbuf_free(m);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2 });
}

/* Trim of a two-segment frame: a segment holding only trailer is freed,
 * one holding the datagram's end is cut. */
static void
test_padding_trimmed_chained(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *m = NULL;
	unsigned int in_use;
	struct unit_pkt p;
	size_t len, dgram = UNIT_ETH_LEN + 1028;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.trailer_len = 100;
	len = unit_pkt_build(&p, b, sizeof(b));

	/* second segment = trailer only */
	m = unit_mbuf_chain_from_bytes(b, len, dgram, UNIT_P0);
	in_use = unit_pool_in_use();
	assert_true(ip4_run(f, m, &m));
	assert_int_equal(m->nb_segs, 1);
	assert_null(m->next);
	assert_int_equal(rte_pktmbuf_pkt_len(m), dgram);
	assert_int_equal(rte_pktmbuf_data_len(m), dgram);
	assert_int_equal(unit_pool_in_use(), in_use - 1);
	rte_pktmbuf_free(m);

	/* the datagram ends in the second segment */
	m = unit_mbuf_chain_from_bytes(b, len, 600, UNIT_P0);
	assert_true(ip4_run(f, m, &m));
	assert_int_equal(m->nb_segs, 2);
	assert_int_equal(rte_pktmbuf_pkt_len(m), dgram);
	assert_int_equal(rte_pktmbuf_data_len(m), 600);
	assert_int_equal(rte_pktmbuf_data_len(m->next), dgram - 600);
	assert_memory_equal(rte_pktmbuf_mtod(m->next, void *), b + 600,
			    dgram - 600);
	rte_pktmbuf_free(m);

	/* nothing to trim: untouched */
	m = unit_mbuf_chain_from_bytes(b, dgram, 600, UNIT_P0);
	assert_true(ip4_run(f, m, &m));
	assert_int_equal(m->nb_segs, 2);
	assert_int_equal(rte_pktmbuf_pkt_len(m), dgram);
	rte_pktmbuf_free(m);
}

/*
 * lsk_mbuf_trim_to only ever cuts: asked for a length at or past the
 * frame (a length field that lies), it leaves the frame whole, and it
 * never walks past the last segment, even of a chain whose pkt_len says
 * more than its segments hold.
 */
static void
test_trim_to_never_past_the_data(void **state)
{
	static const size_t segs[] = { 100, 301 };
	static const uint32_t past[] = { 1, 2, 1000, 70000, UINT32_MAX - 1042 };
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *m;
	unsigned int i, in_use;
	struct unit_pkt p;
	size_t len;

	(void)f;
	unit_pkt_init(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));		/* 1042 bytes */
	m = unit_mbuf_segs_from_bytes(b, len, segs, 3, UNIT_P0);
	for (i = 0; i < RTE_DIM(past); i++) {
		lsk_mbuf_trim_to(m, (uint32_t)len + past[i]);
		assert_int_equal(rte_pktmbuf_pkt_len(m), len);
		assert_int_equal(m->nb_segs, 3);
		assert_int_equal(rte_pktmbuf_data_len(m->next->next),
				 len - 401);
	}
	lsk_mbuf_trim_to(m, (uint32_t)len);
	assert_int_equal(rte_pktmbuf_pkt_len(m), len);
	assert_int_equal(m->nb_segs, 3);

	/* a chain that claims 1000 bytes more than it holds */
	m->pkt_len += 1000;
	lsk_mbuf_trim_to(m, (uint32_t)len + 500);
	assert_int_equal(m->nb_segs, 3);
	assert_int_equal(rte_pktmbuf_data_len(m->next->next), len - 401);
	assert_true(rte_pktmbuf_pkt_len(m) <= len + 500);
	m->pkt_len = (uint32_t)len;

	/* and it still cuts what is there to cut */
	in_use = unit_pool_in_use();
	lsk_mbuf_trim_to(m, 250);
	assert_int_equal(rte_pktmbuf_pkt_len(m), 250);
	assert_int_equal(m->nb_segs, 2);
	assert_int_equal(rte_pktmbuf_data_len(m->next), 150);
	assert_null(m->next->next);
	assert_int_equal(unit_pool_in_use(), in_use - 1);
	assert_memory_equal(rte_pktmbuf_mtod(m->next, void *), b + 100, 150);
	rte_pktmbuf_free(m);

	/* one segment */
	m = unit_mbuf_from_bytes(b, len, UNIT_P0);
	for (i = 0; i < RTE_DIM(past); i++) {
		lsk_mbuf_trim_to(m, (uint32_t)len + past[i]);
		assert_int_equal(rte_pktmbuf_pkt_len(m), len);
		assert_int_equal(rte_pktmbuf_data_len(m), len);
	}
	rte_pktmbuf_free(m);
}

/* A14: drops leave the others in order, each with its meta word. */
static void
test_drops_keep_order_and_meta(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 };
	struct rte_mbuf *good[3];
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	small_pkt(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	good[0] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	good[1] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	good[2] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	lsk_list_push(&l, good[0], LSK_META_L2_BCAST);
	lsk_list_push(&l, unit_mbuf_from_bytes(b, 20, UNIT_P0), 0);
	lsk_list_push(&l, good[1], 0);
	IP(b)[11] ^= 1;
	lsk_list_push(&l, unit_mbuf_from_bytes(b, len, UNIT_P0),
		      LSK_META_L2_BCAST);
	lsk_list_push(&l, good[2], LSK_META_L2_BCAST);

	lsk_ip4_input(f->worker, &l);
	assert_int_equal(l.n, 3);
	assert_ptr_equal(l.pkts[0], good[0]);
	assert_ptr_equal(l.pkts[1], good[1]);
	assert_ptr_equal(l.pkts[2], good[2]);
	assert_int_equal(l.meta[0], LSK_META_L2_BCAST);
	assert_int_equal(l.meta[1], 0);
	assert_int_equal(l.meta[2], LSK_META_L2_BCAST);
	unit_list_free(&l);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 5,
		.InHdrErrors = 2, .InCsumErrors = 1 });
}

/* The checksum test without a fold agrees with the folded sum: random
 * headers, each as it came, with its checksum set, with the checksum's
 * other zero (0x0000 for 0xffff and back), one bit off; all zeros and
 * all ones. */
static void
test_hdr20_valid_matches_fold(void **state)
{
	uint8_t h[20];
	unsigned int i, k, valid = 0;

	(void)state;
	memset(h, 0, sizeof(h));
	assert_false(lsk_ip4_hdr20_valid(h));
	assert_int_not_equal(lsk_ip4_hdr_sum20(h), 0xffff);
	memset(h, 0xff, sizeof(h));
	assert_true(lsk_ip4_hdr20_valid(h));
	assert_int_equal(lsk_ip4_hdr_sum20(h), 0xffff);
	for (i = 0; i < 200000; i++) {
		uint16_t ck;

		for (k = 0; k < sizeof(h); k += 4) {
			uint32_t r = (uint32_t)rte_rand();

			/* a few all-ones and zero words, for the carries */
			if (i % 7 == 0)
				r = i % 14 == 0 ? UINT32_MAX : 0;
			memcpy(&h[k], &r, 4);
		}
		if (i % 3 == 0)
			h[0] = 0x45;
		assert_int_equal(lsk_ip4_hdr20_valid(h),
				 lsk_ip4_hdr_sum20(h) == 0xffff);
		h[10] = h[11] = 0;
		ck = (uint16_t)~rte_raw_cksum(h, sizeof(h));
		memcpy(&h[10], &ck, 2);
		assert_true(lsk_ip4_hdr20_valid(h) ==
			    (lsk_ip4_hdr_sum20(h) == 0xffff));
		valid += lsk_ip4_hdr20_valid(h);
		if (ck == 0 || ck == 0xffff) {
			ck = (uint16_t)~ck;
			memcpy(&h[10], &ck, 2);
			assert_int_equal(lsk_ip4_hdr20_valid(h),
					 lsk_ip4_hdr_sum20(h) == 0xffff);
		}
		h[i % sizeof(h)] ^= (uint8_t)(1u << (i % 8));
		assert_int_equal(lsk_ip4_hdr20_valid(h),
				 lsk_ip4_hdr_sum20(h) == 0xffff);
	}
	/* all but the all-zero headers got a valid checksum */
	assert_true(valid > 190000);
}

/* One list through the fast test and the full checks: good datagrams
 * around one to trim (the full checks pass it), a bad checksum and a
 * truncated one (dropped), a train of 3 (members counted); the kept keep
 * their order and meta words, every datagram is counted once. */
static void
test_fast_and_full_checks_in_one_list(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 };
	struct rte_mbuf *good[4], *padded;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;
	unsigned int k;

	small_pkt(&p, UNIT_FAR_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	for (k = 0; k < RTE_DIM(good); k++)
		good[k] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	unit_pkt_init(&p, UNIT_FAR_IP);
	p.payload_len = 1;
	p.trailer_len = 17;
	padded = unit_pkt_mbuf(&p);

	lsk_list_push(&l, good[0], 2u << LSK_META_COUNT_SHIFT);
	lsk_list_push(&l, padded, LSK_META_L2_BCAST);
	lsk_list_push(&l, good[1], 0);
	IP(b)[10] ^= 0x10;
	lsk_list_push(&l, unit_mbuf_from_bytes(b, len, UNIT_P0), 0);
	IP(b)[10] ^= 0x10;
	lsk_list_push(&l, good[2], 1u << LSK_META_COUNT_SHIFT);
	lsk_list_push(&l, unit_mbuf_from_bytes(b, len - 1, UNIT_P0), 0);
	lsk_list_push(&l, good[3], LSK_META_L2_BCAST);

	/* the members of the two trains are not really chained: counted by
	 * the meta alone, taken back out before the list is freed */
	lsk_ip4_input(f->worker, &l);
	assert_int_equal(l.n, 5);
	assert_ptr_equal(l.pkts[0], good[0]);
	assert_ptr_equal(l.pkts[1], padded);
	assert_ptr_equal(l.pkts[2], good[1]);
	assert_ptr_equal(l.pkts[3], good[2]);
	assert_ptr_equal(l.pkts[4], good[3]);
	assert_int_equal(l.meta[0], 2u << LSK_META_COUNT_SHIFT);
	assert_int_equal(l.meta[1], LSK_META_L2_BCAST);
	assert_int_equal(l.meta[2], 0);
	assert_int_equal(l.meta[3], 1u << LSK_META_COUNT_SHIFT);
	assert_int_equal(l.meta[4], LSK_META_L2_BCAST);
	assert_int_equal(rte_pktmbuf_pkt_len(padded), UNIT_ETH_LEN + 29);
	for (k = 0; k < l.n; k++)
		l.meta[k] &= ~LSK_META_COUNT_MASK;
	unit_list_free(&l);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 7 + 3,
		.InHdrErrors = 1, .InCsumErrors = 1, .InTruncatedPkts = 1 });
}


/* ------------------------------------------------- martian addresses */

struct addr_case {
	const char *what;
	uint32_t src, dst;
	enum want want;
};

/* C1-C7, C13, B18-B20 and docs/configuration.md's list of martian sources. */
static const struct addr_case addr_cases[] = {
	{ "C1 multicast source 224.0.0.5", UNIT_IPV4(224, 0, 0, 5),
	  UNIT_P0_IP, MARTIAN },
	{ "multicast source 239.1.1.1", UNIT_IPV4(239, 1, 1, 1), UNIT_P0_IP,
	  MARTIAN },
	{ "class E source 240.0.0.1", UNIT_IPV4(240, 0, 0, 1), UNIT_P0_IP,
	  MARTIAN },
	{ "C2 source 255.255.255.255", UINT32_MAX, UNIT_P0_IP, MARTIAN },
	{ "C3 0.0.0.0 to unicast", 0, UNIT_P0_IP, MARTIAN },
	{ "C4 source 0.1.2.3", UNIT_IPV4(0, 1, 2, 3), UNIT_P0_IP, MARTIAN },
	{ "0.1.2.3 to 255.255.255.255", UNIT_IPV4(0, 1, 2, 3), UINT32_MAX,
	  MARTIAN },
	{ "0.0.0.0 to a subnet broadcast", 0, UNIT_IPV4(10, 0, 0, 255),
	  MARTIAN },
	{ "C6 loopback source 127.0.0.1", UNIT_IPV4(127, 0, 0, 1),
	  UNIT_P0_IP, MARTIAN },
	{ "loopback source 127.255.0.9", UNIT_IPV4(127, 255, 0, 9),
	  UNIT_FAR_IP, MARTIAN },
	{ "C7 our address 10.0.0.254 as source", UNIT_P0_IP, UNIT_P0_IP,
	  MARTIAN },
	{ "our P1 address as source on P0", UNIT_P1_IP, UNIT_FAR_IP,
	  MARTIAN },
	{ "P0 subnet broadcast as source", UNIT_IPV4(10, 0, 0, 255),
	  UNIT_P0_IP, MARTIAN },
	{ "P1 subnet broadcast as source", UNIT_IPV4(10, 0, 1, 255),
	  UNIT_B_IP, MARTIAN },
	/* C5, C6: martian destinations */
	{ "C5 destination 0.1.2.3", UNIT_A_IP, UNIT_IPV4(0, 1, 2, 3),
	  MARTIAN },
	{ "destination 0.0.0.0", UNIT_A_IP, 0, MARTIAN },
	{ "C6 destination 127.0.0.1", UNIT_A_IP, UNIT_IPV4(127, 0, 0, 1),
	  MARTIAN },
	{ "destination 127.1.2.3", UNIT_A_IP, UNIT_IPV4(127, 1, 2, 3),
	  MARTIAN },
	/* addresses that look odd but are fine */
	{ "B20 0.0.0.0 to 255.255.255.255", 0, UINT32_MAX, PASS },
	{ "B19 limited broadcast", UNIT_A_IP, UINT32_MAX, PASS },
	{ "B18 subnet broadcast", UNIT_A_IP, UNIT_IPV4(10, 0, 0, 255), PASS },
	{ "other subnet's broadcast", UNIT_A_IP, UNIT_IPV4(10, 0, 1, 255),
	  PASS },
	{ "C23 P1's address", UNIT_A_IP, UNIT_P1_IP, PASS },
	{ "from a peer on P1's subnet", UNIT_B_IP, UNIT_P0_IP, PASS },
	{ "class E destination", UNIT_A_IP, UNIT_IPV4(240, 0, 0, 1), PASS },
	{ "1.0.0.0 source", UNIT_IPV4(1, 0, 0, 0), UNIT_P0_IP, PASS },
	{ "network address as source", UNIT_IPV4(10, 0, 0, 0), UNIT_P0_IP,
	  PASS },
	{ "126.255.255.255 source", UNIT_IPV4(126, 255, 255, 255),
	  UNIT_P0_IP, PASS },
	{ "223.255.255.255 source", UNIT_IPV4(223, 255, 255, 255),
	  UNIT_P0_IP, PASS },
	/* C13: multicast destinations are discarded (no groups, no
	 * multicast routing) */
	{ "destination 239.1.1.1", UNIT_A_IP, UNIT_IPV4(239, 1, 1, 1),
	  DISCARD },
	{ "all-hosts 224.0.0.1", UNIT_A_IP, UNIT_IPV4(224, 0, 0, 1),
	  DISCARD },
	{ "destination 239.255.255.255", UNIT_A_IP,
	  UNIT_IPV4(239, 255, 255, 255), DISCARD },
};

static void
test_addresses(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < RTE_DIM(addr_cases); i++) {
		small_pkt(&p, addr_cases[i].dst);
		p.src = addr_cases[i].src;
		assert_fate(f, addr_cases[i].what, unit_pkt_mbuf(&p),
			    addr_cases[i].want);
	}
}

/* ------------------------------------------------------------ options */

struct opt_case {
	const char *what;
	uint8_t len;
	uint8_t bytes[40];
	enum want want;
	uint32_t src;			/* 0: A */
};

static const struct opt_case opt_cases[] = {
	/* B11 and other well-formed options pass (and are not processed) */
	{ "B11 NOP NOP NOP EOL", 4, { 1, 1, 1, 0 }, .want = PASS },
	{ "40 NOPs", 40, { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1 }, .want = PASS },
	{ "record route, one free slot", 8, { 7, 7, 4, 0, 0, 0, 0, 0 },
	  .want = PASS },
	{ "timestamp, two free slots", 12,
	  { 0x44, 12, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, .want = PASS },
	{ "router alert", 4, { 0x94, 4, 0, 0 }, .want = PASS },
	{ "EOL then garbage", 4, { 0, 0x83, 0xff, 0xff }, .want = PASS },
	/* B13: source routes are refused (docs/configuration.md) */
	{ "LSRR", 8, { 0x83, 7, 4, 10, 0, 1, 1, 0 }, .want = DISCARD },
	{ "SSRR", 8, { 0x89, 7, 4, 10, 0, 1, 1, 0 }, .want = DISCARD },
	{ "NOP then LSRR", 8, { 1, 0x83, 7, 4, 10, 0, 1, 1 }, .want = DISCARD },
	/* B12: malformed options are header errors */
	{ "B12 record route of length 2", 4, { 7, 2, 1, 0 }, .want = HDR },
	{ "record route pointer 3", 8, { 7, 7, 3, 0, 0, 0, 0, 0 },
	  .want = HDR },
	{ "timestamp of length 3", 4, { 0x44, 3, 5, 0 }, .want = HDR },
	{ "timestamp pointer 4", 12,
	  { 0x44, 12, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, .want = HDR },
	{ "LSRR of length 2", 4, { 0x83, 2, 1, 0 }, .want = HDR },
	{ "LSRR pointer 3", 8, { 0x83, 7, 3, 10, 0, 1, 1, 0 }, .want = HDR },
	{ "option longer than the header", 4, { 0x94, 8, 0, 0 }, .want = HDR },
	{ "option length 1", 4, { 0x94, 1, 0, 0 }, .want = HDR },
	{ "option length 0", 4, { 0x94, 0, 0, 0 }, .want = HDR },
	{ "type byte with no length", 4, { 1, 1, 1, 0x94 }, .want = HDR },
	/* ip_options_compile also refuses a record route or timestamp
	 * whose pointer leaves less than a whole slot before its end */
	{ "record route, 3-byte slot", 8, { 7, 6, 4, 0, 0, 0, 1, 0 },
	  .want = HDR },
	{ "timestamp, 2-byte slot", 8, { 0x44, 6, 5, 0, 0, 0, 1, 0 },
	  .want = HDR },
	/* a martian source is caught before its options are looked at */
	{ "LSRR from 127.0.0.1", 8, { 0x83, 7, 4, 10, 0, 1, 1, 0 },
	  .want = MARTIAN, .src = UNIT_IPV4(127, 0, 0, 1) },
	{ "bad record route from 224.0.0.5", 4, { 7, 2, 1, 0 },
	  .want = MARTIAN, .src = UNIT_IPV4(224, 0, 0, 5) },
};

static void
test_options(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < RTE_DIM(opt_cases); i++) {
		const struct opt_case *c = &opt_cases[i];

		small_pkt(&p, UNIT_P0_IP);
		if (c->src != 0)
			p.src = c->src;
		p.opt_len = c->len;
		memcpy(p.opts, c->bytes, c->len);
		assert_fate(f, c->what, unit_pkt_mbuf(&p), c->want);
	}
}

/* ------------------------------------------------ through the worker */

/* B21: TTL does not matter for local delivery. B8: a bare header passes
 * IP. B20: DHCP discover style broadcast is taken in. */
static void
test_local_edge_cases_delivered(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;

	small_pkt(&p, UNIT_P0_IP);
	p.ttl = 0;
	unit_input_pkt(f, &p);
	p.ttl = 1;
	unit_input_pkt(f, &p);

	small_pkt(&p, UNIT_P0_IP);
	unit_pkt_build(&p, b, sizeof(b));
	IP(b)[2] = 0;
	IP(b)[3] = 20;
	unit_ip4_fix_cksum(IP(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, UNIT_ETH_LEN + 20, UNIT_P0));

	small_pkt(&p, UINT32_MAX);
	p.src = 0;
	p.sport = 68;
	p.dport = 67;
	p.dst_mac = unit_bcast_mac;
	unit_input_pkt(f, &p);

	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 4, .InDelivers = 4 });
	assert_int_equal(unit_tx_udp_to(f, UNIT_P0, 0) +
			 unit_tx_udp_to(f, UNIT_P1, 0), 0);
	/* UDP then: nothing listens (port unreachable for the two TTL
	 * cases), the bare header is short, the broadcast is ignored */
	assert_int_equal(unit_stats(f).udp.NoPorts, 2);
	assert_int_equal(unit_stats(f).udp.InErrors, 1);
	assert_int_equal(unit_stats(f).udp.IgnoredMulti, 1);
	assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 3, UNIT_P0_IP), 2);
	assert_int_equal(unit_tx_count(f), 2);
	unit_tx_free(f);
}

/* A mixed burst: every packet lands in exactly one counter. */
static void
test_mixed_burst_balances(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[9];
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_stats st;
	struct unit_pkt p;
	size_t len;

	small_pkt(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	pkts[0] = unit_mbuf_from_bytes(b, len, UNIT_P0);	/* delivered */
	pkts[1] = unit_mbuf_from_bytes(b, 30, UNIT_P0);		/* runt L3 */
	IP(b)[11] ^= 4;
	pkts[2] = unit_mbuf_from_bytes(b, len, UNIT_P0);	/* csum */
	small_pkt(&p, UNIT_FAR_IP);
	pkts[3] = unit_pkt_mbuf(&p);				/* forwarded */
	p.src = UNIT_IPV4(127, 0, 0, 1);
	pkts[4] = unit_pkt_mbuf(&p);				/* martian */
	small_pkt(&p, UNIT_IPV4(192, 168, 77, 1));
	pkts[5] = unit_pkt_mbuf(&p);				/* no route */
	small_pkt(&p, UNIT_IPV4(239, 1, 1, 1));
	pkts[6] = unit_pkt_mbuf(&p);				/* multicast */
	unit_pkt_init(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	pkts[7] = unit_mbuf_from_bytes(b, len - 1, UNIT_P0);	/* truncated */
	small_pkt(&p, UNIT_P0_IP);
	p.proto = 253;
	pkts[8] = unit_pkt_mbuf(&p);			/* B15 no handler */

	unit_input(f, pkts, 9);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 9,
		.InDelivers = 1, .InHdrErrors = 2, .InCsumErrors = 1,
		.ForwDatagrams = 1, .InAddrErrors = 1, .InNoRoutes = 1,
		.InDiscards = 1, .InTruncatedPkts = 1,
		.InUnknownProtos = 1 });
	st = unit_stats(f);
	unit_assert_ip_balance(&st);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 1);
	assert_int_equal(unit_tx_count(f), 1 + 3);
	/* port, net and protocol unreachable back to A; nothing about the
	 * header errors, the martian or the multicast */
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 3), 1);
	assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 0,
					    UNIT_IPV4(192, 168, 77, 1)), 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 2), 1);
	assert_int_equal(st.icmp.OutDestUnreachs, 3);
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_header_checks),
		T(test_padding_trimmed),
		T(test_padding_trimmed_chained),
		T(test_trim_to_never_past_the_data),
		T(test_hdr20_valid_matches_fold),
		T(test_fast_and_full_checks_in_one_list),
		T(test_drops_keep_order_and_meta),
		T(test_addresses),
		T(test_options),
		T(test_local_edge_cases_delivered),
		T(test_mixed_burst_balances),
	};

	return cmocka_run_group_tests_name("ip4_input", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
