/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control thread changes routes, addresses, VLAN sub-interfaces and
 * port settings while a worker thread forwards. Every datagram either
 * leaves by the port a route named for it at some moment of its
 * processing, with a MAC that port had, or is counted; every mbuf comes
 * back. Then routes alone churn (replaced, added, deleted in place, and
 * flushed and put back in one batch, built whole) while the worker
 * forwards: every datagram leaves, by a next hop its route had. Bounded
 * iterations and no timing: under ThreadSanitizer the interleavings are
 * what is tested.
 */
#include <stdio.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"

#define CHANGES 160		/* control commands, each one publication */
#define MIN_BURSTS 200		/* the worker's bursts, at least */
#define BURST 24
#define N_VLANS 16
#define N_EXTRA 24		/* addresses added on port 1 */
#define FLIP_IP UNIT_IPV4(10, 50, 0, 5)	/* via B, or blackholed */

static const struct rte_ether_addr host_mac = {
	.addr_bytes = { 0x02, 0, 0, 0, 0x05, 0x02 } };
static const struct rte_ether_addr p1_mac_alt = {
	.addr_bytes = { 0x02, 0, 0, 0, 0x01, 0xfd } };

struct race {
	struct unit_race w;		/* the worker thread (unit_common.h) */
	/* what it sent, its alone until it is joined */
	uint64_t udp_out, icmp_out, other_out, misrouted;
};

/* Checks and frees what the worker sends. */
static uint16_t
race_tx(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	uint16_t n)
{
	struct race *r = arg;
	uint16_t i;

	(void)queue;
	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eh =
			rte_pktmbuf_mtod(pkts[i], const struct rte_ether_hdr *);
		const struct rte_ipv4_hdr *ip = (const void *)(eh + 1);

		if (unit_frame_is_icmp(pkts[i])) {
			r->icmp_out++;
		} else if (eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
			   ip->next_proto_id != IPPROTO_UDP) {
			r->other_out++;
		} else {
			uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);

			r->udp_out++;
			/* every route of the test leads to B on port 1 */
			if (port != UNIT_P1 ||
			    (dst != UNIT_FAR_IP && dst != FLIP_IP) ||
			    !rte_is_same_ether_addr(&eh->dst_addr, &unit_b_mac) ||
			    (!rte_is_same_ether_addr(&eh->src_addr,
						     &unit_p1_mac) &&
			     !rte_is_same_ether_addr(&eh->src_addr,
						     &p1_mac_alt)))
				r->misrouted++;
		}
		rte_pktmbuf_free(pkts[i]);
	}
	return n;
}

/* A third to 10.9.0.5 (routed the whole test), a third to FLIP_IP, a
 * third from hosts on VLANs 1..N_VLANS of port 0 (made as it goes). */
static uint16_t
race_burst(void *arg, struct rte_mbuf **pkts)
{
	struct race *r = arg;
	struct unit_pkt p;
	uint16_t i;

	for (i = 0; i < BURST; i++) {
		unsigned int vid =
			(unsigned int)(r->w.bursts + i) % N_VLANS + 1;

		switch (i % 3) {
		case 0:
			unit_pkt_init(&p, UNIT_FAR_IP);
			pkts[i] = unit_pkt_mbuf(&p);
			break;
		case 1:
			unit_pkt_init(&p, FLIP_IP);
			pkts[i] = unit_pkt_mbuf(&p);
			break;
		default:
			unit_pkt_init(&p, UNIT_FAR_IP);
			p.src = UNIT_IPV4(192, 168, vid, 2);
			p.src_mac = host_mac;
			pkts[i] = unit_pkt_mbuf_tagged(&p, (uint16_t)vid);
			break;
		}
		assert_non_null(pkts[i]);
	}
	return BURST;
}

static void
race_exec(struct race *r, const char *line)
{
	char err[256];
	int rc = lsk_config_exec(r->w.f->stack, line, "race", 1, err,
				 sizeof(err));

	if (rc != 0)
		print_error("'%s': %s\n", line, err);
	assert_int_equal(rc, 0);
}

static void
race_control(struct race *r)
{
	unsigned int i, vlans = 0, extra = 0;
	char line[128];

	for (i = 0; i < CHANGES; i++) {
		switch (i % 4) {
		case 0:
			race_exec(r, "route del 10.50.0.0/16");
			race_exec(r, i % 8 ? "route add 10.50.0.0/16 blackhole" :
				  "route add 10.50.0.0/16 via 10.0.1.1");
			break;
		case 1:
			if (vlans == N_VLANS)
				break;
			vlans++;
			snprintf(line, sizeof(line),
				 "address add 192.168.%u.1/24 port 0 vlan %u",
				 vlans, vlans);
			race_exec(r, line);
			break;
		case 2:
			race_exec(r, i % 8 == 2 ?
				  "port 1 mtu 1400 mac 02:00:00:00:01:fd" :
				  "port 1 mtu 1500 mac 02:00:00:00:01:fe");
			break;
		default:
			if (extra == N_EXTRA)
				break;
			snprintf(line, sizeof(line),
				 "address add 10.100.%u.1/24 port 1", extra++);
			race_exec(r, line);
			break;
		}
	}
}

static void
test_control_changes_while_forwarding(void **state)
{
	struct unit_fixture *f = *state;
	static struct race r;
	struct lsk_stats st;
	uint64_t dropped;

	memset(&r, 0, sizeof(r));
	r.w = (struct unit_race){ .f = f, .burst = race_burst, .arg = &r,
				  .min_bursts = MIN_BURSTS };
	lsk_worker_set_tx_fn(f->worker, race_tx, &r);
	unit_cmd(f, "route add 10.50.0.0/16 via 10.0.1.1");

	unit_race_start(&r.w);
	race_control(&r);
	unit_race_join(&r.w);

	assert_int_equal(lsk_stats_read(f->stack, &st), 0);
	assert_int_equal(r.misrouted, 0);
	assert_int_equal(r.other_out, 0);
	/* no route (between del and add), blackholed, VLAN not made yet */
	dropped = st.ip.InNoRoutes + st.ip.InDiscards + st.eth.UnknownVlan;
	assert_int_equal(r.w.sent, r.udp_out + dropped);
	assert_int_equal(st.ip.ForwDatagrams, r.udp_out);
	assert_true(r.udp_out > 0);
	assert_int_equal(st.eth.NotForUs + st.eth.Runts + st.ip.InHdrErrors +
			 st.ip.InAddrErrors + st.ip.OutDiscards, 0);
}

#define CHURN_IP UNIT_IPV4(10, 60, 1, 5)	/* via A or via B, always */

/* What the worker sends under route churn: to UNIT_FAR_IP by B alone,
 * to CHURN_IP by A on port 0 or B on port 1, nothing else. */
static uint16_t
churn_tx(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	 uint16_t n)
{
	struct race *r = arg;
	uint16_t i;

	(void)queue;
	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eh =
			rte_pktmbuf_mtod(pkts[i], const struct rte_ether_hdr *);
		const struct rte_ipv4_hdr *ip = (const void *)(eh + 1);
		uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
		bool by_a = port == UNIT_P0 &&
			    rte_is_same_ether_addr(&eh->dst_addr, &unit_a_mac) &&
			    rte_is_same_ether_addr(&eh->src_addr, &unit_p0_mac);
		bool by_b = port == UNIT_P1 &&
			    rte_is_same_ether_addr(&eh->dst_addr, &unit_b_mac) &&
			    rte_is_same_ether_addr(&eh->src_addr, &unit_p1_mac);

		if (eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
		    ip->next_proto_id != IPPROTO_UDP) {
			r->other_out++;
		} else {
			r->udp_out++;
			if (!(dst == UNIT_FAR_IP && by_b) &&
			    !(dst == CHURN_IP && (by_a || by_b)))
				r->misrouted++;
		}
		rte_pktmbuf_free(pkts[i]);
	}
	return n;
}

static uint16_t
churn_burst(void *arg, struct rte_mbuf **pkts)
{
	struct unit_pkt p;
	uint16_t i;

	(void)arg;
	for (i = 0; i < BURST; i++) {
		unit_pkt_init(&p, i % 2 ? CHURN_IP : UNIT_FAR_IP);
		pkts[i] = unit_pkt_mbuf(&p);
		assert_non_null(pkts[i]);
	}
	return BURST;
}

static void
churn_batch(struct race *r, const char *text)
{
	struct lsk_out o;
	int rc;

	lsk_out_init(&o, false);
	rc = lsk_command_run(r->w.f->stack, text, strlen(text), "race", &o);
	if (rc != 0)
		print_error("%s\n", o.err);
	lsk_out_free(&o);
	assert_int_equal(rc, 0);
}

/* Each change leaves a route to CHURN_IP, via A or B; FAR stays via B. */
static void
churn_control(struct race *r)
{
	struct lsk_stack *s = r->w.f->stack;
	const uint32_t p16 = UNIT_IPV4(10, 60, 0, 0);
	const uint32_t p24 = UNIT_IPV4(10, 60, 1, 0);
	unsigned int i;

	for (i = 0; i < 4 * CHANGES; i++) {
		switch (i % 5) {
		case 0:
			assert_int_equal(lsk_route_replace(s, p16, 16,
				LSK_ROUTE_VIA, UNIT_A_IP), 0);
			break;
		case 1:
			assert_int_equal(lsk_route_add(s, p24, 24,
				LSK_ROUTE_VIA, UNIT_B_IP), 0);
			break;
		case 2:
			assert_int_equal(lsk_route_replace(s, p16, 16,
				LSK_ROUTE_VIA, UNIT_B_IP), 0);
			break;
		case 3:
			assert_int_equal(lsk_route_del(s, p24, 24), 0);
			break;
		default:
			/* everything goes and comes back at once */
			churn_batch(r, "route flush\n"
				    "route add 10.9.0.0/16 via 10.0.1.1\n"
				    "route add 10.60.0.0/16 via 10.0.0.1\n");
			break;
		}
	}
}

static void
test_route_churn_while_forwarding(void **state)
{
	struct unit_fixture *f = *state;
	static struct race r;
	struct lsk_stats st;

	memset(&r, 0, sizeof(r));
	r.w = (struct unit_race){ .f = f, .burst = churn_burst, .arg = &r,
				  .min_bursts = MIN_BURSTS };
	lsk_worker_set_tx_fn(f->worker, churn_tx, &r);
	unit_cmd(f, "route add 10.60.0.0/16 via 10.0.0.1");

	unit_race_start(&r.w);
	churn_control(&r);
	unit_race_join(&r.w);

	assert_int_equal(lsk_stats_read(f->stack, &st), 0);
	/* the changes were made in place but for the batches */
	assert_non_null(f->stack->fwd_standby);
	assert_int_equal(r.misrouted, 0);
	assert_int_equal(r.other_out, 0);
	/* nothing lost: never a moment without a route */
	assert_int_equal(r.udp_out, r.w.sent);
	assert_int_equal(st.ip.ForwDatagrams, r.w.sent);
	assert_int_equal(st.ip.InNoRoutes + st.ip.InDiscards, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_control_changes_while_forwarding,
			unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(
			test_route_churn_while_forwarding,
			unit_setup_list, unit_teardown),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
