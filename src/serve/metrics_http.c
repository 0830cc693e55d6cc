/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics endpoint's HTTP/1.0 and 1.1 request parser (RFC 9112's
 * request line and header fields): what is served is `GET /metrics`
 * (and HEAD), what is refused gets its status and the connection closes.
 * A request may not carry a body (Content-Length other than 0,
 * Transfer-Encoding): the endpoint never reads one. Lines end in CRLF or
 * a bare LF (RFC 9112 2.2 lets a recipient accept it); obsolete line
 * folding is refused. Plain C, no DPDK: tests/fuzz/fuzz_http.c runs it.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "serve/metrics.h"

#define METRICS_PATH "/metrics"
#define METHOD_MAX 16

const char *
lsk_http_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Error";
	}
}

/* RFC 9110 5.6.2 tchar */
static bool
is_tchar(unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z'))
		return true;
	return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int
answer(struct lsk_http_request *rq, int status, const char *why, size_t len)
{
	rq->status = status;
	rq->why = why;
	rq->len = len;
	if (status != 200)
		rq->keep_alive = false;
	return 1;
}

/* The line [p, p + n) without its LF; a CR before the LF goes too. */
static size_t
line_len(const char *p, size_t n)
{
	return n > 0 && p[n - 1] == '\r' ? n - 1 : n;
}

/*
 * METHOD SP TARGET SP HTTP/D.D: the status it deserves alone (200, 400,
 * 404, 405, 505), *minor the version's.
 */
static int
request_line(const char *p, size_t n, struct lsk_http_request *rq,
	     int *minor, const char **why)
{
	size_t m = 0, t0, t, path;

	while (m < n && m <= METHOD_MAX && is_tchar((unsigned char)p[m]))
		m++;
	if (m == 0 || m > METHOD_MAX || m >= n || p[m] != ' ') {
		*why = "a bad request line";
		return 400;
	}
	t0 = t = m + 1;
	while (t < n && (unsigned char)p[t] > ' ' && (unsigned char)p[t] < 0x7f)
		t++;
	if (t == t0 || t >= n || p[t] != ' ' || n - t - 1 != 8 ||
	    memcmp(p + t + 1, "HTTP/", 5) != 0 || p[t + 7] != '.' ||
	    p[t + 6] < '0' || p[t + 6] > '9' || p[t + 8] < '0' ||
	    p[t + 8] > '9') {
		*why = "a bad request line";
		return 400;
	}
	if (p[t0] != '/') {
		*why = "the target is not a path";
		return 400;
	}
	if (p[t + 6] != '1' || (p[t + 8] != '0' && p[t + 8] != '1')) {
		*why = "only HTTP/1.0 and HTTP/1.1 are spoken";
		return 505;
	}
	*minor = p[t + 8] - '0';
	if (m == 3 && memcmp(p, "GET", 3) == 0) {
		rq->head_only = false;
	} else if (m == 4 && memcmp(p, "HEAD", 4) == 0) {
		rq->head_only = true;
	} else {
		*why = "only GET and HEAD are served";
		return 405;
	}
	/* the path, without a query */
	for (path = t0; path < t && p[path] != '?'; path++)
		;
	if (path - t0 != strlen(METRICS_PATH) ||
	    memcmp(p + t0, METRICS_PATH, path - t0) != 0) {
		*why = "only /metrics is served";
		return 404;
	}
	return 200;
}

/* Does the comma-separated list [v, v + n) hold token tok (any case)? */
static bool
list_has(const char *v, size_t n, const char *tok)
{
	size_t i = 0, k = strlen(tok);

	while (i < n) {
		size_t j = i, e;

		while (j < n && v[j] != ',')
			j++;
		while (i < j && (v[i] == ' ' || v[i] == '\t'))
			i++;
		e = j;
		while (e > i && (v[e - 1] == ' ' || v[e - 1] == '\t'))
			e--;
		if (e - i == k && strncasecmp(v + i, tok, k) == 0)
			return true;
		i = j + 1;
	}
	return false;
}

struct head_state {
	bool close, keep;
};

/* One header field line (not empty): 0 or the status to refuse with. */
static int
header_line(const char *p, size_t n, struct head_state *hs, const char **why)
{
	size_t k = 0, v, e, i;

	while (k < n && is_tchar((unsigned char)p[k]))
		k++;
	if (k == 0 || k >= n || p[k] != ':') {
		/* no name, a space before the colon, obs-fold */
		*why = "a bad header line";
		return 400;
	}
	for (i = k + 1; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < ' ' && c != '\t') || c == 0x7f) {
			*why = "a control character in a header";
			return 400;
		}
	}
	for (v = k + 1; v < n && (p[v] == ' ' || p[v] == '\t'); v++)
		;
	for (e = n; e > v && (p[e - 1] == ' ' || p[e - 1] == '\t'); e--)
		;
	if (k == 14 && strncasecmp(p, "Content-Length", k) == 0) {
		for (i = v; i < e && p[i] == '0'; i++)
			;
		if (v == e || i != e) {
			*why = "a request body (this endpoint reads none)";
			return 400;
		}
	} else if (k == 17 && strncasecmp(p, "Transfer-Encoding", k) == 0) {
		*why = "a request body (this endpoint reads none)";
		return 400;
	} else if (k == 10 && strncasecmp(p, "Connection", k) == 0) {
		hs->close |= list_has(p + v, e - v, "close");
		hs->keep |= list_has(p + v, e - v, "keep-alive");
	}
	return 0;
}

int
lsk_http_parse(const char *buf, size_t len, struct lsk_http_request *rq)
{
	size_t lim = len < LSK_HTTP_HEAD_MAX ? len : LSK_HTTP_HEAD_MAX;
	struct head_state hs = { false, false };
	const char *p, *nl, *end = buf + lim, *why = NULL, *hwhy = NULL;
	unsigned int n_headers = 0;
	int status, minor = 0, st;

	memset(rq, 0, sizeof(*rq));
	if (lim != 0 && memchr(buf, '\0', lim) != NULL)
		return answer(rq, 400, "a NUL byte in the request", lim);
	nl = lim ? memchr(buf, '\n', lim) : NULL;
	if (nl == NULL)
		return lim == LSK_HTTP_HEAD_MAX ?
		       answer(rq, 431, "the request line is too long", lim) : 0;
	status = request_line(buf, line_len(buf, (size_t)(nl - buf)), rq,
			      &minor, &why);
	if (status == 400)	/* garbage: no need to wait for more */
		return answer(rq, 400, why, (size_t)(nl + 1 - buf));
	for (p = nl + 1;; p = nl + 1) {
		size_t n;

		nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		if (nl == NULL)
			return lim == LSK_HTTP_HEAD_MAX ?
			       answer(rq, 431, "the request head is too large",
				      lim) : 0;
		n = line_len(p, (size_t)(nl - p));
		if (n == 0)
			break;
		if (++n_headers > LSK_HTTP_HEADERS_MAX)
			return answer(rq, 431, "too many header lines",
				      (size_t)(nl + 1 - buf));
		st = header_line(p, n, &hs, &hwhy);
		if (st != 0)
			return answer(rq, st, hwhy, (size_t)(nl + 1 - buf));
	}
	/* a bare CR anywhere but before an LF */
	for (p = buf; p < nl; p++)
		if (*p == '\r' && p[1] != '\n')
			return answer(rq, 400, "a bare CR in the request",
				      (size_t)(nl + 1 - buf));
	rq->keep_alive = minor == 1 ? !hs.close : hs.keep && !hs.close;
	return answer(rq, status, status == 200 ? "" : why,
		      (size_t)(nl + 1 - buf));
}
