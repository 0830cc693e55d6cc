/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack: the counters, by section and by stage, and how to read them.
 * Part of listack/listack.h, which includes it; include that.
 */
#ifndef LISTACK_STATS_H
#define LISTACK_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_stack;
struct lsk_worker;

/*
 * Counters, named after the Linux SNMP MIB. Summed over workers. Each
 * section's counters are listed once, here: X(name) for each, in the
 * order the JSON writes them; the structs below and the names the JSON
 * and telemetry use (src/core/counters.c) are made from these lists.
 */
#define LSK_IP_COUNTERS(X) \
	X(InReceives) X(InHdrErrors) X(InTruncatedPkts) X(InCsumErrors) \
	X(InAddrErrors) X(InNoRoutes) X(InDiscards) X(InUnknownProtos) \
	X(ForwDatagrams) X(OutDiscards) X(InDelivers) X(OutNoRoutes) \
	X(FragFails) X(FragOKs) X(FragCreates) X(ReasmReqds) X(ReasmOKs) \
	X(ReasmFails) X(ReasmTimeout) X(ReasmOverlaps) \
	X(ReasmDuplicates)	/* pieces dropped alone: Linux counts none */
#define LSK_UDP_COUNTERS(X) \
	X(InDatagrams) X(NoPorts) X(InErrors) X(InCsumErrors) \
	X(RcvbufErrors) X(OutDatagrams) X(IgnoredMulti)
#define LSK_ICMP_COUNTERS(X) \
	X(InMsgs) X(InErrors) X(InCsumErrors) X(InEchos) X(InEchoReps) \
	X(InDestUnreachs) X(InTimeExcds) \
	X(OutMsgs) X(OutErrors) X(OutEchoReps) X(OutDestUnreachs) \
	X(OutTimeExcds) X(OutRateLimited) \
	X(OutNoAddrs)		/* errors not sent: no address to send from */ \
	X(OutEchos)		/* echo requests of ping and traceroute */ \
	/* echo replies that no ping in progress waited for */ \
	X(InEchoRepsUnmatched)
#define LSK_ETH_COUNTERS(X) \
	X(InFrames) X(NotForUs) X(UnknownType) X(UnknownVlan) X(Runts)
#define LSK_ARP_COUNTERS(X) \
	X(InRequests) X(InReplies) X(InErrors) X(OutRequests) X(OutReplies) \
	X(Updates)		/* neighbour entries learnt or refreshed */ \
	X(ResFailed)		/* resolutions that got no answer */ \
	X(UnresolvedDiscards)	/* packets dropped for want of a MAC */ \
	X(TableFulls)		/* neighbours not made: no entry could go */ \
	X(Evictions)		/* entries the collector took for new ones */ \
	X(OutDiscards)		/* requests not sent: no mbuf */
#define LSK_GRO_COUNTERS(X) \
	X(Trains)		/* trains formed with at least two members */ \
	X(Merged)		/* datagrams that joined a train */
#define LSK_ROUTE_CACHE_COUNTERS(X) \
	X(Hits) X(Misses) X(Evictions) \
	/* lookups sent straight to the FIB while the cache hit too little \
	 * to pay for itself (fewer than 1 in 8 of 1024 lookups) */ \
	X(Bypassed)
#define LSK_FILTER_COUNTERS(X) \
	X(Dropped)		/* datagrams a filter rule dropped */
#define LSK_GSO_COUNTERS(X) \
	X(Segments)		/* datagrams sent by unchaining trains */
/* the host path (docs/host-path.md): frames written to a TAP, frames the
 * kernel sent that listack sent on, and what went neither way (Drops,
 * then each of its reasons: over the rate, a punt ring full, ARP or not
 * IP from the kernel, the host thread's own: a write refused, no mbuf
 * or the inject ring full; then neighbour discovery from the kernel) */
#define LSK_HOST_COUNTERS(X) \
	X(ToKernel) X(FromKernel) X(Drops) X(DropsRate) X(DropsRing) \
	X(DropsArp) X(DropsNotIp4) X(DropsThread) X(DropsNd)
/* Routes from zebra over FPM (src/serve/fpm_server.c): what came, what
 * was learned, what was refused (Err*: the connection was closed, its
 * read changed nothing) and what was passed over (Skip*). */
#define LSK_FPM_COUNTERS(X) \
	X(Connections) X(Refused) X(Disconnects) X(Frames) X(Messages) \
	X(RoutesAdded) X(RoutesDeleted) X(RoutesSwept) \
	X(RoutesRejected)	/* learning refused them (lsk_route_learn) */ \
	X(NexthopsAdded) X(NexthopsDeleted) \
	X(NexthopsFull)		/* a new nexthop id over the table's bound */ \
	X(ErrFrames) X(ErrMessages) X(ErrAttributes) X(ErrValues) \
	X(SkipInet6)		/* a path via the other family (RFC 5549) */ \
	X(SkipFamily) X(SkipTable) X(SkipType) X(SkipMsgType) \
	X(SkipConnected)	/* rtm_protocol kernel: our own subnets */ \
	X(SkipEncap)		/* an encapsulation (MPLS, ...) or RTA_VIA */ \
	X(SkipNoNexthop)	/* RTA_NH_ID naming no known nexthop */ \
	X(SkipNoPath)		/* no path on one of our interfaces */ \
	X(PathsCut)		/* paths past LSK_ROUTE_MAX_PATHS */

/* IPv6 (src/ip6/), as Linux's /proc/net/snmp6 names them (Ip6*, Icmp6*,
 * Udp6*), and neighbour discovery's table as arp's (nd) */
#define LSK_IP6_COUNTERS(X) \
	X(InReceives) X(InHdrErrors) X(InTooBigErrors) X(InNoRoutes) \
	X(InAddrErrors) X(InUnknownProtos) X(InTruncatedPkts) X(InDiscards) \
	X(InDelivers) X(OutForwDatagrams) X(OutRequests) X(OutDiscards) \
	X(OutNoRoutes) X(ReasmTimeout) X(ReasmReqds) X(ReasmOKs) \
	X(ReasmFails) X(FragOKs) X(FragFails) X(FragCreates) \
	X(InMcastPkts) X(OutMcastPkts) \
	X(ReasmDuplicates)	/* pieces dropped alone: Linux counts none */
#define LSK_ICMP6_COUNTERS(X) \
	X(InMsgs) X(InErrors) X(OutMsgs) X(OutErrors) X(InCsumErrors) \
	X(InDestUnreachs) X(InPktTooBigs) X(InTimeExcds) X(InParmProblems) \
	X(InEchos) X(InEchoReplies) X(InRouterSolicits) \
	X(InRouterAdvertisements) X(InNeighborSolicits) \
	X(InNeighborAdvertisements) X(InRedirects) \
	X(OutDestUnreachs) X(OutPktTooBigs) X(OutTimeExcds) \
	X(OutParmProblems) X(OutEchos) X(OutEchoReplies) \
	X(OutRouterAdvertisements) X(OutNeighborSolicits) \
	X(OutNeighborAdvertisements) X(OutRateLimited)
#define LSK_UDP6_COUNTERS(X) \
	X(InDatagrams) X(NoPorts) X(InErrors) X(OutDatagrams) \
	X(RcvbufErrors) X(InCsumErrors) X(IgnoredMulti)
#define LSK_ND_COUNTERS(X) \
	X(Updates)		/* neighbour entries learnt or refreshed */ \
	X(ResFailed)		/* resolutions that got no answer */ \
	X(UnresolvedDiscards)	/* packets dropped for want of a MAC */ \
	X(TableFulls)		/* neighbours not made: no entry could go */ \
	X(Evictions)		/* entries the collector took for new ones */ \
	X(OutDiscards)		/* solicitations not sent: no mbuf */ \
	X(DadProbes)		/* solicitations sent for our new addresses */ \
	X(DadFailed)		/* our addresses another node had */

/* The sections in the JSON's order: S(section, struct tag, list). */
#define LSK_COUNTER_SECTIONS(S) \
	S(ip, lsk_ip_stats, LSK_IP_COUNTERS) \
	S(udp, lsk_udp_stats, LSK_UDP_COUNTERS) \
	S(icmp, lsk_icmp_stats, LSK_ICMP_COUNTERS) \
	S(eth, lsk_eth_stats, LSK_ETH_COUNTERS) \
	S(arp, lsk_arp_stats, LSK_ARP_COUNTERS) \
	S(gro, lsk_gro_stats, LSK_GRO_COUNTERS) \
	S(route_cache, lsk_route_cache_stats, LSK_ROUTE_CACHE_COUNTERS) \
	S(filter, lsk_filter_stats, LSK_FILTER_COUNTERS) \
	S(gso, lsk_gso_stats, LSK_GSO_COUNTERS) \
	S(host, lsk_host_stats, LSK_HOST_COUNTERS) \
	S(fpm, lsk_fpm_stats, LSK_FPM_COUNTERS) \
	S(ip6, lsk_ip6_stats, LSK_IP6_COUNTERS) \
	S(icmp6, lsk_icmp6_stats, LSK_ICMP6_COUNTERS) \
	S(udp6, lsk_udp6_stats, LSK_UDP6_COUNTERS) \
	S(nd, lsk_nd_stats, LSK_ND_COUNTERS)

#define LSK_COUNTER_FIELD(name) uint64_t name;
#define LSK_COUNTER_STRUCT(section, tag, list) \
	struct tag { list(LSK_COUNTER_FIELD) };
LSK_COUNTER_SECTIONS(LSK_COUNTER_STRUCT)
#undef LSK_COUNTER_STRUCT

struct lsk_port_stats {
	uint64_t rx, tx, rx_dropped, tx_dropped;
};

/* The stages counted in struct lsk_stats, in pipeline order (the order
 * of the stats' "stages" array). Each stage's name, the stages it hands
 * packets to and its drop reasons are in its declaration, at the top of
 * its file; lsk_stage_name gives the name. */
enum lsk_stage_id {
	LSK_STAGE_FWD_FAST,
	LSK_STAGE_ETH_INPUT,
	LSK_STAGE_ARP_INPUT,
	LSK_STAGE_UDP4_GRO,
	LSK_STAGE_IP4_INPUT,
	LSK_STAGE_IP4_FILTER,
	LSK_STAGE_IP4_ROUTE,
	LSK_STAGE_IP4_LOCAL,
	LSK_STAGE_IP4_FORWARD,
	LSK_STAGE_UDP4_INPUT,
	LSK_STAGE_ICMP4_INPUT,
	/* IPv6 (src/ip6/): each id is added with its stage's declaration
	 * (lsk_pipeline lists every id's) */
	LSK_STAGE_FWD6_FAST,
	LSK_STAGE_UDP6_GRO,
	LSK_STAGE_IP6_INPUT,
	LSK_STAGE_IP6_ROUTE,
	LSK_STAGE_IP6_LOCAL,
	LSK_STAGE_IP6_FORWARD,
	LSK_STAGE_UDP6_INPUT,
	LSK_STAGE_ICMP6_INPUT,
	LSK_STAGE_IP6_OUTPUT,
	LSK_STAGE_IP4_OUTPUT,
	LSK_STAGE_TX,
	LSK_STAGE_COUNT,
};

struct lsk_stage_stats {
	uint64_t calls, packets, cycles;
};

struct lsk_stats {
	struct lsk_ip_stats ip;
	struct lsk_udp_stats udp;
	struct lsk_icmp_stats icmp;
	struct lsk_eth_stats eth;
	struct lsk_arp_stats arp;
	struct lsk_gro_stats gro;
	struct lsk_gso_stats gso;
	struct lsk_route_cache_stats route_cache;
	struct lsk_filter_stats filter;
	struct lsk_host_stats host;
	struct lsk_fpm_stats fpm;
	struct lsk_ip6_stats ip6;
	struct lsk_icmp6_stats icmp6;
	struct lsk_udp6_stats udp6;
	struct lsk_nd_stats nd;
	struct lsk_port_stats ports[LSK_MAX_PORTS];
	struct lsk_stage_stats stages[LSK_STAGE_COUNT];
};

const char *lsk_stage_name(enum lsk_stage_id id);

/* Sum the counters of every worker of the stack into *out. */
int lsk_stats_read(const struct lsk_stack *stack, struct lsk_stats *out);
/* Counters read from now on count from zero (the workers' own counters
 * are left alone: reads subtract what they were now). */
void lsk_stats_clear(struct lsk_stack *stack);
/* The longest gap between two polls of worker id (two
 * lsk_worker_flush calls: the time its RX queues waited, a burst's work
 * or the lcore preempted), in nanoseconds, since the worker started or
 * the last lsk_stats_clear (a worker starts again at its next poll).
 * -ENOENT: no such worker. */
int lsk_worker_poll_gap_max(const struct lsk_stack *stack, unsigned int id,
			    uint64_t *ns);
/* The workers' own figures as a JSON array, [{"worker": ID,
 * "poll_gap_max_ns": N}, ...] (a member of `show stats`'s JSON). */
int lsk_workers_write_json(const struct lsk_stack *stack, FILE *out);
/* Counters of one worker only. */
void lsk_worker_stats_read(const struct lsk_worker *worker,
			   struct lsk_stats *out);

/*
 * Write the counters object (what --stats-json writes). mbufs_in_use < 0
 * leaves the field out (it is meaningful only after shutdown). extra, when
 * not NULL, is more members written as they are ("\"services\": [...]").
 */
int lsk_stats_write_json(const struct lsk_stats *stats, unsigned int n_ports,
			 long long mbufs_in_use, const char *extra, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_STATS_H */
