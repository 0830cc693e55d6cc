/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The filter hook (`filter add accept|drop [proto P] [src PFX] [dst PFX]
 * [sport A[-B]] [dport A[-B]]`): before routing, for forwarded and local
 * traffic alike; the first rule that matches decides, no match accepts;
 * protocols, prefixes and port ranges (a non-first fragment has no
 * ports); a drop counts filter.Dropped and ip.InDiscards once per datagram,
 * a whole train included, and is silent.
 */
#include <errno.h>
#include <string.h>

#include <rte_udp.h>

#include "unit_common.h"
#include "ip4/ip4.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

/* What became of one datagram: forwarded ('f'), taken by a local
 * protocol ('l'), or filtered ('x', and nothing was sent). */
static char
fate(struct unit_fixture *f, struct rte_mbuf *m)
{
	struct lsk_stats before = unit_stats(f), after;
	char c = '?';

	unit_input_one(f, m);
	after = unit_stats(f);
	if (after.filter.Dropped == before.filter.Dropped + 1 &&
	    after.ip.InDiscards == before.ip.InDiscards + 1)
		c = 'x';
	else if (after.ip.ForwDatagrams == before.ip.ForwDatagrams + 1)
		c = 'f';
	else if (after.ip.InDelivers == before.ip.InDelivers + 1)
		c = 'l';
	if (c == 'x')
		assert_int_equal(unit_tx_count(f), 0);	/* silently */
	unit_tx_free(f);
	return c;
}

static struct rte_mbuf *
udp(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
	struct unit_pkt p;

	unit_pkt_init(&p, dst);
	p.src = src;
	p.sport = sport;
	p.dport = dport;
	p.payload_len = 18;
	return unit_pkt_mbuf(&p);
}

static struct rte_mbuf *
echo(uint32_t dst)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, dst);
	p.payload_len = 32;
	len = unit_icmp_build(&p, 8, 0, 0x12340001, b, sizeof(b));
	return unit_mbuf_from_bytes(b, len, UNIT_P0);
}

/* The first rule that matches decides; with no rule, accept. */
static void
test_first_match_wins(void **state)
{
	struct unit_fixture *f = *state;

	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 3000)),
			 'f');
	unit_cmd(f, "filter add accept proto udp dport 2000");
	unit_cmd(f, "filter add drop proto udp");
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 2000)),
			 'f');
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 3000)),
			 'x');
	/* ICMP matches neither: accepted by default, and answered */
	assert_int_equal(fate(f, echo(UNIT_P0_IP)), 'l');

	/* the other way round, the drop comes first */
	unit_cmd(f, "filter flush");
	unit_cmd(f, "filter add drop proto udp");
	unit_cmd(f, "filter add accept proto udp dport 2000");
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 2000)),
			 'x');
	/* flushed: everything passes again */
	unit_cmd(f, "filter flush");
	assert_null(f->stack->sh.filter);
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 2000)),
			 'f');
	assert_int_equal(unit_stats(f).filter.Dropped, 2);
}

/* Rules about something else accept everything else. */
static void
test_default_accept(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "filter add drop proto tcp");
	unit_cmd(f, "filter add drop proto udp src 192.168.0.0/16");
	unit_cmd(f, "filter add accept dst 10.9.0.0/16");
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1, 2)), 'f');
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_B_IP, 1, 2)), 'f');
	assert_int_equal(fate(f, echo(UNIT_P0_IP)), 'l');
	assert_int_equal(unit_stats(f).filter.Dropped, 0);
}

/* proto by name and by number: ICMP, and a protocol no one handles
 * (dropped before it could be answered with protocol unreachable). */
static void
test_protocols(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	struct rte_mbuf *m;

	unit_cmd(f, "filter add drop proto icmp");
	unit_cmd(f, "filter add drop proto 253");
	assert_int_equal(fate(f, echo(UNIT_P0_IP)), 'x');
	assert_int_equal(unit_stats(f).icmp.InMsgs, 0);
	unit_pkt_init(&p, UNIT_P0_IP);
	p.proto = 253;
	m = unit_pkt_mbuf(&p);
	assert_int_equal(fate(f, m), 'x');
	assert_int_equal(unit_stats(f).ip.InUnknownProtos, 0);
	p.proto = 254;					/* not filtered */
	unit_input_pkt(f, &p);
	assert_int_equal(unit_stats(f).ip.InUnknownProtos, 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 2), 1);
	unit_tx_free(f);
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1, 2)), 'f');
}

/* Source and destination prefixes, /32 and /0 included. */
static void
test_prefixes(void **state)
{
	struct unit_fixture *f = *state;
	const uint32_t h20 = UNIT_IPV4(10, 0, 0, 20);

	unit_cmd(f, "filter add drop src 10.0.0.0/28");
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1, 2)), 'x');
	assert_int_equal(fate(f, udp(UNIT_IPV4(10, 0, 0, 15), UNIT_FAR_IP, 1,
				     2)), 'x');
	assert_int_equal(fate(f, udp(h20, UNIT_FAR_IP, 1, 2)), 'f');

	unit_cmd(f, "filter flush");
	unit_cmd(f, "filter add drop dst 10.9.0.0/16");
	unit_cmd(f, "filter add drop dst 10.0.1.1/32");
	assert_int_equal(fate(f, udp(h20, UNIT_FAR_IP, 1, 2)), 'x');
	assert_int_equal(fate(f, udp(h20, UNIT_IPV4(10, 9, 255, 255), 1, 2)),
			 'x');
	assert_int_equal(fate(f, udp(h20, UNIT_B_IP, 1, 2)), 'x');
	unit_cmd(f, "neigh add 10.0.1.2 lladdr 02:00:00:00:01:02");
	assert_int_equal(fate(f, udp(h20, UNIT_IPV4(10, 0, 1, 2), 1, 2)),
			 'f');

	unit_cmd(f, "filter flush");
	unit_cmd(f, "filter add accept src 10.0.0.20/32");
	unit_cmd(f, "filter add drop dst 0.0.0.0/0");
	assert_int_equal(fate(f, udp(h20, UNIT_FAR_IP, 1, 2)), 'f');
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1, 2)), 'x');
	assert_int_equal(fate(f, echo(UNIT_P0_IP)), 'x');
}

/* Port ranges, their ends included; both ports at once. */
static void
test_port_ranges(void **state)
{
	static const struct {
		uint16_t sport, dport;
		char fate;
	} cases[] = {
		{ 999, 53, 'f' }, { 1000, 53, 'x' }, { 1003, 53, 'x' },
		{ 1005, 53, 'x' }, { 1006, 53, 'f' },
		{ 7, 5000, 'x' }, { 7, 4999, 'f' }, { 7, 5001, 'f' },
		{ 2000, 6000, 'x' }, { 2000, 6001, 'f' }, { 2001, 6000, 'f' },
		{ 65535, 1, 'x' },
	};
	struct unit_fixture *f = *state;
	unsigned int i;

	unit_cmd(f, "filter add drop proto udp sport 1000-1005");
	unit_cmd(f, "filter add drop proto udp dport 5000");
	unit_cmd(f, "filter add drop proto udp sport 2000 dport 6000");
	unit_cmd(f, "filter add drop proto udp sport 65535");
	for (i = 0; i < RTE_DIM(cases); i++) {
		char got = fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, cases[i].sport,
				       cases[i].dport));

		if (got != cases[i].fate)
			fail_msg("%u -> %u: '%c', expected '%c'",
				 cases[i].sport, cases[i].dport, got,
				 cases[i].fate);
	}
	assert_int_equal(unit_stats(f).filter.Dropped, 6);
}

/* A fragment after the first has no ports to match: a port rule lets it
 * pass, a protocol rule does not. */
static void
test_later_fragments_have_no_ports(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_cmd(f, "filter add drop proto udp dport 2000");
	unit_pkt_init(&p, UNIT_FAR_IP);
	p.df = false;
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[7] = 185;				/* offset 1480, last */
	unit_ip4_fix_cksum(IP(b));
	assert_int_equal(fate(f, unit_mbuf_from_bytes(b, len, UNIT_P0)), 'f');
	IP(b)[6] = 0x20;			/* first (MF): has ports */
	IP(b)[7] = 0;
	unit_ip4_fix_cksum(IP(b));
	assert_int_equal(fate(f, unit_mbuf_from_bytes(b, len, UNIT_P0)), 'x');
	unit_cmd(f, "filter add drop proto udp");
	IP(b)[6] = 0;
	IP(b)[7] = 185;
	unit_ip4_fix_cksum(IP(b));
	assert_int_equal(fate(f, unit_mbuf_from_bytes(b, len, UNIT_P0)), 'x');
}

/* Datagrams for us are filtered too (before routing): no NoPorts, no
 * port unreachable. */
static void
test_locals_filtered(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;

	unit_cmd(f, "filter add drop dst 10.0.0.254/32");
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_P0_IP, 1, 3999)), 'x');
	st = unit_stats(f);
	assert_int_equal(st.udp.NoPorts, 0);
	assert_int_equal(st.ip.InDelivers, 0);
	unit_assert_ip_balance(&st);
}

/*
 * A train is classified once but counted per datagram: with GRO on and
 * off (then on the fast path), a dropped flow of 5 counts 5 in
 * filter.Dropped and ip.InDiscards, and the counters balance.
 */
static void
test_train_counts_every_datagram(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[8];
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int round, i;

	unit_cmd(f, "filter add drop proto udp dport 3000");
	for (round = 0; round < 2; round++) {
		if (round == 1)
			unit_cmd(f, "gro fraglist flows 64 segs 64");
		for (i = 0; i < 8; i++) {
			unit_pkt_init(&p, UNIT_FAR_IP);
			p.dport = i < 5 ? 3000 : 2000;
			p.id = (uint16_t)i;
			pkts[i] = unit_pkt_mbuf(&p);
		}
		unit_input(f, pkts, 8);
		assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 3);
		assert_int_equal(unit_tx_count(f), 3);
		unit_tx_free(f);
		st = unit_stats(f);
		assert_int_equal(st.filter.Dropped, 5 * (round + 1));
		assert_int_equal(st.ip.InDiscards, 5 * (round + 1));
		assert_int_equal(st.ip.ForwDatagrams, 3 * (round + 1));
		unit_assert_ip_balance(&st);
	}
	assert_int_equal(st.gro.Trains, 2);
	/* round 0 on the fast path (fwd_fast.c classifies there), round 1
	 * in the stages: two trains, one entry each */
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 8);
	assert_int_equal(st.stages[LSK_STAGE_IP4_FILTER].packets, 2);
}

/* The 16 datagrams of test_list_classified_alike: fates fxfx... */
static void
mixed_burst(struct rte_mbuf **m)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		m[i] = udp(i % 4 == 1 ? UNIT_IPV4(192, 168, 0, 9) : UNIT_A_IP,
			   UNIT_FAR_IP, (uint16_t)(1000 + i),
			   i % 4 == 3 ? 3000 : 2000);
}

/*
 * A list of one to three is classified by rte_acl's scalar code, a
 * longer one by its vector code: the same datagrams get the same fates
 * one at a time as in one 16-datagram list.
 */
static void
test_list_classified_alike(void **state)
{
	static const char want[] = "fxfxfxfxfxfxfxfx";
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[16];
	struct lsk_stats before, after;
	char got[17];
	unsigned int i;

	unit_cmd(f, "filter add drop proto udp src 192.168.0.0/16");
	unit_cmd(f, "filter add drop proto udp dport 3000");
	mixed_burst(m);
	for (i = 0; i < 16; i++)
		got[i] = fate(f, m[i]);
	got[16] = '\0';
	assert_string_equal(got, want);

	mixed_burst(m);
	before = unit_stats(f);
	unit_input(f, m, 16);
	after = unit_stats(f);
	assert_int_equal(after.filter.Dropped - before.filter.Dropped, 8);
	assert_int_equal(after.ip.ForwDatagrams - before.ip.ForwDatagrams, 8);
	assert_int_equal(f->tx.n[UNIT_P1], 8);
	for (i = 0; i < 8; i++)	/* the even ones, in order */
		assert_int_equal(rte_be_to_cpu_16(((struct rte_udp_hdr *)(
			unit_ip4(f->tx.pkts[UNIT_P1][i]) + 1))->src_port),
			1000 + 2 * i);
	unit_tx_free(f);
}

/*
 * Finding 9: a rule whose classifier cannot be built (EAL memory used
 * up) is refused with -ENOMEM and changes nothing: the rules in force
 * still decide, and the refused rule was not kept.
 */
static void
test_add_without_memory_changes_nothing(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_filter_table *before;
	size_t heap;

	unit_cmd(f, "filter add drop proto udp dport 3000");
	before = f->stack->sh.filter;
	heap = unit_heap_allocated();
	unit_eat_memory();
	assert_int_equal(unit_cmd_rc(f, "filter add drop proto udp dport "
				     "2000"), -ENOMEM);
	assert_ptr_equal(f->stack->sh.filter, before);
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 2000)),
			 'f');
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 3000)),
			 'x');
	unit_free_memory();
	assert_int_equal(unit_heap_allocated(), heap);
	assert_int_equal(f->stack->n_filters, 1);
	unit_cmd(f, "filter flush");
	assert_int_equal(fate(f, udp(UNIT_A_IP, UNIT_FAR_IP, 1000, 3000)),
			 'f');
}

/* A datagram from A to UNIT_FAR_IP after the first fragment: its key
 * has no ports (0). */
static struct rte_mbuf *
later_fragment(void)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_FAR_IP);
	p.df = false;
	p.dport = 2000;
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[7] = 185;				/* offset 1480, last */
	unit_ip4_fix_cksum(IP(b));
	return unit_mbuf_from_bytes(b, len, UNIT_P0);
}

/* test_screen_edges' datagrams: UDP from src to dst, dport; ICMP echo
 * to dst when dport is ECHO; the later fragment when dst is 0. */
#define ECHO 0
static const struct {
	uint32_t src, dst;
	uint16_t dport;
	char fate;
} screen_cases[] = {
	/* src 32.0.0.0/3, any protocol: its first and last address */
	{ UNIT_IPV4(32, 0, 0, 0), UNIT_FAR_IP, 2000, 'x' },
	{ UNIT_IPV4(63, 255, 255, 255), UNIT_FAR_IP, 2000, 'x' },
	{ UNIT_IPV4(31, 255, 255, 255), UNIT_FAR_IP, 2000, 'f' },
	{ UNIT_IPV4(64, 0, 0, 0), UNIT_FAR_IP, 2000, 'f' },
	/* dst 12.0.0.0/6, any protocol */
	{ UNIT_A_IP, UNIT_IPV4(12, 0, 0, 0), 2000, 'x' },
	{ UNIT_A_IP, UNIT_IPV4(15, 255, 255, 255), 2000, 'x' },
	{ UNIT_A_IP, UNIT_IPV4(15, 255, 255, 255), ECHO, 'x' },
	{ UNIT_A_IP, UNIT_IPV4(11, 255, 255, 255), 2000, 'f' },
	{ UNIT_A_IP, UNIT_IPV4(16, 0, 0, 0), 2000, 'f' },
	{ UNIT_A_IP, UNIT_IPV4(16, 0, 0, 0), ECHO, 'f' },
	/* dport 255-256 (high bytes 0 and 1), 65280-65535 (255) */
	{ UNIT_A_IP, UNIT_FAR_IP, 255, 'x' },
	{ UNIT_A_IP, UNIT_FAR_IP, 256, 'x' },
	{ UNIT_A_IP, UNIT_FAR_IP, 254, 'f' },
	{ UNIT_A_IP, UNIT_FAR_IP, 257, 'f' },
	{ UNIT_A_IP, UNIT_FAR_IP, 65280, 'x' },
	{ UNIT_A_IP, UNIT_FAR_IP, 65535, 'x' },
	{ UNIT_A_IP, UNIT_FAR_IP, 65279, 'f' },
	/* dport 0-3: a later fragment, whose key has port 0 */
	{ UNIT_A_IP, 0, 0, 'x' },
	{ UNIT_A_IP, UNIT_FAR_IP, 4, 'f' },
};

/* Case i of screen_cases as a frame from P0. */
static struct rte_mbuf *
screen_case(unsigned int i)
{
	if (screen_cases[i].dst == 0)
		return later_fragment();
	if (screen_cases[i].dport == ECHO)
		return echo(screen_cases[i].dst);
	return udp(screen_cases[i].src, screen_cases[i].dst, 1000,
		   screen_cases[i].dport);
}

/*
 * The screen (struct lsk_filter_screen, ip4/ip4.h) lets a datagram that
 * no rule can match skip rte_acl: it must let through every one a rule
 * matches. At its edges, on the fast path (list mode) and in the stages
 * (single mode): the first and last addresses of prefixes shorter than
 * /8, a source's and a destination's, with any protocol (ICMP too); port
 * ranges across a high byte and to 65535; port 0, a later fragment's.
 * Beside them, what the rules just miss is forwarded. One at a time
 * (a burst to one destination, screened once) and all in one burst.
 */
static void
test_screen_edges(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *burst[RTE_DIM(screen_cases)];
	struct lsk_stats before, after;
	unsigned int round, i, dropped = 0;

	unit_cmd(f, "route add 0.0.0.0/0 via 10.0.1.1");
	unit_cmd(f, "filter add drop src 32.0.0.0/3");
	unit_cmd(f, "filter add drop dst 12.0.0.0/6");
	unit_cmd(f, "filter add drop proto udp dport 255-256");
	unit_cmd(f, "filter add drop proto udp dport 65280-65535");
	unit_cmd(f, "filter add drop proto udp dport 0-3");
	for (round = 0; round < 2; round++) {
		if (round == 1)
			unit_cmd(f, "mode single");
		before = unit_stats(f);
		for (i = 0; i < RTE_DIM(screen_cases); i++) {
			char got = fate(f, screen_case(i));

			if (got != screen_cases[i].fate)
				fail_msg("round %u case %u: '%c', expected "
					 "'%c'", round, i, got,
					 screen_cases[i].fate);
			dropped += got == 'x';
		}
		after = unit_stats(f);
		assert_int_equal(after.filter.Dropped, dropped);
		/* round 0 all on the fast path, round 1 all in the stages */
		assert_int_equal(after.stages[LSK_STAGE_FWD_FAST].packets -
				 before.stages[LSK_STAGE_FWD_FAST].packets,
				 round == 0 ? RTE_DIM(screen_cases) : 0);
		assert_int_equal(after.stages[LSK_STAGE_IP4_FILTER].packets -
				 before.stages[LSK_STAGE_IP4_FILTER].packets,
				 round == 0 ? 0 : RTE_DIM(screen_cases));
	}
	assert_int_equal(dropped, 2 * 10);

	/* all in one burst: to many destinations, screened one by one */
	unit_cmd(f, "mode list");
	for (i = 0; i < RTE_DIM(screen_cases); i++)
		burst[i] = screen_case(i);
	before = unit_stats(f);
	unit_input(f, burst, RTE_DIM(screen_cases));
	after = unit_stats(f);
	assert_int_equal(after.filter.Dropped - before.filter.Dropped, 10);
	assert_int_equal(after.ip.ForwDatagrams - before.ip.ForwDatagrams,
			 RTE_DIM(screen_cases) - 10);
	assert_int_equal(after.stages[LSK_STAGE_FWD_FAST].packets -
			 before.stages[LSK_STAGE_FWD_FAST].packets,
			 RTE_DIM(screen_cases));
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_first_match_wins),
		T(test_default_accept),
		T(test_protocols),
		T(test_prefixes),
		T(test_port_ranges),
		T(test_later_fragments_have_no_ports),
		T(test_locals_filtered),
		T(test_train_counts_every_datagram),
		T(test_list_classified_alike),
		T(test_add_without_memory_changes_nothing),
		T(test_screen_edges),
	};

	return cmocka_run_group_tests_name("filter", tests, unit_group_setup,
					   unit_group_teardown);
}
