/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * telemetry: lsk_telemetry_register serves the stack's counters on DPDK
 * telemetry as /listack/stats, asked here as dpdk-telemetry.py asks,
 * through the telemetry socket (SOCK_SEQPACKET, <runtime dir>/
 * dpdk_telemetry.v2): one dict per MIB section with every counter of
 * lsk_counters and the value lsk_stats_read reads, and the stages. A
 * second stack registered takes over; a destroyed stack is no longer
 * served (nothing reads its freed counters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>

#include "unit_common.h"

#define CMD "/listack/stats"

static char reply[65536];

/* A connection to the telemetry socket, its greeting read. */
static int
tel_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct unit_json *hello;
	ssize_t n;
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_true(fd >= 0);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0)
		fail_msg("cannot connect to %s", sun.sun_path);
	n = recv(fd, reply, sizeof(reply) - 1, 0);
	assert_true(n > 0);
	reply[n] = '\0';
	hello = unit_json_parse(reply, NULL);
	assert_non_null(hello);
	assert_non_null(unit_json_get(hello, "max_output_len"));
	unit_json_free(hello);
	return fd;
}

/* Ask cmd; the reply, parsed (it must be valid JSON), and its text in
 * reply. */
static struct unit_json *
tel_ask(const char *cmd)
{
	struct unit_json *j;
	size_t at = 0;
	ssize_t n;
	int fd = tel_connect();

	assert_int_equal(send(fd, cmd, strlen(cmd), 0), (ssize_t)strlen(cmd));
	n = recv(fd, reply, sizeof(reply) - 1, 0);
	assert_true(n > 0);
	reply[n] = '\0';
	close(fd);
	j = unit_json_parse(reply, &at);
	if (j == NULL)
		fail_msg("'%s': not valid JSON at byte %zu: %s", cmd, at,
			 reply);
	return j;
}

/* How many times "/" lists cmd. */
static unsigned int
listed(const char *cmd)
{
	struct unit_json *j = tel_ask("/");
	const struct unit_json *l = unit_json_get(j, "/");
	unsigned int i, found = 0;

	assert_non_null(l);
	assert_int_equal(l->type, UNIT_JSON_ARRAY);
	for (i = 0; i < unit_json_len(l); i++)
		if (strcmp(unit_json_at(l, i)->str, cmd) == 0)
			found++;
	unit_json_free(j);
	return found;
}

/* Assert the answer to /listack/stats is the stack's counters now. */
static void
assert_answer(struct unit_fixture *f)
{
	const struct lsk_counter_desc *c;
	const struct unit_json *d, *sec, *v, *stages;
	struct lsk_stats st = unit_stats(f);
	struct unit_json *j = tel_ask(CMD);
	unsigned int n, i, k, n_sections = 0;

	d = unit_json_get(j, CMD);
	assert_non_null(d);
	assert_int_equal(unit_json_len(j), 1);
	assert_int_equal(d->type, UNIT_JSON_OBJECT);
	c = lsk_counters(&n);
	for (i = 0; i < n; i++) {
		sec = unit_json_get(d, c[i].section);
		if (sec == NULL || sec->type != UNIT_JSON_OBJECT)
			fail_msg("no section %s", c[i].section);
		v = unit_json_get(sec, c[i].name);
		if (v == NULL || !v->is_uint ||
		    v->u != lsk_counter_value(&st, &c[i]))
			fail_msg("%s.%s: not %" PRIu64, c[i].section,
				 c[i].name, lsk_counter_value(&st, &c[i]));
		if (i == 0 || strcmp(c[i - 1].section, c[i].section) != 0) {
			unsigned int in_table = 0;

			n_sections++;
			for (k = 0; k < n; k++)
				in_table += strcmp(c[k].section,
						   c[i].section) == 0;
			assert_int_equal(unit_json_len(sec), in_table);
		}
	}
	stages = unit_json_get(d, "stages");
	assert_non_null(stages);
	assert_int_equal(unit_json_len(stages), 3 * LSK_STAGE_COUNT);
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		static const char *const what[] = { "packets", "calls",
						     "cycles" };
		const uint64_t want[] = { st.stages[i].packets,
					  st.stages[i].calls,
					  st.stages[i].cycles };
		char name[64];

		for (k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), "%s_%s",
				 lsk_stage_name(i), what[k]);
			v = unit_json_get(stages, name);
			if (v == NULL || !v->is_uint)
				fail_msg("stages.%s missing", name);
			/* cycles go on while the answer is made: at least */
			if (k < 2 ? v->u != want[k] : v->u < want[k])
				fail_msg("stages.%s: %" PRIu64 ", not %" PRIu64,
					 name, v->u, want[k]);
		}
	}
	assert_int_equal(unit_json_len(d), n_sections + 1);
	unit_json_free(j);
}

/* Traffic on f: 3 forwarded, 2 to a closed port. */
static void
traffic(struct unit_fixture *f)
{
	unsigned int i;

	for (i = 0; i < 5; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, i < 3 ? UNIT_B_IP : UNIT_P0_IP);
		unit_input_pkt(f, &p);
	}
	unit_tx_free(f);
}

/* Before lsk_telemetry_register there is no /listack/stats; after, it is
 * listed with its help text and answers. Runs first. */
static void
test_register(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_json *j;
	const struct unit_json *h;

	assert_int_equal(listed(CMD), 0);
	assert_int_equal(lsk_telemetry_register(f->stack), 0);
	assert_int_equal(listed(CMD), 1);
	j = tel_ask("/help," CMD);
	h = unit_json_get(unit_json_get(j, "/help"), CMD);
	assert_non_null(h);
	assert_string_equal(h->str, "listack counters (as --stats-json)");
	unit_json_free(j);
	assert_answer(f);
	/* registering again is no error */
	assert_int_equal(lsk_telemetry_register(f->stack), 0);
}

/* The answer is what lsk_stats_read reads, live. */
static void
test_answer_follows_counters(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_json *j;

	assert_int_equal(lsk_telemetry_register(f->stack), 0);
	assert_answer(f);
	traffic(f);
	assert_answer(f);
	j = tel_ask(CMD);
	assert_int_equal(unit_json_get(unit_json_get(unit_json_get(j, CMD),
		"ip"), "InReceives")->u, 5);
	assert_int_equal(unit_json_get(unit_json_get(unit_json_get(j, CMD),
		"udp"), "NoPorts")->u, 2);
	unit_json_free(j);
}

/*
 * A second stack registered is served instead; destroyed, it is served
 * no more (the command answers no data rather than reading freed
 * memory); the first registered again is served again.
 */
static void
test_switch_and_forget(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_fixture *g = unit_fixture_create(LSK_MODE_LIST);
	struct unit_json *j;

	assert_non_null(g);
	assert_int_equal(lsk_telemetry_register(f->stack), 0);
	traffic(f);
	assert_int_equal(lsk_telemetry_register(g->stack), 0);
	assert_answer(g);
	j = tel_ask(CMD);
	assert_int_equal(unit_json_get(unit_json_get(unit_json_get(j, CMD),
		"ip"), "InReceives")->u, 0);
	unit_json_free(j);

	unit_fixture_destroy(g);
	j = tel_ask(CMD);
	assert_non_null(unit_json_get(j, CMD));
	assert_int_equal(unit_json_get(j, CMD)->type, UNIT_JSON_NULL);
	unit_json_free(j);

	assert_int_equal(lsk_telemetry_register(f->stack), 0);
	assert_answer(f);
	/* served, forgotten and served again: still one command */
	assert_int_equal(listed(CMD), 1);
}

/*
 * Stacks made, served and destroyed over and over (a program that makes
 * one per run of something): each is served; the command is listed
 * once and registering never runs out of room (DPDK holds 64 commands).
 */
static void
test_many_stacks(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 70; i++) {
		struct unit_fixture *g = unit_fixture_create(LSK_MODE_LIST);

		assert_non_null(g);
		assert_int_equal(lsk_telemetry_register(g->stack), 0);
		unit_fixture_destroy(g);
	}
	assert_int_equal(listed(CMD), 1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_register),
		T(test_answer_follows_counters),
		T(test_switch_and_forget),
		cmocka_unit_test(test_many_stacks),
	};

	return cmocka_run_group_tests_name("telemetry", tests,
					   unit_group_setup_telemetry,
					   unit_group_teardown);
}
