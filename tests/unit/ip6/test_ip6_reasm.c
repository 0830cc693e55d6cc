/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_reasm: IPv6 fragments addressed to us reassembled as Linux's
 * net/ipv6/reassembly.c does (lsk_ip6_reassemble called as ip6_local
 * calls it: data at the IPv6 header, the fragment header's offset): in
 * any order, the fragment header taken out of the whole and the header
 * before it naming what followed; an atomic fragment alone (RFC 6946);
 * an overlapping piece drops the datagram (RFC 5722), an exact
 * duplicate only itself; M set with a length not a multiple of 8, or an
 * end past 65535, answered with parameter problem; a datagram whose 60 s
 * are up dropped (ReasmTimeout) with time exceeded code 1 when its first
 * piece had come; the table bounded under a flood.
 */
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "unit_common.h"
#include "core/worker.h"
#include "ip6/ip6.h"
#include "ip6/nd6.h"
#include "core/shared.h"

#define IP6_LEN 40
#define BIG (UNIT_ETH_LEN + 70000)

/* our address on P0 and the peer A's, 2001:db8::fe and 2001:db8::1 */
static const struct lsk_ip6_addr our6 = { { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 0xfe } };
static const struct lsk_ip6_addr a6 = { { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 0x01 } };

static uint8_t whole[BIG], piece[BIG], got[BIG];

static void
setup_addr(struct unit_fixture *f)
{
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_address6_add(f->stack, &our6, 64, UNIT_P0), 0);
	unit_worker_sync(f);
}

static int
setup(void **state)
{
	int rc = unit_setup_list(state);

	if (rc == 0)
		setup_addr(*state);
	return rc;
}

/*
 * The frame of a UDP datagram from A to us with payload bytes of
 * payload, ext bytes of hop-by-hop options before the UDP header (0 or
 * a multiple of 8), into whole; returns its length.
 */
static size_t
datagram(size_t payload, size_t ext)
{
	uint8_t *ip = whole + UNIT_ETH_LEN, *u = ip + IP6_LEN + ext;
	size_t i, ulen = 8 + payload;

	memcpy(whole, &unit_p0_mac, 6);
	memcpy(whole + 6, &unit_a_mac, 6);
	put16(whole + 12, 0x86dd);
	memset(ip, 0, IP6_LEN);
	ip[0] = 0x60;
	put16(ip + 4, (uint16_t)(ext + ulen));
	ip[6] = ext ? 0 : IPPROTO_UDP;
	ip[7] = 64;
	memcpy(ip + 8, &a6, 16);
	memcpy(ip + 24, &our6, 16);
	if (ext) {
		memset(ip + IP6_LEN, 0, ext);
		ip[IP6_LEN] = IPPROTO_UDP;
		ip[IP6_LEN + 1] = (uint8_t)(ext / 8 - 1);
		ip[IP6_LEN + 2] = 1;	/* PadN filling the rest */
		ip[IP6_LEN + 3] = (uint8_t)(ext - 4);
	}
	put16(u, 1000);
	put16(u + 2, 2000);
	put16(u + 4, (uint16_t)ulen);
	put16(u + 6, 0x1234);		/* not checked here */
	for (i = 0; i < payload; i++)
		u[8 + i] = (uint8_t)(i * 7 + 3);
	return UNIT_ETH_LEN + IP6_LEN + ext + ulen;
}

/*
 * The piece [ofs, ofs + len) of whole's fragmentable part (behind its
 * ext bytes of unfragmentable headers) as an mbuf with data at its IPv6
 * header, as ip6_local hands it: the unfragmentable part, a fragment
 * header of id, the piece.
 */
static struct rte_mbuf *
frag(size_t ext, size_t ofs, size_t len, bool mf, uint32_t id)
{
	const uint8_t *wip = whole + UNIT_ETH_LEN;
	uint8_t *ip = piece + UNIT_ETH_LEN, *fh = ip + IP6_LEN + ext;
	struct rte_mbuf *m;
	size_t n;

	memcpy(piece, whole, UNIT_ETH_LEN + IP6_LEN + ext);
	/* the header before the fragment header names it */
	if (ext)
		fh[-(ptrdiff_t)ext] = 44;
	else
		ip[6] = 44;
	fh[0] = ext ? wip[IP6_LEN] : wip[6];
	fh[1] = 0;
	put16(fh + 2, (uint16_t)(ofs | (mf ? 1 : 0)));
	put32(fh + 4, id);
	memcpy(fh + 8, wip + IP6_LEN + ext + ofs, len);
	put16(ip + 4, (uint16_t)(ext + 8 + len));
	n = UNIT_ETH_LEN + IP6_LEN + ext + 8 + len;
	m = n <= UNIT_FRAME_MAX ? unit_mbuf_from_bytes(piece, n, UNIT_P0) :
	    unit_mbuf_big(piece, n, UNIT_P0);
	assert_non_null(m);
	rte_pktmbuf_adj(m, UNIT_ETH_LEN);
	return m;
}

static struct rte_mbuf *
reasm(struct unit_fixture *f, size_t ext, size_t ofs, size_t len, bool mf,
      uint32_t id)
{
	return lsk_ip6_reassemble(f->worker, frag(ext, ofs, len, mf, id), 0,
				  (uint16_t)(IP6_LEN + ext));
}

/* m (data at the IPv6 header, the Ethernet header in front of it) is
 * the datagram in whole, len bytes with its frame, byte for byte. */
static void
assert_whole(struct rte_mbuf *m, size_t len)
{
	assert_non_null(m);
	assert_non_null(rte_pktmbuf_prepend(m, UNIT_ETH_LEN));
	assert_int_equal(unit_mbuf_bytes(m, got, sizeof(got)), len);
	assert_memory_equal(got, whole, len);
	rte_pktmbuf_free(m);
}

static struct lsk_ip6_stats
ip6(const struct unit_fixture *f)
{
	return unit_stats(f).ip6;
}

/* 3000 bytes in three pieces, in order and out of it: the datagram
 * whole, its fragment header gone. */
static void
test_reasm6_in_any_order(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(3000 - 8, 0);

	assert_null(reasm(f, 0, 0, 1232, true, 7));
	assert_null(reasm(f, 0, 1232, 1232, true, 7));
	assert_whole(reasm(f, 0, 2464, 3000 - 2464, false, 7), len);
	assert_null(reasm(f, 0, 2464, 3000 - 2464, false, 8));
	assert_null(reasm(f, 0, 0, 1232, true, 8));
	assert_whole(reasm(f, 0, 1232, 1232, true, 8), len);
	assert_int_equal(ip6(f).ReasmReqds, 6);
	assert_int_equal(ip6(f).ReasmOKs, 2);
	assert_int_equal(ip6(f).ReasmFails, 0);
	assert_int_equal(lsk_reasm6_held(f->worker), 0);
}

/* A hop-by-hop header before the fragment header stays, naming UDP
 * again; the payload length counts it. */
static void
test_reasm6_unfragmentable_part(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(1500, 8);

	assert_null(reasm(f, 8, 0, 800, true, 9));
	assert_whole(reasm(f, 8, 800, 1508 - 800, false, 9), len);
	assert_int_equal(ip6(f).ReasmOKs, 1);
}

/* RFC 6946: offset 0 and M clear is the datagram alone, even while
 * pieces of the same id wait, which it leaves alone. */
static void
test_reasm6_atomic_fragment(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(600, 0);

	assert_null(reasm(f, 0, 0, 304, true, 10));
	assert_whole(reasm(f, 0, 0, 608, false, 10), len);
	assert_int_equal(lsk_reasm6_held(f->worker), 1);
	assert_whole(reasm(f, 0, 304, 304, false, 10), len);
	assert_int_equal(ip6(f).ReasmReqds, 3);
	assert_int_equal(ip6(f).ReasmOKs, 2);
}

/* RFC 5722: an overlapping piece drops the datagram (ReasmFails); an
 * exact duplicate only itself (ReasmDuplicates), the datagram kept. */
static void
test_reasm6_overlap_and_duplicate(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(1000, 0);

	assert_null(reasm(f, 0, 0, 504, true, 11));
	assert_null(reasm(f, 0, 0, 504, true, 11));	/* duplicate */
	assert_int_equal(ip6(f).ReasmDuplicates, 1);
	assert_int_equal(lsk_reasm6_held(f->worker), 1);
	assert_null(reasm(f, 0, 496, 512, false, 11));	/* overlaps */
	assert_int_equal(ip6(f).ReasmFails, 1);
	assert_int_equal(lsk_reasm6_held(f->worker), 0);
	/* the rest starts a datagram of its own, which completes */
	assert_null(reasm(f, 0, 504, 504, false, 11));
	assert_whole(reasm(f, 0, 0, 504, true, 11), len);
	assert_int_equal(ip6(f).ReasmOKs, 1);
	assert_int_equal(ip6(f).ReasmFails, 1);
}

/* The ICMPv6 error queued: type, code, the pointer or MTU word, the
 * quoted header's addresses; then freed. */
static void
assert_icmp6(struct unit_fixture *f, uint8_t type, uint8_t code,
	     uint32_t word)
{
	struct lsk_list *l = &f->worker->icmp6_out;
	const uint8_t *ip;

	assert_int_equal(l->n, 1);
	assert_int_equal(unit_mbuf_bytes(l->pkts[0], got, sizeof(got)) >
			 IP6_LEN + 8 + IP6_LEN, true);
	/* data at the IPv6 header (ip6/ip6.h, lsk_ip6_output_burst) */
	ip = got;
	assert_int_equal(ip[0] >> 4, 6);
	assert_int_equal(ip[6], 58);
	assert_memory_equal(ip + 8, &our6, 16);
	assert_memory_equal(ip + 24, &a6, 16);
	assert_int_equal(ip[IP6_LEN], type);
	assert_int_equal(ip[IP6_LEN + 1], code);
	assert_int_equal(get32(ip + IP6_LEN + 4), word);
	assert_memory_equal(ip + IP6_LEN + 8 + 8, &a6, 16);
	unit_list_free(l);
}

/* M set, length no multiple of 8: parameter problem at the payload
 * length (4); an end past 65535: at the fragment offset (42); both
 * InHdrErrors, nothing held. */
static void
test_reasm6_bad_pieces_answered(void **state)
{
	struct unit_fixture *f = *state;

	datagram(1000, 0);
	assert_null(reasm(f, 0, 0, 500, true, 12));
	assert_icmp6(f, LSK_ICMP6_PARAM_PROB, LSK_ICMP6_HDR_FIELD, 4);
	assert_null(reasm(f, 0, 65528, 16, false, 12));
	assert_icmp6(f, LSK_ICMP6_PARAM_PROB, LSK_ICMP6_HDR_FIELD, 42);
	assert_int_equal(ip6(f).InHdrErrors, 2);
	assert_int_equal(lsk_reasm6_held(f->worker), 0);
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Its time up (250 ms here), a datagram whose first piece came is
 * dropped (ReasmTimeout, ReasmFails) with time exceeded code 1 quoting
 * that piece; one with later pieces only, silently. */
static void
test_reasm6_timeout(void **state)
{
	struct unit_fixture *f = *state;

	lsk_reasm6_timeout_set(f->worker, rte_get_tsc_hz() / 4);
	datagram(1000, 0);
	assert_null(reasm(f, 0, 0, 504, true, 13));
	sleep_ms(600);
	lsk_reasm6_expire(f->worker);
	assert_int_equal(ip6(f).ReasmTimeout, 1);
	assert_int_equal(ip6(f).ReasmFails, 1);
	assert_int_equal(lsk_reasm6_held(f->worker), 0);
	assert_icmp6(f, LSK_ICMP6_TIME_EXCEEDED, LSK_ICMP6_EXC_FRAGTIME, 0);
	assert_null(reasm(f, 0, 504, 504, false, 13));
	sleep_ms(600);
	lsk_reasm6_expire(f->worker);
	assert_int_equal(ip6(f).ReasmTimeout, 2);
	assert_int_equal(f->worker->icmp6_out.n, 0);
}

/* The 60 s of Linux's IPV6_FRAG_TIMEOUT: a piece is still held a
 * moment later, and the worker's next expiry is about 60 s away. */
static void
test_reasm6_sixty_seconds(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t now = rte_rdtsc(), hz = rte_get_tsc_hz();

	datagram(1000, 0);
	assert_null(reasm(f, 0, 0, 504, true, 14));
	assert_true(f->worker->ip6w->reasm_expires > now + 59 * hz);
	assert_true(f->worker->ip6w->reasm_expires < now + 61 * hz);
	lsk_reasm6_flush(f->worker);
	assert_int_equal(lsk_reasm6_held(f->worker), 0);
	assert_int_equal(f->worker->ip6w->reasm_expires, UINT64_MAX);
}

/* Pieces of many datagrams that never complete: what is held stays
 * within LSK_REASM_HELD_MAX, the oldest going (ReasmFails each), and a
 * real datagram after them still completes. */
static void
test_reasm6_flood_bounded(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(100, 0);
	uint32_t id;

	/* 200 datagrams of 16 pieces each, none complete: 3200 pieces */
	for (id = 0; id < 3200; id++) {
		assert_null(reasm(f, 0, 8 + 16 * (id % 16), 8, true,
				  100 + id / 16));
		assert_true(lsk_reasm6_held(f->worker) <= LSK_REASM_HELD_MAX);
	}
	assert_true(lsk_reasm6_held(f->worker) > LSK_REASM_HELD_MAX - 16);
	assert_true(ip6(f).ReasmFails > 0);
	assert_null(reasm(f, 0, 0, 56, true, 99999));
	assert_whole(reasm(f, 0, 56, 52, false, 99999), len);
	lsk_reasm6_flush(f->worker);
	assert_int_equal(lsk_reasm6_held(f->worker), 0);
}

/*
 * The case in IPv6: an echo request of 3072 bytes of data in
 * three fragments, reassembled into more than an mbuf holds, is answered
 * (icmp6_input in segments), and the reply, over P0's MTU, leaves in
 * fragments (ip6_output, ip6_frag) that reassemble to the echo reply.
 */
static void
test_reasm6_large_ping_answered(void **state)
{
	static uint8_t rep[BIG];
	struct unit_fixture *f = *state;
	uint8_t *ip = whole + UNIT_ETH_LEN, *ih = ip + IP6_LEN;
	struct lsk_list l = { .n = 0 };
	struct rte_mbuf *m = NULL;
	struct lsk_stats st;
	size_t total = 0;
	unsigned int n = 0, k;
	uint32_t sum;

	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_nd6_set_static(unit_nd6(f), &a6, UNIT_P0,
					    &unit_a_mac, &st), 0);
	unit_worker_sync(f);
	/* an echo request: the datagram builder's frame, ICMPv6 in it */
	datagram(3072, 0);
	ip[6] = 58;
	ih[0] = LSK_ICMP6_ECHO_REQUEST;
	ih[1] = 0;
	put16(ih + 2, 0);
	put32(ih + 4, 0x77770003);
	sum = sum16(ip + 8, 32, 58 + 8 + 3072);
	put16(ih + 2, (uint16_t)~fold(sum16(ih, 8 + 3072, sum)));
	for (k = 0; k < 3; k++) {
		size_t ofs = 1232 * k;

		m = reasm(f, 0, ofs, RTE_MIN((size_t)1232, 3080 - ofs),
			  k != 2, 21);
		assert_true(k == 2 ? m != NULL : m == NULL);
	}
	assert_true(m->nb_segs > 1);
	/* as ip6_local hands it on: a frame, the ICMPv6 header at 40 */
	assert_non_null(rte_pktmbuf_prepend(m, UNIT_ETH_LEN));
	lsk_list_push(&l, m, IP6_LEN);
	lsk_icmp6_input(f->worker, &l);
	st = unit_stats(f);
	assert_int_equal(st.icmp6.InErrors, 0);
	assert_int_equal(st.icmp6.InEchos, 1);
	assert_int_equal(f->worker->icmp6_out.n, 1);
	lsk_icmp6_output(f->worker);
	lsk_worker_flush(f->worker);
	for (k = 0; k < f->tx.n[UNIT_P0]; k++) {
		const uint8_t *fip = got + UNIT_ETH_LEN, *fh = fip + IP6_LEN;
		size_t fl = unit_mbuf_bytes(f->tx.pkts[UNIT_P0][k], got,
					    sizeof(got)), piece;

		if (memcmp(got, &unit_a_mac, 6) != 0)
			continue;	/* DAD's */
		n++;
		assert_true(fl <= UNIT_ETH_LEN + 1500);
		assert_int_equal(fip[6], 44);
		assert_int_equal(fh[0], 58);
		assert_memory_equal(fip + 8, &our6, 16);
		assert_memory_equal(fip + 24, &a6, 16);
		piece = get16(fip + 4) - 8;
		assert_int_equal(get16(fh + 2) & 0xfff8, total);
		memcpy(rep + total, fh + 8, piece);
		total += piece;
	}
	unit_tx_free(f);
	assert_int_equal(n, 3);
	assert_int_equal(total, 8 + 3072);
	assert_int_equal(rep[0], LSK_ICMP6_ECHO_REPLY);
	assert_memory_equal(rep + 4, ih + 4, 4 + 3072);
	/* the reply's checksum over the whole, from us to A */
	sum = sum16(&our6.a[0], 16, 0);
	sum = sum16(&a6.a[0], 16, sum);
	sum += 58 + (uint32_t)total;
	assert_int_equal(fold(sum16(rep, total, sum)), 0xffff);
	assert_int_equal(unit_stats(f).ip6.FragOKs, 1);
	assert_int_equal(unit_stats(f).icmp6.OutEchoReplies, 1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_reasm6_in_any_order),
		T(test_reasm6_unfragmentable_part),
		T(test_reasm6_atomic_fragment),
		T(test_reasm6_overlap_and_duplicate),
		T(test_reasm6_bad_pieces_answered),
		T(test_reasm6_timeout),
		T(test_reasm6_sixty_seconds),
		T(test_reasm6_flood_bounded),
		T(test_reasm6_large_ping_answered),
	};

	return cmocka_run_group_tests_name("ip6_reasm", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
