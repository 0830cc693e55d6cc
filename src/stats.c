/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counters: each worker keeps its own (no atomics on the fast path); a read
 * sums them. The JSON writer uses the Linux MIB names of DESIGN.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "lsk_priv.h"

static const char *const stage_names[LSK_STAGE_COUNT] = {
	[LSK_STAGE_ETH_INPUT] = "eth_input",
	[LSK_STAGE_ARP_INPUT] = "arp_input",
	[LSK_STAGE_UDP4_GRO] = "udp4_gro",
	[LSK_STAGE_IP4_INPUT] = "ip4_input",
	[LSK_STAGE_IP4_FILTER] = "ip4_filter",
	[LSK_STAGE_IP4_ROUTE] = "ip4_route",
	[LSK_STAGE_IP4_LOCAL] = "ip4_local",
	[LSK_STAGE_IP4_FORWARD] = "ip4_forward",
	[LSK_STAGE_UDP4_INPUT] = "udp4_input",
	[LSK_STAGE_ICMP4_INPUT] = "icmp4_input",
	[LSK_STAGE_IP4_OUTPUT] = "ip4_output",
	[LSK_STAGE_TX] = "tx",
};

const char *
lsk_stage_name(enum lsk_stage_id id)
{
	return (unsigned int)id < LSK_STAGE_COUNT ? stage_names[id] : "?";
}

/* Every member of struct lsk_stats is a uint64_t counter. */
static void
stats_add(struct lsk_stats *sum, const struct lsk_stats *one)
{
	uint64_t *d = (uint64_t *)sum;
	const uint64_t *s = (const uint64_t *)one;
	size_t i;

	for (i = 0; i < sizeof(*sum) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

/* A worker's counters, stage cycles scaled from its timed runs. */
void
lsk_worker_stats_read(const struct lsk_worker *w, struct lsk_stats *out)
{
	unsigned int i;

	memcpy(out, &w->stats, sizeof(*out));
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		struct lsk_stage_stats *s = &out->stages[i];
		uint64_t timed = w->stage_timed[i];

		if (timed != 0 && timed != s->packets)
			s->cycles = (uint64_t)((double)s->cycles *
					       s->packets / timed);
	}
}

int
lsk_stats_read(const struct lsk_stack *s, struct lsk_stats *out)
{
	unsigned int i;

	if (s == NULL || out == NULL)
		return -EINVAL;
	memcpy(out, &s->ctl_stats, sizeof(*out));
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		const struct lsk_worker *w =
			__atomic_load_n(&s->workers[i], __ATOMIC_ACQUIRE);
		struct lsk_stats one;

		if (w == NULL)
			continue;
		lsk_worker_stats_read(w, &one);
		stats_add(out, &one);
	}
	return 0;
}

#define JSON_FIELD(f, st, name, sep) \
	fprintf(f, "\"%s\": %" PRIu64 "%s", #name, (st)->name, sep)

int
lsk_stats_write_json(const struct lsk_stats *st, unsigned int n_ports,
		     long long mbufs_in_use, const char *extra, FILE *f)
{
	const struct lsk_ip_stats *ip = &st->ip;
	const struct lsk_eth_stats *eth = &st->eth;
	unsigned int i;

	fprintf(f, "{\"ip\": {");
	JSON_FIELD(f, ip, InReceives, ", ");
	JSON_FIELD(f, ip, InHdrErrors, ", ");
	JSON_FIELD(f, ip, InTruncatedPkts, ", ");
	JSON_FIELD(f, ip, InCsumErrors, ", ");
	JSON_FIELD(f, ip, InAddrErrors, ", ");
	JSON_FIELD(f, ip, InNoRoutes, ", ");
	JSON_FIELD(f, ip, InDiscards, ", ");
	JSON_FIELD(f, ip, InUnknownProtos, ", ");
	JSON_FIELD(f, ip, ForwDatagrams, ", ");
	JSON_FIELD(f, ip, OutDiscards, ", ");
	JSON_FIELD(f, ip, InDelivers, ", ");
	JSON_FIELD(f, ip, OutNoRoutes, ", ");
	JSON_FIELD(f, ip, FragFails, ", ");
	JSON_FIELD(f, ip, FragOKs, ", ");
	JSON_FIELD(f, ip, FragCreates, ", ");
	JSON_FIELD(f, ip, ReasmReqds, ", ");
	JSON_FIELD(f, ip, ReasmOKs, ", ");
	JSON_FIELD(f, ip, ReasmFails, "},\n");
	fprintf(f, " \"udp\": {");
	JSON_FIELD(f, &st->udp, InDatagrams, ", ");
	JSON_FIELD(f, &st->udp, NoPorts, ", ");
	JSON_FIELD(f, &st->udp, InErrors, ", ");
	JSON_FIELD(f, &st->udp, InCsumErrors, ", ");
	JSON_FIELD(f, &st->udp, RcvbufErrors, ", ");
	JSON_FIELD(f, &st->udp, OutDatagrams, ", ");
	JSON_FIELD(f, &st->udp, IgnoredMulti, "},\n");
	fprintf(f, " \"icmp\": {");
	JSON_FIELD(f, &st->icmp, InMsgs, ", ");
	JSON_FIELD(f, &st->icmp, InErrors, ", ");
	JSON_FIELD(f, &st->icmp, InCsumErrors, ", ");
	JSON_FIELD(f, &st->icmp, InEchos, ", ");
	JSON_FIELD(f, &st->icmp, InEchoReps, ", ");
	JSON_FIELD(f, &st->icmp, InDestUnreachs, ", ");
	JSON_FIELD(f, &st->icmp, InTimeExcds, ", ");
	JSON_FIELD(f, &st->icmp, OutMsgs, ", ");
	JSON_FIELD(f, &st->icmp, OutErrors, ", ");
	JSON_FIELD(f, &st->icmp, OutEchoReps, ", ");
	JSON_FIELD(f, &st->icmp, OutDestUnreachs, ", ");
	JSON_FIELD(f, &st->icmp, OutTimeExcds, ", ");
	JSON_FIELD(f, &st->icmp, OutRateLimited, "},\n");
	fprintf(f, " \"eth\": {");
	JSON_FIELD(f, eth, InFrames, ", ");
	JSON_FIELD(f, eth, NotForUs, ", ");
	JSON_FIELD(f, eth, UnknownType, ", ");
	JSON_FIELD(f, eth, UnknownVlan, ", ");
	JSON_FIELD(f, eth, Runts, "},\n");
	fprintf(f, " \"arp\": {");
	JSON_FIELD(f, &st->arp, InRequests, ", ");
	JSON_FIELD(f, &st->arp, InReplies, ", ");
	JSON_FIELD(f, &st->arp, InErrors, ", ");
	JSON_FIELD(f, &st->arp, OutRequests, ", ");
	JSON_FIELD(f, &st->arp, OutReplies, ", ");
	JSON_FIELD(f, &st->arp, Updates, ", ");
	JSON_FIELD(f, &st->arp, ResFailed, ", ");
	JSON_FIELD(f, &st->arp, UnresolvedDiscards, "},\n");
	fprintf(f, " \"gro\": {");
	JSON_FIELD(f, &st->gro, Trains, ", ");
	JSON_FIELD(f, &st->gro, Merged, "},\n");
	fprintf(f, " \"route_cache\": {");
	JSON_FIELD(f, &st->route_cache, Hits, ", ");
	JSON_FIELD(f, &st->route_cache, Misses, ", ");
	JSON_FIELD(f, &st->route_cache, Evictions, "},\n");
	fprintf(f, " \"filter\": {");
	JSON_FIELD(f, &st->filter, Dropped, "},\n");
	fprintf(f, " \"gso\": {");
	JSON_FIELD(f, &st->gso, Segments, "},\n");
	fprintf(f, " \"ports\": [");
	for (i = 0; i < n_ports && i < LSK_MAX_PORTS; i++) {
		const struct lsk_port_stats *p = &st->ports[i];

		fprintf(f, "%s{\"id\": %u, ", i ? ", " : "", i);
		JSON_FIELD(f, p, rx, ", ");
		JSON_FIELD(f, p, tx, ", ");
		JSON_FIELD(f, p, rx_dropped, ", ");
		JSON_FIELD(f, p, tx_dropped, "}");
	}
	fprintf(f, "],\n \"stages\": [");
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		const struct lsk_stage_stats *sg = &st->stages[i];

		fprintf(f, "%s{\"name\": \"%s\", ", i ? ", " : "",
			stage_names[i]);
		JSON_FIELD(f, sg, calls, ", ");
		JSON_FIELD(f, sg, packets, ", ");
		JSON_FIELD(f, sg, cycles, "}");
	}
	fprintf(f, "]");
	if (extra != NULL)
		fprintf(f, ",\n %s", extra);
	if (mbufs_in_use >= 0)
		fprintf(f, ",\n \"mbufs_in_use\": %lld", mbufs_in_use);
	fprintf(f, "}\n");
	return ferror(f) ? -EIO : 0;
}
