/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd_fast (ip4/fwd_fast.c): the common forwarded packet in two passes.
 * What it forwards, and what it hands on to the stages, must come out
 * exactly as the stages alone make it: every burst here goes to a list
 * mode stack (the fast path on) and to a single mode one (the stages
 * alone, packet by packet), and the frames and counters must agree. The
 * fast path takes only the burst's leading packets it can decide, so the
 * frames of a flow keep their order around an exception.
 */
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "unit_pair.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

/* a second gateway on P1, so that a burst has two next hops there */
#define C_IP UNIT_IPV4(10, 0, 1, 2)
#define NEAR_IP UNIT_IPV4(10, 8, 0, 9)	/* in 10.8.0.0/16 via C */

static const struct rte_ether_addr c_mac = {
	.addr_bytes = { 0x02, 0, 0, 0, 0x01, 0x02 }
};

static void
pair_cmd(struct pair *pr, const char *line)
{
	unit_cmd(pr->a, line);
	unit_cmd(pr->b, line);
}

static int
pair_setup(void **state)
{
	struct pair *pr;

	if (pair_create(state, NULL) != 0)
		return -1;
	pr = *state;
	pair_cmd(pr, "neigh add 10.0.1.2 lladdr 02:00:00:00:01:02");
	pair_cmd(pr, "route add 10.8.0.0/16 via 10.0.1.2");
	pair_cmd(pr, "route add 10.66.0.0/16 blackhole");
	return 0;
}

static int
pair_teardown(void **state)
{
	struct pair *pr = *state;

	pair_clear(pr);
	pair_release(pr);
	return 0;
}

/* n datagrams from A on P0 to dst, IDs from id. */
static void
frames_flow(struct frames *fr, uint32_t dst, unsigned int n, uint16_t id)
{
	struct unit_pkt p;
	unsigned int i;

	unit_pkt_init(&p, dst);
	p.payload_len = 18;
	for (i = 0; i < n; i++) {
		p.id = (uint16_t)(id + i);
		frames_add(fr, &p);
	}
}

/* Both sent the same frames (unit_assert_same_frames). */
static void
assert_same_frames(const struct pair *pr)
{
	unit_assert_same_frames(pr->a, pr->b);
}

/*
 * The same counters; the stages' packets too, the fast path's counting
 * for each stage it stands for (eth_input, ip4_input, ip4_route,
 * ip4_forward: it decided their part for those packets).
 */
static void
assert_same_counters(const struct pair *pr)
{
	const struct lsk_stats a = unit_stats(pr->a), b = unit_stats(pr->b);
	const uint64_t fast = a.stages[LSK_STAGE_FWD_FAST].packets;
	/* with the filter on, what it dropped on the fast path never went
	 * on to ip4_route and ip4_forward: the stages' filter drops what
	 * it takes less what it hands ip4_route */
	const bool filter = b.stages[LSK_STAGE_IP4_FILTER].calls != 0;
	const uint64_t fast_dropped = !filter ? 0 : a.filter.Dropped -
		(a.stages[LSK_STAGE_IP4_FILTER].packets -
		 a.stages[LSK_STAGE_IP4_ROUTE].packets);
	unsigned int i;

	assert_memory_equal(&a.ip, &b.ip, sizeof(a.ip));
	assert_memory_equal(&a.udp, &b.udp, sizeof(a.udp));
	assert_memory_equal(&a.icmp, &b.icmp, sizeof(a.icmp));
	assert_memory_equal(&a.eth, &b.eth, sizeof(a.eth));
	assert_memory_equal(&a.arp, &b.arp, sizeof(a.arp));
	assert_memory_equal(a.ports, b.ports, sizeof(a.ports));
	assert_memory_equal(&a.filter, &b.filter, sizeof(a.filter));
	assert_int_equal(b.stages[LSK_STAGE_FWD_FAST].packets, 0);
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		uint64_t want = b.stages[i].packets;

		if (i == LSK_STAGE_FWD_FAST)
			continue;
		if (i == LSK_STAGE_ETH_INPUT || i == LSK_STAGE_IP4_INPUT ||
		    (filter && i == LSK_STAGE_IP4_FILTER))
			want -= fast;
		if (i == LSK_STAGE_IP4_ROUTE || i == LSK_STAGE_IP4_FORWARD)
			want -= fast - fast_dropped;
		assert_int_equal(a.stages[i].packets, want);
	}
	unit_assert_ip_balance(&a);
}

static uint64_t
fast_packets(const struct unit_fixture *f)
{
	return unit_stats(f).stages[LSK_STAGE_FWD_FAST].packets;
}

/* IDs of the UDP frames f sent on port, in order. */
static void
assert_ids(const struct unit_fixture *f, uint16_t port, const uint16_t *ids,
	   unsigned int n)
{
	unsigned int i, k = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		struct rte_mbuf *m = f->tx.pkts[port][i];

		if (unit_frame_is_icmp(m) || unit_frame_is_arp(m))
			continue;
		assert_true(k < n);
		assert_int_equal(rte_be_to_cpu_16(unit_ip4(m)->packet_id),
				 ids[k]);
		k++;
	}
	assert_int_equal(k, n);
}

/* The next hop's MAC for a destination of these tests, all out of P1. */
static const struct rte_ether_addr *
p1_next_hop_mac(uint32_t dst)
{
	return dst == NEAR_IP ? &c_mac : &unit_b_mac;
}

/*
 * What forwarding makes of frame i of fr, written here from scratch and
 * not by the code under test: the next hop's MAC and P1's, TTL-1, the
 * header checksum summed anew over the whole header (what RFC 1624's
 * update must give, 0x0000 never written as 0xffff).
 */
static size_t
expected_forward(const struct frames *fr, unsigned int i, uint8_t *e)
{
	uint32_t dst;

	memcpy(e, fr->b[i], fr->len[i]);
	dst = get32(IP(e) + 16);
	memcpy(e, p1_next_hop_mac(dst), RTE_ETHER_ADDR_LEN);
	memcpy(e + RTE_ETHER_ADDR_LEN, &unit_p1_mac, RTE_ETHER_ADDR_LEN);
	IP(e)[8]--;
	unit_ip4_fix_cksum(IP(e));
	return fr->len[i];
}

/* Every UDP frame f sent on P1 is, byte for byte, expected_forward of the
 * frame of fr with its IP ID (IDs unique in fr); all n of them went. */
static void
assert_forwarded_as_built(const struct unit_fixture *f,
			  const struct frames *fr, unsigned int n)
{
	static uint8_t got[UNIT_FRAME_MAX], want[UNIT_FRAME_MAX];
	unsigned int i, k, seen = 0;

	for (i = 0; i < f->tx.n[UNIT_P1]; i++) {
		const struct rte_mbuf *m = f->tx.pkts[UNIT_P1][i];
		size_t len = unit_mbuf_bytes(m, got, sizeof(got)), wlen;
		uint16_t id = get16(IP(got) + 4);

		if (unit_frame_is_icmp(m) || unit_frame_is_arp(m))
			continue;
		for (k = 0; k < fr->n && get16(IP(fr->b[k]) + 4) != id; k++)
			;
		assert_true(k < fr->n);
		wlen = expected_forward(fr, k, want);
		assert_int_equal(len, wlen);
		if (memcmp(got, want, len) != 0)
			print_error("frame of ID %u: checksum %04x, TTL %u, "
				    "expected %04x, %u\n", id,
				    get16(IP(got) + 10), IP(got)[8],
				    get16(IP(want) + 10), IP(want)[8]);
		assert_memory_equal(got, want, len);
		seen++;
	}
	assert_int_equal(seen, n);
}

/* fr, n frames to FAR, to both: the fast path took all of them (the
 * first fast packets of the test), the stages none, and the frames and
 * counters are the stages'. */
static void
all_fast_to_far(struct pair *pr, const struct frames *fr, unsigned int n)
{
	pair_input(pr, fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a), n);
	assert_int_equal(unit_stats(pr->a).stages[LSK_STAGE_ETH_INPUT].calls,
			 0);
	assert_int_equal(unit_tx_udp_to(pr->a, UNIT_P1, UNIT_FAR_IP), n);
}

/* A burst of one flow: all of it by the fast path, byte for byte what
 * the stages make. */
static void
test_one_flow_all_fast(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;

	memset(&fr, 0, sizeof(fr));
	frames_flow(&fr, UNIT_FAR_IP, 32, 0);
	all_fast_to_far(pr, &fr, 32);
	assert_int_equal(unit_stats(pr->a).ip.ForwDatagrams, 32);
	/* and what both make is right, not only the same */
	assert_forwarded_as_built(pr->a, &fr, 32);
	assert_forwarded_as_built(pr->b, &fr, 32);
}

/*
 * The header checksum's edges through the rewrite: datagrams whose IDs
 * are chosen so that their checksum before TTL-1 is each value about
 * the end-around carry (0x0000, 0x00ff, 0xfeff, 0xfffe ...), and the TTL
 * at 2 and 255; the frames out are the ones built from scratch.
 */
static void
test_rewrite_checksum_edges(void **state)
{
	static const uint16_t edges[] = {
		0x0000, 0x0001, 0x00fe, 0x00ff, 0x0100, 0x0101, 0x7fff,
		0x8000, 0xfeff, 0xff00, 0xfefe, 0xfffe,
	};
	static const uint8_t ttls[] = { 2, 64, 255 };
	static struct frames fr;
	struct pair *pr = *state;
	unsigned int t, e, n = 0;
	struct unit_pkt p;
	uint8_t *b;

	memset(&fr, 0, sizeof(fr));
	for (t = 0; t < RTE_DIM(ttls); t++) {
		for (e = 0; e < RTE_DIM(edges); e++) {
			uint32_t base, id;

			unit_pkt_init(&p, e % 2 ? NEAR_IP : UNIT_FAR_IP);
			p.payload_len = 18;
			p.ttl = ttls[t];
			p.id = 0;
			b = frames_add(&fr, &p);
			/* the sum without the checksum and the ID; the ID
			 * that makes the checksum the edge */
			put16(IP(b) + 10, 0);
			base = sum16(IP(b), 20, 0);
			for (id = 0; id <= UINT16_MAX; id++) {
				uint16_t ck;

				ck = (uint16_t)(0xffff - fold(base + id));

				if (ck == edges[e])
					break;
			}
			if (id > UINT16_MAX) {
				fr.n--;		/* no ID gives it */
				continue;
			}
			put16(IP(b) + 4, (uint16_t)id);
			unit_ip4_fix_cksum(IP(b));
			assert_int_equal(get16(IP(b) + 10), edges[e]);
			n++;
		}
	}
	/* a few edges are out of reach of the ID alone, not most */
	assert_true(n >= RTE_DIM(ttls) * (RTE_DIM(edges) - 2));
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a), n);
	assert_forwarded_as_built(pr->a, &fr, n);
	assert_forwarded_as_built(pr->b, &fr, n);
}

/* Destinations by two next hops, interleaved, and one connected: runs of
 * one next hop each, all fast. */
static void
test_next_hop_runs(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct unit_pkt p;
	unsigned int i;

	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 40; i++) {
		uint32_t dst = i % 5 == 0 ? UNIT_B_IP :
			       (i / 3) % 2 ? NEAR_IP : UNIT_FAR_IP + i;

		unit_pkt_init(&p, dst);
		p.payload_len = 18;
		p.id = (uint16_t)i;
		frames_add(&fr, &p);
	}
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a), 40);
	/* the second gateway's frames carry its MAC */
	for (i = 0; i < pr->a->tx.n[UNIT_P1]; i++) {
		struct rte_mbuf *m = pr->a->tx.pkts[UNIT_P1][i];
		uint32_t dst = rte_be_to_cpu_32(unit_ip4(m)->dst_addr);

		assert_memory_equal(rte_pktmbuf_mtod(m, uint8_t *),
				    dst == NEAR_IP ? &c_mac : &unit_b_mac, 6);
	}
	assert_forwarded_as_built(pr->a, &fr, 40);
	assert_forwarded_as_built(pr->b, &fr, 40);
}

/* What the fast path must hand on, one kind each. */
enum odd {
	ODD_TTL1, ODD_LOCAL, ODD_BAD_CSUM, ODD_OPTIONS, ODD_PADDED,
	ODD_BCAST_MAC, ODD_OTHER_MAC, ODD_OTHER_PORT, ODD_VLAN, ODD_ARP,
	ODD_UNRESOLVED, ODD_OVER_MTU, ODD_NO_ROUTE, ODD_BLACKHOLE,
	ODD_MARTIAN, ODD_FROM_US, ODD_RUNT, ODD_SHORT_IP, ODD_FRAGMENT,
	ODD_OVER_MTU_NO_DF, ODD_VERSION5, ODD_IHL4, ODD_OTHER_MAC0,
	ODD_OTHER_ETHERTYPE,
	ODD_COUNT,
};

/* What the fast path takes of five fast frames, the odd one and four
 * more: the first pass stops at the odd one (5); or the second hands it
 * on and forwards the rest (9), unless the stages send it now (5: the
 * fragments of one too big, DF clear); a first fragment is forwarded as
 * any datagram (10). */
static unsigned int
odd_fast_taken(enum odd k)
{
	switch (k) {
	case ODD_TTL1: case ODD_LOCAL: case ODD_UNRESOLVED: case ODD_OVER_MTU:
	case ODD_NO_ROUTE: case ODD_BLACKHOLE:
		return 9;
	case ODD_FRAGMENT:
		return 10;
	default:
		return 5;
	}
}

static void
frames_odd(struct frames *fr, enum odd k, uint16_t id)
{
	struct unit_pkt p;
	uint8_t *b;
	size_t len;

	unit_pkt_init(&p, UNIT_FAR_IP);
	p.payload_len = 18;
	p.id = id;
	switch (k) {
	case ODD_TTL1: p.ttl = 1; break;
	case ODD_LOCAL: p.dst = UNIT_P0_IP; break;
	case ODD_OPTIONS:
		p.opt_len = 4;
		memset(p.opts, RTE_IPV4_HDR_OPT_NOP, 4);
		break;
	case ODD_PADDED: p.trailer_len = 20; break;
	case ODD_BCAST_MAC: p.dst_mac = unit_bcast_mac; break;
	case ODD_OTHER_MAC: p.dst_mac.addr_bytes[5] ^= 0x40; break;
	case ODD_OTHER_PORT:
		p.port = UNIT_P1;
		p.dst_mac = unit_p1_mac;
		p.src = UNIT_B_IP;
		p.dst = UNIT_A_IP;
		break;
	case ODD_UNRESOLVED: p.dst = UNIT_IPV4(10, 0, 1, 7); break;
	case ODD_OVER_MTU: p.payload_len = 1501 - 28; break;
	case ODD_OVER_MTU_NO_DF:
		p.payload_len = 1501 - 28;
		p.df = false;
		break;
	case ODD_NO_ROUTE: p.dst = UNIT_IPV4(192, 168, 77, 1); break;
	case ODD_BLACKHOLE: p.dst = UNIT_IPV4(10, 66, 0, 1); break;
	case ODD_MARTIAN: p.src = UNIT_IPV4(127, 0, 0, 1); break;
	case ODD_FROM_US: p.src = UNIT_P1_IP; break;
	/* the MAC's first bit (a group MAC): fwd_fast tests all six
	 * bytes at once */
	case ODD_OTHER_MAC0: p.dst_mac.addr_bytes[0] ^= 0x01; break;
	default: break;
	}
	b = frames_add(fr, &p);
	len = fr->len[fr->n - 1];
	switch (k) {
	case ODD_BAD_CSUM:
		IP(b)[11] ^= 1;
		break;
	case ODD_VLAN:	/* VLAN 100: no such sub-interface */
		fr->len[fr->n - 1] = unit_frame_tag(b, len, 100);
		break;
	case ODD_ARP: {
		/* a reply from B, already known: learnt again, nothing out */
		struct rte_mbuf *m = unit_arp_mbuf(UNIT_P0, 2, &unit_p0_mac,
						   &unit_a_mac, UNIT_A_IP,
						   &unit_p0_mac, UNIT_P0_IP);

		fr->len[fr->n - 1] = rte_pktmbuf_data_len(m);
		memcpy(b, rte_pktmbuf_mtod(m, void *), fr->len[fr->n - 1]);
		rte_pktmbuf_free(m);
		break;
	}
	case ODD_RUNT:
		fr->len[fr->n - 1] = 13;
		break;
	case ODD_SHORT_IP:	/* an Ethernet header and 10 bytes */
		fr->len[fr->n - 1] = UNIT_ETH_LEN + 10;
		break;
	case ODD_FRAGMENT:	/* a first fragment: forwarded as it is */
		IP(b)[6] = 0x20;
		unit_ip4_fix_cksum(IP(b));
		break;
	/* a first byte other than 0x45 with a sum valid over 20 bytes:
	 * the fast path's test of the version and IHL alone refuses them
	 * (fwd_fast tests it with the MAC and ethertype, l2/eth_fast.h) */
	case ODD_VERSION5:
		IP(b)[0] = 0x55;
		unit_ip4_fix_cksum(IP(b));
		break;
	case ODD_IHL4:
		IP(b)[0] = 0x44;
		unit_ip4_fix_cksum(IP(b));
		break;
	case ODD_OTHER_ETHERTYPE:	/* IPv4's but for its last bit */
		b[13] ^= 0x01;
		break;
	default:
		break;
	}
}

/* n datagrams from A on P0, IDs from id, to FAR and NEAR by turns when
 * mixed (two next hops), else to FAR. */
static void
frames_run(struct frames *fr, unsigned int n, uint16_t id, bool mixed)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		frames_flow(fr, mixed && (id + i) % 2 ? NEAR_IP : UNIT_FAR_IP,
			    1, (uint16_t)(id + i));
}

/*
 * Five fast frames, the odd one, four more: the fast path takes the first
 * five, the stages the rest, and the frames leave in their order, around
 * whatever the odd one became; of one next hop, or of two by turns.
 * (Four: with more handed on than taken, the fast path would step aside
 * for the next kinds.)
 */
static void
odd_one_in_the_middle(struct pair *pr, bool mixed)
{
	static struct frames fr;
	uint16_t ids[11];
	unsigned int k, i, j, n, odd_out;

	for (k = 0; k < ODD_COUNT; k++) {
		uint64_t before = fast_packets(pr->a);

		memset(&fr, 0, sizeof(fr));
		frames_run(&fr, 5, 0, mixed);
		frames_odd(&fr, (enum odd)k, 500);
		frames_run(&fr, 4, 5, mixed);
		pair_input(pr, &fr);
		print_message("odd one %u\n", k);
		assert_same_frames(pr);
		assert_same_counters(pr);
		assert_int_equal(fast_packets(pr->a) - before,
				 odd_fast_taken((enum odd)k));
		/* 0-4, what the odd one became where it went out (one
		 * datagram, or its fragments), 5-8 */
		odd_out = unit_tx_udp_to(pr->b, UNIT_P1, 0) - 9;
		assert_true(odd_out <= 2);
		for (i = 0, n = 0; i < 9; i++) {
			for (j = 0; i == 5 && j < odd_out; j++)
				ids[n++] = 500;
			ids[n++] = (uint16_t)i;
		}
		assert_ids(pr->a, UNIT_P1, ids, n);
		pair_clear(pr);
	}
}

static void
test_odd_one_in_the_middle(void **state)
{
	odd_one_in_the_middle(*state, false);
}

static void
test_odd_one_among_next_hops(void **state)
{
	odd_one_in_the_middle(*state, true);
}

/* The odd one first: the fast path takes nothing, the stages all. */
static void
odd_one_first(struct pair *pr)
{
	static struct frames fr;
	unsigned int k;

	for (k = 0; k < ODD_COUNT; k++) {
		memset(&fr, 0, sizeof(fr));
		frames_odd(&fr, (enum odd)k, 500);
		frames_flow(&fr, UNIT_FAR_IP, 8, 0);
		pair_input(pr, &fr);
		print_message("odd one %u\n", k);
		assert_same_frames(pr);
		assert_same_counters(pr);
		pair_clear(pr);
	}
}

static void
test_odd_one_first(void **state)
{
	odd_one_first(*state);
}

/*
 * Traffic the fast path checks and then hands on (here: to us) would pay
 * its first pass twice: it steps aside for 64 bursts, then tries again,
 * and forwarding traffic finds it back.
 */
static void
test_steps_aside_for_local_traffic(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct lsk_stats st;
	unsigned int i;

	memset(&fr, 0, sizeof(fr));
	frames_flow(&fr, UNIT_P0_IP, 16, 0);
	pair_input(pr, &fr);
	st = unit_stats(pr->a);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].calls, 1);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 0);
	unit_tx_free(pr->a);
	unit_tx_free(pr->b);

	memset(&fr, 0, sizeof(fr));
	frames_flow(&fr, UNIT_FAR_IP, 4, 0);
	for (i = 0; i < 64; i++)
		pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	st = unit_stats(pr->a);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].calls, 1);
	unit_tx_free(pr->a);
	unit_tx_free(pr->b);

	pair_input(pr, &fr);
	st = unit_stats(pr->a);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].calls, 2);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 4);
	assert_same_frames(pr);
	assert_same_counters(pr);
}

/* A burst longer than the TX buffer's room: the full buffer is sent at
 * once, in order, and the rest follows. */
static void
test_full_tx_buffer(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct rte_mbuf *pkts[FRAMES_MAX];
	unsigned int burst, i;

	memset(&fr, 0, sizeof(fr));
	frames_flow(&fr, UNIT_FAR_IP, 200, 0);
	for (burst = 0; burst < 3; burst++) {
		for (i = 0; i < fr.n; i++)
			pkts[i] = unit_mbuf_from_bytes(fr.b[i], fr.len[i],
						       UNIT_P0);
		lsk_worker_input(pr->a->worker, pkts, (uint16_t)fr.n);
	}
	assert_int_equal(pr->a->tx.calls, 1);
	assert_int_equal(pr->a->tx.n[UNIT_P1], 2 * LSK_BURST_MAX);
	lsk_worker_flush(pr->a->worker);
	assert_int_equal(pr->a->tx.n[UNIT_P1], 600);
	for (i = 0; i < 600; i++)
		assert_int_equal(rte_be_to_cpu_16(unit_ip4(
			pr->a->tx.pkts[UNIT_P1][i])->packet_id), i % 200);
	assert_int_equal(fast_packets(pr->a), 600);
}

/* Whatever the stages' tables say, at random: frames of every kind,
 * shuffled, in bursts of random lengths; the two stacks agree. */
static void
test_random_bursts(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	uint64_t seed = 0x5eed;
	unsigned int round, i;

	for (round = 0; round < 40; round++) {
		unsigned int n = 1 + unit_rand(&seed) % 64;

		/* ICMP's token bucket full for both: a list makes its errors
		 * stage by stage, so which of them a bucket running dry
		 * refuses is the order's (icmp4.c) */
		pr->a->worker->ip4w->icmp_tokens = 50;
		pr->b->worker->ip4w->icmp_tokens = 50;
		memset(&fr, 0, sizeof(fr));
		for (i = 0; i < n; i++) {
			uint64_t r = unit_rand(&seed) % (3 * ODD_COUNT);

			if (r < ODD_COUNT && r != ODD_FRAGMENT)
				frames_odd(&fr, (enum odd)r,
					   (uint16_t)(1000 + i));
			else
				frames_flow(&fr, r % 2 ? NEAR_IP : UNIT_FAR_IP,
					    1, (uint16_t)i);
		}
		pair_input(pr, &fr);
		assert_same_frames(pr);
		assert_same_counters(pr);
		pair_clear(pr);
	}
	assert_true(fast_packets(pr->a) > 0);
}

/* GRO on a burst of one flow: the burst takes the stages (GRO makes
 * trains). Off again, the fast path is back. */
static void
test_not_with_gro(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	uint64_t before = fast_packets(pr->a);

	memset(&fr, 0, sizeof(fr));
	frames_flow(&fr, UNIT_FAR_IP, 8, 0);
	pair_cmd(pr, "gro fraglist");
	pair_input(pr, &fr);
	assert_int_equal(fast_packets(pr->a), before);
	assert_same_frames(pr);
	unit_tx_free(pr->a);
	unit_tx_free(pr->b);
	pair_cmd(pr, "gro off");
	pair_input(pr, &fr);
	assert_int_equal(fast_packets(pr->a), before + 8);
	assert_same_frames(pr);
	unit_tx_free(pr->a);
	unit_tx_free(pr->b);
}

/* n datagrams to FAR, IDs from id, every third (from the first) to UDP
 * port 9, which the filter rule of test_filter_on_fast_path drops. */
static void
frames_some_to_9(struct frames *fr, unsigned int n, uint16_t id)
{
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < n; i++) {
		unit_pkt_init(&p, i % 2 ? NEAR_IP : UNIT_FAR_IP);
		p.payload_len = 18;
		p.id = (uint16_t)(id + i);
		if (i % 3 == 0)
			p.dport = 9;
		frames_add(fr, &p);
	}
}

/*
 * The filter on: the fast path takes the burst, classifies it between
 * its checks and its lookup, and drops what a rule drops, counted as
 * ip4_filter counts (filter Dropped, ip InDiscards); the frames and every
 * counter are the stages'. A rule that accepts drops nothing; the odd
 * ones the fast path hands on still come out in their order.
 */
static void
test_filter_on_fast_path(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	pair_cmd(pr, "filter add drop proto udp dport 9");
	pair_cmd(pr, "filter add accept proto udp dport 2000");
	memset(&fr, 0, sizeof(fr));
	frames_some_to_9(&fr, 30, 0);
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	st = unit_stats(pr->a);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 30);
	assert_int_equal(st.stages[LSK_STAGE_IP4_FILTER].calls, 0);
	assert_int_equal(st.filter.Dropped, 10);
	assert_int_equal(st.ip.ForwDatagrams, 20);
	assert_int_equal(unit_tx_udp_to(pr->a, UNIT_P1, 0), 20);
	pair_clear(pr);

	/* all of a burst dropped */
	memset(&fr, 0, sizeof(fr));
	frames_some_to_9(&fr, 1, 100);
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(unit_stats(pr->a).filter.Dropped, 11);
	pair_clear(pr);

	/* the screen (ip4/ip4.h) rules out the first five and every one
	 * to port 5000 (its high byte is in no rule's set): rte_acl starts
	 * after them, and the drops close up around them */
	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 12; i++) {
		unit_pkt_init(&p, i % 2 ? NEAR_IP : UNIT_FAR_IP);
		p.payload_len = 18;
		p.id = (uint16_t)(200 + i);
		p.dport = i == 5 || i == 6 || i == 10 ? 9 : 5000;
		frames_add(&fr, &p);
	}
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	st = unit_stats(pr->a);
	assert_int_equal(st.filter.Dropped, 11 + 3);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 31 + 12);
	pair_clear(pr);

	odd_one_in_the_middle(pr, true);
	odd_one_first(pr);
	assert_same_counters(pr);
}

#define VLAN 100
#define VLAN_IP UNIT_IPV4(10, 5, 0, 1)	/* ours, on VLAN 100 of P0 */
#define VLAN_HOST UNIT_IPV4(10, 5, 0, 2)

/* n datagrams from the VLAN's host, IDs from id, to dst; tagged with
 * tci when it is not 0 (as they come in on P0), else on P1. */
static void
frames_vlan(struct frames *fr, uint32_t dst, unsigned int n, uint16_t id,
	    uint16_t tci)
{
	struct unit_pkt p;
	unsigned int i;
	uint8_t *b;

	for (i = 0; i < n; i++) {
		unit_pkt_init(&p, dst);
		p.payload_len = 18;
		p.id = (uint16_t)(id + i);
		if (tci != 0) {
			p.src = VLAN_HOST;
		} else {
			p.port = UNIT_P1;
			p.dst_mac = unit_p1_mac;
			p.src_mac = unit_b_mac;
			p.src = UNIT_B_IP;
		}
		b = frames_add(fr, &p);
		if (tci != 0)
			fr->len[fr->n - 1] = unit_frame_tag(b, fr->len[fr->n - 1],
							    tci);
	}
}

/* VLAN 100 on P0, its host a neighbour, on both stacks (and whatever
 * the test configured before), the workers synced. */
static void
pair_vlan100(struct pair *pr)
{
	pair_cmd(pr, "address add 10.5.0.1/24 port 0 vlan 100");
	pair_cmd(pr, "neigh add 10.5.0.2 lladdr 02:00:00:00:05:02");
	unit_worker_sync(pr->a);
	unit_worker_sync(pr->b);
}

/* fr through both stacks, whose frames and counters must agree, n of
 * its packets on the fast path; then cleared. */
static void
pair_input_fast(struct pair *pr, struct frames *fr, uint64_t n)
{
	const uint64_t fast = fast_packets(pr->a);

	pair_input(pr, fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a) - fast, n);
	pair_clear(pr);
}

/*
 * A VLAN sub-interface on P0: its tagged frames are the fast path's
 * (untagged as they leave P1), and so are frames routed to it (tagged as
 * they leave P0); the frames and counters are the stages'. A tag of
 * another VLAN, or a priority tag, leaves the burst to the stages; the
 * fast path hands on what it cannot forward (to us) with its tag.
 */
static void
test_vlan_on_fast_path(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	unsigned int i;
	uint64_t fast;

	pair_vlan100(pr);

	memset(&fr, 0, sizeof(fr));
	frames_vlan(&fr, UNIT_FAR_IP, 16, 0, VLAN);
	all_fast_to_far(pr, &fr, 16);
	for (i = 0; i < pr->a->tx.n[UNIT_P1]; i++)
		assert_int_equal(unit_frame_vid(pr->a->tx.pkts[UNIT_P1][i]), -1);
	pair_clear(pr);

	/* the way back: out of the VLAN, tagged */
	memset(&fr, 0, sizeof(fr));
	frames_vlan(&fr, VLAN_HOST, 16, 100, 0);
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a), 32);
	assert_int_equal(pr->a->tx.n[UNIT_P0], 16);
	for (i = 0; i < pr->a->tx.n[UNIT_P0]; i++)
		assert_int_equal(unit_frame_vid(pr->a->tx.pkts[UNIT_P0][i]), VLAN);
	pair_clear(pr);

	/* from VLAN 100 on P0 to VLAN 200 on P1: tagged in, tagged out */
	pair_cmd(pr, "address add 10.6.0.1/24 port 1 vlan 200");
	pair_cmd(pr, "neigh add 10.6.0.2 lladdr 02:00:00:00:06:02");
	unit_worker_sync(pr->a);
	unit_worker_sync(pr->b);
	memset(&fr, 0, sizeof(fr));
	frames_vlan(&fr, UNIT_IPV4(10, 6, 0, 2), 16, 400, VLAN);
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a), 48);
	assert_int_equal(pr->a->tx.n[UNIT_P1], 16);
	for (i = 0; i < pr->a->tx.n[UNIT_P1]; i++)
		assert_int_equal(unit_frame_vid(pr->a->tx.pkts[UNIT_P1][i]), 200);
	pair_clear(pr);

	/* another VLAN, a priority tag: the stages' */
	for (i = 0; i < 2; i++) {
		memset(&fr, 0, sizeof(fr));
		frames_vlan(&fr, UNIT_FAR_IP, 8, 200, i == 0 ? 200 : 0x2000);
		pair_input(pr, &fr);
		assert_same_frames(pr);
		assert_same_counters(pr);
		assert_int_equal(fast_packets(pr->a), 48);
		pair_clear(pr);
	}

	/* to us in the middle of a tagged burst: handed on as it came */
	memset(&fr, 0, sizeof(fr));
	frames_vlan(&fr, UNIT_FAR_IP, 5, 300, VLAN);
	frames_vlan(&fr, VLAN_IP, 1, 305, VLAN);
	frames_vlan(&fr, UNIT_FAR_IP, 4, 306, VLAN);
	fast = fast_packets(pr->a);
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a) - fast, 9);
	assert_int_equal(unit_stats(pr->a).udp.InDatagrams +
			 unit_stats(pr->a).udp.NoPorts, 1);
	pair_clear(pr);

	/* tagged in and out, to us in the middle: the second pass stops
	 * at it with the rest still tagged, which fast_rest untags */
	memset(&fr, 0, sizeof(fr));
	frames_vlan(&fr, UNIT_IPV4(10, 6, 0, 2), 3, 500, VLAN);
	frames_vlan(&fr, VLAN_IP, 1, 503, VLAN);
	frames_vlan(&fr, UNIT_IPV4(10, 6, 0, 2), 4, 504, VLAN);
	pair_input_fast(pr, &fr, 7);
}

/*
 * VLANs with a filter, which reads untagged frames (the fast path takes
 * the tags off before it): tagged in, to the far side and to VLAN 200,
 * and untagged in, to VLAN 100; the frames and counters are the stages'.
 */
static void
test_vlan_filter_on_fast_path(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;

	pair_cmd(pr, "address add 10.6.0.1/24 port 1 vlan 200");
	pair_cmd(pr, "neigh add 10.6.0.2 lladdr 02:00:00:00:06:02");
	pair_cmd(pr, "filter add drop proto udp dport 9");
	pair_vlan100(pr);
	memset(&fr, 0, sizeof(fr));
	frames_vlan(&fr, UNIT_FAR_IP, 4, 600, VLAN);
	frames_vlan(&fr, UNIT_IPV4(10, 6, 0, 2), 4, 604, VLAN);
	pair_input_fast(pr, &fr, 8);
	memset(&fr, 0, sizeof(fr));
	frames_vlan(&fr, VLAN_HOST, 4, 610, 0);
	pair_input_fast(pr, &fr, 4);
}

/* A datagram from the VLAN's host to the far side as p (then reset)
 * says, tagged with tci. */
static void
frame_vlan_pkt(struct frames *fr, struct unit_pkt *p, uint16_t id,
	       uint16_t tci)
{
	uint8_t *b;

	p->payload_len = 18;
	p->src = VLAN_HOST;
	p->id = id;
	b = frames_add(fr, p);
	fr->len[fr->n - 1] = unit_frame_tag(b, fr->len[fr->n - 1], tci);
	unit_pkt_init(p, UNIT_FAR_IP);
}

/*
 * A tagged burst's frames are taken by one word from the tag on
 * (ip4/fwd_fast.c, fast_tag_word): a priority or a TOS of their own
 * stay on the fast path; IP options (the 0x45 it compares) and another
 * VLAN stop it there, and the rest is the stages'. The frames and
 * counters are the stages'.
 */
static void
test_vlan_tag_word_on_fast_path(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct unit_pkt p;
	unsigned int i;

	pair_vlan100(pr);
	for (i = 0; i < 2; i++) {
		memset(&fr, 0, sizeof(fr));
		unit_pkt_init(&p, UNIT_FAR_IP);
		frame_vlan_pkt(&fr, &p, 700, VLAN);
		frame_vlan_pkt(&fr, &p, 701, 0xe000 | VLAN);	/* PCP 7 */
		p.tos = 0xb8;
		frame_vlan_pkt(&fr, &p, 702, VLAN);
		if (i == 0) {
			/* 4 bytes of options, all 0: the first 20 bytes'
			 * sum is the header's, and valid */
			p.opt_len = 4;
			frame_vlan_pkt(&fr, &p, 703, VLAN);
		} else {
			frame_vlan_pkt(&fr, &p, 703, 200);
		}
		frames_vlan(&fr, UNIT_FAR_IP, 3, 704, VLAN);
		pair_input_fast(pr, &fr, 3);
	}
}

/* Every lookup of the route cache, however answered. */
static uint64_t
cache_lookups(const struct unit_fixture *f)
{
	const struct lsk_stats st = unit_stats(f);

	return st.route_cache.Hits + st.route_cache.Misses +
	       st.route_cache.Bypassed;
}

/*
 * The route cache on: the fast path takes the burst and asks the cache,
 * counted as ip4_route's list counts (a burst of one new destination:
 * every packet a miss, the next burst every one a hit); with the odd ones
 * it hands on, each packet is counted once, as the stages alone (the
 * single mode stack) count them, and the frames are theirs.
 */
static void
test_route_cache_on_fast_path(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct lsk_stats st;

	pair_cmd(pr, "route-cache on entries 64");
	memset(&fr, 0, sizeof(fr));
	frames_flow(&fr, UNIT_FAR_IP, 32, 0);
	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_same_counters(pr);
	assert_int_equal(fast_packets(pr->a), 32);
	st = unit_stats(pr->a);
	assert_int_equal(st.route_cache.Misses, 32);
	assert_int_equal(st.route_cache.Hits, 0);
	assert_forwarded_as_built(pr->a, &fr, 32);
	pair_clear(pr);

	pair_input(pr, &fr);
	assert_same_frames(pr);
	assert_int_equal(fast_packets(pr->a), 64);
	st = unit_stats(pr->a);
	assert_int_equal(st.route_cache.Hits, 32);
	assert_int_equal(cache_lookups(pr->a), cache_lookups(pr->b));
	pair_clear(pr);

	odd_one_in_the_middle(pr, false);
	assert_int_equal(cache_lookups(pr->a), cache_lookups(pr->b));
	odd_one_in_the_middle(pr, true);
	assert_int_equal(cache_lookups(pr->a), cache_lookups(pr->b));
	assert_int_equal(cache_lookups(pr->a),
			 unit_stats(pr->b).stages[LSK_STAGE_IP4_ROUTE].packets);
}

/*
 * With GRO on, a burst in which no flow comes twice can make no train:
 * the fast path takes it (GRO would leave it as it is); one in which a
 * flow comes twice takes the stages and makes its train. Either way the
 * frames are the stages' alone.
 */
static void
test_gro_on_flows_once(void **state)
{
	static struct frames fr;
	struct pair *pr = *state;
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;
	uint64_t calls;

	pair_cmd(pr, "gro fraglist");
	memset(&fr, 0, sizeof(fr));
	for (i = 0; i < 24; i++) {
		unit_pkt_init(&p, i % 2 ? NEAR_IP : UNIT_FAR_IP);
		p.payload_len = 18;
		p.sport = (uint16_t)(3000 + i);
		p.id = (uint16_t)i;
		frames_add(&fr, &p);
	}
	/* the first burst tries GRO's run pass (udp/gro.h: then one burst in
	 * 61 while it finds no run) and takes the stages */
	pair_input(pr, &fr);
	assert_same_frames(pr);
	pair_clear(pr);
	st = unit_stats(pr->a);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 0);
	calls = st.stages[LSK_STAGE_UDP4_GRO].calls;
	pair_input(pr, &fr);
	assert_same_frames(pr);
	st = unit_stats(pr->a);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 24);
	assert_int_equal(st.gro.Trains, 0);
	assert_int_equal(st.stages[LSK_STAGE_UDP4_GRO].calls, calls);
	pair_clear(pr);

	/* the last datagram's flow again: a train can form */
	memcpy(fr.b[fr.n], fr.b[fr.n - 1], fr.len[fr.n - 1]);
	fr.len[fr.n] = fr.len[fr.n - 1];
	fr.port[fr.n] = fr.port[fr.n - 1];
	fr.n++;
	pair_input(pr, &fr);
	assert_same_frames(pr);
	st = unit_stats(pr->a);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 24);
	assert_int_equal(st.gro.Trains, 1);
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, pair_setup, pair_teardown)
	const struct CMUnitTest tests[] = {
		T(test_one_flow_all_fast),
		T(test_next_hop_runs),
		T(test_rewrite_checksum_edges),
		T(test_odd_one_in_the_middle),
		T(test_odd_one_among_next_hops),
		T(test_odd_one_first),
		T(test_steps_aside_for_local_traffic),
		T(test_full_tx_buffer),
		T(test_random_bursts),
		T(test_not_with_gro),
		T(test_route_cache_on_fast_path),
		T(test_filter_on_fast_path),
		T(test_vlan_on_fast_path),
		T(test_vlan_filter_on_fast_path),
		T(test_vlan_tag_word_on_fast_path),
		T(test_gro_on_flows_once),
	};
#undef T

	return cmocka_run_group_tests_name("fwd_fast", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
