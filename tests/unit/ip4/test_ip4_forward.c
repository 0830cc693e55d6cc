/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_forward: no forwarding of L2 broadcasts, TTL (ICMP time exceeded),
 * MTU (ICMP fragmentation needed), next hops ARP must resolve first, then
 * TTL-1 with a checksum equal to a full recompute and the next hop's
 * Ethernet header (Linux cases A4, A5, C14-C18).
 */
#include <string.h>

#include "unit_common.h"
#include "core/cksum.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

/* The header checksum a full recompute gives (rte_ipv4_cksum). */
static uint16_t
full_cksum(const uint8_t *ip)
{
	uint8_t hdr[60];
	struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)hdr;
	size_t ihl = (ip[0] & 0xf) * 4u;

	memcpy(hdr, ip, ihl);
	h->hdr_checksum = 0;
	return rte_ipv4_cksum(h);
}

/*
 * out must be in with new MACs, TTL-1 and a fully recomputed checksum,
 * without any trailer, every other byte unchanged.
 */
static void
assert_forwarded_frame(const uint8_t *in, struct rte_mbuf *out,
		       const struct rte_ether_addr *dst_mac,
		       const struct rte_ether_addr *src_mac)
{
	size_t tot = (size_t)(IP(in)[2] << 8 | IP(in)[3]);
	uint8_t want[UNIT_FRAME_MAX];
	uint16_t ck;

	assert_int_equal(out->nb_segs, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(out), UNIT_ETH_LEN + tot);
	memcpy(want, in, UNIT_ETH_LEN + tot);
	memcpy(want, dst_mac, RTE_ETHER_ADDR_LEN);
	memcpy(want + 6, src_mac, RTE_ETHER_ADDR_LEN);
	IP(want)[8]--;
	ck = full_cksum(IP(want));
	memcpy(IP(want) + 10, &ck, 2);
	assert_memory_equal(rte_pktmbuf_mtod(out, void *), want,
			    UNIT_ETH_LEN + tot);
	assert_int_equal(unit_ip4_hdr_sum(IP(want)), 0);
}

/* Forward one frame; assert it left by out_port only and return it. */
static struct rte_mbuf *
forward_one(struct unit_fixture *f, const uint8_t *b, size_t len,
	    uint16_t in_port, uint16_t out_port)
{
	unsigned int p;

	unit_input_one(f, unit_mbuf_from_bytes(b, len, in_port));
	for (p = 0; p < LSK_MAX_PORTS; p++)
		assert_int_equal(f->tx.n[p], p == out_port ? 1 : 0);
	return f->tx.pkts[out_port][0];
}

static uint16_t
ip_cksum_of(const uint8_t *ip)
{
	return (uint16_t)(ip[10] << 8 | ip[11]);
}

/* C14: flow G, TTL 64 -> 63, checksum 0x21e7 -> 0x22e7, new MACs. */
static void
test_forward_baseline(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *out;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_B_IP);
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_int_equal(ip_cksum_of(IP(b)), 0x21e7);

	out = forward_one(f, b, len, UNIT_P0, UNIT_P1);
	assert_int_equal(unit_ip4(out)->time_to_live, 63);
	assert_int_equal(ip_cksum_of(IP(rte_pktmbuf_mtod(out, uint8_t *))),
			 0x22e7);
	assert_forwarded_frame(b, out, &unit_b_mac, &unit_p1_mac);
	unit_tx_free(f);

	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 1, .ForwDatagrams = 1 });
	assert_int_equal(unit_stats(f).ports[UNIT_P1].tx, 1);
}

/* C15: checksum 0xFEFF at TTL 195 becomes 0x0000, never 0xFFFF. */
static void
test_ttl_195_checksum_edge(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *out;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_B_IP);
	p.payload_len = 601 - 28;
	p.id = 0xa192;
	p.ttl = 195;
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_int_equal(ip_cksum_of(IP(b)), 0xfeff);

	out = forward_one(f, b, len, UNIT_P0, UNIT_P1);
	assert_int_equal(unit_ip4(out)->time_to_live, 194);
	assert_int_equal(unit_ip4(out)->hdr_checksum, 0x0000);
	assert_forwarded_frame(b, out, &unit_b_mac, &unit_p1_mac);
	unit_tx_free(f);
}

/*
 * Brute force: thousands of random headers (TOS, ID, fragment field,
 * length, TTL, protocol, addresses, options) forwarded; every output
 * checksum equals rte_ipv4_cksum's full recompute. One header in four has
 * its ID chosen to land its checksum at the top of the range, where the
 * incremental update wraps (0xFEFF and its neighbours).
 */
#define BRUTE_BURSTS 24

static uint16_t
ones_add(uint16_t a, uint16_t b)
{
	uint32_t s = (uint32_t)a + b;

	return (uint16_t)((s & 0xffff) + (s >> 16));
}

/* Set the ID so that the header checksum becomes want (not 0xffff). */
static void
aim_checksum(uint8_t *ip, uint16_t want)
{
	uint16_t id;

	ip[4] = 0;
	ip[5] = 0;
	unit_ip4_fix_cksum(ip);
	/* checksum = ~(S + id), so id = ~want - S = ~want + checksum(id=0) */
	id = ones_add((uint16_t)~want, ip_cksum_of(ip));
	ip[4] = (uint8_t)(id >> 8);
	ip[5] = (uint8_t)id;
	unit_ip4_fix_cksum(ip);
	assert_int_equal(ip_cksum_of(ip), want);
}

/* lsk_ip4_decrease_ttl against RFC 1624's update written out plainly,
 * for every checksum field and TTLs from 0 up: the bytes around them
 * untouched. */
static void
test_decrease_ttl_every_checksum(void **state)
{
	static const uint8_t ttls[] = { 0, 1, 2, 64, 195, 255 };
	unsigned int ck, k;

	(void)state;
	for (k = 0; k < RTE_DIM(ttls); k++) {
		for (ck = 0; ck <= 0xffff; ck++) {
			uint8_t h[24], want[24];
			uint32_t sum;
			uint16_t field;

			memset(h, 0xa5, sizeof(h));
			h[2 + 8] = ttls[k];
			h[2 + 9] = 17;
			h[2 + 10] = (uint8_t)(ck >> 8);
			h[2 + 11] = (uint8_t)ck;
			memcpy(want, h, sizeof(h));
			/* TTL-1 takes 0x0100 off the word it shares with the
			 * protocol: the checksum gains 0x0100, end around */
			sum = ck + 0x0100;
			sum = (sum & 0xffff) + (sum >> 16);
			if (sum == 0xffff)	/* never 0xffff: 0x0000 */
				sum = 0;
			want[2 + 8] = (uint8_t)(ttls[k] - 1);
			want[2 + 10] = (uint8_t)(sum >> 8);
			want[2 + 11] = (uint8_t)sum;
			/* at an address 2 bytes from alignment, as in frames */
			lsk_ip4_decrease_ttl((struct rte_ipv4_hdr *)(void *)
					     (h + 2));
			memcpy(&field, h + 2 + 10, 2);
			if (memcmp(h, want, sizeof(h)) != 0)
				fail_msg("TTL %u checksum 0x%04x: 0x%04x, not "
					 "0x%04x", ttls[k], ck,
					 rte_be_to_cpu_16(field), sum);
		}
	}
}

static void
test_ttl_checksum_brute_force(void **state)
{
	static uint8_t in[LSK_BURST_MAX][UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	uint64_t rnd = 0x6c69737461636bULL;
	unsigned int burst, i, checked = 0;

	for (burst = 0; burst < BRUTE_BURSTS; burst++) {
		for (i = 0; i < LSK_BURST_MAX; i++) {
			uint64_t r = unit_rand(&rnd), r2 = unit_rand(&rnd);
			struct unit_pkt p;
			size_t len;
			uint16_t frag = (uint16_t)(r2 >> 16);

			unit_pkt_init(&p, UNIT_IPV4(10, 9, (r >> 8) & 0xff,
						   r & 0xff));
			p.src = UNIT_IPV4(10, 0, 0, 1 + (r >> 16) % 253);
			p.tos = (uint8_t)(r >> 24);
			p.id = (uint16_t)(r >> 32);
			p.ttl = (uint8_t)(2 + (r >> 48) % 254);
			p.proto = (uint8_t)(r >> 56);
			p.opt_len = (uint8_t)(4 * ((r2 >> 8) % 11));
			memset(p.opts, RTE_IPV4_HDR_OPT_NOP, p.opt_len);
			p.payload_len = (uint16_t)((r2 >> 32) %
						   (1500 - 28 - p.opt_len + 1));
			len = unit_pkt_build(&p, in[i], sizeof(in[i]));
			/* any fragment field (forwarded fragments pass) */
			IP(in[i])[6] = (uint8_t)(frag >> 8);
			IP(in[i])[7] = (uint8_t)frag;
			unit_ip4_fix_cksum(IP(in[i]));
			if (i % 4 == 0)
				aim_checksum(IP(in[i]),
					     (uint16_t)(0xfefc + (r2 & 7)));
			assert_int_equal(ip_cksum_of(IP(in[i])),
					 rte_be_to_cpu_16(full_cksum(IP(in[i]))));
			pkts[i] = unit_mbuf_from_bytes(in[i], len, UNIT_P0);
		}
		unit_input(f, pkts, LSK_BURST_MAX);
		assert_int_equal(f->tx.n[UNIT_P1], LSK_BURST_MAX);
		for (i = 0; i < LSK_BURST_MAX; i++) {
			assert_forwarded_frame(in[i], f->tx.pkts[UNIT_P1][i],
					       &unit_b_mac, &unit_p1_mac);
			checked++;
		}
		unit_tx_free(f);
	}
	assert_int_equal(checked, BRUTE_BURSTS * LSK_BURST_MAX);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = checked,
		.ForwDatagrams = checked });
}

/*
 * C16: TTL 1 and 0 are not forwarded (InHdrErrors) and each is answered
 * with ICMP time exceeded from P0's address, quoting the datagram as it
 * came; C17: TTL 2 is forwarded.
 */
static void
test_ttl_expiry(void **state)
{
	struct unit_fixture *f = *state;
	const struct unit_icmp_want te = { .type = 11, .code = 0,
		.src = UNIT_P0_IP, .dst_mac = &unit_a_mac,
		.src_mac = &unit_p0_mac };
	uint8_t b[UNIT_FRAME_MAX], b0[UNIT_FRAME_MAX];
	struct rte_mbuf *out;
	struct unit_pkt p;
	size_t len, len0;

	unit_pkt_init(&p, UNIT_B_IP);
	p.ttl = 1;
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_int_equal(ip_cksum_of(IP(b)), 0x60e7);
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	p.ttl = 0;
	len0 = unit_pkt_build(&p, b0, sizeof(b0));
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, 0), 0);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_int_equal(f->tx.n[UNIT_P0], 2);
	unit_assert_icmp_error(f->tx.pkts[UNIT_P0][0], &te, IP(b),
			       len - UNIT_ETH_LEN);
	unit_assert_icmp_error(f->tx.pkts[UNIT_P0][1], &te, IP(b0),
			       len0 - UNIT_ETH_LEN);
	unit_assert_ip(f, (struct lsk_ip_stats){
		.InReceives = 2, .InHdrErrors = 2 });
	assert_int_equal(unit_stats(f).icmp.OutTimeExcds, 2);
	unit_tx_free(f);

	p.ttl = 2;
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_int_equal(ip_cksum_of(IP(b)), 0x5fe7);
	out = forward_one(f, b, len, UNIT_P0, UNIT_P1);
	assert_int_equal(unit_ip4(out)->time_to_live, 1);
	assert_int_equal(ip_cksum_of(IP(rte_pktmbuf_mtod(out, uint8_t *))),
			 0x60e7);
	unit_tx_free(f);
}

/* The one frame captured on P0 is fragmentation needed about p, with
 * the egress MTU. */
static void
assert_frag_needed(struct unit_fixture *f, const struct unit_pkt *p,
		   uint16_t mtu)
{
	uint8_t b[UNIT_FRAME_MAX];
	size_t len = unit_pkt_build(p, b, sizeof(b));

	assert_int_equal(f->tx.n[UNIT_P0], 1);
	unit_assert_icmp_error(f->tx.pkts[UNIT_P0][0],
		&(struct unit_icmp_want){ .type = 3, .code = 4, .mtu = mtu,
			.src = UNIT_P0_IP, .dst_mac = &unit_a_mac,
			.src_mac = &unit_p0_mac },
		IP(b), len - UNIT_ETH_LEN);
	unit_tx_free(f);
}

/* C18 (DF set): larger than the egress IP MTU is FragFails and ICMP
 * fragmentation needed with that MTU; equal passes; the TTL test comes
 * first. */
static void
test_mtu(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	/* default MTU 1500 */
	unit_pkt_init(&p, UNIT_B_IP);
	p.payload_len = 1500 - 28;
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_B_IP), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);
	p.payload_len = 1501 - 28;
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_frag_needed(f, &p, 1500);

	unit_cmd(f, "port 1 mtu 1000");
	unit_pkt_init(&p, UNIT_B_IP);			/* tot_len 1028 */
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_frag_needed(f, &p, 1000);
	p.payload_len = 1000 - 28;
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_int_equal(f->tx.n[UNIT_P0], 0);
	assert_int_equal(rte_pktmbuf_pkt_len(f->tx.pkts[UNIT_P1][0]),
			 UNIT_ETH_LEN + 1000);
	unit_tx_free(f);

	/* through 10.9.0.0/16 as well, and P0 keeps 1500 */
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_frag_needed(f, &p, 1000);
	p.src = UNIT_B_IP;
	p.dst = UNIT_A_IP;
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P0, UNIT_A_IP), 1);
	unit_tx_free(f);

	/* TTL 1 and too big: a TTL drop, time exceeded */
	unit_pkt_init(&p, UNIT_B_IP);
	p.ttl = 1;
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 11, 0), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);

	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 7,
		.ForwDatagrams = 3, .FragFails = 3, .InHdrErrors = 1 });
	assert_int_equal(unit_stats(f).icmp.OutDestUnreachs, 3);
}

/* A4, A5: unicast IP in an L2 broadcast or multicast frame is never
 * forwarded (InAddrErrors), but is delivered when it is for us (A3). */
static void
test_l2_broadcast_not_forwarded(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_B_IP);
	p.dst_mac = unit_bcast_mac;
	unit_input_pkt(f, &p);
	p.dst_mac = unit_allhosts_mac;
	unit_input_pkt(f, &p);
	p.dst = UNIT_FAR_IP;
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.calls, 0);

	p.dst = UNIT_P0_IP;
	unit_input_pkt(f, &p);
	p.dst_mac = unit_bcast_mac;
	p.dst = UNIT_P1_IP;
	unit_input_pkt(f, &p);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 5,
		.InAddrErrors = 3, .InDelivers = 2 });
	/* nothing listens there, but no ICMP answers an L2 broadcast */
	assert_int_equal(unit_stats(f).udp.NoPorts, 2);
	assert_int_equal(f->tx.calls, 0);
}

/*
 * A next hop with no neighbour entry: the datagram waits while ARP asks
 * for the next hop (the host itself on a connected subnet, else the
 * gateway) out of the egress port; the answer sends it on, TTL-1 and all.
 * What still waits is dropped by lsk_neigh_drop_held, counted
 * arp.UnresolvedDiscards.
 */
static void
test_unresolved_next_hop(void **state)
{
	static const struct rte_ether_addr gw_mac = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x02 } };
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_stats st;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 7));	/* connected */
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_arp_requests(f, UNIT_P1,
					      UNIT_IPV4(10, 0, 1, 7)), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);

	unit_cmd(f, "route add 10.8.0.0/16 via 10.0.1.2");
	p.dst = UNIT_IPV4(10, 8, 0, 1);			/* gateway unknown */
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_tx_arp_requests(f, UNIT_P1,
					      UNIT_IPV4(10, 0, 1, 2)), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);

	st = unit_stats(f);
	assert_int_equal(st.arp.OutRequests, 2);
	assert_int_equal(st.arp.UnresolvedDiscards, 0);
	assert_int_equal(st.ip.ForwDatagrams, 2);
	assert_int_equal(st.ports[UNIT_P1].tx, 2);	/* the requests */

	/* the gateway answers: its datagram leaves, the other still waits */
	unit_input_one(f, unit_arp_mbuf(UNIT_P1, 2, &unit_p1_mac, &gw_mac,
					UNIT_IPV4(10, 0, 1, 2), &unit_p1_mac,
					UNIT_P1_IP));
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_forwarded_frame(b, f->tx.pkts[UNIT_P1][0], &gw_mac,
			       &unit_p1_mac);
	unit_tx_free(f);

	assert_int_equal(lsk_neigh_drop_held(f->stack), 1);
	st = unit_stats(f);
	assert_int_equal(st.arp.UnresolvedDiscards, 1);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
	unit_assert_ip_balance(&st);
}

/* Out the port it came in on, and from P1 to P0. */
static void
test_forward_between_ports(void **state)
{
	static const struct rte_ether_addr h7_mac = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07 } };
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *out;
	struct unit_pkt p;
	size_t len;

	unit_cmd(f, "neigh add 10.0.0.7 lladdr 02:00:00:00:00:07");
	unit_pkt_init(&p, UNIT_IPV4(10, 0, 0, 7));
	len = unit_pkt_build(&p, b, sizeof(b));
	out = forward_one(f, b, len, UNIT_P0, UNIT_P0);
	assert_forwarded_frame(b, out, &h7_mac, &unit_p0_mac);
	unit_tx_free(f);

	unit_pkt_init(&p, UNIT_A_IP);
	p.src = UNIT_B_IP;
	p.src_mac = unit_b_mac;
	p.dst_mac = unit_p1_mac;
	p.port = UNIT_P1;
	len = unit_pkt_build(&p, b, sizeof(b));
	out = forward_one(f, b, len, UNIT_P1, UNIT_P0);
	assert_forwarded_frame(b, out, &unit_a_mac, &unit_p0_mac);
	unit_tx_free(f);
}

/* Ethernet padding never leaves with the datagram. */
static void
test_trailer_not_forwarded(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *out;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_B_IP);
	p.payload_len = 1;
	p.trailer_len = 17;
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_int_equal(len, 60);
	out = forward_one(f, b, len, UNIT_P0, UNIT_P1);
	assert_int_equal(rte_pktmbuf_pkt_len(out), UNIT_ETH_LEN + 29);
	assert_forwarded_frame(b, out, &unit_b_mac, &unit_p1_mac);
	unit_tx_free(f);
}

/* Options are forwarded unchanged; the checksum still covers them. */
static void
test_options_forwarded_unchanged(void **state)
{
	static const uint8_t rr[] = { 7, 7, 4, 0, 0, 0, 0, 1 };
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *out;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_B_IP);
	p.opt_len = sizeof(rr);
	memcpy(p.opts, rr, sizeof(rr));
	len = unit_pkt_build(&p, b, sizeof(b));
	out = forward_one(f, b, len, UNIT_P0, UNIT_P1);
	assert_forwarded_frame(b, out, &unit_b_mac, &unit_p1_mac);
	unit_tx_free(f);
}

/* Fragments are forwarded as they are. */
static void
test_fragments_forwarded(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *out;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_B_IP);
	p.df = false;
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[6] = 0x20;			/* MF, offset 0 */
	unit_ip4_fix_cksum(IP(b));
	out = forward_one(f, b, len, UNIT_P0, UNIT_P1);
	assert_forwarded_frame(b, out, &unit_b_mac, &unit_p1_mac);
	unit_tx_free(f);

	IP(b)[6] = 0x00;			/* last fragment, offset 1480 */
	IP(b)[7] = 185;
	unit_ip4_fix_cksum(IP(b));
	out = forward_one(f, b, len, UNIT_P0, UNIT_P1);
	assert_forwarded_frame(b, out, &unit_b_mac, &unit_p1_mac);
	unit_tx_free(f);
}

/* A burst to one next hop leaves in order, in one transmit call, taken
 * whole by the fast path (fwd_fast.c) in list mode. */
static void
test_burst_keeps_order(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[64];
	struct unit_pkt p;
	unsigned int i;

	unit_pkt_init(&p, UNIT_FAR_IP);
	p.payload_len = 18;
	for (i = 0; i < RTE_DIM(pkts); i++) {
		p.id = (uint16_t)i;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, RTE_DIM(pkts));
	assert_int_equal(f->tx.calls, 1);
	assert_int_equal(f->tx.n[UNIT_P1], RTE_DIM(pkts));
	for (i = 0; i < RTE_DIM(pkts); i++) {
		assert_ptr_equal(f->tx.pkts[UNIT_P1][i], pkts[i]);
		assert_int_equal(rte_be_to_cpu_16(
			unit_ip4(f->tx.pkts[UNIT_P1][i])->packet_id), i);
	}
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_FWD_FAST].calls, 1);
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_FWD_FAST].packets,
			 RTE_DIM(pkts));
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_IP4_FORWARD].calls, 0);
}

/*
 * One burst in runs of next hops, broken by every other case: the frames
 * to one next hop leave in order, with what the slow cases queue on the
 * same port (an ARP request) in its place among them, the others each
 * answered as alone. A trace that matches none of them keeps the burst
 * on the stages (the fast path, ip4/fwd_fast.c, would forward the plain
 * ones before the slow cases queue anything: test_fwd_fast.c).
 */
static void
test_runs_of_next_hops(void **state)
{
	static const struct rte_ether_addr h7_mac = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07 } };
	/* F: far, via B; T: TTL 1; H: a host on P0; D: too big with DF;
	 * U: unresolved on P1; C: in an L2 broadcast */
	static const char order[] = "FFTFHFDFUFCF";
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[sizeof(order) - 1], *fwd_p1[8], *h = NULL;
	uint8_t b[UNIT_FRAME_MAX];
	unsigned int i, n_p1 = 0, k;
	struct unit_pkt p;
	struct lsk_stats st;
	size_t len = 0;

	unit_cmd(f, "neigh add 10.0.0.7 lladdr 02:00:00:00:00:07");
	unit_cmd(f, "trace add 100 match dst 192.0.2.99");
	for (i = 0; i < RTE_DIM(pkts); i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.payload_len = 18;
		p.id = (uint16_t)i;
		switch (order[i]) {
		case 'T':
			p.ttl = 1;
			break;
		case 'H':
			p.dst = UNIT_IPV4(10, 0, 0, 7);
			break;
		case 'D':
			p.payload_len = 1501 - 28;
			break;
		case 'U':
			p.dst = UNIT_IPV4(10, 0, 1, 7);
			break;
		case 'C':
			p.dst_mac = unit_bcast_mac;
			break;
		}
		if (i == 0)
			len = unit_pkt_build(&p, b, sizeof(b));
		pkts[i] = unit_pkt_mbuf(&p);
		if (order[i] == 'F')
			fwd_p1[n_p1++] = pkts[i];
		if (order[i] == 'H')
			h = pkts[i];
	}
	unit_input(f, pkts, RTE_DIM(pkts));

	/* P1: the far ones in order, the ARP request where U was */
	assert_int_equal(f->tx.n[UNIT_P1], n_p1 + 1);
	for (i = 0, k = 0; i < f->tx.n[UNIT_P1]; i++) {
		if (i == 5) {	/* after F0 F1 F3 F5 F7 */
			assert_int_equal(unit_tx_arp_requests(f, UNIT_P1,
					UNIT_IPV4(10, 0, 1, 7)), 1);
			assert_ptr_not_equal(f->tx.pkts[UNIT_P1][i],
					     fwd_p1[k]);
			continue;
		}
		assert_ptr_equal(f->tx.pkts[UNIT_P1][i], fwd_p1[k]);
		k++;
	}
	assert_forwarded_frame(b, fwd_p1[0], &unit_b_mac, &unit_p1_mac);
	/* P0: H, then the time exceeded and the fragmentation needed */
	assert_int_equal(f->tx.n[UNIT_P0], 3);
	assert_ptr_equal(f->tx.pkts[UNIT_P0][0], h);
	assert_memory_equal(rte_pktmbuf_mtod(h, uint8_t *), &h7_mac, 6);
	assert_memory_equal(rte_pktmbuf_mtod(h, uint8_t *) + 6, &unit_p0_mac,
			    6);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 11, 0), 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 4), 1);
	unit_tx_free(f);

	st = unit_stats(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 12,
		.ForwDatagrams = n_p1 + 2, .InHdrErrors = 1, .FragFails = 1,
		.InAddrErrors = 1 });
	assert_int_equal(st.ports[UNIT_P1].tx, n_p1 + 1);
	(void)len;
}

/* Two full bursts to one next hop before a flush: the TX buffer fills
 * within the second and is sent from there, nothing lost or reordered. */
static void
test_runs_fill_the_tx_buffer(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[2][LSK_BURST_MAX];
	struct unit_pkt p;
	unsigned int i, r;

	unit_pkt_init(&p, UNIT_FAR_IP);
	p.payload_len = 18;
	for (r = 0; r < 2; r++) {
		for (i = 0; i < LSK_BURST_MAX; i++) {
			p.id = (uint16_t)(r * LSK_BURST_MAX + i);
			pkts[r][i] = unit_pkt_mbuf(&p);
		}
	}
	lsk_worker_input(f->worker, pkts[0], LSK_BURST_MAX);
	assert_int_equal(f->tx.calls, 0);
	lsk_worker_input(f->worker, pkts[1], LSK_BURST_MAX);
	assert_int_equal(f->tx.calls, 1);	/* full at the last one */
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.n[UNIT_P1], 2 * LSK_BURST_MAX);
	for (i = 0; i < 2 * LSK_BURST_MAX; i++)
		assert_int_equal(rte_be_to_cpu_16(
			unit_ip4(f->tx.pkts[UNIT_P1][i])->packet_id), i);
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).ip.ForwDatagrams, 2 * LSK_BURST_MAX);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_forward_baseline),
		
		T(test_ttl_195_checksum_edge),
		T(test_decrease_ttl_every_checksum),
		T(test_ttl_checksum_brute_force),
		T(test_ttl_expiry),
		T(test_mtu),
		T(test_l2_broadcast_not_forwarded),
		T(test_unresolved_next_hop),
		T(test_forward_between_ports),
		T(test_trailer_not_forwarded),
		T(test_options_forwarded_unchanged),
		T(test_fragments_forwarded),
		T(test_burst_keeps_order),
		T(test_runs_of_next_hops),
		T(test_runs_fill_the_tx_buffer),
	};

	return cmocka_run_group_tests_name("ip4_forward", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
