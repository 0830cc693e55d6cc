/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The scenarios. To add one: a variants table, a configure function for
 * its traffic, and an entry in scenarios[] below (the traffic model lives
 * in traffic.c; a scenario that needs other traffic, such as local UDP,
 * adds its destination plan there).
 *
 * fwd: UDP/IPv4 forwarding from port 0 to a gateway on port 1 over R
 * routes, the same traffic through each variant.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const struct bench_variant fwd_variants[] = {
	{ .name = "single", .mode = LSK_MODE_SINGLE },
	{ .name = "list", .mode = LSK_MODE_LIST },
	/*
	 * The per-worker route cache in front of the FIB. A stack that
	 * does not know the command (-ENOTSUP) gets the variant reported
	 * as skipped.
	 */
	{ .name = "list+cache", .mode = LSK_MODE_LIST,
	  .config = { "route-cache on entries 4096" } },
};

static int
fwd_configure(struct lsk_stack *s, const struct bench_traffic *t, char *err,
	      size_t len)
{
	uint32_t k;
	int rc;

	rc = lsk_port_set(s, 0, &t->port_mac[0], 0);
	if (rc == 0)
		rc = lsk_port_set(s, 1, &t->port_mac[1], 0);
	if (rc == 0)
		rc = lsk_address_add(s, t->port_addr[0], 24, 0);
	if (rc == 0)
		rc = lsk_address_add(s, t->port_addr[1], 24, 1);
	if (rc == 0)
		rc = lsk_neigh_add(s, t->gw_addr, &t->gw_mac);
	if (rc < 0) {
		snprintf(err, len, "ports, addresses, neighbour: %s",
			 strerror(-rc));
		return rc;
	}
	for (k = 0; k < t->routes; k++) {
		rc = lsk_route_add(s, bench_route_prefix(t, k), 24,
				   LSK_ROUTE_VIA, t->gw_addr);
		if (rc < 0) {
			snprintf(err, len, "route %u of %u: %s", k + 1,
				 t->routes, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

static const struct bench_scenario scenarios[] = {
	{
		.name = "fwd",
		.summary = "UDP/IPv4 forwarding port 0 -> port 1 over F flows "
			   "and R routes",
		.baseline = "single",
		.variants = fwd_variants,
		.n_variants = RTE_DIM(fwd_variants),
		.configure = fwd_configure,
	},
};

const struct bench_scenario *
bench_scenario_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(scenarios); i++)
		if (strcmp(scenarios[i].name, name) == 0)
			return &scenarios[i];
	return NULL;
}

void
bench_scenarios_list(FILE *f)
{
	unsigned int i, v;

	for (i = 0; i < RTE_DIM(scenarios); i++) {
		fprintf(f, "  %-10s %s; variants:", scenarios[i].name,
			scenarios[i].summary);
		for (v = 0; v < scenarios[i].n_variants; v++)
			fprintf(f, " %s", scenarios[i].variants[v].name);
		fprintf(f, " (baseline %s)\n", scenarios[i].baseline);
	}
}
