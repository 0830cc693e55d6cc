/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ports feed (--feed ports): listack-bench as the device under test
 * of a generator whose counters are read after one common stop (Pktgen-
 * DPDK in bench/pktgen/run.sh --dut bench). It is the dut feed
 * (feed_dut.c) for one variant: the ports start once, the worker forwards
 * what arrives, measures its interval (--warmup after the first packet,
 * then --seconds or --packets) and forwards on until SIGINT or SIGTERM
 * (worker.c), then empties its RX queues. So nothing the generator sent
 * before the stop is left uncounted, and the whole run's counters (the
 * stack's, each port's ethdev ones) can be set against the generator's:
 * what it sent = port 0's ipackets + imissed + ierrors, what the stack
 * forwarded = port 1's opackets + tx_dropped, and every loss has a name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "feed_ports.h"

int
bench_ports_opts(struct bench_opts *o, const struct bench_scenario *sc,
		 unsigned int n_ports)
{
	if (o->feed == BENCH_FEED_PORTS && n_ports == 0) {
		fprintf(stderr, "--feed ports: give the ports on the EAL "
			"command line (--vdev net_memif0,... or -a PCI)\n");
		return -EINVAL;
	}
	if (o->feed != BENCH_FEED_PORTS) {
		fprintf(stderr, "--stats-json is the ports feed's (--feed "
			"ports)\n");
		return -EINVAL;
	}
	if (sc->measure != BENCH_MEASURE_FORWARDED) {
		fprintf(stderr, "--feed ports: scenario %s does not forward "
			"(it counts what it delivers)\n", sc->name);
		return -EINVAL;
	}
	if (o->repeat > 1) {
		fprintf(stderr, "--feed ports runs one variant once: no "
			"--repeat\n");
		return -EINVAL;
	}
	if (o->variants == NULL)
		o->variants = sc->baseline;
	else if (strchr(o->variants, ',') != NULL) {
		fprintf(stderr, "--feed ports runs one variant, not '%s'\n",
			o->variants);
		return -EINVAL;
	}
	return 0;
}

void
bench_ports_read(struct bench_feed *f)
{
	unsigned int p;

	for (p = 0; p < f->n_ports && p < LSK_MAX_PORTS; p++)
		if (rte_eth_stats_get((uint16_t)p, &f->ports->eth[p]) != 0)
			memset(&f->ports->eth[p], 0, sizeof(f->ports->eth[p]));
	f->ports->have_eth = true;
}

/* "ethdev": [...] for the stats file: each port's counters. */
static void
ethdev_json(const struct bench_feed *f, char *buf, size_t len)
{
	size_t used;
	unsigned int p;

	used = (size_t)snprintf(buf, len, "\"ethdev\": [");
	for (p = 0; p < f->n_ports && p < LSK_MAX_PORTS && used < len; p++) {
		const struct rte_eth_stats *c = &f->ports->eth[p];

		used += (size_t)snprintf(buf + used, len - used,
			"%s{\"id\": %u, \"ipackets\": %" PRIu64 ", \"imissed\": %"
			PRIu64 ", \"ierrors\": %" PRIu64 ", \"rx_nombuf\": %"
			PRIu64 ", \"opackets\": %" PRIu64 ", \"oerrors\": %"
			PRIu64 "}", p ? ", " : "", p, c->ipackets, c->imissed,
			c->ierrors, c->rx_nombuf, c->opackets, c->oerrors);
	}
	if (used < len)
		snprintf(buf + used, len - used, "]");
}

static void
print_whole_run(const struct bench_feed *f)
{
	const struct lsk_stats *s = &f->ports->stats;
	unsigned int p, i, named = 0;

	printf("\nthe whole run, from the ports' start to the stop "
	       "(ethdev: the PMD's counters; stack: listack's)\n");
	printf("%-5s %12s %9s %9s %9s %12s %9s | %12s %12s %10s %10s\n",
	       "port", "ipackets", "imissed", "ierrors", "rx_nombuf",
	       "opackets", "oerrors", "stack rx", "stack tx", "rx_dropped",
	       "tx_dropped");
	for (p = 0; p < f->n_ports && p < LSK_MAX_PORTS; p++) {
		const struct rte_eth_stats *c = &f->ports->eth[p];

		printf("%-5u %12" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
		       " %12" PRIu64 " %9" PRIu64 " | %12" PRIu64 " %12" PRIu64
		       " %10" PRIu64 " %10" PRIu64 "\n", p, c->ipackets,
		       c->imissed, c->ierrors, c->rx_nombuf, c->opackets,
		       c->oerrors, s->ports[p].rx, s->ports[p].tx,
		       s->ports[p].rx_dropped, s->ports[p].tx_dropped);
	}
	printf("ip.ForwDatagrams %" PRIu64 "; not forwarded, by reason:",
	       s->ip.ForwDatagrams);
	for (i = 0; i < bench_n_drop_reasons; i++) {
		uint64_t v = bench_stat_at(s, bench_drop_reasons[i].offset);

		if (v)
			printf("%s %s %" PRIu64, named++ ? "," : "",
			       bench_drop_reasons[i].name, v);
	}
	printf("%s\n", named ? "" : " none");
}

int
bench_ports_report(const struct bench_feed *f, long long mbufs_left)
{
	const char *path = f->opts->stats_json;
	char extra[128 + LSK_MAX_PORTS * 192];
	FILE *out;
	int rc;

	if (!f->ports->have_stats || !f->ports->have_eth) {
		printf("the whole run: no counters (the variant did not "
		       "start)\n");
		return path != NULL ? -1 : 0;
	}
	print_whole_run(f);
	if (path == NULL)
		return 0;
	out = fopen(path, "w");
	if (out == NULL) {
		fprintf(stderr, "--stats-json %s: %s\n", path, strerror(errno));
		return -1;
	}
	ethdev_json(f, extra, sizeof(extra));
	rc = lsk_stats_write_json(&f->ports->stats, f->n_ports, mbufs_left,
				  extra, out);
	if (fclose(out) != 0 || rc < 0) {
		fprintf(stderr, "--stats-json %s: cannot write it\n", path);
		return -1;
	}
	return 0;
}
