/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The measured worker: the same run-to-completion loop as listack-fwd
 * (rte_eth_rx_burst of 32 per RX queue -> lsk_worker_input, then
 * lsk_worker_flush), plus a phase clock looked at every 16 polls: warm-up,
 * then a measured interval bounded by time or by packets. The worker takes
 * both snapshots itself (its own counters and its own TSC), so nothing
 * crosses cores while it runs but two flags. The ports feed's worker
 * forwards on after the interval until it is stopped, then empties its RX
 * queues, so that what a generator sent before the stop is all counted.
 */
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "bench.h"

#define CLOCK_EVERY 16	/* polls between looks at the clock and flags */
/* at most so many polls to empty the RX queues after the stop (a
 * generator still sending would keep them full) */
#define DRAIN_POLLS 4096

enum phase {
	PHASE_WAIT_FIRST,	/* dut: nothing received yet */
	PHASE_WARMUP,
	PHASE_MEASURE,
	PHASE_TAIL,		/* until_stop: after the interval */
};

/* The thread's CPU time: less than the wall time when other threads
 * took the worker's CPU (a busy machine), which the TSC cannot see. */
static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
snapshot(struct bench_run *r, struct lsk_stats *s, struct bench_feed_work *e,
	 uint64_t *t, uint64_t *cpu_ns)
{
	*e = r->emul;
	lsk_worker_stats_read(r->w, s);
	*cpu_ns = thread_cpu_ns();
	*t = rte_rdtsc();
}

/* The measured interval's end: the second snapshot, the polls in it. */
static void
end_interval(struct bench_run *r, uint64_t polls, uint64_t empty)
{
	snapshot(r, &r->s1, &r->emul1, &r->t1, &r->cpu1_ns);
	r->polls = polls;
	r->empty_polls = empty;
	r->measured = true;
}

/* One poll of every RX queue into the stack; the packets received.
 * Inlined where it is called: bench/callgrind.sh counts the feed as
 * rte_eth_rx_burst inlined in bench_worker_loop. */
static __rte_always_inline unsigned int
poll_once(struct bench_run *r, struct rte_mbuf **pkts)
{
	unsigned int got = 0, i;

	for (i = 0; i < r->n_rxq; i++) {
		uint16_t n = rte_eth_rx_burst(r->rxq[i].port, r->rxq[i].queue,
					      pkts, BENCH_BURST);

		if (n) {
			lsk_worker_input(r->w, pkts, n);
			got += n;
		}
	}
	lsk_worker_flush(r->w);
	if (r->drain_feed != NULL)	/* udp-local --drain worker */
		bench_drain_ep(r->drain_feed);
	return got;
}

int
bench_worker_loop(void *arg)
{
	struct bench_run *r = arg;
	struct rte_mbuf *pkts[BENCH_BURST];
	enum phase phase = r->wait_first ? PHASE_WAIT_FIRST : PHASE_WARMUP;
	uint64_t deadline = rte_rdtsc() + r->warmup_tsc;
	uint64_t received = 0, measured_rx = 0;
	uint64_t polls = 0, empty = 0;
	unsigned int tick = 0, i;

	r->measured = false;
	for (;;) {
		unsigned int got = poll_once(r, pkts);

		received += got;
		polls++;
		empty += got == 0;

		if (++tick < CLOCK_EVERY)
			continue;
		tick = 0;
		/* the signal too: with one lcore no drive loop passes it on */
		if (r->stop || bench_signalled)
			break;
		if (phase == PHASE_WAIT_FIRST) {
			if (received) {
				phase = PHASE_WARMUP;
				deadline = rte_rdtsc() + r->warmup_tsc;
			}
		} else if (phase == PHASE_WARMUP) {
			if (rte_rdtsc() >= deadline) {
				snapshot(r, &r->s0, &r->emul0, &r->t0, &r->cpu0_ns);
				phase = PHASE_MEASURE;
				deadline = r->t0 + r->measure_tsc;
				measured_rx = received;
				polls = empty = 0;
			}
		} else if (phase == PHASE_MEASURE &&
			   (r->packets ? received - measured_rx >= r->packets
				       : rte_rdtsc() >= deadline)) {
			if (!r->until_stop)
				break;
			end_interval(r, polls, empty);
			r->interval_whole = true;
			phase = PHASE_TAIL;
		}
	}
	for (i = 0; r->until_stop && i < DRAIN_POLLS && poll_once(r, pkts);
	     i++)
		;
	if (r->until_stop)
		lsk_worker_stats_read(r->w, &r->s_end);
	/* polling no more: a control thread's grace period (route-churn)
	 * must not wait for this one */
	lsk_worker_offline(r->w);
	if (phase == PHASE_MEASURE)
		end_interval(r, polls, empty);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
	return 0;
}
