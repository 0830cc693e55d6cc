/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * worker: list and single mode (and GRO on and off) give the same frames
 * and counters for the same bursts (forwarded datagrams in the same order,
 * the ICMP and ARP the stack makes the same set); the transmit hook gets
 * each port's
 * frames in order, on the worker's queue; frames it refuses are freed and
 * counted tx_dropped; TX buffering (flush, full buffer, destroy), bursts
 * above LSK_BURST_MAX, and table updates that do not wait for idle workers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_common.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

/* ------------------------------------------------ the crafted burst */

#define BURST_MAX_FRAMES 160

struct burst {
	unsigned int n;
	size_t len[BURST_MAX_FRAMES];
	uint16_t port[BURST_MAX_FRAMES];
	uint8_t b[BURST_MAX_FRAMES][UNIT_FRAME_MAX];
};

static uint8_t *
burst_add_pkt(struct burst *bu, const struct unit_pkt *p)
{
	unsigned int i = bu->n++;

	assert_true(i < BURST_MAX_FRAMES);
	bu->len[i] = unit_pkt_build(p, bu->b[i], sizeof(bu->b[i]));
	bu->port[i] = p->port;
	return bu->b[i];
}

static void
burst_add_bytes(struct burst *bu, const uint8_t *b, size_t len, uint16_t port)
{
	unsigned int i = bu->n++;

	assert_true(i < BURST_MAX_FRAMES);
	memcpy(bu->b[i], b, len);
	bu->len[i] = len;
	bu->port[i] = port;
}

/* Something of every kind the pipeline knows, interleaved. */
static void
burst_build(struct burst *bu)
{
	static const uint8_t lsrr[] = { 0x83, 7, 4, 10, 0, 1, 1, 0 };
	uint8_t tmp[UNIT_FRAME_MAX];
	struct unit_pkt p;
	unsigned int i;
	uint8_t *b;
	size_t len;

	memset(bu, 0, sizeof(*bu));
	for (i = 0; i < 8; i++) {	/* flow G and local, alternating */
		unit_pkt_init(&p, i % 2 ? UNIT_P0_IP : UNIT_FAR_IP);
		p.id = (uint16_t)(100 + i);
		burst_add_pkt(bu, &p);
	}
	unit_pkt_init(&p, UNIT_A_IP);			/* P1 -> P0 */
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	p.src = UNIT_B_IP;
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_B_IP);			/* padded, forwarded */
	p.payload_len = 1;
	p.trailer_len = 17;
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_B_IP);			/* runt */
	len = unit_pkt_build(&p, tmp, sizeof(tmp));
	burst_add_bytes(bu, tmp, 10, UNIT_P0);
	p.dst_mac.addr_bytes[4] = 0x99;			/* not for us */
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_B_IP);			/* unknown type */
	b = burst_add_pkt(bu, &p);
	b[12] = 0x88;
	b[13] = 0xb5;
	b = burst_add_pkt(bu, &p);			/* VLAN 100 */
	len = bu->len[bu->n - 1];
	memmove(b + 16, b + 12, len - 12);
	b[12] = 0x81;
	b[13] = 0x00;
	b[14] = 0x00;
	b[15] = 100;
	bu->len[bu->n - 1] = len + 4;
	unit_pkt_init(&p, UNIT_P0_IP);			/* priority tag */
	b = burst_add_pkt(bu, &p);
	len = bu->len[bu->n - 1];
	memmove(b + 16, b + 12, len - 12);
	b[12] = 0x81;
	b[13] = 0x00;
	b[14] = 0xa0;
	b[15] = 0x00;
	bu->len[bu->n - 1] = len + 4;
	unit_pkt_init(&p, UNIT_FAR_IP);			/* bad checksum */
	b = burst_add_pkt(bu, &p);
	IP(b)[11] ^= 1;
	b = burst_add_pkt(bu, &p);			/* truncated */
	bu->len[bu->n - 1] -= 8;
	b = burst_add_pkt(bu, &p);			/* IHL 4 */
	IP(b)[0] = 0x44;
	unit_ip4_fix_cksum(IP(b));
	p.src = UNIT_IPV4(127, 0, 0, 1);		/* martian */
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_IPV4(239, 1, 1, 1));	/* multicast */
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_FAR_IP);			/* source route */
	p.opt_len = sizeof(lsrr);
	memcpy(p.opts, lsrr, sizeof(lsrr));
	burst_add_pkt(bu, &p);
	p.opt_len = 4;					/* NOP options */
	memset(p.opts, RTE_IPV4_HDR_OPT_NOP, 4);
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_IPV4(192, 168, 77, 1));	/* no route */
	burst_add_pkt(bu, &p);
	p.dst = UNIT_IPV4(10, 66, 0, 1);		/* blackhole */
	burst_add_pkt(bu, &p);
	p.dst = UNIT_FAR_IP;				/* TTL 1 */
	p.ttl = 1;
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_FAR_IP);			/* over the MTU */
	p.payload_len = 1501 - 28;
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 7));	/* unresolved */
	burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_B_IP);			/* L2 bcast, forward */
	p.dst_mac = unit_bcast_mac;
	burst_add_pkt(bu, &p);
	p.dst = UNIT_P1_IP;				/* L2 bcast, local */
	burst_add_pkt(bu, &p);
	p.dst = UINT32_MAX;				/* limited broadcast */
	burst_add_pkt(bu, &p);
	for (i = 0; i < 6; i++) {	/* both ports at once */
		unit_pkt_init(&p, i % 2 ? UNIT_A_IP : UNIT_B_IP);
		p.id = (uint16_t)(200 + i);
		if (i % 2) {
			p.port = UNIT_P1;
			p.dst_mac = unit_p1_mac;
			p.src = UNIT_B_IP;
		}
		burst_add_pkt(bu, &p);
	}
}

static void
burst_send(struct unit_fixture *f, const struct burst *bu)
{
	struct rte_mbuf *pkts[BURST_MAX_FRAMES];
	unsigned int i;

	for (i = 0; i < bu->n; i++)
		pkts[i] = unit_mbuf_from_bytes(bu->b[i], bu->len[i],
					       bu->port[i]);
	unit_input(f, pkts, (uint16_t)bu->n);
}

/* ------------------------------------------------- list vs single */

/* Two fixtures fed the same bursts: a is the reference. */
struct pair {
	struct unit_fixture *a, *b;
};

static int
pair_setup(void **state, enum lsk_mode mode_b)
{
	struct pair *pr = calloc(1, sizeof(*pr));

	if (pr == NULL)
		return -1;
	pr->a = unit_fixture_create(LSK_MODE_LIST);
	pr->b = unit_fixture_create(mode_b);
	*state = pr;
	return pr->a != NULL && pr->b != NULL ? 0 : -1;
}

static int
list_single_setup(void **state)
{
	return pair_setup(state, LSK_MODE_SINGLE);
}

static int
list_list_setup(void **state)
{
	return pair_setup(state, LSK_MODE_LIST);
}

static int
pair_teardown(void **state)
{
	struct pair *pr = *state;
	bool a_ok, b_ok;

	/* each checks the pool: neither may hold the other's frames */
	unit_tx_free(pr->a);
	unit_tx_free(pr->b);
	lsk_neigh_drop_held(pr->a->stack);
	lsk_neigh_drop_held(pr->b->stack);
	b_ok = unit_fixture_release(pr->b);
	a_ok = unit_fixture_release(pr->a);

	free(pr);
	assert_true(a_ok && b_ok);
	return 0;
}

/* The counters of datagrams (docs/configuration.md: the same with GRO on or off). */
static void
assert_same_datagram_counters(const struct lsk_stats *a,
			      const struct lsk_stats *b)
{
	assert_memory_equal(&a->ip, &b->ip, sizeof(a->ip));
	assert_memory_equal(&a->udp, &b->udp, sizeof(a->udp));
	assert_memory_equal(&a->eth, &b->eth, sizeof(a->eth));
	assert_memory_equal(&a->arp, &b->arp, sizeof(a->arp));
	assert_memory_equal(a->ports, b->ports, sizeof(a->ports));
}

/* The same, and the same stage packets, with what the fast path took
 * (ip4/fwd_fast.c: list mode) counting for each stage it stands for. */
static void
assert_same_counters(const struct lsk_stats *a, const struct lsk_stats *b)
{
	unsigned int i;

	assert_same_datagram_counters(a, b);
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		uint64_t pa = a->stages[i].packets, pb = b->stages[i].packets;

		if (i == LSK_STAGE_ETH_INPUT || i == LSK_STAGE_IP4_INPUT ||
		    i == LSK_STAGE_IP4_ROUTE || i == LSK_STAGE_IP4_FORWARD) {
			pa += a->stages[LSK_STAGE_FWD_FAST].packets;
			pb += b->stages[LSK_STAGE_FWD_FAST].packets;
		}
		if (i != LSK_STAGE_FWD_FAST)
			assert_int_equal(pa, pb);
	}
}

static void
test_list_and_single_agree(void **state)
{
	static struct burst bu;
	struct pair *pr = *state;
	struct lsk_stats ls, ss;
	unsigned int round;

	assert_int_equal(lsk_stack_mode(pr->a->stack), LSK_MODE_LIST);
	assert_int_equal(lsk_stack_mode(pr->b->stack), LSK_MODE_SINGLE);
	unit_cmd(pr->a, "route add 10.66.0.0/16 blackhole");
	unit_cmd(pr->b, "route add 10.66.0.0/16 blackhole");
	burst_build(&bu);

	for (round = 1; round <= 2; round++) {
		burst_send(pr->a, &bu);
		burst_send(pr->b, &bu);
		unit_assert_same_frames(pr->a, pr->b);
		ls = unit_stats(pr->a);
		ss = unit_stats(pr->b);
		assert_same_counters(&ls, &ss);

		/* and they are the right ones */
		assert_int_equal(unit_tx_udp_to(pr->a, UNIT_P1, 0),
				 4 + 1 + 1 + 3);
		assert_int_equal(unit_tx_udp_to(pr->a, UNIT_P0, 0), 1 + 3);
		/* ICMP to A: port unreachable for the 5 locals, net
		 * unreachable, time exceeded, fragmentation needed */
		assert_int_equal(unit_tx_icmp(pr->a, UNIT_P0, 3, 3), 5);
		assert_int_equal(unit_tx_icmp(pr->a, UNIT_P0, 3, 0), 1);
		assert_int_equal(unit_tx_icmp(pr->a, UNIT_P0, 11, 0), 1);
		assert_int_equal(unit_tx_icmp(pr->a, UNIT_P0, 3, 4), 1);
		assert_int_equal(unit_tx_icmp(pr->a, UNIT_P1, -1, -1), 0);
		/* ARP asks for 10.0.1.7 once; the second round's datagram
		 * waits behind the first */
		assert_int_equal(unit_tx_arp_requests(pr->a, UNIT_P1,
				 UNIT_IPV4(10, 0, 1, 7)), round == 1);
		assert_int_equal(pr->a->tx.n[UNIT_P0], 4 + 8);
		assert_int_equal(pr->a->tx.n[UNIT_P1], 9 + (round == 1));
		assert_int_equal(ls.eth.InFrames, round * bu.n);
		assert_int_equal(ls.eth.Runts, round);
		assert_int_equal(ls.eth.NotForUs, round);
		assert_int_equal(ls.eth.UnknownType, round);
		assert_int_equal(ls.eth.UnknownVlan, round);
		unit_assert_ip(pr->a, (struct lsk_ip_stats){
			.InReceives = round * (bu.n - 4),
			.ForwDatagrams = round * (4 + 1 + 1 + 3 + 1 + 3 + 1),
			.InDelivers = round * (4 + 1 + 2),
			.InHdrErrors = round * 3,
			.InCsumErrors = round,
			.InTruncatedPkts = round,
			.InAddrErrors = round * 2,
			.InDiscards = round * 3,
			.InNoRoutes = round,
			.FragFails = round,
		});
		unit_assert_ip_balance(&ls);
		assert_int_equal(ls.arp.UnresolvedDiscards, 0);
		assert_int_equal(ls.arp.OutRequests, 1);
		assert_int_equal(ls.icmp.OutMsgs, round * 8);

		/* one call per stage per burst against one per packet */
		assert_int_equal(ls.stages[LSK_STAGE_ETH_INPUT].calls, round);
		assert_int_equal(ss.stages[LSK_STAGE_ETH_INPUT].calls,
				 round * bu.n);
		unit_tx_free(pr->a);
		unit_tx_free(pr->b);
	}
}

/*
 * Train material for GRO, with everything that must break or refuse a
 * train in between: another TTL, a bad or zero UDP checksum, a shorter
 * member, padding, a fragment, options, drops of whole trains, more
 * members than a train holds, two ports.
 */
static void
burst_build_trains(struct burst *bu)
{
	struct unit_pkt p;
	unsigned int i;
	uint8_t *b;

	memset(bu, 0, sizeof(*bu));
	for (i = 0; i < 15; i++) {	/* flow to FAR, locals between */
		unit_pkt_init(&p, i % 3 == 2 ? UNIT_P0_IP : UNIT_FAR_IP);
		p.id = (uint16_t)i;
		burst_add_pkt(bu, &p);
	}
	unit_pkt_init(&p, UNIT_FAR_IP);
	p.ttl = 63;					/* another TTL */
	burst_add_pkt(bu, &p);
	p.ttl = 64;
	for (i = 0; i < 3; i++)
		burst_add_pkt(bu, &p);
	b = burst_add_pkt(bu, &p);			/* bad UDP checksum */
	b[UNIT_ETH_LEN + 28 + 5] ^= 1;
	b = burst_add_pkt(bu, &p);			/* zero UDP checksum */
	b[UNIT_ETH_LEN + 26] = 0;
	b[UNIT_ETH_LEN + 27] = 0;
	burst_add_pkt(bu, &p);
	p.payload_len = 500;				/* shorter: closes */
	burst_add_pkt(bu, &p);
	p.payload_len = 1000;
	burst_add_pkt(bu, &p);
	p.trailer_len = 6;				/* padded */
	burst_add_pkt(bu, &p);
	p.trailer_len = 0;
	p.df = false;					/* a first fragment */
	b = burst_add_pkt(bu, &p);
	IP(b)[6] |= 0x20;
	unit_ip4_fix_cksum(IP(b));
	p.df = true;
	p.opt_len = 4;					/* options */
	memset(p.opts, RTE_IPV4_HDR_OPT_NOP, 4);
	burst_add_pkt(bu, &p);
	burst_add_pkt(bu, &p);
	p.opt_len = 0;
	burst_add_pkt(bu, &p);

	unit_pkt_init(&p, UNIT_FAR_IP);			/* whole trains dropped */
	p.sport = 1100;
	p.ttl = 1;
	for (i = 0; i < 4; i++)
		burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 7));
	for (i = 0; i < 4; i++)
		burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_IPV4(10, 66, 0, 1));
	for (i = 0; i < 4; i++)
		burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_B_IP);
	p.payload_len = 1501 - 28;
	for (i = 0; i < 4; i++)
		burst_add_pkt(bu, &p);
	unit_pkt_init(&p, UNIT_B_IP);
	p.dst_mac = unit_bcast_mac;
	for (i = 0; i < 4; i++)
		burst_add_pkt(bu, &p);

	unit_pkt_init(&p, UNIT_FAR_IP);			/* 70 small, one flow */
	p.sport = 1001;
	p.payload_len = 18;
	for (i = 0; i < 70; i++) {
		p.id = (uint16_t)(1000 + i);
		burst_add_pkt(bu, &p);
	}
	unit_pkt_init(&p, UNIT_A_IP);			/* from P1 */
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	p.src = UNIT_B_IP;
	for (i = 0; i < 3; i++)
		burst_add_pkt(bu, &p);
}

/* docs/configuration.md: GRO is invisible outside the gro and gso counters, and
 * GSO output is byte-identical to per-packet forwarding. */
static void
test_gro_on_and_off_agree(void **state)
{
	static struct burst bu;
	struct pair *pr = *state;
	struct lsk_stats off, on;

	unit_cmd(pr->a, "route add 10.66.0.0/16 blackhole");
	unit_cmd(pr->b, "route add 10.66.0.0/16 blackhole");
	unit_cmd(pr->b, "gro fraglist flows 64 segs 64");
	burst_build_trains(&bu);

	burst_send(pr->a, &bu);
	burst_send(pr->b, &bu);
	unit_assert_same_frames(pr->a, pr->b);
	off = unit_stats(pr->a);
	on = unit_stats(pr->b);
	assert_same_datagram_counters(&off, &on);
	unit_assert_ip_balance(&on);

	assert_int_equal(off.gro.Trains, 0);
	assert_true(on.gro.Trains >= 8);
	assert_true(on.gro.Merged >= 70);
	assert_true(on.gso.Segments >= 70);
	assert_int_equal(off.ip.InReceives, bu.n);
	assert_int_equal(unit_tx_udp_to(pr->a, UNIT_P1, UNIT_FAR_IP),
			 10 + 4 + 10 + 70);
	/* one ICMP per datagram of the dropped trains: 4 time exceeded, 4
	 * fragmentation needed; ARP holds the last 3 for 10.0.1.7 */
	assert_int_equal(unit_tx_icmp(pr->b, UNIT_P0, 11, 0), 4);
	assert_int_equal(unit_tx_icmp(pr->b, UNIT_P0, 3, 4), 4);
	assert_int_equal(unit_tx_arp_requests(pr->b, UNIT_P1,
					      UNIT_IPV4(10, 0, 1, 7)), 1);
	assert_int_equal(on.arp.UnresolvedDiscards, 1);
	assert_int_equal(lsk_neigh_drop_held(pr->a->stack), 3);
	assert_int_equal(lsk_neigh_drop_held(pr->b->stack), 3);
}

/* ------------------------------------------------------ TX and hook */

static struct rte_mbuf *
pkt_to(uint32_t dst, uint16_t id)
{
	struct unit_pkt p;

	unit_pkt_init(&p, dst);
	p.payload_len = 18;
	p.id = id;
	return unit_pkt_mbuf(&p);
}

static void
assert_sent_in_order(const struct unit_fixture *f, uint16_t port,
		     unsigned int n, uint16_t first_id)
{
	unsigned int i;

	assert_int_equal(f->tx.n[port], n);
	for (i = 0; i < n; i++)
		assert_int_equal(rte_be_to_cpu_16(
			unit_ip4(f->tx.pkts[port][i])->packet_id),
			(uint16_t)(first_id + i));
}

/* The hook gets each port's frames, in order, on the worker's queue (its
 * id unless set otherwise); ports[].tx counts what it took. */
static void
test_tx_hook_capture(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[10];
	struct lsk_stats st;
	unsigned int i;

	for (i = 0; i < 10; i++)
		pkts[i] = pkt_to(i % 2 ? UNIT_A_IP : UNIT_FAR_IP,
				 (uint16_t)(i / 2 + (i % 2 ? 100 : 0)));
	unit_input(f, pkts, 10);
	assert_int_equal(f->tx.calls, 2);
	assert_sent_in_order(f, UNIT_P1, 5, 0);
	assert_sent_in_order(f, UNIT_P0, 5, 100);
	assert_int_equal(f->tx.last_queue[UNIT_P0], 0);
	assert_int_equal(f->tx.last_queue[UNIT_P1], 0);
	unit_tx_free(f);

	lsk_worker_set_txq(f->worker, UNIT_P1, 3);
	unit_input_one(f, pkt_to(UNIT_FAR_IP, 7));
	assert_int_equal(f->tx.last_queue[UNIT_P1], 3);
	unit_tx_free(f);

	st = unit_stats(f);
	assert_int_equal(st.ports[UNIT_P0].tx, 5);
	assert_int_equal(st.ports[UNIT_P1].tx, 6);
	assert_int_equal(st.ports[UNIT_P0].tx_dropped, 0);
	assert_int_equal(st.ports[UNIT_P1].tx_dropped, 0);
	assert_int_equal(st.stages[LSK_STAGE_TX].packets, 11);
}

/* Frames the hook does not take are freed at once and counted
 * tx_dropped; the ones it took stay its own. */
static void
test_tx_refused(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[5];
	struct lsk_stats st;
	unsigned int i;

	f->tx.accept = 2;
	for (i = 0; i < 5; i++)
		pkts[i] = pkt_to(UNIT_FAR_IP, (uint16_t)i);
	unit_input(f, pkts, 5);
	assert_sent_in_order(f, UNIT_P1, 2, 0);
	assert_int_equal(unit_pool_in_use(), f->in_use_start + 2);
	st = unit_stats(f);
	assert_int_equal(st.ports[UNIT_P1].tx, 2);
	assert_int_equal(st.ports[UNIT_P1].tx_dropped, 3);
	unit_tx_free(f);

	f->tx.accept = 0;
	for (i = 0; i < 5; i++)
		pkts[i] = pkt_to(UNIT_FAR_IP, (uint16_t)i);
	unit_input(f, pkts, 5);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
	st = unit_stats(f);
	assert_int_equal(st.ports[UNIT_P1].tx, 2);
	assert_int_equal(st.ports[UNIT_P1].tx_dropped, 8);
	/* forwarding itself went fine */
	assert_int_equal(st.ip.ForwDatagrams, 10);
}

/* Nothing leaves before lsk_worker_flush. */
static void
test_sent_on_flush(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m = pkt_to(UNIT_FAR_IP, 1);

	lsk_worker_input(f->worker, &m, 1);
	assert_int_equal(f->tx.calls, 0);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.calls, 1);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	/* an idle flush calls nobody */
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.calls, 1);
	unit_tx_free(f);
}

/* A full TX buffer is sent without waiting for the flush. */
static void
test_full_tx_buffer_sent(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[200];
	unsigned int burst, i, id = 0;

	for (burst = 0; burst < 3; burst++) {
		for (i = 0; i < 200; i++)
			pkts[i] = pkt_to(UNIT_FAR_IP, (uint16_t)id++);
		lsk_worker_input(f->worker, pkts, 200);
	}
	assert_int_equal(f->tx.calls, 1);
	assert_int_equal(f->tx.n[UNIT_P1], 2 * LSK_BURST_MAX);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.calls, 2);
	assert_sent_in_order(f, UNIT_P1, 600, 0);
	unit_tx_free(f);
}

/* More than LSK_BURST_MAX in one call: taken in pieces, order kept. */
static void
test_burst_above_max(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[300];
	struct lsk_stats st;
	unsigned int i;

	for (i = 0; i < 300; i++)
		pkts[i] = pkt_to(UNIT_FAR_IP, (uint16_t)i);
	unit_input(f, pkts, 300);
	assert_sent_in_order(f, UNIT_P1, 300, 0);
	unit_tx_free(f);
	st = unit_stats(f);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].calls, 2);
	assert_int_equal(st.ip.ForwDatagrams, 300);
}

/* ------------------------------------- reassembly's death row */

/* A fragment to us of 8 bytes at byte offset ofs of datagram id. */
static struct rte_mbuf *
frag8(uint16_t id, uint16_t ofs, bool mf)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 0;
	p.df = false;
	p.id = id;
	len = unit_pkt_build(&p, b, sizeof(b));		/* 20 + 8 bytes */
	put16(IP(b) + 6, (uint16_t)((mf ? 0x2000 : 0) | ofs / 8));
	unit_ip4_fix_cksum(IP(b));
	return unit_mbuf_from_bytes(b, len, UNIT_P0);
}

/* n datagrams from A to us:2000 with IDs from id, into pkts. */
static void
add_datagrams(struct rte_mbuf **pkts, unsigned int n, uint16_t id)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_P0_IP);
		p.payload_len = 100;
		p.id = (uint16_t)(id + i);
		pkts[i] = unit_pkt_mbuf(&p);
	}
}

/*
 * 145 first fragments held, then a burst of their 145 duplicates (each
 * dropped alone, the held one kept, as Linux does) and 111 datagrams:
 * every datagram is delivered, every fragment counted, what is not held
 * freed.
 */
static void
test_reasm_duplicates_burst(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_stats st;
	unsigned int i;

	for (i = 0; i < 145; i++)
		pkts[i] = frag8((uint16_t)(0x7000 + i), 0, true);
	unit_input(f, pkts, 145);
	for (i = 0; i < 145; i++)
		pkts[i] = frag8((uint16_t)(0x7000 + i), 0, true);
	add_datagrams(pkts + 145, 111, 1);
	unit_input(f, pkts, LSK_BURST_MAX);
	assert_int_equal(unit_recv_free(ep, 200), 111);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 290);
	assert_int_equal(st.ip.ReasmDuplicates, 145);
	assert_int_equal(st.ip.ReasmFails, 0);
	assert_int_equal(st.ip.ReasmOKs, 0);
	assert_int_equal(st.udp.InDatagrams, 111);
	assert_int_equal(lsk_reasm_held(f->worker), 145);
	assert_int_equal(unit_pool_in_use() - f->in_use_start, 145);
	unit_assert_reasm_balance(&st);
	unit_close(f, ep);
}

/*
 * One fragment that spoils a datagram frees all of it: 8 fragments each
 * (first, last, 6 in between with holes) of 64 datagrams held over two
 * bursts, then one burst of their 64 spoilers (a second last piece with
 * another end: 576 mbufs freed) among 192 datagrams.
 */
static void
test_reasm_spoilt_entries_burst(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_stats st;
	unsigned int d, k, n = 0;

	for (d = 0; d < 64; d++) {
		uint16_t id = (uint16_t)(0x7100 + d);

		pkts[n++] = frag8(id, 0, true);
		for (k = 1; k <= 6; k++)
			pkts[n++] = frag8(id, (uint16_t)(16 * k), true);
		pkts[n++] = frag8(id, 800, false);
		if (n == LSK_BURST_MAX) {
			unit_input(f, pkts, (uint16_t)n);
			n = 0;
		}
	}
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 512);
	assert_int_equal(st.ip.ReasmFails, 0);

	for (d = 0; d < 64; d++) {
		pkts[4 * d] = frag8((uint16_t)(0x7100 + d), 808, false);
		add_datagrams(pkts + 4 * d + 1, 3, (uint16_t)(3 * d));
	}
	unit_input(f, pkts, LSK_BURST_MAX);
	assert_int_equal(unit_recv_free(ep, 256), 192);
	st = unit_stats(f);
	assert_int_equal(st.ip.ReasmReqds, 576);
	assert_int_equal(st.ip.ReasmFails, 64);
	assert_int_equal(st.ip.ReasmOKs, 0);
	assert_int_equal(st.udp.InDatagrams, 192);
	assert_int_equal(lsk_reasm_held(f->worker), 0);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
	unit_assert_reasm_balance(&st);
	unit_close(f, ep);
}

/* The same, each packet through the stages alone. */
static void
test_reasm_duplicates_burst_single(void **state)
{
	test_reasm_duplicates_burst(state);
}

static void
test_reasm_spoilt_entries_burst_single(void **state)
{
	test_reasm_spoilt_entries_burst(state);
}

/* Destroying a worker sends what it still holds. */
static void
test_destroy_sends_pending(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m = pkt_to(UNIT_FAR_IP, 1);

	lsk_worker_input(f->worker, &m, 1);
	lsk_worker_destroy(f->worker);
	f->worker = NULL;
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	unit_tx_free(f);
}

/* An empty burst changes no counter but the stage's. */
static void
test_empty_burst(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *none[1] = { NULL };
	struct lsk_stats st;

	unit_input(f, none, 0);
	st = unit_stats(f);
	assert_int_equal(st.eth.InFrames, 0);
	assert_int_equal(st.stages[LSK_STAGE_ETH_INPUT].packets, 0);
	unit_assert_ip(f, (struct lsk_ip_stats){ 0 });
	assert_int_equal(f->tx.calls, 0);
}

/*
 * Table updates wait only for workers that poll: one that has not polled
 * yet, or said lsk_worker_offline, does not hold them up (an alarm turns
 * a hang into a failure).
 */
static void
test_updates_do_not_wait_for_idle_workers(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w1;

	assert_int_equal(lsk_worker_create(f->stack, 1, &w1), 0);
	alarm(20);
	lsk_worker_offline(f->worker);		/* the fixture's has polled */
	assert_int_equal(lsk_route_add(f->stack, UNIT_IPV4(10, 8, 0, 0), 16,
				       LSK_ROUTE_VIA, UNIT_A_IP), 0);
	unit_input_one(f, pkt_to(UNIT_IPV4(10, 8, 0, 1), 1));
	assert_int_equal(unit_tx_udp_to(f, UNIT_P0, 0), 1);
	unit_tx_free(f);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_route_del(f->stack, UNIT_IPV4(10, 8, 0, 0), 16),
			 0);
	alarm(0);
	lsk_worker_destroy(w1);
}

/* Worker ids are unique and bounded; stats add up over workers. */
static void
test_two_workers(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w1, *dup;
	struct rte_mbuf *pkts[3];
	struct lsk_stats st;
	unsigned int i;

	assert_int_equal(lsk_worker_create(f->stack, 0, &dup), -EINVAL);
	assert_int_equal(lsk_worker_create(f->stack, LSK_MAX_WORKERS, &dup),
			 -EINVAL);
	assert_int_equal(lsk_worker_create(f->stack, 1, &w1), 0);
	lsk_worker_set_tx_fn(w1, NULL, NULL);	/* default: ethdev */
	lsk_worker_set_tx_fn(w1, f->worker->tx_fn, &f->tx);

	for (i = 0; i < 3; i++)
		pkts[i] = pkt_to(UNIT_P0_IP, 0);
	unit_input(f, pkts, 3);
	pkts[0] = pkt_to(UNIT_P0_IP, 0);
	pkts[1] = pkt_to(UNIT_FAR_IP, 0);
	lsk_worker_input(w1, pkts, 2);
	lsk_worker_flush(w1);
	assert_int_equal(f->tx.last_queue[UNIT_P1], 1);	/* w1's queue */
	unit_tx_free(f);

	st = unit_stats(f);
	assert_int_equal(st.ip.InDelivers, 4);
	assert_int_equal(st.ip.ForwDatagrams, 1);
	lsk_worker_stats_read(w1, &st);
	assert_int_equal(st.ip.InReceives, 2);
	lsk_worker_destroy(w1);
	/* a destroyed worker's counters are gone from the sum */
	assert_int_equal(unit_stats(f).ip.InReceives, 3);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)
#define TS(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_single, \
						unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list_and_single_agree,
						list_single_setup,
						pair_teardown),
		cmocka_unit_test_setup_teardown(test_gro_on_and_off_agree,
						list_list_setup,
						pair_teardown),
		T(test_tx_hook_capture),
		T(test_tx_refused),
		T(test_sent_on_flush),
		T(test_full_tx_buffer_sent),
		T(test_burst_above_max),
		T(test_reasm_duplicates_burst),
		TS(test_reasm_duplicates_burst_single),
		T(test_reasm_spoilt_entries_burst),
		TS(test_reasm_spoilt_entries_burst_single),
		T(test_destroy_sends_pending),
		T(test_empty_burst),
		T(test_updates_do_not_wait_for_idle_workers),
		T(test_two_workers),
	};

	return cmocka_run_group_tests_name("worker", tests, unit_group_setup,
					   unit_group_teardown);
}
