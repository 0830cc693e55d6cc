/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_local: what is addressed to us (any of our addresses, whatever
 * port it came in by; subnet and limited broadcasts) is split by
 * protocol as ip_protocol_deliver_rcu does: UDP and ICMP are delivered
 * (InDelivers, even when UDP then finds no listener), anything else is
 * InUnknownProtos and ICMP protocol unreachable (B15), but never about a
 * broadcast. Fragments are reassembled first and count once delivered.
 */
#include <string.h>

#include "unit_common.h"
#include "ip4/ip4.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

static uint8_t frame[UNIT_FRAME_MAX], piece[UNIT_FRAME_MAX];

/* A datagram from A on P0 to dst, protocol proto, into frame. */
static size_t
build(uint32_t dst, uint8_t proto, uint16_t payload)
{
	struct unit_pkt p;

	unit_pkt_init(&p, dst);
	p.proto = proto;
	p.payload_len = payload;
	return unit_pkt_build(&p, frame, sizeof(frame));
}

static void
input_frame(struct unit_fixture *f, size_t len)
{
	unit_input_one(f, unit_mbuf_exact(frame, len, len, UNIT_P0));
}

/* What a protocol unreachable about frame (len bytes) from src must be. */
static void
assert_prot_unreach(struct unit_fixture *f, uint32_t src, size_t len)
{
	const struct unit_icmp_want want = {
		.type = 3, .code = 2, .src = src,
		.dst_mac = &unit_a_mac, .src_mac = &unit_p0_mac,
	};

	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 2), 1);
	unit_assert_icmp_error(f->tx.pkts[UNIT_P0][0], &want, IP(frame),
			       len - UNIT_ETH_LEN);
	unit_tx_free(f);
}

/* UDP to each of our addresses, both in by P0: delivered, counted once. */
static void
test_udp_delivered(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, 0, 2000, NULL);
	struct lsk_udp_msg msg;
	struct lsk_stats st;

	input_frame(f, build(UNIT_P0_IP, IPPROTO_UDP, 100));
	input_frame(f, build(UNIT_P1_IP, IPPROTO_UDP, 100));
	assert_int_equal(lsk_udp_recv_burst(ep, &msg, 1), 1);
	assert_int_equal(msg.dst_addr, UNIT_P0_IP);
	assert_int_equal(msg.in_port, UNIT_P0);
	assert_int_equal(msg.len, 100);
	rte_pktmbuf_free(msg.mbuf);
	assert_int_equal(lsk_udp_recv_burst(ep, &msg, 1), 1);
	assert_int_equal(msg.dst_addr, UNIT_P1_IP);
	assert_int_equal(msg.in_port, UNIT_P0);
	rte_pktmbuf_free(msg.mbuf);
	assert_int_equal(unit_tx_count(f), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.InDelivers = 2 });
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 2);
	assert_int_equal(st.stages[LSK_STAGE_IP4_LOCAL].packets, 2);
	unit_assert_ip_balance(&st);
	unit_close(f, ep);
}

/* InDelivers counts what UDP took, even when it finds no listener (then
 * NoPorts and port unreachable). */
static void
test_udp_closed_port_is_delivered(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;

	input_frame(f, build(UNIT_P0_IP, IPPROTO_UDP, 100));
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 3), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.InDelivers = 1 });
	st = unit_stats(f);
	assert_int_equal(st.udp.NoPorts, 1);
	assert_int_equal(st.udp.InDatagrams, 0);
	assert_int_equal(st.icmp.OutDestUnreachs, 1);
}

/* ICMP to us is delivered: an echo is answered. */
static void
test_icmp_delivered(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	struct lsk_stats st;
	size_t len;

	unit_pkt_init(&p, UNIT_P1_IP);
	p.payload_len = 56;
	len = unit_icmp_build(&p, 8, 0, 0x00010001, frame, sizeof(frame));
	input_frame(f, len);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 0, 0), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.InDelivers = 1 });
	st = unit_stats(f);
	assert_int_equal(st.icmp.InMsgs, 1);
	assert_int_equal(st.icmp.InEchos, 1);
	assert_int_equal(st.icmp.OutEchoReps, 1);
}

/*
 * B15: a protocol with no handler (TCP, GRE, 253, 0): InUnknownProtos,
 * not InDelivers, and protocol unreachable from the address it was sent
 * to, quoting it.
 */
static void
test_unknown_protocol(void **state)
{
	static const uint8_t protos[] = { IPPROTO_TCP, 47, 253, 0 };
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	unsigned int i;
	size_t len;

	for (i = 0; i < RTE_DIM(protos); i++) {
		len = build(UNIT_P0_IP, protos[i], 40);
		input_frame(f, len);
		assert_prot_unreach(f, UNIT_P0_IP, len);
	}
	/* to P1's address, in by P0: answered from P1's address, via P0 */
	len = build(UNIT_P1_IP, 253, 1400);
	input_frame(f, len);
	assert_prot_unreach(f, UNIT_P1_IP, len);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 5,
		.InUnknownProtos = 5 });
	st = unit_stats(f);
	assert_int_equal(st.icmp.OutDestUnreachs, 5);
	assert_int_equal(st.icmp.OutMsgs, 5);
	unit_assert_ip_balance(&st);
}

/*
 * An unknown protocol to a broadcast (ours, limited), or in an L2
 * broadcast frame: counted InUnknownProtos, never answered (Linux's
 * icmp_send: no error about a broadcast).
 */
static void
test_unknown_protocol_broadcast(void **state)
{
	struct unit_fixture *f = *state;
	size_t len;

	input_frame(f, build(UNIT_IPV4(10, 0, 0, 255), 253, 40));
	input_frame(f, build(UINT32_MAX, 253, 40));
	len = build(UNIT_P0_IP, 253, 40);
	memcpy(frame, &unit_bcast_mac, RTE_ETHER_ADDR_LEN);
	input_frame(f, len);
	assert_int_equal(unit_tx_count(f), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 3,
		.InUnknownProtos = 3 });
	assert_int_equal(unit_stats(f).icmp.OutMsgs, 0);
}

/* UDP to the subnet and limited broadcasts reaches a wildcard listener. */
static void
test_udp_broadcast_delivered(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, 0, 2000, NULL);

	input_frame(f, build(UNIT_IPV4(10, 0, 0, 255), IPPROTO_UDP, 20));
	input_frame(f, build(UINT32_MAX, IPPROTO_UDP, 20));
	assert_int_equal(unit_recv_free(ep, 4), 2);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.InDelivers = 2 });
	unit_close(f, ep);
}

/*
 * A burst of every kind, in order: each goes its way and is counted
 * once; the answers leave in the order of what they answer.
 */
static void
test_mixed_burst(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *pkts[5];
	struct unit_pkt p;
	struct lsk_stats st;
	size_t len;

	pkts[0] = unit_mbuf_exact(frame, build(UNIT_P0_IP, IPPROTO_UDP, 10),
				  SIZE_MAX, UNIT_P0);
	pkts[1] = unit_mbuf_exact(frame, build(UNIT_P0_IP, 253, 10),
				  SIZE_MAX, UNIT_P0);
	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 8;
	len = unit_icmp_build(&p, 8, 0, 0x00020003, frame, sizeof(frame));
	pkts[2] = unit_mbuf_exact(frame, len, len, UNIT_P0);
	pkts[3] = unit_mbuf_exact(frame, build(UNIT_P0_IP, IPPROTO_UDP, 10),
				  SIZE_MAX, UNIT_P0);
	pkts[4] = unit_mbuf_exact(frame, build(UNIT_P0_IP, IPPROTO_TCP, 10),
				  SIZE_MAX, UNIT_P0);
	unit_input(f, pkts, 5);
	assert_int_equal(unit_recv_free(ep, 4), 2);
	assert_int_equal(f->tx.n[UNIT_P0], 3);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 2), 2);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 0, 0), 1);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 5,
		.InDelivers = 3, .InUnknownProtos = 2 });
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 2);
	assert_int_equal(st.icmp.InEchos, 1);
	unit_close(f, ep);
}

/*
 * The stage alone: UDP goes to udp and ICMP to icmp with their list
 * entries' metadata, an unknown protocol is answered (on icmp_out) and
 * freed, a fragment is held for reassembly; l is left empty.
 */
static void
test_stage_direct(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list l = { .n = 0 }, udp = { .n = 0 }, icmp = { .n = 0 };
	struct rte_mbuf *u, *c;
	struct unit_pkt p;
	size_t len;

	u = unit_mbuf_exact(frame, build(UNIT_P0_IP, IPPROTO_UDP, 10),
			    SIZE_MAX, UNIT_P0);
	lsk_list_push(&l, u, 7);
	lsk_list_push(&l, unit_mbuf_exact(frame, build(UNIT_P0_IP, 253, 10),
					  SIZE_MAX, UNIT_P0), 7);
	unit_pkt_init(&p, UNIT_P0_IP);
	len = unit_icmp_build(&p, 8, 0, 1, frame, sizeof(frame));
	c = unit_mbuf_exact(frame, len, len, UNIT_P0);
	lsk_list_push(&l, c, 9);
	len = build(UNIT_P0_IP, IPPROTO_UDP, 100);
	len = unit_frag_build(frame, 0, 64, true, piece, sizeof(piece));
	lsk_list_push(&l, unit_mbuf_exact(piece, len, len, UNIT_P0), 7);

	lsk_ip4_local(f->worker, &l, &udp, &icmp);
	assert_int_equal(l.n, 0);
	assert_int_equal(udp.n, 1);
	assert_ptr_equal(udp.pkts[0], u);
	assert_int_equal(udp.meta[0], 7);
	assert_int_equal(icmp.n, 1);
	assert_ptr_equal(icmp.pkts[0], c);
	assert_int_equal(icmp.meta[0], 9);
	assert_int_equal(f->worker->icmp_out.n, 1);
	unit_icmp_out_send(f);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 2), 1);
	unit_tx_free(f);
	unit_list_free(&udp);
	unit_list_free(&icmp);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InDelivers = 2,
		.InUnknownProtos = 1, .ReasmReqds = 1 });
}

/*
 * An unknown protocol in 8-byte pieces: reassembled first, then answered
 * once, quoting the datagram as it was before it was cut (the header of
 * the whole, no fragment bits), its bytes read across the pieces.
 */
static void
test_reassembled_unknown_protocol(void **state)
{
	struct unit_fixture *f = *state;
	const unsigned int n = RTE_LIBRTE_IP_FRAG_MAX_FRAG;
	size_t len, k;
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.proto = 253;
	p.df = false;
	p.payload_len = (uint16_t)(8 * n - 8);
	len = unit_pkt_build(&p, frame, sizeof(frame));
	for (k = n; k-- > 0;) {
		size_t fl = unit_frag_build(frame, 8 * k, 8, k != n - 1,
					    piece, sizeof(piece));

		unit_input_one(f, unit_mbuf_exact(piece, fl, fl, UNIT_P0));
		if (k != 0)
			assert_int_equal(unit_tx_count(f), 0);
	}
	assert_prot_unreach(f, UNIT_P0_IP, len);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = n,
		.ReasmReqds = n, .ReasmOKs = 1, .InUnknownProtos = 1 });
}

/* An echo request in pieces is answered once, its data intact. */
static void
test_reassembled_echo(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t r[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len, a, b;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.df = false;
	p.payload_len = 1200;
	len = unit_icmp_build(&p, 8, 0, 0x77770001, frame, sizeof(frame));
	a = unit_frag_build(frame, 0, 600, true, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, a, a, UNIT_P0));
	b = unit_frag_build(frame, 600, 608, false, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, b, b, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 0, 0), 1);
	assert_int_equal(unit_mbuf_bytes(f->tx.pkts[UNIT_P0][0], r, sizeof(r)),
			 len);
	assert_int_equal(get32(IP(r) + 12), UNIT_P0_IP);
	assert_int_equal(get32(IP(r) + 16), UNIT_A_IP);
	assert_int_equal(unit_ip4_hdr_sum(IP(r)), 0);
	assert_int_equal(fold(sum16(IP(r) + 20, len - UNIT_ETH_LEN - 20, 0)),
			 0xffff);
	assert_int_equal(get32(IP(r) + 24), 0x77770001);
	assert_memory_equal(IP(r) + 28, IP(frame) + 28, 1200);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.ReasmReqds = 2, .ReasmOKs = 1, .InDelivers = 1 });
}

/* A train of 8 (fraglist GRO) to us counts 8 deliveries, to a listener
 * or not (then 8 port unreachables). */
static void
test_train_counts_each(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *pkts[8];
	struct lsk_stats st;
	unsigned int i;

	unit_cmd(f, "gro fraglist flows 8 segs 8");
	for (i = 0; i < 8; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_P0_IP);
		p.id = (uint16_t)i;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 8);
	assert_int_equal(unit_recv_free(ep, 16), 8);
	for (i = 0; i < 8; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_P0_IP);
		p.dport = 2001;
		p.id = (uint16_t)i;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 8);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 3), 8);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 16,
		.InDelivers = 16 });
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 8);
	assert_int_equal(st.udp.NoPorts, 8);
	if (lsk_stack_mode(f->stack) == LSK_MODE_LIST)
		assert_int_equal(st.gro.Trains, 2);
	unit_close(f, ep);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)
/* the same test in single mode, under its own name */
#define TS(fn) { #fn "_single", fn, unit_setup_single, unit_teardown, NULL }

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_udp_delivered),
		TS(test_udp_delivered),
		T(test_udp_closed_port_is_delivered),
		T(test_icmp_delivered),
		T(test_unknown_protocol),
		TS(test_unknown_protocol),
		T(test_unknown_protocol_broadcast),
		T(test_udp_broadcast_delivered),
		T(test_mixed_burst),
		TS(test_mixed_burst),
		T(test_stage_direct),
		T(test_reassembled_unknown_protocol),
		TS(test_reassembled_unknown_protocol),
		T(test_reassembled_echo),
		T(test_train_counts_each),
		TS(test_train_counts_each),
	};

	return cmocka_run_group_tests_name("ip4_local", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
