/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats: lsk_stats_read sums every worker's counters and what the control
 * path counted; lsk_counters names every MIB counter of struct lsk_stats
 * once; lsk_stats_write_json writes valid JSON with every counter of that
 * table under its section, the ports and the stages (what --stats-json
 * writes, docs/configuration.md "What happens to a packet").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "core/worker.h"

#define N_U64 (sizeof(struct lsk_stats) / sizeof(uint64_t))

static uint64_t
u64_at(const struct lsk_stats *st, size_t i)
{
	uint64_t v;

	memcpy(&v, (const char *)st + i * sizeof(v), sizeof(v));
	return v;
}

static void
u64_set(struct lsk_stats *st, size_t i, uint64_t v)
{
	memcpy((char *)st + i * sizeof(v), &v, sizeof(v));
}

/*
 * Two workers: worker 0 forwards 3 datagrams and holds one for ARP
 * (dropped by lsk_neigh_drop_held, which the control path counts);
 * worker 1 gets 5 datagrams to a closed port. The read is the sum of
 * the two workers' own reads and the control path's counters, field by
 * field, and the named counters say what happened.
 */
static void
test_read_sums_workers(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w1;
	struct lsk_stats st, a, b, want;
	unsigned int i, sent1 = 0;
	struct rte_mbuf *pkts[5];

	assert_int_equal(lsk_worker_create(f->stack, 1, &w1), 0);
	lsk_worker_set_tx_fn(w1, unit_tx_count_free, &sent1);
	for (i = 0; i < 4; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, i < 3 ? UNIT_B_IP : UNIT_IPV4(10, 0, 1, 9));
		unit_input_pkt(f, &p);
	}
	for (i = 0; i < 5; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_P0_IP);
		pkts[i] = unit_pkt_mbuf(&p);
	}
	lsk_worker_input(w1, pkts, 5);
	lsk_worker_flush(w1);
	lsk_worker_offline(w1);
	assert_int_equal(sent1, 5);		/* 5 port unreachables */
	assert_int_equal(lsk_neigh_drop_held(f->stack), 1);

	assert_int_equal(lsk_stats_read(f->stack, &st), 0);
	lsk_worker_stats_read(f->worker, &a);
	lsk_worker_stats_read(w1, &b);
	want = f->stack->ctl_stats;
	for (i = 0; i < N_U64; i++)
		u64_set(&want, i, u64_at(&want, i) + u64_at(&a, i) +
			u64_at(&b, i));
	for (i = 0; i < N_U64; i++)
		if (u64_at(&st, i) != u64_at(&want, i))
			fail_msg("word %u of struct lsk_stats: %" PRIu64
				 ", the sum is %" PRIu64, i, u64_at(&st, i),
				 u64_at(&want, i));

	assert_int_equal(a.ip.InReceives, 4);
	assert_int_equal(b.ip.InReceives, 5);
	assert_int_equal(st.ip.InReceives, 9);
	assert_int_equal(st.ip.ForwDatagrams, 4);
	assert_int_equal(st.ip.InDelivers, 5);
	assert_int_equal(st.udp.NoPorts, 5);
	assert_int_equal(st.icmp.OutDestUnreachs, 5);
	assert_int_equal(st.eth.InFrames, 9);
	assert_int_equal(st.arp.OutRequests, 1);
	assert_int_equal(st.arp.UnresolvedDiscards, 1);
	assert_int_equal(a.arp.UnresolvedDiscards +
			 b.arp.UnresolvedDiscards, 0);
	assert_int_equal(st.ports[UNIT_P1].tx, a.ports[UNIT_P1].tx);
	assert_int_equal(st.ports[UNIT_P0].tx, 5);
	unit_assert_ip_balance(&st);
	unit_tx_free(f);
	lsk_worker_destroy(w1);
}

static void
test_read_errors(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;

	assert_int_equal(lsk_stats_read(NULL, &st), -EINVAL);
	assert_int_equal(lsk_stats_read(f->stack, NULL), -EINVAL);
}

/* A stage's cycles are measured on some runs only: the read scales them
 * to all its packets (cycles * packets / timed packets). */
static void
test_stage_cycles_scaled(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w = f->worker;
	struct lsk_stats st;

	memset(&w->stats.stages, 0, sizeof(w->stats.stages));
	memset(w->stage_timed, 0, sizeof(w->stage_timed));
	w->stats.stages[LSK_STAGE_IP4_INPUT] =
		(struct lsk_stage_stats){ .calls = 3, .packets = 1000,
					  .cycles = 5000 };
	w->stage_timed[LSK_STAGE_IP4_INPUT] = 100;
	w->stats.stages[LSK_STAGE_TX] =
		(struct lsk_stage_stats){ .calls = 1, .packets = 8,
					  .cycles = 80 };
	w->stage_timed[LSK_STAGE_TX] = 8;	/* all timed */
	w->stats.stages[LSK_STAGE_ARP_INPUT] =
		(struct lsk_stage_stats){ .calls = 1, .packets = 2,
					  .cycles = 0 };
	lsk_worker_stats_read(w, &st);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].cycles, 50000);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].packets, 1000);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].calls, 3);
	assert_int_equal(st.stages[LSK_STAGE_TX].cycles, 80);
	assert_int_equal(st.stages[LSK_STAGE_ARP_INPUT].cycles, 0);
	st = unit_stats(f);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].cycles, 50000);
	/* the worker's own counters are left as they were */
	assert_int_equal(w->stats.stages[LSK_STAGE_IP4_INPUT].cycles, 5000);
}

/*
 * After `stats clear`, cycles per packet come from the runs timed since
 * the clear (issue 22): the sampled cycles and the timed packets are
 * subtracted alike, not two scaled estimates (which at low rates gave
 * 0.0 for one stage and the old figure for another).
 */
static void
test_stage_cycles_after_clear(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w = f->worker;
	struct lsk_stage_stats *in = &w->stats.stages[LSK_STAGE_IP4_INPUT];
	struct lsk_stage_stats *tx = &w->stats.stages[LSK_STAGE_TX];
	struct lsk_out o;
	struct lsk_stats st;

	memset(&w->stats.stages, 0, sizeof(w->stats.stages));
	memset(w->stage_timed, 0, sizeof(w->stage_timed));
	*in = (struct lsk_stage_stats){ .calls = 160, .packets = 1000,
					.cycles = 5000 };
	w->stage_timed[LSK_STAGE_IP4_INPUT] = 100;	/* 50 a packet */
	*tx = (struct lsk_stage_stats){ .calls = 160, .packets = 1000,
					.cycles = 5000 };
	w->stage_timed[LSK_STAGE_TX] = 100;
	lsk_stats_clear(f->stack);
	st = unit_stats(f);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].packets, 0);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].cycles, 0);

	/* ip4_input: 20 packets, 10 of them timed at 30 a packet, cheaper
	 * than before the clear */
	in->calls += 2;
	in->packets += 20;
	in->cycles += 300;
	w->stage_timed[LSK_STAGE_IP4_INPUT] += 10;
	/* tx: 20 packets, none timed since the clear */
	tx->calls += 2;
	tx->packets += 20;
	st = unit_stats(f);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].calls, 2);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].packets, 20);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].cycles, 600);
	assert_int_equal(st.stages[LSK_STAGE_TX].packets, 20);
	assert_int_equal(st.stages[LSK_STAGE_TX].cycles, 0);

	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "show runtime", 12, "t",
					 &o), 0);
	assert_non_null(strstr(o.buf, "\nip4_input    2      20       10.0"
			       "          30.0\n"));
	lsk_out_free(&o);

	/* a second clear starts again from there */
	lsk_stats_clear(f->stack);
	in->calls++;
	in->packets += 4;
	in->cycles += 400;
	w->stage_timed[LSK_STAGE_IP4_INPUT] += 4;
	st = unit_stats(f);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].cycles, 400);
	memset(&w->stats.stages, 0, sizeof(w->stats.stages));
	memset(w->stage_timed, 0, sizeof(w->stage_timed));
}

/* --------------------------------------------------- counter table */

static const struct {
	const char *name;
	size_t off, size;
} sections[] = {
	{ "ip", offsetof(struct lsk_stats, ip), sizeof(struct lsk_ip_stats) },
	{ "udp", offsetof(struct lsk_stats, udp),
	  sizeof(struct lsk_udp_stats) },
	{ "icmp", offsetof(struct lsk_stats, icmp),
	  sizeof(struct lsk_icmp_stats) },
	{ "eth", offsetof(struct lsk_stats, eth),
	  sizeof(struct lsk_eth_stats) },
	{ "arp", offsetof(struct lsk_stats, arp),
	  sizeof(struct lsk_arp_stats) },
	{ "gro", offsetof(struct lsk_stats, gro),
	  sizeof(struct lsk_gro_stats) },
	{ "gso", offsetof(struct lsk_stats, gso),
	  sizeof(struct lsk_gso_stats) },
	{ "route_cache", offsetof(struct lsk_stats, route_cache),
	  sizeof(struct lsk_route_cache_stats) },
	{ "filter", offsetof(struct lsk_stats, filter),
	  sizeof(struct lsk_filter_stats) },
	{ "host", offsetof(struct lsk_stats, host),
	  sizeof(struct lsk_host_stats) },
	{ "fpm", offsetof(struct lsk_stats, fpm),
	  sizeof(struct lsk_fpm_stats) },
	{ "ip6", offsetof(struct lsk_stats, ip6),
	  sizeof(struct lsk_ip6_stats) },
	{ "icmp6", offsetof(struct lsk_stats, icmp6),
	  sizeof(struct lsk_icmp6_stats) },
	{ "udp6", offsetof(struct lsk_stats, udp6),
	  sizeof(struct lsk_udp6_stats) },
	{ "nd", offsetof(struct lsk_stats, nd),
	  sizeof(struct lsk_nd_stats) },
};

/*
 * lsk_counters names each word of every MIB section of struct lsk_stats
 * exactly once (a counter added to a struct but not to the table would
 * never be written), inside the section it says, with a name unique in
 * it; lsk_counter_value reads that word.
 */
static void
test_counter_table(void **state)
{
	const size_t mib_end = offsetof(struct lsk_stats, ports);
	unsigned char seen[sizeof(struct lsk_stats) / 8] = { 0 };
	const struct lsk_counter_desc *c;
	struct lsk_stats st;
	unsigned int n, i, k;

	(void)state;
	c = lsk_counters(&n);
	assert_non_null(c);
	assert_int_equal(n, mib_end / sizeof(uint64_t));
	for (i = 0; i < N_U64; i++)
		u64_set(&st, i, 0x1000 + i);
	for (i = 0; i < n; i++) {
		bool in_section = false;

		assert_true(c[i].offset % sizeof(uint64_t) == 0);
		assert_true(c[i].offset < mib_end);
		assert_int_equal(seen[c[i].offset / 8]++, 0);
		for (k = 0; k < RTE_DIM(sections); k++)
			if (strcmp(c[i].section, sections[k].name) == 0 &&
			    c[i].offset >= sections[k].off &&
			    c[i].offset < sections[k].off + sections[k].size)
				in_section = true;
		if (!in_section)
			fail_msg("%s.%s: not in its section", c[i].section,
				 c[i].name);
		assert_true(strlen(c[i].name) > 0);
		for (k = 0; k < i; k++)
			assert_false(strcmp(c[k].section, c[i].section) == 0 &&
				     strcmp(c[k].name, c[i].name) == 0);
		/* a section's counters are listed together */
		if (i > 0 && strcmp(c[i - 1].section, c[i].section) != 0)
			for (k = 0; k + 1 < i; k++)
				assert_string_not_equal(c[k].section,
							c[i].section);
		assert_int_equal(lsk_counter_value(&st, &c[i]),
				 0x1000 + c[i].offset / 8);
	}
	/* the names docs/configuration.md and Linux's MIB use, spot-checked */
	for (i = 0; i < n; i++)
		if (c[i].offset == offsetof(struct lsk_stats, ip) +
		    offsetof(struct lsk_ip_stats, ReasmFails))
			assert_string_equal(c[i].name, "ReasmFails");
		else if (c[i].offset == offsetof(struct lsk_stats, udp) +
			 offsetof(struct lsk_udp_stats, RcvbufErrors))
			assert_string_equal(c[i].name, "RcvbufErrors");
}

/* --------------------------------------------------------- JSON */

/* Write st as JSON and parse it (asserting it is valid). */
static struct unit_json *
json_of(const struct lsk_stats *st, unsigned int n_ports, long long in_use,
	const char *extra)
{
	struct unit_json *j;
	char *text = NULL;
	size_t len = 0, at = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	assert_int_equal(lsk_stats_write_json(st, n_ports, in_use, extra, m),
			 0);
	assert_int_equal(fclose(m), 0);
	assert_true(len > 0 && text[len - 1] == '\n');
	j = unit_json_parse(text, &at);
	if (j == NULL)
		fail_msg("not valid JSON at byte %zu: %s", at, text + at);
	free(text);
	return j;
}

static void
assert_uint(const struct unit_json *j, uint64_t v, const char *what)
{
	if (j == NULL)
		fail_msg("%s: missing", what);
	if (j->type != UNIT_JSON_NUMBER || !j->is_uint || j->u != v)
		fail_msg("%s: not %" PRIu64, what, v);
}

/*
 * Every counter of the table under its section with its value (distinct
 * values, up to 2^64 - 1), each section holding only the table's names;
 * "ports": one object per port {id, rx, tx, rx_dropped, tx_dropped};
 * "stages": one per stage {name, calls, packets, cycles}; the extra
 * members; "mbufs_in_use". Nothing else.
 */
static void
test_json_complete(void **state)
{
	const struct lsk_counter_desc *c;
	const struct unit_json *sec, *a, *e;
	struct unit_json *j;
	struct lsk_stats st;
	unsigned int n, i, k, n_sections = 0;
	char what[96];

	(void)state;
	for (i = 0; i < N_U64; i++)
		u64_set(&st, i, i % 2 ? UINT64_MAX - i : 1000 + i);
	j = json_of(&st, 2, 0, "\"services\": []");
	assert_int_equal(j->type, UNIT_JSON_OBJECT);
	c = lsk_counters(&n);
	for (i = 0; i < n; i++) {
		sec = unit_json_get(j, c[i].section);
		assert_non_null(sec);
		assert_int_equal(sec->type, UNIT_JSON_OBJECT);
		snprintf(what, sizeof(what), "%s.%s", c[i].section, c[i].name);
		assert_uint(unit_json_get(sec, c[i].name),
			    lsk_counter_value(&st, &c[i]), what);
		if (i == 0 || strcmp(c[i - 1].section, c[i].section) != 0) {
			unsigned int in_table = 0;

			n_sections++;
			for (k = 0; k < n; k++)
				in_table += strcmp(c[k].section,
						   c[i].section) == 0;
			assert_int_equal(unit_json_len(sec), in_table);
		}
	}
	assert_int_equal(n_sections, RTE_DIM(sections));

	a = unit_json_get(j, "ports");
	assert_non_null(a);
	assert_int_equal(a->type, UNIT_JSON_ARRAY);
	assert_int_equal(unit_json_len(a), 2);
	for (i = 0; i < 2; i++) {
		e = unit_json_at(a, i);
		assert_int_equal(e->type, UNIT_JSON_OBJECT);
		assert_int_equal(unit_json_len(e), 5);
		assert_uint(unit_json_get(e, "id"), i, "ports[].id");
		assert_uint(unit_json_get(e, "rx"), st.ports[i].rx, "rx");
		assert_uint(unit_json_get(e, "tx"), st.ports[i].tx, "tx");
		assert_uint(unit_json_get(e, "rx_dropped"),
			    st.ports[i].rx_dropped, "rx_dropped");
		assert_uint(unit_json_get(e, "tx_dropped"),
			    st.ports[i].tx_dropped, "tx_dropped");
	}
	a = unit_json_get(j, "stages");
	assert_non_null(a);
	assert_int_equal(a->type, UNIT_JSON_ARRAY);
	assert_int_equal(unit_json_len(a), LSK_STAGE_COUNT);
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		e = unit_json_at(a, i);
		assert_int_equal(unit_json_len(e), 4);
		assert_int_equal(unit_json_get(e, "name")->type,
				 UNIT_JSON_STRING);
		assert_string_equal(unit_json_get(e, "name")->str,
				    lsk_stage_name(i));
		assert_uint(unit_json_get(e, "calls"), st.stages[i].calls,
			    "calls");
		assert_uint(unit_json_get(e, "packets"), st.stages[i].packets,
			    "packets");
		assert_uint(unit_json_get(e, "cycles"), st.stages[i].cycles,
			    "cycles");
	}
	assert_int_equal(unit_json_get(j, "services")->type, UNIT_JSON_ARRAY);
	assert_uint(unit_json_get(j, "mbufs_in_use"), 0, "mbufs_in_use");
	assert_int_equal(unit_json_len(j), RTE_DIM(sections) + 4);
	unit_json_free(j);
}

/* No ports, no extra, no mbufs_in_use (< 0); more ports than exist are
 * LSK_MAX_PORTS. */
static void
test_json_options(void **state)
{
	struct unit_json *j;
	struct lsk_stats st;
	unsigned int i;

	(void)state;
	memset(&st, 0, sizeof(st));
	j = json_of(&st, 0, -1, NULL);
	assert_int_equal(unit_json_len(unit_json_get(j, "ports")), 0);
	assert_null(unit_json_get(j, "mbufs_in_use"));
	assert_int_equal(unit_json_len(j), RTE_DIM(sections) + 2);
	assert_uint(unit_json_get(unit_json_get(j, "ip"), "InReceives"), 0,
		    "ip.InReceives");
	unit_json_free(j);

	j = json_of(&st, 1000, 12345, NULL);
	assert_int_equal(unit_json_len(unit_json_get(j, "ports")),
			 LSK_MAX_PORTS);
	for (i = 0; i < LSK_MAX_PORTS; i++)
		assert_uint(unit_json_get(unit_json_at(unit_json_get(j,
			"ports"), i), "id"), i, "ports[].id");
	assert_uint(unit_json_get(j, "mbufs_in_use"), 12345, "mbufs_in_use");
	unit_json_free(j);
}

/* What a live stack counted reads the same in its JSON. */
static void
test_json_of_live_stack(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_counter_desc *c;
	struct unit_json *j;
	struct lsk_stats st;
	unsigned int i, n;

	for (i = 0; i < 6; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, i < 4 ? UNIT_FAR_IP : UNIT_P1_IP);
		p.ttl = i == 0 ? 1 : 64;
		unit_input_pkt(f, &p);
	}
	unit_tx_free(f);
	st = unit_stats(f);
	assert_int_equal(st.ip.InReceives, 6);
	assert_int_equal(st.ip.ForwDatagrams, 3);
	assert_int_equal(st.ip.InHdrErrors, 1);
	assert_int_equal(st.udp.NoPorts, 2);
	j = json_of(&st, 2, -1, NULL);
	c = lsk_counters(&n);
	for (i = 0; i < n; i++)
		assert_uint(unit_json_get(unit_json_get(j, c[i].section),
					  c[i].name),
			    lsk_counter_value(&st, &c[i]), c[i].name);
	assert_uint(unit_json_get(unit_json_at(unit_json_get(j, "ports"),
					       UNIT_P1), "tx"),
		    st.ports[UNIT_P1].tx, "ports[1].tx");
	assert_true(st.ports[UNIT_P1].tx >= 3);
	assert_uint(unit_json_get(unit_json_at(unit_json_get(j, "stages"),
					       LSK_STAGE_IP4_FORWARD),
				  "packets"),
		    st.stages[LSK_STAGE_IP4_FORWARD].packets, "packets");
	unit_json_free(j);
}

/* A stream that cannot be written: -EIO. */
static void
test_json_write_error(void **state)
{
	struct lsk_stats st;
	FILE *ro = fopen("/dev/null", "r");

	(void)state;
	memset(&st, 0, sizeof(st));
	assert_non_null(ro);
	assert_int_equal(lsk_stats_write_json(&st, 2, 0, NULL, ro), -EIO);
	fclose(ro);
}

/* The parser itself refuses what is not JSON (so the tests above can
 * fail). */
static void
test_json_parser_refuses(void **state)
{
	static const char *const bad[] = {
		"", "{", "{\"a\": 1,}", "{\"a\" 1}", "{\"a\": 1}}", "[1 2]",
		"{\"a\": 1, \"a\": 2}", "{\"a\": 01}", "{\"a\": -}", "\"x",
		"{a: 1}", "[1,]", "nul", "{\"a\": 1} x",
	};
	unsigned int i;
	struct unit_json *j;

	(void)state;
	for (i = 0; i < RTE_DIM(bad); i++) {
		j = unit_json_parse(bad[i], NULL);
		if (j != NULL)
			fail_msg("parsed '%s'", bad[i]);
	}
	j = unit_json_parse(" {\"a\": [1, 2.5, -3, \"s\\n\", true, null], "
			    "\"b\": {}} ", NULL);
	assert_non_null(j);
	assert_int_equal(unit_json_len(unit_json_get(j, "a")), 6);
	assert_uint(unit_json_at(unit_json_get(j, "a"), 0), 1, "a[0]");
	assert_false(unit_json_at(unit_json_get(j, "a"), 1)->is_uint);
	unit_json_free(j);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_read_sums_workers),
		T(test_read_errors),
		T(test_stage_cycles_scaled),
		T(test_stage_cycles_after_clear),
		cmocka_unit_test(test_counter_table),
		cmocka_unit_test(test_json_complete),
		cmocka_unit_test(test_json_options),
		T(test_json_of_live_stack),
		cmocka_unit_test(test_json_write_error),
		cmocka_unit_test(test_json_parser_refuses),
	};

	return cmocka_run_group_tests_name("stats", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
