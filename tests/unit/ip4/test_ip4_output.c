/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_output: what the stack sends itself. Datagrams applications queue
 * (lsk_udp_send_burst) are routed by worker 0 at its flush like
 * forwarded traffic: the egress port's address as source when the
 * endpoint has none, valid checksums (a UDP checksum of 0 sent as
 * 0xffff), the next hop's MACs or ARP first; no route is OutNoRoutes, a
 * blackhole OutDiscards; too big for the egress MTU it leaves in
 * fragments (DF is set only on what fits, as Linux's IP_PMTUDISC_WANT,
 * the UDP default); sends to our own addresses loop
 * back into local delivery. ICMP the workers make leaves the same way,
 * counted only once it leaves.
 */
#include <string.h>

#include <rte_ring.h>

#include "unit_common.h"
#include "ip4/ip4.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

static uint8_t payload[2048];

static struct lsk_udp_ep *
sender(struct unit_fixture *f, uint32_t addr, uint16_t port)
{
	struct lsk_udp_bind_opts o = { .pool = unit_pool,
				       .socket_id = SOCKET_ID_ANY };

	return unit_bind(f, addr, port, &o);
}

/* Queue one datagram of len bytes from ep to dst:dport. */
static void
send_to(struct lsk_udp_ep *ep, uint32_t dst, uint16_t dport, uint32_t len)
{
	struct lsk_udp_msg m = { .dst_addr = dst, .dst_port = dport,
				 .len = len, .payload = payload };
	uint32_t i;

	for (i = 0; i < len; i++)
		payload[i] = (uint8_t)(i * 11 + len);
	assert_int_equal(lsk_udp_send_burst(ep, &m, 1), 1);
}

/* The frame m is a datagram from src:sport to dst:dport of len payload
 * bytes (payload's), Ethernet from smac to dmac, TTL 64, DF, checksums
 * valid. */
static void
assert_datagram(struct rte_mbuf *m, const struct rte_ether_addr *dmac,
		const struct rte_ether_addr *smac, uint32_t src,
		uint16_t sport, uint32_t dst, uint16_t dport, uint32_t len)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint8_t *ip = IP(b), *udp = ip + 20;

	assert_int_equal(m->nb_segs, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(m), UNIT_ETH_LEN + 28 + len);
	assert_memory_equal(b, dmac, RTE_ETHER_ADDR_LEN);
	assert_memory_equal(b + 6, smac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(get16(b + 12), RTE_ETHER_TYPE_IPV4);
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(get16(ip + 2), 28 + len);
	assert_int_equal(get16(ip + 6), 0x4000);
	assert_int_equal(ip[8], 64);
	assert_int_equal(ip[9], IPPROTO_UDP);
	assert_int_equal(unit_ip4_hdr_sum(ip), 0);
	assert_int_equal(get32(ip + 12), src);
	assert_int_equal(get32(ip + 16), dst);
	assert_int_equal(get16(udp), sport);
	assert_int_equal(get16(udp + 2), dport);
	assert_int_equal(get16(udp + 4), 8 + len);
	assert_true(unit_udp_csum_ok(m));
	assert_memory_equal(udp + 8, payload, len);
}

/*
 * Sources and next hops: an endpoint on 0.0.0.0 sends from the egress
 * port's address; one bound to an address keeps it (as a bound Linux
 * socket), whichever port the route takes; via a gateway the frame goes
 * to the gateway's MAC with the final destination in IP.
 */
static void
test_routes_and_sources(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *any = sender(f, 0, 6000);
	struct lsk_udp_ep *p0 = sender(f, UNIT_P0_IP, 6001);
	struct lsk_stats st;

	send_to(any, UNIT_B_IP, 7000, 100);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 1);
	assert_datagram(f->tx.pkts[UNIT_P1][0], &unit_b_mac, &unit_p1_mac,
			UNIT_P1_IP, 6000, UNIT_B_IP, 7000, 100);
	unit_tx_free(f);

	send_to(any, UNIT_A_IP, 7000, 1472);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 1);
	assert_datagram(f->tx.pkts[UNIT_P0][0], &unit_a_mac, &unit_p0_mac,
			UNIT_P0_IP, 6000, UNIT_A_IP, 7000, 1472);
	unit_tx_free(f);

	send_to(p0, UNIT_FAR_IP, 53, 0);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 1);
	assert_datagram(f->tx.pkts[UNIT_P1][0], &unit_b_mac, &unit_p1_mac,
			UNIT_P0_IP, 6001, UNIT_FAR_IP, 53, 0);
	unit_tx_free(f);

	st = unit_stats(f);
	assert_int_equal(st.udp.OutDatagrams, 3);
	assert_int_equal(st.stages[LSK_STAGE_IP4_OUTPUT].packets, 3);
	unit_assert_ip(f, (struct lsk_ip_stats){ 0 });
	unit_close(f, any);
	unit_close(f, p0);
}

/* A UDP checksum that computes to 0 is sent as 0xffff (RFC 768: 0 says
 * there is none). The 2-byte payload is chosen to make it so. */
static void
test_checksum_zero_sent_as_ffff(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = sender(f, 0, 6000);
	struct lsk_udp_msg m = { .dst_addr = UNIT_B_IP, .dst_port = 7000,
				 .len = 2, .payload = payload };
	uint8_t hdr[12 + 8] = { 0 };
	const uint8_t *udp;
	uint16_t s;

	/* pseudo header and UDP header, checksum and data 0 */
	put32(hdr, UNIT_P1_IP);
	put32(hdr + 4, UNIT_B_IP);
	hdr[9] = IPPROTO_UDP;
	put16(hdr + 10, 10);
	put16(hdr + 12, 6000);
	put16(hdr + 14, 7000);
	put16(hdr + 16, 10);
	s = fold(sum16(hdr, sizeof(hdr), 0));
	assert_true(s != 0xffff);
	/* the data word making the sum 0xffff, so ~sum is 0 */
	put16(payload, (uint16_t)(0xffff - s));
	assert_int_equal(lsk_udp_send_burst(ep, &m, 1), 1);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	udp = rte_pktmbuf_mtod_offset(f->tx.pkts[UNIT_P1][0], const uint8_t *,
				      UNIT_ETH_LEN + 20);
	assert_int_equal(get16(udp + 6), 0xffff);
	assert_true(unit_udp_csum_ok(f->tx.pkts[UNIT_P1][0]));
	unit_tx_free(f);
	unit_close(f, ep);
}

/* Nowhere to go: no route is OutNoRoutes, a blackhole OutDiscards;
 * nothing leaves, every mbuf is freed. */
static void
test_drops(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = sender(f, 0, 6000);

	unit_cmd(f, "route add 192.168.0.0/16 blackhole");
	send_to(ep, UNIT_IPV4(172, 16, 0, 1), 7000, 10);
	send_to(ep, UNIT_IPV4(192, 168, 3, 4), 7000, 10);
	send_to(ep, UNIT_B_IP, 7000, 10);	/* goes */
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 1);
	assert_datagram(f->tx.pkts[UNIT_P1][0], &unit_b_mac, &unit_p1_mac,
			UNIT_P1_IP, 6000, UNIT_B_IP, 7000, 10);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .OutNoRoutes = 1,
		.OutDiscards = 1 });
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 3);
	assert_int_equal(unit_stats(f).icmp.OutMsgs, 0);
	unit_close(f, ep);
}

/*
 * Larger than the egress MTU (port 1 at 1000, port 0 at 1500 lets the
 * endpoint build it): the datagram leaves in fragments of at most 1000
 * bytes of IP, 8-byte aligned offsets, MF on all but the last, DF clear,
 * one IP id, and the payload whole in order with the UDP checksum over
 * the datagram; one that fits keeps DF. FragOKs 1, FragCreates 2.
 */
static void
test_fragmented_send(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = sender(f, 0, 6000);
	uint8_t whole[8 + 1400];	/* UDP header and payload */
	uint32_t off = 0, k;
	uint16_t id = 0;

	unit_cmd(f, "port 1 mtu 1000");
	send_to(ep, UNIT_B_IP, 7000, 1400);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 2);
	for (k = 0; k < 2; k++) {
		struct rte_mbuf *m = f->tx.pkts[UNIT_P1][k];
		uint8_t buf[1600];
		const uint8_t *b = rte_pktmbuf_read(m, 0,
					rte_pktmbuf_pkt_len(m), buf);
		const uint8_t *ip = IP(b);
		uint16_t tot = get16(ip + 2), frag = get16(ip + 6);

		assert_non_null(b);
		assert_int_equal(rte_pktmbuf_pkt_len(m), UNIT_ETH_LEN + tot);
		assert_memory_equal(b, &unit_b_mac, RTE_ETHER_ADDR_LEN);
		assert_memory_equal(b + 6, &unit_p1_mac, RTE_ETHER_ADDR_LEN);
		assert_true(tot <= 1000);
		assert_int_equal(unit_ip4_hdr_sum(ip), 0);
		assert_int_equal(frag & 0x4000, 0);		/* DF */
		assert_int_equal((frag & 0x1fff) * 8, off);
		assert_int_equal(!!(frag & 0x2000), k == 0);	/* MF */
		if (k == 0)
			id = get16(ip + 4);
		assert_int_equal(get16(ip + 4), id);
		assert_int_equal(get32(ip + 12), UNIT_P1_IP);
		assert_true(off + tot - 20 <= sizeof(whole));
		if (k == 0)
			assert_int_equal((tot - 20) % 8, 0);
		memcpy(whole + off, ip + 20, tot - 20u);
		off += tot - 20u;
	}
	assert_int_equal(off, sizeof(whole));
	assert_int_equal(get16(whole + 4), 8 + 1400);
	assert_memory_equal(whole + 8, payload, 1400);
	unit_tx_free(f);
	unit_assert_ip(f, (struct lsk_ip_stats){ .FragOKs = 1,
						 .FragCreates = 2 });

	send_to(ep, UNIT_B_IP, 7000, 1000 - 28);	/* fits: DF */
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 1);
	assert_datagram(f->tx.pkts[UNIT_P1][0], &unit_b_mac, &unit_p1_mac,
			UNIT_P1_IP, 6000, UNIT_B_IP, 7000, 1000 - 28);
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 2);
	unit_close(f, ep);
}

/* A next hop with no MAC: ARP asks once, the datagrams wait and leave to
 * the MAC the reply brings, in order. */
static void
test_unresolved_next_hop(void **state)
{
	static const struct rte_ether_addr mac7 = {
		.addr_bytes = { 0x02, 0, 0, 0, 0x01, 0x07 } };
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = sender(f, 0, 6000);
	uint32_t ip7 = UNIT_IPV4(10, 0, 1, 7);
	unsigned int i;

	send_to(ep, ip7, 7000, 64);
	send_to(ep, ip7, 7000, 64);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(unit_tx_arp_requests(f, UNIT_P1, ip7), 1);
	unit_tx_free(f);
	unit_input_one(f, unit_arp_mbuf(UNIT_P1, 2, &unit_p1_mac, &mac7, ip7,
					&unit_p1_mac, UNIT_P1_IP));
	assert_int_equal(f->tx.n[UNIT_P1], 2);
	for (i = 0; i < 2; i++)
		assert_datagram(f->tx.pkts[UNIT_P1][i], &mac7, &unit_p1_mac,
				UNIT_P1_IP, 6000, ip7, 7000, 64);
	unit_tx_free(f);
	unit_close(f, ep);
}

/*
 * A send to one of our addresses loops back into local delivery from
 * that address; the stack's counters see it received and delivered
 * (InReceives = InDelivers, as Linux's loopback counts). A send to our
 * subnet broadcast is delivered locally only (docs/configuration.md's known gap), from
 * our address on that subnet.
 */
static void
test_loopback(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *tx = sender(f, 0, 6000);
	struct lsk_udp_ep *rx = unit_bind(f, 0, 7000, NULL);
	struct lsk_udp_msg got;
	struct lsk_stats st;

	send_to(tx, UNIT_P0_IP, 7000, 300);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(lsk_udp_recv_burst(rx, &got, 1), 1);
	assert_int_equal(got.src_addr, UNIT_P0_IP);
	assert_int_equal(got.dst_addr, UNIT_P0_IP);
	assert_int_equal(got.src_port, 6000);
	assert_int_equal(got.len, 300);
	assert_memory_equal(got.payload, payload, 300);
	assert_true(unit_udp_csum_ok(got.mbuf));
	rte_pktmbuf_free(got.mbuf);

	send_to(tx, UNIT_IPV4(10, 0, 1, 255), 7000, 30);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(lsk_udp_recv_burst(rx, &got, 1), 1);
	assert_int_equal(got.dst_addr, UNIT_IPV4(10, 0, 1, 255));
	/* from the address of that subnet, never from the broadcast */
	assert_int_equal(got.src_addr, UNIT_P1_IP);
	assert_true(unit_udp_csum_ok(got.mbuf));
	rte_pktmbuf_free(got.mbuf);
	/* the limited broadcast from one of our addresses */
	send_to(tx, UINT32_MAX, 7000, 30);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(lsk_udp_recv_burst(rx, &got, 1), 1);
	assert_int_equal(got.dst_addr, UINT32_MAX);
	assert_true(got.src_addr == UNIT_P0_IP || got.src_addr == UNIT_P1_IP);
	assert_true(unit_udp_csum_ok(got.mbuf));
	rte_pktmbuf_free(got.mbuf);

	st = unit_stats(f);
	assert_int_equal(st.udp.OutDatagrams, 3);
	assert_int_equal(st.udp.InDatagrams, 3);
	assert_int_equal(st.ip.InDelivers, 3);
	assert_int_equal(st.ip.InReceives, 3);
	unit_assert_ip_balance(&st);
	unit_close(f, rx);
	unit_close(f, tx);
}

/* A send to ourselves that nobody listens for: NoPorts; the port
 * unreachable it makes, to ourselves, is OutDiscards (nothing reads ICMP
 * here) and is not counted sent. */
static void
test_loopback_no_listener(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *tx = sender(f, 0, 6000);
	struct lsk_stats st;

	send_to(tx, UNIT_P1_IP, 7999, 10);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(f->worker->icmp_out.n, 0);
	st = unit_stats(f);
	assert_int_equal(st.udp.NoPorts, 1);
	assert_int_equal(st.ip.OutDiscards, 1);
	assert_int_equal(st.icmp.OutMsgs, 0);
	assert_int_equal(st.icmp.OutDestUnreachs, 0);
	unit_close(f, tx);
}

/* More datagrams than a burst queued before one flush: all leave at that
 * flush (listack/udp.h: "at its next lsk_worker_flush"), in order. */
static void
test_more_than_a_burst(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = sender(f, 0, 6000);
	const unsigned int n = LSK_BURST_MAX + 44;
	unsigned int i;
	uint16_t id0;

	for (i = 0; i < n; i++)
		send_to(ep, UNIT_B_IP, 7000, 20);
	lsk_worker_flush(f->worker);
	assert_int_equal(rte_ring_count(f->stack->sh.out_ring), 0);
	assert_int_equal(f->tx.n[UNIT_P1], n);
	id0 = rte_be_to_cpu_16(unit_ip4(f->tx.pkts[UNIT_P1][0])->packet_id);
	for (i = 0; i < n; i++)
		assert_int_equal(rte_be_to_cpu_16(unit_ip4(
			f->tx.pkts[UNIT_P1][i])->packet_id),
			(uint16_t)(id0 + i));
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).udp.OutDatagrams, n);
	unit_close(f, ep);
}

/*
 * ICMP errors leave by the same routes: to a source with no route back
 * nothing is sent nor counted (Linux's icmp_send gives up at its route
 * lookup); to a source ARP must find, it waits, counted once on its way.
 */
static void
test_icmp_routes(void **state)
{
	static const struct rte_ether_addr mac7 = {
		.addr_bytes = { 0x02, 0, 0, 0, 0x00, 0x07 } };
	struct unit_fixture *f = *state;
	uint32_t ip7 = UNIT_IPV4(10, 0, 0, 7);
	struct unit_pkt p;
	struct lsk_stats st;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.src = UNIT_IPV4(172, 16, 0, 1);
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_count(f), 0);
	st = unit_stats(f);
	assert_int_equal(st.udp.NoPorts, 1);
	assert_int_equal(st.icmp.OutMsgs, 0);
	assert_int_equal(st.icmp.OutDestUnreachs, 0);
	assert_int_equal(st.ip.OutNoRoutes, 0);

	unit_pkt_init(&p, UNIT_P0_IP);
	p.src = ip7;
	p.src_mac = mac7;
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(unit_tx_arp_requests(f, UNIT_P0, ip7), 1);
	unit_tx_free(f);
	st = unit_stats(f);
	assert_int_equal(st.icmp.OutMsgs, 1);
	assert_int_equal(st.icmp.OutDestUnreachs, 1);
	unit_input_one(f, unit_arp_mbuf(UNIT_P0, 2, &unit_p0_mac, &mac7, ip7,
					&unit_p0_mac, UNIT_P0_IP));
	assert_int_equal(unit_tx_count(f), 1);
	assert_int_equal(unit_tx_icmp_about(f, UNIT_P0, 3, 3, UNIT_P0_IP), 1);
	assert_memory_equal(rte_pktmbuf_mtod(f->tx.pkts[UNIT_P0][0], void *),
			    &mac7, RTE_ETHER_ADDR_LEN);
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).icmp.OutMsgs, 1);
}

/* lsk_ip4_output called alone takes what the output ring holds, counts
 * it sent (OutDatagrams) and leaves it in the TX buffers. */
static void
test_stage_direct(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = sender(f, 0, 6000);

	lsk_ip4_output(f->worker);		/* nothing queued */
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 0);
	send_to(ep, UNIT_B_IP, 7000, 8);
	send_to(ep, UNIT_A_IP, 7000, 8);
	unit_worker_sync(f);
	lsk_ip4_output(f->worker);
	assert_int_equal(rte_ring_count(f->stack->sh.out_ring), 0);
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 2);
	assert_int_equal(unit_tx_count(f), 0);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	unit_tx_free(f);
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
		T(test_routes_and_sources),
		TS(test_routes_and_sources),
		T(test_checksum_zero_sent_as_ffff),
		T(test_drops),
		TS(test_drops),
		T(test_fragmented_send),
		TS(test_fragmented_send),
		T(test_unresolved_next_hop),
		T(test_loopback),
		TS(test_loopback),
		T(test_loopback_no_listener),
		T(test_more_than_a_burst),
		T(test_icmp_routes),
		TS(test_icmp_routes),
		T(test_stage_direct),
	};

	return cmocka_run_group_tests_name("ip4_output", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
