/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-bench output: the header, the tables, and --json FILE. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "bench.h"

static double rdtsc_cycles;

#define DROP(sec, name) { #sec "." #name, offsetof(struct lsk_stats, sec.name) }

/* ip.InDelivers too: a forwarding scenario's traffic delivered locally
 * went nowhere it should (result_from_run takes it back out for the
 * scenarios that deliver) */
const struct bench_drop_reason bench_drop_reasons[] = {
	DROP(ip, InHdrErrors), DROP(ip, InTruncatedPkts),
	DROP(ip, InAddrErrors), DROP(ip, InNoRoutes), DROP(ip, InDiscards),
	DROP(ip, InUnknownProtos), DROP(ip, OutDiscards),
	DROP(ip, OutNoRoutes), DROP(ip, FragFails), DROP(ip, InDelivers),
	DROP(ip, ReasmFails), DROP(udp, InErrors), DROP(udp, NoPorts),
	DROP(filter, Dropped), DROP(eth, NotForUs), DROP(eth, UnknownType),
	DROP(eth, UnknownVlan), DROP(eth, Runts),
	DROP(arp, UnresolvedDiscards),
};
const unsigned int bench_n_drop_reasons = RTE_DIM(bench_drop_reasons);

uint64_t
bench_stats_drops(const struct lsk_stats *s)
{
	uint64_t d = 0;
	unsigned int i;

	for (i = 0; i < bench_n_drop_reasons; i++)
		d += bench_stat_at(s, bench_drop_reasons[i].offset);
	for (i = 0; i < LSK_MAX_PORTS; i++)
		d += s->ports[i].tx_dropped;
	return d;
}

/* Cycles the stage timers saw in a run, all stages together. */
static uint64_t
stage_cycles(const struct bench_result *x)
{
	uint64_t c = 0;
	unsigned int s;

	for (s = 0; s < LSK_STAGE_COUNT; s++)
		c += x->stages[s].cycles;
	return c;
}

static const char *
feed_text(const struct bench_opts *o)
{
	switch (o->feed) {
	case BENCH_FEED_RING:
		return "ring (net_ring ports, generator on the main lcore)";
	case BENCH_FEED_PCAP:
		return "pcap (net_pcap infinite_rx -> net_null sink)";
	case BENCH_FEED_PORTS:
		return "ports (the EAL's ports, forwarded until SIGINT or "
		       "SIGTERM)";
	default:
		return "dut (ports from the EAL command line)";
	}
}

void
bench_print_header(const struct bench_opts *o, const struct bench_scenario *sc,
		   unsigned int worker, double rdtsc_cost)
{
	rdtsc_cycles = rdtsc_cost;
	printf("listack-bench %s: %s\n", sc->name, sc->summary);
	printf("feed %s%s\n", feed_text(o), o->rx_scattered ?
	       ", mbufs to the worker in scattered order" : "");
	if (!bench_feed_from_eal(o) || o->config == NULL)
		printf("%u flow%s, %u route%s, %u-byte frames\n", o->flows,
		       o->flows == 1 ? "" : "s", o->routes,
		       o->routes == 1 ? "" : "s", o->size);
	if (o->packets)
		printf("per variant: %.2f s warm-up, then %" PRIu64
		       " packets\n", o->warmup, o->packets);
	else
		printf("per variant: %.2f s warm-up, then %.2f s measured\n",
		       o->warmup, o->seconds);
	if (o->repeat > 1)
		printf("%u rounds, each runs every variant in turn\n",
		       o->repeat);
	if (sc->measure == BENCH_MEASURE_DELIVERED)
		printf("counted: udp.InDatagrams of the worker; consumer "
		       "(lsk_udp_recv_burst 32 + rte_pktmbuf_free_bulk) %s\n",
		       o->drain_worker ? "in the worker loop after "
		       "lsk_worker_flush (its cycles are in cycles/pkt)" :
		       "on the main lcore between generator bursts "
		       "(--drain worker to move it)");
	if (sc->measure == BENCH_MEASURE_CONSUMER)
		printf("counted: datagrams the consumer on the main lcore took "
		       "out of a 65536-datagram ring pre-filled by the worker "
		       "with 32768 per round; cycles = consumer loop only "
		       "(recv + free), TSC\n");
	if (sc->rx_cksum_good && o->feed == BENCH_FEED_RING)
		printf("generator mbufs flagged RTE_MBUF_F_RX_IP_CKSUM_GOOD | "
		       "RTE_MBUF_F_RX_L4_CKSUM_GOOD and the flow's RSS hash (as "
		       "sfc sets them)%s\n",
		       sc->per_flow_ip_id ? ", IP IDs incrementing per flow" :
		       "");
	if (sc->rx_cksum_good && o->feed == BENCH_FEED_PCAP)
		printf("an RX callback on port 0 computes each frame's IPv4 "
		       "and UDP checksums and flags them\nGOOD or BAD as the "
		       "sfc PMD does, and sets the RSS hash (rx_cksum.c), on "
		       "the worker; its cycles\nand the sink's (net_null frees "
		       "each mbuf in tx) are the NIC's work, timed and shown "
		       "apart%s\n",
		       sc->per_flow_ip_id ? "; IP IDs incrementing per flow" :
		       "");
	printf("worker lcore %u, burst %u, TSC %.3f GHz, rdtsc costs %.1f "
	       "cycles\n\n", worker, BENCH_BURST,
	       (double)rte_get_tsc_hz() / 1e9, rdtsc_cost);
	fflush(stdout);
}

static double
per(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* An empty poll (rx_burst finds nothing, flush has nothing) costs about
 * 70 cycles here; this overestimates it a little. */
#define EMPTY_POLL_CYCLES 100.0

static double
idle_share(const struct bench_result *r)
{
	return r->tsc ? RTE_MIN(1.0, r->empty_polls * EMPTY_POLL_CYCLES /
				       (double)r->tsc) : 0.0;
}

/* TSC reads the stack's stage accounting makes per forwarded packet:
 * one per stage run, one more per pipeline run and per flush. */
static double
timer_reads_per_packet(const struct bench_result *r)
{
	uint64_t reads = 0;
	unsigned int s;

	for (s = 0; s < LSK_STAGE_COUNT; s++)
		reads += r->stages[s].calls;
	reads += r->stages[LSK_STAGE_ETH_INPUT].calls;
	reads += r->stages[LSK_STAGE_TX].calls;
	return per(reads, r->counted);
}

/* Did the pcap feed's checksum callback run in any of the results? */
static bool
emul_ran(const struct bench_result *r, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (r[i].ran && r[i].emul.cb_packets)
			return true;
	return false;
}

void
bench_print_results(const struct bench_scenario *sc,
		    const struct bench_result *r, unsigned int n,
		    const struct bench_round *rounds, unsigned int n_rounds)
{
	unsigned int i, s, k, ran = 0;
	char range[64];

	static const char *const what[] = { "forwarded", "delivered",
					    "consumed" };

	printf("%-12s %8s", "variant", "Mpps");
	if (n_rounds > 1)
		printf(" %15s", "min-max");
	printf(" %11s %6s", "cycles/pkt", "ratio");
	if (n_rounds > 1)
		printf(" %11s", "min-max");
	printf(" %12s %10s %9s %6s  %s\n", what[sc->measure], "pkts/poll",
	       "checked", "mbufs", "result");
	for (i = 0; i < n; i++) {
		const struct bench_result *x = &r[i];

		if (!x->ran) {
			printf("%-12s %s%s\n", x->name,
			       x->failed ? "FAILED: " : "", x->note);
			continue;
		}
		ran++;
		printf("%-12s %8.3f", x->name, x->mpps);
		if (n_rounds > 1) {
			snprintf(range, sizeof(range), "%.3f-%.3f",
				 x->mpps_min, x->mpps_max);
			printf(" %15s", range);
		}
		printf(" %11.1f %6.2f", x->cycles_per_packet,
		       isfinite(x->ratio) ? x->ratio : 0.0);
		if (n_rounds > 1) {
			if (isfinite(x->ratio_min))
				snprintf(range, sizeof(range), "%.2f-%.2f",
					 x->ratio_min, x->ratio_max);
			else
				snprintf(range, sizeof(range), "-");
			printf(" %11s", range);
		}
		printf(" %12" PRIu64 " %10.1f %9" PRIu64 " %6lld  %s%s\n",
		       x->counted, per(x->received, x->polls), x->checked,
		       x->mbufs_in_use, x->failed ? "FAILED: " : "ok",
		       x->failed ? x->note : "");
	}
	for (i = 0; i < n; i++)
		if (r[i].churned)
			printf("%-12s route changes: %" PRIu64 " (%.0f/s), "
			       "%" PRIu64 " refused; misrouted or wrong "
			       "packets: %" PRIu64 " (next hops checked: %"
			       PRIu64 ")\n", r[i].name,
			       r[i].route_changes, r[i].route_changes_per_s,
			       r[i].route_refused, r[i].check_failures,
			       r[i].next_hops_checked);
	if (n_rounds > 1)
		bench_print_rounds(sc, rounds, n_rounds);
	if (ran == 0)
		return;

	if (n_rounds > 1)
		printf("\n%s, pkts/poll, checked and the figures below: "
		       "each variant's median run by Mpps\n(of an even number "
		       "of runs, the slower of the middle two); mbufs, result: "
		       "all its runs\n", what[sc->measure]);
	printf("\ncycles/packet by stage (packets/call)");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %18s", r[i].name);
	printf("\n");
	for (s = 0; s < LSK_STAGE_COUNT; s++) {
		printf("  %-36s", lsk_stage_name(s));
		for (i = 0; i < n; i++) {
			const struct bench_stage_result *st = &r[i].stages[s];

			if (!r[i].ran)
				continue;
			if (st->packets == 0)
				printf(" %18s", "-");
			else
				printf(" %9.1f (%6.1f)",
				       per(st->cycles, st->packets),
				       per(st->packets, st->calls));
		}
		printf("\n");
	}
	printf("  %-36s", "stages, per counted packet");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %18.1f", per(stage_cycles(&r[i]),
					      r[i].counted));
	printf("\n  %-36s", "rx burst + loop (the rest)");
	for (i = 0; i < n; i++) {
		if (!r[i].ran)
			continue;
		printf(" %18.1f", per(r[i].tsc - RTE_MIN(stage_cycles(&r[i]),
							  r[i].tsc),
				      r[i].counted));
	}
	/* not cycles_per_packet: of an even number of rounds that is the
	 * mean of two runs, and these rows are all the median run's */
	printf("\n  %-36s", "whole path");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %18.1f", per(r[i].tsc, r[i].counted));
	if (emul_ran(r, n)) {
		/* the pcap feed's work that a NIC does (bench.h) */
		printf("\n  %-36s", "feed's checksum callback (NIC's)");
		for (i = 0; i < n; i++)
			if (r[i].ran)
				printf(" %18.1f", per(r[i].emul.cb_cycles,
						      r[i].counted));
		printf("\n  %-36s", "feed's sink in tx (net_null frees)");
		for (i = 0; i < n; i++)
			if (r[i].ran)
				printf(" %18.1f", per(r[i].emul.sink_cycles,
						      r[i].counted));
		printf("\n  %-36s", "whole path less callback and sink");
		for (i = 0; i < n; i++)
			if (r[i].ran)
				printf(" %18.1f", per(r[i].tsc -
					RTE_MIN(r[i].emul.cb_cycles +
						r[i].emul.sink_cycles,
						r[i].tsc), r[i].counted));
		printf("\n  %-36s", "device: stages less the sink");
		for (i = 0; i < n; i++)
			if (r[i].ran)
				printf(" %18.1f", per(stage_cycles(&r[i]) -
					RTE_MIN(r[i].emul.sink_cycles,
						stage_cycles(&r[i])),
					r[i].counted));
		printf("\n  %-36s", "frames the callback flagged GOOD");
		for (i = 0; i < n; i++)
			if (r[i].ran)
				printf(" %17.1f%%", 100.0 *
				       per(r[i].emul.cb_good,
					   r[i].emul.cb_packets));
	}
	printf("\n  %-36s", "stage timers, upper bound (rdtsc)");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %18.1f",
			       timer_reads_per_packet(&r[i]) * rdtsc_cycles);
	printf("\n  %-36s", "Gbit/s (frames without FCS)");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %18.2f", r[i].gbps);
	printf("\n  %-36s", "udp InDatagrams / RcvbufErrors");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %9" PRIu64 "/%8" PRIu64, r[i].delivered,
			       r[i].rcvbuf_errors);
	printf("\n  %-36s", "gro Trains / Merged");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %9" PRIu64 "/%8" PRIu64, r[i].gro_trains,
			       r[i].gro_merged);
	printf("\n  %-36s", "datagrams per gro train (formed)");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %18.1f", r[i].gro_trains ?
			       (double)(r[i].gro_merged) / r[i].gro_trains :
			       0.0);
	if (sc->measure == BENCH_MEASURE_CONSUMER) {
		printf("\n  %-36s", "consumer datagrams per recv call");
		for (i = 0; i < n; i++)
			if (r[i].ran)
				printf(" %18.1f", per(r[i].counted,
						      r[i].consumer_calls));
	}
	printf("\n  %-36s", "route cache hits");
	for (i = 0; i < n; i++) {
		if (!r[i].ran)
			continue;
		if (r[i].cache_hits + r[i].cache_misses == 0)
			printf(" %18s", "-");
		else
			printf(" %17.1f%%", 100.0 * per(r[i].cache_hits,
				r[i].cache_hits + r[i].cache_misses));
	}
	printf("\n  %-36s", "route lookups the cache bypassed");
	for (i = 0; i < n; i++) {
		uint64_t all = r[i].cache_hits + r[i].cache_misses +
			       r[i].cache_bypassed;

		if (!r[i].ran)
			continue;
		if (all == 0)
			printf(" %18s", "-");
		else
			printf(" %17.1f%%", 100.0 * per(r[i].cache_bypassed,
							 all));
	}
	printf("\n  %-36s", "empty polls");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %17.1f%%",
			       100.0 * per(r[i].empty_polls, r[i].polls));
	printf("\n  %-36s", "worker idle, est. (feed behind)");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %17.1f%%", 100.0 * idle_share(&r[i]));
	printf("\n  %-36s", "main <-> worker line transfer (cyc)");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %18.0f", r[i].core_to_core);
	printf("\n  %-36s", "worker had its CPU");
	for (i = 0; i < n; i++)
		if (r[i].ran)
			printf(" %17.1f%%", 100.0 * r[i].cpu_share);
	if (n_rounds > 1)
		printf("\n\nMpps, cycles/pkt: medians of the %u runs of each "
		       "variant, min-max: their range\nratio = median over the "
		       "rounds of Mpps / Mpps of the baseline (%s) in the same "
		       "round,\nsame traffic, same process; min-max: the range "
		       "of those ratios\n", n_rounds, sc->baseline);
	else
		printf("\n\nratio = Mpps / Mpps of the baseline (%s), same "
		       "traffic, same run\n", sc->baseline);
	for (i = 0; i < n && strcmp(r[i].name, sc->baseline) != 0; i++)
		;
	if (i == n)
		printf("%s was not run: a variant NAME+X is compared with "
		       "%s+X\n", sc->baseline, sc->baseline);
	/* every run's, not only the median one's: a warned run is one the
	 * medians had to outvote */
	for (k = 0; k < n_rounds; k++) {
		for (i = 0; i < rounds[k].n; i++) {
			const struct bench_result *x = &rounds[k].r[i];
			char name[64];

			if (!x->ran)
				continue;
			if (n_rounds > 1)
				snprintf(name, sizeof(name), "%s, round %u",
					 x->name, k + 1);
			else
				snprintf(name, sizeof(name), "%s", x->name);
			if (x->cpu_share < 0.98)
				printf("WARNING: %s: the worker had its CPU "
				       "%.0f%% of the interval: other threads "
				       "ran there, figures are low\n", name,
				       100.0 * x->cpu_share);
			if (idle_share(x) > 0.02)
				printf("WARNING: %s: the worker idled about "
				       "%.0f%% of the interval waiting for "
				       "packets: the feed, not the stack, set "
				       "the rate\n", name, 100.0 * idle_share(x));
		}
	}
	fflush(stdout);
}

void
bench_json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.3f", v);
	else
		fprintf(f, "null");
}

int
bench_write_json(const char *path, const struct bench_scenario *sc,
		 const struct bench_result *r, unsigned int n,
		 const struct bench_round *rounds, unsigned int n_rounds)
{
	FILE *f = fopen(path, "w");
	unsigned int i, s;
	bool first = true;

	if (f == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "{\"scenario\": \"%s\", \"baseline\": \"%s\",\n",
		sc->name, sc->baseline);
	if (n_rounds > 1)
		fprintf(f, " \"repeat\": %u, \"summary\": \"mpps, "
			"cycles_per_packet: medians of the runs; ratio: median "
			"of the per-round ratios; the other fields: the median "
			"run by mpps (of an even number, the slower of the "
			"middle two)\",\n", n_rounds);
	fprintf(f, " \"variants\": [");
	for (i = 0; i < n; i++) {
		const struct bench_result *x = &r[i];

		if (!x->ran)
			continue;
		fprintf(f, "%s\n  {\"name\": \"%s\", \"mpps\": ",
			first ? "" : ",", x->name);
		first = false;
		bench_json_number(f, x->mpps);
		fprintf(f, ", \"cycles_per_packet\": ");
		bench_json_number(f, x->cycles_per_packet);
		fprintf(f, ", \"ratio\": ");
		bench_json_number(f, x->ratio);
		if (n_rounds > 1) {
			fprintf(f, ", \"mpps_min\": ");
			bench_json_number(f, x->mpps_min);
			fprintf(f, ", \"mpps_max\": ");
			bench_json_number(f, x->mpps_max);
			fprintf(f, ", \"ratio_min\": ");
			bench_json_number(f, x->ratio_min);
			fprintf(f, ", \"ratio_max\": ");
			bench_json_number(f, x->ratio_max);
		}
		fprintf(f, ", \"packets\": %" PRIu64 ", \"gbit_s\": ",
			x->counted);
		bench_json_number(f, x->gbps);
		fprintf(f, ", \"udp_in_datagrams\": %" PRIu64
			", \"udp_rcvbuf_errors\": %" PRIu64
			", \"gro_trains\": %" PRIu64 ", \"gro_merged\": %"
			PRIu64 ", \"route_cache_hits\": %" PRIu64
			", \"route_cache_misses\": %" PRIu64
			", \"route_cache_bypassed\": %" PRIu64
			", \"mbufs_in_use\": %lld, \"failed\": %s",
			x->delivered, x->rcvbuf_errors, x->gro_trains,
			x->gro_merged, x->cache_hits, x->cache_misses,
			x->cache_bypassed,
			x->mbufs_in_use, x->failed ? "true" : "false");
		fprintf(f, ",\n   \"rx_cksum_callback\": {\"packets\": %"
			PRIu64 ", \"flagged_good\": %" PRIu64
			", \"cycles\": %" PRIu64 "}, \"sink\": {\"packets\": %"
			PRIu64 ", \"cycles\": %" PRIu64 "}, \"tsc\": %" PRIu64,
			x->emul.cb_packets, x->emul.cb_good, x->emul.cb_cycles,
			x->emul.sink_packets, x->emul.sink_cycles, x->tsc);
		fprintf(f, ",\n   \"stages\": [");
		for (s = 0; s < LSK_STAGE_COUNT; s++) {
			const struct bench_stage_result *st = &x->stages[s];

			fprintf(f, "%s\n    {\"name\": \"%s\", \"calls\": %"
				PRIu64 ", \"packets\": %" PRIu64
				", \"cycles\": %" PRIu64
				", \"cycles_per_packet\": ", s ? "," : "",
				lsk_stage_name(s), st->calls, st->packets,
				st->cycles);
			bench_json_number(f, per(st->cycles, st->packets));
			fprintf(f, ", \"packets_per_call\": ");
			bench_json_number(f, per(st->packets, st->calls));
			fprintf(f, "}");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "]");
	if (n_rounds > 1)
		bench_json_rounds(f, rounds, n_rounds);
	fprintf(f, "}\n");
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	return 0;
}
