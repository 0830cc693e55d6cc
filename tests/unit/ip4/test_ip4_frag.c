/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_frag and ip4_reasm: forwarded datagrams larger than the egress MTU
 * with DF clear leave as fragments (Linux's ip_fragment: C18), fragments
 * addressed to us are reassembled (ip_defrag: B17), in any order and in
 * any number of pieces; a duplicate piece is dropped alone, and what
 * cannot make a datagram (an overlapping piece, too many pieces, more
 * than 65535 bytes, a timeout) is dropped whole and counted, as Linux
 * counts it.
 */
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "unit_common.h"
#include "ip4/ip4.h"

#define IP(b) ((b) + UNIT_ETH_LEN)
#define BIG (UNIT_ETH_LEN + 70000)

/* Frames of whole datagrams and of their pieces (too big for the stack). */
static uint8_t whole[BIG], piece[BIG], got[BIG];

/* The frame of a datagram from A to dst with payload bytes of UDP
 * payload, DF clear, into whole; returns its length. */
static size_t
datagram(uint32_t dst, uint16_t id, size_t payload)
{
	struct unit_pkt p;

	unit_pkt_init(&p, dst);
	p.df = false;
	p.id = id;
	p.payload_len = (uint16_t)payload;
	return unit_pkt_build(&p, whole, sizeof(whole));
}

/* The piece [ofs, ofs + len) of whole's IP payload as an mbuf. */
static struct rte_mbuf *
frag(size_t ofs, size_t len, bool mf)
{
	size_t n = unit_frag_build(whole, ofs, len, mf, piece, sizeof(piece));

	if (n <= UNIT_FRAME_MAX)
		return unit_mbuf_exact(piece, n, n, UNIT_P0);
	return unit_mbuf_big(piece, n, UNIT_P0);
}

static void
input_frag(struct unit_fixture *f, size_t ofs, size_t len, bool mf)
{
	unit_input_one(f, frag(ofs, len, mf));
}

/* ------------------------------------------------------ fragmenting */

/*
 * The fragments captured on port are the datagram in frame orig (as it
 * arrived, its IP payload at offset base of a datagram, more fragments
 * after it when base_mf) cut for mtu: in order, each with the original
 * header but for the total length, the fragment field and the TTL one
 * less, a valid checksum, at most mtu bytes, a multiple of 8 bytes of
 * data but the last, and together every byte once. The first carries
 * the original's options, the others later_opts (RFC 791: the options
 * with the copied flag; NULL: the same as the first).
 */
static unsigned int
assert_pieces(struct rte_mbuf *const *pkts, unsigned int n, uint16_t port,
	      const uint8_t *orig, uint16_t mtu, size_t base, bool base_mf,
	      const struct rte_ether_addr *dst_mac, const uint8_t *later_opts,
	      size_t later_len)
{
	const uint8_t *oip = IP(orig);
	size_t oihl = (oip[0] & 0xf) * 4u;
	size_t data = get16(oip + 2) - oihl, next = base;
	unsigned int i;

	if (later_opts == NULL) {
		later_opts = oip + 20;
		later_len = oihl - 20;
	}
	assert_true(n >= 2);
	for (i = 0; i < n; i++) {
		size_t len = unit_mbuf_bytes(pkts[i], got, sizeof(got));
		uint8_t *ip = IP(got);
		size_t ihl = i == 0 ? oihl : 20 + later_len;
		size_t tot = get16(ip + 2), flen = tot - ihl;
		bool last = i == n - 1;

		assert_int_equal(len, UNIT_ETH_LEN + tot);
		assert_true(tot <= mtu);
		assert_memory_equal(got, dst_mac, RTE_ETHER_ADDR_LEN);
		assert_memory_equal(got + 6, port == UNIT_P1 ? &unit_p1_mac :
				    &unit_p0_mac, RTE_ETHER_ADDR_LEN);
		assert_int_equal(get16(got + 12), RTE_ETHER_TYPE_IPV4);
		assert_int_equal(ip[0], 0x40 | ihl / 4);
		assert_int_equal(ip[1], oip[1]);
		assert_int_equal(get16(ip + 4), get16(oip + 4));	/* ID */
		assert_int_equal(get16(ip + 6) & 0x1fff, next / 8);
		assert_int_equal(get16(ip + 6) & 0x4000, 0);	/* DF */
		assert_int_equal(!!(get16(ip + 6) & 0x2000), !last || base_mf);
		assert_int_equal(ip[8], oip[8] - 1);
		assert_int_equal(ip[9], oip[9]);
		assert_memory_equal(ip + 12, oip + 12, 8);
		if (i == 0)
			assert_memory_equal(ip + 20, oip + 20, oihl - 20);
		else if (later_len)
			assert_memory_equal(ip + 20, later_opts, later_len);
		assert_int_equal(unit_ip4_hdr_sum(ip), 0);
		if (!last)
			assert_int_equal(flen % 8, 0);
		/* as much as fits */
		if (!last)
			assert_int_equal(flen, (mtu - ihl) & ~7u);
		assert_memory_equal(ip + ihl, oip + oihl + (next - base), flen);
		next += flen;
	}
	assert_int_equal(next - base, data);
	return n;
}

static unsigned int
assert_fragments_opts(struct unit_fixture *f, uint16_t port,
		      const uint8_t *orig, uint16_t mtu, size_t base,
		      bool base_mf, const struct rte_ether_addr *dst_mac,
		      const uint8_t *later_opts, size_t later_len)
{
	return assert_pieces(f->tx.pkts[port], f->tx.n[port], port, orig, mtu,
			     base, base_mf, dst_mac, later_opts, later_len);
}

static unsigned int
assert_fragments(struct unit_fixture *f, uint16_t port, const uint8_t *orig,
		 uint16_t mtu, size_t base, bool base_mf,
		 const struct rte_ether_addr *dst_mac)
{
	return assert_fragments_opts(f, port, orig, mtu, base, base_mf,
				     dst_mac, NULL, 0);
}

/* C18: 1028 bytes DF clear through MTU 1000: 996 bytes (MF, offset 0)
 * and 52 bytes (offset 122), TTL 63, valid checksums; the UDP header and
 * checksum as they were, in the first. */
static void
test_fragment_c18(void **state)
{
	struct unit_fixture *f = *state;
	size_t len;

	unit_cmd(f, "port 1 mtu 1000");
	len = datagram(UNIT_B_IP, 0x1234, 1000);
	unit_input_one(f, unit_mbuf_exact(whole, len, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 2);
	assert_int_equal(assert_fragments(f, UNIT_P1, whole, 1000, 0, false,
					  &unit_b_mac), 2);
	unit_mbuf_bytes(f->tx.pkts[UNIT_P1][0], got, sizeof(got));
	assert_int_equal(get16(IP(got) + 2), 996);
	assert_int_equal(get16(IP(got) + 6), 0x2000);
	assert_memory_equal(IP(got) + 20, IP(whole) + 20, 8);
	unit_mbuf_bytes(f->tx.pkts[UNIT_P1][1], got, sizeof(got));
	assert_int_equal(get16(IP(got) + 2), 52);
	assert_int_equal(get16(IP(got) + 6), 122);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.ForwDatagrams = 1, .FragOKs = 1, .FragCreates = 2 });
	assert_int_equal(unit_stats(f).icmp.OutMsgs, 0);
}

/* 8000 bytes of payload in 5 segments at MTU 1500 (via the gateway to
 * 10.9.0.0/16): 5 pieces of 1480 bytes and one of 608; 576, the IPv4
 * minimum, makes 15. */
static void
test_fragment_large_segmented(void **state)
{
	struct unit_fixture *f = *state;
	static const size_t segs[] = { 100, 2000, 2000, 2000 };
	size_t len = datagram(UNIT_FAR_IP, 7, 8000);

	unit_input_one(f, unit_mbuf_segs_from_bytes(whole, len, segs, 5,
						    UNIT_P0));
	assert_int_equal(assert_fragments(f, UNIT_P1, whole, 1500, 0, false,
					  &unit_b_mac), 6);
	unit_tx_free(f);
	unit_cmd(f, "port 1 mtu 576");
	unit_input_one(f, unit_mbuf_big(whole, len, UNIT_P0));
	assert_int_equal(assert_fragments(f, UNIT_P1, whole, 576, 0, false,
					  &unit_b_mac), 15);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.ForwDatagrams = 2, .FragOKs = 2, .FragCreates = 21 });
}

/*
 * As many pieces as it takes (Linux's ip_fragment has no bound): the
 * largest datagram through MTU 1000 is 68 pieces, 8000 bytes through the
 * smallest MTU, 68, are 167.
 */
static void
test_fragment_many_pieces(void **state)
{
	struct unit_fixture *f = *state;
	size_t len;

	unit_cmd(f, "port 1 mtu 1000");
	len = datagram(UNIT_B_IP, 3, 65535 - 28);
	unit_input_one(f, unit_mbuf_big(whole, len, UNIT_P0));
	assert_int_equal(assert_fragments(f, UNIT_P1, whole, 1000, 0, false,
					  &unit_b_mac), 68);
	unit_tx_free(f);
	unit_cmd(f, "port 1 mtu 68");
	len = datagram(UNIT_B_IP, 4, 8000);
	unit_input_one(f, unit_mbuf_big(whole, len, UNIT_P0));
	assert_int_equal(assert_fragments(f, UNIT_P1, whole, 68, 0, false,
					  &unit_b_mac), 167);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.ForwDatagrams = 2, .FragOKs = 2, .FragCreates = 68 + 167 });
}

/*
 * A fragment forwarded through a smaller MTU is cut again as ip_fragment
 * does: its pieces' offsets count from the datagram's start, and only
 * the last piece of the last fragment has MF clear.
 */
static void
test_fragment_a_fragment(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX], fr[UNIT_FRAME_MAX];
	size_t len, n;

	unit_cmd(f, "port 1 mtu 576");
	len = datagram(UNIT_B_IP, 99, 2500);	/* 2508 bytes of IP data */
	assert_true(len <= sizeof(whole));
	/* a middle piece: 1200 bytes at 1480, MF */
	n = unit_frag_build(whole, 1480, 1200, true, fr, sizeof(fr));
	unit_input_one(f, unit_mbuf_exact(fr, n, n, UNIT_P0));
	assert_int_equal(assert_fragments(f, UNIT_P1, fr, 576, 1480, true,
					  &unit_b_mac), 3);
	unit_tx_free(f);
	/* the last piece: 1028 bytes at 1480, MF clear */
	n = unit_frag_build(whole, 1480, 1028, false, b, sizeof(b));
	unit_input_one(f, unit_mbuf_exact(b, n, n, UNIT_P0));
	assert_int_equal(assert_fragments(f, UNIT_P1, b, 576, 1480, false,
					  &unit_b_mac), 2);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.ForwDatagrams = 2, .FragOKs = 2, .FragCreates = 5 });
}

/*
 * IP options (RFC 791): the first piece carries them all, the others
 * only those with the copied flag. No-ops are not copied (the later
 * pieces have no options); a router alert (148) is.
 */
static void
test_fragment_with_options(void **state)
{
	static const uint8_t nops[] = { 0x01, 0x01, 0x01, 0x00 };
	static const uint8_t ra[] = { 0x94, 0x04, 0x00, 0x00 };
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	size_t len;

	unit_cmd(f, "port 1 mtu 1000");
	unit_pkt_init(&p, UNIT_B_IP);
	p.df = false;
	p.opt_len = sizeof(nops);
	memcpy(p.opts, nops, sizeof(nops));
	len = unit_pkt_build(&p, whole, sizeof(whole));
	unit_input_one(f, unit_mbuf_exact(whole, len, len, UNIT_P0));
	assert_int_equal(assert_fragments_opts(f, UNIT_P1, whole, 1000, 0,
					       false, &unit_b_mac, ra, 0), 2);
	unit_tx_free(f);

	memcpy(p.opts, ra, sizeof(ra));
	p.payload_len = 2500;
	len = unit_pkt_build(&p, whole, sizeof(whole));
	unit_input_one(f, unit_mbuf_big(whole, len, UNIT_P0));
	assert_int_equal(assert_fragments_opts(f, UNIT_P1, whole, 1000, 0,
					       false, &unit_b_mac, ra,
					       sizeof(ra)), 3);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.ForwDatagrams = 2, .FragOKs = 2, .FragCreates = 5 });
}

/*
 * E8: a train of 3 x 1028 bytes, DF clear, through MTU 1000 is cut back
 * into its datagrams and each is fragmented as in C18: 6 frames, each
 * pair the pieces of one datagram with its own ID. The same whether the
 * train was chained (fraglist) or merged.
 */
static void
test_fragment_train_e8(void **state)
{
	static const char *const modes[] = { "gro fraglist flows 4 segs 8",
					     "gro merge flows 4 segs 8" };
	static uint8_t orig[3][UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];
	unsigned int m, k;

	unit_cmd(f, "port 1 mtu 1000");
	for (m = 0; m < RTE_DIM(modes); m++) {
		unit_cmd(f, modes[m]);
		for (k = 0; k < 3; k++) {
			size_t len = datagram(UNIT_B_IP, (uint16_t)(100 + k),
					      1000);

			memcpy(orig[k], whole, len);
			pkts[k] = unit_mbuf_from_bytes(whole, len, UNIT_P0);
		}
		unit_input(f, pkts, 3);
		assert_int_equal(unit_stats(f).gro.Trains, m + 1);
		assert_int_equal(unit_tx_count(f), 6);
		for (k = 0; k < 3; k++)
			assert_int_equal(assert_pieces(
				f->tx.pkts[UNIT_P1] + 2 * k, 2, UNIT_P1,
				orig[k], 1000, 0, false, &unit_b_mac, NULL, 0),
				2);
		unit_tx_free(f);
		unit_assert_ip(f, (struct lsk_ip_stats){
			.InReceives = 3 * (m + 1),
			.ForwDatagrams = 3 * (m + 1),
			.FragOKs = 3 * (m + 1), .FragCreates = 6 * (m + 1) });
	}
}

/* DF set is never fragmented (C18, DF=1): FragFails and fragmentation
 * needed, no FragOKs. */
static void
test_fragment_df_set(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	unit_cmd(f, "port 1 mtu 1000");
	unit_pkt_init(&p, UNIT_B_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 4), 1);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.FragFails = 1 });
}

/* A next hop with no MAC yet: ARP asks once, the pieces wait and leave
 * to the MAC the reply brings. */
static void
test_fragment_unresolved(void **state)
{
	static const struct rte_ether_addr mac7 = {
		.addr_bytes = { 0x02, 0, 0, 0, 0x01, 0x07 } };
	struct unit_fixture *f = *state;
	uint32_t ip7 = UNIT_IPV4(10, 0, 1, 7);
	size_t len;

	unit_cmd(f, "port 1 mtu 1000");
	len = datagram(ip7, 5, 1000);
	unit_input_one(f, unit_mbuf_exact(whole, len, len, UNIT_P0));
	assert_int_equal(unit_tx_arp_requests(f, UNIT_P1, ip7), 1);
	assert_int_equal(unit_tx_count(f), 1);
	unit_tx_free(f);
	unit_input_one(f, unit_arp_mbuf(UNIT_P1, 2, &unit_p1_mac, &mac7, ip7,
					&unit_p1_mac, UNIT_P1_IP));
	assert_int_equal(assert_fragments(f, UNIT_P1, whole, 1000, 0, false,
					  &mac7), 2);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.ForwDatagrams = 1, .FragOKs = 1, .FragCreates = 2 });
}

/* No mbuf for the pieces: FragFails, nothing sent, every mbuf back. */
static void
test_fragment_no_mbufs(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mempool *sp = unit_small_pool("frag_small", 2048);
	struct rte_mbuf *m, *held[64];
	unsigned int n = 0;
	size_t len;

	unit_cmd(f, "port 1 mtu 1000");
	len = datagram(UNIT_B_IP, 5, 1500);
	m = rte_pktmbuf_alloc(sp);
	assert_non_null(m);
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), whole, len);
	m->port = UNIT_P0;
	while (n < RTE_DIM(held) && (held[n] = rte_pktmbuf_alloc(sp)) != NULL)
		n++;
	unit_input_one(f, m);
	assert_int_equal(unit_tx_count(f), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.ForwDatagrams = 1, .FragFails = 1 });
	rte_pktmbuf_free_bulk(held, n);
	assert_int_equal(rte_mempool_in_use_count(sp), 0);
	rte_mempool_free(sp);
}

/* ------------------------------------------------------- reassembly */

/* One datagram in ep: the frame of the datagram before it was cut (len
 * bytes at frame), header and all: the reassembled header reads as the
 * original. */
static void
assert_delivered_as(struct lsk_udp_ep *ep, const uint8_t *frame, size_t len)
{
	size_t ihl = (IP(frame)[0] & 0xf) * 4u, off;
	struct lsk_udp_msg msg;

	assert_int_equal(lsk_udp_recv_burst(ep, &msg, 1), 1);
	assert_int_equal(msg.len, len - UNIT_ETH_LEN - ihl - 8);
	assert_int_equal(msg.src_addr, UNIT_A_IP);
	assert_int_equal(msg.src_port, 1000);
	assert_int_equal(msg.dst_addr, get32(IP(frame) + 16));
	assert_int_equal(unit_mbuf_bytes(msg.mbuf, got, sizeof(got)), len);
	assert_memory_equal(got, frame, len);
	off = (size_t)((uint8_t *)msg.payload -
		       rte_pktmbuf_mtod(msg.mbuf, uint8_t *));
	assert_int_equal(off, UNIT_ETH_LEN + ihl + 8);
	rte_pktmbuf_free(msg.mbuf);
}

/* The same for whole, and nothing else waiting. */
static void
assert_delivered(struct lsk_udp_ep *ep, size_t len)
{
	struct lsk_udp_msg msg;

	assert_delivered_as(ep, whole, len);
	assert_int_equal(lsk_udp_recv_burst(ep, &msg, 1), 0);
}

static void
assert_nothing_delivered(struct lsk_udp_ep *ep)
{
	struct lsk_udp_msg msg;

	assert_int_equal(lsk_udp_recv_burst(ep, &msg, 1), 0);
}

/* B17: 3000 bytes in two pieces (1480 MF, then the rest at 1480): one
 * datagram of 3000 bytes, byte for byte. */
static void
test_reasm_b17(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	size_t len = datagram(UNIT_P0_IP, 0x4242, 3000 - 8);

	input_frag(f, 0, 1480, true);
	assert_nothing_delivered(ep);
	input_frag(f, 1480, 3000 - 1480, false);
	assert_delivered(ep, len);
	assert_int_equal(unit_tx_count(f), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 2,
		.ReasmReqds = 2, .ReasmOKs = 1, .InDelivers = 1 });
	assert_int_equal(unit_stats(f).udp.InDatagrams, 1);
	unit_close(f, ep);
}

/* The pieces of two datagrams in one burst, out of order and mixed:
 * both come out whole, each once, in the order they were completed. */
static void
test_reasm_out_of_order_burst(void **state)
{
	static uint8_t d1[BIG], d2[BIG], d3[128];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *pkts[6];
	size_t len1, len2, len3;

	/* datagram 1 (id 1): 600 + 600 + 208 bytes, last first */
	len1 = datagram(UNIT_P0_IP, 1, 1400);
	memcpy(d1, whole, len1);
	pkts[0] = frag(1200, 208, false);
	pkts[2] = frag(600, 600, true);
	pkts[4] = frag(0, 600, true);
	/* datagram 2 (id 2): 512 + 8 bytes, among them */
	len2 = datagram(UNIT_P0_IP, 2, 512);
	memcpy(d2, whole, len2);
	pkts[1] = frag(512, 8, false);
	pkts[3] = frag(0, 512, true);
	/* and a datagram alone, DF clear but not a fragment */
	len3 = datagram(UNIT_P0_IP, 3, 20);
	memcpy(d3, whole, len3);
	pkts[5] = unit_mbuf_exact(d3, len3, len3, UNIT_P0);
	unit_input(f, pkts, 6);

	assert_delivered_as(ep, d2, len2);
	assert_delivered_as(ep, d1, len1);
	assert_delivered_as(ep, d3, len3);
	assert_int_equal(unit_recv_free(ep, 1), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 6,
		.ReasmReqds = 5, .ReasmOKs = 2, .InDelivers = 3 });
	unit_close(f, ep);
}

/*
 * Options as RFC 791 senders cut them: all in the first piece, none (not
 * copied) in the later one, whose data starts after its shorter header.
 * The datagram reads as it was sent, options and all.
 */
static void
test_reasm_options_first_piece_only(void **state)
{
	static const uint8_t nops[] = { 0x01, 0x01, 0x01, 0x00 };
	static uint8_t bare[BIG];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct unit_pkt p;
	size_t len, n;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.df = false;
	p.id = 55;
	p.payload_len = 1000;
	unit_pkt_build(&p, bare, sizeof(bare));		/* IHL 5 */
	p.opt_len = sizeof(nops);
	memcpy(p.opts, nops, sizeof(nops));
	len = unit_pkt_build(&p, whole, sizeof(whole));	/* IHL 6 */
	n = unit_frag_build(bare, 504, 504, false, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, n, n, UNIT_P0));
	input_frag(f, 0, 504, true);
	assert_delivered(ep, len);
	unit_close(f, ep);
}

/* The smallest pieces: 8 bytes each, as many as a datagram may have
 * (LSK_REASM_PIECES_MAX), in reverse order, each in a buffer of its
 * exact size. */
static void
test_reasm_tiny_pieces(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	const int n = LSK_REASM_PIECES_MAX;
	size_t len = datagram(UNIT_P0_IP, 77, 8u * n - 8);
	int k;

	for (k = n - 1; k >= 0; k--)
		input_frag(f, 8u * k, 8, k != n - 1);
	assert_delivered(ep, len);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = n,
		.ReasmReqds = n, .ReasmOKs = 1, .InDelivers = 1 });
	unit_close(f, ep);
}

/*
 * A 16 KB datagram over a 1500-byte MTU: 12 pieces of 1480 bytes, as
 * Linux cuts it, shuffled. It comes whole (DPDK's rte_ip_frag, which
 * ip4_frag.c used, held at most 8 pieces and dropped it).
 */
static void
test_reasm_16k_in_12_pieces(void **state)
{
	static const int order[] = { 3, 0, 1, 2, 11, 4, 5, 7, 6, 8, 10, 9 };
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	size_t len = datagram(UNIT_P0_IP, 1600, 16384);
	const size_t data = 16384 + 8;
	unsigned int k;

	for (k = 0; k < RTE_DIM(order); k++) {
		size_t ofs = 1480u * (size_t)order[k];

		input_frag(f, ofs, RTE_MIN(1480u, data - ofs), order[k] != 11);
	}
	assert_delivered(ep, len);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 12,
		.ReasmReqds = 12, .ReasmOKs = 1, .InDelivers = 1 });
	unit_close(f, ep);
}

/* One piece more than a datagram may have: it is dropped whole and
 * counted, every mbuf freed. */
static void
test_reasm_too_many_pieces(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	const int n = LSK_REASM_PIECES_MAX + 1;
	int k;

	datagram(UNIT_P0_IP, 78, 8u * n - 8);
	for (k = 0; k < n; k++)
		input_frag(f, 8u * k, 8, k != n - 1);
	assert_nothing_delivered(ep);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = n,
		.ReasmReqds = n, .ReasmFails = 1 });
	unit_close(f, ep);
}

/*
 * As Linux's ip_frag_queue: a piece inside what is held (the first or
 * the last twice, one across two touching pieces) is dropped alone and
 * the datagram still comes whole, once; a piece that overlaps others
 * drops the datagram (ReasmOverlaps, ReasmFails), every mbuf freed, and
 * the same ID sent cleanly afterwards is a new datagram and arrives.
 */
static void
test_reasm_duplicates_and_overlaps(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	size_t len = datagram(UNIT_P0_IP, 9, 1600 - 8);
	struct lsk_stats st;

	/* the first piece twice, a copy across two pieces, then the last */
	input_frag(f, 0, 400, true);
	input_frag(f, 0, 400, true);
	input_frag(f, 400, 400, true);
	input_frag(f, 200, 400, true);
	assert_nothing_delivered(ep);
	input_frag(f, 800, 800, false);
	assert_delivered(ep, len);
	/* the last piece again: a new datagram, held */
	input_frag(f, 800, 800, false);
	assert_nothing_delivered(ep);
	assert_int_equal(lsk_reasm_held(f->worker), 1);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 6);
	assert_int_equal(st.ip.ReasmOKs, 1);
	assert_int_equal(st.ip.ReasmDuplicates, 2);
	assert_int_equal(st.ip.ReasmFails, 0);
	/* two pieces overlapping by 8 bytes: all of it dropped */
	input_frag(f, 0, 400, true);
	input_frag(f, 400 - 8, 408, true);
	assert_int_equal(lsk_reasm_held(f->worker), 0);
	input_frag(f, 400, 400, true);	/* starts anew */
	lsk_frag_drop_incomplete(f->worker);
	assert_nothing_delivered(ep);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 9);
	assert_int_equal(st.ip.ReasmOverlaps, 1);
	assert_int_equal(st.ip.ReasmFails, 1);
	assert_int_equal(st.ip.InDelivers, 1);
	assert_int_equal(unit_pool_in_use(), f->in_use_start +
			 (unsigned int)lsk_reasm_held(f->worker));
	/* cleanly now */
	input_frag(f, 800, 800, false);
	input_frag(f, 0, 800, true);
	assert_delivered(ep, len);
	assert_int_equal(unit_stats(f).ip.ReasmOKs, 2);
	unit_close(f, ep);
}

/*
 * The largest datagram, 65535 bytes of IP, in two pieces of 32 KiB (each
 * in 17 segments) is delivered whole; 13 bytes more (a last piece ending
 * past 65535) is dropped whole, ReasmFails (Linux: "oversized IP
 * packet"), and nothing reads as a short datagram.
 */
static void
test_reasm_65535_and_past(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	size_t len = datagram(UNIT_P0_IP, 0xfff, 65535 - 28);

	assert_int_equal(len, UNIT_ETH_LEN + 65535);
	input_frag(f, 32768, 65535 - 20 - 32768, false);
	input_frag(f, 0, 32768, true);
	assert_delivered(ep, len);

	/* the same again but the last piece 13 bytes longer */
	datagram(UNIT_P0_IP, 0xffe, 65535 - 28);
	memset(whole + len, 0x5c, 13);
	input_frag(f, 0, 32768, true);
	input_frag(f, 32768, 65535 - 20 - 32768 + 13, false);
	assert_nothing_delivered(ep);
	/* a last piece at the highest offset, 8191 * 8, alone: it can
	 * never make a datagram, dropped at once (Linux holds it until its
	 * timeout) */
	input_frag(f, 65528, 16, false);
	assert_nothing_delivered(ep);
	assert_int_equal(lsk_reasm_held(f->worker), 0);
	assert_int_equal(unit_tx_count(f), 0);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 5,
		.ReasmReqds = 5, .ReasmOKs = 1, .ReasmFails = 2,
		.InDelivers = 1 });
	assert_int_equal(unit_stats(f).udp.InDatagrams, 1);
	unit_close(f, ep);
}

/*
 * A piece whose frame is shorter than its total length is a truncated
 * packet (ip4_input), never seen by reassembly. A piece with no data
 * (total length = the header) cannot belong to a datagram: Linux drops
 * it (and what it queued with); the datagram whose pieces then arrive
 * is delivered, and nothing is left held.
 */
static void
test_reasm_truncated_and_empty(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	size_t n, len;

	len = datagram(UNIT_P0_IP, 11, 1000);
	n = unit_frag_build(whole, 0, 800, true, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, n - 1, n - 1, UNIT_P0));
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.InTruncatedPkts = 1 });
	/* no data, in the middle */
	input_frag(f, 400, 0, true);
	input_frag(f, 0, 800, true);
	input_frag(f, 800, 208, false);
	assert_delivered(ep, len);
	{
		struct lsk_stats st = unit_stats(f);

		assert_int_equal(st.ip.InReceives, 4);
		assert_int_equal(st.ip.ReasmReqds, 3);
		assert_int_equal(st.ip.ReasmOKs, 1);
		assert_int_equal(st.ip.InDelivers, 1);
	}
	unit_close(f, ep);
}

/*
 * A flood of first pieces that never complete (5000 datagrams): the
 * table holds a bounded number, the oldest evicted for each newcomer and
 * counted ReasmFails, and a real datagram sent into the full table comes
 * whole; then many pieces of fewer datagrams: never more than
 * LSK_REASM_HELD_MAX mbufs held (the pool is sized for them, the ports'
 * RX never starves), and a real datagram still comes whole.
 */
static void
test_reasm_flood_bounded(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *pkts[250];
	unsigned int i, k, held;
	struct lsk_stats st;
	size_t len;

	for (i = 0; i < 5000; i += 250) {
		for (k = 0; k < 250; k++) {
			datagram(UNIT_P0_IP, (uint16_t)(i + k), 100);
			pkts[k] = frag(0, 64, true);
		}
		unit_input(f, pkts, 250);
	}
	held = unit_pool_in_use() - f->in_use_start;
	assert_int_equal(held, lsk_reasm_held(f->worker));
	assert_true(held <= LSK_REASM_HELD_MAX);
	assert_true(held > 0);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 5000);
	/* the oldest made room for each newcomer, each counted */
	assert_int_equal(st.ip.ReasmFails, 5000 - held);
	assert_int_equal(st.ip.ReasmOKs, 0);
	/* a real sender's datagram still comes whole, the table full */
	len = datagram(UNIT_P0_IP, 6000, 100);
	input_frag(f, 0, 64, true);
	input_frag(f, 64, 44, false);
	assert_delivered(ep, len);
	assert_int_equal(lsk_frag_drop_incomplete(f->worker), 0);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);

	/* 100 datagrams of 20 pieces each (the last never sent): more
	 * pieces than LSK_REASM_HELD_MAX, the oldest datagrams go whole */
	st = unit_stats(f);
	for (k = 0; k < 20; k++) {
		for (i = 0; i < 100; i++) {
			datagram(UNIT_P0_IP, (uint16_t)(10000 + i), 20 * 64);
			pkts[i] = frag(64u * k, 64, true);
		}
		unit_input(f, pkts, 100);
		held = lsk_reasm_held(f->worker);
		assert_true(held <= LSK_REASM_HELD_MAX);
		assert_int_equal(unit_pool_in_use() - f->in_use_start, held);
	}
	assert_true(held > LSK_REASM_HELD_MAX - 20);
	assert_true(unit_stats(f).ip.ReasmFails > st.ip.ReasmFails);
	len = datagram(UNIT_P0_IP, 6001, 100);
	input_frag(f, 64, 44, false);
	input_frag(f, 0, 64, true);
	assert_delivered(ep, len);
	assert_int_equal(lsk_frag_drop_incomplete(f->worker), 0);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
	unit_close(f, ep);
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * A datagram whose pieces take longer than the timeout (250 ms here:
 * long enough for two pieces in a row on a loaded machine): the next
 * poll drops what was held (ReasmTimeout, ReasmFails) and, the first
 * piece being among it, sends its sender an ICMP time exceeded,
 * fragment reassembly (11/1) quoting it; the late piece starts a new
 * datagram, which the first piece sent again completes. Without the
 * first piece no ICMP is owed.
 */
static void
test_reasm_timeout(void **state)
{
	static uint8_t first[BIG];
	const struct unit_icmp_want te = { .type = 11, .code = 1,
		.src = UNIT_P0_IP, .dst_mac = &unit_a_mac,
		.src_mac = &unit_p0_mac };
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	size_t len = datagram(UNIT_P0_IP, 21, 1200);
	size_t n = unit_frag_build(whole, 0, 600, true, first, sizeof(first));

	lsk_reasm_timeout_set(f->worker, rte_get_tsc_hz() / 4);
	input_frag(f, 0, 600, true);
	assert_int_equal(unit_tx_count(f), 0);
	sleep_ms(600);
	lsk_worker_flush(f->worker);		/* a poll with nothing */
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 1,
		.ReasmReqds = 1, .ReasmFails = 1, .ReasmTimeout = 1 });
	assert_int_equal(lsk_reasm_held(f->worker), 0);
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	/* quoting the first piece as it came */
	unit_assert_icmp_error(f->tx.pkts[UNIT_P0][0], &te, IP(first),
			       n - UNIT_ETH_LEN);
	assert_int_equal(unit_stats(f).icmp.OutTimeExcds, 1);
	unit_tx_free(f);

	input_frag(f, 600, 608, false);
	assert_nothing_delivered(ep);
	input_frag(f, 0, 600, true);
	assert_delivered(ep, len);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 3,
		.ReasmReqds = 3, .ReasmFails = 1, .ReasmTimeout = 1,
		.ReasmOKs = 1, .InDelivers = 1 });

	/* only a later piece held: dropped, no ICMP */
	input_frag(f, 600, 600, true);
	sleep_ms(600);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_stats(f).ip.ReasmTimeout, 2);
	assert_int_equal(unit_tx_count(f), 0);
	unit_close(f, ep);
}

/*
 * lsk_ip4_reassemble called directly: NULL while pieces are missing;
 * the whole datagram, in segments, with the total length of the whole,
 * no fragment bits, a valid checksum and no L4 checksum verdict (a NIC's
 * verdict was about the first piece only).
 */
static void
test_reasm_direct(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *a, *b, *m;
	size_t len = datagram(UNIT_P0_IP, 31, 1000);

	a = frag(0, 504, true);
	b = frag(504, 504, false);
	a->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_GOOD |
		       RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	b->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_BAD |
		       RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	assert_null(lsk_ip4_reassemble(f->worker, b, 0));
	m = lsk_ip4_reassemble(f->worker, a, 0);
	assert_non_null(m);
	assert_true(m->nb_segs >= 2);
	assert_int_equal(m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK, 0);
	assert_int_equal(unit_mbuf_bytes(m, got, sizeof(got)), len);
	assert_memory_equal(got, whole, len);
	assert_int_equal(unit_ip4_hdr_sum(IP(rte_pktmbuf_mtod(m, uint8_t *))),
			 0);
	rte_pktmbuf_free(m);
	unit_assert_ip(f, (struct lsk_ip_stats){ .ReasmReqds = 2,
		.ReasmOKs = 1 });
}

/* A NIC that said the first piece's UDP checksum is good says nothing
 * about the datagram: a corrupt second piece is a checksum error. */
static void
test_reasm_checksum_of_the_whole(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *a, *b;
	struct lsk_stats st;

	datagram(UNIT_P0_IP, 41, 1000);
	IP(whole)[28 + 900] ^= 0x01;		/* in the second piece */
	a = frag(0, 504, true);
	b = frag(504, 504, false);
	a->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	unit_input_one(f, a);
	unit_input_one(f, b);
	assert_nothing_delivered(ep);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmOKs, 1);
	assert_int_equal(st.udp.InCsumErrors, 1);
	assert_int_equal(st.udp.InErrors, 1);
	assert_int_equal(st.udp.InDatagrams, 0);
	unit_close(f, ep);
}

/*
 * The case: an echo request of 3072 bytes of data to us in three
 * pieces (1480, 1480, 120) is reassembled and answered, as Linux answers
 * it: the reply, over P0's MTU of 1500, leaves in fragments whose bytes
 * reassemble to the echo reply (type 0, same identifier, sequence and
 * data, a valid checksum over the whole, from our address to A).
 */
static void
test_reasm_echo_answered_in_fragments(void **state)
{
	static uint8_t req[BIG], rep[BIG];
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	size_t len, ofs, tot = 0;
	unsigned int i, n;
	uint32_t sum;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.df = false;
	p.id = 0x3072;
	p.payload_len = 3072;
	len = unit_icmp_build(&p, 8, 0, 0x77770003, req, sizeof(req));
	memcpy(whole, req, len);
	for (ofs = 0; ofs < len - UNIT_ETH_LEN - 20; ofs += 1480)
		input_frag(f, ofs, RTE_MIN((size_t)1480,
					   len - UNIT_ETH_LEN - 20 - ofs),
			   ofs + 1480 < len - UNIT_ETH_LEN - 20);
	unit_assert_ip(f, (struct lsk_ip_stats){ .InReceives = 3,
		.ReasmReqds = 3, .ReasmOKs = 1, .InDelivers = 1,
		.FragOKs = 1, .FragCreates = 3 });
	assert_int_equal(unit_stats(f).icmp.InErrors, 0);
	assert_int_equal(unit_stats(f).icmp.OutEchoReps, 1);
	n = f->tx.n[UNIT_P0];
	assert_int_equal(unit_tx_count(f), n);
	assert_int_equal(n, 3);
	/* the pieces, in order, put back together by their offsets */
	for (i = 0; i < n; i++) {
		size_t fl = unit_mbuf_bytes(f->tx.pkts[UNIT_P0][i], got,
					    sizeof(got));
		const uint8_t *ip = IP(got);
		size_t ihl = (ip[0] & 0xf) * 4u, data = get16(ip + 2) - ihl;
		size_t at = (get16(ip + 6) & 0x1fff) * 8u;

		assert_int_equal(fl, UNIT_ETH_LEN + get16(ip + 2));
		assert_true(get16(ip + 2) <= 1500);
		assert_memory_equal(got, &unit_a_mac, 6);
		assert_memory_equal(got + 6, &unit_p0_mac, 6);
		assert_int_equal(unit_ip4_hdr_sum(ip), 0);
		assert_int_equal(get16(ip + 6) & 0x4000, 0);	/* DF */
		assert_int_equal(!!(get16(ip + 6) & 0x2000), i != n - 1);
		assert_int_equal(get32(ip + 12), UNIT_P0_IP);
		assert_int_equal(get32(ip + 16), UNIT_A_IP);
		assert_int_equal(ip[9], IPPROTO_ICMP);
		assert_int_equal(at, tot);
		memcpy(rep + at, ip + ihl, data);
		tot += data;
	}
	assert_int_equal(tot, 8 + 3072);
	assert_int_equal(rep[0], 0);			/* echo reply */
	assert_int_equal(rep[1], 0);
	assert_memory_equal(rep + 4, IP(req) + 24, 4 + 3072);
	for (sum = 0, i = 0; i < tot; i += 2)
		sum += (uint32_t)(rep[i] << 8 | rep[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	assert_int_equal(sum, 0xffff);
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)
/* the same test in single mode, under its own name */
#define TS(fn) { #fn "_single", fn, unit_setup_single, unit_teardown, NULL }

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_fragment_c18),
		TS(test_fragment_c18),
		T(test_fragment_large_segmented),
		T(test_fragment_many_pieces),
		T(test_fragment_a_fragment),
		T(test_fragment_with_options),
		T(test_fragment_train_e8),
		T(test_fragment_df_set),
		T(test_fragment_unresolved),
		T(test_fragment_no_mbufs),
		T(test_reasm_b17),
		TS(test_reasm_b17),
		T(test_reasm_out_of_order_burst),
		TS(test_reasm_out_of_order_burst),
		T(test_reasm_options_first_piece_only),
		T(test_reasm_tiny_pieces),
		T(test_reasm_16k_in_12_pieces),
		TS(test_reasm_16k_in_12_pieces),
		T(test_reasm_too_many_pieces),
		T(test_reasm_duplicates_and_overlaps),
		TS(test_reasm_duplicates_and_overlaps),
		T(test_reasm_65535_and_past),
		T(test_reasm_truncated_and_empty),
		T(test_reasm_flood_bounded),
		T(test_reasm_timeout),
		T(test_reasm_direct),
		T(test_reasm_checksum_of_the_whole),
		T(test_reasm_echo_answered_in_fragments),
		TS(test_reasm_echo_answered_in_fragments),
	};

	return cmocka_run_group_tests_name("ip4_frag", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
