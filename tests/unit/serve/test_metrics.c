/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics endpoint: the HTTP request parser (serve/metrics_http.c)
 * on good, bad and partial heads; the Prometheus text of the fixture's
 * counters after known traffic (serve/metrics.c); the server
 * (serve/metrics_server.c) answering a real TCP client.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "unit_common.h"
#include "listack/metrics.h"
#include "control/control.h"
#include "serve/metrics.h"

/* Parse text from a buffer of exactly its size (ASan sees overreads). */
static int
parse(const char *text, size_t len, struct lsk_http_request *rq)
{
	char *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(copy);
	memcpy(copy, text, len);
	rc = lsk_http_parse(copy, len, rq);
	free(copy);
	return rc;
}

static void
test_http_parse(void **state)
{
	static const struct {
		const char *text;
		int status;
		bool head_only, keep_alive;
	} cases[] = {
		{ "GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n", 200, false, true },
		{ "GET /metrics HTTP/1.0\r\n\r\n", 200, false, false },
		{ "GET /metrics HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
		  200, false, true },
		{ "GET /metrics HTTP/1.1\r\nConnection: x, close\r\n\r\n",
		  200, false, false },
		{ "HEAD /metrics?a=1 HTTP/1.1\r\n\r\n", 200, true, true },
		{ "GET /metrics HTTP/1.1\n\n", 200, false, true },
		{ "GET /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 200,
		  false, true },
		{ "POST /metrics HTTP/1.1\r\n\r\n", 405, false, false },
		{ "get /metrics HTTP/1.1\r\n\r\n", 405, false, false },
		{ "GET /metric HTTP/1.1\r\n\r\n", 404, false, false },
		{ "GET /metrics/ HTTP/1.1\r\n\r\n", 404, false, false },
		{ "GET /metrics HTTP/2.0\r\n\r\n", 505, false, false },
		{ "GET /metrics HTTP/1.2\r\n\r\n", 505, false, false },
		{ "GET metrics HTTP/1.1\r\n\r\n", 400, false, false },
		{ "GET  /metrics HTTP/1.1\r\n\r\n", 400, false, false },
		{ "GET /metrics HTTP/1.1 \r\n\r\n", 400, false, false },
		{ "GET /metrics\r\n\r\n", 400, false, false },
		{ "GET /metrics HTTQ/1.1\r\n\r\n", 400, false, false },
		{ "\r\n\r\n", 400, false, false },
		{ "GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n", 400, false, false },
		{ "GET /metrics HTTP/1.1\r\nA : b\r\n\r\n", 400, false, false },
		{ "GET /metrics HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400, false,
		  false },
		{ "GET /metrics HTTP/1.1\r\nA: b\x01\r\n\r\n", 400, false, false },
		{ "GET /metrics HTTP/1.1\r\nA: b\rc\r\n\r\n", 400, false, false },
		{ "GET /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", 400,
		  false, false },
		{ "GET /metrics HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400,
		  false, false },
		{ "GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
		  400, false, false },
	};
	struct lsk_http_request rq;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		const char *t = cases[i].text;
		int rc = parse(t, strlen(t), &rq);

		if (rc != 1 || rq.status != cases[i].status)
			print_error("case %u '%s': rc %d status %d (%s)\n", i, t,
				    rc, rq.status, rq.why ? rq.why : "");
		assert_int_equal(rc, 1);
		assert_int_equal(rq.status, cases[i].status);
		assert_int_equal(rq.head_only, cases[i].head_only);
		assert_int_equal(rq.keep_alive, cases[i].keep_alive);
		assert_true(rq.len > 0 && rq.len <= strlen(t));
		assert_non_null(rq.why);
		if (rq.status != 200)
			assert_true(rq.why[0] != '\0');
	}
	/* a NUL anywhere */
	assert_int_equal(parse("GET /metrics\0 HTTP/1.1\r\n\r\n", 26, &rq), 1);
	assert_int_equal(rq.status, 400);
}

/* A head arriving a byte at a time: "not yet" until its last byte; what
 * follows it is not consumed. */
static void
test_http_partial(void **state)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
				  "GET /metrics";
	size_t head = strlen(req) - strlen("GET /metrics");
	struct lsk_http_request rq;
	size_t n;

	(void)state;
	for (n = 0; n < head; n++)
		assert_int_equal(parse(req, n, &rq), 0);
	for (n = head; n <= strlen(req); n++) {
		assert_int_equal(parse(req, n, &rq), 1);
		assert_int_equal(rq.status, 200);
		assert_int_equal(rq.len, head);
	}
	/* garbage is refused on its first line, without waiting for more */
	assert_int_equal(parse("\x16\x03\x01 x\n", 6, &rq), 1);
	assert_int_equal(rq.status, 400);
}

/* The bounds: a head of LSK_HTTP_HEAD_MAX bytes without its end, or too
 * many header lines, is 431; below the bound it is "not yet". */
static void
test_http_bounds(void **state)
{
	struct lsk_http_request rq;
	char *big = malloc(LSK_HTTP_HEAD_MAX + 64);
	size_t n = 0;
	unsigned int i;

	(void)state;
	assert_non_null(big);
	memset(big, 'a', LSK_HTTP_HEAD_MAX + 64);
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	assert_int_equal(parse(big, LSK_HTTP_HEAD_MAX - 1, &rq), 0);
	assert_int_equal(parse(big, LSK_HTTP_HEAD_MAX, &rq), 1);
	assert_int_equal(rq.status, 431);
	assert_int_equal(parse(big, LSK_HTTP_HEAD_MAX + 64, &rq), 1);
	assert_int_equal(rq.status, 431);
	/* a request line alone that long */
	memset(big, 'a', LSK_HTTP_HEAD_MAX);
	assert_int_equal(parse(big, LSK_HTTP_HEAD_MAX, &rq), 1);
	assert_int_equal(rq.status, 431);

	n = (size_t)sprintf(big, "GET /metrics HTTP/1.1\r\n");
	for (i = 0; i < LSK_HTTP_HEADERS_MAX; i++)
		n += (size_t)sprintf(big + n, "X%u: 1\r\n", i);
	n += (size_t)sprintf(big + n, "\r\n");
	assert_int_equal(parse(big, n, &rq), 1);
	assert_int_equal(rq.status, 200);
	n -= 2;
	n += (size_t)sprintf(big + n, "Y: 1\r\n\r\n");
	assert_int_equal(parse(big, n, &rq), 1);
	assert_int_equal(rq.status, 431);
	free(big);
}

static void
test_snake(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(lsk_metrics_snake("InReceives", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "in_receives");
	assert_int_equal(lsk_metrics_snake("InCsumErrors", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "in_csum_errors");
	assert_int_equal(lsk_metrics_snake("FragOKs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "frag_oks");
	assert_int_equal(lsk_metrics_snake("Hits", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "hits");
	assert_int_equal(lsk_metrics_snake("InReceives", buf, 11), -ENOSPC);
	assert_int_equal(lsk_metrics_snake("InReceives", buf, 12), 0);
}

static char *
render(struct unit_fixture *f, long long mbufs)
{
	struct lsk_stats total, one;
	unsigned int id = 0;
	struct lsk_metrics_view v = {
		.total = &total, .n_ports = f->stack->n_ports,
		.workers = &one, .worker_ids = &id, .n_workers = 1,
		.mbufs_in_use = mbufs,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	lsk_stats_read(f->stack, &total);
	lsk_worker_stats_read(f->worker, &one);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(lsk_metrics_write(&v, m), 0);
	fclose(m);
	return buf;
}

static void
assert_line(const char *text, const char *line)
{
	char want[256];

	snprintf(want, sizeof(want), "\n%s\n", line);
	if (strstr(text, want) == NULL)
		print_error("no line '%s'\n", line);
	assert_non_null(strstr(text, want));
}

/*
 * Every MIB counter, port and stage with its value; HELP then TYPE
 * before each family's samples; every line one of the three forms.
 */
static void
test_render(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int n_mib, families = 0, samples = 0;
	char *a, *line, *save = NULL, *prev_help = NULL;

	unit_traffic_fwd_noroute(f);
	a = render(f, -1);
	assert_line(a, "listack_ip_in_receives_total 3");
	assert_line(a, "listack_ip_forw_datagrams_total 2");
	assert_line(a, "listack_ip_in_no_routes_total 1");
	assert_line(a, "listack_eth_not_for_this_host_total 0");
	assert_line(a, "listack_route_cache_hits_total 0");
	/* IPv6's sections, every counter of them as IPv4's */
	assert_line(a, "listack_ip6_in_receives_total 0");
	assert_line(a, "listack_icmp6_out_echos_total 0");
	assert_line(a, "listack_udp6_in_datagrams_total 0");
	assert_line(a, "listack_nd_unresolved_discards_total 0");
	assert_line(a, "listack_port_rx_packets_total{port=\"0\"} 3");
	assert_line(a, "listack_port_tx_packets_total{port=\"1\"} 2");
	/* the two forwarded by the fast path, the third by the stages */
	assert_line(a, "listack_stage_packets_total{stage=\"fwd_fast\"} 2");
	assert_line(a, "listack_stage_calls_total{stage=\"fwd_fast\"} 3");
	assert_line(a, "listack_stage_packets_total{stage=\"ip4_forward\"} 0");
	assert_line(a, "listack_stage_calls_total{stage=\"eth_input\"} 1");
	assert_line(a, "listack_worker_stage_packets_total{worker=\"0\","
		       "stage=\"eth_input\"} 1");
	assert_line(a, "listack_worker_port_rx_packets_total{worker=\"0\","
		       "port=\"0\"} 3");
	assert_line(a, "# TYPE listack_ip_in_receives_total counter");
	assert_line(a, "listack_workers 1");
	assert_null(strstr(a, "listack_mbufs_in_use"));
	assert_int_equal(strncmp(a, "# HELP listack_ip_in_receives_total ",
				 36), 0);

	for (line = strtok_r(a, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "# HELP ", 7) == 0) {
			families++;
			prev_help = line + 7;
			continue;
		}
		if (strncmp(line, "# TYPE ", 7) == 0) {
			/* the family just announced */
			assert_non_null(prev_help);
			assert_int_equal(strncmp(line + 7, prev_help,
						 strcspn(prev_help, " ")), 0);
			continue;
		}
		assert_true(line[0] >= 'a' && line[0] <= 'z');
		assert_non_null(strrchr(line, ' '));
		samples++;
	}
	lsk_counters(&n_mib);
	/* MIB counters, 4 port, 3 stage, 3 + 2 worker families, workers */
	assert_int_equal(families, n_mib + 4 + 3 + 5 + 1);
	assert_int_equal(samples, n_mib + 4 * f->stack->n_ports +
			 3 * LSK_STAGE_COUNT + 3 * LSK_STAGE_COUNT +
			 2 * f->stack->n_ports + 1);
	free(a);

	a = render(f, 5);
	assert_line(a, "# TYPE listack_mbufs_in_use gauge");
	assert_line(a, "listack_mbufs_in_use 5");
	free(a);
}

/* One request on a new connection; the whole answer, NUL-terminated. */
static char *
http_get(uint16_t port, const char *req)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	struct timeval tv = { 10, 0 };
	ssize_t r;
	int fd;

	assert_non_null(buf);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(send(fd, req, strlen(req), 0), (ssize_t)strlen(req));
	while ((r = recv(fd, buf + len, cap - 1 - len, 0)) > 0) {
		len += (size_t)r;
		if (len == cap - 1) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[len] = '\0';
	close(fd);
	return buf;
}

static void
test_server(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_metrics *m, *m2;
	struct rte_mempool *pool = unit_small_pool("metrics_pool", 64);
	struct rte_mbuf *held[3];
	uint16_t port;
	char *a, addr[32];

	unit_traffic_fwd_noroute(f);
	assert_int_equal(lsk_metrics_start(f->stack, "1.2.3.4.5", 0, &m), -EINVAL);
	assert_int_equal(lsk_metrics_start(NULL, "127.0.0.1", 0, &m), -EINVAL);
	assert_int_equal(lsk_metrics_start(f->stack, "127.0.0.1", 0, &m), 0);
	port = lsk_metrics_port(m);
	assert_true(port != 0);
	assert_int_equal(lsk_metrics_start(f->stack, "127.0.0.1", port, &m2),
			 -EADDRINUSE);
	assert_non_null(pool);
	assert_int_equal(rte_pktmbuf_alloc_bulk(pool, held, 3), 0);
	assert_int_equal(lsk_metrics_add_pool(m, pool), 0);

	a = http_get(port, "GET /metrics HTTP/1.0\r\n\r\n");
	assert_int_equal(strncmp(a, "HTTP/1.1 200 OK\r\n", 17), 0);
	assert_non_null(strstr(a, "\r\nContent-Type: text/plain; "
				  "version=0.0.4; charset=utf-8\r\n"));
	assert_non_null(strstr(a, "\r\nConnection: close\r\n\r\n# HELP "));
	assert_line(a, "listack_ip_in_receives_total 3");
	assert_line(a, "listack_mbufs_in_use 3");
	free(a);
	rte_pktmbuf_free_bulk(held, 3);
	a = http_get(port, "GET /metrics HTTP/1.0\r\n\r\n");
	assert_line(a, "listack_mbufs_in_use 0");
	free(a);

	a = http_get(port, "PUT /metrics HTTP/1.0\r\n\r\n");
	assert_int_equal(strncmp(a, "HTTP/1.1 405 Method Not Allowed\r\n", 33),
			 0);
	assert_non_null(strstr(a, "\r\nAllow: GET, HEAD\r\n"));
	free(a);
	a = http_get(port, "GET /x HTTP/1.1\r\n\r\n");
	assert_int_equal(strncmp(a, "HTTP/1.1 404 Not Found\r\n", 24), 0);
	assert_non_null(strstr(a, "\r\n\r\n404 Not Found: only /metrics is "
				  "served\n"));
	free(a);
	a = http_get(port, "HEAD /metrics HTTP/1.0\r\n\r\n");
	assert_int_equal(strncmp(a, "HTTP/1.1 200 OK\r\n", 17), 0);
	assert_int_equal(strcmp(a + strlen(a) - 4, "\r\n\r\n"), 0);
	free(a);
	lsk_metrics_stop(m);
	lsk_metrics_stop(NULL);
	rte_mempool_free(pool);

	/* IPv6, where the host has it */
	snprintf(addr, sizeof(addr), "::1");
	if (lsk_metrics_start(f->stack, addr, 0, &m) == 0) {
		assert_true(lsk_metrics_port(m) != 0);
		lsk_metrics_stop(m);
	}
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http_parse),
		cmocka_unit_test(test_http_partial),
		cmocka_unit_test(test_http_bounds),
		cmocka_unit_test(test_snake),
		T(test_render),
		T(test_server),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
