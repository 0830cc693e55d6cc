/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trace filters by IPv6 address (cli/trace_cmd.c, core/trace.c's
 * trace_match6): `trace add N match src|dst ADDR6[/LEN]` takes only the
 * IPv6 packets it names (a prefix by its bits, not whole bytes), proto
 * icmp6 and ports behind the IPv6 header; an IPv4 address takes no IPv6
 * packet nor the other way round; mixing the families, a bad address or
 * length is refused and leaves the trace as it was. A GRO'd train of
 * UDP over IPv6 is traced as IPv4's (core/test_trace.c, test_train):
 * each datagram its own trace with its place in the train, and a
 * datagram that stays alone says why.
 */
#include <string.h>

#include "unit_common.h"
#include "unit6.h"
#include "core/trace.h"
#include "../core/trace_records.h"

static int
setup(void **state)
{
	int rc = unit_setup_list(state);

	if (rc == 0)
		unit6_configure(*state);
	return rc;
}

/* n packets from A: to dst, UDP to dport or (dport 0) an ICMPv6 echo */
static void
send6(struct unit_fixture *f, struct lsk_ip6_addr dst, uint16_t dport)
{
	struct unit6_pkt p;

	unit6_pkt_init(&p, dst);
	if (dport == 0)
		unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, 0x10001);
	else
		p.dport = dport;
	unit_input_one(f, unit6_pkt_mbuf(&p));
	unit_tx_free(f);
}

static void
send4(struct unit_fixture *f)
{
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	unit_tx_free(f);
}

static uint64_t
claimed(const struct unit_fixture *f)
{
	return f->stack->sh.trace->claimed;
}

static void
test_dst_prefix(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "trace add 100 match dst 2001:db8:9::/48");
	send6(f, UNIT6_FAR, 2000);		/* 2001:db8:9::5: taken */
	send6(f, UNIT6_FAR, 0);			/* taken */
	send6(f, UNIT6_B, 2000);		/* 2001:db8:1::1 */
	send4(f);
	assert_int_equal(claimed(f), 2);
	/* an IPv4 prefix takes no IPv6 packet */
	unit_cmd(f, "trace add 100 match src 10.0.0.0/8");
	send6(f, UNIT6_FAR, 2000);
	assert_int_equal(claimed(f), 0);
	send4(f);
	assert_int_equal(claimed(f), 1);
}

static void
test_src_proto_ports(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "trace add 100 match src 2001:db8::1 proto udp dport "
		 "2000");
	send6(f, UNIT6_FAR, 2000);		/* taken */
	send6(f, UNIT6_FAR, 2001);
	send6(f, UNIT6_FAR, 0);
	assert_int_equal(claimed(f), 1);
	unit_cmd(f, "trace add 100 match proto icmp6");
	send6(f, UNIT6_FAR, 0);			/* taken */
	send6(f, UNIT6_FAR, 2000);
	send4(f);
	assert_int_equal(claimed(f), 1);
}

/* A prefix's bits past a byte: ::ff/120 covers A (::1), /121 (::80 to
 * ::ff) does not; the host bits given are cleared, not compared. */
static void
test_prefix_bits(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "trace add 100 match src 2001:db8::ff/120");
	send6(f, UNIT6_FAR, 2000);
	assert_int_equal(claimed(f), 1);
	unit_cmd(f, "trace add 100 match src 2001:db8::ff/121");
	send6(f, UNIT6_FAR, 2000);
	assert_int_equal(claimed(f), 0);
	unit_cmd(f, "trace add 100 match src ::/0 dst 2001:db8:9::5");
	send6(f, UNIT6_FAR, 2000);
	send6(f, UNIT6_B, 2000);
	assert_int_equal(claimed(f), 1);
}

static void
test_refused(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "trace add 7 match dst 2001:db8:9::/48");
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 match src "
					 "2001:db8::1 dst 10.0.0.1"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 match src "
					 "10.0.0.1 dst 2001:db8::1"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 match src "
					 "2001:db8::/129"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 match dst "
					 "2001:::1"), 0);
	assert_int_equal(f->stack->sh.trace->budget, 7);
}

/* Four datagrams of one flow become one train: each its own trace, its
 * position in the train, its own segment out and its own tx. */
static void
test_train(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[4];
	unsigned int i;

	unit_cmd(f, "gro fraglist flows 64 segs 64");
	unit_cmd(f, "trace add 4");
	for (i = 0; i < 4; i++) {
		struct unit6_pkt p;

		unit6_pkt_init(&p, UNIT6_FAR);
		p.payload_len = 200;
		m[i] = unit6_pkt_mbuf(&p);
	}
	unit_input(f, m, 4);
	assert_int_equal(f->tx.n[UNIT_P1], 4);
	assert_null(ended(f, 4));
	for (i = 0; i < 4; i++) {
		const struct lsk_trace_pkt *t = ended(f, i);
		char want[64];

		assert_non_null(t);
		/* IPv4's, and ND's record (IPv4's next hop has its MAC in
		 * the forwarding table): every member meets ip6_input,
		 * ip6_route and ip6_forward with its head, as IPv4's */
		assert_string_equal(stages(t), "rx eth_input udp6_gro "
				    "ip6_input ip6_route ip6_forward gso neigh "
				    "tx");
		/* the members' own headers, the head's path */
		assert_non_null(strstr(text_of(t, "ip6_route"),
				       "via 2001:db8:1::1 iface 1"));
		assert_string_equal(text_of(t, "ip6_forward"), "hlim 64 -> 63");
		snprintf(want, sizeof(want), "train of 4, position %u", i + 1);
		assert_string_equal(text_of(t, "udp6_gro"), want);
		snprintf(want, sizeof(want), "segment %u of 4", i + 1);
		assert_string_equal(text_of(t, "gso"), want);
		/* ND asked once, for the head; the members went on its
		 * answer (udp/udp6_gso.c) */
		if (i == 0)
			assert_null(strstr(text_of(t, "neigh"), "train"));
		else
			assert_non_null(strstr(text_of(t, "neigh"),
					       "sent with its train's head"));
		assert_string_equal(last_text(t), "port 1 queue 0");
	}
	unit_tx_free(f);
}

/* What stays alone says why, as IPv4's (gro_run.h's shapes): a datagram
 * of another flow, a fragment, another extension header. */
static void
test_alone(void **state)
{
	static const uint8_t frag[8] = { 0, 0, 0, 0, 0, 0, 0, 9 };
	static const uint8_t dst_opts[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };
	static const char *const want[3] = {
		"alone: no datagram of its flow beside it",
		"alone: a fragment",
		"alone: an extension header",
	};
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[3];
	struct unit6_pkt p;
	unsigned int i;

	unit_cmd(f, "gro fraglist flows 64 segs 64");
	unit_cmd(f, "trace add 3");
	unit6_pkt_init(&p, UNIT6_FAR);
	m[0] = unit6_pkt_mbuf(&p);
	unit6_pkt_ext(&p, 44, frag, sizeof(frag));
	p.sport = 1001;
	m[1] = unit6_pkt_mbuf(&p);
	unit6_pkt_init(&p, UNIT6_FAR);
	p.sport = 1002;
	unit6_pkt_ext(&p, 60, dst_opts, sizeof(dst_opts));
	m[2] = unit6_pkt_mbuf(&p);
	unit_input(f, m, 3);
	for (i = 0; i < 3; i++) {
		const struct lsk_trace_pkt *t = ended(f, i);

		assert_non_null(t);
		assert_string_equal(text_of(t, "udp6_gro"), want[i]);
	}
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_dst_prefix),
		T(test_src_proto_ports),
		T(test_prefix_bits),
		T(test_refused),
		T(test_train),
		T(test_alone),
	};

	return cmocka_run_group_tests_name("trace6", tests, unit_group_setup,
					   unit_group_teardown);
}
