/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --table FILE: a route table read from a file and each flow's allowed
 * next hops worked out from it (table.h says how).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/* 10.0.0.0/23: the ports' networks (traffic.c), which no route may touch */
#define PORTS_NET 0x0a000000u
#define PORTS_LEN 23

static int
key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t
mask_of(uint8_t plen)
{
	return plen == 0 ? 0 : ~0u << (32 - plen);
}

/* Do a/al and b/bl overlap? */
static bool
overlap(uint32_t a, uint8_t al, uint32_t b, uint8_t bl)
{
	return ((a ^ b) & mask_of(RTE_MIN(al, bl))) == 0;
}

/* One line: "A.B.C.D/L", blanks around it, '#' comments and empty lines
 * skipped (1 = nothing there). */
static int
parse_line(char *line, uint64_t *key, const char **why)
{
	unsigned int a, b, c, d, l;
	char *p = line, tail;
	uint32_t addr;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n' || *p == '#')
		return 1;
	if (sscanf(p, "%3u.%3u.%3u.%3u/%2u %c", &a, &b, &c, &d, &l,
		   &tail) != 5 || a > 255 || b > 255 || c > 255 || d > 255 ||
	    l > 32) {
		*why = "not A.B.C.D/L";
		return -EINVAL;
	}
	addr = a << 24 | b << 16 | c << 8 | d;
	if (l == 0 || (addr & ~mask_of((uint8_t)l)) != 0) {
		*why = l == 0 ? "a default route (the traffic would need "
			"none of the table)" : "host bits set";
		return -EINVAL;
	}
	if (overlap(addr, (uint8_t)l, PORTS_NET, PORTS_LEN)) {
		*why = "overlaps the ports' networks 10.0.0.0/23";
		return -EINVAL;
	}
	*key = (uint64_t)addr << 8 | l;
	return 0;
}

static int
read_keys(struct bench_table *tb, const char *path, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[128];
	uint32_t cap = 0, n = 0, lineno = 0;
	int rc = 0;

	if (f == NULL) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		const char *why = "";
		uint64_t key;

		lineno++;
		rc = parse_line(line, &key, &why);
		if (rc == 1) {
			rc = 0;
			continue;
		}
		if (rc == 0 && n == BENCH_TABLE_MAX)
			why = "more prefixes than the bench loads (2^20)",
			rc = -E2BIG;
		if (rc < 0) {
			snprintf(err, len, "%s:%u: %s", path, lineno, why);
			break;
		}
		if (n == cap) {
			uint64_t *k;

			cap = cap ? 2 * cap : 4096;
			k = realloc(tb->key, cap * sizeof(*k));
			if (k == NULL) {
				rc = -ENOMEM;
				snprintf(err, len, "%s: out of memory", path);
				break;
			}
			tb->key = k;
		}
		tb->key[n++] = key;
	}
	if (rc == 0 && ferror(f)) {
		rc = -EIO;
		snprintf(err, len, "%s: read error", path);
	}
	fclose(f);
	tb->n = n;
	if (rc == 0 && n == 0) {
		rc = -EINVAL;
		snprintf(err, len, "%s: no prefixes", path);
	}
	return rc;
}

/* Is prefix j's next one (in address then length order) inside it? */
static bool
has_more_specific(const struct bench_table *tb, uint32_t j)
{
	return j + 1 < tb->n &&
	       overlap(bench_table_addr(tb, j), bench_table_len(tb, j),
		       bench_table_addr(tb, j + 1), bench_table_len(tb, j));
}

static void
pick_churned(struct bench_table *tb)
{
	uint32_t k, j = 0;

	for (k = 0; k < BENCH_TABLE_CHURN; k++) {
		j = RTE_MAX(j, (uint32_t)((uint64_t)k * tb->n /
					  BENCH_TABLE_CHURN));
		while (j < tb->n && (bench_table_len(tb, j) > 30 ||
				     has_more_specific(tb, j)))
			j++;
		if (j == tb->n)
			break;
		tb->churn[tb->n_churn++] = j++;
	}
}

int64_t
bench_table_lookup(const struct bench_table *tb, uint32_t addr)
{
	int plen;

	for (plen = 32; plen > 0; plen--) {
		uint64_t key = (uint64_t)(addr & mask_of((uint8_t)plen)) << 8 |
			       (uint64_t)plen;
		const uint64_t *hit = bsearch(&key, tb->key, tb->n,
					      sizeof(*tb->key), key_cmp);

		if (hit != NULL)
			return hit - tb->key;
	}
	return -1;
}

static uint64_t
next_rand(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A host of prefix j: not its first or last address where it has more
 * than two (as fulltable.py's host_in). */
static uint32_t
host_in(const struct bench_table *tb, uint32_t j, uint64_t *x)
{
	uint8_t hb = (uint8_t)(32 - bench_table_len(tb, j));
	uint32_t h;

	if (hb == 0)
		return bench_table_addr(tb, j);
	do {
		h = (uint32_t)(next_rand(x) & ((1ull << hb) - 1));
	} while (hb > 1 && (h == 0 || h == (uint32_t)((1ull << hb) - 1)));
	return bench_table_addr(tb, j) | h;
}

static bool
is_churned(const struct bench_table *tb, uint32_t j)
{
	uint32_t k;

	for (k = 0; k < tb->n_churn; k++)
		if (tb->churn[k] == j)
			return true;
	return false;
}

static void
draw_flows(struct bench_table *tb, uint32_t flows)
{
	uint64_t x = 0x5eed;	/* fixed: every run sends the same */
	uint32_t i;

	for (i = 0; i < flows; i++) {
		struct bench_table_flow *fl = &tb->flow[i];
		uint32_t j;
		int64_t m;

		if (i % BENCH_TABLE_HOT_EVERY == 0 && tb->n_churn > 0)
			j = tb->churn[(i / BENCH_TABLE_HOT_EVERY) %
				      tb->n_churn];
		else
			j = (uint32_t)(next_rand(&x) % tb->n);
		fl->dst = host_in(tb, j, &x);
		/* the longest match: j itself or a more specific of it */
		m = bench_table_lookup(tb, fl->dst);
		fl->gw = (uint8_t)(m % BENCH_TABLE_GWS);
		fl->alt = is_churned(tb, (uint32_t)m) ?
			  (uint8_t)((m + 1) % BENCH_TABLE_GWS) : fl->gw;
	}
}

int
bench_table_load(struct bench_table *tb, const char *path,
		 struct bench_traffic *t, char *err, size_t len)
{
	uint32_t j;
	int rc;

	memset(tb, 0, sizeof(*tb));
	if (t->flows > BENCH_SPORT_SPAN * BENCH_SRC_HOSTS) {
		snprintf(err, len, "--table: at most %u flows (each told "
			 "apart by its source)", BENCH_SPORT_SPAN *
			 BENCH_SRC_HOSTS);
		return -EINVAL;
	}
	rc = read_keys(tb, path, err, len);
	if (rc == 0) {
		qsort(tb->key, tb->n, sizeof(*tb->key), key_cmp);
		for (j = 1; j < tb->n; j++)
			if (tb->key[j] == tb->key[j - 1])
				break;
		if (j < tb->n) {
			snprintf(err, len, "%s: %u.%u.%u.%u/%u twice", path,
				 bench_table_addr(tb, j) >> 24,
				 (bench_table_addr(tb, j) >> 16) & 255,
				 (bench_table_addr(tb, j) >> 8) & 255,
				 bench_table_addr(tb, j) & 255,
				 bench_table_len(tb, j));
			rc = -EINVAL;
		}
	}
	if (rc == 0) {
		tb->flow = calloc(t->flows, sizeof(*tb->flow));
		if (tb->flow == NULL) {
			snprintf(err, len, "--table: out of memory");
			rc = -ENOMEM;
		}
	}
	if (rc < 0) {
		bench_table_free(tb);
		return rc;
	}
	pick_churned(tb);
	if (tb->n_churn == 0) {
		snprintf(err, len, "%s: no prefix to churn (one of /30 or "
			 "shorter with no more specific)", path);
		bench_table_free(tb);
		return -EINVAL;
	}
	draw_flows(tb, t->flows);
	t->table = tb;
	t->table_flows = tb->flow;
	t->routes = tb->n;
	t->churn_routes = tb->n_churn;
	return 0;
}

void
bench_table_free(struct bench_table *tb)
{
	free(tb->key);
	free(tb->flow);
	memset(tb, 0, sizeof(*tb));
}

static void
gw_of(const struct bench_traffic *t, uint32_t g, uint32_t *addr,
      struct rte_ether_addr *mac)
{
	*addr = t->gw_addr + g;
	*mac = t->gw_mac;
	mac->addr_bytes[5] = (uint8_t)(mac->addr_bytes[5] + g);
}

int
bench_table_configure(struct lsk_stack *s, const struct bench_traffic *t,
		      char *err, size_t len)
{
	const struct bench_table *tb = t->table;
	struct rte_ether_addr mac;
	uint32_t g, j, addr;
	int rc = 0;

	for (g = 1; rc == 0 && g < BENCH_TABLE_GWS; g++) {
		gw_of(t, g, &addr, &mac);
		rc = lsk_neigh_add(s, addr, &mac);
		if (rc < 0)
			snprintf(err, len, "gateway %u: %s", g, strerror(-rc));
	}
	for (j = 0; rc == 0 && j < tb->n; j++) {
		gw_of(t, j % BENCH_TABLE_GWS, &addr, &mac);
		rc = lsk_route_add(s, bench_table_addr(tb, j),
				   bench_table_len(tb, j), LSK_ROUTE_VIA, addr);
		if (rc < 0)
			snprintf(err, len, "route %u of %u: %s", j + 1, tb->n,
				 strerror(-rc));
	}
	return rc;
}

void
bench_table_churned(const struct bench_traffic *t, uint32_t k,
		    uint32_t *prefix, uint8_t *plen, uint32_t *gw,
		    uint32_t *alt)
{
	const struct bench_table *tb = t->table;
	uint32_t j = tb->churn[k];

	*prefix = bench_table_addr(tb, j);
	*plen = bench_table_len(tb, j);
	*gw = t->gw_addr + j % BENCH_TABLE_GWS;
	*alt = t->gw_addr + (j + 1) % BENCH_TABLE_GWS;
}
