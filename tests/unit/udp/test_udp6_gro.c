/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp6_gro: trains of UDP over IPv6 form under IPv4's rules (one flow:
 * addresses, ports, hop limit, traffic class and flow label, no
 * extension header, one segment size but for the last) and do not form
 * across what breaks them (another flow, a longer datagram, an
 * extension header, a fragment, another hop limit, a bad checksum);
 * through the worker, what leaves is byte for byte what came in (hop
 * limit lowered, the next hop's MACs), in order, with GRO on as off; a
 * train over the MTU goes as its datagrams; a train to a local endpoint
 * is delivered as its datagrams; the gro counters; the run pass before
 * eth_input makes the same trains.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "unit_common.h"
#include "../ip6/unit6.h"
#include "core/worker.h"
#include "udp/gro.h"
#include "udp/udp.h"

#define MAXN 32

static int
gro6_setup(void **state)
{
	struct unit_fixture *f;

	if (unit_setup_list(state) < 0)
		return -1;
	f = *state;
	unit_cmd(f, "gro fraglist flows 64 segs 64");
	unit6_configure(f);
	return 0;
}

/* Datagram tag k of p: its first payload byte k, its checksum fixed. */
static size_t
frame_of(const struct unit6_pkt *p, uint8_t k, uint8_t *b)
{
	size_t len = unit6_pkt_build(p, b, UNIT_FRAME_MAX);
	uint8_t *ip = b + UNIT_ETH_LEN;
	uint8_t *u = ip + 40 + p->ext_len;
	size_t l4 = len - p->trailer_len - UNIT_ETH_LEN - 40 - p->ext_len;
	uint32_t sum;
	uint16_t ck;

	if (p->proto != 17)
		return len;
	u[l4 - 1] = k;
	put16(u + 6, 0);
	sum = sum16(ip + 8, 32, 0) + (uint32_t)l4 + 17;
	ck = (uint16_t)~fold(sum16(u, l4, sum));
	put16(u + 6, ck == 0 ? 0xffff : ck);
	return len;
}

/* The frames of a case, kept to compare with what leaves. */
struct burst {
	unsigned int n;
	size_t len[MAXN];
	uint8_t b[MAXN][UNIT_FRAME_MAX];
};

static void
burst_add(struct burst *bu, const struct unit6_pkt *p)
{
	bu->len[bu->n] = frame_of(p, (uint8_t)(bu->n + 1), bu->b[bu->n]);
	bu->n++;
}

/* The tag of a datagram in a list or on the wire: its last byte (by
 * its payload length, so past extension headers, before padding). */
static unsigned int
tag_of(const struct rte_mbuf *m)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

	return b[UNIT_ETH_LEN + 40 + get16(b + UNIT_ETH_LEN + 4) - 1];
}

/* Run udp6_gro alone on the burst: "1-2-3 4" (trains of tags). */
static const char *
gro_run(struct unit_fixture *f, const struct burst *bu)
{
	static char desc[1024];
	struct lsk_list l = { .n = 0 };
	size_t at = 0;
	unsigned int i, k;

	desc[0] = '\0';
	for (i = 0; i < bu->n; i++)
		lsk_list_push(&l, unit_mbuf_from_bytes(bu->b[i], bu->len[i],
						       UNIT_P0), 0);
	lsk_udp6_gro(f->worker, &l);
	for (i = 0; i < l.n; i++) {
		uint32_t count = lsk_meta_count(l.meta[i]);
		struct rte_mbuf *m = l.pkts[i];

		for (k = 0; k < count; k++) {
			assert_non_null(m);
			at += (size_t)snprintf(desc + at, sizeof(desc) - at,
				"%s%u", k ? "-" : i ? " " : "", tag_of(m));
			if (k + 1 < count)
				m = *lsk_train_next(m);
		}
		if (count > 1)
			assert_null(*lsk_train_next(m));
		lsk_entry_free(l.pkts[i], l.meta[i]);
	}
	return desc;
}

/* Through the worker: what left P1 is each of the burst's datagrams
 * once, in order within its flow (its ports: flows may pass each other
 * as Linux's GRO lets them), each the frame that came in with the hop
 * limit one less and the MACs of the hop to B. */
static void
assert_forwarded_all(struct unit_fixture *f, const struct burst *bu)
{
	unsigned int i, j, seen[MAXN] = { 0 };

	assert_int_equal(f->tx.n[UNIT_P1], bu->n);
	for (i = 0; i < bu->n; i++) {
		const struct rte_mbuf *m = f->tx.pkts[UNIT_P1][i];
		const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
		unsigned int t = tag_of(m);
		const uint8_t *in;

		assert_in_range(t, 1, bu->n);
		assert_int_equal(seen[t - 1]++, 0);
		in = bu->b[t - 1];
		/* no later datagram of its flow left before it */
		for (j = 0; j < i; j++) {
			const uint8_t *e = rte_pktmbuf_mtod(
				f->tx.pkts[UNIT_P1][j], const uint8_t *);

			if (memcmp(e + UNIT_ETH_LEN + 6, b + UNIT_ETH_LEN + 6,
				   2 + 32) == 0 &&
			    memcmp(e + UNIT_ETH_LEN + 40, b + UNIT_ETH_LEN + 40,
				   4) == 0)
				assert_true(tag_of(f->tx.pkts[UNIT_P1][j]) < t);
		}
		assert_int_equal(m->pkt_len, bu->len[t - 1]);
		assert_int_equal(m->nb_segs, 1);
		assert_memory_equal(b, &unit_b_mac, 6);
		assert_memory_equal(b + 6, &unit_p1_mac, 6);
		assert_memory_equal(b + 12, in + 12, 2 + 7);
		assert_int_equal(b[UNIT_ETH_LEN + 7], in[UNIT_ETH_LEN + 7] - 1);
		assert_memory_equal(b + UNIT_ETH_LEN + 8, in + UNIT_ETH_LEN + 8,
				    bu->len[t - 1] - UNIT_ETH_LEN - 8);
	}
}

static void
input_burst(struct unit_fixture *f, const struct burst *bu)
{
	struct rte_mbuf *pkts[MAXN];
	unsigned int i;

	for (i = 0; i < bu->n; i++)
		pkts[i] = unit_mbuf_from_bytes(bu->b[i], bu->len[i], UNIT_P0);
	unit_input(f, pkts, (uint16_t)bu->n);
}

/* One flow makes one train; a shorter last joins; a lone one stays. */
static void
test_one_flow(void **state)
{
	struct unit_fixture *f = *state;
	struct unit6_pkt p;
	struct burst bu = { .n = 0 };
	struct lsk_stats st;
	unsigned int i;

	unit6_pkt_init(&p, UNIT6_FAR);
	for (i = 0; i < 5; i++)
		burst_add(&bu, &p);
	p.payload_len = 40;
	burst_add(&bu, &p);
	assert_string_equal(gro_run(f, &bu), "1-2-3-4-5-6");
	st = unit_stats(f);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(st.gro.Merged, 5);
	bu.n = 1;
	assert_string_equal(gro_run(f, &bu), "1");
	assert_int_equal(unit_pool_in_use(), 0);
}

/* What breaks a train or keeps two apart; per-flow order holds. */
static void
test_breakers(void **state)
{
	struct unit_fixture *f = *state;
	const uint8_t dopt[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };
	const uint8_t frag[8] = { 0, 0, 0, 0, 0, 0, 0, 9 };
	struct unit6_pkt p, q;
	struct burst bu;

	unit6_pkt_init(&p, UNIT6_FAR);
	/* another flow between: two trains, each in order */
	bu.n = 0;
	burst_add(&bu, &p);
	q = p;
	q.sport = 1001;
	burst_add(&bu, &q);
	burst_add(&bu, &p);
	burst_add(&bu, &q);
	assert_string_equal(gro_run(f, &bu), "1-3 2-4");
	/* a longer datagram does not join: it starts a train */
	bu.n = 0;
	burst_add(&bu, &p);
	q = p;
	q.payload_len = 200;
	burst_add(&bu, &q);
	burst_add(&bu, &q);
	assert_string_equal(gro_run(f, &bu), "1 2-3");
	/* a shorter one closes the train */
	bu.n = 0;
	burst_add(&bu, &p);
	q.payload_len = 50;
	burst_add(&bu, &q);
	burst_add(&bu, &p);
	burst_add(&bu, &p);
	assert_string_equal(gro_run(f, &bu), "1-2 3-4");
	/* another hop limit, traffic class or flow label: apart */
	bu.n = 0;
	burst_add(&bu, &p);
	q = p;
	q.hlim = 63;
	burst_add(&bu, &q);
	burst_add(&bu, &p);
	assert_string_equal(gro_run(f, &bu), "1 2 3");
	/* an extension header, a fragment: alone, and the train before
	 * them closed (so nothing overtakes them) */
	bu.n = 0;
	burst_add(&bu, &p);
	q = p;
	unit6_pkt_ext(&q, 60, dopt, sizeof(dopt));
	burst_add(&bu, &q);
	burst_add(&bu, &p);
	burst_add(&bu, &p);
	q = p;
	unit6_pkt_ext(&q, 44, frag, sizeof(frag));
	burst_add(&bu, &q);
	burst_add(&bu, &p);
	assert_string_equal(gro_run(f, &bu), "1 2 3-4 5 6");
	/* a bad checksum: alone, the train closed before it */
	bu.n = 0;
	burst_add(&bu, &p);
	burst_add(&bu, &p);
	burst_add(&bu, &p);
	bu.b[bu.n - 1][UNIT_ETH_LEN + 40 + 6] ^= 0x5a;
	burst_add(&bu, &p);
	burst_add(&bu, &p);
	assert_string_equal(gro_run(f, &bu), "1-2 3 4-5");
	/* padding after the datagram: never in a train */
	bu.n = 0;
	burst_add(&bu, &p);
	q = p;
	q.trailer_len = 4;
	burst_add(&bu, &q);
	burst_add(&bu, &q);
	assert_string_equal(gro_run(f, &bu), "1 2 3");
	assert_int_equal(unit_pool_in_use(), 0);
}

/* segs bounds a train */
static void
test_segs_limit(void **state)
{
	struct unit_fixture *f = *state;
	struct unit6_pkt p;
	struct burst bu = { .n = 0 };
	unsigned int i;

	unit_cmd(f, "gro fraglist flows 64 segs 3");
	unit6_pkt_init(&p, UNIT6_FAR);
	for (i = 0; i < 7; i++)
		burst_add(&bu, &p);
	assert_string_equal(gro_run(f, &bu), "1-2-3 4-5-6 7");
}

/* Through the worker, GRO on and off: the same frames leave, in order,
 * byte for byte; the counters per datagram. */
static void
test_forwarded_exact(void **state)
{
	struct unit_fixture *f = *state;
	const uint8_t dopt[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };
	struct unit6_pkt p, q;
	struct burst bu = { .n = 0 };
	struct lsk_stats st;
	unsigned int i, round;

	unit6_pkt_init(&p, UNIT6_FAR);
	q = p;
	q.sport = 7;
	for (i = 0; i < 20; i++)
		burst_add(&bu, i % 5 == 4 ? &q : &p);
	q = p;
	unit6_pkt_ext(&q, 60, dopt, sizeof(dopt));
	burst_add(&bu, &q);
	burst_add(&bu, &p);
	for (round = 0; round < 2; round++) {
		if (round == 1)
			unit_cmd(f, "gro off");
		input_burst(f, &bu);
		assert_forwarded_all(f, &bu);
		unit_tx_free(f);
	}
	st = unit_stats(f);
	assert_int_equal(st.gro.Trains, 2);
	assert_int_equal(st.gro.Merged, 16 + 2);
	assert_int_equal(st.ip6.InReceives, 2 * bu.n);
	assert_int_equal(st.ip6.OutForwDatagrams, 2 * bu.n);
	assert_int_equal(unit_pool_in_use(), 0);
}

/* As input_burst, each mbuf with the checksum flags a NIC set: flags,
 * or flags_at for tag bad (0: none). */
static void
input_burst_flagged(struct unit_fixture *f, const struct burst *bu,
		    uint64_t flags, unsigned int bad, uint64_t flags_at)
{
	struct rte_mbuf *pkts[MAXN];
	unsigned int i;

	for (i = 0; i < bu->n; i++) {
		pkts[i] = unit_mbuf_from_bytes(bu->b[i], bu->len[i], UNIT_P0);
		pkts[i]->ol_flags |= i + 1 == bad ? flags_at : flags;
	}
	unit_input(f, pkts, (uint16_t)bu->n);
}

/*
 * The run pass (udp/udp4_gro_rx.c) on IPv6, the NIC's checksum flags
 * set: a run of one flow is one train before eth_input, a run whose flow
 * has a train open joins it, a bad checksum or an extension header ends
 * its flow's train; what leaves is GRO off's, byte for byte, in order,
 * with the counters GRO's table alone gives (the same trains). Then
 * `segs 4` cuts a run of 10 as the table would: 4, 4, 2.
 */
static void
test_run_pass_exact(void **state)
{
	struct unit_fixture *f = *state;
	const uint8_t dopt[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };
	const uint64_t good = RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	struct unit6_pkt p, q, x;
	struct burst bu = { .n = 0 }, bs = { .n = 0 };
	struct lsk_stats st;
	unsigned int i, round;

	unit6_pkt_init(&p, UNIT6_FAR);
	q = p;
	q.sport = 7;
	x = p;
	unit6_pkt_ext(&x, 60, dopt, sizeof(dopt));
	for (i = 1; i <= 16; i++)
		burst_add(&bu, i == 7 || i == 11 ? &q : i == 15 ? &x : &p);
	for (round = 0; round < 2; round++) {
		if (round == 1)
			unit_cmd(f, "gro off");
		/* tag 12 flagged bad: its own frame, its flow's train ends */
		input_burst_flagged(f, &bu, good, 12,
				    RTE_MBUF_F_RX_L4_CKSUM_BAD);
		if (round == 0) {	/* tags 1-6 one run */
			assert_int_equal(f->worker->udpw->gro.rx_members[0],
					 5);
			assert_false(f->worker->udpw->gro.no_runs);
		}
		assert_forwarded_all(f, &bu);
		unit_tx_free(f);
	}
	st = unit_stats(f);
	/* 1-6 8-10, 7 11, 13-14 */
	assert_int_equal(st.gro.Trains, 3);
	assert_int_equal(st.gro.Merged, 8 + 1 + 1);
	assert_int_equal(st.ip6.InReceives, 2 * bu.n);
	assert_int_equal(st.ip6.OutForwDatagrams, 2 * bu.n);

	unit_cmd(f, "gro fraglist flows 64 segs 4");
	for (i = 0; i < 10; i++)
		burst_add(&bs, &p);
	input_burst_flagged(f, &bs, good, 0, 0);
	assert_forwarded_all(f, &bs);
	unit_tx_free(f);
	st = unit_stats(f);
	assert_int_equal(st.gro.Trains, 3 + 3);
	assert_int_equal(st.gro.Merged, 10 + 3 + 3 + 1);
	assert_int_equal(unit_pool_in_use(), 0);
}

/* A train over P1's MTU: each datagram its own way, the short last one
 * forwarded, each too big one answered (IPv4's rule). */
static void
test_train_over_mtu(void **state)
{
	struct unit_fixture *f = *state;
	struct unit6_pkt p;
	struct burst bu = { .n = 0 };
	struct lsk_stats st;

	unit6_pkt_init(&p, UNIT6_FAR);
	p.payload_len = 1500 - 48 + 10;
	burst_add(&bu, &p);
	burst_add(&bu, &p);
	p.payload_len = 100;
	burst_add(&bu, &p);
	assert_string_equal(gro_run(f, &bu), "1-2-3");
	input_burst(f, &bu);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_int_equal(tag_of(f->tx.pkts[UNIT_P1][0]), 3);
	assert_int_equal(f->tx.n[UNIT_P0], 2);
	st = unit_stats(f);
	assert_int_equal(st.ip6.InTooBigErrors, 2);
	assert_int_equal(st.ip6.OutForwDatagrams, 1);
	assert_int_equal(st.icmp6.OutPktTooBigs, 2);
	unit_tx_free(f);
	assert_int_equal(unit_pool_in_use(), 0);
}

/* A train to a local endpoint: its datagrams, in order. */
static void
test_local_delivery(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_addr a = { .family = AF_INET6, .v6 = UNIT6_P0 };
	struct lsk_udp_ep *ep = NULL;
	struct lsk_udp_msg msg[MAXN];
	struct unit6_pkt p;
	struct burst bu = { .n = 0 };
	struct lsk_stats st;
	unsigned int i;
	int n;

	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_udp_bind_addr(f->stack, &a, 2000, NULL, &ep), 0);
	unit_worker_sync(f);
	unit6_pkt_init(&p, UNIT6_P0);
	for (i = 0; i < 6; i++)
		burst_add(&bu, &p);
	input_burst(f, &bu);
	st = unit_stats(f);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(st.udp6.InDatagrams, 6);
	n = lsk_udp_recv_burst(ep, msg, MAXN);
	assert_int_equal(n, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(msg[i].len, 100);
		assert_int_equal(((const uint8_t *)msg[i].payload)[99], i + 1);
		rte_pktmbuf_free(msg[i].mbuf);
	}
	unit_close(f, ep);
	assert_int_equal(unit_pool_in_use(), 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, gro6_setup, unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_one_flow),
		T(test_breakers),
		T(test_segs_limit),
		T(test_forwarded_exact),
		T(test_run_pass_exact),
		T(test_train_over_mtu),
		T(test_local_delivery),
	};

	return cmocka_run_group_tests_name("udp6_gro", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
