/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-route-learn: how fast a routing daemon's table is learned
 * (lsk_route_learn, control/route_learn.c): N routes (a full Internet
 * table: 1M, default), /24s and some /16-/23s as BGP has them, a quarter
 * of them ECMP over two gateways, given in runs of RUN (1000, default:
 * the FPM server's reads), then a reconnect's dump repeating all but a
 * tenth and its sweep, then the learned flush. No worker polls: the
 * grace periods are those of a stack with none.
 *
 *   [PREFAULT_MB=M] listack-route-learn [EAL options] -- [N [RUN]]
 *   e.g. listack-route-learn --no-huge --no-pci -m 4096 -l 0 -- 1000000
 *
 * Under --no-huge the tables' memory is faulted in 4 KiB at a time the
 * first time it is used, which costs more than the tables' work (in a VM
 * most of all): PREFAULT_MB=M touches M MiB of the EAL's memory before
 * starting, as hugepages or a router that has learned a table before
 * have it. Times are the process's CPU time (the wall time beside).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_malloc.h>

#include "listack/listack.h"
#include "control/control.h"

#define GW_A 0x0a000001u	/* 10.0.0.1, port 0 */
#define GW_B 0x0a000101u	/* 10.0.1.1, port 1 */

/* The process's CPU time: on a machine whose cores others share, the
 * wall clock measures them too (the wall time is printed beside it). */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Route i: 1 in 8 a shorter prefix of its /24's, 1 in 4 ECMP. */
static void
route_of(unsigned int i, struct lsk_route_learned *r)
{
	uint32_t p = (11u << 24) + ((uint32_t)i << 8);

	memset(r, 0, sizeof(*r));
	r->depth = 24;
	if (i % 8 == 7)
		r->depth = (uint8_t)(16 + i % 8);
	r->prefix = p & (~0u << (32 - r->depth));
	if (i % 8 == 7 && r->depth < 24)
		r->prefix ^= 1u << (32 - r->depth);	/* not a /24's */
	r->type = LSK_ROUTE_VIA;
	r->proto = 186;		/* RTPROT_BGP */
	r->n_paths = i % 4 == 0 ? 2 : 1;
	r->paths[0] = (struct lsk_route_path){ .gateway = i % 2 ? GW_B : GW_A,
					       .iface = LSK_IFACE_ANY };
	r->paths[1] = (struct lsk_route_path){ .gateway = GW_B,
					       .iface = LSK_IFACE_ANY };
	if (r->n_paths == 2)
		r->paths[0].gateway = GW_A;
}

/* Learn routes [0, n) but those keep() refuses, in runs of run; the
 * entries skipped, or a negative errno. */
static long
learn(struct lsk_stack *s, unsigned int n, unsigned int run,
      struct lsk_route_learned *buf, unsigned int skip_every)
{
	unsigned int i = 0, k;
	long skipped = 0;

	while (i < n) {
		int rc;

		for (k = 0; k < run && i < n; i++) {
			if (skip_every && i % skip_every == 0)
				continue;
			route_of(i, &buf[k++]);
		}
		rc = lsk_route_learn(s, buf, k);
		if (rc < 0)
			return rc;
		skipped += rc;
	}
	return skipped;
}

int
main(int argc, char **argv)
{
	struct lsk_stack_params sp = { .n_ports = 2, .name = "rl" };
	struct lsk_route_learned *buf;
	unsigned int n = 1000000, run = 1000;
	struct lsk_stack *s;
	double t0, t, w0;
	long rc;
	int eal;

	eal = rte_eal_init(argc, argv);
	if (eal < 0) {
		fprintf(stderr, "usage: %s [EAL options] -- [N [RUN]]\n",
			argv[0]);
		return 2;
	}
	if (argc - eal > 1)
		n = (unsigned int)strtoul(argv[eal + 1], NULL, 10);
	if (argc - eal > 2)
		run = (unsigned int)strtoul(argv[eal + 2], NULL, 10);
	if (n == 0 || n > (1u << 24) || run == 0 || run > 65536) {
		fprintf(stderr, "N in 1..16M, RUN in 1..65536\n");
		return 2;
	}
	if (getenv("PREFAULT_MB") != NULL) {
		size_t sz = (size_t)strtoul(getenv("PREFAULT_MB"), NULL, 10)
			    << 20;
		void *p = rte_malloc("prefault", sz, 0);

		if (p != NULL) {
			memset(p, 0, sz);
			rte_free(p);
		}
	}
	buf = calloc(run, sizeof(*buf));
	if (buf == NULL || lsk_stack_create(&sp, &s) < 0 ||
	    lsk_address_add(s, 0x0a0000fe, 24, 0) < 0 ||
	    lsk_address_add(s, 0x0a0001fe, 24, 1) < 0) {
		fprintf(stderr, "cannot set up the stack\n");
		return 1;
	}
	w0 = wall_s();
	t0 = now_s();
	rc = learn(s, n, run, buf, 0);
	t = now_s() - t0;
	if (rc < 0) {
		fprintf(stderr, "learn: %s\n", strerror((int)-rc));
		return 1;
	}
	printf("learn %u routes in runs of %u: %.3f s CPU, %.0f routes/s "
	       "(wall %.3f s; %ld skipped, %u path sets)\n", n, run, t,
	       n / t, wall_s() - w0, rc, s->n_psets ? s->n_psets - 1 : 0);
	{
		struct lsk_fwd_table *ft;
		uint32_t gen = s->fib_generation;

		t0 = now_s();
		if (lsk_fwd_table_build(s, &ft) == 0)
			lsk_fwd_table_free(ft);
		printf("one table built whole: %.3f s CPU (tables made while "
		       "learning: %u, %u runs)\n", now_s() - t0, gen,
		       (n + run - 1) / run);
	}
	lsk_route_learn_begin_dump(s);
	t0 = now_s();
	rc = learn(s, n, run, buf, 10);
	if (rc >= 0)
		rc = lsk_route_learn_sweep(s);
	printf("dump again but 1 in 10, sweep: %.3f s CPU, %ld swept, %u "
	       "learned\n", now_s() - t0, rc, s->n_learned);
	t0 = now_s();
	rc = lsk_route_learn_flush(s);
	printf("learned flush: %.3f s CPU, %ld routes\n", now_s() - t0, rc);
	/* a router stopped with a full table: its teardown must stay well
	 * inside listack-fwd's bound (src/app/main.c) */
	if (rc >= 0)
		rc = learn(s, n, run, buf, 0);
	t0 = now_s();
	w0 = wall_s();
	free(buf);
	lsk_stack_destroy(s);
	printf("stack destroyed holding them again: %.3f s CPU, wall %.3f s\n",
	       now_s() - t0, wall_s() - w0);
	rte_eal_cleanup();
	return rc < 0 ? 1 : 0;
}
