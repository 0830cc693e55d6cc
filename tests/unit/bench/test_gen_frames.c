/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's frames (bench/gen/gen_frames.h): valid IPv4 and UDP
 * checksums for every size and flow (checked from scratch with DPDK's
 * own functions), the stamp read back as written, per-flow sequence
 * numbers, bench/traffic.c's addressing, the IMIX mix and its
 * interleaving, and what gen_stamp_read refuses.
 */
#include <string.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include "unit_common.h"
#include "gen/gen_frames.h"

static struct bench_traffic traffic;
static const struct rte_ether_addr src_mac = {{ 2, 0, 0, 0, 0x0a, 0 }};
static const struct rte_ether_addr dst_mac = {{ 2, 0, 0, 0, 0, 1 }};

static struct rte_mbuf *
zeroed_mbuf(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(unit_pool);

	assert_non_null(m);
	/* as gen_frames_pool_zero leaves a TX pool's mbufs */
	memset(m->buf_addr, 0, m->buf_len);
	return m;
}

/* Write the next frame (of flow f), check it whole. */
static void
check_frame(struct gen_frames *g, uint32_t f, uint64_t tsc,
	    uint16_t want_frame, uint32_t want_seq)
{
	struct rte_mbuf *m = zeroed_mbuf();
	const struct rte_ether_hdr *eh;
	const struct rte_ipv4_hdr *ip;
	const struct rte_udp_hdr *udp;
	struct bench_flow bf;
	struct gen_stamp st;

	gen_frame_write(g, m, f, tsc);
	assert_int_equal(m->data_len, want_frame - GEN_FCS_LEN);
	assert_int_equal(m->pkt_len, want_frame - GEN_FCS_LEN);
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	ip = (const struct rte_ipv4_hdr *)(eh + 1);
	udp = (const struct rte_udp_hdr *)(ip + 1);
	assert_true(rte_is_same_ether_addr(&eh->dst_addr, &dst_mac));
	assert_true(rte_is_same_ether_addr(&eh->src_addr, &src_mac));
	assert_int_equal(rte_be_to_cpu_16(ip->total_length),
			 want_frame - GEN_FCS_LEN - RTE_ETHER_HDR_LEN);
	assert_int_equal(rte_be_to_cpu_16(udp->dgram_len),
			 want_frame - GEN_FCS_LEN - RTE_ETHER_HDR_LEN - 20);
	assert_int_equal(rte_raw_cksum(ip, sizeof(*ip)), 0xffff);
	/* the pseudo header, the UDP header and the whole payload, the
	 * zero tail included, sum to 0xffff */
	assert_int_equal(bench_fold(rte_ipv4_phdr_cksum(ip, 0) +
				    rte_raw_cksum(udp, rte_be_to_cpu_16(
						  udp->dgram_len))), 0xffff);
	assert_int_not_equal(udp->dgram_cksum, 0);
	bench_flow_get(&traffic, f, &bf);
	assert_int_equal(rte_be_to_cpu_32(ip->src_addr), bf.src);
	assert_int_equal(rte_be_to_cpu_32(ip->dst_addr), bf.dst);
	assert_int_equal(rte_be_to_cpu_16(udp->src_port), bf.sport);
	assert_int_equal(rte_be_to_cpu_16(udp->dst_port), bf.dport);
	assert_true(gen_stamp_read(m, &st));
	assert_int_equal(st.signature, GEN_SIGNATURE);
	assert_int_equal(st.tag, g->tag);
	assert_int_equal(st.flow, f);
	assert_int_equal(st.seq, want_seq);
	assert_true(st.tsc == tsc);
	rte_pktmbuf_free(m);
}

static void
test_sizes_and_checksums(void **state)
{
	static const uint16_t sizes[] = { 64, 65, 128, 570, 1000, 1517, 1518 };
	struct gen_frames g;
	unsigned int i;
	uint32_t f;

	(void)state;
	for (i = 0; i < RTE_DIM(sizes); i++) {
		assert_int_equal(gen_frames_init(&g, &traffic, 70000, sizes[i],
						 (uint8_t)(i * 37), &src_mac,
						 &dst_mac), 0);
		/* flows whose number uses all 3 bytes, TSCs whose halves
		 * carry in the sum */
		for (f = 0; f < 70000; f += 6997) {
			check_frame(&g, f, 0xfffffffffffffff0ull - f,
				    sizes[i], 0);
			check_frame(&g, f, 0x0123456789abcdefull,
				    sizes[i], 1);
		}
		gen_frames_fini(&g);
	}
}

static void
test_seq_per_flow(void **state)
{
	struct gen_frames g;
	uint64_t k = 0;
	uint32_t round, f;

	(void)state;
	assert_int_equal(gen_frames_init(&g, &traffic, 5, 64, 1, &src_mac,
					 &dst_mac), 0);
	for (round = 0; round < 4; round++)
		for (f = 0; f < 5; f++)
			check_frame(&g, f, ++k * 1000, 64, round);
	/* wrapping sequence numbers keep valid checksums */
	g.next_seq[2] = 0xffffffffu;
	check_frame(&g, 2, 42, 64, 0xffffffffu);
	check_frame(&g, 2, 43, 64, 0);
	gen_frames_fini(&g);
}

static void
test_imix(void **state)
{
	uint8_t order[GEN_IMIX_PERIOD];
	unsigned int count[GEN_MAX_SIZES] = { 0 }, k, run = 1, w;
	struct gen_frames g;

	(void)state;
	gen_imix_order(order);
	for (k = 0; k < GEN_IMIX_PERIOD; k++) {
		assert_true(order[k] < GEN_MAX_SIZES);
		count[order[k]]++;
		if (k > 0) {
			run = order[k] == order[k - 1] ? run + 1 : 1;
			assert_true(run <= 2);	/* no blocks */
		}
	}
	assert_int_equal(count[0], 28);
	assert_int_equal(count[1], 16);
	assert_int_equal(count[2], 4);
	/* spread: every quarter of the period has its share */
	for (w = 0; w < 4; w++) {
		unsigned int c[GEN_MAX_SIZES] = { 0 };

		for (k = w * 12; k < w * 12 + 12; k++)
			c[order[k]]++;
		assert_int_equal(c[0], 7);
		assert_int_equal(c[1], 4);
		assert_int_equal(c[2], 1);
	}
	/* the frames follow the order, across periods */
	assert_int_equal(gen_frames_init(&g, &traffic, 3, GEN_SIZE_IMIX, 9,
					 &src_mac, &dst_mac), 0);
	for (k = 0; k < 2 * GEN_IMIX_PERIOD; k++) {
		static const uint16_t sz[] = { 64, 570, 1518 };

		check_frame(&g, k % 3, k, sz[order[k % GEN_IMIX_PERIOD]],
			    (uint32_t)(k / 3));
	}
	gen_frames_fini(&g);
}

static void
test_init_refuses(void **state)
{
	struct gen_frames g;

	(void)state;
	assert_int_equal(gen_frames_init(&g, &traffic, 0, 64, 0, &src_mac,
					 &dst_mac), -EINVAL);
	assert_int_equal(gen_frames_init(&g, &traffic, GEN_MAX_FLOWS + 1, 64,
					 0, &src_mac, &dst_mac), -EINVAL);
	assert_int_equal(gen_frames_init(&g, &traffic, 1, 63, 0, &src_mac,
					 &dst_mac), -EINVAL);
	assert_int_equal(gen_frames_init(&g, &traffic, 1, 1519, 0, &src_mac,
					 &dst_mac), -EINVAL);
}

static void
test_stamp_refuses(void **state)
{
	struct gen_frames g;
	struct rte_mbuf *m;
	struct rte_ipv4_hdr *ip;
	struct gen_stamp st;

	(void)state;
	assert_int_equal(gen_frames_init(&g, &traffic, 1, 64, 0, &src_mac,
					 &dst_mac), 0);
	m = zeroed_mbuf();
	gen_frame_write(&g, m, 0, 1);
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
	assert_true(gen_stamp_read(m, &st));
	m->data_len = GEN_WRITTEN_LEN - 1;		/* too short */
	assert_false(gen_stamp_read(m, &st));
	m->data_len = GEN_WRITTEN_LEN;
	ip->next_proto_id = IPPROTO_TCP;
	assert_false(gen_stamp_read(m, &st));
	ip->next_proto_id = IPPROTO_UDP;
	ip->version_ihl = 0x46;				/* options */
	assert_false(gen_stamp_read(m, &st));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(20 + 8 + GEN_STAMP_LEN - 1);
	assert_false(gen_stamp_read(m, &st));
	ip->total_length = rte_cpu_to_be_16(20 + 8 + GEN_STAMP_LEN);
	rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->ether_type =
		RTE_BE16(RTE_ETHER_TYPE_ARP);
	assert_false(gen_stamp_read(m, &st));
	rte_pktmbuf_free(m);
	gen_frames_fini(&g);
}

static void
test_pool_zero(void **state)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	unsigned int i;

	(void)state;
	mp = rte_pktmbuf_pool_create("gen_zero_test", 63, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE,
				     (int)rte_socket_id());
	assert_non_null(mp);
	m = rte_pktmbuf_alloc(mp);
	memset(m->buf_addr, 0xa5, m->buf_len);
	rte_pktmbuf_free(m);
	gen_frames_pool_zero(mp);
	m = rte_pktmbuf_alloc(mp);
	for (i = 0; i < m->buf_len; i++)
		assert_int_equal(((uint8_t *)m->buf_addr)[i], 0);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
}

/* IPv6 (--ip6): every frame's UDP checksum verifies over the zero
 * tail, the addresses carry the flow's fields, the stamp reads back;
 * 84 bytes at least, no IMIX; a cut frame has no stamp. */
static void
test_ip6(void **state)
{
	static const uint16_t sizes[] = { GEN_MIN_SIZE6, 85, 570, 1518 };
	struct bench_traffic t6;
	struct gen_frames g;
	unsigned int i, k;

	(void)state;
	assert_int_equal(bench_traffic_init(&t6, 1, 3, 80), 0);
	assert_int_equal(bench_traffic_init6(&t6), 0);
	for (i = 0; i < RTE_DIM(sizes); i++) {
		assert_int_equal(gen_frames_init(&g, &t6, 70000, sizes[i], 5,
						 &src_mac, &dst_mac), 0);
		for (k = 0; k < 3; k++) {
			uint32_t f = 69999 - k * 30011;
			struct rte_mbuf *m = zeroed_mbuf();
			const struct rte_ipv6_hdr *ip;
			const struct rte_udp_hdr *udp;
			struct bench_flow bf;
			struct gen_stamp st;
			uint8_t a[16];

			gen_frame_write(&g, m, f, 0xfffffffffffffff0ull - k);
			assert_int_equal(m->data_len, sizes[i] - GEN_FCS_LEN);
			ip = rte_pktmbuf_mtod_offset(m,
				const struct rte_ipv6_hdr *, 14);
			udp = (const struct rte_udp_hdr *)(ip + 1);
			assert_int_equal(rte_be_to_cpu_16(ip->payload_len),
					 sizes[i] - GEN_FCS_LEN - 54);
			assert_int_equal(bench_fold(rte_ipv6_phdr_cksum(ip, 0)
				+ rte_raw_cksum(udp, rte_be_to_cpu_16(
					udp->dgram_len))), 0xffff);
			bench_flow_get(&t6, f, &bf);
			bench_ip6_src(&t6, bf.src, a);
			assert_memory_equal(ip->src_addr, a, 16);
			bench_ip6_dst(bf.dst, a);
			assert_memory_equal(ip->dst_addr, a, 16);
			assert_true(gen_stamp_read(m, &st));
			assert_int_equal(st.signature, GEN_SIGNATURE);
			assert_int_equal(st.flow, f);
			assert_int_equal(st.seq, 0);
			assert_true(st.tsc == 0xfffffffffffffff0ull - k);
			m->data_len = GEN_HDR6_LEN + GEN_STAMP_LEN - 1;
			assert_false(gen_stamp_read(m, &st));
			rte_pktmbuf_free(m);
		}
		gen_frames_fini(&g);
	}
	assert_int_equal(gen_frames_init(&g, &t6, 1, GEN_MIN_SIZE6 - 1, 0,
					 &src_mac, &dst_mac), -EINVAL);
	assert_int_equal(gen_frames_init(&g, &t6, 1, GEN_SIZE_IMIX, 0,
					 &src_mac, &dst_mac), -EINVAL);
}

static int
setup(void **state)
{
	int rc = unit_group_setup(state);

	if (rc == 0)
		rc = bench_traffic_init(&traffic, 1, 3, 60);
	return rc;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_and_checksums),
		cmocka_unit_test(test_seq_per_flow),
		cmocka_unit_test(test_imix),
		cmocka_unit_test(test_init_refuses),
		cmocka_unit_test(test_stamp_refuses),
		cmocka_unit_test(test_pool_zero),
		cmocka_unit_test(test_ip6),
	};

	return cmocka_run_group_tests(tests, setup, unit_group_teardown);
}
