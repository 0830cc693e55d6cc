/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace, packets that wait for ARP: a traced packet held in the
 * neighbour table's hold queue may leave it on another thread than the
 * worker that traced it in. Its trace ends all the same, as it would on
 * that worker: in tx when another worker's ARP answer lets it go, in
 * drop (arp.UnresolvedDiscards) when another worker's timer gives up or
 * pushes it out of a full queue, or when the control thread drops what
 * is held (neigh flush, neigh del, neigh add of a static entry, the
 * teardown's lsk_neigh_drop_held). `trace show` counts a held packet in
 * flight and never leaves one there once it has gone.
 */
#include <stdio.h>
#include <string.h>

#include "unit_common.h"
#include "core/trace.h"
#include "trace_records.h"
#include "l2/l2.h"
#include "cli/cli.h"

#define C_IP UNIT_IPV4(10, 0, 1, 77)

static const struct rte_ether_addr c_mac = {
	.addr_bytes = { 2, 0, 0, 0, 1, 0x77 } };

/* What worker 1 sent: UDP datagrams and ARP requests on port 1. */
struct w1_sent {
	unsigned int udp, arp;
	uint16_t queue;
};

static uint16_t
w1_tx(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
      uint16_t n)
{
	struct w1_sent *s = arg;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (port == UNIT_P1 && unit_frame_is_arp(pkts[i]))
			s->arp++;
		else if (port == UNIT_P1 && !unit_frame_is_icmp(pkts[i]))
			s->udp++;
		s->queue = queue;
	}
	rte_pktmbuf_free_bulk(pkts, n);
	return n;
}

static struct lsk_worker *
worker1(struct unit_fixture *f, struct w1_sent *s)
{
	struct lsk_worker *w1;

	memset(s, 0, sizeof(*s));
	assert_int_equal(lsk_worker_create(f->stack, 1, &w1), 0);
	lsk_worker_set_tx_fn(w1, w1_tx, s);
	return w1;
}

/* One burst on w1, flushed; then off line, so that the control thread's
 * changes (unit_cmd) do not wait for it. */
static void
w1_input(struct lsk_worker *w1, struct rte_mbuf *m)
{
	lsk_worker_input(w1, &m, 1);
	lsk_worker_flush(w1);
	lsk_worker_offline(w1);
}

/* The k-th ended packet of worker wid's records, or NULL. */
static const struct lsk_trace_pkt *
ended_of(struct unit_fixture *f, unsigned int wid, unsigned int k)
{
	const struct lsk_trace *t = f->stack->sh.trace;
	unsigned int j;

	assert_non_null(t);
	assert_true(wid < t->n_workers);
	for (j = 0; j < LSK_TRACE_PKTS; j++) {
		if (t->w[wid].pkt[j].state != LSK_TRACE_DONE)
			continue;
		if (k-- == 0)
			return &t->w[wid].pkt[j];
	}
	return NULL;
}

/* `trace show` says want ("1 ended, 0 in flight"). */
static void
assert_show(struct unit_fixture *f, const char *want)
{
	struct lsk_out o;

	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "trace show", 10, "-", &o),
			 0);
	if (strstr(o.buf, want) == NULL)
		fail_msg("trace show: no '%s' in:\n%s", want, o.buf);
	lsk_out_free(&o);
}

static struct rte_mbuf *
to_c(uint16_t id)
{
	struct unit_pkt p;

	unit_pkt_init(&p, C_IP);
	p.id = id;
	return unit_pkt_mbuf(&p);
}

#define HELD_STAGES "rx eth_input ip4_input ip4_route ip4_forward neigh"

/* Held by worker 0, let go by worker 1, which got the ARP answer: the
 * trace ends in tx on worker 1's queue. */
static void
test_sent_by_another_worker(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w1;
	struct w1_sent s;

	w1 = worker1(f, &s);
	unit_cmd(f, "trace add 2");
	unit_input_one(f, to_c(1));
	assert_int_equal(unit_tx_arp_requests(f, UNIT_P1, C_IP), 1);
	assert_show(f, "0 ended, 1 in flight");

	w1_input(w1, unit_arp_mbuf(UNIT_P1, 2, &unit_p1_mac, &c_mac, C_IP,
				   &unit_p1_mac, UNIT_P1_IP));
	assert_int_equal(s.udp, 1);
	assert_int_equal(s.queue, 1);
	/* the ARP reply: worker 1's; the packet it let go: worker 0's */
	assert_string_equal(stages(ended_of(f, 1, 0)), "rx eth_input arp_input");
	assert_string_equal(stages(ended_of(f, 0, 0)), HELD_STAGES " tx");
	assert_string_equal(last_text(ended_of(f, 0, 0)), "port 1 queue 1");
	assert_show(f, "2 ended, 0 in flight");

	lsk_worker_destroy(w1);
	unit_tx_free(f);
}

/* Held by worker 1; worker 0's timer gives up on the neighbour: host
 * unreachable made, the packet dropped, on worker 0. */
static void
test_failed_on_another_worker(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_neigh_table *nt = f->stack->sh.neigh;
	const struct lsk_trace_pkt *t;
	struct lsk_worker *w1;
	struct w1_sent s;
	unsigned int probe, k;

	w1 = worker1(f, &s);
	unit_cmd(f, "trace add 1");
	w1_input(w1, to_c(1));
	assert_int_equal(s.arp, 1);
	assert_show(f, "0 ended, 1 in flight");
	for (probe = 0; probe < 4 && ended_of(f, 1, 0) == NULL; probe++) {
		for (k = 0; k < nt->n; k++)
			nt->e[k].next_probe = 0;
		nt->next_timer = 0;
		lsk_worker_flush(f->worker);
		unit_tx_free(f);
	}
	t = ended_of(f, 1, 0);
	assert_non_null(t);
	assert_string_equal(stages(t), HELD_STAGES " icmp drop");
	assert_string_equal(t->rec[t->n_recs - 2].text,
			    "error type 3 code 1: made");
	assert_string_equal(last_text(t), "arp.UnresolvedDiscards");
	assert_show(f, "1 ended, 0 in flight");
	assert_int_equal(unit_stats(f).arp.UnresolvedDiscards, 1);

	lsk_worker_destroy(w1);
}

/* Held by worker 1, pushed out of the full hold queue by what worker 0
 * holds for the same neighbour after it (worker 0 traces nothing). */
static void
test_pushed_out_by_another_worker(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_worker *w1;
	struct w1_sent s;
	uint16_t i;

	w1 = worker1(f, &s);
	unit_cmd(f, "trace add 1");
	w1_input(w1, to_c(1));
	for (i = 0; i < LSK_NEIGH_HOLD; i++)
		unit_input_one(f, to_c((uint16_t)(2 + i)));
	assert_string_equal(stages(ended_of(f, 1, 0)), HELD_STAGES " drop");
	assert_string_equal(last_text(ended_of(f, 1, 0)),
			    "arp.UnresolvedDiscards");
	assert_show(f, "1 ended, 0 in flight");

	lsk_worker_destroy(w1);
	unit_tx_free(f);
}

/* Worker 1 sends in one flush all it traced itself (LSK_TRACE_PKTS - 1
 * forwarded, then the ARP answer) and the three it let go from worker 0's
 * hold queue: more than it keeps to end after the tx function. Those
 * past its room end at their tx record; none stays in flight. */
static void
test_more_sent_than_kept(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[LSK_TRACE_PKTS];
	struct lsk_worker *w1;
	struct w1_sent s;
	struct unit_pkt p;
	char line[64];
	uint16_t i;

	w1 = worker1(f, &s);
	snprintf(line, sizeof(line), "trace add %u",
		 LSK_NEIGH_HOLD + LSK_TRACE_PKTS);
	unit_cmd(f, line);
	for (i = 0; i < LSK_NEIGH_HOLD; i++)
		unit_input_one(f, to_c((uint16_t)(1 + i)));
	for (i = 0; i < LSK_TRACE_PKTS - 1; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = i;
		m[i] = unit_pkt_mbuf(&p);
	}
	m[i] = unit_arp_mbuf(UNIT_P1, 2, &unit_p1_mac, &c_mac, C_IP,
			     &unit_p1_mac, UNIT_P1_IP);
	lsk_worker_input(w1, m, LSK_TRACE_PKTS);
	lsk_worker_flush(w1);
	lsk_worker_offline(w1);
	assert_int_equal(s.udp, LSK_TRACE_PKTS - 1 + LSK_NEIGH_HOLD);
	snprintf(line, sizeof(line), "%u ended, 0 in flight",
		 LSK_NEIGH_HOLD + LSK_TRACE_PKTS);
	assert_show(f, line);
	for (i = 0; i < LSK_NEIGH_HOLD; i++)
		assert_string_equal(last_text(ended_of(f, 0, i)),
				    "port 1 queue 1");

	lsk_worker_destroy(w1);
	unit_tx_free(f);
}

/* The neigh record of p: what the neighbour did with it. */
static const char *
neigh_text(const struct lsk_trace_pkt *p)
{
	unsigned int k;

	assert_non_null(p);
	for (k = 0; k < p->n_recs; k++)
		if (strcmp(p->rec[k].stage, "neigh") == 0)
			return p->rec[k].text;
	fail_msg("no neigh record in %s", stages(p));
	return NULL;
}

/* Issue 22: the neigh record says what happened, not what might: held
 * (the oldest pushed out when the queue was full), or sent because the
 * neighbour is resolved. */
static void
test_neigh_record_says_what(void **state)
{
	struct unit_fixture *f = *state;
	char want[96];
	uint16_t i;

	unit_cmd(f, "trace add 8");
	for (i = 0; i <= LSK_NEIGH_HOLD; i++)
		unit_input_one(f, to_c((uint16_t)(1 + i)));
	/* the first, pushed out by the last */
	assert_string_equal(stages(ended_of(f, 0, 0)), HELD_STAGES " drop");
	assert_string_equal(neigh_text(ended_of(f, 0, 0)),
			    "10.0.1.77 not resolved: held for ARP (1 waiting)");
	unit_input_one(f, unit_arp_mbuf(UNIT_P1, 2, &unit_p1_mac, &c_mac,
					C_IP, &unit_p1_mac, UNIT_P1_IP));
	unit_input_one(f, to_c(9));
	/* slots: the four datagrams, the ARP answer, the one after it */
	assert_string_equal(neigh_text(ended_of(f, 0, 1)),
			    "10.0.1.77 not resolved: held for ARP (2 waiting)");
	snprintf(want, sizeof(want), "10.0.1.77 not resolved: held for ARP "
		 "(%u waiting, the oldest dropped to make room)",
		 LSK_NEIGH_HOLD);
	assert_string_equal(neigh_text(ended_of(f, 0, LSK_NEIGH_HOLD)), want);
	assert_string_equal(stages(ended_of(f, 0, LSK_NEIGH_HOLD)),
			    HELD_STAGES " tx");
	assert_string_equal(neigh_text(ended_of(f, 0, LSK_NEIGH_HOLD + 2)),
			    "10.0.1.77 resolved, at 02:00:00:00:01:77 "
			    "(reachable): sent");
	assert_string_equal(stages(ended_of(f, 0, LSK_NEIGH_HOLD + 2)),
			    HELD_STAGES " tx");
	assert_show(f, "6 ended, 0 in flight");
	unit_tx_free(f);
}

/* The control thread drops what is held: each way ends the trace. */
static void
test_dropped_by_control(void **state)
{
	static const char *const how[] = {
		"neigh flush", "neigh del 10.0.1.77",
		"neigh add 10.0.1.77 lladdr 02:00:00:00:01:77",
		NULL,	/* lsk_neigh_drop_held: listack-fwd's teardown */
	};
	struct unit_fixture *f = *state;
	unsigned int i;

	for (i = 0; i < RTE_DIM(how); i++) {
		uint64_t before = unit_stats(f).arp.UnresolvedDiscards;

		unit_cmd(f, "trace add 1");
		unit_input_one(f, to_c((uint16_t)(1 + i)));
		assert_show(f, "0 ended, 1 in flight");
		if (how[i] != NULL)
			unit_cmd(f, how[i]);
		else
			assert_int_equal(lsk_neigh_drop_held(f->stack), 1);
		assert_int_equal(unit_stats(f).arp.UnresolvedDiscards,
				 before + 1);
		if (ended_of(f, 0, 0) == NULL)
			fail_msg("%s: the held packet stays in flight",
				 how[i] ? how[i] : "lsk_neigh_drop_held");
		assert_string_equal(stages(ended_of(f, 0, 0)),
				    HELD_STAGES " drop");
		assert_string_equal(last_text(ended_of(f, 0, 0)),
				    "arp.UnresolvedDiscards");
		assert_show(f, "1 ended, 0 in flight");
		if (i == 2)
			unit_cmd(f, "neigh del 10.0.1.77");	/* static */
		unit_tx_free(f);
	}
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_sent_by_another_worker),
		T(test_failed_on_another_worker),
		T(test_pushed_out_by_another_worker),
		T(test_more_sent_than_kept),
		T(test_dropped_by_control),
		T(test_neigh_record_says_what),
		cmocka_unit_test_setup_teardown(test_dropped_by_control,
						unit_setup_single,
						unit_teardown),
	};

	return cmocka_run_group_tests_name("trace_held", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
