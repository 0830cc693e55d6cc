/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the control socket's header lines
 * (serve/ctl_proto.c): each line of the input is parsed as a hello, a
 * request header and an answer header. None may read past the line;
 * what one accepts must be what its formatter writes back: format what
 * was parsed, parse that, and the values must be the same.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listack/ctl.h"
#include "serve/ctl_proto.h"

#include "fuzz_common.h"

static void
fuzz_line(const char *line, size_t len)
{
	char why[256], src[LSK_CTL_SOURCE_MAX + 1], src2[LSK_CTL_SOURCE_MAX + 1];
	char buf[LSK_CTL_HEADER_MAX];
	struct lsk_ctl_reply_hdr h, h2;
	unsigned int version;
	size_t body, body2;
	bool json, json2;
	int n, rc;

	/* the line is copied to a buffer of its own size: ASan sees any
	 * read past it */
	char *copy = malloc(len ? len : 1);

	if (copy == NULL)
		return;
	memcpy(copy, line, len);
	rc = lsk_ctl_parse_hello(copy, len, &version, &json, why, sizeof(why));
	if (rc == 0) {
		if (version != LSK_CTL_VERSION)
			fuzz_fail("hello accepted version %u", version);
		n = lsk_ctl_format_hello(buf, sizeof(buf), json);
		if (lsk_ctl_parse_hello(buf, (size_t)n - 1, &version, &json2,
					why, sizeof(why)) != 0 || json2 != json)
			fuzz_fail("hello round trip: %s", buf);
	} else if (rc != -EPROTO && rc != -EPROTONOSUPPORT) {
		fuzz_fail("hello: rc %d", rc);
	} else if (why[0] == '\0') {
		fuzz_fail("hello refused without a reason");
	}

	rc = lsk_ctl_parse_run(copy, len, &body, src, why, sizeof(why));
	if (rc == 0) {
		if (body > LSK_CTL_REQUEST_MAX ||
		    !lsk_ctl_source_ok(src, strlen(src)))
			fuzz_fail("run accepted %zu bytes from '%s'", body, src);
		n = lsk_ctl_format_run(buf, sizeof(buf), body, src);
		if (n <= 0 || lsk_ctl_parse_run(buf, (size_t)n - 1, &body2,
						src2, why, sizeof(why)) != 0 ||
		    body2 != body || strcmp(src, src2) != 0)
			fuzz_fail("run round trip: %s", buf);
	} else if (rc != -EPROTO && rc != -E2BIG) {
		fuzz_fail("run: rc %d", rc);
	}

	if (lsk_ctl_parse_reply(copy, len, &h) == 0) {
		if ((h.status == LSK_CTL_OK) != (h.err == 0) || h.err < 0)
			fuzz_fail("reply: status %d with errno %d", h.status,
				  h.err);
		n = lsk_ctl_format_reply(buf, sizeof(buf), h.status, h.err,
					 h.err_len, h.body_len);
		if (lsk_ctl_parse_reply(buf, (size_t)n - 1, &h2) != 0 ||
		    memcmp(&h, &h2, sizeof(h)) != 0)
			fuzz_fail("reply round trip: %s", buf);
	}
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		fuzz_line(p, len);
		p += len + 1;
	}
	return 0;
}
