/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-route-time: how long route changes take on a big table. Loads a
 * configuration (bench/gen-routes.py makes one with 1M routes) as one
 * batch, then times route changes made one at a time on top of it: the
 * API (lsk_route_add, _replace, _del) and the command a control client
 * sends (lsk_command_run, itself a batch of one line), and what building
 * one table whole takes (what every change cost before they were made in
 * place). No worker polls: the grace periods are those of a stack with
 * none.
 *
 *   listack-route-time [EAL options] -- CONFIG [CHANGES]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>

#include "listack/listack.h"
#include "cli/cli.h"
#include "control/control.h"

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prefixes no configuration of gen-routes.py has: 100.64.0.0/10. */
static uint32_t
spare_prefix(unsigned int i)
{
	return (100u << 24 | 64u << 16) + ((uint32_t)i << 8);
}

static void
report(const char *what, unsigned int n, double t)
{
	printf("%-34s %7u  %10.1f us each\n", what, n, t * 1e6 / n);
}

int
main(int argc, char **argv)
{
	struct lsk_stack_params sp = { .n_ports = 2, .name = "rt" };
	struct lsk_stack *s;
	unsigned int i, n = 1000;
	char err[512], line[96];
	struct lsk_out o;
	double t0, t;
	int eal, rc;

	eal = rte_eal_init(argc, argv);
	if (eal < 0 || argc - eal < 2) {
		fprintf(stderr, "usage: %s [EAL options] -- CONFIG "
			"[CHANGES]\n", argv[0]);
		return 2;
	}
	if (argc - eal > 2)
		n = (unsigned int)strtoul(argv[eal + 2], NULL, 10);
	if (n == 0 || n > 4096)
		n = 1000;
	rc = lsk_stack_create(&sp, &s);
	if (rc < 0) {
		fprintf(stderr, "stack: %s\n", strerror(-rc));
		return 1;
	}
	t0 = now_s();
	rc = lsk_config_load(s, argv[eal + 1], err, sizeof(err));
	t = now_s() - t0;
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("%-34s %7s  %10.3f s\n", "load (one batch)", "", t);
	{
		struct lsk_fwd_table *ft;

		t0 = now_s();
		rc = lsk_fwd_table_build(s, &ft);
		t = now_s() - t0;
		if (rc == 0)
			lsk_fwd_table_free(ft);
		printf("%-34s %7u  %10.3f s\n", "one table built whole",
		       s->n_routes, t);
	}

	t0 = now_s();
	for (i = 0; i < n && rc == 0; i++)
		rc = lsk_route_add(s, spare_prefix(i), 24, LSK_ROUTE_VIA,
				   0x0a000101);
	report("lsk_route_add", n, now_s() - t0);
	t0 = now_s();
	for (i = 0; i < n && rc == 0; i++)
		rc = lsk_route_replace(s, spare_prefix(i), 24,
				       LSK_ROUTE_BLACKHOLE, 0);
	report("lsk_route_replace", n, now_s() - t0);
	t0 = now_s();
	for (i = 0; i < n && rc == 0; i++)
		rc = lsk_route_del(s, spare_prefix(i), 24);
	report("lsk_route_del", n, now_s() - t0);

	lsk_out_init(&o, false);
	t0 = now_s();
	for (i = 0; i < n && rc == 0; i++) {
		uint32_t p = spare_prefix(i);

		snprintf(line, sizeof(line), "route add %u.%u.%u.0/24 via "
			 "10.0.1.1", p >> 24, (p >> 16) & 255, (p >> 8) & 255);
		rc = lsk_command_run(s, line, strlen(line), "-", &o);
	}
	report("command 'route add' (a batch)", n, now_s() - t0);
	t0 = now_s();
	for (i = 0; i < n && rc == 0; i++) {
		uint32_t p = spare_prefix(i);

		snprintf(line, sizeof(line), "route del %u.%u.%u.0/24",
			 p >> 24, (p >> 16) & 255, (p >> 8) & 255);
		rc = lsk_command_run(s, line, strlen(line), "-", &o);
	}
	report("command 'route del' (a batch)", n, now_s() - t0);
	lsk_out_free(&o);
	if (rc < 0)
		fprintf(stderr, "a change failed: %s\n", strerror(-rc));

	t0 = now_s();
	rc = lsk_route_flush(s);
	printf("%-34s %7d  %10.3f s\n", "lsk_route_flush", rc, now_s() - t0);
	lsk_stack_destroy(s);
	rte_eal_cleanup();
	return rc < 0 ? 1 : 0;
}
