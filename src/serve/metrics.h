/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics endpoint's parts (listack/metrics.h serves them): the HTTP
 * request parser (serve/metrics_http.c: plain C, no DPDK, fuzzed by
 * tests/fuzz/fuzz_http.c) and the Prometheus text rendering
 * (serve/metrics.c).
 */
#ifndef LSK_SERVE_METRICS_H
#define LSK_SERVE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "listack/listack.h"

/* A request head (request line and headers, the empty line included). */
#define LSK_HTTP_HEAD_MAX 8192
/* Header lines in one head. */
#define LSK_HTTP_HEADERS_MAX 64

struct lsk_http_request {
	int status;		/* 200: serve it; else the error to answer */
	const char *why;	/* what was wrong, for the error's body */
	size_t len;		/* bytes of the head (what to consume) */
	bool head_only;		/* HEAD: the headers of the answer only */
	bool keep_alive;	/* the client keeps the connection open */
};

/*
 * Parse the request head at buf[0, len). 0: the head is not complete
 * yet (read more); 1: *rq says what to answer (rq->status 200 for
 * `GET|HEAD /metrics`; 400 bad syntax, a body or a NUL; 404 another
 * path; 405 another method; 431 a head of more than LSK_HTTP_HEAD_MAX
 * bytes or LSK_HTTP_HEADERS_MAX headers; 505 another HTTP version).
 * Reads nothing at or past buf[len].
 */
int lsk_http_parse(const char *buf, size_t len, struct lsk_http_request *rq);

/* "OK", "Not Found", ...: the reason phrase of status. */
const char *lsk_http_reason(int status);

/* What one scrape shows: the sums, the workers' own, the mbufs. */
struct lsk_metrics_view {
	const struct lsk_stats *total;	/* as lsk_stats_read */
	unsigned int n_ports;
	const struct lsk_stats *workers;	/* lsk_worker_stats_read */
	const unsigned int *worker_ids;
	unsigned int n_workers;
	/* each worker's longest gap between polls (lsk_worker_poll_gap_max),
	 * NULL: left out */
	const uint64_t *worker_gap_ns;
	long long mbufs_in_use;		/* < 0: not known, left out */
};

/* Write the view in the Prometheus text exposition format (0.0.4). */
int lsk_metrics_write(const struct lsk_metrics_view *v, FILE *f);

/*
 * "InCsumErrors" -> "in_csum_errors": an '_' before each capital that
 * follows a small letter or a digit ("FragOKs" -> "frag_oks"). -ENOSPC
 * when it does not fit in size bytes.
 */
int lsk_metrics_snake(const char *mib, char *buf, size_t size);

#endif /* LSK_SERVE_METRICS_H */
