/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_frag: our IPv6 datagrams over the egress MTU leave in fragments
 * (RFC 8200 4.5), through neighbour discovery: each the unfragmentable
 * part (the IPv6 header, a hop-by-hop header) with its last next header
 * naming the fragment header, a fragment header (the upper layer's next
 * header, the offset, M on all but the last, one id per datagram), a
 * piece of 8-byte units but the last, at most the MTU; together every
 * byte once, and lsk_ip6_reassemble makes the datagram of them again.
 * FragOKs, FragCreates.
 */
#include <string.h>

#include "unit_common.h"
#include "core/fwd6.h"
#include "core/shared.h"
#include "core/worker.h"
#include "ip6/ip6.h"
#include "ip6/nd6.h"

#define IP6_LEN 40
#define BIG (UNIT_ETH_LEN + 70000)

static const struct lsk_ip6_addr our6 = { { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 0xfe } };
static const struct lsk_ip6_addr a6 = { { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 0x01 } };

static uint8_t whole[BIG], got[BIG], back[BIG];

static int
setup(void **state)
{
	struct unit_fixture *f;
	struct lsk_stats st;
	int rc = unit_setup_list(state);

	if (rc != 0)
		return rc;
	f = *state;
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_address6_add(f->stack, &our6, 64, UNIT_P0), 0);
	assert_int_equal(lsk_nd6_set_static(unit_nd6(f), &a6, UNIT_P0,
					    &unit_a_mac, &st), 0);
	unit_worker_sync(f);
	return 0;
}

/* A UDP datagram from us to A of payload bytes, ext bytes of hop-by-hop
 * header first, as a frame into whole; returns its length. */
static size_t
datagram(size_t payload, size_t ext)
{
	uint8_t *ip = whole + UNIT_ETH_LEN, *u = ip + IP6_LEN + ext;
	size_t i, ulen = 8 + payload;

	memset(whole, 0, UNIT_ETH_LEN);
	put16(whole + 12, 0x86dd);
	memset(ip, 0, IP6_LEN);
	ip[0] = 0x60;
	put16(ip + 4, (uint16_t)(ext + ulen));
	ip[6] = ext ? 0 : IPPROTO_UDP;
	ip[7] = 64;
	memcpy(ip + 8, &our6, 16);
	memcpy(ip + 24, &a6, 16);
	if (ext) {
		memset(ip + IP6_LEN, 0, ext);
		ip[IP6_LEN] = IPPROTO_UDP;
		ip[IP6_LEN + 1] = (uint8_t)(ext / 8 - 1);
		ip[IP6_LEN + 2] = 1;
		ip[IP6_LEN + 3] = (uint8_t)(ext - 4);
	}
	put16(u, 2000);
	put16(u + 2, 1000);
	put16(u + 4, (uint16_t)ulen);
	put16(u + 6, 0xbeef);
	for (i = 0; i < payload; i++)
		u[8 + i] = (uint8_t)(i * 13 + 1);
	return UNIT_ETH_LEN + IP6_LEN + ext + ulen;
}

/* whole (len bytes) as ip6_output hands it: data at the IPv6 header. */
static struct rte_mbuf *
out_mbuf(size_t len)
{
	struct rte_mbuf *m = len <= UNIT_FRAME_MAX ?
		unit_mbuf_from_bytes(whole, len, UNIT_P0) :
		unit_mbuf_big(whole, len, UNIT_P0);

	assert_non_null(m);
	rte_pktmbuf_adj(m, UNIT_ETH_LEN);
	return m;
}

static void
fragment(struct unit_fixture *f, size_t len, uint16_t mtu)
{
	const struct lsk_nexthop6 nh = { .type = LSK_NH_FORWARD, .onlink = 1,
					 .iface = UNIT_P0, .mtu = mtu };

	lsk_ip6_fragment(f->worker, out_mbuf(len), &nh, &a6);
	lsk_worker_flush(f->worker);
}

/*
 * The fragments sent on P0 are whole's datagram (len bytes of frame,
 * ext of unfragmentable part) cut for mtu; returns the id. Each is then
 * put through lsk_ip6_reassemble, which must give the datagram back.
 */
static uint32_t
assert_fragments(struct unit_fixture *f, size_t len, size_t ext,
		 uint16_t mtu, unsigned int want)
{
	const uint8_t *wip = whole + UNIT_ETH_LEN;
	size_t frag_len = len - UNIT_ETH_LEN - IP6_LEN - ext, next = 0;
	struct rte_mbuf *frags[UNIT_TX_CAP], *r = NULL;
	unsigned int i, n = 0;
	uint32_t id = 0;

	/* the fragments, to A; neighbour discovery's own messages (DAD
	 * for our new addresses) go to multicast MACs */
	for (i = 0; i < f->tx.n[UNIT_P0]; i++) {
		struct rte_mbuf *m = f->tx.pkts[UNIT_P0][i];

		if (memcmp(rte_pktmbuf_mtod(m, uint8_t *), &unit_a_mac, 6) == 0)
			frags[n++] = m;
		else
			rte_pktmbuf_free(m);
	}
	f->tx.n[UNIT_P0] = 0;
	unit_tx_free(f);	/* DAD's on the other port */
	assert_int_equal(n, want);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = frags[i];
		size_t fl = unit_mbuf_bytes(m, got, sizeof(got));
		const uint8_t *ip = got + UNIT_ETH_LEN, *fh = ip + IP6_LEN + ext;
		size_t piece = get16(ip + 4) - ext - 8;
		bool last = i == n - 1;

		assert_int_equal(fl, UNIT_ETH_LEN + IP6_LEN + get16(ip + 4));
		assert_true(fl - UNIT_ETH_LEN <= mtu);
		assert_memory_equal(got, &unit_a_mac, 6);
		assert_memory_equal(got + 6, &unit_p0_mac, 6);
		assert_int_equal(get16(got + 12), 0x86dd);
		assert_memory_equal(ip, wip, 4);		/* version, flow */
		assert_int_equal(ip[7], wip[7]);
		assert_memory_equal(ip + 8, wip + 8, 32);
		if (ext) {
			assert_int_equal(ip[6], 0);
			assert_int_equal(ip[IP6_LEN], 44);
			assert_memory_equal(ip + IP6_LEN + 1, wip + IP6_LEN + 1,
					    ext - 1);
		} else {
			assert_int_equal(ip[6], 44);
		}
		assert_int_equal(fh[0], IPPROTO_UDP);
		assert_int_equal(get16(fh + 2) & 0xfff8, next);
		assert_int_equal(get16(fh + 2) & 1, !last);
		if (i == 0)
			id = get32(fh + 4);
		assert_int_equal(get32(fh + 4), id);
		if (!last) {
			assert_int_equal(piece % 8, 0);
			assert_int_equal(piece, (mtu - IP6_LEN - ext - 8) & ~7u);
		}
		assert_memory_equal(fh + 8, wip + IP6_LEN + ext + next, piece);
		next += piece;
		/* back through reassembly, as a receiver would */
		rte_pktmbuf_adj(m, UNIT_ETH_LEN);
		r = lsk_ip6_reassemble(f->worker, m, 0,
				       (uint16_t)(IP6_LEN + ext));
		assert_true(last ? r != NULL : r == NULL);
	}
	assert_int_equal(next, frag_len);
	assert_int_equal(unit_mbuf_bytes(r, back, sizeof(back)),
			 len - UNIT_ETH_LEN);
	assert_memory_equal(back, wip, len - UNIT_ETH_LEN);
	rte_pktmbuf_free(r);
	return id;
}

/* 3000 bytes over 1280: three fragments, FragOKs 1, FragCreates 3. */
static void
test_frag6_three(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(3000 - 8, 0);

	fragment(f, len, 1280);
	assert_fragments(f, len, 0, 1280, 3);
	assert_int_equal(unit_stats(f).ip6.FragOKs, 1);
	assert_int_equal(unit_stats(f).ip6.FragCreates, 3);
	assert_int_equal(unit_stats(f).ip6.ReasmOKs, 1);
}

/* The hop-by-hop header is in every fragment, naming the fragment
 * header; a datagram in segments; each datagram its own id. */
static void
test_frag6_unfragmentable_and_segments(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(9000, 16);
	uint32_t id1, id2;

	fragment(f, len, 1500);
	id1 = assert_fragments(f, len, 16, 1500, 7);
	len = datagram(1300, 0);
	fragment(f, len, 1280);
	id2 = assert_fragments(f, len, 0, 1280, 2);
	assert_int_not_equal(id1, id2);
	assert_int_equal(unit_stats(f).ip6.FragOKs, 2);
	assert_int_equal(unit_stats(f).ip6.FragCreates, 9);
}

/* The largest UDP datagram over the smallest IPv6 MTU. */
static void
test_frag6_largest(void **state)
{
	struct unit_fixture *f = *state;
	size_t len = datagram(65527 - 8, 0);

	fragment(f, len, 1280);
	assert_fragments(f, len, 0, 1280, (65527 + 1231) / 1232);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_frag6_three),
		T(test_frag6_unfragmentable_and_segments),
		T(test_frag6_largest),
	};

	return cmocka_run_group_tests_name("ip6_frag", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
