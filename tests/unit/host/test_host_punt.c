/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Punt classification (host/host_punt.c and the stages that call it):
 * on an interface with a host-if, what is addressed to the router and
 * that no stage consumes goes to the worker's punt ring as it came (TCP,
 * other protocols, OSPF to 224.0.0.5, UDP with no endpoint, ICMP but echo
 * requests); what listack consumes (echo requests, UDP to an endpoint,
 * forwarded traffic) never does; a port without one behaves as with no
 * host path. The rate and the ring are bounds, counted in host.Drops.
 * Inject (host/host_inject.c): ARP from the kernel dropped, unicast
 * routed and resolved by listack, multicast out of the TAP's port.
 * The host path here is rings of the test's own, no TAP and no thread,
 * so every punted frame stays where the test can read it.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_ring.h>

#include "unit_common.h"
#include "core/shared.h"
#include "host/host.h"
#include "host/host_fix.h"
#include "cli/cli.h"

/* A host path with a TAP on port 0 only (rate pps, punt ring of
 * ring_size slots). */
static struct hfix *
hfix_make(uint32_t pps, unsigned int ring_size)
{
	struct unit_fixture *f = unit_fixture_create(LSK_MODE_LIST);

	assert_non_null(f);
	return hfix_attach(f, unit_worker_sync, pps, ring_size, "t");
}

/* Take the punted frames off the ring; the first's IP protocol. */
static int
punted_free(struct hfix *h)
{
	struct rte_mbuf *m;
	int proto = -1;

	while (rte_ring_sc_dequeue(h->host.punt[0], (void **)&m) == 0) {
		if (proto < 0)
			proto = unit_ip4(m)->next_proto_id;
		rte_pktmbuf_free(m);
	}
	return proto;
}

static void
hfix_free(struct hfix *h)
{
	punted_free(h);
	hfix_detach(h);
}

static struct lsk_stats
stats(struct hfix *h)
{
	struct lsk_stats st;

	lsk_stats_read(h->f->stack, &st);
	return st;
}

/* A frame of proto to the router's port 0 address from A. */
static struct rte_mbuf *
to_router(uint8_t proto, uint16_t dport)
{
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.proto = proto;
	p.dport = dport;
	return unit_pkt_mbuf(&p);
}

static void
test_tcp_and_other_protocols(void **state)
{
	struct hfix *h = hfix_make(10000, 256);
	struct lsk_stats st;

	(void)state;
	unit_input_one(h->f, to_router(IPPROTO_TCP, 22));	/* a SYN's */
	assert_int_equal(punted(h), 1);
	assert_int_equal(punted_free(h), IPPROTO_TCP);
	unit_input_one(h->f, to_router(47, 0));		/* GRE */
	assert_int_equal(punted_free(h), 47);
	st = stats(h);
	assert_int_equal(st.ip.InUnknownProtos, 0);
	assert_int_equal(st.ip.InDelivers, 2);
	assert_int_equal(st.icmp.OutDestUnreachs, 0);	/* no ICMP owed */
	assert_int_equal(h->f->tx.n[UNIT_P0], 0);
	hfix_free(h);
}

static void
test_udp_endpoint_or_kernel(void **state)
{
	struct hfix *h = hfix_make(10000, 256);
	struct lsk_udp_ep *ep = unit_bind(h->f, UNIT_P0_IP, 2000, NULL);
	struct lsk_stats st;

	(void)state;
	unit_input_one(h->f, to_router(IPPROTO_UDP, 2000));
	assert_int_equal(punted(h), 0);
	assert_int_equal(unit_recv_free(ep, 8), 1);
	unit_input_one(h->f, to_router(IPPROTO_UDP, 2001));	/* none */
	assert_int_equal(punted_free(h), IPPROTO_UDP);
	st = stats(h);
	assert_int_equal(st.udp.NoPorts, 0);
	assert_int_equal(st.icmp.OutDestUnreachs, 0);
	unit_close(h->f, ep);
	hfix_free(h);
}

static struct rte_mbuf *
icmp_to_router(uint8_t type, uint8_t code, uint32_t rest)
{
	uint8_t buf[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 56;
	len = unit_icmp_build(&p, type, code, rest, buf, sizeof(buf));
	return unit_mbuf_from_bytes(buf, len, UNIT_P0);
}

static void
test_icmp(void **state)
{
	struct hfix *h = hfix_make(10000, 256);

	(void)state;
	/* an echo request: listack's, answered once */
	unit_input_one(h->f, icmp_to_router(8, 0, 0x12340001));
	assert_int_equal(punted(h), 0);
	assert_int_equal(h->f->tx.n[UNIT_P0], 1);
	/* a reply no ping of ours waits for, an error: the kernel's */
	unit_input_one(h->f, icmp_to_router(0, 0, 0x43210001));
	assert_int_equal(punted_free(h), IPPROTO_ICMP);
	unit_input_one(h->f, icmp_to_router(3, 3, 0));
	assert_int_equal(punted_free(h), IPPROTO_ICMP);
	unit_input_one(h->f, icmp_to_router(11, 0, 0));
	assert_int_equal(punted_free(h), IPPROTO_ICMP);
	assert_int_equal(h->f->tx.n[UNIT_P0], 1);
	hfix_free(h);
}

/* OSPF hello to 224.0.0.5, its group's MAC, on port p. */
static struct rte_mbuf *
ospf_hello(uint16_t port)
{
	static const struct rte_ether_addr ospf_mac = {
		.addr_bytes = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x05 } };
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_IPV4(224, 0, 0, 5));
	p.port = port;
	p.dst_mac = ospf_mac;
	p.proto = 89;
	p.ttl = 1;
	if (port == UNIT_P1) {
		p.src = UNIT_B_IP;
		p.src_mac = unit_b_mac;
	}
	return unit_pkt_mbuf(&p);
}

static void
test_ospf_multicast(void **state)
{
	struct hfix *h = hfix_make(10000, 256);
	struct lsk_stats st;

	(void)state;
	unit_input_one(h->f, ospf_hello(UNIT_P0));
	assert_int_equal(punted_free(h), 89);
	/* port 1 has no host-if: not for us, as before */
	unit_input_one(h->f, ospf_hello(UNIT_P1));
	assert_int_equal(punted(h), 0);
	st = stats(h);
	assert_int_equal(st.eth.NotForUs, 1);
	hfix_free(h);
}

static void
test_forwarded_never_punted(void **state)
{
	struct hfix *h = hfix_make(10000, 256);
	struct unit_pkt p;

	(void)state;
	unit_pkt_init(&p, UNIT_B_IP);
	p.proto = IPPROTO_TCP;
	unit_input_pkt(h->f, &p);
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(h->f, &p);
	assert_int_equal(punted(h), 0);
	assert_int_equal(h->f->tx.n[UNIT_P1], 2);
	assert_int_equal(stats(h).ip.ForwDatagrams, 2);
	hfix_free(h);
}

/* Port 1 has no host-if: TCP to its address is answered protocol
 * unreachable, UDP port unreachable, as with no host path. */
static void
test_port_without_host_if(void **state)
{
	struct hfix *h = hfix_make(10000, 256);
	struct unit_pkt p;
	struct lsk_stats st;

	(void)state;
	unit_pkt_init(&p, UNIT_P1_IP);
	p.port = UNIT_P1;
	p.src = UNIT_B_IP;
	p.src_mac = unit_b_mac;
	p.dst_mac = unit_p1_mac;
	p.proto = IPPROTO_TCP;
	unit_input_pkt(h->f, &p);
	p.proto = IPPROTO_UDP;
	p.dport = 2001;
	unit_input_pkt(h->f, &p);
	assert_int_equal(punted(h), 0);
	st = stats(h);
	assert_int_equal(st.ip.InUnknownProtos, 1);
	assert_int_equal(st.udp.NoPorts, 1);
	assert_int_equal(st.icmp.OutDestUnreachs, 2);
	assert_int_equal(h->f->tx.n[UNIT_P1], 2);
	hfix_free(h);
}

/* A VLAN's TAP (NAME.V) gets its frames untagged, as its interface's;
 * the port's own TAP none of them. */
static void
test_vlan(void **state)
{
	struct hfix *h = hfix_make(10000, 256);
	struct unit_pkt p;
	struct rte_mbuf *m = NULL;
	int vif;

	(void)state;
	unit_cmd(h->f, "address add 10.7.0.1/24 port 0 vlan 7");
	vif = lsk_iface_find(h->f->stack, 0, 7);
	assert_true(vif > 0);
	lsk_worker_offline(h->f->worker);
	h->t->ifaces = UINT64_C(1) << vif;	/* the VLAN's TAP only */
	h->t->rate[vif] = 10000;
	h->t->burst[vif] = 8;
	unit_worker_sync(h->f);
	unit_pkt_init(&p, UNIT_IPV4(10, 7, 0, 1));
	p.src = UNIT_IPV4(10, 7, 0, 2);
	p.proto = IPPROTO_TCP;
	unit_input_one(h->f, unit_pkt_mbuf_tagged(&p, 7));
	assert_int_equal(punted(h), 1);
	assert_int_equal(rte_ring_sc_dequeue(h->host.punt[0], (void **)&m),
			 0);
	assert_int_equal(m->port, vif);
	assert_int_equal(rte_pktmbuf_mtod_offset(m, struct rte_ether_hdr *,
						 0)->ether_type,
			 RTE_BE16(RTE_ETHER_TYPE_IPV4));
	assert_int_equal(unit_ip4(m)->next_proto_id, IPPROTO_TCP);
	rte_pktmbuf_free(m);
	/* untagged, to the port's address: no TAP there now */
	unit_input_one(h->f, to_router(IPPROTO_TCP, 22));
	assert_int_equal(punted(h), 0);
	assert_int_equal(stats(h).ip.InUnknownProtos, 1);
	hfix_free(h);
}

/* A SYN flood: the bucket's burst (8) goes through, the rest is
 * host.Drops (DropsRate); and a ring full is host.Drops too
 * (DropsRing). */
static void
test_rate_and_ring_bounds(void **state)
{
	struct rte_mbuf *pkts[40];
	struct hfix *h = hfix_make(1, 256);
	unsigned int i;

	(void)state;
	for (i = 0; i < 40; i++)
		pkts[i] = to_router(IPPROTO_TCP, 80);
	unit_input(h->f, pkts, 40);
	assert_int_equal(punted(h), 8);
	assert_int_equal(stats(h).host.Drops, 32);
	assert_int_equal(stats(h).host.DropsRate, 32);
	assert_int_equal(stats(h).host.DropsRing, 0);
	hfix_free(h);

	h = hfix_make(LSK_HOST_RATE_MAX, 16);	/* 15 slots */
	h->t->burst[0] = 1000;
	for (i = 0; i < 40; i++)
		pkts[i] = to_router(IPPROTO_TCP, 80);
	unit_input(h->f, pkts, 40);
	assert_int_equal(punted(h), 15);
	assert_int_equal(stats(h).host.Drops, 25);
	assert_int_equal(stats(h).host.DropsRing, 25);
	assert_int_equal(stats(h).host.DropsRate, 0);
	hfix_free(h);
}

/* What the kernel sends: ARP dropped, unicast routed and resolved by
 * listack (B's static MAC, out of port 1), multicast out of the TAP's
 * port with the group's MAC. */
static void
test_inject(void **state)
{
	static const uint8_t ospf_mac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00,
					     0x05 };
	struct hfix *h = hfix_make(10000, 256);
	struct rte_mbuf *m, *sent;
	struct unit_pkt p;
	struct lsk_stats st;

	(void)state;
	unit_cmd(h->f, "trace add 10");
	m = unit_arp_mbuf(UNIT_P0, 1, &unit_bcast_mac, &unit_p0_mac,
			  UNIT_P0_IP, NULL, UNIT_A_IP);
	assert_int_equal(rte_ring_enqueue(h->host.inject, m), 0);
	unit_pkt_init(&p, UNIT_B_IP);		/* the kernel's TCP to B */
	p.src = UNIT_P0_IP;
	p.proto = IPPROTO_TCP;
	p.dst_mac = unit_p0_mac;		/* IFF_NOARP: its own */
	p.src_mac = unit_p0_mac;
	m = unit_pkt_mbuf(&p);
	assert_int_equal(rte_ring_enqueue(h->host.inject, m), 0);
	unit_pkt_init(&p, UNIT_IPV4(224, 0, 0, 5));	/* its OSPF hello */
	p.src = UNIT_P0_IP;
	p.proto = 89;
	m = unit_pkt_mbuf(&p);
	assert_int_equal(rte_ring_enqueue(h->host.inject, m), 0);
	unit_input(h->f, NULL, 0);		/* a flush */
	st = stats(h);
	assert_int_equal(st.host.FromKernel, 2);
	assert_int_equal(st.host.Drops, 1);
	assert_int_equal(st.host.DropsArp, 1);
	assert_int_equal(h->f->tx.n[UNIT_P1], 1);
	sent = h->f->tx.pkts[UNIT_P1][0];
	assert_memory_equal(rte_pktmbuf_mtod(sent, uint8_t *),
			    unit_b_mac.addr_bytes, 6);
	assert_int_equal(h->f->tx.n[UNIT_P0], 1);
	sent = h->f->tx.pkts[UNIT_P0][0];
	assert_memory_equal(rte_pktmbuf_mtod(sent, uint8_t *), ospf_mac, 6);
	assert_memory_equal(rte_pktmbuf_mtod(sent, uint8_t *) + 6,
			    unit_p0_mac.addr_bytes, 6);
	/* traced as received on the TAP's interface: the ARP's drop, the
	 * unicast's way out */
	{
		struct lsk_out o;

		lsk_out_init(&o, false);
		assert_int_equal(lsk_command_run(h->f->stack, "trace show", 10,
						 "t", &o), 0);
		assert_non_null(strstr(o.buf, "3 claimed, 3 ended"));
		assert_non_null(strstr(o.buf, "drop         host.Drops"));
		assert_non_null(strstr(o.buf, "tx           port 1"));
		lsk_out_free(&o);
	}
	hfix_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp_and_other_protocols),
		cmocka_unit_test(test_udp_endpoint_or_kernel),
		cmocka_unit_test(test_icmp),
		cmocka_unit_test(test_ospf_multicast),
		cmocka_unit_test(test_forwarded_never_punted),
		cmocka_unit_test(test_port_without_host_if),
		cmocka_unit_test(test_vlan),
		cmocka_unit_test(test_rate_and_ring_bounds),
		cmocka_unit_test(test_inject),
	};

	return cmocka_run_group_tests_name("host_punt", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
