/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port layer: configure any ethdev for listack (queues per worker,
 * descriptor rings, the offloads the PMD has) and size the mbuf pools.
 * Offloads a PMD lacks are done in software by the stack; the sfc PMD gets
 * its own profile (drivers/sfc_profile.c).
 */
#ifndef LISTACK_PORT_H
#define LISTACK_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_port_params {
	uint16_t n_rxq;		/* wanted; capped by the device */
	uint16_t n_txq;		/* wanted; capped by the device */
	uint16_t nb_rxd;	/* 0 = default (1024), adjusted to limits */
	uint16_t nb_txd;
	uint16_t mtu;		/* IP MTU; 0 leaves the device's */
	struct rte_mempool *pool;
};

struct lsk_port_info {
	char driver[32];
	uint16_t n_rxq, n_txq, nb_rxd, nb_txd;
	bool rx_ipv4_cksum;	/* PMD flags IPv4 header checksums */
	bool rx_udp_cksum;	/* PMD flags UDP checksums */
	bool rss;
	bool ptype;		/* PMD sets L2/L3 packet types */
	bool tx_fast_free;
	bool sfc_profile;	/* the sfc profile was applied */
	bool mtu_set;		/* the device took the MTU */
	bool lsc;		/* link changes raise an interrupt (the
				 * application registers for
				 * RTE_ETH_EVENT_INTR_LSC) */
};

/* Configure and set up the queues of a port (not started). */
int lsk_port_configure(uint16_t port, const struct lsk_port_params *p,
		       struct lsk_port_info *info);
/* Human-readable one-line description of what was enabled. */
void lsk_port_describe(uint16_t port, const struct lsk_port_info *info,
		       char *buf, size_t len);

/*
 * Mbufs a pool needs so it cannot run dry: every RX and TX descriptor
 * full, every worker holding a whole burst plus full TX buffers, and every
 * lcore's cache full.
 */
unsigned int lsk_pool_size(unsigned int rx_descs, unsigned int tx_descs,
			   unsigned int n_workers, unsigned int n_ports,
			   unsigned int n_lcores);
#define LSK_POOL_CACHE 256

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_PORT_H */
