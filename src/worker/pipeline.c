/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pipeline's declarations in order (worker/pipeline.h): the worker
 * loop runs the stages in this order; the views derive every stage's
 * name, edges and drop reasons from the declarations listed here, and
 * the stats' "stages" array is the timed ones in their id's order.
 */
#include <string.h>

#include "core/stage.h"
#include "worker/pipeline.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "ip6/nd6.h"
#include "udp/gro.h"
#include "udp/udp.h"
#include "core/tx.h"
#include "host/host.h"

const struct lsk_stage_desc *const lsk_pipeline[] = {
	&lsk_rx_node,
	&lsk_fwd_fast_stage,
	&lsk_eth_input_stage,
	&lsk_arp_input_stage,
	&lsk_udp4_gro_stage,
	&lsk_ip4_input_stage,
	&lsk_ip4_filter_stage,
	&lsk_ip4_route_stage,
	&lsk_ip4_local_stage,
	&lsk_ip4_forward_stage,
	&lsk_gso_node,
	&lsk_neigh_node,
	&lsk_nd6_node,
	&lsk_udp4_input_stage,
	&lsk_icmp4_input_stage,
	&lsk_icmp_node,
	/* IPv6 */
	&lsk_fwd6_fast_stage,
	&lsk_udp6_gro_stage,
	&lsk_ip6_input_stage,
	&lsk_ip6_route_stage,
	&lsk_ip6_local_stage,
	&lsk_ip6_forward_stage,
	&lsk_ip6_reasm_node,
	&lsk_udp6_input_stage,
	&lsk_icmp6_input_stage,
	&lsk_icmp6_node,
	&lsk_ip6_output_stage,
	&lsk_send_node,
	&lsk_host_node,
	&lsk_ip4_output_stage,
	&lsk_tx_stage,
};
const unsigned int lsk_pipeline_n = RTE_DIM(lsk_pipeline);

const struct lsk_stage_desc *
lsk_stage_desc(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < lsk_pipeline_n; i++)
		if (lsk_pipeline[i]->id >= 0 &&
		    (unsigned int)lsk_pipeline[i]->id == id)
			return lsk_pipeline[i];
	return NULL;
}

const struct lsk_stage_desc *
lsk_pipeline_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < lsk_pipeline_n; i++)
		if (strcmp(lsk_pipeline[i]->name, name) == 0)
			return lsk_pipeline[i];
	return NULL;
}

unsigned int
lsk_pipeline_index(const struct lsk_stage_desc *s)
{
	unsigned int i;

	for (i = 0; i < lsk_pipeline_n && lsk_pipeline[i] != s; i++)
		;
	return i;
}

const char *
lsk_stage_name(enum lsk_stage_id id)
{
	const struct lsk_stage_desc *s = lsk_stage_desc(id);

	return s != NULL ? s->name : "?";
}
