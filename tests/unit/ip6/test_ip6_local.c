/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_local: what is ours, its extension headers acted on as its
 * destination (destination options, routing headers with segments
 * left), split by upper layer with the upper layer's offset in the meta
 * word: UDP and ICMPv6 handed on (InDelivers), No Next Header taken and
 * ended, anything else answered with parameter problem code 1 pointing
 * at the Next Header byte that named it (InUnknownProtos).
 */
#include <string.h>

#include "unit_common.h"
#include "unit6.h"
#include "unit6_modes.h"

enum want { UDP, ICMP, NONE, PARAM0, PARAM1, PARAM2, HDR };

/* One datagram to P0 through ip6_local alone: what became of it, the
 * offset it was handed on with. */
static enum want
local_of(struct unit_fixture *f, struct unit6_pkt *p, uint32_t *off,
	 uint32_t *ptr)
{
	struct lsk_list l = { .n = 0 }, udp = { .n = 0 }, icmp = { .n = 0 };
	struct lsk_stats before = unit_stats(f), after;
	uint8_t frame[UNIT_FRAME_MAX];
	size_t len = unit6_pkt_build(p, frame, sizeof(frame));
	enum want w;
	bool was_udp;

	lsk_list_push(&l, unit_mbuf_from_bytes(frame, len, p->port), 0);
	lsk_ip6_local(f->worker, &l, &udp, &icmp);
	assert_int_equal(l.n, 0);
	assert_true(udp.n + icmp.n <= 1);
	*off = udp.n ? udp.meta[0] & LSK_META_NH_MASK :
	       icmp.n ? icmp.meta[0] & LSK_META_NH_MASK : 0;
	was_udp = udp.n != 0;
	unit_list_free(&udp);
	unit_list_free(&icmp);
	after = unit_stats(f);
	if (f->worker->icmp6_out.n)
		lsk_icmp6_output(f->worker);
	lsk_worker_flush(f->worker);
	if (after.ip6.InDelivers > before.ip6.InDelivers)
		w = *off == 0 ? NONE : (was_udp ? UDP : ICMP);
	else if (after.ip6.InUnknownProtos > before.ip6.InUnknownProtos)
		w = PARAM1;
	else if (unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_PARAM_PROB, 0))
		w = PARAM0;
	else if (unit6_tx_icmp(f, UNIT_P0, LSK_ICMP6_PARAM_PROB, 2))
		w = PARAM2;
	else
		w = HDR;
	*ptr = UINT32_MAX;
	if (f->tx.n[UNIT_P0] == 1)
		*ptr = get32(rte_pktmbuf_mtod_offset(f->tx.pkts[UNIT_P0][0],
						     const uint8_t *,
						     UNIT_ETH_LEN + 44));
	unit_tx_free(f);
	return w;
}

static void
test_split(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t opt[24] = { 0 };
	struct unit6_pkt p;
	uint32_t off, ptr;

	unit6_configure(f);
	unit6_pkt_init(&p, UNIT6_P0);
	assert_int_equal(local_of(f, &p, &off, &ptr), UDP);
	assert_int_equal(off, 40);
	unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, 0);
	assert_int_equal(local_of(f, &p, &off, &ptr), ICMP);
	assert_int_equal(off, 40);
	/* behind destination options and a finished routing header */
	unit6_pkt_init(&p, UNIT6_P0);
	opt[2] = 1; opt[3] = 4;
	unit6_pkt_ext(&p, 60, opt, 8);
	opt[2] = 4; opt[3] = 0;
	unit6_pkt_ext(&p, 43, opt, 24);
	assert_int_equal(local_of(f, &p, &off, &ptr), UDP);
	assert_int_equal(off, 40 + 8 + 24);
	/* no next header: taken */
	unit6_pkt_init(&p, UNIT6_P0);
	p.proto = 59;
	p.payload_len = 0;
	assert_int_equal(local_of(f, &p, &off, &ptr), NONE);
	/* TCP: parameter problem 1 at the byte that named it */
	p.proto = 6;
	p.payload_len = 20;
	assert_int_equal(local_of(f, &p, &off, &ptr), PARAM1);
	assert_int_equal(ptr, 6);
	memset(opt, 0, sizeof(opt));
	opt[2] = 1; opt[3] = 4;
	unit6_pkt_ext(&p, 60, opt, 8);
	assert_int_equal(local_of(f, &p, &off, &ptr), PARAM1);
	assert_int_equal(ptr, 40);
	/* a routing header with segments left: we route by none */
	unit6_pkt_init(&p, UNIT6_P0);
	opt[2] = 4; opt[3] = 2;
	unit6_pkt_ext(&p, 43, opt, 24);
	assert_int_equal(local_of(f, &p, &off, &ptr), PARAM0);
	assert_int_equal(ptr, 42);
	/* destination options: unknown 10 answered, 01 silent */
	unit6_pkt_init(&p, UNIT6_P0);
	memset(opt, 0, sizeof(opt));
	opt[2] = 0x9f; opt[3] = 4;
	unit6_pkt_ext(&p, 60, opt, 8);
	assert_int_equal(local_of(f, &p, &off, &ptr), PARAM2);
	assert_int_equal(ptr, 42);
	p.ext[2] = 0x5f;
	assert_int_equal(local_of(f, &p, &off, &ptr), HDR);

	assert_int_equal(unit_stats(f).ip6.InDelivers, 4);
	assert_int_equal(unit_stats(f).ip6.InUnknownProtos, 2);
	assert_int_equal(unit_stats(f).ip6.InHdrErrors, 3);
}

/* Packet i of test_list_equals_single's burst: TCP, no next header
 * and echo requests to P0 and P1. */
static struct rte_mbuf *
mixed(unsigned int i)
{
	struct unit6_pkt p;

	unit6_pkt_init(&p, i & 1 ? UNIT6_P1 : UNIT6_P0);
	p.proto = (uint8_t)(i % 3 == 0 ? 6 : i % 3 == 1 ? 59 : 58);
	if (p.proto == 58)
		unit6_pkt_icmp(&p, LSK_ICMP6_ECHO_REQUEST, 0, i);
	return unit6_pkt_mbuf(&p);
}

/* Mixed through the worker in list and single mode: the same frames
 * and counters. */
static void
test_list_equals_single(void **state)
{
	static const struct unit6_icmp_sent sent[] = {
		{ LSK_ICMP6_PARAM_PROB, 1, 3 }, { LSK_ICMP6_ECHO_REPLY, 0, 3 },
	};

	unit6_modes_done(*state, unit6_list_and_single(*state, 9, mixed, sent,
						       RTE_DIM(sent)));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_split),
		T(test_list_equals_single),
	};

	return cmocka_run_group_tests_name("ip6_local", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
