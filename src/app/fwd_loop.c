/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd's loops: the workers' run-to-completion loop (RX burst,
 * stack, flush), and the main lcore's chores (services, --idle-exit,
 * --stats-interval, a reload SIGHUP asked for, link changes).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "fwd.h"
#include "fwd_opts.h"

extern struct fwd_app fwd_app;

uint16_t
fwd_tx_shared(void *arg, uint16_t port, uint16_t queue,
	      struct rte_mbuf **pkts, uint16_t n)
{
	struct fwd_app *app = arg;
	uint16_t sent;

	/* refused while the device is reconfigured: counted as every
	 * refusal is (portN.tx_dropped) */
	if (unlikely(app->port_paused[port]))
		return 0;
	if (!app->txq_shared[port])
		return rte_eth_tx_burst(port, queue, pkts, n);
	/* one lock per burst, taken only when the device has fewer TX
	 * queues than there are workers */
	rte_spinlock_lock(&app->txq_lock[port][queue]);
	sent = rte_eth_tx_burst(port, queue, pkts, n);
	rte_spinlock_unlock(&app->txq_lock[port][queue]);
	return sent;
}

unsigned int
fwd_worker_poll(struct fwd_worker *fw)
{
	struct rte_mbuf *pkts[FWD_BURST_MAX];
	unsigned int i, total = 0;

	for (i = 0; i < fw->n_rxq; i++) {
		uint16_t n;

		if (unlikely(fwd_app.port_paused[fw->rxq[i].port]))
			continue;
		n = rte_eth_rx_burst(fw->rxq[i].port, fw->rxq[i].queue, pkts,
				     (uint16_t)fw->burst);
		if (n) {
			lsk_worker_input(fw->w, pkts, n);
			total += n;
		}
	}
	lsk_worker_flush(fw->w);
	/* after every rx and tx call of this pass (device_mtu_set) */
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
	fw->polls++;
	return total;
}

int
fwd_worker_loop(void *arg)
{
	struct fwd_worker *fw = arg;

	while (!fwd_app.stop)
		fwd_worker_poll(fw);
	lsk_worker_offline(fw->w);
	return 0;
}

static uint64_t
frames_received(const struct fwd_app *app)
{
	struct lsk_stats st;

	lsk_stats_read(app->stack, &st);
	return st.eth.InFrames;
}

static void
print_interval(const struct fwd_app *app, struct lsk_stats *prev,
	       double seconds)
{
	struct lsk_stats st;
	unsigned int p;
	uint64_t drops;

	lsk_stats_read(app->stack, &st);
	for (p = 0; p < app->n_ports; p++)
		printf("%sport %u rx %.0f pps tx %.0f pps", p ? " | " : "", p,
		       (st.ports[p].rx - prev->ports[p].rx) / seconds,
		       (st.ports[p].tx - prev->ports[p].tx) / seconds);
	drops = st.ip.InHdrErrors + st.ip.InTruncatedPkts +
		st.ip.InAddrErrors + st.ip.InNoRoutes + st.ip.InDiscards +
		st.ip.FragFails + st.arp.UnresolvedDiscards +
		st.eth.NotForUs + st.eth.UnknownType + st.eth.UnknownVlan +
		st.eth.Runts;
	printf(" | drops %" PRIu64 "\n", drops);
	fflush(stdout);
	*prev = st;
}

/*
 * The main lcore's chores. With worker lcores it only sleeps and checks;
 * alone, it also polls (and checks the clock every few hundred polls).
 *
 * Its sleep doubles from 100 us to 1 ms while the services are idle and
 * is back to 100 us after any datagram: where the main lcore shares a CPU
 * with a worker (2 CPUs, 2 workers), every wake-up is two context
 * switches taken from that worker, and a fixed 100 us sleep woke it some
 * 5000 times a second (several per cent of the worker's CPU).
 */
#define FWD_IDLE_SLEEP_MIN_NS (100 * 1000L)
#define FWD_SERVICES_EVERY 8
#define FWD_IDLE_SLEEP_MAX_NS (1000 * 1000L)

void
fwd_main_loop(struct fwd_app *app, const struct fwd_opts *o)
{
	const uint64_t hz = rte_get_tsc_hz();
	bool polling = rte_lcore_count() == 1;
	uint64_t last_rx = 0, last_rx_tsc = rte_rdtsc();
	uint64_t next_print = last_rx_tsc + (uint64_t)(o->stats_interval * hz);
	uint64_t next_link = last_rx_tsc + hz;
	struct lsk_stats prev;
	unsigned int spins = 0;
	long idle_ns = FWD_IDLE_SLEEP_MIN_NS;

	memset(&prev, 0, sizeof(prev));
	while (!app->stop) {
		unsigned int busy = 0;
		uint64_t now, rx;

		if (polling)
			busy = fwd_worker_poll(&app->workers[0]);
		/* a polling lcore that forwards asks the services every
		 * FWD_SERVICES_EVERY polls (their lock and rings cost 3
		 * instructions a frame when asked every poll): their
		 * endpoint rings hold many times what comes in between */
		if (!polling || busy == 0 || spins % FWD_SERVICES_EVERY == 0)
			busy += lsk_services_poll(app->stack);
		if (!polling && busy == 0) {
			struct timespec ts = { 0, idle_ns };

			nanosleep(&ts, NULL);
			idle_ns = RTE_MIN(idle_ns * 2, FWD_IDLE_SLEEP_MAX_NS);
		} else {
			idle_ns = FWD_IDLE_SLEEP_MIN_NS;
		}
		if (fwd_reload_asked)
			fwd_config_reload(app);
		if (++spins < (polling ? 256u : 16u))
			continue;
		spins = 0;
		now = rte_rdtsc();
		/* links: those an interrupt named now, every port each second */
		fwd_ports_link_check(app, now >= next_link);
		if (now >= next_link) {	/* the host-ifs' carriers too */
			/* a table it publishes waits for no poll of ours */
			if (polling)
				lsk_worker_offline(app->workers[0].w);
			lsk_host_links_check(app->stack);
		}
		if (now >= next_link)
			next_link = now + hz;
		rx = frames_received(app);
		if (rx != last_rx) {
			last_rx = rx;
			last_rx_tsc = now;
		}
		if (o->idle_exit_ms >= 0 &&
		    (now - last_rx_tsc) * 1000 / hz >= (uint64_t)o->idle_exit_ms)
			app->stop = true;
		if (o->stats_interval > 0 && now >= next_print) {
			print_interval(app, &prev, o->stats_interval);
			next_print = now + (uint64_t)(o->stats_interval * hz);
		}
	}
}
