/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_input: RFC 8200's checks with Linux's counters (ip6_rcv_core),
 * padding trimmed, the extension header chain walked with its bound:
 * hop-by-hop options (Pad1, PadN, Router Alert, unknown options by
 * their two high bits), hop-by-hop only first, routing header type 0
 * (RFC 5095), fragments recognised. Each case a row run alone, then all
 * of them as one burst through the worker in list and single mode,
 * compared frame for frame and counter for counter.
 */
#include <string.h>

#include "unit_common.h"
#include "unit6.h"
#include "ip6/ip6_ext.h"

enum want {
	PASS,		/* InReceives only */
	HDR,		/* InHdrErrors, no ICMPv6 */
	TRUNC,		/* InTruncatedPkts */
	PARAM0,		/* InHdrErrors, parameter problem code 0 */
	PARAM1,		/* code 1 */
	PARAM2,		/* code 2 */
};

/* how a row spoils the default datagram */
enum spoil {
	NONE, SHORT, VERSION4, SRC_LOOPBACK, DST_LOOPBACK, SRC_MCAST,
	DST_MCAST_SCOPE0, DST_MCAST_SCOPE1, PLEN_LONG, PLEN_SHORT,
	HBH_PAD_RA, HBH_UNKNOWN_00, HBH_UNKNOWN_01, HBH_UNKNOWN_10,
	HBH_UNKNOWN_11, HBH_UNKNOWN_11_MCAST, HBH_RA_BAD_LEN,
	HBH_OPT_PAST_HEADER, HBH_NOT_FIRST, RH0_SEGLEFT, RH0_DONE,
	RH4_SEGLEFT, CHAIN_9, CHAIN_PAST_256, EXT_PAST_END, FRAG_FIRST,
	FRAG_LATER, DSTOPT_UNKNOWN_10,
};

static const struct {
	const char *name;
	enum spoil spoil;
	enum want want;
	uint32_t ptr;		/* the parameter problem's pointer */
} rows[] = {
	{ "plain", NONE, PASS, 0 },
	{ "short", SHORT, HDR, 0 },
	{ "version 4", VERSION4, HDR, 0 },
	{ "source ::1", SRC_LOOPBACK, HDR, 0 },
	{ "destination ::1", DST_LOOPBACK, HDR, 0 },
	{ "multicast source", SRC_MCAST, HDR, 0 },
	{ "multicast scope 0", DST_MCAST_SCOPE0, HDR, 0 },
	{ "multicast scope 1", DST_MCAST_SCOPE1, HDR, 0 },
	{ "payload length past the frame", PLEN_LONG, TRUNC, 0 },
	{ "payload length short: trimmed", PLEN_SHORT, PASS, 0 },
	{ "hop-by-hop PadN, Router Alert, Pad1", HBH_PAD_RA, PASS, 0 },
	{ "unknown option 00: skipped", HBH_UNKNOWN_00, PASS, 0 },
	{ "unknown option 01: discard", HBH_UNKNOWN_01, HDR, 0 },
	{ "unknown option 10: problem", HBH_UNKNOWN_10, PARAM2, 42 },
	{ "unknown option 11: problem", HBH_UNKNOWN_11, PARAM2, 42 },
	{ "unknown option 11 to a group", HBH_UNKNOWN_11_MCAST, HDR, 0 },
	{ "router alert of 3 bytes", HBH_RA_BAD_LEN, HDR, 0 },
	{ "option past its header", HBH_OPT_PAST_HEADER, HDR, 0 },
	{ "hop-by-hop not first", HBH_NOT_FIRST, PARAM1, 40 },
	{ "routing type 0, segments left", RH0_SEGLEFT, PARAM0, 42 },
	{ "routing type 0, none left", RH0_DONE, PASS, 0 },
	{ "routing type 4 in transit", RH4_SEGLEFT, PASS, 0 },
	{ "nine extension headers", CHAIN_9, HDR, 0 },
	{ "a chain past 256 bytes", CHAIN_PAST_256, HDR, 0 },
	{ "a header past the datagram", EXT_PAST_END, HDR, 0 },
	{ "first fragment", FRAG_FIRST, PASS, 0 },
	{ "later fragment", FRAG_LATER, PASS, 0 },
	{ "destination option 10 in transit", DSTOPT_UNKNOWN_10, PASS, 0 },
};

/* Row r's datagram (forwarded to FAR unless it says otherwise). */
static struct rte_mbuf *
row_mbuf(enum spoil s)
{
	uint8_t opt[64] = { 0 };
	uint8_t frame[UNIT_FRAME_MAX];
	struct unit6_pkt p;
	size_t len;
	int i;

	unit6_pkt_init(&p, UNIT6_FAR);
	switch (s) {
	case SRC_LOOPBACK: p.src = UNIT6([15] = 1); break;
	case DST_LOOPBACK: p.dst = UNIT6([15] = 1); break;
	case SRC_MCAST: p.src = UNIT6_ALL_NODES; break;
	case DST_MCAST_SCOPE0: p.dst = UNIT6(0xff, 0x00, [15] = 1); break;
	case DST_MCAST_SCOPE1: p.dst = UNIT6(0xff, 0x01, [15] = 1); break;
	case PLEN_LONG: p.plen_delta = 1; break;
	case PLEN_SHORT: p.trailer_len = 6; break;
	case HBH_PAD_RA:
		/* PadN(2) RA(2 bytes) Pad1 Pad1 : 2 + 4 + 4 + 2 = 12 */
		opt[2] = 1; opt[3] = 2;
		opt[6] = 5; opt[7] = 2;
		unit6_pkt_ext(&p, 0, opt, 16);
		break;
	case HBH_UNKNOWN_00: case HBH_UNKNOWN_01: case HBH_UNKNOWN_10:
	case HBH_UNKNOWN_11: case HBH_UNKNOWN_11_MCAST:
		opt[2] = s == HBH_UNKNOWN_00 ? 0x1e : s == HBH_UNKNOWN_01 ?
			 0x5e : s == HBH_UNKNOWN_10 ? 0x9e : 0xde;
		opt[3] = 4;
		if (s == HBH_UNKNOWN_11_MCAST)
			p.dst = UNIT6_ALL_NODES;
		unit6_pkt_ext(&p, 0, opt, 8);
		break;
	case HBH_RA_BAD_LEN:
		opt[2] = 5; opt[3] = 3;
		unit6_pkt_ext(&p, 0, opt, 8);
		break;
	case HBH_OPT_PAST_HEADER:
		opt[2] = 1; opt[3] = 5;	/* 2 + 5 past 6 bytes */
		unit6_pkt_ext(&p, 0, opt, 8);
		break;
	case HBH_NOT_FIRST:
		opt[2] = 1; opt[3] = 4;
		unit6_pkt_ext(&p, 60, opt, 8);
		unit6_pkt_ext(&p, 0, opt, 8);
		break;
	case RH0_SEGLEFT: case RH0_DONE: case RH4_SEGLEFT:
		opt[2] = s == RH4_SEGLEFT ? 4 : 0;
		opt[3] = s == RH0_DONE ? 0 : 1;
		unit6_pkt_ext(&p, 43, opt, 24);
		break;
	case CHAIN_9:
		opt[2] = 1; opt[3] = 4;
		for (i = 0; i < 9; i++)
			unit6_pkt_ext(&p, 60, opt, 8);
		break;
	case CHAIN_PAST_256:
		opt[2] = 1; opt[3] = 60;
		for (i = 0; i < 4; i++)
			unit6_pkt_ext(&p, 60, opt, 64);
		break;
	case EXT_PAST_END:
		opt[2] = 1; opt[3] = 4;
		unit6_pkt_ext(&p, 60, opt, 8);
		p.ext[1] = 40;	/* 328 bytes claimed */
		p.payload_len = 0;
		break;
	case FRAG_FIRST:
		opt[3] = 1;	/* offset 0, M */
		opt[4] = 0x12;
		unit6_pkt_ext(&p, 44, opt, 8);
		break;
	case FRAG_LATER:
		opt[2] = 0; opt[3] = 0xb0;	/* offset 22 words */
		opt[4] = 0x12;
		unit6_pkt_ext(&p, 44, opt, 8);
		break;
	case DSTOPT_UNKNOWN_10:
		opt[2] = 0x9e; opt[3] = 4;
		unit6_pkt_ext(&p, 60, opt, 8);
		break;
	default:
		break;
	}
	len = unit6_pkt_build(&p, frame, sizeof(frame));
	if (s == SHORT)
		len = UNIT_ETH_LEN + 39;
	if (s == VERSION4)
		frame[UNIT_ETH_LEN] = 0x45;
	return unit_mbuf_from_bytes(frame, len, p.port);
}

/* Send what the stage queued on icmp6_out, as the worker would. */
static void
icmp6_out_send(struct unit_fixture *f)
{
	if (f->worker->icmp6_out.n != 0)
		lsk_icmp6_output(f->worker);
	lsk_worker_flush(f->worker);
}

static void
test_rows(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int r;

	unit6_configure(f);
	for (r = 0; r < RTE_DIM(rows); r++) {
		struct lsk_list l = { .n = 0 };
		struct rte_mbuf *m = row_mbuf(rows[r].spoil);
		struct lsk_stats before = unit_stats(f), after;
		uint8_t orig[UNIT_FRAME_MAX];
		uint32_t orig_len = m->pkt_len - UNIT_ETH_LEN;

		print_message("row: %s\n", rows[r].name);
		memcpy(orig, rte_pktmbuf_mtod_offset(m, void *, UNIT_ETH_LEN),
		       orig_len);
		lsk_list_push(&l, m, 0);
		lsk_ip6_input(f->worker, &l);
		icmp6_out_send(f);
		after = unit_stats(f);
		assert_int_equal(after.ip6.InReceives - before.ip6.InReceives,
				 1);
		assert_int_equal(l.n, rows[r].want == PASS);
		assert_int_equal(after.ip6.InHdrErrors -
				 before.ip6.InHdrErrors,
				 rows[r].want == HDR || rows[r].want >= PARAM0);
		assert_int_equal(after.ip6.InTruncatedPkts -
				 before.ip6.InTruncatedPkts,
				 rows[r].want == TRUNC);
		if (rows[r].want >= PARAM0) {
			assert_int_equal(f->tx.n[UNIT_P0], 1);
			unit6_assert_error(f->tx.pkts[UNIT_P0][0],
				LSK_ICMP6_PARAM_PROB,
				(uint8_t)(rows[r].want - PARAM0), rows[r].ptr,
				&UNIT6_P0, &unit_a_mac, &unit_p0_mac, orig,
				orig_len);
		} else {
			assert_int_equal(unit_tx_count(f), 0);
		}
		if (l.n == 1 && rows[r].spoil == PLEN_SHORT)
			assert_int_equal(l.pkts[0]->pkt_len, orig_len - 6 +
					 UNIT_ETH_LEN);
		unit_list_free(&l);
		unit_tx_free(f);
		assert_int_equal(unit_pool_in_use(), f->in_use_start);
	}
}

/* Every row in one list: what passes stays in order, the rest is
 * counted. */
static void
test_one_list_keeps_order(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 };
	struct rte_mbuf *pass[RTE_DIM(rows)];
	unsigned int r, k = 0;

	unit6_configure(f);
	for (r = 0; r < RTE_DIM(rows); r++) {
		struct rte_mbuf *m = row_mbuf(rows[r].spoil);

		lsk_list_push(&l, m, r % 3 == 0 ? LSK_META_L2_BCAST : 0);
		if (rows[r].want == PASS)
			pass[k++] = m;
	}
	lsk_ip6_input(f->worker, &l);
	assert_int_equal(l.n, k);
	for (r = 0; r < k; r++)
		assert_ptr_equal(l.pkts[r], pass[r]);
	assert_int_equal(unit_stats(f).ip6.InReceives, RTE_DIM(rows));
	unit_list_free(&l);
	icmp6_out_send(f);
	unit_tx_free(f);
}

/* The rows through the worker, list and single mode: the same frames
 * (forwarded, and the errors) and counters. */
static void
test_list_equals_single(void **state)
{
	struct unit_fixture *a = *state, *b;
	struct rte_mbuf *pa[RTE_DIM(rows)], *pb[RTE_DIM(rows)];
	unsigned int r;

	b = unit_fixture_create(LSK_MODE_SINGLE);
	assert_non_null(b);
	unit6_configure(a);
	unit6_configure(b);
	for (r = 0; r < RTE_DIM(rows); r++) {
		pa[r] = row_mbuf(rows[r].spoil);
		pb[r] = row_mbuf(rows[r].spoil);
	}
	unit_input(a, pa, RTE_DIM(rows));
	unit_input(b, pb, RTE_DIM(rows));
	unit6_assert_same_frames(a, b);
	unit6_assert_same_counters(a, b);
	/* the datagrams that pass are forwarded to B, the errors go to A */
	assert_true(b->tx.n[UNIT_P1] >= 8);
	assert_int_equal(unit6_tx_icmp(b, UNIT_P0, LSK_ICMP6_PARAM_PROB, -1),
			 4);
	unit_tx_free(a);
	unit_tx_free(b);
	unit_fixture_destroy(b);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_rows),
		T(test_one_list_keeps_order),
		T(test_list_equals_single),
	};

	return cmocka_run_group_tests_name("ip6_input", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
