/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pcap feed's checksum flags (bench/rx_cksum.c): GOOD exactly when the
 * checksum is right, BAD when it is wrong, nothing when the frame is not
 * one whose checksum a NIC would check (not IPv4, not UDP, a fragment, a
 * datagram longer than its frame, a zero UDP checksum, segments); and the
 * RX callback replaces whatever flags the mbuf had and counts what it
 * vouched for.
 */
#include <string.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include "unit_common.h"
#include "bench.h"

#define IP_OFF UNIT_ETH_LEN
#define GOOD_BOTH (RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD)

static uint8_t frame[UNIT_FRAME_MAX];

static size_t
build(const struct unit_pkt *p)
{
	return unit_pkt_build(p, frame, sizeof(frame));
}

static uint64_t
flags_of(size_t len)
{
	struct rte_mbuf *m = unit_mbuf_from_bytes(frame, len, 0);
	uint64_t f;

	assert_non_null(m);
	f = bench_rx_cksum_flags(m);
	rte_pktmbuf_free(m);
	return f;
}

static void
default_pkt(struct unit_pkt *p)
{
	unit_pkt_init(p, UNIT_FAR_IP);
}

/* The bench's own frames, every payload length of gro-fwd's range. */
static void
test_bench_frames_good(void **state)
{
	struct bench_traffic t;
	struct bench_flow fl;
	uint16_t size;

	(void)state;
	for (size = BENCH_HDR_LEN; size <= RTE_ETHER_HDR_LEN + 1500; size++) {
		assert_int_equal(bench_traffic_init(&t, 1, 1, size), 0);
		bench_flow_get(&t, 0, &fl);
		bench_write_frame(&t, frame, &fl, size);
		assert_int_equal(flags_of(size), GOOD_BOTH);
	}
}

/* Payloads of every length and random bytes (all-ones words too, the
 * sum's bias at its edge), checksummed by DPDK: GOOD; one bit flipped in
 * the payload (or the ports): BAD. */
static void
test_random_payloads(void **state)
{
	struct bench_traffic t;
	struct bench_flow fl;
	uint32_t x = 2463534242u;
	uint16_t size;
	int round;

	(void)state;
	for (round = 0; round < 2; round++) {
		for (size = BENCH_HDR_LEN; size <= RTE_ETHER_HDR_LEN + 1500;
		     size++) {
			struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)
				(frame + RTE_ETHER_HDR_LEN);
			struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(ip + 1);
			unsigned int j, bit;

			assert_int_equal(bench_traffic_init(&t, 1, 1, size), 0);
			bench_flow_get(&t, 0, &fl);
			bench_write_frame(&t, frame, &fl, size);
			for (j = BENCH_HDR_LEN; j < size; j++) {
				x ^= x << 13;
				x ^= x >> 17;
				x ^= x << 5;
				frame[j] = round ? 0xff : (uint8_t)x;
			}
			uh->dgram_cksum = 0;
			uh->dgram_cksum = rte_ipv4_udptcp_cksum(ip, uh);
			if (uh->dgram_cksum == 0)
				uh->dgram_cksum = 0xffff;
			assert_int_equal(flags_of(size), GOOD_BOTH);
			/* in the payload, else in the ports (a flip in the
			 * length or the checksum field may make it
			 * UNKNOWN, test_unknown_l4) */
			if (size > BENCH_HDR_LEN) {
				bit = x % ((size - BENCH_HDR_LEN) * 8u);
				frame[BENCH_HDR_LEN + bit / 8] ^=
					(uint8_t)(1u << (bit % 8));
			} else {
				bit = x % 32u;
				frame[RTE_ETHER_HDR_LEN + 20 + bit / 8] ^=
					(uint8_t)(1u << (bit % 8));
			}
			assert_int_equal(flags_of(size),
					 RTE_MBUF_F_RX_IP_CKSUM_GOOD |
					 RTE_MBUF_F_RX_L4_CKSUM_BAD);
		}
	}
}

static void
test_good_with_options_and_padding(void **state)
{
	struct unit_pkt p;

	(void)state;
	default_pkt(&p);
	p.opt_len = 8;
	memset(p.opts, 1, 8);	/* NOPs */
	p.payload_len = 1461;	/* odd: the last byte summed alone */
	assert_int_equal(flags_of(build(&p)), GOOD_BOTH);
	default_pkt(&p);
	p.trailer_len = 20;	/* Ethernet padding after the datagram */
	assert_int_equal(flags_of(build(&p)), GOOD_BOTH);
}

static void
test_bad_ip_header(void **state)
{
	struct unit_pkt p;
	size_t len;

	(void)state;
	default_pkt(&p);
	len = build(&p);
	frame[IP_OFF + 8] ^= 1;		/* TTL, checksum not fixed */
	/* BAD, and no word on the UDP checksum (which is still right) */
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_BAD);
}

static void
test_bad_udp(void **state)
{
	struct unit_pkt p;
	size_t len;

	(void)state;
	default_pkt(&p);
	len = build(&p);
	frame[len - 1] ^= 0x40;		/* the payload's last byte */
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			 RTE_MBUF_F_RX_L4_CKSUM_BAD);
	len = build(&p);
	frame[IP_OFF + 20 + 6] ^= 0x01;	/* the checksum field itself */
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			 RTE_MBUF_F_RX_L4_CKSUM_BAD);
	/* a source address changed and the IP checksum fixed: only the
	 * pseudo header can tell */
	len = build(&p);
	frame[IP_OFF + 15] ^= 0x02;
	unit_ip4_fix_cksum(frame + IP_OFF);
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			 RTE_MBUF_F_RX_L4_CKSUM_BAD);
}

static void
test_unknown_l4(void **state)
{
	struct unit_pkt p;
	size_t len;

	(void)state;
	/* no UDP checksum */
	default_pkt(&p);
	len = build(&p);
	put16(frame + IP_OFF + 26, 0);
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	/* a first fragment (MF), a later fragment */
	len = build(&p);
	put16(frame + IP_OFF + 6, 0x2000);
	unit_ip4_fix_cksum(frame + IP_OFF);
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	len = build(&p);
	put16(frame + IP_OFF + 6, 0x0010);
	unit_ip4_fix_cksum(frame + IP_OFF);
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	/* IP says more bytes than the frame holds */
	len = build(&p);
	assert_int_equal(flags_of(len - 1), RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	/* UDP says more bytes than IP carries */
	len = build(&p);
	put16(frame + IP_OFF + 24, get16(frame + IP_OFF + 24) + 1);
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	/* not UDP */
	len = build(&p);
	frame[IP_OFF + 9] = IPPROTO_TCP;
	unit_ip4_fix_cksum(frame + IP_OFF);
	assert_int_equal(flags_of(len), RTE_MBUF_F_RX_IP_CKSUM_GOOD);
}

static void
test_not_checked(void **state)
{
	struct unit_pkt p;
	struct rte_mbuf *m;
	size_t len;

	(void)state;
	default_pkt(&p);
	/* not IPv4: an ARP ethertype, an IPv6 version nibble, IHL 4 */
	len = build(&p);
	put16(frame + 12, RTE_ETHER_TYPE_ARP);
	assert_int_equal(flags_of(len), 0);
	len = build(&p);
	frame[IP_OFF] = 0x65;
	assert_int_equal(flags_of(len), 0);
	len = build(&p);
	frame[IP_OFF] = 0x44;
	assert_int_equal(flags_of(len), 0);
	/* shorter than its IP header */
	len = build(&p);
	assert_int_equal(flags_of(IP_OFF + 19), 0);
	p.opt_len = 8;
	memset(p.opts, 1, 8);
	build(&p);
	assert_int_equal(flags_of(IP_OFF + 27), 0);
	/* in two segments */
	default_pkt(&p);
	len = build(&p);
	m = unit_mbuf_chain_from_bytes(frame, len, 100, 0);
	assert_non_null(m);
	assert_int_equal(m->nb_segs, 2);
	assert_int_equal(bench_rx_cksum_flags(m), 0);
	rte_pktmbuf_free(m);
}

/* The callback: flags replaced (a stale GOOD cannot survive), counts. */
static void
test_callback(void **state)
{
	struct bench_feed_work e = { 0 };
	struct rte_mbuf *m[3];
	struct unit_pkt p;
	size_t len;
	unsigned int i;

	(void)state;
	default_pkt(&p);
	len = build(&p);
	m[0] = unit_mbuf_from_bytes(frame, len, 0);
	frame[len - 1] ^= 1;
	m[1] = unit_mbuf_from_bytes(frame, len, 0);
	put16(frame + 12, RTE_ETHER_TYPE_ARP);
	m[2] = unit_mbuf_from_bytes(frame, len, 0);
	for (i = 0; i < 3; i++) {
		assert_non_null(m[i]);
		m[i]->ol_flags = GOOD_BOTH | RTE_MBUF_F_RX_VLAN;
	}
	m[2]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
	assert_int_equal(bench_rx_cksum_cb(0, 0, m, 3, 32, &e), 3);
	assert_int_equal(m[0]->ol_flags, GOOD_BOTH | RTE_MBUF_F_RX_VLAN |
			 RTE_MBUF_F_RX_RSS_HASH);
	assert_int_equal(m[1]->ol_flags, RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			 RTE_MBUF_F_RX_L4_CKSUM_BAD | RTE_MBUF_F_RX_VLAN |
			 RTE_MBUF_F_RX_RSS_HASH);
	/* not IPv4: no hash either */
	assert_int_equal(m[2]->ol_flags, RTE_MBUF_F_RX_VLAN);
	assert_int_equal(e.cb_packets, 3);
	assert_int_equal(e.cb_good, 1);
	assert_true(e.cb_cycles > 0);
	assert_int_equal(bench_rx_cksum_cb(0, 0, m, 0, 32, &e), 0);
	assert_int_equal(e.cb_packets, 3);
	rte_pktmbuf_free_bulk(m, 3);
}

/* The hash the callback sets is the ring feed's for the same flow (its
 * generator's table), for flows in turn, repeats and all. */
static void
test_callback_rss(void **state)
{
	struct bench_feed_work e = { 0 };
	const struct bench_scenario *sc = bench_scenario_find("gro-fwd");
	struct bench_traffic t;
	struct bench_gen gen;
	struct rte_mbuf *m[16];
	uint32_t want[16];
	unsigned int i;

	(void)state;
	assert_non_null(sc);
	assert_int_equal(bench_traffic_init(&t, 5, 3, 200), 0);
	assert_int_equal(bench_gen_init(&gen, &t, sc, NULL, true), 0);
	assert_non_null(gen.flow_rss);
	for (i = 0; i < 16; i++) {
		struct bench_flow fl;
		uint16_t id;

		/* flows 0 0 1 1 2 2 ... 4 4 0 0 ...: repeats and changes */
		if (i % 2 == 0) {
			bench_gen_next(&t, &gen, &fl, &id);
			bench_write_frame(&t, frame, &fl, id);
		}
		want[i] = gen.rss;
		m[i] = unit_mbuf_from_bytes(frame, t.size, 0);
		assert_non_null(m[i]);
	}
	bench_gen_fini(&gen);
	assert_int_equal(bench_rx_cksum_cb(0, 0, m, 16, 32, &e), 16);
	for (i = 0; i < 16; i++) {
		assert_true(m[i]->ol_flags & RTE_MBUF_F_RX_RSS_HASH);
		assert_int_equal(m[i]->hash.rss, want[i]);
	}
	assert_true(want[0] == want[1] && want[1] != want[2]);
	/* again, each frame after the one before: the memo must not keep
	 * a hash for another tuple */
	for (i = 15; i > 0; i--) {
		assert_int_equal(bench_rx_cksum_cb(0, 0, &m[i], 1, 32, &e), 1);
		assert_int_equal(m[i]->hash.rss, want[i]);
	}
	rte_pktmbuf_free_bulk(m, 16);
}

/* IPv6 (gro6-fwd): the bench's frames of every size are L4 GOOD (no
 * header checksum to flag), a flipped payload bit BAD, a zero checksum
 * or another next header nothing; the callback hashes each as the ring
 * feed's generator does. */
static void
test_ip6_frames(void **state)
{
	struct bench_traffic t;
	struct bench_flow fl;
	uint16_t size;

	(void)state;
	for (size = BENCH_HDR6_LEN; size <= RTE_ETHER_HDR_LEN + 1500;
	     size++) {
		assert_int_equal(bench_traffic_init(&t, 1, 1, size), 0);
		assert_int_equal(bench_traffic_init6(&t), 0);
		bench_flow_get(&t, 0, &fl);
		bench_write_frame(&t, frame, &fl, 0);
		assert_int_equal(flags_of(size), RTE_MBUF_F_RX_L4_CKSUM_GOOD);
		frame[size - 1] ^= 0x10;
		assert_int_equal(flags_of(size), RTE_MBUF_F_RX_L4_CKSUM_BAD);
	}
	bench_write_frame(&t, frame, &fl, 0);
	frame[RTE_ETHER_HDR_LEN + 40 + 6] = 0;
	frame[RTE_ETHER_HDR_LEN + 40 + 7] = 0;
	assert_int_equal(flags_of(t.size), 0);
	bench_write_frame(&t, frame, &fl, 0);
	frame[RTE_ETHER_HDR_LEN + 6] = 60;	/* a destination options header */
	assert_int_equal(flags_of(t.size), 0);
	/* a payload length past the frame */
	bench_write_frame(&t, frame, &fl, 0);
	put16(frame + RTE_ETHER_HDR_LEN + 4, (uint16_t)(t.udp_len + 1));
	assert_int_equal(flags_of(t.size), 0);
	assert_int_equal(bench_traffic_init(&t, 1, 1, BENCH_HDR6_LEN - 1), 0);
	assert_int_equal(bench_traffic_init6(&t), -EINVAL);
}

static void
test_ip6_callback_rss(void **state)
{
	struct bench_feed_work e = { 0 };
	const struct bench_scenario *sc = bench_scenario_find("gro6-fwd");
	struct bench_traffic t;
	struct bench_gen gen;
	struct rte_mbuf *m[8];
	uint32_t want[8];
	unsigned int i;

	(void)state;
	assert_non_null(sc);
	assert_true(sc->ip6);
	assert_int_equal(bench_traffic_init(&t, 3, 2, 200), 0);
	assert_int_equal(bench_traffic_init6(&t), 0);
	assert_int_equal(bench_gen_init(&gen, &t, sc, NULL, true), 0);
	for (i = 0; i < 8; i++) {
		struct bench_flow fl;
		uint16_t id;

		if (i % 2 == 0) {
			bench_gen_next(&t, &gen, &fl, &id);
			bench_write_frame(&t, frame, &fl, id);
		}
		want[i] = gen.rss;
		m[i] = unit_mbuf_from_bytes(frame, t.size, 0);
		assert_non_null(m[i]);
	}
	bench_gen_fini(&gen);
	assert_int_equal(bench_rx_cksum_cb(0, 0, m, 8, 32, &e), 8);
	for (i = 0; i < 8; i++) {
		assert_int_equal(m[i]->ol_flags, RTE_MBUF_F_RX_L4_CKSUM_GOOD |
				 RTE_MBUF_F_RX_RSS_HASH);
		assert_int_equal(m[i]->hash.rss, want[i]);
	}
	assert_true(want[0] == want[1] && want[1] != want[2]);
	assert_int_equal(e.cb_good, 8);
	rte_pktmbuf_free_bulk(m, 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_frames_good),
		cmocka_unit_test(test_random_payloads),
		cmocka_unit_test(test_good_with_options_and_padding),
		cmocka_unit_test(test_bad_ip_header),
		cmocka_unit_test(test_bad_udp),
		cmocka_unit_test(test_unknown_l4),
		cmocka_unit_test(test_not_checked),
		cmocka_unit_test(test_callback),
		cmocka_unit_test(test_callback_rss),
		cmocka_unit_test(test_ip6_frames),
		cmocka_unit_test(test_ip6_callback_rss),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
