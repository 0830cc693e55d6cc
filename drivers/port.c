/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port set-up for any ethdev: queues, descriptor rings, and each offload
 * only when the device reports it (virtual devices report none, and asking
 * for one makes rte_eth_dev_configure fail).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "listack/listack.h"
#include "listack/port.h"
#include "sfc_profile.h"

#define PORT_DEFAULT_DESCS 1024

unsigned int
lsk_pool_size(unsigned int rx_descs, unsigned int tx_descs,
	      unsigned int n_workers, unsigned int n_ports,
	      unsigned int n_lcores)
{
	unsigned int in_flight = n_workers *
				 (LSK_BURST_MAX + n_ports * 2 * LSK_BURST_MAX);

	/* and what reassembly may hold: each family's table its own bound
	 * (core/reasm.h: IPv4's and IPv6's) */
	return rx_descs + tx_descs + in_flight +
	       2 * n_workers * LSK_REASM_HELD_MAX +
	       n_lcores * LSK_POOL_CACHE * 3 / 2 + 1024;
}

static void
port_rss(const struct rte_eth_dev_info *di, uint16_t n_rxq,
	 struct rte_eth_conf *conf, struct lsk_port_info *info)
{
	uint64_t hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP) &
		      di->flow_type_rss_offloads;

	if (n_rxq < 2 || hf == 0)
		return;
	conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf->rx_adv_conf.rss_conf.rss_hf = hf;
	conf->rx_adv_conf.rss_conf.rss_key = NULL;
	info->rss = true;
}

/*
 * Ask for L2/L3 packet types only where the PMD reports them: eth_input
 * then trusts an "Ethernet + IPv4" type instead of reading the ethertype.
 */
static void
port_ptypes(uint16_t port, struct lsk_port_info *info)
{
	uint32_t want[] = { RTE_PTYPE_L2_ETHER, RTE_PTYPE_L3_IPV4 };
	uint32_t have[32];
	int n, i;

	n = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_L3_MASK, have,
					     RTE_DIM(have));
	for (i = 0; i < n && i < (int)RTE_DIM(have); i++)
		if ((have[i] & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV4)
			info->ptype = true;
	if (info->ptype)
		rte_eth_dev_set_ptypes(port, RTE_PTYPE_L2_MASK |
				       RTE_PTYPE_L3_MASK, want, RTE_DIM(want));
}

int
lsk_port_configure(uint16_t port, const struct lsk_port_params *p,
		   struct lsk_port_info *info)
{
	struct rte_eth_dev_info di;
	struct rte_eth_conf conf;
	struct rte_eth_txconf txconf;
	struct rte_eth_rxconf rxconf;
	uint16_t nb_rxd, nb_txd, q;
	int socket, rc;

	memset(info, 0, sizeof(*info));
	rc = rte_eth_dev_info_get(port, &di);
	if (rc < 0)
		return rc;
	snprintf(info->driver, sizeof(info->driver), "%s",
		 di.driver_name ? di.driver_name : "?");

	info->n_rxq = RTE_MIN(RTE_MAX(p->n_rxq, 1), di.max_rx_queues);
	info->n_txq = RTE_MIN(RTE_MAX(p->n_txq, 1), di.max_tx_queues);
	if (info->n_rxq == 0 || info->n_txq == 0)
		return -ENOTSUP;

	memset(&conf, 0, sizeof(conf));
	txconf = di.default_txconf;
	txconf.offloads = 0;
	conf.rxmode.offloads = (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
				RTE_ETH_RX_OFFLOAD_UDP_CKSUM) &
			       di.rx_offload_capa;
	if (p->mtu != 0 && p->mtu <= di.max_mtu && p->mtu >= di.min_mtu)
		conf.rxmode.mtu = p->mtu;
	port_rss(&di, info->n_rxq, &conf, info);
	if (di.dev_flags != NULL && (*di.dev_flags & RTE_ETH_DEV_INTR_LSC)) {
		conf.intr_conf.lsc = 1;
		info->lsc = true;
	}
	if (lsk_sfc_is_sfc(&di)) {
		lsk_sfc_apply(&di, &conf, &txconf);
		info->sfc_profile = true;
	}
	if (info->rss)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_RSS_HASH &
					di.rx_offload_capa;

	rc = rte_eth_dev_configure(port, info->n_rxq, info->n_txq, &conf);
	if (rc < 0)
		return rc;
	info->rx_ipv4_cksum = conf.rxmode.offloads &
			      RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
	info->rx_udp_cksum = conf.rxmode.offloads &
			     RTE_ETH_RX_OFFLOAD_UDP_CKSUM;
	info->tx_fast_free = txconf.offloads &
			     RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;

	nb_rxd = p->nb_rxd ? p->nb_rxd : PORT_DEFAULT_DESCS;
	nb_txd = p->nb_txd ? p->nb_txd : PORT_DEFAULT_DESCS;
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (rc < 0)
		return rc;
	info->nb_rxd = nb_rxd;
	info->nb_txd = nb_txd;

	socket = rte_eth_dev_socket_id(port);
	if (socket < 0)
		socket = (int)rte_socket_id();
	rxconf = di.default_rxconf;
	rxconf.offloads = conf.rxmode.offloads;
	for (q = 0; q < info->n_rxq; q++) {
		rc = rte_eth_rx_queue_setup(port, q, nb_rxd, (unsigned)socket,
					    &rxconf, p->pool);
		if (rc < 0)
			return rc;
	}
	for (q = 0; q < info->n_txq; q++) {
		rc = rte_eth_tx_queue_setup(port, q, nb_txd, (unsigned)socket,
					    &txconf);
		if (rc < 0)
			return rc;
	}
	if (p->mtu != 0)
		info->mtu_set = rte_eth_dev_set_mtu(port, p->mtu) == 0;
	port_ptypes(port, info);
	return 0;
}

void
lsk_port_describe(uint16_t port, const struct lsk_port_info *info,
		  char *buf, size_t len)
{
	snprintf(buf, len,
		 "port %u: %s, %u rxq x %u descs, %u txq x %u descs, "
		 "ptype %s, ipv4 csum %s, udp csum %s, rss %s, "
		 "tx fast free %s%s",
		 port, info->driver, info->n_rxq, info->nb_rxd, info->n_txq,
		 info->nb_txd, info->ptype ? "hw" : "sw",
		 info->rx_ipv4_cksum ? "hw" : "sw",
		 info->rx_udp_cksum ? "hw" : "sw", info->rss ? "on" : "off",
		 info->tx_fast_free ? "on" : "off",
		 info->sfc_profile ? ", sfc profile" : "");
}
