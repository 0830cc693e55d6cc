/* SPDX-License-Identifier: BSD-3-Clause */
/* The counters' names and places (core/counters.h). */
#include <stddef.h>
#include <string.h>

#include <rte_common.h>

#include "core/counters.h"

/* Every MIB counter, by section, in the order they are written: made
 * from the lists of include/listack/stats.h, which the structs are
 * made from too. */
#define COUNTER_DESC(sec, tag, name) \
	{ #sec, #name, offsetof(struct lsk_stats, sec) + \
		       offsetof(struct tag, name) },
#define COUNTER_SECTION(sec, tag, list) list(COUNTER_##sec)
#define COUNTER_ip(name) COUNTER_DESC(ip, lsk_ip_stats, name)
#define COUNTER_udp(name) COUNTER_DESC(udp, lsk_udp_stats, name)
#define COUNTER_icmp(name) COUNTER_DESC(icmp, lsk_icmp_stats, name)
#define COUNTER_eth(name) COUNTER_DESC(eth, lsk_eth_stats, name)
#define COUNTER_arp(name) COUNTER_DESC(arp, lsk_arp_stats, name)
#define COUNTER_gro(name) COUNTER_DESC(gro, lsk_gro_stats, name)
#define COUNTER_route_cache(name) \
	COUNTER_DESC(route_cache, lsk_route_cache_stats, name)
#define COUNTER_filter(name) COUNTER_DESC(filter, lsk_filter_stats, name)
#define COUNTER_gso(name) COUNTER_DESC(gso, lsk_gso_stats, name)
#define COUNTER_host(name) COUNTER_DESC(host, lsk_host_stats, name)
#define COUNTER_fpm(name) COUNTER_DESC(fpm, lsk_fpm_stats, name)
#define COUNTER_ip6(name) COUNTER_DESC(ip6, lsk_ip6_stats, name)
#define COUNTER_icmp6(name) COUNTER_DESC(icmp6, lsk_icmp6_stats, name)
#define COUNTER_udp6(name) COUNTER_DESC(udp6, lsk_udp6_stats, name)
#define COUNTER_nd(name) COUNTER_DESC(nd, lsk_nd_stats, name)

static const struct lsk_counter_desc counters[] = {
	LSK_COUNTER_SECTIONS(COUNTER_SECTION)
};

const struct lsk_counter_desc *
lsk_counters(unsigned int *n)
{
	*n = RTE_DIM(counters);
	return counters;
}

const struct lsk_counter_desc *
lsk_counter_at(size_t offset)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(counters); i++)
		if (counters[i].offset == offset)
			return &counters[i];
	return NULL;
}

uint64_t
lsk_counter_value(const struct lsk_stats *st, const struct lsk_counter_desc *c)
{
	uint64_t v;

	memcpy(&v, (const char *)st + c->offset, sizeof(v));
	return v;
}
