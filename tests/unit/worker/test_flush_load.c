/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flush load: a flush that follows a burst of the same poll goes on with
 * what that burst loaded (worker/worker.c, lsk_worker_flush); a flush
 * alone (no burst since the last flush, or the worker set offline since)
 * loads what is published now: a new forwarding table, a port set down,
 * the settings word (a `stats clear`), a capture started; on every
 * worker, not worker 0 alone (another's reassembly timeouts send ICMP
 * through the table it holds).
 */
#include <stdio.h>
#include <unistd.h>

#include "unit_common.h"
#include "core/capture.h"
#include "core/shared.h"

/* One frame to the far network, into the worker: no flush. */
static void
burst_no_flush(struct unit_fixture *f)
{
	struct unit_pkt p;
	struct rte_mbuf *m;

	unit_pkt_init(&p, UNIT_FAR_IP);
	m = unit_pkt_mbuf(&p);
	assert_non_null(m);
	lsk_worker_input(f->worker, &m, 1);
}

/* A flush alone sees a table published since the last poll, and a port
 * the new table has down. */
static void
test_alone_loads_table(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_fwd_table *before;

	lsk_worker_flush(f->worker);
	before = f->worker->fwd;
	assert_ptr_equal(before, f->stack->sh.fwd);
	unit_cmd(f, "port 1 down");
	assert_ptr_not_equal(f->stack->sh.fwd, before);
	lsk_worker_flush(f->worker);
	assert_ptr_equal(f->worker->fwd, f->stack->sh.fwd);
	assert_int_equal(f->worker->ports_down, 1u << UNIT_P1);
	unit_cmd(f, "port 1 up");
	lsk_worker_flush(f->worker);
	assert_int_equal(f->worker->ports_down, 0);
	unit_tx_free(f);
}

/* A burst, then the worker set offline (a command's commit) before its
 * flush: the flush loads again (the burst's pointers may be gone), and
 * sends with the new table's port down: the frame is refused. (unit_cmd
 * sets the worker's table pointers, not the down ports, nor the
 * capture.) */
static void
test_offline_loads_again(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t dropped = f->worker->stats.ports[UNIT_P1].tx_dropped;
	const struct lsk_fwd_table *before;

	lsk_worker_flush(f->worker);
	burst_no_flush(f);
	before = f->worker->fwd;
	unit_cmd(f, "port 1 down");
	assert_ptr_not_equal(f->stack->sh.fwd, before);
	assert_int_equal(f->worker->ports_down, 0);
	lsk_worker_flush(f->worker);
	assert_ptr_equal(f->worker->fwd, f->stack->sh.fwd);
	assert_int_equal(f->worker->ports_down, 1u << UNIT_P1);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_int_equal(f->worker->stats.ports[UNIT_P1].tx_dropped,
			 dropped + 1);
	unit_cmd(f, "port 1 up");
	unit_tx_free(f);
}

/* The settings word: a `stats clear` published during a poll with a
 * burst is the next poll's; a flush alone takes it at once. */
static void
test_settings_word(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_settings set;
	uint8_t epoch;

	lsk_worker_flush(f->worker);
	epoch = f->worker->poll_gap_epoch;
	burst_no_flush(f);
	lsk_stats_clear(f->stack);
	lsk_settings_load(&f->stack->sh.settings, &set);
	assert_int_equal(set.poll_gap_epoch, (uint8_t)(epoch + 1));
	lsk_worker_flush(f->worker);	/* the burst's word */
	assert_int_equal(f->worker->poll_gap_epoch, epoch);
	lsk_worker_flush(f->worker);	/* alone: the word in force */
	assert_int_equal(f->worker->poll_gap_epoch, (uint8_t)(epoch + 1));
	lsk_stats_clear(f->stack);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->worker->poll_gap_epoch, (uint8_t)(epoch + 2));
	unit_tx_free(f);
}

/* A capture started since the last poll: a flush alone copies for it
 * (its TX: what worker 0 sends in a flush, the out ring's) and sees it
 * stopped. */
static void
test_alone_loads_capture(void **state)
{
	struct unit_fixture *f = *state;
	char line[128], path[64];

	snprintf(path, sizeof(path), "/tmp/lsk-test-flush-load-%d.pcapng",
		 (int)getpid());
	lsk_worker_flush(f->worker);
	assert_null(f->worker->cap);
	snprintf(line, sizeof(line), "capture start %s tx", path);
	unit_cmd(f, line);
	lsk_worker_flush(f->worker);
	assert_ptr_equal(f->worker->cap, f->stack->sh.capture);
	assert_non_null(f->worker->cap);
	assert_true(lsk_capture_tx_on(f->worker));
	unit_cmd(f, "capture stop");
	lsk_worker_flush(f->worker);
	assert_null(f->worker->cap);
	assert_false(lsk_capture_tx_on(f->worker));
	unlink(path);
}

/* Worker 1 (not worker 0, whose flush loaded alone before): a burst and
 * its flush, then set offline while a command publishes a new table and
 * frees the old one; its next flush, alone, holds the new table, not the
 * freed one. */
static void
test_other_worker_alone_loads(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w1;
	const struct lsk_fwd_table *before;
	unsigned int sent1 = 0;
	struct unit_pkt p;
	struct rte_mbuf *m;

	assert_int_equal(lsk_worker_create(f->stack, 1, &w1), 0);
	lsk_worker_set_tx_fn(w1, unit_tx_count_free, &sent1);
	unit_pkt_init(&p, UNIT_FAR_IP);
	m = unit_pkt_mbuf(&p);
	assert_non_null(m);
	lsk_worker_input(w1, &m, 1);
	lsk_worker_flush(w1);
	assert_int_equal(sent1, 1);
	before = w1->fwd;
	assert_ptr_equal(before, f->stack->sh.fwd);
	lsk_worker_offline(w1);
	unit_cmd(f, "port 1 down");
	assert_ptr_not_equal(f->stack->sh.fwd, before);
	lsk_worker_flush(w1);
	assert_ptr_equal(w1->fwd, f->stack->sh.fwd);
	assert_int_equal(w1->ports_down, 1u << UNIT_P1);
	lsk_worker_offline(w1);
	unit_cmd(f, "port 1 up");
	lsk_worker_destroy(w1);
	unit_tx_free(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_alone_loads_table),
		T(test_offline_loads_again),
		T(test_settings_word),
		T(test_alone_loads_capture),
		T(test_other_worker_alone_loads),
	};

	return cmocka_run_group_tests_name("flush_load", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
