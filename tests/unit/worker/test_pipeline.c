/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipeline: the stages' declarations (core/stage.h) as worker/pipeline.c
 * lists them. The stats' "stages" array keeps its names and order (a
 * contract), every timed stage is declared once and in its id's order,
 * every edge leads to a declared node, every drop reason names a counter
 * of struct lsk_stats, and the views drawn from them say so.
 */
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "core/counters.h"
#include "core/drop.h"
#include "core/stage.h"
#include "worker/pipeline.h"

/* The contract: the stats JSON's "stages" names, in order. */
static const char *const stage_names[LSK_STAGE_COUNT] = {
	"fwd_fast", "eth_input", "arp_input", "udp4_gro", "ip4_input",
	"ip4_filter", "ip4_route", "ip4_local", "ip4_forward", "udp4_input",
	"icmp4_input", "fwd6_fast", "udp6_gro", "ip6_input", "ip6_route",
	"ip6_local", "ip6_forward", "udp6_input", "icmp6_input", "ip6_output",
	"ip4_output", "tx",
};

static void
test_stage_names(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		assert_non_null(lsk_stage_desc(i));
		assert_string_equal(lsk_stage_name(i), stage_names[i]);
	}
	assert_string_equal(lsk_stage_name(LSK_STAGE_COUNT), "?");
}

/* Each timed stage once, in its id's order; no name twice. */
static void
test_declared_once(void **state)
{
	unsigned int i, k, seen[LSK_STAGE_COUNT] = { 0 };
	int last = -1;

	(void)state;
	for (i = 0; i < lsk_pipeline_n; i++) {
		const struct lsk_stage_desc *s = lsk_pipeline[i];

		for (k = 0; k < i; k++)
			assert_string_not_equal(lsk_pipeline[k]->name,
						s->name);
		if (s->id == LSK_STAGE_NONE)
			continue;
		assert_in_range(s->id, 0, LSK_STAGE_COUNT - 1);
		assert_true(s->id > last);
		last = s->id;
		seen[s->id]++;
	}
	for (i = 0; i < LSK_STAGE_COUNT; i++)
		assert_int_equal(seen[i], 1);
}

/* Edges lead to declared nodes; drop rows name counters (or none at
 * all: a verdict's hole, a drop counted nowhere). */
static void
test_edges_and_drops(void **state)
{
	unsigned int i, k, rows = 0;

	(void)state;
	for (i = 0; i < lsk_pipeline_n; i++) {
		const struct lsk_stage_desc *s = lsk_pipeline[i];

		for (k = 0; s->next != NULL && s->next[k] != NULL; k++) {
			if (lsk_pipeline_find(s->next[k]) == NULL)
				fail_msg("%s -> %s: no such node", s->name,
					 s->next[k]);
			assert_ptr_not_equal(lsk_pipeline_find(s->next[k]), s);
		}
		for (k = 0; k < s->n_drops; k++) {
			unsigned int j;

			for (j = 0; j < 2; j++)
				if (s->drops[k].counter[j] != 0 &&
				    lsk_counter_at(s->drops[k].counter[j] -
						   1u) == NULL)
					fail_msg("%s: drop row %u names no "
						 "counter", s->name, k);
			rows += s->drops[k].counter[0] != 0;
		}
	}
	assert_true(rows >= 30);
	/* what the views draw on */
	assert_non_null(lsk_pipeline_find("rx"));
	assert_non_null(lsk_pipeline_find("icmp"));
	assert_non_null(lsk_pipeline_find("send"));
	assert_non_null(lsk_pipeline_find("neigh"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stage_names),
		cmocka_unit_test(test_declared_once),
		cmocka_unit_test(test_edges_and_drops),
	};

	return cmocka_run_group_tests_name("pipeline", tests, NULL, NULL);
}
