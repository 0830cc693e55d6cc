/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl's connection: blocking I/O on a UNIX stream socket, the
 * frames of serve/ctl_proto.h. An answer larger than CTL_ANSWER_MAX
 * is refused rather than allocated.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ctl_conn.h"

#define CTL_ANSWER_MAX ((size_t)1 << 32)

static int
write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
read_all(int fd, char *p, size_t len)
{
	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ECONNRESET;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A counted piece of the answer, NUL-terminated; NULL when empty. */
static int
read_piece(int fd, size_t len, char **out)
{
	int rc;

	*out = NULL;
	if (len == 0)
		return 0;
	*out = malloc(len + 1);
	if (*out == NULL)
		return -ENOMEM;
	rc = read_all(fd, *out, len);
	(*out)[len] = '\0';
	return rc;
}

static int
read_answer(struct ctl_conn *c, struct ctl_answer *a)
{
	char line[LSK_CTL_HEADER_MAX];
	size_t len = 0;
	int rc;

	memset(a, 0, sizeof(*a));
	for (;;) {
		rc = read_all(c->fd, line + len, 1);
		if (rc < 0)
			return rc;
		if (line[len] == '\n')
			break;
		if (++len == sizeof(line))
			return -EPROTO;
	}
	if (lsk_ctl_parse_reply(line, len, &a->hdr) < 0 ||
	    a->hdr.err_len > CTL_ANSWER_MAX || a->hdr.body_len > CTL_ANSWER_MAX)
		return -EPROTO;
	rc = read_piece(c->fd, a->hdr.err_len, &a->err);
	if (rc == 0)
		rc = read_piece(c->fd, a->hdr.body_len, &a->body);
	if (rc < 0)
		ctl_answer_free(a);
	return rc;
}

void
ctl_answer_free(struct ctl_answer *a)
{
	free(a->err);
	free(a->body);
	a->err = a->body = NULL;
}

static void
why_errno(char *why, size_t why_len, const char *path, int rc)
{
	if (rc == -EPROTO)
		snprintf(why, why_len, "%s: the answer is not of the listack-ctl "
			 "protocol", path);
	else
		snprintf(why, why_len, "%s: %s", path, strerror(-rc));
}

int
ctl_connect(struct ctl_conn *c, const char *path, bool json, char *why,
	    size_t why_len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ctl_answer a;
	char hello[64];
	int rc, n;

	c->fd = -1;
	c->json = json;
	if (strlen(path) >= sizeof(sa.sun_path) ||
	    strlen(path) >= sizeof(c->path)) {
		snprintf(why, why_len, "%s: the path is too long for a socket",
			 path);
		return -ENAMETOOLONG;
	}
	strcpy(c->path, path);
	strcpy(sa.sun_path, path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa,
				 sizeof(sa)) < 0) {
		rc = -errno;
		snprintf(why, why_len, "%s: %s (is listack-fwd running with "
			 "this --ctl-socket?)", path, strerror(errno));
		ctl_close(c);
		return rc;
	}
	n = lsk_ctl_format_hello(hello, sizeof(hello), json);
	rc = write_all(c->fd, hello, (size_t)n);
	if (rc == 0)
		rc = read_answer(c, &a);
	if (rc < 0) {
		why_errno(why, why_len, path, rc);
		ctl_close(c);
		return rc;
	}
	if (a.hdr.status != LSK_CTL_OK) {
		snprintf(why, why_len, "%s: %s", path, a.err ? a.err :
			 strerror(a.hdr.err));
		rc = -a.hdr.err;
		ctl_answer_free(&a);
		ctl_close(c);
		return rc ? rc : -EPROTO;
	}
	ctl_answer_free(&a);
	return 0;
}

void
ctl_close(struct ctl_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Has the server closed an idle connection (timeout, restart)? */
static bool
conn_gone(const struct ctl_conn *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };

	/* it says nothing unasked: anything to read is its goodbye */
	return c->fd < 0 || poll(&p, 1, 0) != 0;
}

int
ctl_request(struct ctl_conn *c, const char *text, size_t len,
	    const char *source, struct ctl_answer *a, char *why, size_t why_len)
{
	char hdr[LSK_CTL_HEADER_MAX];
	int n, rc;

	memset(a, 0, sizeof(*a));
	if (len > LSK_CTL_REQUEST_MAX) {
		snprintf(why, why_len, "%s: %zu bytes: a batch is at most %u "
			 "bytes", source, len, LSK_CTL_REQUEST_MAX);
		return -E2BIG;
	}
	if (conn_gone(c)) {
		char path[sizeof(c->path)];

		strcpy(path, c->path);
		ctl_close(c);
		rc = ctl_connect(c, path, c->json, why, why_len);
		if (rc < 0)
			return rc;
	}
	n = lsk_ctl_format_run(hdr, sizeof(hdr), len, source);
	if (n < 0)
		n = lsk_ctl_format_run(hdr, sizeof(hdr), len, NULL);
	rc = write_all(c->fd, hdr, (size_t)n);
	if (rc == 0)
		rc = write_all(c->fd, text, len);
	/* refused half-way (a bound), it may still have said why */
	if (rc == 0 || rc == -EPIPE || rc == -ECONNRESET)
		rc = read_answer(c, a);
	if (rc < 0) {
		why_errno(why, why_len, c->path, rc);
		ctl_close(c);
		return rc;
	}
	if (a->hdr.status == LSK_CTL_FATAL)
		ctl_close(c);
	return 0;
}
