/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry serves the same counters as --stats-json, read live:
 *   dpdk-telemetry.py -> /listack/stats
 * Telemetry callbacks take no argument, so one stack per process is served.
 */
#include <errno.h>

#include <rte_telemetry.h>

#include "lsk_priv.h"

static const struct lsk_stack *served_stack;

#define TEL_U64(d, st, name) rte_tel_data_add_dict_u64(d, #name, (st)->name)

static struct rte_tel_data *
tel_ip(const struct lsk_ip_stats *ip)
{
	struct rte_tel_data *d = rte_tel_data_alloc();

	if (d == NULL)
		return NULL;
	rte_tel_data_start_dict(d);
	TEL_U64(d, ip, InReceives);
	TEL_U64(d, ip, InHdrErrors);
	TEL_U64(d, ip, InTruncatedPkts);
	TEL_U64(d, ip, InCsumErrors);
	TEL_U64(d, ip, InAddrErrors);
	TEL_U64(d, ip, InNoRoutes);
	TEL_U64(d, ip, InDiscards);
	TEL_U64(d, ip, InUnknownProtos);
	TEL_U64(d, ip, ForwDatagrams);
	TEL_U64(d, ip, OutDiscards);
	TEL_U64(d, ip, InDelivers);
	TEL_U64(d, ip, OutNoRoutes);
	TEL_U64(d, ip, FragFails);
	return d;
}

static struct rte_tel_data *
tel_eth(const struct lsk_stats *st)
{
	struct rte_tel_data *d = rte_tel_data_alloc();

	if (d == NULL)
		return NULL;
	rte_tel_data_start_dict(d);
	TEL_U64(d, &st->eth, InFrames);
	TEL_U64(d, &st->eth, NotForUs);
	TEL_U64(d, &st->eth, UnknownType);
	TEL_U64(d, &st->eth, UnknownVlan);
	TEL_U64(d, &st->eth, Runts);
	return d;
}

static struct rte_tel_data *
tel_stages(const struct lsk_stats *st)
{
	struct rte_tel_data *d = rte_tel_data_alloc();
	unsigned int i;

	if (d == NULL)
		return NULL;
	rte_tel_data_start_dict(d);
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s_packets", lsk_stage_name(i));
		rte_tel_data_add_dict_u64(d, name, st->stages[i].packets);
		snprintf(name, sizeof(name), "%s_calls", lsk_stage_name(i));
		rte_tel_data_add_dict_u64(d, name, st->stages[i].calls);
		snprintf(name, sizeof(name), "%s_cycles", lsk_stage_name(i));
		rte_tel_data_add_dict_u64(d, name, st->stages[i].cycles);
	}
	return d;
}

static void
tel_add(struct rte_tel_data *d, const char *name, struct rte_tel_data *sub)
{
	if (sub != NULL && rte_tel_data_add_dict_container(d, name, sub, 0) < 0)
		rte_tel_data_free(sub);
}

static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lsk_stats st;

	(void)cmd;
	(void)params;
	if (served_stack == NULL || lsk_stats_read(served_stack, &st) < 0)
		return -ENODEV;
	rte_tel_data_start_dict(d);
	tel_add(d, "ip", tel_ip(&st.ip));
	tel_add(d, "eth", tel_eth(&st));
	tel_add(d, "stages", tel_stages(&st));
	rte_tel_data_add_dict_u64(d, "arp_UnresolvedDiscards",
				  st.arp.UnresolvedDiscards);
	return 0;
}

void
lsk_telemetry_forget(const struct lsk_stack *stack)
{
	if (served_stack == stack)
		served_stack = NULL;
}

int
lsk_telemetry_register(const struct lsk_stack *stack)
{
	bool first = served_stack == NULL;

	served_stack = stack;
	if (!first)
		return 0;
	return rte_telemetry_register_cmd("/listack/stats", tel_stats,
					  "listack counters (as --stats-json)");
}
