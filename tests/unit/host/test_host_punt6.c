/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path's decisions for IPv6 (host/host_punt.c, host_inject.c
 * and the stages that call them): on an interface with a host-if, what
 * is addressed to the router and that no stage consumes goes to the
 * worker's punt ring as it came (TCP and other next headers, UDP with no
 * endpoint, a GRO train of it each datagram as it came, ICMPv6 but echo
 * requests and neighbour discovery, OSPFv3 to ff02::5); what listack
 * consumes (echo requests, ND, UDP to an endpoint, forwarded traffic)
 * never does; an interface without one behaves as with no host path.
 * What the kernel sends leaves through ip6_output (routed, resolved by
 * listack's ND; its multicast out of the TAP's interface), its own ND
 * dropped (host.DropsNd), behind extension headers too.
 * As test_host_punt.c: rings of the test's own, no TAP and no thread.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_ring.h>

#include "unit_common.h"
#include "ip6/unit6.h"
#include "core/shared.h"
#include "host/host.h"
#include "host/host_fix.h"
#include "ip6/nd6.h"

/* A host path with a TAP on port 0 only, IPv6 configured (unit6.h). */
static struct hfix *
hfix_make(void)
{
	struct unit_fixture *f = unit_fixture_create(LSK_MODE_LIST);

	assert_non_null(f);
	unit6_configure(f);
	return hfix_attach(f, unit6_sync, 10000, 256, "t6");
}

/* Take the punted frames off the ring; the first's IPv6 next header
 * (-1: none punted). */
static int
punted_free(struct hfix *h)
{
	struct rte_mbuf *m;
	int nh = -1;

	while (rte_ring_sc_dequeue(h->host.punt[0], (void **)&m) == 0) {
		if (nh < 0) {
			assert_int_equal(m->port, UNIT_P0);
			nh = rte_pktmbuf_mtod(m, const uint8_t *)[
				UNIT_ETH_LEN + 6];
		}
		rte_pktmbuf_free(m);
	}
	return nh;
}

static void
hfix_free(struct hfix *h)
{
	punted_free(h);
	hfix_detach(h);
}

/* A datagram of next header proto to P0's address from A. */
static struct rte_mbuf *
to_router6(uint8_t proto, uint16_t dport)
{
	struct unit6_pkt p;

	unit6_pkt_init(&p, UNIT6_P0);
	p.proto = proto;
	p.dport = dport;
	return unit6_pkt_mbuf(&p);
}

static struct rte_mbuf *
icmp6_to_router(uint8_t type, uint8_t code)
{
	struct unit6_pkt p;

	unit6_pkt_init(&p, UNIT6_P0);
	unit6_pkt_icmp(&p, type, code, 0x12340001);
	return unit6_pkt_mbuf(&p);
}

/* A's neighbour solicitation for P0's address, to that address. */
static struct rte_mbuf *
ns_to_router(void)
{
	const struct lsk_ip6_addr p0 = UNIT6_P0;
	uint8_t frame[UNIT_FRAME_MAX], *ip = frame + UNIT_ETH_LEN;
	uint8_t *x = ip + 40;
	struct unit6_pkt p;
	uint32_t sum;
	size_t n;

	unit6_pkt_init(&p, p0);
	unit6_pkt_icmp(&p, LSK_ND_NEIGHBOR_SOLICIT, 0, 0);
	p.hlim = 255;
	p.payload_len = 16;		/* the target */
	n = unit6_pkt_build(&p, frame, sizeof(frame));
	memcpy(x + 8, &p0, 16);
	put16(x + 2, 0);
	sum = unit6_sum(ip + 8, 32, 0) + 24 + 58;
	sum = unit6_sum(x, 24, sum);
	put16(x + 2, (uint16_t)~fold(sum));
	return unit_mbuf_from_bytes(frame, n, UNIT_P0);
}

static void
test_tcp6_and_other_next_headers(void **state)
{
	struct hfix *h = hfix_make();
	struct lsk_stats st;

	(void)state;
	unit_input_one(h->f, to_router6(IPPROTO_TCP, 0));
	assert_int_equal(punted(h), 1);
	assert_int_equal(punted_free(h), IPPROTO_TCP);
	unit_input_one(h->f, to_router6(89, 0));	/* OSPFv3, unicast */
	assert_int_equal(punted_free(h), 89);
	st = unit_stats(h->f);
	assert_int_equal(st.ip6.InUnknownProtos, 0);
	assert_int_equal(st.ip6.InDelivers, 2);
	assert_int_equal(st.icmp6.OutParmProblems, 0);	/* no error owed */
	assert_int_equal(h->f->tx.n[UNIT_P0], 0);
	hfix_free(h);
}

static void
test_udp6_endpoint_or_kernel(void **state)
{
	struct hfix *h = hfix_make();
	struct lsk_udp_addr addr = { .family = AF_INET6, .v6 = UNIT6_P0 };
	struct lsk_udp_ep *ep = NULL;
	struct lsk_stats st;

	(void)state;
	lsk_worker_offline(h->f->worker);
	assert_int_equal(lsk_udp_bind_addr(h->f->stack, &addr, 2000, NULL,
					   &ep), 0);
	unit6_sync(h->f);
	unit_input_one(h->f, to_router6(IPPROTO_UDP, 2000));
	assert_int_equal(punted(h), 0);
	assert_int_equal(unit_recv_free(ep, 8), 1);
	unit_input_one(h->f, to_router6(IPPROTO_UDP, 2001));	/* none */
	assert_int_equal(punted_free(h), IPPROTO_UDP);
	st = unit_stats(h->f);
	assert_int_equal(st.udp6.NoPorts, 0);
	assert_int_equal(st.icmp6.OutDestUnreachs, 0);
	assert_int_equal(h->f->tx.n[UNIT_P0], 0);
	unit_close(h->f, ep);
	hfix_free(h);
}

/* A train (gro fraglist, udp6_gro.c) to a port no endpoint takes: each
 * datagram to the kernel as it came, as a datagram alone and as IPv4's
 * (udp/udp4_input.c); none counted NoPorts nor answered. */
static void
test_udp6_train_to_kernel(void **state)
{
	struct hfix *h = hfix_make();
	struct rte_mbuf *m[4];
	struct lsk_stats st;
	unsigned int i;

	(void)state;
	unit_cmd(h->f, "gro fraglist flows 64 segs 64");
	lsk_worker_offline(h->f->worker);
	unit6_sync(h->f);
	for (i = 0; i < 4; i++)
		m[i] = to_router6(IPPROTO_UDP, 2001);
	unit_input(h->f, m, 4);
	st = unit_stats(h->f);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(punted(h), 4);
	for (i = 0; i < 4; i++) {
		struct rte_mbuf *d = NULL;

		assert_int_equal(rte_ring_sc_dequeue(h->host.punt[0],
						     (void **)&d), 0);
		/* as it came: its own IPv6 and UDP headers, one datagram */
		assert_int_equal(d->pkt_len, UNIT_ETH_LEN + 40 + 8 + 100);
		assert_int_equal(rte_pktmbuf_mtod(d, const uint8_t *)[
				 UNIT_ETH_LEN + 6], IPPROTO_UDP);
		rte_pktmbuf_free(d);
	}
	assert_int_equal(st.udp6.NoPorts, 0);
	assert_int_equal(st.icmp6.OutDestUnreachs, 0);
	assert_int_equal(h->f->tx.n[UNIT_P0], 0);
	hfix_free(h);
}

static void
test_icmp6(void **state)
{
	struct hfix *h = hfix_make();

	(void)state;
	/* an echo request: listack's, answered once */
	unit_input_one(h->f, icmp6_to_router(LSK_ICMP6_ECHO_REQUEST, 0));
	assert_int_equal(punted(h), 0);
	assert_int_equal(h->f->tx.n[UNIT_P0], 1);
	/* a reply no ping of ours waits for, errors: the kernel's */
	unit_input_one(h->f, icmp6_to_router(LSK_ICMP6_ECHO_REPLY, 0));
	assert_int_equal(punted_free(h), 58);
	unit_input_one(h->f, icmp6_to_router(LSK_ICMP6_DST_UNREACH,
					     LSK_ICMP6_PORT_UNREACH));
	assert_int_equal(punted_free(h), 58);
	unit_input_one(h->f, icmp6_to_router(LSK_ICMP6_TIME_EXCEEDED, 0));
	assert_int_equal(punted_free(h), 58);
	assert_int_equal(h->f->tx.n[UNIT_P0], 1);
	unit_tx_free(h->f);
	/* neighbour discovery: listack's own, answered once, never the
	 * kernel's */
	unit_input_one(h->f, ns_to_router());
	assert_int_equal(punted(h), 0);
	assert_int_equal(unit_stats(h->f).icmp6.InNeighborSolicits, 1);
	assert_true(unit6_tx_icmp(h->f, UNIT_P0, LSK_ND_NEIGHBOR_ADVERT, 0));
	hfix_free(h);
}

/* OSPFv3 hello to ff02::5 with its group's MAC, on port. */
static struct rte_mbuf *
ospf6_hello(uint16_t port)
{
	static const struct rte_ether_addr ospf6_mac = {
		.addr_bytes = { 0x33, 0x33, 0x00, 0x00, 0x00, 0x05 } };
	struct unit6_pkt p;

	unit6_pkt_init(&p, UNIT6(0xff, 0x02, [15] = 5));
	p.port = port;
	p.dst_mac = ospf6_mac;
	p.src = UNIT6_A_LL;
	p.proto = 89;
	p.hlim = 1;
	if (port == UNIT_P1)
		p.src_mac = unit_b_mac;
	return unit6_pkt_mbuf(&p);
}

static void
test_ospf6_multicast(void **state)
{
	struct hfix *h = hfix_make();
	struct lsk_stats st;

	(void)state;
	unit_input_one(h->f, ospf6_hello(UNIT_P0));
	assert_int_equal(punted_free(h), 89);
	/* port 1 has no host-if: a group not joined, as before */
	unit_input_one(h->f, ospf6_hello(UNIT_P1));
	assert_int_equal(punted(h), 0);
	st = unit_stats(h->f);
	assert_int_equal(st.ip6.InDiscards, 1);
	assert_int_equal(h->f->tx.n[UNIT_P1], 0);
	hfix_free(h);
}

static void
test_forwarded6_never_punted(void **state)
{
	struct hfix *h = hfix_make();
	struct unit6_pkt p;

	(void)state;
	unit6_pkt_init(&p, UNIT6_B);
	p.proto = IPPROTO_TCP;
	unit_input_one(h->f, unit6_pkt_mbuf(&p));
	unit6_pkt_init(&p, UNIT6_FAR);
	unit_input_one(h->f, unit6_pkt_mbuf(&p));
	assert_int_equal(punted(h), 0);
	assert_int_equal(h->f->tx.n[UNIT_P1], 2);
	assert_int_equal(unit_stats(h->f).ip6.OutForwDatagrams, 2);
	hfix_free(h);
}

/* Port 1 has no host-if: TCP to its address is answered parameter
 * problem (unknown next header), UDP port unreachable, as with no host
 * path. */
static void
test_port6_without_host_if(void **state)
{
	struct hfix *h = hfix_make();
	struct unit6_pkt p;
	struct lsk_stats st;

	(void)state;
	unit6_pkt_init(&p, UNIT6_P1);
	p.port = UNIT_P1;
	p.src = UNIT6_B;
	p.src_mac = unit_b_mac;
	p.dst_mac = unit_p1_mac;
	p.proto = IPPROTO_TCP;
	unit_input_one(h->f, unit6_pkt_mbuf(&p));
	p.proto = IPPROTO_UDP;
	p.dport = 2001;
	unit_input_one(h->f, unit6_pkt_mbuf(&p));
	assert_int_equal(punted(h), 0);
	st = unit_stats(h->f);
	assert_int_equal(st.ip6.InUnknownProtos, 1);
	assert_int_equal(st.udp6.NoPorts, 1);
	assert_int_equal(h->f->tx.n[UNIT_P1], 2);
	assert_true(unit6_tx_icmp(h->f, UNIT_P1, LSK_ICMP6_PARAM_PROB, 1));
	assert_true(unit6_tx_icmp(h->f, UNIT_P1, LSK_ICMP6_DST_UNREACH,
				  LSK_ICMP6_PORT_UNREACH));
	hfix_free(h);
}

/* A frame the kernel sent on port 0's TAP: data at the Ethernet header,
 * its own MAC both ways (IFF_NOARP). */
static void
inject6(struct hfix *h, struct unit6_pkt *p)
{
	p->port = UNIT_P0;
	p->src = UNIT6_P0;
	p->dst_mac = unit_p0_mac;
	p->src_mac = unit_p0_mac;
	assert_int_equal(rte_ring_enqueue(h->host.inject,
					  unit6_pkt_mbuf(p)), 0);
}

/* What the kernel sends: its echo request to B routed and resolved by
 * listack (B's MAC, out of port 1), its OSPFv3 hello out of the TAP's
 * port with the group's MAC, its neighbour solicitation dropped, and a
 * datagram shorter than its payload length. */
static void
test_inject6(void **state)
{
	static const uint8_t ospf6_mac[6] = { 0x33, 0x33, 0x00, 0x00, 0x00,
					      0x05 };
	struct hfix *h = hfix_make();
	struct rte_mbuf *sent;
	struct unit6_pkt p;
	struct lsk_stats st;

	(void)state;
	unit6_pkt_init(&p, UNIT6_B);
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, 0x77770001);
	inject6(h, &p);
	unit6_pkt_init(&p, UNIT6_A);		/* its ND: listack's job */
	unit6_pkt_icmp(&p, LSK_ND_NEIGHBOR_SOLICIT, 0, 0);
	p.hlim = 255;
	inject6(h, &p);
	unit6_pkt_init(&p, UNIT6(0xff, 0x02, [15] = 5));
	p.proto = 89;
	p.hlim = 1;
	inject6(h, &p);
	unit6_pkt_init(&p, UNIT6_B);		/* shorter than it says */
	p.plen_delta = 100;
	inject6(h, &p);
	unit_input(h->f, NULL, 0);		/* a flush */
	st = unit_stats(h->f);
	assert_int_equal(st.host.FromKernel, 2);
	assert_int_equal(st.host.Drops, 2);
	assert_int_equal(st.host.DropsNd, 1);
	assert_int_equal(st.host.DropsNotIp4, 1);
	assert_int_equal(st.ip6.OutRequests, 0);	/* the kernel's */
	assert_int_equal(h->f->tx.n[UNIT_P1], 1);
	sent = h->f->tx.pkts[UNIT_P1][0];
	assert_memory_equal(rte_pktmbuf_mtod(sent, uint8_t *),
			    unit_b_mac.addr_bytes, 6);
	assert_true(unit6_frame_is_icmp(sent, LSK_ICMP6_ECHO_REQUEST));
	assert_int_equal(h->f->tx.n[UNIT_P0], 1);
	sent = h->f->tx.pkts[UNIT_P0][0];
	assert_memory_equal(rte_pktmbuf_mtod(sent, uint8_t *), ospf6_mac, 6);
	assert_memory_equal(rte_pktmbuf_mtod(sent, uint8_t *) + 6,
			    unit_p0_mac.addr_bytes, 6);
	hfix_free(h);
}

/* The kernel's ND behind extension headers (hop-by-hop, destination
 * options: PadN) is ND all the same: dropped under host.DropsNd, never
 * sent; an echo request behind the same headers still goes out. */
static void
inject6_ext(struct hfix *h, struct lsk_ip6_addr dst, uint8_t type,
	    uint8_t ext_nh, unsigned int n_ext)
{
	static const uint8_t padn[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };
	struct unit6_pkt p;
	unsigned int k;

	unit6_pkt_init(&p, dst);
	unit6_pkt_icmp(&p, type, 0, 0x77770001);
	p.hlim = 255;
	for (k = 0; k < n_ext; k++)
		unit6_pkt_ext(&p, ext_nh, padn, sizeof(padn));
	inject6(h, &p);
}

static void
test_inject6_nd_behind_ext(void **state)
{
	struct hfix *h = hfix_make();
	struct lsk_stats st;

	(void)state;
	/* behind a hop-by-hop header, behind two destination options */
	inject6_ext(h, UNIT6_A, LSK_ND_NEIGHBOR_SOLICIT, 0, 1);
	inject6_ext(h, UNIT6_A, LSK_ND_NEIGHBOR_ADVERT, 60, 2);
	inject6_ext(h, UNIT6_B, LSK_ICMP6_ECHO_REQUEST, 60, 1);
	unit_input(h->f, NULL, 0);		/* a flush */
	st = unit_stats(h->f);
	assert_int_equal(st.host.DropsNd, 2);
	assert_int_equal(st.host.Drops, 2);
	assert_int_equal(st.host.FromKernel, 1);
	assert_int_equal(h->f->tx.n[UNIT_P0], 0);
	assert_int_equal(h->f->tx.n[UNIT_P1], 1);
	hfix_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp6_and_other_next_headers),
		cmocka_unit_test(test_udp6_endpoint_or_kernel),
		cmocka_unit_test(test_udp6_train_to_kernel),
		cmocka_unit_test(test_icmp6),
		cmocka_unit_test(test_ospf6_multicast),
		cmocka_unit_test(test_forwarded6_never_punted),
		cmocka_unit_test(test_port6_without_host_if),
		cmocka_unit_test(test_inject6),
		cmocka_unit_test(test_inject6_nd_behind_ext),
	};

	return cmocka_run_group_tests_name("host_punt6", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
