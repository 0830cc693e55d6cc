/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * route-churn: the fwd traffic while a control thread (a plain pthread,
 * on the main lcore's CPU, which it inherits) changes routes: none (the
 * baseline), 1000 changes a second, or as many as it can. The churned
 * routes (the first BENCH_CHURN_ROUTES of the traffic's) only ever lead
 * to one of two gateways, both static neighbours behind port 1: every
 * forwarded packet is checked (bench_check_forwarded), and one that
 * leaves by any other next hop, or is dropped, fails the variant.
 *
 * A cycle over route k, four changes: its /24 replaced via gateway 2, a
 * /25 inside it added via gateway 1, the /24 replaced via gateway 1, the
 * /25 deleted. The /24 always exists, so no packet ever meets no route.
 *
 * With --table FILE (table.h: bench/dut/fulltable.py's BGP-like shape,
 * read from its `prefixes` output) the churned routes are the table's
 * BENCH_TABLE_CHURN picked ones, of any length L up to /30 and with no
 * more specific in the table; the same cycle runs on each one's /L and
 * the /L+1 of its first half, between its own gateway and the next one.
 * Every frame's next hop is checked against its flow's longest match in
 * the table: its own gateway, or either of the two when that match is a
 * churned prefix (the only ones whose next hop may be old or new while a
 * change is in flight).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "table.h"

#define BENCH_CHURN_ROUTES 64u

const struct bench_variant bench_churn_variants[] = {
	{ .name = "none", .mode = LSK_MODE_LIST },
	{ .name = "1000/s", .mode = LSK_MODE_LIST, .churn = 1000 },
	{ .name = "max", .mode = LSK_MODE_LIST, .churn = BENCH_CHURN_MAX },
};
const unsigned int bench_n_churn_variants = RTE_DIM(bench_churn_variants);

void
bench_churn_defaults(struct bench_opts *o)
{
	/* the churned routes and as many others, every one in use */
	if (!o->routes_given)
		o->routes = 2 * BENCH_CHURN_ROUTES;
	if (!o->flows_given)
		o->flows = 1024;
}

struct bench_churn {
	struct lsk_stack *s;
	const struct bench_traffic *t;
	int rate;
	bool stop;
	pthread_t thread;
	uint64_t changes, refused;
	int first_rc;
	double seconds;
};

int
bench_churn_configure(struct lsk_stack *s, const struct bench_traffic *t,
		      char *err, size_t len)
{
	int rc = bench_fwd_configure(s, t, err, len);

	/* a table's gateways are bench_table_configure's, gw2 among them */
	if (rc == 0 && t->table == NULL)
		rc = lsk_neigh_add(s, t->gw2_addr, &t->gw2_mac);
	if (rc < 0 && err[0] == '\0')
		snprintf(err, len, "second gateway: %s", strerror(-rc));
	return rc;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Change i of the cycle (see the top of the file). */
static int
churn_step(struct bench_churn *c, uint64_t i)
{
	const struct bench_traffic *t = c->t;
	uint32_t n = RTE_MIN(t->routes, BENCH_CHURN_ROUTES), p, gw, alt;
	uint8_t l = 24;

	if (t->table != NULL) {
		n = t->churn_routes;
		bench_table_churned(t, (uint32_t)(i % n), &p, &l, &gw, &alt);
	} else {
		p = bench_route_prefix(t, (uint32_t)(i % n));
		gw = t->gw_addr;
		alt = t->gw2_addr;
	}
	switch ((i / n) % 4) {
	case 0:
		return lsk_route_replace(c->s, p, l, LSK_ROUTE_VIA, alt);
	case 1:
		return lsk_route_add(c->s, p, (uint8_t)(l + 1), LSK_ROUTE_VIA,
				     gw);
	case 2:
		return lsk_route_replace(c->s, p, l, LSK_ROUTE_VIA, gw);
	default:
		return lsk_route_del(c->s, p, (uint8_t)(l + 1));
	}
}

static void *
churn_main(void *arg)
{
	struct bench_churn *c = arg;
	struct timespec next;
	double t0 = now_s();
	long period_ns = c->rate > 0 ? 1000000000L / c->rate : 0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		int rc = churn_step(c, c->changes);

		if (rc < 0 && c->refused++ == 0)
			c->first_rc = rc;
		c->changes++;
		if (period_ns == 0)
			continue;
		next.tv_nsec += period_ns;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	c->seconds = now_s() - t0;
	return NULL;
}

int
bench_churn_start(struct lsk_stack *s, const struct bench_traffic *t,
		  const struct bench_variant *v, struct bench_churn **out)
{
	struct bench_churn *c;
	int rc;

	*out = NULL;
	if (v->churn == 0)
		return 0;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	c->s = s;
	c->t = t;
	c->rate = v->churn;
	rc = pthread_create(&c->thread, NULL, churn_main, c);
	if (rc != 0) {
		free(c);
		return -rc;
	}
	*out = c;
	return 0;
}

void
bench_churn_stop(struct bench_churn *c, struct bench_result *res)
{
	if (c == NULL)
		return;
	__atomic_store_n(&c->stop, true, __ATOMIC_RELEASE);
	pthread_join(c->thread, NULL);
	res->churned = true;
	res->route_changes = c->changes;
	res->route_refused = c->refused;
	res->route_changes_per_s = c->seconds > 0 ?
				   (double)c->changes / c->seconds : 0;
	if (c->refused)
		snprintf(res->note, sizeof(res->note), "%" PRIu64 " route "
			 "changes refused, the first: %s", c->refused,
			 strerror(-c->first_rc));
	free(c);
}
