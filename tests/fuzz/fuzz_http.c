/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the metrics endpoint's HTTP request parser
 * (serve/metrics_http.c): the input is what a client sent. The parser
 * may not read past it; an answer is one of the statuses it documents,
 * consumes no more than it was given nor more than LSK_HTTP_HEAD_MAX,
 * ends a head where a head ends; a head it serves starts with GET or
 * HEAD /metrics; parsing just the bytes it consumed gives the same
 * answer; "not yet" holds for every shorter prefix too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve/metrics.h"

#include "fuzz_common.h"

static int
parse_copy(const uint8_t *data, size_t size, struct lsk_http_request *rq)
{
	/* a buffer of the input's own size: ASan sees any read past it */
	char *copy = malloc(size ? size : 1);
	int rc;

	if (copy == NULL)
		fuzz_fail("no memory");
	memcpy(copy, data, size);
	rc = lsk_http_parse(copy, size, rq);
	free(copy);
	return rc;
}

static bool
status_known(int s)
{
	return s == 200 || s == 400 || s == 404 || s == 405 || s == 431 ||
	       s == 505;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lsk_http_request rq, rq2;
	const char *p = (const char *)data;
	int rc;

	rc = parse_copy(data, size, &rq);
	if (rc == 0) {
		if (size >= LSK_HTTP_HEAD_MAX)
			fuzz_fail("%zu bytes and still not a whole head", size);
		if (size > 1 && parse_copy(data, size / 2, &rq2) != 0)
			fuzz_fail("a prefix of a partial head was answered");
		return 0;
	}
	if (rc != 1)
		fuzz_fail("rc %d", rc);
	if (!status_known(rq.status) || rq.why == NULL)
		fuzz_fail("status %d", rq.status);
	if (rq.len == 0 || rq.len > size || rq.len > LSK_HTTP_HEAD_MAX)
		fuzz_fail("consumed %zu of %zu", rq.len, size);
	if (rq.status != 200 && rq.keep_alive)
		fuzz_fail("keeps a connection open after %d", rq.status);
	if (rq.status == 200) {
		if (strncmp(p, "GET /metrics", 12) != 0 &&
		    strncmp(p, "HEAD /metrics", 13) != 0)
			fuzz_fail("served '%.20s'", p);
		if (rq.head_only != (p[0] == 'H'))
			fuzz_fail("HEAD read wrong");
		if (rq.len < 2 || p[rq.len - 1] != '\n' ||
		    (p[rq.len - 2] != '\n' &&
		     (rq.len < 3 || memcmp(p + rq.len - 3, "\n\r", 2) != 0)))
			fuzz_fail("a head that does not end in an empty line");
		if (memchr(p, '\0', rq.len) != NULL)
			fuzz_fail("served a head with a NUL");
	}
	/* the bytes consumed alone: the same answer (431 and an early 400
	 * may have consumed what they looked at, not a whole head) */
	if (rq.status != 431 && parse_copy(data, rq.len, &rq2) == 1 &&
	    (rq2.status != rq.status || rq2.len != rq.len ||
	     rq2.keep_alive != rq.keep_alive ||
	     rq2.head_only != rq.head_only))
		fuzz_fail("status %d over %zu bytes, %d over the head alone",
			  rq.status, rq.len, rq2.status);
	return 0;
}
