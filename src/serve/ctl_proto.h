/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's wire protocol (version LSK_CTL_VERSION), shared by
 * the server (serve/ctl_server.c) and listack-ctl (app/ctl.c). Plain
 * C, no DPDK: listack-ctl builds it in.
 *
 * Every header is one line of ASCII words ending in '\n', at most
 * LSK_CTL_HEADER_MAX bytes with it; bodies are counted bytes.
 *
 *   client:  listack-ctl VERSION text|json\n          once, first
 *   server:  STATUS ERRNO ERRLEN BODYLEN\n ERR BODY   the hello's answer
 *   client:  run LEN [SOURCE]\n BODY                  a batch of LEN bytes
 *   server:  STATUS ERRNO ERRLEN BODYLEN\n ERR BODY   its answer
 *   ...      (one request at a time; the next may be sent before the
 *            answer, it is read once the answer is out)
 *
 * STATUS is `ok` (ERRNO 0, ERRLEN 0), `error` (the batch was refused and
 * nothing changed: ERR is "SOURCE:LINE: reason") or `fatal` (the request
 * itself was wrong: a bad header, a version this server does not speak,
 * too many clients, a bound passed; the server closes the connection
 * after the answer). ERRNO is a positive errno value. The body is the
 * answer of the batch's `show` lines, as text or one JSON value as the
 * hello asked. SOURCE (1-64 of [A-Za-z0-9._/+-]) names the batch in
 * errors; "-" when absent. A batch runs whole, under the stack's lock,
 * only once all LEN bytes have arrived: a client that leaves before
 * changes nothing.
 */
#ifndef LSK_SERVE_CTL_PROTO_H
#define LSK_SERVE_CTL_PROTO_H

#include <stdbool.h>
#include <stddef.h>

/* A header line, its '\n' included. */
#define LSK_CTL_HEADER_MAX 256
/* One batch: room for a million routes. */
#define LSK_CTL_REQUEST_MAX (64u << 20)
#define LSK_CTL_SOURCE_MAX 64

enum lsk_ctl_status {
	LSK_CTL_OK,
	LSK_CTL_ERROR,
	LSK_CTL_FATAL,
};

struct lsk_ctl_reply_hdr {
	enum lsk_ctl_status status;
	int err;		/* positive errno, 0 when ok */
	size_t err_len, body_len;
};

/*
 * The hello line (without its '\n'): 0 with *json set, -EPROTO when it is
 * not a hello, -EPROTONOSUPPORT for another version (*version says which).
 * why gets a sentence for the client either way.
 */
int lsk_ctl_parse_hello(const char *line, size_t len, unsigned int *version,
			bool *json, char *why, size_t why_len);
/* The client's hello for json or text, NUL-terminated; returns its length. */
int lsk_ctl_format_hello(char *buf, size_t size, bool json);

/*
 * A request header (without its '\n'): 0 with *body_len and source
 * (LSK_CTL_SOURCE_MAX + 1 bytes, "-" when absent); -EPROTO when malformed,
 * -E2BIG when LEN is over LSK_CTL_REQUEST_MAX; why says what was wrong.
 */
int lsk_ctl_parse_run(const char *line, size_t len, size_t *body_len,
		      char *source, char *why, size_t why_len);
/* "run LEN SOURCE\n" (source NULL: "-"); -EINVAL for a bad source. */
int lsk_ctl_format_run(char *buf, size_t size, size_t body_len,
		       const char *source);

/* An answer's header line, '\n' included; returns its length. */
int lsk_ctl_format_reply(char *buf, size_t size, enum lsk_ctl_status status,
			 int err, size_t err_len, size_t body_len);
/* Parse one (without its '\n'): 0 or -EPROTO. */
int lsk_ctl_parse_reply(const char *line, size_t len,
			struct lsk_ctl_reply_hdr *h);

/* A valid SOURCE word? */
bool lsk_ctl_source_ok(const char *s, size_t len);

#endif /* LSK_SERVE_CTL_PROTO_H */
