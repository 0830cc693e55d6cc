/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp4_input: Linux's __udp4_lib_rcv for datagrams to us. Endpoint lookup
 * (address:port, then 0.0.0.0:port; broadcasts reach wildcard endpoints
 * only, IgnoredMulti when none listens), the length rules (InErrors, trim
 * to the UDP length), the checksum (PMD flags, software, zero = none),
 * NoPorts with ICMP port unreachable, a full endpoint ring (RcvbufErrors
 * and InErrors, what fits kept in order) and InDatagrams
 * (Linux cases B8, B16, B18-B20, F1-F12; docs/configuration.md).
 */
#include <string.h>

#include "unit_common.h"

#define IP(b) ((b) + UNIT_ETH_LEN)
#define UDP(b) ((b) + UNIT_ETH_LEN + 20)

/* A datagram from A on P0 to dst:dport with payload_len bytes. */
static void
dgram(struct unit_pkt *p, uint32_t dst, uint16_t dport, uint16_t payload_len)
{
	unit_pkt_init(p, dst);
	p->dport = dport;
	p->payload_len = payload_len;
}

/* Take exactly one datagram from ep and check what it says. */
static void
assert_recv_one(struct lsk_udp_ep *ep, const struct unit_pkt *p)
{
	struct lsk_udp_msg msg[2];
	const uint8_t *pl;
	unsigned int i;

	assert_int_equal(lsk_udp_recv_burst(ep, msg, 2), 1);
	assert_int_equal(msg[0].src_addr, p->src);
	assert_int_equal(msg[0].dst_addr, p->dst);
	assert_int_equal(msg[0].src_port, p->sport);
	assert_int_equal(msg[0].dst_port, p->dport);
	assert_int_equal(msg[0].in_port, p->port);
	assert_int_equal(msg[0].gso_size, 0);
	assert_int_equal(msg[0].len, p->payload_len);
	pl = msg[0].payload;
	for (i = 0; i < p->payload_len; i++)
		if (pl[i] != (uint8_t)(i * 7 + 3))
			fail_msg("payload byte %u: %#x", i, pl[i]);
	rte_pktmbuf_free(msg[0].mbuf);
}

static unsigned int
queued(const struct lsk_udp_ep *ep)
{
	return rte_ring_count(ep->ring);
}

/* ----------------------------------------------------------- lookup */

/* F12: an endpoint on the address beats 0.0.0.0:port; the wildcard takes
 * what no exact endpoint does (the other port's address too). */
static void
test_lookup_exact_then_wildcard(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0, *any;
	struct unit_pkt p;

	any = unit_bind(f, 0, 2000, NULL);
	e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);

	dgram(&p, UNIT_P0_IP, 2000, 100);
	unit_input_pkt(f, &p);
	assert_int_equal(queued(any), 0);
	assert_recv_one(e0, &p);

	dgram(&p, UNIT_P1_IP, 2000, 100);		/* weak host: on P0 */
	unit_input_pkt(f, &p);
	assert_int_equal(queued(e0), 0);
	assert_recv_one(any, &p);

	/* without the exact one, the wildcard */
	unit_close(f, e0);
	dgram(&p, UNIT_P0_IP, 2000, 100);
	unit_input_pkt(f, &p);
	assert_recv_one(any, &p);

	/* another port number is nobody's */
	dgram(&p, UNIT_P0_IP, 2001, 100);
	unit_input_pkt(f, &p);
	assert_int_equal(queued(any), 0);
	assert_int_equal(unit_stats(f).udp.NoPorts, 1);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 3);
	unit_tx_free(f);
	unit_close(f, any);
}

/*
 * B18, B19, F5: a subnet or limited broadcast reaches a wildcard endpoint
 * only; with none it is IgnoredMulti, never NoPorts, and never answered.
 */
static void
test_broadcast_only_wildcard(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0, *any;
	struct lsk_stats st;
	struct unit_pkt p;

	e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	dgram(&p, UNIT_IPV4(10, 0, 0, 255), 2000, 50);
	p.dst_mac = unit_bcast_mac;
	unit_input_pkt(f, &p);
	p.dst = UINT32_MAX;
	unit_input_pkt(f, &p);
	p.dst_mac = unit_p0_mac;			/* unicast frame, too */
	p.dst = UNIT_IPV4(10, 0, 0, 255);
	unit_input_pkt(f, &p);
	assert_int_equal(queued(e0), 0);
	st = unit_stats(f);
	assert_int_equal(st.udp.IgnoredMulti, 3);
	assert_int_equal(st.udp.NoPorts, 0);
	assert_int_equal(st.udp.InDatagrams, 0);
	assert_int_equal(st.ip.InDelivers, 3);
	assert_int_equal(unit_tx_count(f), 0);		/* no ICMP */

	any = unit_bind(f, 0, 2000, NULL);
	dgram(&p, UNIT_IPV4(10, 0, 0, 255), 2000, 50);
	p.dst_mac = unit_bcast_mac;
	unit_input_pkt(f, &p);
	assert_recv_one(any, &p);
	dgram(&p, UNIT_IPV4(10, 0, 1, 255), 2000, 50);	/* P1's, on P0 */
	unit_input_pkt(f, &p);
	assert_recv_one(any, &p);
	p.dst = UINT32_MAX;
	p.dst_mac = unit_bcast_mac;
	unit_input_pkt(f, &p);
	assert_recv_one(any, &p);
	assert_int_equal(queued(e0), 0);
	st = unit_stats(f);
	assert_int_equal(st.udp.IgnoredMulti, 3);
	assert_int_equal(st.udp.InDatagrams, 3);
	unit_close(f, any);
	unit_close(f, e0);
}

/* ---------------------------------------------------------- lengths */

/* B8, F6, F7: no room for the header, a length under 8 or over the IP
 * payload: InErrors, nothing delivered, nothing answered. */
static void
test_bad_lengths(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_stats st;
	struct unit_pkt p;
	size_t len;

	dgram(&p, UNIT_P0_IP, 2000, 100);
	len = unit_pkt_build(&p, b, sizeof(b));
	put16(UDP(b) + 4, 4);				/* under 8 */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	put16(UDP(b) + 4, 7);
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	put16(UDP(b) + 4, 108 + 100);			/* over the payload */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	put16(UDP(b) + 4, 109);				/* by one */
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));

	/* IP datagram of 20 + 4 bytes: no whole UDP header */
	len = unit_pkt_build(&p, b, sizeof(b));
	put16(IP(b) + 2, 24);
	unit_ip4_fix_cksum(IP(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, UNIT_ETH_LEN + 24,
					       UNIT_P0));

	assert_int_equal(queued(e0), 0);
	st = unit_stats(f);
	assert_int_equal(st.udp.InErrors, 5);
	assert_int_equal(st.udp.InCsumErrors, 0);
	assert_int_equal(st.udp.NoPorts, 0);
	assert_int_equal(st.udp.InDatagrams, 0);
	assert_int_equal(st.ip.InDelivers, 5);
	assert_int_equal(unit_tx_count(f), 0);
	unit_close(f, e0);
}

/*
 * F8: a UDP length shorter than the IP payload trims the datagram: the
 * checksum covers the UDP length only, and the endpoint gets that much
 * (the mbuf ends there too).
 */
static void
test_shorter_udp_length_trims(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_udp_msg msg;
	struct unit_pkt p;
	size_t len;

	/* a valid 500-byte datagram, then 500 more bytes in the IP
	 * payload that UDP does not claim */
	dgram(&p, UNIT_P0_IP, 2000, 500);
	len = unit_pkt_build(&p, b, sizeof(b));
	memset(b + len, 0xab, 500);
	put16(IP(b) + 2, 20 + 8 + 1000);
	unit_ip4_fix_cksum(IP(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len + 500, UNIT_P0));

	assert_int_equal(lsk_udp_recv_burst(e0, &msg, 1), 1);
	assert_int_equal(msg.len, 500);
	assert_int_equal(rte_pktmbuf_pkt_len(msg.mbuf), len);
	assert_memory_equal(msg.payload, UDP(b) + 8, 500);
	rte_pktmbuf_free(msg.mbuf);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 1);
	assert_int_equal(unit_stats(f).udp.InErrors, 0);
	unit_close(f, e0);
}

/* A11 through UDP: Ethernet padding never reaches the endpoint. */
static void
test_padding_not_delivered(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct unit_pkt p;

	dgram(&p, UNIT_P0_IP, 2000, 1);
	p.trailer_len = 17;
	unit_input_pkt(f, &p);
	assert_recv_one(e0, &p);
	unit_close(f, e0);
}

/* ---------------------------------------------------------- checksum */

static struct rte_mbuf *
with_flags(const struct unit_pkt *p, bool corrupt, uint64_t l4_flag)
{
	uint8_t b[UNIT_FRAME_MAX];
	size_t len = unit_pkt_build(p, b, sizeof(b));
	struct rte_mbuf *m;

	if (corrupt)
		UDP(b)[8] ^= 0x40;		/* payload, not the field */
	m = unit_mbuf_from_bytes(b, len, p->port);
	m->ol_flags |= l4_flag;
	return m;
}

/*
 * F10: the PMD's L4 verdict is trusted when it gave one (GOOD delivers
 * even a wrong sum, BAD drops even a right one); with none the checksum
 * is computed. A bad one counts InCsumErrors and InErrors.
 */
static void
test_checksum_flags_and_software(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_stats st;
	struct unit_pkt p;

	dgram(&p, UNIT_P0_IP, 2000, 300);
	unit_input_one(f, with_flags(&p, false, RTE_MBUF_F_RX_L4_CKSUM_GOOD));
	unit_input_one(f, with_flags(&p, true, RTE_MBUF_F_RX_L4_CKSUM_GOOD));
	assert_int_equal(queued(e0), 2);
	unit_input_one(f, with_flags(&p, false, RTE_MBUF_F_RX_L4_CKSUM_BAD));
	unit_input_one(f, with_flags(&p, true, RTE_MBUF_F_RX_L4_CKSUM_BAD));
	assert_int_equal(queued(e0), 2);
	unit_input_one(f, with_flags(&p, false,
				     RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN));
	assert_int_equal(queued(e0), 3);
	unit_input_one(f, with_flags(&p, true,
				     RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN));
	assert_int_equal(queued(e0), 3);

	/* in software over an odd length too */
	dgram(&p, UNIT_P0_IP, 2000, 301);
	unit_input_pkt(f, &p);
	unit_input_one(f, with_flags(&p, true, 0));
	assert_int_equal(queued(e0), 4);

	st = unit_stats(f);
	assert_int_equal(st.udp.InCsumErrors, 4);
	assert_int_equal(st.udp.InErrors, 4);
	assert_int_equal(st.udp.InDatagrams, 4);
	assert_int_equal(unit_recv_free(e0, 10), 4);
	assert_int_equal(unit_tx_count(f), 0);
	unit_close(f, e0);
}

/*
 * DPDK: RTE_MBUF_F_RX_L4_CKSUM_NONE "the L4 checksum is not correct in
 * the packet data, but the integrity of the L4 data is verified": the
 * datagram is good whatever its checksum field says (ip4_input already
 * treats the IP flag NONE so).
 */
static void
test_checksum_flag_none(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	uint8_t b[UNIT_FRAME_MAX];
	struct rte_mbuf *m;
	struct unit_pkt p;
	size_t len;

	dgram(&p, UNIT_P0_IP, 2000, 300);
	len = unit_pkt_build(&p, b, sizeof(b));
	put16(UDP(b) + 6, 0x1234);		/* the field only is wrong */
	m = unit_mbuf_from_bytes(b, len, UNIT_P0);
	m->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_NONE;
	unit_input_one(f, m);
	assert_int_equal(unit_stats(f).udp.InCsumErrors, 0);
	assert_int_equal(unit_recv_free(e0, 2), 1);
	unit_close(f, e0);
}

/* F9: a zero checksum means none was computed: delivered. */
static void
test_zero_checksum(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_udp_msg msg;
	struct unit_pkt p;
	size_t len;

	dgram(&p, UNIT_P0_IP, 2000, 200);
	len = unit_pkt_build(&p, b, sizeof(b));
	put16(UDP(b) + 6, 0);
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(lsk_udp_recv_burst(e0, &msg, 1), 1);
	assert_int_equal(msg.len, 200);
	assert_memory_equal(msg.payload, UDP(b) + 8, 200);
	rte_pktmbuf_free(msg.mbuf);
	assert_int_equal(unit_stats(f).udp.InCsumErrors, 0);
	unit_close(f, e0);
}

/* ----------------------------------------------------------- NoPorts */

/*
 * F3, B16: nothing listens: NoPorts, InDelivers all the same, and ICMP
 * port unreachable from the address the datagram was sent to (ours),
 * quoting it. A datagram to P1's address arriving on P0 is answered from
 * P1's address, out of P0.
 */
static void
test_no_port_unreachable(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_stats st;
	struct unit_pkt p;
	size_t len;

	dgram(&p, UNIT_P0_IP, 3999, 1000);
	p.tos = 0x2e;
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 1);
	unit_assert_icmp_error(unit_tx_icmp_nth(f, UNIT_P0, 3, 3, 0),
		&(struct unit_icmp_want){ .type = 3, .code = 3,
			.src = UNIT_P0_IP, .dst_mac = &unit_a_mac,
			.src_mac = &unit_p0_mac },
		IP(b), len - UNIT_ETH_LEN);
	unit_tx_free(f);

	dgram(&p, UNIT_P1_IP, 3999, 10);
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_from_bytes(b, len, UNIT_P0));
	assert_int_equal(unit_tx_count(f), 1);
	unit_assert_icmp_error(unit_tx_icmp_nth(f, UNIT_P0, 3, 3, 0),
		&(struct unit_icmp_want){ .type = 3, .code = 3,
			.src = UNIT_P1_IP, .dst_mac = &unit_a_mac,
			.src_mac = &unit_p0_mac },
		IP(b), len - UNIT_ETH_LEN);
	unit_tx_free(f);

	st = unit_stats(f);
	assert_int_equal(st.udp.NoPorts, 2);
	assert_int_equal(st.ip.InDelivers, 2);
	assert_int_equal(st.icmp.OutDestUnreachs, 2);
	assert_int_equal(st.icmp.OutMsgs, 2);
}

/* F4: a bad checksum is found before the missing port: CsumErrors, no
 * NoPorts, no ICMP. */
static void
test_no_port_bad_checksum(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	struct unit_pkt p;

	dgram(&p, UNIT_P0_IP, 3999, 100);
	unit_input_one(f, with_flags(&p, true, 0));
	st = unit_stats(f);
	assert_int_equal(st.udp.InCsumErrors, 1);
	assert_int_equal(st.udp.InErrors, 1);
	assert_int_equal(st.udp.NoPorts, 0);
	assert_int_equal(unit_tx_count(f), 0);
}

/* --------------------------------------------------- ring and counts */

/*
 * F11: an endpoint ring of 4 and a burst of 10: the first 4 go in, in
 * order; the other 6 count RcvbufErrors and InErrors each. While it is
 * full every datagram is dropped; once read, there is room again.
 */
static void
test_ring_full(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_udp_bind_opts opts = { .ring_size = 4,
		.socket_id = SOCKET_ID_ANY };
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, &opts);
	struct rte_mbuf *pkts[10];
	struct lsk_udp_msg msgs[10];
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	dgram(&p, UNIT_P0_IP, 2000, 64);
	for (i = 0; i < 10; i++) {
		p.sport = (uint16_t)(5000 + i);
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 10);
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 4);
	assert_int_equal(st.udp.RcvbufErrors, 6);
	assert_int_equal(st.udp.InErrors, 6);
	assert_int_equal(st.udp.NoPorts, 0);
	assert_int_equal(queued(e0), 4);

	/* full: a whole burst is dropped */
	for (i = 0; i < 3; i++)
		pkts[i] = unit_pkt_mbuf(&p);
	unit_input(f, pkts, 3);
	assert_int_equal(unit_stats(f).udp.RcvbufErrors, 9);

	assert_int_equal(lsk_udp_recv_burst(e0, msgs, 10), 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(msgs[i].src_port, 5000 + i);
		rte_pktmbuf_free(msgs[i].mbuf);
	}
	unit_input_pkt(f, &p);
	assert_int_equal(unit_recv_free(e0, 10), 1);
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 5);
	assert_int_equal(st.udp.RcvbufErrors, 9);
	assert_int_equal(st.udp.InErrors, 9);
	assert_int_equal(unit_tx_count(f), 0);
	unit_close(f, e0);
}

/*
 * One burst to many endpoints (more than udp4_input keeps pending at
 * once): each gets its own datagrams, in arrival order, none lost.
 */
static void
test_many_endpoints_one_burst(void **state)
{
	enum { EPS = 12, PER = 5 };
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep[EPS];
	struct rte_mbuf *pkts[EPS * PER];
	struct lsk_udp_msg msgs[PER + 1];
	struct unit_pkt p;
	unsigned int i, k;

	for (i = 0; i < EPS; i++)
		ep[i] = unit_bind(f, UNIT_P0_IP, (uint16_t)(3000 + i), NULL);
	dgram(&p, UNIT_P0_IP, 0, 20);
	for (k = 0; k < PER; k++) {
		for (i = 0; i < EPS; i++) {
			p.dport = (uint16_t)(3000 + i);
			p.sport = (uint16_t)(100 + k);
			pkts[k * EPS + i] = unit_pkt_mbuf(&p);
		}
	}
	unit_input(f, pkts, EPS * PER);
	assert_int_equal(unit_stats(f).udp.InDatagrams, EPS * PER);
	for (i = 0; i < EPS; i++) {
		assert_int_equal(lsk_udp_recv_burst(ep[i], msgs, PER + 1),
				 PER);
		for (k = 0; k < PER; k++) {
			assert_int_equal(msgs[k].dst_port, 3000 + i);
			assert_int_equal(msgs[k].src_port, 100 + k);
			rte_pktmbuf_free(msgs[k].mbuf);
		}
		unit_close(f, ep[i]);
	}
}

/*
 * F1, F14: InDatagrams counts datagrams handed to an endpoint, in list
 * and single mode alike; InDelivers counts every UDP datagram IP handed
 * to UDP, delivered or not.
 */
static void
test_in_datagrams(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *pkts[8];
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	dgram(&p, UNIT_P0_IP, 2000, 10);
	for (i = 0; i < 6; i++)
		pkts[i] = unit_pkt_mbuf(&p);
	p.dport = 2002;					/* nobody */
	pkts[6] = unit_pkt_mbuf(&p);
	p.dport = 2000;
	pkts[7] = with_flags(&p, true, 0);		/* bad sum */
	unit_input(f, pkts, 8);
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 6);
	assert_int_equal(st.udp.NoPorts, 1);
	assert_int_equal(st.udp.InCsumErrors, 1);
	assert_int_equal(st.ip.InDelivers, 8);
	assert_int_equal(st.stages[LSK_STAGE_UDP4_INPUT].packets, 8);
	assert_int_equal(unit_recv_free(e0, 10), 6);
	unit_tx_free(f);
	unit_close(f, e0);
}

/* ------------------------------------------------- in segments */

/* The payload of msg, read across its segments, is the default pattern
 * of len bytes. */
static void
assert_pattern(const struct lsk_udp_msg *msg, uint32_t len)
{
	static uint8_t buf[65536];
	uint32_t off = (uint32_t)((const uint8_t *)msg->payload -
				  rte_pktmbuf_mtod(msg->mbuf, uint8_t *));
	const uint8_t *all;
	uint32_t i;

	assert_int_equal(msg->len, len);
	assert_int_equal(rte_pktmbuf_pkt_len(msg->mbuf), off + len);
	all = rte_pktmbuf_read(msg->mbuf, off, len, buf);
	for (i = 0; i < len; i++)
		if (all[i] != (uint8_t)(i * 7 + 3))
			fail_msg("payload byte %u: %#x", i, all[i]);
}

/*
 * A datagram that arrives in two mbuf segments (a PMD's scattered
 * receive) is one datagram: its checksum is checked across them, the
 * endpoint gets it whole, InDatagrams counts 1; on an LSK_UDP_GRO
 * endpoint too, where it is no train (gso_size 0).
 */
static void
test_segmented_datagram(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_udp_bind_opts gro = { .socket_id = SOCKET_ID_ANY,
					       .flags = LSK_UDP_GRO };
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_udp_ep *e1 = unit_bind(f, UNIT_P0_IP, 2001, &gro);
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_udp_msg msg;
	struct unit_pkt p;
	size_t len;

	dgram(&p, UNIT_P0_IP, 2000, 1000);
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_chain_from_bytes(b, len, 100, UNIT_P0));
	UDP(b)[8 + 900] ^= 1;				/* in segment 2 */
	unit_input_one(f, unit_mbuf_chain_from_bytes(b, len, 100, UNIT_P0));
	assert_int_equal(lsk_udp_recv_burst(e0, &msg, 1), 1);
	assert_int_equal(msg.gso_size, 0);
	assert_pattern(&msg, 1000);
	rte_pktmbuf_free(msg.mbuf);
	assert_int_equal(queued(e0), 0);
	assert_int_equal(unit_stats(f).udp.InCsumErrors, 1);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 1);

	dgram(&p, UNIT_P0_IP, 2001, 1000);
	len = unit_pkt_build(&p, b, sizeof(b));
	unit_input_one(f, unit_mbuf_chain_from_bytes(b, len, 100, UNIT_P0));
	assert_int_equal(unit_stats(f).udp.InDatagrams, 2);
	assert_int_equal(lsk_udp_recv_burst(e1, &msg, 1), 1);
	assert_int_equal(msg.gso_size, 0);
	assert_pattern(&msg, 1000);
	rte_pktmbuf_free(msg.mbuf);
	unit_close(f, e1);
	unit_close(f, e0);
}

/* Send the frame b in the segments seg_len says, checked in software;
 * true when ep got it (and it is freed). */
static bool
segs_delivered(struct unit_fixture *f, struct lsk_udp_ep *ep, const uint8_t *b,
	       size_t len, const size_t *seg_len, unsigned int n)
{
	unit_input_one(f, unit_mbuf_segs_from_bytes(b, len, seg_len, n,
						    UNIT_P0));
	return unit_recv_free(ep, 2) == 1;
}

/*
 * The checksum of a datagram in two segments gives the same verdict
 * wherever the split falls (odd UDP byte counts in the first segment
 * too): valid ones delivered, one with a bit flipped in either segment
 * counted InCsumErrors; for odd and even payload lengths.
 */
static void
test_checksum_any_split(void **state)
{
	static const uint16_t plen[] = { 1000, 999 };
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	uint8_t b[UNIT_FRAME_MAX];
	uint64_t sent_bad = 0, sent_ok = 0;
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;
	size_t len, cut;

	for (i = 0; i < RTE_DIM(plen); i++) {
		dgram(&p, UNIT_P0_IP, 2000, plen[i]);
		len = unit_pkt_build(&p, b, sizeof(b));
		/* the headers stay in the first segment, as any PMD's */
		for (cut = UNIT_ETH_LEN + 28; cut < len; cut++) {
			size_t seg[1] = { cut };
			size_t flip[2] = { cut - 1, cut };
			unsigned int k;

			if (!segs_delivered(f, e0, b, len, seg, 2))
				fail_msg("payload %u split at %zu: dropped",
					 plen[i], cut);
			sent_ok++;
			for (k = 0; k < 2; k++) {
				if (flip[k] < UNIT_ETH_LEN + 28)
					continue;	/* a header byte */
				b[flip[k]] ^= 0x10;
				if (segs_delivered(f, e0, b, len, seg, 2))
					fail_msg("payload %u split at %zu, "
						 "byte %zu flipped: delivered",
						 plen[i], cut, flip[k]);
				b[flip[k]] ^= 0x10;
				sent_bad++;
			}
		}
	}
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, sent_ok);
	assert_int_equal(st.udp.InCsumErrors, sent_bad);
	assert_int_equal(st.udp.InErrors, sent_bad);
	unit_close(f, e0);
}

/*
 * The same over chains of 3 to 8 segments of random, often odd, lengths
 * (a PMD with small buffers, or fragments that arrived in segments).
 */
static void
test_checksum_many_segments(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	uint64_t rnd = 0x5eed5eed, sent = 0;
	uint8_t b[UNIT_FRAME_MAX];
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 500; i++) {
		uint16_t plen = (uint16_t)(8 + unit_rand(&rnd) % 1400);
		unsigned int n = 3 + (unsigned int)(unit_rand(&rnd) % 6), k;
		size_t seg[8], len, left, flip;

		dgram(&p, UNIT_P0_IP, 2000, plen);
		len = unit_pkt_build(&p, b, sizeof(b));
		seg[0] = UNIT_ETH_LEN + 28 + unit_rand(&rnd) % 8;
		left = len - seg[0];
		for (k = 1; k + 1 < n; k++) {
			seg[k] = unit_rand(&rnd) % (left / 2 + 1);
			left -= seg[k];
		}
		if (!segs_delivered(f, e0, b, len, seg, n))
			fail_msg("round %u (%u segments): dropped", i, n);
		flip = UNIT_ETH_LEN + 28 + unit_rand(&rnd) % plen;
		b[flip] ^= 0x01;
		if (segs_delivered(f, e0, b, len, seg, n))
			fail_msg("round %u, byte %zu flipped: delivered", i,
				 flip);
		sent++;
	}
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, sent);
	assert_int_equal(st.udp.InCsumErrors, sent);
	unit_close(f, e0);
}

/* The frame whole (3028 bytes of IP, DF clear) as three fragments. */
static void
three_fragments(const uint8_t *whole, struct rte_mbuf **pkts)
{
	static const uint16_t off[] = { 0, 1480, 2960 };
	uint8_t frag[UNIT_FRAME_MAX];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		uint16_t n = (uint16_t)(i < 2 ? 1480 : 3008 - 2960);

		memcpy(frag, whole, UNIT_ETH_LEN + 20);
		memcpy(frag + UNIT_ETH_LEN + 20, whole + UNIT_ETH_LEN + 20 +
		       off[i], n);
		put16(IP(frag) + 2, (uint16_t)(20 + n));
		put16(IP(frag) + 6, (uint16_t)((i < 2 ? 0x2000 : 0) |
					       off[i] / 8));
		unit_ip4_fix_cksum(IP(frag));
		pkts[i] = unit_mbuf_from_bytes(frag, UNIT_ETH_LEN + 20 + n,
					       UNIT_P0);
	}
}

/*
 * B17: a datagram sent to us in three fragments is reassembled and
 * delivered once, whole (ReasmReqds 3, ReasmOKs 1, InDatagrams 1).
 */
static void
test_reassembled_datagram(void **state)
{
	static uint8_t whole[4096];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *pkts[3];
	struct lsk_udp_msg msg;
	struct lsk_stats st;
	struct unit_pkt p;

	dgram(&p, UNIT_P0_IP, 2000, 3000);
	p.df = false;
	p.id = 0x4242;
	unit_pkt_build(&p, whole, sizeof(whole));	/* IP: 3028 bytes */
	three_fragments(whole, pkts);
	unit_input(f, pkts, 3);
	assert_int_equal(lsk_udp_recv_burst(e0, &msg, 1), 1);
	assert_int_equal(msg.src_addr, UNIT_A_IP);
	assert_int_equal(msg.src_port, 1000);
	assert_pattern(&msg, 3000);
	rte_pktmbuf_free(msg.mbuf);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 3);
	assert_int_equal(st.ip.ReasmOKs, 1);
	assert_int_equal(st.ip.ReasmFails, 0);
	assert_int_equal(st.udp.InDatagrams, 1);
	assert_int_equal(st.ip.InDelivers, 1);
	assert_int_equal(unit_tx_count(f), 0);
	unit_close(f, e0);
}

/*
 * A PMD's L4 checksum flag on the first fragment says nothing about the
 * datagram: the reassembled one is checked in software whatever it says
 * (a corrupted one flagged GOOD or NONE is counted, a valid one flagged
 * BAD is delivered).
 */
static void
test_reassembled_checksum_not_the_fragments(void **state)
{
	static const uint64_t flag[] = { RTE_MBUF_F_RX_L4_CKSUM_GOOD,
					 RTE_MBUF_F_RX_L4_CKSUM_NONE,
					 RTE_MBUF_F_RX_L4_CKSUM_BAD };
	static uint8_t whole[4096];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct rte_mbuf *pkts[3];
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	dgram(&p, UNIT_P0_IP, 2000, 3000);
	p.df = false;
	for (i = 0; i < RTE_DIM(flag); i++) {
		bool corrupt = flag[i] != RTE_MBUF_F_RX_L4_CKSUM_BAD;

		p.id = (uint16_t)(0x4300 + i);
		unit_pkt_build(&p, whole, sizeof(whole));
		if (corrupt)
			whole[UNIT_ETH_LEN + 28 + 2000] ^= 0x20;
		three_fragments(whole, pkts);
		pkts[0]->ol_flags |= flag[i];
		unit_input(f, pkts, 3);
		assert_int_equal(unit_recv_free(e0, 2), corrupt ? 0 : 1);
	}
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmOKs, 3);
	assert_int_equal(st.udp.InCsumErrors, 2);
	assert_int_equal(st.udp.InDatagrams, 1);
	unit_close(f, e0);
}

/* --------------------------------------- reassembly near 64 KiB */

#define JUMBO_SEG 2048		/* a scattering PMD's segment size */

/*
 * The IP payload dg[0, total) sent to us from A as fragments of frag_len
 * bytes, the last taking the rest (up to a 9000-byte MTU's), IP ID id,
 * each frame in segments of JUMBO_SEG bytes as a scattering PMD gives
 * jumbo frames; one burst.
 */
static void
send_fragments(struct unit_fixture *f, const uint8_t *dg, uint32_t total,
	       uint32_t frag_len, uint16_t id)
{
	static uint8_t fr[UNIT_ETH_LEN + 20 + 9000];
	static const size_t segs[] = { JUMBO_SEG, JUMBO_SEG, JUMBO_SEG,
				       JUMBO_SEG, JUMBO_SEG };
	struct rte_mbuf *pkts[16];
	struct unit_pkt p;
	uint32_t off;
	uint16_t n = 0;

	uint32_t len;

	assert_true(frag_len % 8 == 0 && frag_len <= 9000 - 20);
	dgram(&p, UNIT_P0_IP, 2000, 0);
	p.df = false;
	p.id = id;
	unit_pkt_build(&p, fr, sizeof(fr));	/* Ethernet and IP header */
	for (off = 0; off < total; off += len) {
		size_t flen;

		len = total - off <= 9000 - 20 ? total - off : frag_len;
		flen = UNIT_ETH_LEN + 20 + len;

		memcpy(fr + UNIT_ETH_LEN + 20, dg + off, len);
		put16(IP(fr) + 2, (uint16_t)(20 + len));
		put16(IP(fr) + 6, (uint16_t)((off + len < total ? 0x2000 : 0) |
					     off / 8));
		unit_ip4_fix_cksum(IP(fr));
		assert_true(n < RTE_DIM(pkts));
		pkts[n++] = unit_mbuf_segs_from_bytes(fr, flen, segs,
			(unsigned int)((flen + JUMBO_SEG - 1) / JUMBO_SEG),
			UNIT_P0);
	}
	unit_input(f, pkts, n);
}

/* A UDP datagram of total bytes from A:1000 to us:2000 in dg: UDP length
 * ulen, the default payload pattern, the checksum csum (valid when
 * csum_ok, for the ulen bytes). */
static void
jumbo_dgram(uint8_t *dg, uint32_t total, uint16_t ulen, bool csum_ok)
{
	uint32_t i, sum;

	put16(dg, 1000);
	put16(dg + 2, 2000);
	put16(dg + 4, ulen);
	put16(dg + 6, 0);
	for (i = 8; i < total; i++)
		dg[i] = (uint8_t)((i - 8) * 7 + 3);
	if (!csum_ok)
		return;
	sum = sum16((const uint8_t[]){ 10, 0, 0, 1, 10, 0, 0, 254 }, 8, 0) +
	      IPPROTO_UDP + ulen;
	sum = (uint16_t)~fold(sum16(dg, ulen, sum));
	put16(dg + 6, sum == 0 ? 0xffff : (uint16_t)sum);
}

/*
 * The largest datagram, 65535 bytes of IP in 8 jumbo fragments of 8 KiB
 * in segments, is reassembled and delivered whole, checksum and all.
 */
static void
test_reassembled_65535_delivered(void **state)
{
	static uint8_t dg[65536];
	const uint32_t total = 65535 - 20;
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0;
	struct lsk_udp_msg msg;
	struct lsk_stats st;

	unit_cmd(f, "port 0 mtu 9000");
	e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	jumbo_dgram(dg, total, (uint16_t)total, true);
	send_fragments(f, dg, total, 8192, 0x6400);
	assert_int_equal(lsk_udp_recv_burst(e0, &msg, 1), 1);
	assert_int_equal(msg.src_addr, UNIT_A_IP);
	assert_pattern(&msg, total - 8);
	rte_pktmbuf_free(msg.mbuf);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 8);
	assert_int_equal(st.ip.ReasmOKs, 1);
	assert_int_equal(st.ip.ReasmFails, 0);
	assert_int_equal(st.udp.InDatagrams, 1);
	assert_int_equal(st.udp.InErrors, 0);
	unit_assert_reasm_balance(&st);
	unit_close(f, e0);
}

/*
 * Fragments that would reassemble past 65535 bytes of IP (the last at
 * offset 7168 x 8) are dropped whole, as Linux's ip_frag_reasm does
 * ("Oversized IP packet"): ReasmFails once, nothing delivered, no ICMP.
 * IP payloads just past the limit read as a total length under the header
 * (a UDP length past the data), further ones as a short datagram that
 * would be delivered cut.
 */
static void
test_reassembly_past_65535_dropped(void **state)
{
	static const struct {
		uint32_t total;		/* IP payload of all fragments */
		uint16_t ulen;
	} c[] = {
		{ 65535 - 20 + 1, 0xffff },
		{ 57344 + 8176, 0xffff },	/* total length 4 */
		{ 65535, 0xffff },
		{ 65536 + 100, 80 },		/* total length 120 */
		{ 57344 + 8980, 1000 },		/* the longest last one */
	};
	static uint8_t dg[57344 + 8980];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0;
	struct lsk_stats st;
	unsigned int i;

	unit_cmd(f, "port 0 mtu 9000");
	e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	for (i = 0; i < RTE_DIM(c); i++) {
		jumbo_dgram(dg, c[i].total, c[i].ulen, false);
		send_fragments(f, dg, c[i].total, 8192, (uint16_t)(0x6500 + i));
		assert_int_equal(queued(e0), 0);
		st = unit_stats(f);
		assert_int_equal(st.ip.ReasmReqds, 8 * (i + 1));
		assert_int_equal(st.ip.ReasmFails, i + 1);
		assert_int_equal(st.ip.ReasmOKs, 0);
		assert_int_equal(st.ip.InDelivers, 0);
		assert_int_equal(st.udp.InErrors + st.udp.InDatagrams +
				 st.udp.NoPorts, 0);
		unit_assert_reasm_balance(&st);
	}
	assert_int_equal(unit_tx_count(f), 0);
	unit_close(f, e0);
}

static void
test_reassembly_past_65535_dropped_single(void **state)
{
	test_reassembly_past_65535_dropped(state);
}

/* The same in single mode (each packet through the stages alone). */
static void
test_ring_full_single(void **state)
{
	test_ring_full(state);
}

static void
test_in_datagrams_single(void **state)
{
	test_in_datagrams(state);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)
#define TS(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_single, \
						unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_lookup_exact_then_wildcard),
		T(test_broadcast_only_wildcard),
		T(test_bad_lengths),
		T(test_shorter_udp_length_trims),
		T(test_padding_not_delivered),
		T(test_checksum_flags_and_software),
		T(test_checksum_flag_none),
		T(test_zero_checksum),
		T(test_no_port_unreachable),
		T(test_no_port_bad_checksum),
		T(test_ring_full),
		TS(test_ring_full_single),
		T(test_many_endpoints_one_burst),
		T(test_in_datagrams),
		TS(test_in_datagrams_single),
		T(test_segmented_datagram),
		T(test_checksum_any_split),
		T(test_checksum_many_segments),
		T(test_reassembled_datagram),
		T(test_reassembled_checksum_not_the_fragments),
		T(test_reassembled_65535_delivered),
		T(test_reassembly_past_65535_dropped),
		TS(test_reassembly_past_65535_dropped_single),
	};

	return cmocka_run_group_tests_name("udp4_input", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
