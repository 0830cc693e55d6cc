/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-route6-learn: IPv6 route changes on a big learned table
 * (lsk_route6_learn, control/route6_learn.c and fwd6_update.c). N routes
 * (100,000 default) as a BGP feed has them: /48s mostly, /32 to /64
 * besides, learned in runs of RUN (1000, the FPM server's reads); then
 * CHANGES (1000) of them changed one at a time (another gateway), each
 * made in place to the standby and published; then what a change cost
 * before the standby (a table built whole per change: main's path until
 * issue 24's third session), timed on the same table; and the memory
 * the two tables take. No worker polls: the grace periods are those of
 * a stack with none.
 *
 *   listack-route6-learn [EAL options] -- [N [RUN [CHANGES]]]
 *   e.g. listack-route6-learn --no-huge --no-pci -m 3072 -l 0 --no-shconf
 *
 * Times are the process's CPU time (the wall time beside: the host is
 * shared).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include "listack/listack.h"
#include "listack/ip6.h"
#include "control/control.h"

/* how many times a table is built whole to time "before" */
#define WHOLE_BUILDS 5

/* CPU time, and the wall clock (the host is shared) */
struct times {
	clock_t cpu;
	uint64_t tsc;
};

static struct times
times_now(void)
{
	return (struct times){ clock(), rte_get_tsc_cycles() };
}

/* seconds since t0: of CPU, or of the wall clock (wall) */
static double
since(const struct times *t0, bool wall)
{
	if (wall)
		return (double)(rte_get_tsc_cycles() - t0->tsc) /
		       (double)rte_get_tsc_hz();
	return (double)(clock() - t0->cpu) / CLOCKS_PER_SEC;
}

static double
mib_allocated(void)
{
	struct rte_malloc_socket_stats st;

	if (rte_malloc_get_socket_stats(0, &st) < 0)
		return 0;
	return (double)st.heap_allocsz_bytes / (1 << 20);
}

static const struct lsk_ip6_addr gw_a = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0,
	1, 0, 0, 0, 0, 0, 0, 0, 7 } };	/* 2001:db8:0:1::7, port 0 */
static const struct lsk_ip6_addr gw_b = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0,
	2, 0, 0, 0, 0, 0, 0, 0, 7 } };	/* 2001:db8:0:2::7, port 1 */

/*
 * Route i: 6 in 10 a /48, 1 in 10 a /56, 1 a /64, and 1 in 20 each a
 * /32, /40, /44, in 2400::/12: 16 routes a /32, so that the longer ones
 * nest under shorter ones as a global table's do (a few fall on the same
 * prefix: the table holds somewhat fewer than N).
 */
static void
route_of(unsigned int i, bool alt, struct lsk_route6_learned *r)
{
	static const uint8_t depth[20] = { 48, 48, 48, 32, 48, 56, 48, 48,
					   64, 48, 48, 48, 48, 40, 48, 56,
					   48, 44, 64, 48 };
	uint32_t site = i / 16, sub = i % 16;

	memset(r, 0, sizeof(*r));
	r->depth = depth[i % 20];
	r->prefix.a[0] = 0x24;
	r->prefix.a[1] = (uint8_t)(site >> 16 & 0x0f);
	r->prefix.a[2] = (uint8_t)(site >> 8);
	r->prefix.a[3] = (uint8_t)site;
	if (r->depth > 32)
		r->prefix.a[5] = (uint8_t)(sub << 4);
	if (r->depth > 48)
		r->prefix.a[6] = 0x80;
	lsk_ip6_mask(&r->prefix, r->depth, &r->prefix);
	r->type = LSK_ROUTE_VIA;
	r->proto = 186;		/* RTPROT_BGP */
	r->n_paths = 1;
	r->paths[0].gateway = (i % 2) != alt ? gw_b : gw_a;
	r->paths[0].iface = LSK_IFACE_ANY;
}

/* Learn routes [0, n) in runs of run: 0 or a negative errno. */
static int
learn_all(struct lsk_stack *s, unsigned int n, unsigned int run,
	  struct lsk_route6_learned *buf)
{
	unsigned int i, k;
	int rc = 0;

	for (i = 0; i < n && rc >= 0; i += k) {
		for (k = 0; k < run && i + k < n; k++)
			route_of(i + k, false, &buf[k]);
		rc = lsk_route6_learn(s, buf, k);
	}
	return rc;
}

/* changes of them, one at a time, spread over the table (another
 * gateway each) */
static int
change_each(struct lsk_stack *s, unsigned int n, unsigned int changes,
	    struct lsk_route6_learned *buf)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < changes && rc >= 0; i++) {
		route_of((unsigned int)((uint64_t)i * n / changes), true,
			 &buf[0]);
		rc = lsk_route6_learn(s, buf, 1);
	}
	return rc;
}

/* before the standby: a table built whole per change (the old freed) */
static int
build_whole(struct lsk_stack *s, unsigned int times)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < times && rc == 0; i++) {
		struct lsk_fwd6_table *ft;

		rc = lsk_fwd6_table_build(s, &ft);
		if (rc == 0)
			lsk_fwd6_table_free(ft);
	}
	return rc;
}

static bool
failed(const char *what, int rc)
{
	if (rc >= 0)
		return false;
	fprintf(stderr, "%s: %d (%s)\n", what, rc, strerror(-rc));
	return true;
}

int
main(int argc, char **argv)
{
	struct lsk_stack_params sp = { .n_ports = 2, .name = "r6" };
	unsigned int n = 100000, run = 1000, changes = 1000;
	struct lsk_route6_learned *buf;
	struct lsk_ip6_addr a = { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0,
		0, 0, 0, 0, 0, 1 } }, b = a;
	double mem0, mem2;
	struct lsk_stack *s;
	struct times t0;
	uint32_t gen;
	int eal;

	eal = rte_eal_init(argc, argv);
	if (eal < 0) {
		fprintf(stderr, "usage: %s [EAL options] -- [N [RUN "
			"[CHANGES]]]\n", argv[0]);
		return 2;
	}
	if (argc - eal > 1)
		n = (unsigned int)strtoul(argv[eal + 1], NULL, 10);
	if (argc - eal > 2)
		run = (unsigned int)strtoul(argv[eal + 2], NULL, 10);
	if (argc - eal > 3)
		changes = (unsigned int)strtoul(argv[eal + 3], NULL, 10);
	if (n == 0 || n > (1u << 20) || run == 0 || run > 65536 ||
	    changes == 0 || changes > n) {
		fprintf(stderr, "N in 1..1M, RUN in 1..65536, CHANGES in "
			"1..N\n");
		return 2;
	}
	b.a[7] = 2;
	buf = calloc(run, sizeof(*buf));
	if (buf == NULL || lsk_stack_create(&sp, &s) < 0 ||
	    lsk_address6_add(s, &a, 64, 0) < 0 ||
	    lsk_address6_add(s, &b, 64, 1) < 0) {
		fprintf(stderr, "cannot set up the stack\n");
		return 1;
	}
	mem0 = mib_allocated();
	gen = s->fib6_generation;
	t0 = times_now();
	if (failed("learn", learn_all(s, n, run, buf)))
		return 1;
	printf("learn %u IPv6 routes in runs of %u (%u distinct): %.3f s "
	       "CPU, %.0f routes/s (wall %.3f s; tables built or changed: "
	       "%u)\n", n, run, s->n_learned6, since(&t0, false),
	       n / since(&t0, false), since(&t0, true),
	       s->fib6_generation - gen);

	gen = s->fib6_generation;
	t0 = times_now();
	if (failed("change", change_each(s, n, changes, buf)))
		return 1;
	printf("%u changes one at a time, in place: %.1f us CPU a change "
	       "(wall %.1f us; %u publications)\n", changes,
	       since(&t0, false) / changes * 1e6,
	       since(&t0, true) / changes * 1e6, s->fib6_generation - gen);

	t0 = times_now();
	if (failed("build", build_whole(s, WHOLE_BUILDS)))
		return 1;
	printf("a table built whole (a change before the standby): %.1f ms "
	       "CPU (wall %.1f ms)\n", since(&t0, false) / WHOLE_BUILDS * 1e3,
	       since(&t0, true) / WHOLE_BUILDS * 1e3);

	mem2 = mib_allocated();
	lsk_fwd6_standby_free(s);
	printf("EAL heap: %.0f MiB, %.0f more than before learning; the "
	       "standby's %.0f\n", mem2, mem2 - mem0, mem2 - mib_allocated());
	fflush(stdout);
	free(buf);
	lsk_stack_destroy(s);
	rte_eal_cleanup();
	return 0;
}
