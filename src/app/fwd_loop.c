/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-fwd's run-to-completion loop: RX burst, stack, flush. */
#include <rte_ethdev.h>

#include "fwd.h"

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
