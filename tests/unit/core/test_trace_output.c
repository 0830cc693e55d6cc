/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace and capture, what ip4_output cannot send: an echo request's
 * reply is the traced packet itself, routed back by ip4_output (in the
 * burst, or in worker 0's flush). Whatever becomes of it there ends its
 * trace as a drop anywhere else would: no route back (nothing counted,
 * as Linux's icmp_reply gives up at its route lookup), a blackhole route
 * back (ip.OutDiscards); or it leaves as fragments (an echo reply never
 * has DF). A drop capture holds the counted drops, named, and those of
 * the datagrams the stack sends too (no route, a blackhole).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit_common.h"
#include "core/trace.h"
#include "trace_records.h"
#include "cli/cli.h"

/* The only ended packet of worker 0's records (asserts there is one). */
static const struct lsk_trace_pkt *
the_ended(struct unit_fixture *f)
{
	const struct lsk_trace *t = f->stack->sh.trace;
	const struct lsk_trace_pkt *p = NULL;
	unsigned int j, n = 0;

	assert_non_null(t);
	for (j = 0; j < LSK_TRACE_PKTS; j++) {
		if (t->w[0].pkt[j].state == LSK_TRACE_OPEN ||
		    t->w[0].pkt[j].state == LSK_TRACE_HELD)
			fail_msg("a packet in flight");
		if (t->w[0].pkt[j].state == LSK_TRACE_DONE) {
			p = &t->w[0].pkt[j];
			n++;
		}
	}
	if (n != 1)
		fail_msg("%u packets ended", n);
	return p;
}

/* An echo request from src to our address on port, traced. */
static void
echo_traced(struct unit_fixture *f, uint16_t port, uint32_t src,
	    uint16_t payload, bool df)
{
	uint8_t buf[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, port == UNIT_P0 ? UNIT_P0_IP : UNIT_P1_IP);
	p.port = port;
	if (port == UNIT_P1) {
		p.dst_mac = unit_p1_mac;
		p.src_mac = (struct rte_ether_addr){
			.addr_bytes = { 2, 0, 0, 0, 1, 1 } };
	}
	p.src = src;
	p.payload_len = payload;
	p.df = df;
	len = unit_icmp_build(&p, 8, 0, 1u << 16 | 1, buf, sizeof(buf));
	assert_true(len > 0);
	unit_cmd(f, "trace add 1");
	unit_input_one(f, unit_mbuf_from_bytes(buf, len, port));
}

#define ECHO_STAGES "rx eth_input ip4_input ip4_route icmp4_input"

static void
test_echo_sent(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_trace_pkt *t;

	echo_traced(f, UNIT_P0, UNIT_A_IP, 32, false);
	t = the_ended(f);
	assert_string_equal(stages(t), ECHO_STAGES " tx");
	assert_string_equal(last_text(t), "port 0 queue 0");
	assert_int_equal(unit_stats(f).icmp.OutEchoReps, 1);
	unit_tx_free(f);
}

static void
test_echo_no_route_back(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_trace_pkt *t;

	echo_traced(f, UNIT_P0, UNIT_IPV4(172, 16, 0, 1), 32, false);
	assert_int_equal(unit_tx_count(f), 0);
	t = the_ended(f);
	assert_string_equal(stages(t), ECHO_STAGES " drop");
	assert_string_equal(last_text(t), "uncounted");
}

static char path[128];

/* The drop capture holds name once (its bytes, the packet's comment). */
static void
capture_check(struct unit_fixture *f, const char *name)
{
	static uint8_t buf[1 << 16];
	size_t len, i, hits = 0, n = strlen(name);
	FILE *fp;

	unit_cmd(f, "capture stop");
	fp = fopen(path, "rb");
	assert_non_null(fp);
	len = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	for (i = 0; i + n <= len; i++)
		hits += memcmp(buf + i, name, n) == 0;
	if (hits != 1)
		fail_msg("%zu drops named %s in the capture", hits, name);
	unlink(path);
}

static void
capture_start(struct unit_fixture *f)
{
	char line[256];

	snprintf(path, sizeof(path), "/tmp/lsk-test-trace-out-%d.pcapng",
		 (int)getpid());
	unlink(path);
	snprintf(line, sizeof(line), "capture start %s drop", path);
	unit_cmd(f, line);
}

static void
test_echo_blackhole_back(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_trace_pkt *t;

	unit_cmd(f, "route add 192.0.2.0/24 blackhole");
	capture_start(f);
	echo_traced(f, UNIT_P0, UNIT_IPV4(192, 0, 2, 5), 32, false);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(unit_stats(f).ip.OutDiscards, 1);
	t = the_ended(f);
	assert_string_equal(stages(t), ECHO_STAGES " drop");
	assert_string_equal(last_text(t), "ip.OutDiscards");
	capture_check(f, "ip.OutDiscards");
}

/* Over the MTU back: an echo reply never has DF (icmp4.c), so it leaves
 * in fragments, which end its trace. */
static void
test_echo_fragmented_back(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_trace_pkt *t;

	unit_cmd(f, "port 1 mtu 1000");
	echo_traced(f, UNIT_P1, UNIT_B_IP, 1200, true);
	assert_int_equal(unit_tx_count(f), 2);
	assert_int_equal(unit_stats(f).ip.FragCreates, 2);
	t = the_ended(f);
	assert_string_equal(stages(t), ECHO_STAGES " ip4_output");
	assert_string_equal(last_text(t), "1228 bytes over mtu 1000, DF "
			    "clear: fragmented into 2");
	unit_tx_free(f);
}

/* Datagrams the stack sends (worker 0's ip4_output): no route and a
 * blackhole are drops in a drop capture, named, as a forwarded packet's
 * are. */
static void
test_sends_dropped(void **state)
{
	static uint8_t payload[10];
	struct unit_fixture *f = *state;
	struct lsk_udp_bind_opts o = { .pool = unit_pool,
				       .socket_id = SOCKET_ID_ANY };
	struct lsk_udp_msg m = { .dst_port = 7000, .len = sizeof(payload),
				 .payload = payload };
	struct lsk_udp_ep *ep = unit_bind(f, 0, 6000, &o);

	unit_cmd(f, "route add 192.0.2.0/24 blackhole");
	capture_start(f);
	m.dst_addr = UNIT_IPV4(172, 16, 0, 1);
	assert_int_equal(lsk_udp_send_burst(ep, &m, 1), 1);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_stats(f).ip.OutNoRoutes, 1);
	capture_check(f, "ip.OutNoRoutes");
	capture_start(f);
	m.dst_addr = UNIT_IPV4(192, 0, 2, 9);
	assert_int_equal(lsk_udp_send_burst(ep, &m, 1), 1);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_stats(f).ip.OutDiscards, 1);
	capture_check(f, "ip.OutDiscards");
	assert_int_equal(unit_tx_count(f), 0);
	unit_close(f, ep);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_echo_sent),
		T(test_echo_no_route_back),
		T(test_echo_blackhole_back),
		T(test_echo_fragmented_back),
		T(test_sends_dropped),
	};

	return cmocka_run_group_tests_name("trace_output", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
