/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench --table (bench/table.c): a table file read, sorted and
 * refused where it is wrong (FILE:LINE), the longest match, which
 * prefixes are churned, and the next-hop oracle: a frame passes only to
 * its destination's longest match's gateway, or to the next one when
 * that prefix is churned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_common.h"
#include "table.h"

static char path[64];

static void
write_table(const char *text)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/lsk-test-table-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
}

#define IPV4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* 20/8 holds 20.1/16, which holds 20.1.2/24, which holds 20.1.2.128/25:
 * only the /25 of them may be churned; 30.0.0.0/24 and 40.0.0.0/22 too;
 * 50.0.0.1/32 never (longer than /30) */
static const char nested[] =
	"# a comment, and an empty line\n\n"
	"20.1.2.0/24\n30.0.0.0/24\n20.0.0.0/8\n  20.1.0.0/16\n"
	"40.0.0.0/22\n20.1.2.128/25\n50.0.0.1/32\n";

static void
load(struct bench_table *tb, struct bench_traffic *t, uint32_t flows)
{
	char err[256] = "";

	assert_int_equal(bench_traffic_init(t, flows, 1, 64), 0);
	t->churn_routes = 64;
	if (bench_table_load(tb, path, t, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

static void
test_sorted_and_longest_match(void **state)
{
	struct bench_table tb;
	struct bench_traffic t;
	uint32_t j;

	(void)state;
	write_table(nested);
	load(&tb, &t, 1024);
	assert_int_equal(tb.n, 7);
	assert_int_equal(t.routes, 7);
	for (j = 1; j < tb.n; j++)
		assert_true(tb.key[j - 1] < tb.key[j]);
	/* sorted: 20/8 20.1/16 20.1.2/24 20.1.2.128/25 30/24 40/22 50../32 */
	assert_int_equal(bench_table_lookup(&tb, IPV4(20, 9, 9, 9)), 0);
	assert_int_equal(bench_table_lookup(&tb, IPV4(20, 1, 9, 9)), 1);
	assert_int_equal(bench_table_lookup(&tb, IPV4(20, 1, 2, 127)), 2);
	assert_int_equal(bench_table_lookup(&tb, IPV4(20, 1, 2, 128)), 3);
	assert_int_equal(bench_table_lookup(&tb, IPV4(40, 0, 3, 255)), 5);
	assert_int_equal(bench_table_lookup(&tb, IPV4(50, 0, 0, 1)), 6);
	assert_int_equal(bench_table_lookup(&tb, IPV4(50, 0, 0, 2)), -1);
	assert_int_equal(bench_table_lookup(&tb, IPV4(21, 0, 0, 0)), -1);
	/* churned: the /25, 30/24 and 40/22; never one holding another */
	assert_int_equal(tb.n_churn, 3);
	assert_int_equal(t.churn_routes, 3);
	assert_int_equal(tb.churn[0], 3);
	assert_int_equal(tb.churn[1], 4);
	assert_int_equal(tb.churn[2], 5);
	/* every flow's destination is in the table, its gateway its longest
	 * match's, alt another only for a churned one; churned flows sent */
	for (j = 0; j < t.flows; j++) {
		int64_t m = bench_table_lookup(&tb, t.table_flows[j].dst);
		bool churned = m >= 3 && m <= 5;

		assert_true(m >= 0);
		assert_int_equal(t.table_flows[j].gw, m % BENCH_TABLE_GWS);
		assert_int_equal(t.table_flows[j].alt, churned ?
				 (m + 1) % BENCH_TABLE_GWS : m % BENCH_TABLE_GWS);
		if (j % BENCH_TABLE_HOT_EVERY == 0)
			assert_true(churned);
	}
	bench_table_free(&tb);
	unlink(path);
}

/* A frame of flow i to dst, sent to gateway g. */
static void
frame_of(const struct bench_traffic *t, uint32_t i, uint32_t dst,
	 unsigned int g, uint8_t *frame)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)frame;
	struct bench_flow fl;

	bench_flow_get(t, i, &fl);
	fl.dst = dst;
	bench_write_frame(t, frame, &fl, 1);
	eh->dst_addr = t->gw_mac;
	eh->dst_addr.addr_bytes[5] = (uint8_t)(eh->dst_addr.addr_bytes[5] + g);
	eh->src_addr = t->port_mac[1];
}

static void
test_next_hop_oracle(void **state)
{
	uint8_t frame[RTE_ETHER_HDR_LEN + 1500];
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)frame;
	struct bench_table tb;
	struct bench_traffic t;
	unsigned int g, seen_churned = 0, seen_plain = 0;
	uint32_t i;

	(void)state;
	write_table(nested);
	load(&tb, &t, 70000);	/* two source hosts' worth of ports */
	for (i = 0; i < t.flows; i += 97) {
		const struct bench_table_flow *fl = &t.table_flows[i];

		for (g = 0; g < BENCH_TABLE_GWS; g++) {
			frame_of(&t, i, fl->dst, g, frame);
			assert_int_equal(bench_table_hop_ok(&t, eh),
					 g == fl->gw || g == fl->alt);
		}
		seen_churned += fl->alt != fl->gw;
		seen_plain += fl->alt == fl->gw;
		/* another destination under the flow's source: refused */
		frame_of(&t, i, fl->dst ^ 0x80000000u, fl->gw, frame);
		assert_false(bench_table_hop_ok(&t, eh));
		/* another MAC prefix with the right last byte: refused */
		frame_of(&t, i, fl->dst, fl->gw, frame);
		eh->dst_addr.addr_bytes[0] ^= 0x10;
		assert_false(bench_table_hop_ok(&t, eh));
	}
	assert_true(seen_churned > 0 && seen_plain > 0);
	/* a flow number past the traffic's: refused */
	t.flows = 10;
	frame_of(&t, 11, t.table_flows[11].dst, t.table_flows[11].gw, frame);
	assert_false(bench_table_hop_ok(&t, eh));
	bench_table_free(&tb);
	unlink(path);
}

static void
refused(const char *text, const char *want)
{
	struct bench_table tb;
	struct bench_traffic t;
	char err[256] = "", where[96];

	write_table(text);
	assert_int_equal(bench_traffic_init(&t, 16, 1, 64), 0);
	assert_true(bench_table_load(&tb, path, &t, err, sizeof(err)) < 0);
	snprintf(where, sizeof(where), "%s%s", path, want);
	if (strstr(err, where) == NULL)
		fail_msg("'%s' does not say '%s'", err, where);
	assert_null(tb.key);
	assert_null(t.table_flows);
	unlink(path);
}

static void
test_refused(void **state)
{
	(void)state;
	refused("20.0.0.0/8\n20.0.0.1/24\n", ":2: host bits set");
	refused("20.0.0.0/8\nfoo\n", ":2: not A.B.C.D/L");
	refused("20.0.0.0/33\n", ":1: not A.B.C.D/L");
	refused("20.0.0.0/8 1\n", ":1: not A.B.C.D/L");
	refused("0.0.0.0/0\n", ":1: a default route");
	refused("10.0.1.0/25\n", ":1: overlaps the ports' networks");
	refused("8.0.0.0/5\n", ":1: overlaps the ports' networks");
	refused("20.0.0.0/8\n30.0.0.0/8\n20.0.0.0/8\n", ": 20.0.0.0/8 twice");
	refused("# nothing\n", ": no prefixes");
	refused("50.0.0.0/24\n50.0.0.0/25\n50.0.0.1/32\n",
		": no prefix to churn");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_and_longest_match),
		cmocka_unit_test(test_next_hop_oracle),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
