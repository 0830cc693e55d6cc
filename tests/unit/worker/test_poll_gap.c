/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * poll gap: each worker keeps its longest time between two polls (two
 * lsk_worker_flush calls, worker/worker.c), which `stats clear` starts
 * again; lsk_worker_poll_gap_max reads it, `show stats` (text and JSON)
 * and the metrics show it. The bounds checked are lower bounds a sleep
 * between two polls guarantees, never an upper bound on a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_run.h"
#include "unit_common.h"
#include "serve/metrics.h"

#define SLEEP_NS 3000000L	/* between two polls */
#define AT_LEAST_NS 2000000u	/* what it guarantees, the TSC's rate
				 * estimated by EAL (a few per cent off) */

static void
sleep_ns(long ns)
{
	struct timespec ts = { 0, ns };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static uint64_t
gap(struct unit_fixture *f)
{
	uint64_t ns = UINT64_MAX;

	assert_int_equal(lsk_worker_poll_gap_max(f->stack, 0, &ns), 0);
	return ns;
}

/* Nothing before a second poll; the sleep between two is seen; a
 * shorter gap later leaves the longest. */
static void
test_longest_kept(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t g;

	lsk_stats_clear(f->stack);
	lsk_worker_flush(f->worker);
	assert_int_equal(gap(f), 0);
	sleep_ns(SLEEP_NS);
	lsk_worker_flush(f->worker);
	g = gap(f);
	assert_true(g >= AT_LEAST_NS);
	lsk_worker_flush(f->worker);
	lsk_worker_flush(f->worker);
	assert_true(gap(f) >= g);
}

/* stats clear: 0 at once, 0 after the next poll (the first of the new
 * count), a gap measured again after the one after it. */
static void
test_clear_starts_again(void **state)
{
	struct unit_fixture *f = *state;

	lsk_worker_flush(f->worker);
	sleep_ns(SLEEP_NS);
	lsk_worker_flush(f->worker);
	assert_true(gap(f) >= AT_LEAST_NS);
	lsk_stats_clear(f->stack);
	assert_int_equal(gap(f), 0);
	lsk_worker_flush(f->worker);
	assert_int_equal(gap(f), 0);
	sleep_ns(SLEEP_NS);
	lsk_worker_flush(f->worker);
	assert_true(gap(f) >= AT_LEAST_NS);
	/* through the command, as listack-ctl clears it (the worker off
	 * line: a command's commit waits for the workers on line) */
	lsk_worker_offline(f->worker);
	cli_ok(f->stack, "stats clear");
	assert_int_equal(gap(f), 0);
}

/* The clear reaches the workers only through the published settings word
 * (control and data meet in published tables): its epoch moves there, a
 * flush takes it from there, and a clear again at 256 wraps around. */
static void
test_epoch_published(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_settings before, after;
	unsigned int i;

	lsk_settings_load(&f->stack->sh.settings, &before);
	lsk_stats_clear(f->stack);
	lsk_settings_load(&f->stack->sh.settings, &after);
	assert_int_equal(after.poll_gap_epoch,
			 (uint8_t)(before.poll_gap_epoch + 1));
	/* the rest of the word as it was */
	after.poll_gap_epoch = before.poll_gap_epoch;
	assert_memory_equal(&before, &after, sizeof(before));
	lsk_worker_flush(f->worker);
	assert_int_equal(f->worker->poll_gap_epoch,
			 (uint8_t)(before.poll_gap_epoch + 1));
	for (i = 0; i < 256; i++)
		lsk_stats_clear(f->stack);
	lsk_settings_load(&f->stack->sh.settings, &after);
	assert_int_equal(after.poll_gap_epoch,
			 (uint8_t)(before.poll_gap_epoch + 1));
	sleep_ns(SLEEP_NS);
	lsk_worker_flush(f->worker);
	assert_true(gap(f) >= AT_LEAST_NS);
}

static void
test_refused(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t ns = 7;

	assert_int_equal(lsk_worker_poll_gap_max(f->stack, 1, &ns), -ENOENT);
	assert_int_equal(lsk_worker_poll_gap_max(f->stack, LSK_MAX_WORKERS,
						 &ns), -EINVAL);
	assert_int_equal(lsk_worker_poll_gap_max(NULL, 0, &ns), -EINVAL);
	assert_int_equal(lsk_worker_poll_gap_max(f->stack, 0, NULL), -EINVAL);
	assert_int_equal(ns, 7);
}

/* The views: show stats' row and JSON member, the exit's JSON writer,
 * the metrics' gauge. */
static void
test_views(void **state)
{
	struct unit_fixture *f = *state;
	unsigned long long ns = 0, seen = 0;
	char *a, *p, *buf = NULL;
	unsigned int id = 9;
	size_t len = 0;
	FILE *out;

	lsk_stats_clear(f->stack);
	lsk_worker_flush(f->worker);
	sleep_ns(SLEEP_NS);
	lsk_worker_flush(f->worker);
	lsk_worker_offline(f->worker);
	a = cli_run(f->stack, "show stats", 0, false);
	p = strstr(a, "worker0");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "worker0 poll_gap_max_ns %llu", &ns), 1);
	assert_true(ns >= AT_LEAST_NS);
	free(a);

	a = cli_run(f->stack, "show stats", 0, true);
	p = strstr(a, "\"workers\": [{");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "\"workers\": [{\"worker\": %u, "
				"\"poll_gap_max_ns\": %llu}]", &id, &seen), 2);
	assert_int_equal(id, 0);
	assert_true(seen >= ns);	/* none shorter since */
	free(a);

	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(lsk_workers_write_json(f->stack, out), 0);
	fclose(out);
	assert_int_equal(sscanf(buf, "[{\"worker\": 0, \"poll_gap_max_ns\": "
				"%llu}]", &seen), 1);
	free(buf);
}

static void
test_metrics_gauge(void **state)
{
	static const unsigned int ids[] = { 0, 3 };
	static const uint64_t gaps[] = { 1500000, 42 };
	struct lsk_stats st[2];
	struct lsk_metrics_view v = {
		.total = &st[0], .n_ports = 2, .workers = st,
		.worker_ids = ids, .n_workers = 2, .worker_gap_ns = gaps,
		.mbufs_in_use = -1,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	memset(st, 0, sizeof(st));
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(lsk_metrics_write(&v, out), 0);
	fclose(out);
	assert_non_null(strstr(buf, "# TYPE listack_worker_poll_gap_max_seconds"
			       " gauge\n"));
	assert_non_null(strstr(buf, "\nlistack_worker_poll_gap_max_seconds"
			       "{worker=\"0\"} 0.001500000\n"));
	assert_non_null(strstr(buf, "\nlistack_worker_poll_gap_max_seconds"
			       "{worker=\"3\"} 0.000000042\n"));
	free(buf);
	/* no gaps given: no series */
	v.worker_gap_ns = NULL;
	buf = NULL;
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(lsk_metrics_write(&v, out), 0);
	fclose(out);
	assert_null(strstr(buf, "poll_gap"));
	free(buf);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_longest_kept),
		T(test_clear_starts_again),
		T(test_epoch_published),
		T(test_refused),
		T(test_views),
		cmocka_unit_test(test_metrics_gauge),
	};

	return cmocka_run_group_tests_name("poll_gap", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
