/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sfc profile: what listack asks of the sfc PMD (net_sfc_efx, AMD
 * Solarflare X2/X3 and Alveo SN1000 NICs) and why.
 *
 * - RX IPv4 and UDP checksum flags: the NIC verifies both; ip4_input then
 *   skips its software header checksum and later stages never checksum a
 *   payload (a software UDP checksum of 1400 bytes costs ~1400 cycles).
 * - RX RSS hash: flows are spread over the workers' RX queues and the
 *   hash is delivered in the mbuf, so no worker hashes a header itself.
 * - TX MBUF_FAST_FREE: every mbuf comes from one pool per socket with a
 *   reference count of 1, which is the contract this offload asks for; the
 *   PMD then frees transmitted mbufs in bulk to the pool.
 * - No VLAN stripping: eth_input parses tags itself so priority tags and
 *   unknown VLANs are counted the same on every PMD.
 *
 * The generic path (drivers/port.c) asks for each offload only when the
 * device reports it; this profile adds what is safe only on sfc.
 */
#include <string.h>

#include "sfc_profile.h"

bool
lsk_sfc_is_sfc(const struct rte_eth_dev_info *info)
{
	return info->driver_name != NULL &&
	       strcmp(info->driver_name, "net_sfc_efx") == 0;
}

void
lsk_sfc_apply(const struct rte_eth_dev_info *info, struct rte_eth_conf *conf,
	      struct rte_eth_txconf *txconf)
{
	uint64_t tx = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE &
		      info->tx_offload_capa;

	conf->txmode.offloads |= tx;
	txconf->offloads |= tx;
	conf->rxmode.offloads |= (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
				  RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
				  RTE_ETH_RX_OFFLOAD_RSS_HASH) &
				 info->rx_offload_capa;
}
