/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's header lines (serve/ctl_proto.h): split into
 * words, each checked; nothing here trusts a length it was not given.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "listack/ctl.h"
#include "serve/ctl_proto.h"

#define WORDS_MAX 5

struct words {
	unsigned int n;
	const char *w[WORDS_MAX];
	size_t len[WORDS_MAX];
};

/* Words split on spaces; -EPROTO for a control byte or too many words. */
static int
split(const char *line, size_t len, struct words *ws)
{
	size_t i = 0;

	ws->n = 0;
	while (i < len) {
		size_t start;

		if (line[i] == ' ') {
			i++;
			continue;
		}
		if (ws->n == WORDS_MAX)
			return -EPROTO;
		start = i;
		while (i < len && line[i] != ' ') {
			unsigned char c = (unsigned char)line[i];

			if (c < 0x21 || c > 0x7e)
				return -EPROTO;
			i++;
		}
		ws->w[ws->n] = line + start;
		ws->len[ws->n++] = i - start;
	}
	return 0;
}

static bool
word_is(const struct words *ws, unsigned int i, const char *s)
{
	return ws->len[i] == strlen(s) && memcmp(ws->w[i], s, ws->len[i]) == 0;
}

/* A decimal number of at most 20 digits that fits max; -ERANGE if not. */
static int
parse_count(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 20)
		return len ? -ERANGE : -EINVAL;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int
lsk_ctl_parse_hello(const char *line, size_t len, unsigned int *version,
		    bool *json, char *why, size_t why_len)
{
	struct words ws;
	uint64_t v;

	if (split(line, len, &ws) < 0 || ws.n != 3 ||
	    !word_is(&ws, 0, "listack-ctl") ||
	    parse_count(ws.w[1], ws.len[1], UINT32_MAX, &v) < 0 ||
	    !(word_is(&ws, 2, "text") || word_is(&ws, 2, "json"))) {
		snprintf(why, why_len, "not a hello: expected 'listack-ctl "
			 "VERSION text|json' (this server speaks version %d)",
			 LSK_CTL_VERSION);
		return -EPROTO;
	}
	*version = (unsigned int)v;
	if (v != LSK_CTL_VERSION) {
		snprintf(why, why_len, "protocol version %u is not spoken "
			 "here: this server speaks version %d (listack-ctl "
			 "and the stack are from different releases)",
			 *version, LSK_CTL_VERSION);
		return -EPROTONOSUPPORT;
	}
	*json = word_is(&ws, 2, "json");
	why[0] = '\0';
	return 0;
}

int
lsk_ctl_format_hello(char *buf, size_t size, bool json)
{
	return snprintf(buf, size, "listack-ctl %d %s\n", LSK_CTL_VERSION,
			json ? "json" : "text");
}

bool
lsk_ctl_source_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > LSK_CTL_SOURCE_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("._/+-", c) != NULL) ||
		    c == '\0')
			return false;
	}
	return true;
}

int
lsk_ctl_parse_run(const char *line, size_t len, size_t *body_len,
		  char *source, char *why, size_t why_len)
{
	struct words ws;
	uint64_t n;
	int rc;

	if (split(line, len, &ws) < 0 || ws.n < 2 || ws.n > 3 ||
	    !word_is(&ws, 0, "run")) {
		snprintf(why, why_len, "not a request: expected 'run LEN "
			 "[SOURCE]'");
		return -EPROTO;
	}
	rc = parse_count(ws.w[1], ws.len[1], LSK_CTL_REQUEST_MAX, &n);
	if (rc == -ERANGE) {
		snprintf(why, why_len, "a request of %.*s bytes: at most %u "
			 "bytes are taken at once", (int)ws.len[1], ws.w[1],
			 LSK_CTL_REQUEST_MAX);
		return -E2BIG;
	}
	if (rc < 0) {
		snprintf(why, why_len, "request length '%.*s' is not a number",
			 (int)ws.len[1], ws.w[1]);
		return -EPROTO;
	}
	if (ws.n == 3 && !lsk_ctl_source_ok(ws.w[2], ws.len[2])) {
		snprintf(why, why_len, "a request's source is 1-%d of "
			 "[A-Za-z0-9._/+-]", LSK_CTL_SOURCE_MAX);
		return -EPROTO;
	}
	*body_len = (size_t)n;
	if (ws.n == 3) {
		memcpy(source, ws.w[2], ws.len[2]);
		source[ws.len[2]] = '\0';
	} else {
		strcpy(source, "-");
	}
	why[0] = '\0';
	return 0;
}

int
lsk_ctl_format_run(char *buf, size_t size, size_t body_len,
		   const char *source)
{
	if (source == NULL)
		source = "-";
	if (!lsk_ctl_source_ok(source, strlen(source)))
		return -EINVAL;
	return snprintf(buf, size, "run %zu %s\n", body_len, source);
}

static const char *const status_names[] = {
	[LSK_CTL_OK] = "ok",
	[LSK_CTL_ERROR] = "error",
	[LSK_CTL_FATAL] = "fatal",
};

int
lsk_ctl_format_reply(char *buf, size_t size, enum lsk_ctl_status status,
		     int err, size_t err_len, size_t body_len)
{
	return snprintf(buf, size, "%s %d %zu %zu\n", status_names[status],
			err, err_len, body_len);
}

int
lsk_ctl_parse_reply(const char *line, size_t len, struct lsk_ctl_reply_hdr *h)
{
	struct words ws;
	uint64_t err, elen, blen;
	unsigned int i;

	if (split(line, len, &ws) < 0 || ws.n != 4)
		return -EPROTO;
	for (i = 0; i < 3; i++)
		if (word_is(&ws, 0, status_names[i]))
			break;
	if (i == 3 ||
	    parse_count(ws.w[1], ws.len[1], 4095, &err) < 0 ||
	    parse_count(ws.w[2], ws.len[2], SIZE_MAX >> 2, &elen) < 0 ||
	    parse_count(ws.w[3], ws.len[3], SIZE_MAX >> 2, &blen) < 0 ||
	    (i == LSK_CTL_OK) != (err == 0))
		return -EPROTO;
	h->status = (enum lsk_ctl_status)i;
	h->err = (int)err;
	h->err_len = (size_t)elen;
	h->body_len = (size_t)blen;
	return 0;
}
