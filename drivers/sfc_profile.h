/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef LSK_SFC_PROFILE_H
#define LSK_SFC_PROFILE_H

#include <stdbool.h>

#include <rte_ethdev.h>

bool lsk_sfc_is_sfc(const struct rte_eth_dev_info *info);
void lsk_sfc_apply(const struct rte_eth_dev_info *info,
		   struct rte_eth_conf *conf, struct rte_eth_txconf *txconf);

#endif
