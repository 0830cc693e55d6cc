/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * icmp4: echo replies (their bytes), the errors a router owes and their
 * bytes (net, port, protocol, host unreachable, time exceeded,
 * fragmentation needed), Linux's rules for when not to send one (about
 * an ICMP error, a later fragment, an L2 or IP broadcast or multicast, a
 * martian source), the source address rule, the 576-byte limit of what is
 * quoted, and the rate limit (icmp_msgs_burst 50, icmp_msgs_per_sec 1000:
 * every error is sent or counted OutRateLimited). docs/configuration.md
 * "What happens to a packet"; Linux cases B15, C9, C16, C18, F3.
 */
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "unit_common.h"
#include "ip4/ip4.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

static uint16_t
csum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* An ICMP message of type/code from A on P0 to dst, built into b. */
static size_t
icmp_msg(uint8_t *b, uint32_t dst, uint8_t type, uint8_t code,
	 uint32_t rest, uint16_t data_len)
{
	struct unit_pkt p;

	unit_pkt_init(&p, dst);
	p.payload_len = data_len;
	return unit_icmp_build(&p, type, code, rest, b, UNIT_FRAME_MAX);
}

/* ------------------------------------------------------------- echo */

/*
 * An echo request to our address is answered from it, to the asker, out
 * of the port it came in by: the same identifier, sequence and data, TTL
 * 64, no fragment bits, the request's TOS, valid checksums.
 */
static void
check_echo(struct unit_fixture *f, uint32_t dst, uint16_t data_len,
	   uint8_t tos)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	const uint8_t *r;
	struct rte_mbuf *m;
	size_t len;

	unit_pkt_init(&p, dst);
	p.payload_len = data_len;
	p.tos = tos;
	p.id = 99;
	len = unit_icmp_build(&p, 8, 0, 0x12340007, b, sizeof(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	m = f->tx.pkts[UNIT_P0][0];
	r = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_int_equal(rte_pktmbuf_pkt_len(m), len);
	assert_memory_equal(r, &unit_a_mac, 6);
	assert_memory_equal(r + 6, &unit_p0_mac, 6);
	assert_int_equal(get16(r + 12), RTE_ETHER_TYPE_IPV4);
	assert_int_equal(IP(r)[0], 0x45);
	assert_int_equal(IP(r)[1], tos);
	assert_int_equal(get16(IP(r) + 2), 28 + data_len);
	assert_int_equal(get16(IP(r) + 6), 0);
	assert_int_equal(IP(r)[8], 64);
	assert_int_equal(IP(r)[9], IPPROTO_ICMP);
	assert_int_equal(unit_ip4_hdr_sum(IP(r)), 0);
	assert_int_equal(get32(IP(r) + 12), dst);
	assert_int_equal(get32(IP(r) + 16), UNIT_A_IP);
	assert_int_equal(IP(r)[20], 0);			/* echo reply */
	assert_int_equal(IP(r)[21], 0);
	assert_int_equal(csum(IP(r) + 20, 8 + data_len), 0xffff);
	assert_memory_equal(IP(r) + 24, IP(b) + 24, 4 + data_len);
	unit_tx_free(f);
}

static void
test_echo_reply_bytes(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	unsigned int i;

	check_echo(f, UNIT_P0_IP, 56, 0);
	check_echo(f, UNIT_P1_IP, 56, 0x10);		/* P1's, asked on P0 */
	check_echo(f, UNIT_P0_IP, 0, 0);
	for (i = 1; i <= 40; i++)			/* odd lengths, sums */
		check_echo(f, UNIT_P0_IP, (uint16_t)(i * 37 % 1400), 0xb8);
	st = unit_stats(f);
	assert_int_equal(st.icmp.InMsgs, 43);
	assert_int_equal(st.icmp.InEchos, 43);
	assert_int_equal(st.icmp.OutEchoReps, 43);
	assert_int_equal(st.icmp.OutMsgs, 43);
	assert_int_equal(st.ip.InDelivers, 43);
	assert_int_equal(st.icmp.OutRateLimited, 0);
}

/* Echoes to a broadcast are not answered (icmp_echo_ignore_broadcasts);
 * what is wrong is counted and dropped; other messages are counted. */
static void
test_echo_not_answered_and_input_counters(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_stats st;
	size_t len;

	len = icmp_msg(b, UNIT_IPV4(10, 0, 0, 255), 8, 0, 1, 32);
	memcpy(b, &unit_bcast_mac, 6);
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	len = icmp_msg(b, UINT32_MAX, 8, 0, 1, 32);
	memcpy(b, &unit_bcast_mac, 6);
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 0);

	len = icmp_msg(b, UNIT_P0_IP, 8, 0, 1, 32);
	IP(b)[20 + 8] ^= 1;				/* bad checksum */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	len = icmp_msg(b, UNIT_P0_IP, 8, 0, 1, 32);
	IP(b)[3] = 20 + 4;				/* 4 ICMP bytes */
	unit_ip4_fix_cksum(IP(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, UNIT_ETH_LEN + 24,
					       UNIT_P0));
	assert_int_equal(unit_tx_count(f), 0);

	len = icmp_msg(b, UNIT_P0_IP, 0, 0, 1, 32);	/* echo reply */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	len = icmp_msg(b, UNIT_P0_IP, 3, 3, 0, 28);	/* unreachable */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	len = icmp_msg(b, UNIT_P0_IP, 11, 0, 0, 28);	/* time exceeded */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 0);

	st = unit_stats(f);
	assert_int_equal(st.icmp.InMsgs, 7);
	assert_int_equal(st.icmp.InEchos, 2);
	/* 2 malformed, and as Linux's icmp_rcv the 2 echoes to broadcasts */
	assert_int_equal(st.icmp.InErrors, 4);
	assert_int_equal(st.icmp.InCsumErrors, 1);
	assert_int_equal(st.icmp.InEchoReps, 1);
	assert_int_equal(st.icmp.InDestUnreachs, 1);
	assert_int_equal(st.icmp.InTimeExcds, 1);
	assert_int_equal(st.icmp.OutMsgs, 0);
}

/* ----------------------------------------------------------- errors */

/* Send the frame b, expect exactly one error on P0 to A about it. */
static void
expect_error(struct unit_fixture *f, const uint8_t *b, size_t len,
	     uint8_t type, uint8_t code, uint16_t mtu, uint32_t src)
{
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 1);
	unit_assert_icmp_error(unit_tx_icmp_nth(f, UNIT_P0, type, code, 0),
		&(struct unit_icmp_want){ .type = type, .code = code,
			.mtu = mtu, .src = src, .dst_mac = &unit_a_mac,
			.src_mac = &unit_p0_mac },
		IP(b), len - UNIT_ETH_LEN);
	unit_tx_free(f);
}

/*
 * Every kind, its bytes: net unreachable (no route), time exceeded (TTL
 * 1), fragmentation needed (DF, over the egress MTU, with that MTU), port
 * unreachable (UDP, nothing listens), protocol unreachable (no handler);
 * TOS (t & 0x1e) | 0xc0.
 */
static void
test_error_kinds(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	struct lsk_stats st;
	size_t len;

	unit_pkt_init(&p, UNIT_IPV4(192, 168, 77, 1));
	p.tos = 0xb9;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 3, 0, 0, UNIT_P0_IP);

	unit_pkt_init(&p, UNIT_FAR_IP);
	p.ttl = 1;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 11, 0, 0, UNIT_P0_IP);

	unit_cmd(f, "port 1 mtu 1000");
	unit_pkt_init(&p, UNIT_FAR_IP);
	p.tos = 0x02;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 3, 4, 1000, UNIT_P0_IP);

	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 3999;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 3, 3, 0, UNIT_P0_IP);

	unit_pkt_init(&p, UNIT_P0_IP);
	p.proto = 253;
	p.payload_len = 40;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 3, 2, 0, UNIT_P0_IP);

	st = unit_stats(f);
	assert_int_equal(st.icmp.OutMsgs, 5);
	assert_int_equal(st.icmp.OutDestUnreachs, 4);
	assert_int_equal(st.icmp.OutTimeExcds, 1);
	assert_int_equal(st.ip.InUnknownProtos, 1);
	assert_int_equal(st.udp.NoPorts, 1);
}

/*
 * The source: the original destination when it was ours (on any port),
 * otherwise the address of the port the datagram came in by; the error
 * leaves toward the sender (here back out of the ingress port).
 */
static void
test_source_address_rule(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	struct rte_mbuf *e;
	size_t len;

	/* for us: from that address, whichever port it came by */
	unit_pkt_init(&p, UNIT_P1_IP);
	p.proto = 253;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 3, 2, 0, UNIT_P1_IP);

	/* forwarded, in by P1: from P1's address, out of P1 to B */
	unit_pkt_init(&p, UNIT_A_IP);
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	p.src_mac = unit_b_mac;
	p.src = UNIT_B_IP;
	p.ttl = 1;
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P1));
	assert_int_equal(unit_tx_count(f), 1);
	e = unit_tx_icmp_nth(f, UNIT_P1, 11, 0, 0);
	unit_assert_icmp_error(e, &(struct unit_icmp_want){ .type = 11,
			.src = UNIT_P1_IP, .dst_mac = &unit_b_mac,
			.src_mac = &unit_p1_mac },
		IP(b), len - UNIT_ETH_LEN);
	unit_tx_free(f);

	/* no route for something that came in by P1 */
	p.dst = UNIT_IPV4(192, 168, 77, 1);
	p.ttl = 64;
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P1));
	e = unit_tx_icmp_nth(f, UNIT_P1, 3, 0, 0);
	unit_assert_icmp_error(e, &(struct unit_icmp_want){ .type = 3,
			.src = UNIT_P1_IP, .dst_mac = &unit_b_mac,
			.src_mac = &unit_p1_mac },
		IP(b), len - UNIT_ETH_LEN);
	unit_tx_free(f);
}

/* An error about a datagram that came in by an interface without an
 * address, and was not to one of ours, has no source: not sent, counted
 * OutNoAddrs (no port 2 in the fixture: its address is 0). */
static void
test_no_source_address(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	struct rte_mbuf *m;
	size_t len;

	unit_pkt_init(&p, UNIT_A_IP);
	p.src = UNIT_B_IP;
	len = unit_pkt_build(&p, b, sizeof(b));
	m = unit_mbuf_from_bytes(b, len, 2);
	assert_non_null(m);
	lsk_icmp4_error(f->worker, m, 0, LSK_ICMP_TIME_EXCEEDED,
			LSK_ICMP_EXC_TTL, 0);
	rte_pktmbuf_free(m);
	assert_int_equal(f->worker->icmp_out.n, 0);
	assert_int_equal(unit_stats(f).icmp.OutNoAddrs, 1);
	assert_int_equal(unit_stats(f).icmp.OutErrors, 0);
}

/*
 * The error quotes the offending header and as much of the datagram as
 * fits in 576 bytes: all of a small one (options included), 548 bytes
 * of a big one.
 */
static void
test_quote_limit(void **state)
{
	static const uint16_t payload[] = { 0, 1, 100, 512, 513, 600, 1472 };
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	unsigned int i;
	size_t len;

	for (i = 0; i < RTE_DIM(payload); i++) {
		unit_pkt_init(&p, UNIT_IPV4(192, 168, 77, 1));
		p.payload_len = payload[i];
		len = unit_pkt_build(&p, b, sizeof(b));
		expect_error(f, b, len, 3, 0, 0, UNIT_P0_IP);
	}
	unit_pkt_init(&p, UNIT_IPV4(192, 168, 77, 1));	/* 40 option bytes */
	p.opt_len = 40;
	memset(p.opts, RTE_IPV4_HDR_OPT_NOP, 40);
	p.payload_len = 10;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 3, 0, 0, UNIT_P0_IP);
	p.payload_len = 1000;
	len = unit_pkt_build(&p, b, sizeof(b));
	expect_error(f, b, len, 3, 0, 0, UNIT_P0_IP);
	/* with padding after it: the datagram only */
	p.opt_len = 0;
	p.payload_len = 3;
	p.trailer_len = 15;
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	unit_assert_icmp_error(unit_tx_icmp_nth(f, UNIT_P0, 3, 0, 0),
		&(struct unit_icmp_want){ .type = 3, .src = UNIT_P0_IP,
			.dst_mac = &unit_a_mac, .src_mac = &unit_p0_mac },
		IP(b), 31);
	unit_tx_free(f);
}

/* ------------------------------------------------------ never about */

/* Through the worker: an error is owed (no route) but must not be sent. */
static void
expect_silence(struct unit_fixture *f, const uint8_t *b, size_t len,
	       const char *what)
{
	uint64_t before = unit_stats(f).ip.InNoRoutes;

	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_stats(f).ip.InNoRoutes, before + 1);
	if (unit_tx_count(f) != 0)
		fail_msg("an ICMP error about %s", what);
}

/*
 * Never about an ICMP error (or a type we do not know, taken for one),
 * nor about a fragment after the first; but about an echo, and about a
 * first fragment.
 */
static void
test_never_about_errors_or_later_fragments(void **state)
{
	static const uint8_t errors[] = { 3, 4, 5, 11, 12, 42, 255 };
	struct unit_fixture *f = *state;
	const uint32_t nowhere = UNIT_IPV4(192, 168, 77, 1);
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	unsigned int i;
	size_t len;

	for (i = 0; i < RTE_DIM(errors); i++) {
		len = icmp_msg(b, nowhere, errors[i], 0, 0, 28);
		expect_silence(f, b, len, "an ICMP error");
	}
	len = icmp_msg(b, nowhere, 8, 0, 0x10001, 28);	/* echo */
	expect_error(f, b, len, 3, 0, 0, UNIT_P0_IP);
	len = icmp_msg(b, nowhere, 13, 0, 0, 12);	/* timestamp */
	expect_error(f, b, len, 3, 0, 0, UNIT_P0_IP);

	unit_pkt_init(&p, nowhere);
	p.df = false;
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[7] = 185;					/* offset 1480 */
	unit_ip4_fix_cksum(IP(b));
	expect_silence(f, b, len, "a later fragment");
	IP(b)[6] = 0x20;				/* MF, offset 1480 */
	unit_ip4_fix_cksum(IP(b));
	expect_silence(f, b, len, "a later fragment");
	IP(b)[7] = 0;					/* MF, offset 0 */
	unit_ip4_fix_cksum(IP(b));
	expect_error(f, b, len, 3, 0, 0, UNIT_P0_IP);
}

/* lsk_icmp4_error called directly: whether it queued anything. */
static unsigned int
queued_about(struct unit_fixture *f, uint32_t src, uint32_t dst,
	     uint32_t meta)
{
	struct unit_pkt p;
	struct rte_mbuf *m;
	unsigned int n;

	unit_pkt_init(&p, dst);
	p.src = src;
	m = unit_pkt_mbuf(&p);
	lsk_icmp4_error(f->worker, m, meta, 3, 0, 0);
	n = f->worker->icmp_out.n;
	rte_pktmbuf_free(m);
	unit_list_free(&f->worker->icmp_out);
	return n;
}

/*
 * Never about an L2 broadcast or multicast frame, an IP broadcast or
 * multicast destination, or a martian source (0/8, loopback, multicast
 * and above, our subnets' broadcasts).
 */
static void
test_never_about_broadcasts_or_martians(void **state)
{
	static const uint32_t dst[] = {
		UNIT_IPV4(10, 0, 0, 255), UNIT_IPV4(10, 0, 1, 255), UINT32_MAX,
		UNIT_IPV4(224, 0, 0, 1), UNIT_IPV4(239, 1, 2, 3),
	};
	static const uint32_t src[] = {
		0, UNIT_IPV4(0, 1, 2, 3), UNIT_IPV4(127, 0, 0, 1),
		UNIT_IPV4(224, 0, 0, 5), UNIT_IPV4(240, 0, 0, 1), UINT32_MAX,
		UNIT_IPV4(10, 0, 0, 255), UNIT_IPV4(10, 0, 1, 255),
	};
	struct unit_fixture *f = *state;
	const uint32_t nowhere = UNIT_IPV4(192, 168, 77, 1);
	struct unit_pkt p;
	unsigned int i;

	/* the control: a plain datagram is answered */
	assert_int_equal(queued_about(f, UNIT_A_IP, nowhere, 0), 1);
	assert_int_equal(queued_about(f, UNIT_A_IP, nowhere,
				      LSK_META_L2_BCAST), 0);
	for (i = 0; i < RTE_DIM(dst); i++)
		if (queued_about(f, UNIT_A_IP, dst[i], 0) != 0)
			fail_msg("answered a datagram to %#x", dst[i]);
	for (i = 0; i < RTE_DIM(src); i++)
		if (queued_about(f, src[i], nowhere, 0) != 0)
			fail_msg("answered a datagram from %#x", src[i]);

	/* and through the worker: no port, but the frame was broadcast */
	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 3999;
	p.dst_mac = unit_bcast_mac;
	unit_input_pkt(f, &p);
	p.dst_mac = unit_allhosts_mac;
	unit_input_pkt(f, &p);
	assert_int_equal(unit_stats(f).udp.NoPorts, 2);
	assert_int_equal(unit_tx_count(f), 0);
	/* ICMP counts what leaves: the controls above were only queued */
	assert_int_equal(unit_stats(f).icmp.OutMsgs, 0);
}

/* ------------------------------------------------------- rate limit */

static double
ms_since(uint64_t tsc)
{
	return (double)(rte_rdtsc() - tsc) * 1000.0 / (double)rte_get_tsc_hz();
}

/* n datagrams that each owe a time exceeded, in one burst. */
static void
ttl_burst(struct unit_fixture *f, unsigned int n)
{
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < n; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.ttl = 1;
		p.id = (uint16_t)i;
		p.payload_len = 18;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, (uint16_t)n);
}

/*
 * A burst of 50, then 1000 a second: 100 errors at once send 50 (a few
 * more if milliseconds passed meanwhile) and count the rest
 * OutRateLimited; 20 ms later about 20 more go. Every error is one or
 * the other. Echo replies are not limited.
 */
static void
test_rate_limit(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t start = rte_rdtsc(), t0 = start;
	struct lsk_stats st;
	double took, waited, total;
	unsigned int sent, sent2, i;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	uint8_t b[UNIT_FRAME_MAX];
	size_t len;

	ttl_burst(f, 100);
	took = ms_since(t0);
	sent = unit_tx_icmp(f, UNIT_P0, 11, 0);
	unit_tx_free(f);
	st = unit_stats(f);
	print_message("%u of 100 sent in %.2f ms\n", sent, took);
	assert_int_equal(st.icmp.OutTimeExcds, sent);
	assert_int_equal(sent + st.icmp.OutRateLimited, 100);
	assert_true(sent >= 50);
	assert_true(sent <= 50 + (unsigned int)took + 1);

	t0 = rte_rdtsc();
	nanosleep(&ts, NULL);
	ttl_burst(f, 100);
	waited = ms_since(t0);
	total = ms_since(start);
	sent2 = unit_tx_icmp(f, UNIT_P0, 11, 0);
	unit_tx_free(f);
	st = unit_stats(f);
	print_message("%u of 100 sent after %.2f ms\n", sent2, waited);
	/* at least the 20 ms slept; in all, 50 and one a millisecond */
	assert_true(sent2 >= 19 && sent2 <= 50);
	assert_true(sent + sent2 <= 50 + (unsigned int)total + 1);
	assert_int_equal(st.icmp.OutTimeExcds + st.icmp.OutRateLimited, 200);

	/* the bucket is (nearly) empty: echo replies still go */
	for (i = 0; i < 60; i++) {
		len = icmp_msg(b, UNIT_P0_IP, 8, 0, i, 16);
		unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	}
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 0, 0), 60);
	unit_tx_free(f);
}

/*
 * Linux's rate limit (icmpv4_mask_allow) leaves fragmentation needed out
 * ("Don't limit PMTU discovery") and limits only the types of
 * icmp_ratemask: with the bucket empty, path MTU discovery still gets its
 * answers.
 */
static void
test_frag_needed_not_limited(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[20];
	struct unit_pkt p;
	unsigned int i;

	ttl_burst(f, 100);			/* empties the bucket */
	unit_tx_free(f);
	for (i = 0; i < 20; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.payload_len = 1500 - 28 + 1;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 20);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 4), 20);
	unit_tx_free(f);
}

/* ------------------------------------------------------ no room */

/* What the small pools' mbufs hold after the headroom. */
#define SMALL_ROOM 256

/*
 * Issue 10, finding 8: an error is built in an mbuf of the pool of the
 * datagram it is about. When that mbuf cannot hold it (a pool with a
 * small data room, frames received in segments) nothing is written past
 * it: the error is counted icmp.OutErrors and every mbuf comes back. An
 * error that fits is sent as ever.
 */
static void
test_error_in_small_pool(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mempool *mp = unit_small_pool("icmp_small", SMALL_ROOM);
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_stats st;
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_FAR_IP);		/* a 590-byte error */
	p.ttl = 1;
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_in_pool(mp, b, len, SMALL_ROOM,
					    UNIT_P0));
	st = unit_stats(f);
	assert_int_equal(st.ip.InHdrErrors, 1);
	assert_int_equal(st.icmp.OutErrors, 1);
	assert_int_equal(st.icmp.OutMsgs, 0);
	assert_int_equal(unit_tx_count(f), 0);

	p.payload_len = 100;			/* a 170-byte one */
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_in_pool(mp, b, len, SMALL_ROOM,
					    UNIT_P0));
	assert_int_equal(unit_tx_count(f), 1);
	unit_assert_icmp_error(unit_tx_icmp_nth(f, UNIT_P0, 11, 0, 0),
		&(struct unit_icmp_want){ .type = 11, .src = UNIT_P0_IP,
			.dst_mac = &unit_a_mac, .src_mac = &unit_p0_mac },
		IP(b), len - UNIT_ETH_LEN);
	st = unit_stats(f);
	assert_int_equal(st.icmp.OutErrors, 1);
	assert_int_equal(st.icmp.OutTimeExcds, 1);
	unit_tx_free(f);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);
	rte_mempool_free(mp);
}

/*
 * The same about a datagram we sent from a small send pool
 * (lsk_stack_set_send_pool) to a port of ours where nothing listens: the
 * port unreachable that does not fit is counted OutErrors; one that fits
 * is built and routed (to ourselves, where nothing takes ICMP:
 * ip.OutDiscards).
 */
static void
test_error_about_send_pool_datagram(void **state)
{
	static uint8_t payload[SMALL_ROOM];
	struct unit_fixture *f = *state;
	struct rte_mempool *mp = unit_small_pool("icmp_send", SMALL_ROOM);
	struct lsk_udp_msg msg = { .dst_addr = UNIT_P0_IP, .dst_port = 3999,
				   .len = 200, .payload = payload };
	struct lsk_udp_ep *ep;
	struct lsk_stats st;

	lsk_stack_set_send_pool(f->stack, mp);
	ep = unit_bind(f, UNIT_P0_IP, 5000, NULL);
	assert_int_equal(lsk_udp_send_burst(ep, &msg, 1), 1);
	lsk_worker_flush(f->worker);
	st = unit_stats(f);
	assert_int_equal(st.udp.NoPorts, 1);
	assert_int_equal(st.icmp.OutErrors, 1);
	assert_int_equal(st.ip.OutDiscards, 0);

	msg.len = 100;				/* its error fits */
	assert_int_equal(lsk_udp_send_burst(ep, &msg, 1), 1);
	lsk_worker_flush(f->worker);
	st = unit_stats(f);
	assert_int_equal(st.udp.NoPorts, 2);
	assert_int_equal(st.icmp.OutErrors, 1);
	assert_int_equal(st.ip.OutDiscards, 1);
	unit_close(f, ep);
	lsk_stack_set_send_pool(f->stack, NULL);
	unit_tx_free(f);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);
	rte_mempool_free(mp);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_echo_reply_bytes),
		T(test_echo_not_answered_and_input_counters),
		T(test_error_kinds),
		T(test_no_source_address),
		T(test_source_address_rule),
		T(test_quote_limit),
		T(test_never_about_errors_or_later_fragments),
		T(test_never_about_broadcasts_or_martians),
		T(test_rate_limit),
		T(test_frag_needed_not_limited),
		T(test_error_in_small_pool),
		T(test_error_about_send_pool_datagram),
	};

	return cmocka_run_group_tests_name("icmp4", tests, unit_group_setup,
					   unit_group_teardown);
}
