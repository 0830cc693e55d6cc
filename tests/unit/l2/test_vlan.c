/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * VLAN sub-interfaces (vlan.c, eth_input): `address add A/L port N vlan V`
 * makes interface (N, V); its tagged frames are its own, what it sends is
 * tagged with V; tags of other VLANs are counted UnknownVlan.
 */
#include <string.h>

#include "unit_common.h"

#define VLAN 100
#define VLAN_IP UNIT_IPV4(10, 5, 0, 1)
#define VLAN_HOST UNIT_IPV4(10, 5, 0, 2)

static const struct rte_ether_addr host_mac = {
	.addr_bytes = { 0x02, 0, 0, 0, 0x05, 0x02 } };

static void
vlan_setup(struct unit_fixture *f)
{
	unit_cmd(f, "address add 10.5.0.1/24 port 0 vlan 100");
	unit_cmd(f, "neigh add 10.5.0.2 lladdr 02:00:00:00:05:02");
	unit_worker_sync(f);
}

/* From a VLAN host through the router: untagged out of port 1, and the
 * way back leaves port 0 tagged with the VLAN, to the host's MAC. */
static void
test_forward_in_and_out(void **state)
{
	struct unit_fixture *f = *state;
	const uint8_t *b;
	struct unit_pkt p;
	struct rte_mbuf *m;

	vlan_setup(f);
	unit_pkt_init(&p, UNIT_B_IP);
	p.src = VLAN_HOST;
	p.src_mac = host_mac;
	unit_input_one(f, unit_pkt_mbuf_tagged(&p, VLAN));
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	m = f->tx.pkts[UNIT_P1][0];
	assert_int_equal(unit_frame_vid(m), -1);
	assert_int_equal(unit_ip4(m)->time_to_live, 63);
	unit_tx_free(f);

	unit_pkt_init(&p, VLAN_HOST);
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	p.src_mac = unit_b_mac;
	p.src = UNIT_B_IP;
	unit_input_one(f, unit_pkt_mbuf(&p));
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	m = f->tx.pkts[UNIT_P0][0];
	assert_int_equal(unit_frame_vid(m), VLAN);
	b = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_memory_equal(b, &host_mac, 6);
	assert_memory_equal(b + 6, &unit_p0_mac, 6);
	assert_int_equal(b[16] << 8 | b[17], RTE_ETHER_TYPE_IPV4);
	/* the datagram after the tag is the one that came in, TTL-1 */
	assert_int_equal(b[18 + 8], 63);
	assert_int_equal(rte_pktmbuf_pkt_len(m),
			 RTE_ETHER_HDR_LEN + 4 + 28 + p.payload_len);
	assert_int_equal(unit_stats(f).ip.ForwDatagrams, 2);
	unit_tx_free(f);
}

/* A datagram to the VLAN's address is ours; on another VLAN, or
 * untagged, that address is reached the same way (weak host) but only
 * frames of configured VLANs are taken at all. */
static void
test_local_and_unknown_vlan(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	vlan_setup(f);
	unit_pkt_init(&p, VLAN_IP);
	p.src = VLAN_HOST;
	p.src_mac = host_mac;
	unit_input_one(f, unit_pkt_mbuf_tagged(&p, VLAN));
	assert_int_equal(unit_stats(f).ip.InDelivers, 1);
	unit_input_one(f, unit_pkt_mbuf_tagged(&p, 200));
	assert_int_equal(unit_stats(f).eth.UnknownVlan, 1);
	assert_int_equal(unit_stats(f).ip.InReceives, 1);
	/* port unreachable for the first goes back tagged */
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	assert_int_equal(unit_frame_vid(f->tx.pkts[UNIT_P0][0]), VLAN);
	unit_tx_free(f);
}

/* ARP on the VLAN: answered on it, tagged, from the port's MAC. */
static void
test_arp_answered_tagged(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[64] = { 0 };
	const uint8_t *r;
	struct rte_mbuf *m;

	vlan_setup(f);
	memset(b, 0xff, 6);
	memcpy(b + 6, &host_mac, 6);
	b[12] = 0x81; b[13] = 0x00; b[14] = 0; b[15] = VLAN;
	b[16] = 0x08; b[17] = 0x06;
	b[18] = 0; b[19] = 1; b[20] = 0x08; b[21] = 0; b[22] = 6; b[23] = 4;
	b[24] = 0; b[25] = 1;
	memcpy(b + 26, &host_mac, 6);
	b[32] = 10; b[33] = 5; b[34] = 0; b[35] = 2;
	b[42] = 10; b[43] = 5; b[44] = 0; b[45] = 1;
	unit_input_one(f, unit_mbuf_from_bytes(b, 46, UNIT_P0));
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	m = f->tx.pkts[UNIT_P0][0];
	assert_int_equal(unit_frame_vid(m), VLAN);
	r = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_memory_equal(r, &host_mac, 6);
	assert_int_equal(r[16] << 8 | r[17], RTE_ETHER_TYPE_ARP);
	assert_int_equal(r[18 + 7], 2);			/* a reply */
	assert_int_equal(r[18 + 14], 10);
	assert_int_equal(r[18 + 15], 5);
	assert_int_equal(r[18 + 16], 0);
	assert_int_equal(r[18 + 17], 1);
	assert_int_equal(unit_stats(f).arp.OutReplies, 1);
	unit_tx_free(f);
}

/* Bad settings are refused with a line the user can act on. */
static void
test_bad_vlan_settings(void **state)
{
	struct unit_fixture *f = *state;

	assert_int_not_equal(unit_cmd_rc(f,
		"address add 10.6.0.1/24 port 0 vlan 0"), 0);
	assert_int_not_equal(unit_cmd_rc(f,
		"address add 10.6.0.1/24 port 0 vlan 4095"), 0);
	assert_int_not_equal(unit_cmd_rc(f,
		"address add 10.6.0.1/24 port 9 vlan 7"), 0);
	assert_int_equal(unit_cmd_rc(f,
		"address add 10.6.0.1/24 port 1 vlan 7"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_forward_in_and_out,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_local_and_unknown_vlan,
				unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_arp_answered_tagged,
				unit_setup_single, unit_teardown),
		cmocka_unit_test_setup_teardown(test_bad_vlan_settings,
				unit_setup_list, unit_teardown),
	};

	return cmocka_run_group_tests_name("vlan", tests, unit_group_setup,
					   unit_group_teardown);
}
