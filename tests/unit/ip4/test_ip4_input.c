/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_input: Linux's ip_rcv_core checks in their order and with their
 * counters, padding trim, the martian address rules and the options policy
 * (Linux cases B1-B21, C1-C7, C13; README.md "What happens to a packet").
 */
#include <string.h>

#include "unit_common.h"
#include "core/cksum.h"
#include "ip4/ip4.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

/* A short default datagram (60-byte frame) from A on P0 to dst. */
static void
small_pkt(struct unit_pkt *p, uint32_t dst)
{
	unit_pkt_init(p, dst);
	p->payload_len = 18;
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

static bool
ip4_passes(struct unit_fixture *f, struct rte_mbuf *m)
{
	return ip4_run(f, m, NULL);
}

static bool
ip4_passes_bytes(struct unit_fixture *f, const uint8_t *b, size_t len)
{
	return ip4_passes(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
}

static bool
ip4_passes_pkt(struct unit_fixture *f, const struct unit_pkt *p)
{
	return ip4_passes(f, unit_pkt_mbuf(p));
}

/* ------------------------------------------------- ip_rcv_core checks */

static void
test_valid_passes(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_P0_IP);
	assert_true(ip4_passes_pkt(f, &p));
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1 });
}

/* B1: fewer than 20 bytes of L3. */
static void
test_l3_shorter_than_20(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;

	small_pkt(&p, UNIT_P0_IP);
	unit_pkt_build(&p, b, sizeof(b));
	assert_false(ip4_passes_bytes(f, b, UNIT_ETH_LEN + 19));
	assert_false(ip4_passes_bytes(f, b, UNIT_ETH_LEN));
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InHdrErrors = 2 });
}

/* B2: version 6 in an IPv4 frame: a header error, not a checksum one. */
static void
test_bad_version(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	small_pkt(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[0] = 0x65;
	unit_ip4_fix_cksum(IP(b));
	assert_false(ip4_passes_bytes(f, b, len));
	/* even with the checksum left wrong, the version is seen first */
	IP(b)[10] ^= 0x11;
	assert_false(ip4_passes_bytes(f, b, len));
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InHdrErrors = 2 });
}

/* B3: IHL below 5. */
static void
test_ihl_below_5(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	small_pkt(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[0] = 0x44;
	unit_ip4_fix_cksum(IP(b));
	assert_false(ip4_passes_bytes(f, b, len));
	IP(b)[0] = 0x40;
	assert_false(ip4_passes_bytes(f, b, len));
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InHdrErrors = 2 });
}

/* B4: IHL says 60 bytes of header, the frame holds 40 bytes of L3. */
static void
test_ihl_past_frame(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 12;			/* 40 bytes of L3 */
	unit_pkt_build(&p, b, sizeof(b));
	IP(b)[0] = 0x4f;
	assert_false(ip4_passes_bytes(f, b, UNIT_ETH_LEN + 40));
	/* IHL 6 with exactly 20 bytes of L3 */
	IP(b)[0] = 0x46;
	assert_false(ip4_passes_bytes(f, b, UNIT_ETH_LEN + 20));
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InHdrErrors = 2 });
}

/* B5: checksum off by one counts InCsumErrors and InHdrErrors. */
static void
test_bad_checksum(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[11] += 1;
	assert_false(ip4_passes_bytes(f, b, len));
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.InCsumErrors = 1, .InHdrErrors = 1 });
}

/* B10: the checksum covers the options too. */
static void
test_checksum_covers_options(void **state)
{
	static const uint8_t nops[] = { 0x01, 0x01, 0x01, 0x00 };
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	small_pkt(&p, UNIT_P0_IP);
	p.opt_len = sizeof(nops);
	memcpy(p.opts, nops, sizeof(nops));
	len = unit_pkt_build(&p, b, sizeof(b));
	/* checksum over the first 20 bytes only */
	IP(b)[0] = 0x45;
	unit_ip4_fix_cksum(IP(b));
	IP(b)[0] = 0x46;
	assert_false(ip4_passes_bytes(f, b, len));
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.InCsumErrors = 1, .InHdrErrors = 1 });
}

/* B6: tot_len 1028 with 600 bytes of L3: truncated, not a header error. */
static void
test_truncated(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_P0_IP);
	unit_pkt_build(&p, b, sizeof(b));
	assert_false(ip4_passes_bytes(f, b, UNIT_ETH_LEN + 600));
	/* one byte short is enough */
	assert_false(ip4_passes_bytes(f, b, UNIT_ETH_LEN + 1027));
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InTruncatedPkts = 2 });
}

/* B7: tot_len smaller than the header. */
static void
test_tot_len_below_ihl(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	small_pkt(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[2] = 0;
	IP(b)[3] = 16;
	unit_ip4_fix_cksum(IP(b));
	assert_false(ip4_passes_bytes(f, b, len));
	/* with options: tot_len 20 < IHL 6 */
	p.opt_len = 4;
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[2] = 0;
	IP(b)[3] = 20;
	unit_ip4_fix_cksum(IP(b));
	assert_false(ip4_passes_bytes(f, b, len));
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InHdrErrors = 2 });
}

/* The checksum is tested before the lengths: a broken header that is also
 * truncated or too short counts as a checksum error. */
static void
test_checksum_before_lengths(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	unit_pkt_build(&p, b, sizeof(b));
	IP(b)[11] ^= 0x40;
	assert_false(ip4_passes_bytes(f, b, UNIT_ETH_LEN + 600));

	small_pkt(&p, UNIT_P0_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[3] = 16;				/* tot_len 16, checksum stale */
	assert_false(ip4_passes_bytes(f, b, len));
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.InCsumErrors = 2, .InHdrErrors = 2 });
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

/* PMD checksum flags: BAD drops a valid header, GOOD passes a broken one. */
static void
test_pmd_checksum_flags(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	struct rte_mbuf *m;
	size_t len;

	small_pkt(&p, UNIT_P0_IP);
	m = unit_pkt_mbuf(&p);
	m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
	assert_false(ip4_passes(f, m));
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.InCsumErrors = 1, .InHdrErrors = 1 });

	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[10] ^= 0xff;
	m = unit_mbuf_from_bytes(b, len, UNIT_P0);
	m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	assert_true(ip4_passes(f, m));
	/* without a flag the software check catches it */
	m = unit_mbuf_from_bytes(b, len, UNIT_P0);
	assert_false(ip4_passes(f, m));
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 3,
		.InCsumErrors = 2, .InHdrErrors = 2 });
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
};

/* Each case alone through ip4_input: returns how many passed. */
static unsigned int
run_addr_cases(struct unit_fixture *f, const struct addr_case *c,
	       unsigned int n, bool want_pass)
{
	unsigned int i, passed = 0;
	struct unit_pkt p;

	for (i = 0; i < n; i++) {
		bool pass;

		small_pkt(&p, c[i].dst);
		p.src = c[i].src;
		pass = ip4_passes_pkt(f, &p);
		if (pass != want_pass)
			print_error("%s: %s, expected %s\n", c[i].what,
				    pass ? "passed" : "dropped",
				    want_pass ? "to pass" : "a drop");
		passed += pass;
	}
	return passed;
}

/* C1-C4, C6, C7 and README.md's list of martian sources. */
static void
test_martian_sources(void **state)
{
	static const struct addr_case cases[] = {
		{ "C1 multicast 224.0.0.5", UNIT_IPV4(224, 0, 0, 5), UNIT_P0_IP },
		{ "multicast 239.1.1.1", UNIT_IPV4(239, 1, 1, 1), UNIT_P0_IP },
		{ "class E 240.0.0.1", UNIT_IPV4(240, 0, 0, 1), UNIT_P0_IP },
		{ "C2 255.255.255.255", UINT32_MAX, UNIT_P0_IP },
		{ "C3 0.0.0.0 to unicast", 0, UNIT_P0_IP },
		{ "C4 0.1.2.3", UNIT_IPV4(0, 1, 2, 3), UNIT_P0_IP },
		{ "0.1.2.3 to 255.255.255.255", UNIT_IPV4(0, 1, 2, 3),
		  UINT32_MAX },
		{ "0.0.0.0 to a subnet broadcast", 0, UNIT_IPV4(10, 0, 0, 255) },
		{ "C6 loopback 127.0.0.1", UNIT_IPV4(127, 0, 0, 1), UNIT_P0_IP },
		{ "loopback 127.255.0.9", UNIT_IPV4(127, 255, 0, 9),
		  UNIT_FAR_IP },
		{ "C7 our address 10.0.0.254", UNIT_P0_IP, UNIT_P0_IP },
		{ "our P1 address on P0", UNIT_P1_IP, UNIT_FAR_IP },
		{ "P0 subnet broadcast", UNIT_IPV4(10, 0, 0, 255), UNIT_P0_IP },
		{ "P1 subnet broadcast", UNIT_IPV4(10, 0, 1, 255), UNIT_B_IP },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	assert_int_equal(run_addr_cases(f, cases, RTE_DIM(cases), false), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = n, .InAddrErrors = n });
}

/* C5, C6: martian destinations. */
static void
test_martian_destinations(void **state)
{
	static const struct addr_case cases[] = {
		{ "C5 0.1.2.3", UNIT_A_IP, UNIT_IPV4(0, 1, 2, 3) },
		{ "0.0.0.0", UNIT_A_IP, 0 },
		{ "C6 127.0.0.1", UNIT_A_IP, UNIT_IPV4(127, 0, 0, 1) },
		{ "127.1.2.3", UNIT_A_IP, UNIT_IPV4(127, 1, 2, 3) },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	assert_int_equal(run_addr_cases(f, cases, RTE_DIM(cases), false), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = n, .InAddrErrors = n });
}

/* Addresses that look odd but are fine. */
static void
test_not_martian(void **state)
{
	static const struct addr_case cases[] = {
		{ "B20 0.0.0.0 to 255.255.255.255", 0, UINT32_MAX },
		{ "B19 limited broadcast", UNIT_A_IP, UINT32_MAX },
		{ "B18 subnet broadcast", UNIT_A_IP, UNIT_IPV4(10, 0, 0, 255) },
		{ "other subnet's broadcast", UNIT_A_IP,
		  UNIT_IPV4(10, 0, 1, 255) },
		{ "C23 P1's address", UNIT_A_IP, UNIT_P1_IP },
		{ "from a peer on P1's subnet", UNIT_B_IP, UNIT_P0_IP },
		{ "class E destination", UNIT_A_IP, UNIT_IPV4(240, 0, 0, 1) },
		{ "1.0.0.0 source", UNIT_IPV4(1, 0, 0, 0), UNIT_P0_IP },
		{ "network address as source", UNIT_IPV4(10, 0, 0, 0),
		  UNIT_P0_IP },
		{ "126.255.255.255 source", UNIT_IPV4(126, 255, 255, 255),
		  UNIT_P0_IP },
		{ "223.255.255.255 source", UNIT_IPV4(223, 255, 255, 255),
		  UNIT_P0_IP },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	assert_int_equal(run_addr_cases(f, cases, RTE_DIM(cases), true), n);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = n });
}

/* C13: multicast destinations are discarded (no groups, no mrouting). */
static void
test_multicast_destination(void **state)
{
	static const struct addr_case cases[] = {
		{ "239.1.1.1", UNIT_A_IP, UNIT_IPV4(239, 1, 1, 1) },
		{ "all-hosts 224.0.0.1", UNIT_A_IP, UNIT_IPV4(224, 0, 0, 1) },
		{ "239.255.255.255", UNIT_A_IP, UNIT_IPV4(239, 255, 255, 255) },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	assert_int_equal(run_addr_cases(f, cases, RTE_DIM(cases), false), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = n, .InDiscards = n });
}

/* ------------------------------------------------------------ options */

struct opt_case {
	const char *what;
	uint8_t len;
	uint8_t bytes[40];
};

static bool
ip4_passes_opts(struct unit_fixture *f, const struct opt_case *c,
		uint32_t src)
{
	struct unit_pkt p;

	small_pkt(&p, UNIT_P0_IP);
	p.src = src;
	p.opt_len = c->len;
	memcpy(p.opts, c->bytes, c->len);
	return ip4_passes_pkt(f, &p);
}

static void
run_opt_cases(struct unit_fixture *f, const struct opt_case *c,
	      unsigned int n, bool want_pass)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		bool pass = ip4_passes_opts(f, &c[i], UNIT_A_IP);

		if (pass != want_pass)
			print_error("%s: %s\n", c[i].what,
				    pass ? "passed" : "dropped");
		assert_int_equal(pass, want_pass);
	}
}

/* B11 and other well-formed options pass (and are not processed). */
static void
test_valid_options(void **state)
{
	static const struct opt_case cases[] = {
		{ "B11 NOP NOP NOP EOL", 4, { 1, 1, 1, 0 } },
		{ "40 NOPs", 40, { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1 } },
		{ "record route, one free slot", 8,
		  { 7, 7, 4, 0, 0, 0, 0, 0 } },
		{ "timestamp, two free slots", 12,
		  { 0x44, 12, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
		{ "router alert", 4, { 0x94, 4, 0, 0 } },
		{ "EOL then garbage", 4, { 0, 0x83, 0xff, 0xff } },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	run_opt_cases(f, cases, RTE_DIM(cases), true);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = n });
}

/* B13: source routes are refused, counted InDiscards (README.md). */
static void
test_source_route_discarded(void **state)
{
	static const struct opt_case cases[] = {
		{ "LSRR", 8, { 0x83, 7, 4, 10, 0, 1, 1, 0 } },
		{ "SSRR", 8, { 0x89, 7, 4, 10, 0, 1, 1, 0 } },
		{ "NOP then LSRR", 8, { 1, 0x83, 7, 4, 10, 0, 1, 1 } },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	run_opt_cases(f, cases, RTE_DIM(cases), false);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = n, .InDiscards = n });
}

/* B12: malformed options are header errors. */
static void
test_malformed_options(void **state)
{
	static const struct opt_case cases[] = {
		{ "B12 record route of length 2", 4, { 7, 2, 1, 0 } },
		{ "record route pointer 3", 8, { 7, 7, 3, 0, 0, 0, 0, 0 } },
		{ "timestamp of length 3", 4, { 0x44, 3, 5, 0 } },
		{ "timestamp pointer 4", 12,
		  { 0x44, 12, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
		{ "LSRR of length 2", 4, { 0x83, 2, 1, 0 } },
		{ "LSRR pointer 3", 8, { 0x83, 7, 3, 10, 0, 1, 1, 0 } },
		{ "option longer than the header", 4, { 0x94, 8, 0, 0 } },
		{ "option length 1", 4, { 0x94, 1, 0, 0 } },
		{ "option length 0", 4, { 0x94, 0, 0, 0 } },
		{ "type byte with no length", 4, { 1, 1, 1, 0x94 } },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	run_opt_cases(f, cases, RTE_DIM(cases), false);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = n, .InHdrErrors = n });
}

/*
 * ip_options_compile also refuses a record route or timestamp whose
 * pointer leaves less than a whole slot before the option's end.
 */
static void
test_options_partial_slot(void **state)
{
	static const struct opt_case cases[] = {
		{ "record route, 3-byte slot", 8, { 7, 6, 4, 0, 0, 0, 1, 0 } },
		{ "timestamp, 2-byte slot", 8,
		  { 0x44, 6, 5, 0, 0, 0, 1, 0 } },
	};
	struct unit_fixture *f = *state;
	uint64_t n = RTE_DIM(cases);

	run_opt_cases(f, cases, RTE_DIM(cases), false);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = n, .InHdrErrors = n });
}

/* A martian source is caught before its options are looked at. */
static void
test_martian_before_options(void **state)
{
	static const struct opt_case lsrr = {
		"LSRR", 8, { 0x83, 7, 4, 10, 0, 1, 1, 0 } };
	static const struct opt_case bad = { "bad", 4, { 7, 2, 1, 0 } };
	struct unit_fixture *f = *state;

	assert_false(ip4_passes_opts(f, &lsrr, UNIT_IPV4(127, 0, 0, 1)));
	assert_false(ip4_passes_opts(f, &bad, UNIT_IPV4(224, 0, 0, 5)));
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InAddrErrors = 2 });
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
		T(test_valid_passes),
		T(test_l3_shorter_than_20),
		T(test_bad_version),
		T(test_ihl_below_5),
		T(test_ihl_past_frame),
		T(test_bad_checksum),
		T(test_checksum_covers_options),
		T(test_truncated),
		T(test_tot_len_below_ihl),
		T(test_checksum_before_lengths),
		T(test_padding_trimmed),
		T(test_padding_trimmed_chained),
		T(test_trim_to_never_past_the_data),
		T(test_pmd_checksum_flags),
		T(test_hdr20_valid_matches_fold),
		T(test_fast_and_full_checks_in_one_list),
		T(test_drops_keep_order_and_meta),
		T(test_martian_sources),
		T(test_martian_destinations),
		T(test_not_martian),
		T(test_multicast_destination),
		T(test_valid_options),
		T(test_source_route_discarded),
		T(test_malformed_options),
		T(test_options_partial_slot),
		T(test_martian_before_options),
		T(test_local_edge_cases_delivered),
		T(test_mixed_burst_balances),
	};

	return cmocka_run_group_tests_name("ip4_input", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
