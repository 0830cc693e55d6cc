/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What `ping` and `traceroute` write (cli/ping_show.c), checked whole:
 * Linux's lines (replies, errors, the summary; hops with `*` for a probe
 * unanswered) and the JSON objects; IPv6's as ping6 and traceroute6
 * write theirs.
 */
#include <arpa/inet.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "cli/ping.h"

#define A(a, b, c, d) UNIT_IPV4(a, b, c, d)

static void
ping_result(struct cmd_ping_result *r)
{
	memset(r, 0, sizeof(*r));
	r->dst = A(10, 0, 0, 1);
	r->src = A(10, 0, 0, 254);
	r->size = 56;
	r->transmitted = 4;
	r->n = 3;
	r->answers[0] = (struct cmd_ping_answer){ .from = A(10, 0, 0, 1),
		.seq = 1, .bytes = 64, .ttl = 64, .ms = 0.25 };
	r->answers[1] = (struct cmd_ping_answer){ .from = A(10, 0, 0, 1),
		.seq = 3, .bytes = 64, .ttl = 64, .ms = 0.75 };
	r->answers[2] = (struct cmd_ping_answer){ .from = A(10, 0, 1, 2),
		.seq = 4, .bytes = 36, .type = 3, .code = 1, .ttl = 63 };
}

static void
test_ping_text(void **state)
{
	struct cmd_ping_result r;
	struct lsk_out o;

	(void)state;
	ping_result(&r);
	lsk_out_init(&o, false);
	assert_int_equal(cmd_ping_write(&o, &r), 0);
	assert_string_equal(o.buf,
		"PING 10.0.0.1 from 10.0.0.254: 56 data bytes\n"
		"64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.250 ms\n"
		"64 bytes from 10.0.0.1: icmp_seq=3 ttl=64 time=0.750 ms\n"
		"From 10.0.1.2 icmp_seq=4 Destination Host Unreachable\n"
		"\n--- 10.0.0.1 ping statistics ---\n"
		"4 packets transmitted, 2 received, +1 errors, "
		"50% packet loss\n"
		"rtt min/avg/max = 0.250/0.500/0.750 ms\n");
	lsk_out_free(&o);
}

static void
test_ping_json(void **state)
{
	struct cmd_ping_result r;
	struct lsk_out o;

	(void)state;
	ping_result(&r);
	lsk_out_init(&o, true);
	assert_int_equal(cmd_ping_write(&o, &r), 0);
	assert_string_equal(o.buf,
		"{\"destination\": \"10.0.0.1\", \"source\": \"10.0.0.254\", "
		"\"size\": 56, \"replies\": [{\"bytes\": 64, \"from\": "
		"\"10.0.0.1\", \"icmp_seq\": 1, \"ttl\": 64, \"time_ms\": "
		"0.250}, {\"bytes\": 64, \"from\": \"10.0.0.1\", "
		"\"icmp_seq\": 3, \"ttl\": 64, \"time_ms\": 0.750}], "
		"\"errors\": [{\"from\": \"10.0.1.2\", \"icmp_seq\": 4, "
		"\"type\": 3, \"code\": 1, \"text\": \"Destination Host "
		"Unreachable\"}], \"transmitted\": 4, \"received\": 2, "
		"\"loss_percent\": 50, \"rtt_min_ms\": 0.250, "
		"\"rtt_avg_ms\": 0.500, \"rtt_max_ms\": 0.750}\n");
	lsk_out_free(&o);
}

/* Nothing came back: 100 % loss and no rtt line. */
static void
test_ping_all_lost(void **state)
{
	struct cmd_ping_result r;
	struct lsk_out o;

	(void)state;
	ping_result(&r);
	r.n = 0;
	r.transmitted = 2;
	lsk_out_init(&o, false);
	assert_int_equal(cmd_ping_write(&o, &r), 0);
	assert_string_equal(o.buf,
		"PING 10.0.0.1 from 10.0.0.254: 56 data bytes\n"
		"\n--- 10.0.0.1 ping statistics ---\n"
		"2 packets transmitted, 0 received, 100% packet loss\n");
	lsk_out_free(&o);
	lsk_out_init(&o, true);
	assert_int_equal(cmd_ping_write(&o, &r), 0);
	assert_non_null(strstr(o.buf, "\"replies\": [], \"errors\": [], "
			       "\"transmitted\": 2, \"received\": 0, "
			       "\"loss_percent\": 100, \"rtt_min_ms\": null"));
	lsk_out_free(&o);
}

static void
trace_result(struct cmd_trace_result *r)
{
	memset(r, 0, sizeof(*r));
	r->dst = A(10, 2, 0, 1);
	r->src = A(10, 0, 0, 254);
	r->hops = 2;
	r->probes = 3;
	r->max_hops = 30;
	r->reached = true;
	r->p[0][0] = (struct cmd_trace_probe){ .answered = true,
		.from = A(10, 0, 1, 1), .type = 11, .code = 0, .ms = 0.5 };
	r->p[0][2] = (struct cmd_trace_probe){ .answered = true,
		.from = A(10, 0, 1, 1), .type = 11, .code = 0, .ms = 0.25 };
	r->p[1][0] = (struct cmd_trace_probe){ .answered = true,
		.from = A(10, 2, 0, 1), .type = 0, .code = 0, .ms = 1 };
	r->p[1][1] = (struct cmd_trace_probe){ .answered = true,
		.from = A(10, 2, 0, 1), .type = 0, .code = 0, .ms = 1.5 };
	r->p[1][2] = (struct cmd_trace_probe){ .answered = true,
		.from = A(10, 2, 0, 1), .type = 3, .code = 1, .ms = 2 };
}

static void
test_trace_text(void **state)
{
	struct cmd_trace_result r;
	struct lsk_out o;

	(void)state;
	trace_result(&r);
	lsk_out_init(&o, false);
	assert_int_equal(cmd_trace_write(&o, &r), 0);
	assert_string_equal(o.buf,
		"traceroute to 10.2.0.1 from 10.0.0.254, 30 hops max\n"
		" 1  10.0.1.1  0.500 ms  *  0.250 ms\n"
		" 2  10.2.0.1  1.000 ms  1.500 ms  2.000 ms !H\n");
	lsk_out_free(&o);
}

static void
test_trace_json(void **state)
{
	struct cmd_trace_result r;
	struct lsk_out o;

	(void)state;
	trace_result(&r);
	r.hops = 1;
	lsk_out_init(&o, true);
	assert_int_equal(cmd_trace_write(&o, &r), 0);
	assert_string_equal(o.buf,
		"{\"destination\": \"10.2.0.1\", \"source\": \"10.0.0.254\", "
		"\"reached\": true, \"hops\": [{\"hop\": 1, \"probes\": "
		"[{\"from\": \"10.0.1.1\", \"time_ms\": 0.500, \"type\": 11, "
		"\"code\": 0}, null, {\"from\": \"10.0.1.1\", \"time_ms\": "
		"0.250, \"type\": 11, \"code\": 0}]}]}\n");
	lsk_out_free(&o);
}

/* IPv6 (an address from its text) */
static struct lsk_ip6_addr
a6(const char *text)
{
	struct lsk_ip6_addr a;

	assert_int_equal(inet_pton(AF_INET6, text, &a), 1);
	return a;
}

/* ping ADDR6: ICMPv6's types (129 a reply), errors named as iputils'
 * ping6 names them, the hop limit as ttl. */
static void
test_ping6_text(void **state)
{
	struct cmd_ping_result r;
	struct lsk_out o;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.v6 = true;
	r.dst6 = a6("2001:db8:2::1");
	r.src6 = a6("2001:db8:1::fe");
	r.size = 56;
	r.transmitted = 3;
	r.n = 3;
	r.answers[0] = (struct cmd_ping_answer){ .from6 = r.dst6, .seq = 1,
		.bytes = 64, .type = 129, .ttl = 63, .ms = 0.5 };
	r.answers[1] = (struct cmd_ping_answer){ .from6 = a6("fe80::1"),
		.seq = 2, .bytes = 104, .type = 1, .code = 3, .ttl = 64 };
	r.answers[2] = (struct cmd_ping_answer){ .from6 = a6("2001:db8::9"),
		.seq = 3, .bytes = 104, .type = 3, .code = 0, .ttl = 64 };
	lsk_out_init(&o, false);
	assert_int_equal(cmd_ping_write(&o, &r), 0);
	assert_string_equal(o.buf,
		"PING 2001:db8:2::1 from 2001:db8:1::fe: 56 data bytes\n"
		"64 bytes from 2001:db8:2::1: icmp_seq=1 ttl=63 time=0.500 ms\n"
		"From fe80::1 icmp_seq=2 Destination unreachable: Address "
		"unreachable\n"
		"From 2001:db8::9 icmp_seq=3 Time exceeded: Hop limit\n"
		"\n--- 2001:db8:2::1 ping statistics ---\n"
		"3 packets transmitted, 1 received, +2 errors, "
		"66% packet loss\n"
		"rtt min/avg/max = 0.500/0.500/0.500 ms\n");
	lsk_out_free(&o);
	lsk_out_init(&o, true);
	assert_int_equal(cmd_ping_write(&o, &r), 0);
	assert_non_null(strstr(o.buf, "{\"destination\": \"2001:db8:2::1\", "
			       "\"source\": \"2001:db8:1::fe\", \"size\": 56, "
			       "\"replies\": [{\"bytes\": 64, \"from\": "
			       "\"2001:db8:2::1\", \"icmp_seq\": 1, \"ttl\": 63"));
	assert_non_null(strstr(o.buf, "{\"from\": \"fe80::1\", \"icmp_seq\": "
			       "2, \"type\": 1, \"code\": 3, \"text\": "
			       "\"Destination unreachable: Address "
			       "unreachable\"}"));
	lsk_out_free(&o);
}

/* traceroute ADDR6: time exceeded (3) goes on, the rest ends it;
 * traceroute6's marks (!N no route, !X, !S, !H; none for the port). */
static void
test_trace6_text(void **state)
{
	struct cmd_trace_result r;
	struct lsk_out o;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.v6 = true;
	r.dst6 = a6("2001:db8:9::1");
	r.src6 = a6("2001:db8:1::fe");
	r.hops = 2;
	r.probes = 2;
	r.max_hops = 30;
	r.reached = true;
	r.p[0][0] = (struct cmd_trace_probe){ .answered = true,
		.from6 = a6("2001:db8:1::1"), .type = 3, .ms = 0.5 };
	r.p[0][1] = (struct cmd_trace_probe){ .answered = true,
		.from6 = a6("2001:db8:1::2"), .type = 3, .ms = 0.25 };
	r.p[1][0] = (struct cmd_trace_probe){ .answered = true,
		.from6 = a6("2001:db8:1::2"), .type = 1, .code = 0, .ms = 1 };
	r.p[1][1] = (struct cmd_trace_probe){ .answered = true,
		.from6 = a6("2001:db8:1::2"), .type = 1, .code = 4,
		.ms = 2 };
	assert_true(cmd_trace_is_end(true, 1));
	assert_false(cmd_trace_is_end(true, 3));
	assert_true(cmd_trace_is_end(false, 3));
	assert_true(cmd_ping_is_reply(true, 129));
	assert_false(cmd_ping_is_reply(true, 0));
	lsk_out_init(&o, false);
	assert_int_equal(cmd_trace_write(&o, &r), 0);
	assert_string_equal(o.buf,
		"traceroute to 2001:db8:9::1 from 2001:db8:1::fe, 30 hops max\n"
		" 1  2001:db8:1::1  0.500 ms  2001:db8:1::2  0.250 ms\n"
		" 2  2001:db8:1::2  1.000 ms !N  2.000 ms\n");
	lsk_out_free(&o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ping_text),
		cmocka_unit_test(test_ping_json),
		cmocka_unit_test(test_ping_all_lost),
		cmocka_unit_test(test_trace_text),
		cmocka_unit_test(test_trace_json),
		cmocka_unit_test(test_ping6_text),
		cmocka_unit_test(test_trace6_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
