/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd6_fast (ip6/fwd6_fast.c): the common forwarded IPv6 packet in two
 * passes. What it forwards, and what it hands on to the stages, must come
 * out exactly as the stages alone make it: every burst goes to a list
 * mode stack (the fast path on) and to a single mode one (the stages
 * alone, packet by packet); frames and counters must agree.
 */
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "unit6.h"
#include "unit_pair.h"

/* What ND holds dropped (counted in a throwaway). */
static void
nd_clear(struct unit_fixture *f)
{
	struct lsk_stats st;

	lsk_nd6_forget_all(f->stack->sh.nd6, &st);
}

static int
pair_setup(void **state)
{
	return pair_create(state, unit6_configure);
}

static int
pair_teardown(void **state)
{
	struct pair *pr = *state;

	pair_clear(pr);
	nd_clear(pr->a);
	nd_clear(pr->b);
	pair_release(pr);
	return 0;
}

static void
add6(struct frames *fr, const struct unit6_pkt *p)
{
	unsigned int i = frames_next(fr, p->port);

	fr->len[i] = unit6_pkt_build(p, fr->b[i], sizeof(fr->b[i]));
}

/* n datagrams from A to dst, their source ports from sport (each
 * frame told apart). */
static void
flow6(struct frames *fr, struct lsk_ip6_addr dst, unsigned int n,
      uint16_t sport)
{
	struct unit6_pkt p;
	unsigned int i;

	unit6_pkt_init(&p, dst);
	for (i = 0; i < n; i++) {
		p.sport = (uint16_t)(sport + i);
		add6(fr, &p);
	}
}

/* The burst to both; flushed. */
static void
pair_send(struct pair *pr, const struct frames *fr)
{
	pair_input(pr, fr);
	lsk_worker_flush(pr->a->worker);
	lsk_worker_flush(pr->b->worker);
}

/* Our own ICMPv6 (ND's solicitations) out of f's port taken out of
 * what it sent: the stages send them when they see the packet, the fast
 * path's forwarded ones may precede them (as ARP's requests, which
 * unit_assert_same_frames passes over). */
static void
strip_icmp6(struct unit_fixture *f, uint16_t port)
{
	unsigned int i, k = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		struct rte_mbuf *m = f->tx.pkts[port][i];
		const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

		if (m->data_len >= UNIT_ETH_LEN + 40 && b[12] == 0x86 &&
		    b[13] == 0xdd && b[UNIT_ETH_LEN + 6] == 58)
			rte_pktmbuf_free(m);
		else
			f->tx.pkts[port][k++] = m;
	}
	f->tx.n[port] = k;
}

/* Same frames, same counters; the fast path counted for the stages it
 * stands for (eth_input, ip6_input, ip6_route, ip6_forward). Returns
 * how many it took. */
static uint64_t
assert_same_as(const struct pair *pr, bool frames)
{
	const struct lsk_stats a = unit_stats(pr->a), b = unit_stats(pr->b);
	const uint64_t fast = a.stages[LSK_STAGE_FWD_FAST].packets +
			      a.stages[LSK_STAGE_FWD6_FAST].packets;
	unsigned int i;

	if (frames)
		unit_assert_same_frames(pr->a, pr->b);
	assert_memory_equal(&a.ip6, &b.ip6, sizeof(a.ip6));
	assert_memory_equal(&a.icmp6, &b.icmp6, sizeof(a.icmp6));
	assert_memory_equal(&a.nd, &b.nd, sizeof(a.nd));
	assert_memory_equal(&a.ip, &b.ip, sizeof(a.ip));
	assert_memory_equal(&a.eth, &b.eth, sizeof(a.eth));
	assert_memory_equal(a.ports, b.ports, sizeof(a.ports));
	assert_int_equal(b.stages[LSK_STAGE_FWD_FAST].packets, 0);
	assert_int_equal(b.stages[LSK_STAGE_FWD6_FAST].packets, 0);
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		uint64_t want = b.stages[i].packets;

		if (i == LSK_STAGE_FWD_FAST || i == LSK_STAGE_FWD6_FAST)
			continue;
		if (i == LSK_STAGE_ETH_INPUT || i == LSK_STAGE_IP6_INPUT ||
		    i == LSK_STAGE_IP6_ROUTE || i == LSK_STAGE_IP6_FORWARD ||
		    i == LSK_STAGE_IP4_INPUT || i == LSK_STAGE_IP4_ROUTE ||
		    i == LSK_STAGE_IP4_FORWARD)
			continue;	/* either family's fast path */
		assert_int_equal(a.stages[i].packets, want);
	}
	return fast;
}

static uint64_t
assert_same(const struct pair *pr)
{
	return assert_same_as(pr, true);
}

/* A burst of one flow: all forwarded by the fast path, byte for byte
 * the stages' (hop limit - 1, B's MAC from P1's). */
static void
test_one_flow_all_fast(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;

	memset(&fr, 0, sizeof(fr));
	flow6(&fr, UNIT6_FAR, 32, 1000);
	pair_send(pr, &fr);
	assert_int_equal(pr->a->tx.n[UNIT_P1], 32);
	assert_int_equal(assert_same(pr), 32);
}

/* Two next hops (B through the route, A onlink), interleaved. */
static void
test_next_hops(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct unit6_pkt p;
	unsigned int i;

	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 16; i++) {
		unit6_pkt_init(&p, (i & 1) ? UNIT6_FAR : UNIT6_B);
		if (i & 2) {	/* from B to A: onlink on P0 */
			p.port = UNIT_P1;
			p.dst_mac = unit_p1_mac;
			p.src_mac = unit_b_mac;
			p.src = UNIT6_B;
			p.dst = UNIT6_A;
		}
		p.sport = (uint16_t)i;
		add6(&fr, &p);
	}
	pair_send(pr, &fr);
	assert_same(pr);
}

/* What the fast path hands on, each in the middle of a flow: to us, hop
 * limit 1, too big, a neighbour not resolved (held, then dropped), an
 * extension header, a fragment, a tagged frame, a link-local source, no
 * route; each decided as the stages decide it, the others forwarded in
 * order. */
static void
test_handed_on(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct unit6_pkt p;
	unsigned int k;

	for (k = 0; k < 9; k++) {
		uint64_t fast;

		memset(&fr, 0, sizeof(fr));
		flow6(&fr, UNIT6_FAR, 4, 100);
		unit6_pkt_init(&p, UNIT6_FAR);
		p.sport = 7;
		switch (k) {
		case 0: p.dst = UNIT6_P1; break;
		case 1: p.hlim = 1; break;
		case 2: p.payload_len = 1600; break;
		case 3: p.dst = UNIT6_NOWHERE; p.dst.a[5] = 1;
			p.dst.a[15] = 0x42; break;	/* P1's, no neighbour */
		case 4: p.ext_nh = 60; p.ext_len = 8; p.ext_last = 0; break;
		case 5: p.ext_nh = 44; p.ext_len = 8; p.ext_last = 0;
			p.ext[3] = 1; break;	/* a fragment (more) */
		case 6: p.src = (struct lsk_ip6_addr)UNIT6_A_LL; break;
		case 7: p.dst = UNIT6_NOWHERE; break;
		default: p.trailer_len = 10; break;	/* padding: trimmed */
		}
		add6(&fr, &p);
		flow6(&fr, UNIT6_FAR, 4, 200);
		pair_send(pr, &fr);
		strip_icmp6(pr->a, UNIT_P1);
		strip_icmp6(pr->b, UNIT_P1);
		fast = assert_same(pr);
		assert_true(fast >= 4);
		unit_tx_free(pr->a);
		unit_tx_free(pr->b);
		nd_clear(pr->a);
		nd_clear(pr->b);
		unit6_neigh(pr->a, UNIT6_B, UNIT_P1, &unit_b_mac);
		unit6_neigh(pr->b, UNIT6_B, UNIT_P1, &unit_b_mac);
		unit6_neigh(pr->a, UNIT6_A, UNIT_P0, &unit_a_mac);
		unit6_neigh(pr->b, UNIT6_A, UNIT_P0, &unit_a_mac);
	}
}

/* port's frames of each family, a's and b's, the same in the same order
 * (all forwarded here: no frame of our own). */
static void
assert_family_order(const struct pair *pr, uint16_t port)
{
	unsigned int fam, i, j;

	assert_int_equal(pr->a->tx.n[port], pr->b->tx.n[port]);
	for (fam = 0; fam < 2; fam++) {
		const uint8_t t = fam ? 0xdd : 0x00;	/* 86dd, 0800 */

		for (i = 0, j = 0;; i++, j++) {
			const struct rte_mbuf *x, *y;

			while (i < pr->a->tx.n[port] && rte_pktmbuf_mtod(
				pr->a->tx.pkts[port][i], const uint8_t *)[13] != t)
				i++;
			while (j < pr->b->tx.n[port] && rte_pktmbuf_mtod(
				pr->b->tx.pkts[port][j], const uint8_t *)[13] != t)
				j++;
			if (i == pr->a->tx.n[port] || j == pr->b->tx.n[port]) {
				assert_int_equal(i, pr->a->tx.n[port]);
				assert_int_equal(j, pr->b->tx.n[port]);
				break;
			}
			x = pr->a->tx.pkts[port][i];
			y = pr->b->tx.pkts[port][j];
			assert_int_equal(x->pkt_len, y->pkt_len);
			assert_memory_equal(rte_pktmbuf_mtod(x, void *),
					    rte_pktmbuf_mtod(y, void *),
					    x->data_len);
		}
	}
}

/* Mixed bursts: IPv4 then IPv6, IPv6 then IPv4: each port's frames in
 * the order they came (the stages' alone, packet by packet). Interleaved,
 * the stages of list mode keep each family's order, not the order
 * between them (worker/worker_stages.c, worker_run_stages), with the fast
 * path or not: the counters agree, and the frames are checked per family.
 * Each family's fast path counts what it took under its own stage: the
 * burst's first frame says which runs. */
static void
test_mixed(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct lsk_stats before, after;
	struct unit_pkt p4;
	unsigned int i, order;

	unit_cmd(pr->a, "route add 10.8.0.0/16 via 10.0.1.1");
	unit_cmd(pr->b, "route add 10.8.0.0/16 via 10.0.1.1");
	unit_cmd(pr->a, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01");
	unit_cmd(pr->b, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01");
	for (order = 0; order < 3; order++) {
		memset(&fr, 0, sizeof(fr));
		unit_pkt_init(&p4, UNIT_IPV4(10, 8, 0, 9));
		p4.payload_len = 18;
		for (i = 0; i < 24; i++) {
			bool v6 = order == 0 ? i >= 12 : order == 1 ? i < 12 :
				  (i % 3) == 0;

			if (v6) {
				flow6(&fr, UNIT6_FAR, 1, (uint16_t)i);
			} else {
				p4.id = (uint16_t)i;
				frames_add(&fr, &p4);
			}
		}
		before = unit_stats(pr->a);
		pair_send(pr, &fr);
		assert_same_as(pr, order != 2);
		after = unit_stats(pr->a);
		/* IPv4 first: fwd_fast takes its 12, up to the first IPv6
		 * frame; IPv6 first: fwd6_fast takes its 12 (fwd_fast,
		 * called, takes none); interleaved: each takes its first */
		assert_int_equal(after.stages[LSK_STAGE_FWD_FAST].packets -
				 before.stages[LSK_STAGE_FWD_FAST].packets,
				 order == 0 ? 12 : 0);
		assert_int_equal(after.stages[LSK_STAGE_FWD6_FAST].packets -
				 before.stages[LSK_STAGE_FWD6_FAST].packets,
				 order == 1 ? 12 : order == 2 ? 1 : 0);
		assert_int_equal(after.stages[LSK_STAGE_FWD6_FAST].calls -
				 before.stages[LSK_STAGE_FWD6_FAST].calls,
				 order == 0 ? 0 : 1);
		if (order == 2)
			assert_family_order(pr, UNIT_P1);
		unit_tx_free(pr->a);
		unit_tx_free(pr->b);
	}
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, pair_setup, pair_teardown)
	const struct CMUnitTest tests[] = {
		T(test_one_flow_all_fast),
		T(test_next_hops),
		T(test_handed_on),
		T(test_mixed),
	};
#undef T

	return cmocka_run_group_tests_name("fwd6_fast", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
