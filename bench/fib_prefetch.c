/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fib-prefetch: what prefetching a burst's FIB entries as its
 * destinations are gathered buys (ip4/fib4_prefetch.h; fwd_fast's first
 * pass), measured in one process so that a busy machine slows both ways
 * alike. A DIR-24-8 of 2-byte entries (listack's FIB with a full table)
 * gets ROUTES random prefixes (/24 mostly, as bench/dut/fulltable.py's
 * table); FRAMES frames of 64 bytes each carry a destination in one of
 * them, drawn uniformly, or with HOT from the first HOT prefixes by Zipf
 * (exponent 1, as bench/dut/traffic.py's hot set). Bursts of BURST frames are taken in turn, the
 * next one each time, by three ways: gather the destinations (each frame
 * asked for LSK_RX_AHEAD on, as the fast path does) then
 * rte_fib_lookup_bulk; the same with each destination's tbl24 entry
 * prefetched as it is gathered ("prefetch"); and the same with the
 * entries prefetched in a loop of their own after the gather
 * (lsk_fib4_prefetch_bulk, as the fast path does: "prefetch-after").
 * TSC cycles a packet, median and mean over the bursts of each way.
 *
 *   listack-fib-prefetch [EAL options] -- [ROUTES [FRAMES [BURST [BURSTS
 *                                          [HOT]]]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_fib.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_prefetch.h>
#include <rte_random.h>

#include "core/rx.h"
#include "ip4/fib4_prefetch.h"

#define FRAME 64
#define DST_OFF 30	/* Ethernet 14 + the IPv4 header's 16 */
#define BURST_MAX 64

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the ways a burst is looked up, as named in the output */
enum { WAY_NONE, WAY_IN, WAY_AFTER, WAYS };
static const char *const way_name[WAYS] = {
	"no-prefetch", "prefetch", "prefetch-after",
};

/* One burst at frames (n of them) by way; the sum of the next hops, so
 * that nothing is optimised away. */
static __rte_always_inline uint64_t
burst(struct rte_fib *fib, const uint8_t *frames, unsigned int n,
      uintptr_t base, uint8_t shift, const int way)
{
	uint32_t dst[BURST_MAX];
	uint64_t nh[BURST_MAX], sum = 0;
	unsigned int i;

	for (i = 0; i < n && i < LSK_RX_AHEAD; i++)
		rte_prefetch0(frames + i * FRAME);
	for (i = 0; i < n; i++) {
		uint32_t d;

		if (i + LSK_RX_AHEAD < n)
			rte_prefetch0(frames + (i + LSK_RX_AHEAD) * FRAME);
		memcpy(&d, frames + i * FRAME + DST_OFF, sizeof(d));
		dst[i] = rte_be_to_cpu_32(d);
		if (way == WAY_IN)
			lsk_fib4_prefetch(base, shift, dst[i]);
	}
	if (way == WAY_AFTER)
		lsk_fib4_prefetch_bulk(base, shift, dst, n);
	rte_fib_lookup_bulk(fib, dst, nh, (int)n);
	for (i = 0; i < n; i++)
		sum += nh[i];
	return sum;
}

/* An index in [0, n) by Zipf with exponent 1, cdf[] its running sums. */
static unsigned long
zipf_draw(const double *cdf, unsigned long n)
{
	double u = (double)rte_rand_max(UINT64_C(1) << 53) /
		   (double)(UINT64_C(1) << 53) * cdf[n - 1];
	unsigned long lo = 0, hi = n - 1;

	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
main(int argc, char **argv)
{
	unsigned long routes = 1000000, nframes = 200000, n = 32;
	unsigned long bursts = 200000, hot = 0, b, i, at = 0;
	double *cdf = NULL;
	struct rte_fib_conf conf;
	struct rte_fib *fib;
	uint64_t *cyc[WAYS], sum = 0;
	uint32_t *pfx;
	uint8_t *frames, shift = 0;
	uintptr_t base;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	if (argc > 1)
		routes = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		nframes = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		n = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		bursts = strtoul(argv[4], NULL, 0);
	if (argc > 5)
		hot = strtoul(argv[5], NULL, 0);
	if (routes == 0 || nframes < BURST_MAX || n == 0 || n > BURST_MAX ||
	    bursts < WAYS || hot > routes) {
		fprintf(stderr, "usage: listack-fib-prefetch [EAL] -- [ROUTES "
			"[FRAMES [BURST (1-64) [BURSTS [HOT (<= ROUTES)]]]]]\n");
		return 2;
	}
	memset(&conf, 0, sizeof(conf));
	conf.type = RTE_FIB_DIR24_8;
	conf.default_nh = 0;
	conf.max_routes = (int)(routes + 1024);
	conf.dir24_8.nh_sz = RTE_FIB_DIR24_8_2B;
	conf.dir24_8.num_tbl8 = 1 << 12;
	fib = rte_fib_create("pfbench", SOCKET_ID_ANY, &conf);
	base = lsk_fib4_tbl24(fib, &conf, LSK_FIB4_PREFETCH_ROUTES, &shift);
	pfx = malloc(routes * sizeof(*pfx));
	frames = malloc(nframes * FRAME);
	cyc[0] = malloc(bursts / WAYS * sizeof(uint64_t));
	cyc[1] = malloc(bursts / WAYS * sizeof(uint64_t));
	cyc[2] = malloc(bursts / WAYS * sizeof(uint64_t));
	if (fib == NULL || base == 0 || pfx == NULL || frames == NULL ||
	    cyc[0] == NULL || cyc[1] == NULL || cyc[2] == NULL) {
		fprintf(stderr, "listack-fib-prefetch: no FIB, no tbl24 "
			"(fib4_prefetch refused it) or no memory\n");
		return 1;
	}
	/* /24 nine times in ten, else /16 to /23; public-looking space */
	for (i = 0; i < routes; i++) {
		uint32_t a = (uint32_t)rte_rand_max(0xdf000000u - 0x01000000u) +
			     0x01000000u;
		uint8_t len = rte_rand_max(10) ? 24 :
			      (uint8_t)(16 + rte_rand_max(8));

		a &= ~((1u << (32 - len)) - 1);
		pfx[i] = a | 1;	/* a host in it */
		if (rte_fib_add(fib, a, len, 1 + (i & 0x3ff)) < 0) {
			fprintf(stderr, "listack-fib-prefetch: rte_fib_add "
				"failed at %lu\n", i);
			return 1;
		}
	}
	if (hot != 0) {
		cdf = malloc(hot * sizeof(*cdf));
		if (cdf == NULL)
			return 1;
		for (i = 0; i < hot; i++)
			cdf[i] = (i ? cdf[i - 1] : 0) + 1.0 / (double)(i + 1);
	}
	memset(frames, 0, nframes * FRAME);
	for (i = 0; i < nframes; i++) {
		uint32_t d = rte_cpu_to_be_32(pfx[hot ? zipf_draw(cdf, hot) :
						  rte_rand_max(routes)]);

		memcpy(frames + i * FRAME + DST_OFF, &d, sizeof(d));
	}
	/* the bursts taken in turn by the three ways, each a fresh one */
	for (b = 0; b < bursts / WAYS * WAYS; b++) {
		const uint8_t *f;
		uint64_t t;

		if (at + n > nframes)
			at = 0;
		f = frames + at * FRAME;
		t = rte_rdtsc_precise();
		if (b % WAYS == WAY_IN)
			sum += burst(fib, f, n, base, shift, WAY_IN);
		else if (b % WAYS == WAY_AFTER)
			sum += burst(fib, f, n, base, shift, WAY_AFTER);
		else
			sum += burst(fib, f, n, base, shift, WAY_NONE);
		cyc[b % WAYS][b / WAYS] = rte_rdtsc_precise() - t;
		at += n;
	}
	for (i = 0; i < WAYS; i++) {
		const unsigned long nb = bursts / WAYS;
		double mean = 0;

		for (b = 0; b < nb; b++)
			mean += (double)cyc[i][b];
		mean /= (double)nb;
		qsort(cyc[i], nb, sizeof(uint64_t), cmp_u64);
		printf("%-14s %lu routes, %lu frames (hot %lu), %lu a burst, "
		       "%lu bursts: median %.1f, mean %.1f cycles a packet\n",
		       way_name[i], routes, nframes, hot, n, nb,
		       (double)cyc[i][nb / 2] / (double)n, mean / (double)n);
	}
	printf("(sum %llu)\n", (unsigned long long)sum);
	rte_fib_free(fib);
	free(cdf);
	free(cyc[2]);
	free(cyc[1]);
	free(cyc[0]);
	free(frames);
	free(pfx);
	rte_eal_cleanup();
	return 0;
}
