/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_input: which frames are ours (port MAC, broadcast, all-hosts group),
 * the ethertype and VLAN demux, and the eth counters of every drop
 * (Linux cases A1-A9, docs/configuration.md "What happens to a packet").
 */
#include <string.h>

#include "unit_common.h"
#include "l2/l2.h"

/* Run eth_input alone on the frames; the IPv4 it keeps lands in out,
 * ARP in arp when given (else it is freed). */
static void
eth_run_arp(struct unit_fixture *f, struct rte_mbuf **pkts, uint16_t n,
	    struct lsk_list *out, struct lsk_list *arp)
{
	struct lsk_list scratch, ip6;
	uint16_t done = 0;

	out->n = 0;
	scratch.n = 0;
	ip6.n = 0;
	/* eth_input stops at ARP following IPv4 (the worker runs the IPv4
	 * it has first): call it again for the rest, as the worker does */
	while (done < n) {
		struct lsk_list round;
		struct lsk_list *next[LSK_ETH_NEXT_COUNT] = {
			[LSK_ETH_NEXT_IP4] = &round,
			[LSK_ETH_NEXT_ARP] = arp ? arp : &scratch,
			[LSK_ETH_NEXT_IP6] = &ip6,
		};
		uint32_t i;

		round.n = 0;
		done += lsk_eth_input(f->worker, pkts + done, n - done, NULL,
				      next);
		for (i = 0; i < round.n; i++)
			lsk_list_push(out, round.pkts[i], round.meta[i]);
	}
	unit_list_free(&scratch);
	unit_list_free(&ip6);
}

static void
eth_run(struct unit_fixture *f, struct rte_mbuf **pkts, uint16_t n,
	struct lsk_list *out)
{
	eth_run_arp(f, pkts, n, out, NULL);
}

/* One frame through eth_input: returns whether it was kept (and frees it). */
static bool
eth_keeps(struct unit_fixture *f, struct rte_mbuf *m, uint32_t *meta)
{
	struct lsk_list out;
	bool kept;

	eth_run(f, &m, 1, &out);
	kept = out.n == 1;
	if (kept) {
		assert_ptr_equal(out.pkts[0], m);
		if (meta != NULL)
			*meta = out.meta[0];
	}
	unit_list_free(&out);
	return kept;
}

static struct rte_mbuf *
frame_to_mac(const struct rte_ether_addr *dst_mac, uint16_t port)
{
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.dst_mac = *dst_mac;
	p.port = port;
	return unit_pkt_mbuf(&p);
}

/* A frame with the given ethertype and 46 bytes of zeros after it. */
static struct rte_mbuf *
frame_with_type(uint16_t type)
{
	uint8_t b[60];

	memset(b, 0, sizeof(b));
	memcpy(b, &unit_p0_mac, 6);
	memcpy(b + 6, &unit_a_mac, 6);
	b[12] = (uint8_t)(type >> 8);
	b[13] = (uint8_t)type;
	return unit_mbuf_from_bytes(b, sizeof(b), UNIT_P0);
}

/* The default frame with an 802.1Q tag (TCI) inserted after the MACs. */
static size_t
tagged_frame(uint16_t tci, uint16_t inner_type, uint8_t *b,
	     uint8_t *untagged, size_t *untagged_len)
{
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 100;
	len = unit_pkt_build(&p, untagged, UNIT_FRAME_MAX);
	untagged[12] = (uint8_t)(inner_type >> 8);
	untagged[13] = (uint8_t)inner_type;
	memcpy(b, untagged, 12);
	b[12] = 0x81;
	b[13] = 0x00;
	b[14] = (uint8_t)(tci >> 8);
	b[15] = (uint8_t)tci;
	memcpy(b + 16, untagged + 12, len - 12);
	*untagged_len = len;
	return len + 4;
}

/* A1: a frame to the port's MAC is ours, not flagged broadcast. */
static void
test_unicast_to_port_mac(void **state)
{
	struct unit_fixture *f = *state;
	uint32_t meta = ~0u;
	struct lsk_stats st;

	assert_true(eth_keeps(f, frame_to_mac(&unit_p0_mac, UNIT_P0), &meta));
	assert_int_equal(meta & LSK_META_L2_BCAST, 0);
	/* the same on P1 with P1's MAC */
	assert_true(eth_keeps(f, frame_to_mac(&unit_p1_mac, UNIT_P1), &meta));
	assert_int_equal(meta & LSK_META_L2_BCAST, 0);

	st = unit_stats(f);
	assert_int_equal(st.eth.InFrames, 2);
	assert_int_equal(st.ports[0].rx, 1);
	assert_int_equal(st.ports[1].rx, 1);
	assert_int_equal(st.eth.NotForUs + st.eth.Runts + st.eth.UnknownType +
			 st.eth.UnknownVlan, 0);
}

/* A3, A5: broadcast and the all-hosts group are ours, flagged L2_BCAST. */
static void
test_broadcast_and_all_hosts(void **state)
{
	struct unit_fixture *f = *state;
	uint32_t meta = 0;

	assert_true(eth_keeps(f, frame_to_mac(&unit_bcast_mac, UNIT_P0),
			      &meta));
	assert_true(meta & LSK_META_L2_BCAST);
	meta = 0;
	assert_true(eth_keeps(f, frame_to_mac(&unit_allhosts_mac, UNIT_P1),
			      &meta));
	assert_true(meta & LSK_META_L2_BCAST);
	assert_int_equal(unit_stats(f).eth.NotForUs, 0);
}

/* A2: foreign unicast, another port's MAC, unjoined multicast: NotForUs,
 * and no IP counter moves. */
static void
test_not_for_us(void **state)
{
	static const struct rte_ether_addr foreign = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x99, 0x99 } };
	static const struct rte_ether_addr other_group = {
		.addr_bytes = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x02 } };
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];
	struct lsk_stats st;

	pkts[0] = frame_to_mac(&foreign, UNIT_P0);
	pkts[1] = frame_to_mac(&unit_p1_mac, UNIT_P0);	/* P1's MAC on P0 */
	pkts[2] = frame_to_mac(&other_group, UNIT_P0);
	unit_input(f, pkts, 3);

	st = unit_stats(f);
	assert_int_equal(st.eth.InFrames, 3);
	assert_int_equal(st.eth.NotForUs, 3);
	assert_int_equal(st.ports[0].rx, 3);
	assert_int_equal(st.ip.InReceives, 0);
	assert_int_equal(f->tx.calls, 0);
}

/* A frame from a port the stack does not have is not for us. */
static void
test_unknown_port(void **state)
{
	struct unit_fixture *f = *state;

	assert_false(eth_keeps(f, frame_to_mac(&unit_p0_mac, 5), NULL));
	assert_int_equal(unit_stats(f).eth.NotForUs, 1);
}

/* A PMD that parsed Ethernet + IPv4 is trusted for the type. */
static void
test_pmd_packet_type(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m = frame_to_mac(&unit_p0_mac, UNIT_P0);

	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4;
	assert_true(eth_keeps(f, m, NULL));
	/* the MAC test still comes first */
	m = frame_to_mac(&unit_a_mac, UNIT_P0);
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4;
	assert_false(eth_keeps(f, m, NULL));
	assert_int_equal(unit_stats(f).eth.NotForUs, 1);
}

/* Runts: shorter than an Ethernet header. A whole header is enough (no
 * 60-byte minimum: virtual devices do not pad). */
static void
test_runts_and_short_frames(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 0;		/* 42-byte frame */
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_int_equal(len, 42);

	assert_false(eth_keeps(f, unit_mbuf_from_bytes(b, 0, UNIT_P0), NULL));
	assert_false(eth_keeps(f, unit_mbuf_from_bytes(b, 13, UNIT_P0), NULL));
	assert_true(eth_keeps(f, unit_mbuf_from_bytes(b, 14, UNIT_P0), NULL));
	assert_true(eth_keeps(f, unit_mbuf_from_bytes(b, len, UNIT_P0), NULL));
	assert_int_equal(unit_stats(f).eth.Runts, 2);

	/* the 42-byte datagram is delivered end to end */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_stats(f).ip.InDelivers, 1);
}

/* ARP goes to arp_input, in order, beside the IPv4 list. */
static void
test_arp_split(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];
	struct lsk_list out, arp;
	struct lsk_list *next[LSK_ETH_NEXT_COUNT] = {
		[LSK_ETH_NEXT_IP4] = &out, [LSK_ETH_NEXT_ARP] = &arp,
		[LSK_ETH_NEXT_IP6] = NULL,	/* none comes */
	};

	pkts[0] = frame_with_type(RTE_ETHER_TYPE_ARP);
	pkts[1] = frame_to_mac(&unit_p0_mac, UNIT_P0);
	pkts[2] = frame_with_type(RTE_ETHER_TYPE_ARP);
	arp.n = 0;
	/* one call ends the list at the ARP that follows IPv4 */
	out.n = 0;
	assert_int_equal(lsk_eth_input(f->worker, pkts, 3, NULL, next), 2);
	assert_int_equal(out.n, 1);
	assert_int_equal(arp.n, 1);
	assert_int_equal(lsk_eth_input(f->worker, pkts + 2, 1, NULL, next), 0);
	out.n = 0;
	assert_int_equal(lsk_eth_input(f->worker, pkts + 2, 1, NULL, next), 1);
	out.pkts[0] = pkts[1];
	out.n = 1;
	assert_int_equal(out.n, 1);
	assert_ptr_equal(out.pkts[0], pkts[1]);
	assert_int_equal(arp.n, 2);
	assert_ptr_equal(arp.pkts[0], pkts[0]);
	assert_ptr_equal(arp.pkts[1], pkts[2]);
	assert_int_equal(unit_stats(f).eth.UnknownType, 0);
	unit_list_free(&out);
	unit_list_free(&arp);
}

/* A6, A7: unknown ethertypes and 802.3 lengths. */
static void
test_unknown_ethertypes(void **state)
{
	static const uint16_t types[] = {
		0x88b5, 0x0040, 0x05dc, RTE_ETHER_TYPE_QINQ,
	};
	struct unit_fixture *f = *state;
	unsigned int i;

	for (i = 0; i < RTE_DIM(types); i++)
		assert_false(eth_keeps(f, frame_with_type(types[i]), NULL));
	assert_int_equal(unit_stats(f).eth.UnknownType, RTE_DIM(types));
	assert_int_equal(unit_stats(f).ip.InReceives, 0);
}

/*
 * IPv6 (0x86dd) to its own list, tagged or not, to the port's MAC or a
 * 33:33 group MAC (flagged as an L2 multicast: ip6_route decides the
 * group); a 33:33 MAC on anything but IPv6 is not for us.
 */
static void
test_ip6_demux(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list ip4 = { .n = 0 }, arp = { .n = 0 }, ip6 = { .n = 0 };
	struct lsk_list *next[LSK_ETH_NEXT_COUNT] = {
		[LSK_ETH_NEXT_IP4] = &ip4, [LSK_ETH_NEXT_ARP] = &arp,
		[LSK_ETH_NEXT_IP6] = &ip6,
	};
	static const struct rte_ether_addr group = {
		.addr_bytes = { 0x33, 0x33, 0xff, 0, 0, 0xfe } };
	uint8_t b[UNIT_FRAME_MAX], plain[UNIT_FRAME_MAX];
	struct rte_mbuf *pkts[5];
	size_t plain_len, len;
	struct lsk_stats st;

	pkts[0] = frame_with_type(RTE_ETHER_TYPE_IPV6);
	pkts[1] = frame_to_mac(&unit_p0_mac, UNIT_P0);
	pkts[2] = frame_with_type(RTE_ETHER_TYPE_IPV6);
	rte_pktmbuf_mtod(pkts[2], struct rte_ether_hdr *)->dst_addr = group;
	pkts[3] = frame_to_mac(&group, UNIT_P0);	/* IPv4 to a 33:33 MAC */
	len = tagged_frame(0, RTE_ETHER_TYPE_IPV6, b, plain, &plain_len);
	pkts[4] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	assert_int_equal(lsk_eth_input(f->worker, pkts, 5, NULL, next), 5);
	assert_int_equal(ip4.n, 1);
	assert_ptr_equal(ip4.pkts[0], pkts[1]);
	assert_int_equal(ip6.n, 3);
	assert_ptr_equal(ip6.pkts[0], pkts[0]);
	assert_ptr_equal(ip6.pkts[1], pkts[2]);
	assert_ptr_equal(ip6.pkts[2], pkts[4]);
	assert_int_equal(ip6.meta[0] & LSK_META_L2_BCAST, 0);
	assert_true(ip6.meta[1] & LSK_META_L2_BCAST);
	/* the priority tag stripped */
	assert_int_equal(pkts[4]->pkt_len, plain_len);
	assert_int_equal(get16(rte_pktmbuf_mtod(pkts[4], uint8_t *) + 12),
			 RTE_ETHER_TYPE_IPV6);
	st = unit_stats(f);
	assert_int_equal(st.eth.InFrames, 5);
	assert_int_equal(st.eth.NotForUs, 1);
	assert_int_equal(st.eth.UnknownType, 0);
	unit_list_free(&ip4);
	unit_list_free(&ip6);
}

/* A8: a tag with a VLAN we do not have: UnknownVlan. */
static void
test_unknown_vlan(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX], plain[UNIT_FRAME_MAX];
	size_t plain_len, len;

	len = tagged_frame(100, RTE_ETHER_TYPE_IPV4, b, plain, &plain_len);
	assert_false(eth_keeps(f, unit_mbuf_from_bytes(b, len, UNIT_P0),
			       NULL));
	/* PCP and DEI bits do not make VID 100 a priority tag */
	len = tagged_frame(0xf064, RTE_ETHER_TYPE_IPV4, b, plain, &plain_len);
	assert_false(eth_keeps(f, unit_mbuf_from_bytes(b, len, UNIT_P0),
			       NULL));
	assert_int_equal(unit_stats(f).eth.UnknownVlan, 2);
}

/* A9: a priority tag (VID 0) is removed; the frame then reads byte for
 * byte as the untagged one, and is delivered. */
static void
test_priority_tag_stripped(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX], plain[UNIT_FRAME_MAX];
	size_t plain_len, len;
	struct lsk_list out;
	struct rte_mbuf *m;

	len = tagged_frame(0xa000 /* PCP 5, VID 0 */, RTE_ETHER_TYPE_IPV4,
			   b, plain, &plain_len);
	m = unit_mbuf_from_bytes(b, len, UNIT_P0);
	eth_run(f, &m, 1, &out);
	assert_int_equal(out.n, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(m), plain_len);
	assert_int_equal(rte_pktmbuf_data_len(m), plain_len);
	assert_memory_equal(rte_pktmbuf_mtod(m, void *), plain, plain_len);
	unit_list_free(&out);

	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_stats(f).ip.InDelivers, 1);
}

/* A priority tag around something unknown: UnknownType. */
static void
test_priority_tag_non_ip(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX], plain[UNIT_FRAME_MAX];
	size_t plain_len, len;

	len = tagged_frame(0, 0x88b5, b, plain, &plain_len);
	assert_false(eth_keeps(f, unit_mbuf_from_bytes(b, len, UNIT_P0),
			       NULL));
	assert_int_equal(unit_stats(f).eth.UnknownType, 1);
}

/* A tag cut short (16 bytes): dropped with one eth drop counter. */
static void
test_truncated_tag(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX], plain[UNIT_FRAME_MAX];
	size_t plain_len;
	struct lsk_stats st;

	tagged_frame(0, RTE_ETHER_TYPE_IPV4, b, plain, &plain_len);
	assert_false(eth_keeps(f, unit_mbuf_from_bytes(b, 16, UNIT_P0),
			       NULL));
	st = unit_stats(f);
	assert_int_equal(st.eth.InFrames, 1);
	assert_int_equal(st.eth.NotForUs + st.eth.Runts + st.eth.UnknownType +
			 st.eth.UnknownVlan, 1);
}

/* A12, A14: drops leave the kept frames in arrival order, meta beside. */
static void
test_order_kept_across_drops(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[6], *keep[3];
	struct lsk_list out;
	uint8_t b[8] = { 0 };
	struct lsk_stats st;

	pkts[0] = keep[0] = frame_to_mac(&unit_p0_mac, UNIT_P0);
	pkts[1] = frame_with_type(0x88b5);
	pkts[2] = keep[1] = frame_to_mac(&unit_bcast_mac, UNIT_P0);
	pkts[3] = unit_mbuf_from_bytes(b, sizeof(b), UNIT_P0);
	pkts[4] = keep[2] = frame_to_mac(&unit_p1_mac, UNIT_P1);
	pkts[5] = frame_to_mac(&unit_a_mac, UNIT_P0);

	eth_run(f, pkts, 6, &out);
	assert_int_equal(out.n, 3);
	assert_ptr_equal(out.pkts[0], keep[0]);
	assert_ptr_equal(out.pkts[1], keep[1]);
	assert_ptr_equal(out.pkts[2], keep[2]);
	assert_int_equal(out.meta[0] & LSK_META_L2_BCAST, 0);
	assert_true(out.meta[1] & LSK_META_L2_BCAST);
	assert_int_equal(out.meta[2] & LSK_META_L2_BCAST, 0);
	unit_list_free(&out);

	st = unit_stats(f);
	assert_int_equal(st.eth.InFrames, 6);
	assert_int_equal(st.eth.UnknownType, 1);
	assert_int_equal(st.eth.Runts, 1);
	assert_int_equal(st.eth.NotForUs, 1);
	assert_int_equal(st.ports[0].rx, 5);
	assert_int_equal(st.ports[1].rx, 1);
}

/* Runs of one port and the frames that break them: every frame counted
 * on its port once, a port the table lacks never kept (two in a row: the
 * second is not taken for the first's run), another port's MAC not ours
 * even inside a run, a tag or a broadcast in a run seen as such. */
static void
test_port_runs(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[11], *keep[7];
	struct lsk_list out;
	uint8_t b[UNIT_FRAME_MAX], untagged[UNIT_FRAME_MAX];
	size_t len, ulen;
	struct lsk_stats st;
	unsigned int k;

	pkts[0] = keep[0] = frame_to_mac(&unit_p0_mac, UNIT_P0);
	pkts[1] = keep[1] = frame_to_mac(&unit_p0_mac, UNIT_P0);
	pkts[2] = frame_to_mac(&unit_p1_mac, UNIT_P0);	/* not ours on P0 */
	pkts[3] = keep[2] = frame_to_mac(&unit_p0_mac, UNIT_P0);
	pkts[4] = keep[3] = frame_to_mac(&unit_p1_mac, UNIT_P1);
	pkts[5] = frame_to_mac(&unit_p0_mac, UNIT_P1);	/* not ours on P1 */
	pkts[6] = keep[4] = frame_to_mac(&unit_bcast_mac, UNIT_P1);
	pkts[7] = frame_to_mac(&unit_p0_mac, 5);	/* no port 5 */
	pkts[8] = frame_to_mac(&unit_p0_mac, 5);
	pkts[9] = keep[5] = frame_to_mac(&unit_p0_mac, UNIT_P0);
	len = tagged_frame(0, RTE_ETHER_TYPE_IPV4, b, untagged, &ulen);
	pkts[10] = keep[6] = unit_mbuf_from_bytes(b, len, UNIT_P0);

	eth_run(f, pkts, RTE_DIM(pkts), &out);
	assert_int_equal(out.n, RTE_DIM(keep));
	for (k = 0; k < RTE_DIM(keep); k++) {
		assert_ptr_equal(out.pkts[k], keep[k]);
		assert_int_equal(out.meta[k] & LSK_META_L2_BCAST,
				 k == 4 ? LSK_META_L2_BCAST : 0);
	}
	/* the priority tag is gone */
	assert_int_equal(rte_pktmbuf_data_len(keep[6]), ulen);
	assert_memory_equal(rte_pktmbuf_mtod(keep[6], void *), untagged, ulen);
	unit_list_free(&out);

	st = unit_stats(f);
	assert_int_equal(st.eth.InFrames, RTE_DIM(pkts));
	assert_int_equal(st.eth.NotForUs, 4);
	assert_int_equal(st.ports[0].rx, 6);
	assert_int_equal(st.ports[1].rx, 3);
	assert_int_equal(st.ports[5].rx, 2);
}

/* The stage counters: one call per burst, every frame counted. */
static void
test_stage_accounting(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[4];
	struct lsk_stats st;
	unsigned int i;

	for (i = 0; i < 4; i++)
		pkts[i] = frame_with_type(0x88b5);
	unit_input(f, pkts, 4);
	st = unit_stats(f);
	assert_int_equal(st.stages[LSK_STAGE_ETH_INPUT].calls, 1);
	assert_int_equal(st.stages[LSK_STAGE_ETH_INPUT].packets, 4);
	/* nothing got past eth_input */
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].calls, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unicast_to_port_mac,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_broadcast_and_all_hosts,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_not_for_us,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_port,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_port_runs,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_pmd_packet_type,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_runts_and_short_frames,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_arp_split,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_ethertypes,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_ip6_demux,
						unit_setup_list,
						unit_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_vlan,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_priority_tag_stripped,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_priority_tag_non_ip,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_truncated_tag,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_order_kept_across_drops,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_stage_accounting,
				unit_setup_list, unit_teardown),
	};

	return cmocka_run_group_tests_name("eth_input", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
