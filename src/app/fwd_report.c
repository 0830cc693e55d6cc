/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What listack-fwd says at the end of a run: the summary on stdout and
 * the --stats-json file (its counters as docs/configuration.md, "What
 * happens to a packet", names them).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "listack/listack.h"
#include "listack/udp.h"
#include "fwd.h"

void
fwd_print_summary(const struct lsk_stats *st, unsigned int n_ports,
		  long long in_use)
{
	const struct lsk_ip_stats *ip = &st->ip;
	unsigned int i;

	printf("\n%-6s %12s %12s %12s %12s\n", "port", "rx", "tx",
	       "rx_dropped", "tx_dropped");
	for (i = 0; i < n_ports; i++)
		printf("%-6u %12" PRIu64 " %12" PRIu64 " %12" PRIu64
		       " %12" PRIu64 "\n", i, st->ports[i].rx, st->ports[i].tx,
		       st->ports[i].rx_dropped, st->ports[i].tx_dropped);
	printf("\n%-12s %12s %10s %12s %12s\n", "stage", "packets", "calls",
	       "pkts/call", "cycles/pkt");
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		const struct lsk_stage_stats *s = &st->stages[i];

		printf("%-12s %12" PRIu64 " %10" PRIu64 " %12.1f %12.1f\n",
		       lsk_stage_name(i), s->packets, s->calls,
		       s->calls ? (double)s->packets / s->calls : 0.0,
		       s->packets ? (double)s->cycles / s->packets : 0.0);
	}
	printf("\nip: InReceives %" PRIu64 " ForwDatagrams %" PRIu64
	       " InDelivers %" PRIu64 " InUnknownProtos %" PRIu64
	       " InHdrErrors %" PRIu64
	       " InTruncatedPkts %" PRIu64 " InCsumErrors %" PRIu64
	       " InAddrErrors %" PRIu64 " InNoRoutes %" PRIu64
	       " InDiscards %" PRIu64 " FragFails %" PRIu64 "\n",
	       ip->InReceives, ip->ForwDatagrams, ip->InDelivers,
	       ip->InUnknownProtos, ip->InHdrErrors, ip->InTruncatedPkts,
	       ip->InCsumErrors,
	       ip->InAddrErrors, ip->InNoRoutes, ip->InDiscards,
	       ip->FragFails);
	printf("eth: InFrames %" PRIu64 " NotForUs %" PRIu64
	       " UnknownType %" PRIu64 " UnknownVlan %" PRIu64
	       " Runts %" PRIu64 "\n", st->eth.InFrames, st->eth.NotForUs,
	       st->eth.UnknownType, st->eth.UnknownVlan, st->eth.Runts);
	printf("arp: InRequests %" PRIu64 " OutRequests %" PRIu64
	       " OutReplies %" PRIu64 " UnresolvedDiscards %" PRIu64
	       "; icmp: OutEchoReps %" PRIu64 " OutDestUnreachs %" PRIu64
	       " OutTimeExcds %" PRIu64 " OutRateLimited %" PRIu64 "\n",
	       st->arp.InRequests, st->arp.OutRequests, st->arp.OutReplies,
	       st->arp.UnresolvedDiscards, st->icmp.OutEchoReps,
	       st->icmp.OutDestUnreachs, st->icmp.OutTimeExcds,
	       st->icmp.OutRateLimited);
	printf("gro: Trains %" PRIu64 " Merged %" PRIu64 "; route_cache: Hits %"
	       PRIu64 " Misses %" PRIu64 "; filter: Dropped %" PRIu64 "\n",
	       st->gro.Trains, st->gro.Merged, st->route_cache.Hits,
	       st->route_cache.Misses, st->filter.Dropped);
	printf("udp: InDatagrams %" PRIu64 " NoPorts %" PRIu64
	       " InErrors %" PRIu64 " InCsumErrors %" PRIu64
	       " RcvbufErrors %" PRIu64 " IgnoredMulti %" PRIu64
	       " OutDatagrams %" PRIu64 "\n", st->udp.InDatagrams,
	       st->udp.NoPorts, st->udp.InErrors, st->udp.InCsumErrors,
	       st->udp.RcvbufErrors, st->udp.IgnoredMulti,
	       st->udp.OutDatagrams);
	printf("mbufs_in_use %lld\n", in_use);
}

int
fwd_write_json(const char *path, const struct lsk_stats *st,
	       unsigned int n_ports, long long in_use, const char *extra)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (f == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	rc = lsk_stats_write_json(st, n_ports, in_use, extra, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* "services": [...] and "workers": [...] for the stats file, taken before the stack goes. */
char *
fwd_services_json(const struct lsk_stack *stack)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	fprintf(f, "\"services\": ");
	lsk_services_write_json(stack, f);
	fprintf(f, ",\n \"workers\": ");
	lsk_workers_write_json(stack, f);
	fclose(f);
	return buf;
}
