/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's server (listack/ctl.h): the listeners' poll loop
 * (serve/serve.h) on a thread of its own polls a listening UNIX socket
 * and its clients, all non-blocking. Each client speaks the
 * protocol of serve/ctl_proto.h; a complete batch runs with one
 * lsk_command_run under the stack's lock, so a client that leaves or
 * stalls half-way has changed nothing and holds nothing.
 *
 * Bounds (what a hostile client can cost): LSK_CTL_CLIENTS clients (one
 * more is told so and closed), a header line of LSK_CTL_HEADER_MAX
 * bytes, a batch of LSK_CTL_REQUEST_MAX bytes buffered as it arrives,
 * CTL_BUFFERED_MAX bytes of batches over all clients, and one answer per
 * client (its next request is not read before the answer is out). A
 * client that stops half-way through a request or an answer is dropped
 * after CTL_STALL_MS, one that sends nothing for CTL_IDLE_MS too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "listack/ctl.h"
#include "cli/cli.h"
#include "serve/serve.h"
#include "serve/ctl_proto.h"
#include "control/ping.h"

#define LSK_CTL_CLIENTS 16
#define CTL_BUFFERED_MAX (128u << 20)
#define CTL_STALL_MS 5000
#define CTL_IDLE_MS (10 * 60 * 1000)
#define CTL_RX_CHUNK 4096

enum client_state {
	CLIENT_HELLO,		/* waiting for the hello line */
	CLIENT_HEADER,		/* waiting for a request header */
	CLIENT_BODY,		/* reading a batch */
	CLIENT_REPLY,		/* writing an answer */
};

struct ctl_client {
	int fd;
	enum client_state state;
	bool json;
	bool closing;		/* close once the answer is out */
	int64_t last_ms;	/* the last byte that moved */
	/* what was received and not yet consumed */
	char rx[CTL_RX_CHUNK];
	size_t rx_len;
	/* the batch being read */
	char source[LSK_CTL_SOURCE_MAX + 1];
	char *body;
	size_t body_len, body_have, body_cap;
	/* the answer being written: its header and error text, then its
	 * body (the command's own buffer, not copied) */
	char *tx, *tx_body;
	size_t tx_len, tx_body_len, tx_done;
};

struct lsk_ctl {
	struct lsk_stack *stack;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t dev;
	ino_t ino;
	struct lsk_serve loop;
	size_t buffered;	/* batch bytes held, over all clients */
	struct ctl_client clients[LSK_CTL_CLIENTS];
};

/* ------------------------------------------------------------ clients */

static void
client_free_body(struct lsk_ctl *ctl, struct ctl_client *c)
{
	ctl->buffered -= c->body_cap;
	free(c->body);
	c->body = NULL;
	c->body_len = c->body_have = c->body_cap = 0;
}

static void
client_close(struct lsk_ctl *ctl, struct ctl_client *c)
{
	client_free_body(ctl, c);
	free(c->tx);
	free(c->tx_body);
	close(c->fd);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/*
 * Queue an answer; the client's input waits until it is written. body
 * (malloc'd, or NULL) becomes the client's and is freed once sent.
 */
static void
client_answer(struct ctl_client *c, enum lsk_ctl_status status, int err,
	      const char *why, char *body, size_t body_len)
{
	size_t why_len = status == LSK_CTL_OK ? 0 : strlen(why);
	char hdr[LSK_CTL_HEADER_MAX];
	int n;

	n = lsk_ctl_format_reply(hdr, sizeof(hdr), status, err, why_len,
				 body ? body_len : 0);
	c->tx = malloc((size_t)n + why_len);
	if (c->tx == NULL) {
		/* not even room to say so */
		free(body);
		c->closing = true;
		c->state = CLIENT_REPLY;
		return;
	}
	memcpy(c->tx, hdr, (size_t)n);
	memcpy(c->tx + n, why, why_len);
	c->tx_len = (size_t)n + why_len;
	c->tx_body = body;
	c->tx_body_len = body ? body_len : 0;
	c->tx_done = 0;
	c->state = CLIENT_REPLY;
	if (status == LSK_CTL_FATAL)
		c->closing = true;
}

static void
client_fatal(struct ctl_client *c, int err, const char *why)
{
	client_answer(c, LSK_CTL_FATAL, err, why, NULL, 0);
}

/* Run the client's whole batch, under the lock, and queue its answer. */
static void
client_run(struct lsk_ctl *ctl, struct ctl_client *c)
{
	struct lsk_out o;
	unsigned int i;
	int64_t now;
	int rc;

	if (c->body_len && memchr(c->body, '\0', c->body_len) != NULL) {
		client_answer(c, LSK_CTL_ERROR, EINVAL, "a NUL byte in the "
			      "request: commands are text", NULL, 0);
		return;
	}
	lsk_out_init(&o, c->json);
	lsk_stack_lock(ctl->stack);
	rc = lsk_command_run(ctl->stack, c->body ? c->body : "", c->body_len,
			     c->source, &o);
	lsk_stack_unlock(ctl->stack);
	if (rc == 0 && o.oom) {
		rc = -ENOMEM;
		snprintf(o.err, sizeof(o.err), "%s: the answer did not fit "
			 "in memory", c->source);
	}
	if (rc < 0) {
		client_answer(c, LSK_CTL_ERROR, -rc,
			      o.err[0] ? o.err : strerror(-rc), NULL, 0);
	} else {
		client_answer(c, LSK_CTL_OK, 0, "", o.buf, o.len);
		o.buf = NULL;	/* the client's now */
	}
	lsk_out_free(&o);
	/* the time the batch took was the server's, not any client's */
	now = lsk_serve_now_ms();
	for (i = 0; i < LSK_CTL_CLIENTS; i++)
		if (ctl->clients[i].fd >= 0)
			ctl->clients[i].last_ms = now;
}

/* A complete header line (without '\n') in the state it came in. */
static void
client_header(struct lsk_ctl *ctl, struct ctl_client *c, const char *line,
	      size_t len)
{
	char why[256];
	unsigned int version;
	int rc;

	if (c->state == CLIENT_HELLO) {
		rc = lsk_ctl_parse_hello(line, len, &version, &c->json, why,
					 sizeof(why));
		if (rc < 0)
			client_fatal(c, -rc, why);
		else
			client_answer(c, LSK_CTL_OK, 0, "", NULL, 0);
		return;
	}
	rc = lsk_ctl_parse_run(line, len, &c->body_len, c->source, why,
			       sizeof(why));
	if (rc < 0) {
		client_fatal(c, -rc, why);
		return;
	}
	c->body_have = 0;
	c->state = CLIENT_BODY;
	if (c->body_len == 0)
		client_run(ctl, c);
}

/* Take what the batch still needs from rx; -ENOBUFS past the bound. */
static int
client_take_body(struct lsk_ctl *ctl, struct ctl_client *c)
{
	size_t n = c->body_len - c->body_have;

	if (n > c->rx_len)
		n = c->rx_len;
	if (n == 0)
		return 0;	/* the header came alone: no buffer yet */
	if (c->body_have + n > c->body_cap) {
		size_t cap = c->body_cap ? c->body_cap : CTL_RX_CHUNK;
		char *b;

		while (cap < c->body_have + n)
			cap *= 2;
		if (cap > c->body_len)
			cap = c->body_len;
		if (ctl->buffered - c->body_cap + cap > CTL_BUFFERED_MAX)
			return -ENOBUFS;
		b = realloc(c->body, cap);
		if (b == NULL)
			return -ENOBUFS;
		ctl->buffered += cap - c->body_cap;
		c->body = b;
		c->body_cap = cap;
	}
	memcpy(c->body + c->body_have, c->rx, n);
	c->body_have += n;
	memmove(c->rx, c->rx + n, c->rx_len - n);
	c->rx_len -= n;
	return 0;
}

/* Consume rx until it runs dry or an answer is due. */
static void
client_process(struct lsk_ctl *ctl, struct ctl_client *c)
{
	while (c->state != CLIENT_REPLY) {
		if (c->state == CLIENT_BODY) {
			if (client_take_body(ctl, c) < 0) {
				client_free_body(ctl, c);
				client_fatal(c, ENOBUFS, "the server holds too "
					     "many batches now: try again");
				return;
			}
			if (c->body_have < c->body_len)
				return;
			client_run(ctl, c);
			client_free_body(ctl, c);
		} else {
			char *nl = memchr(c->rx, '\n', c->rx_len);
			size_t len;

			if (nl == NULL) {
				if (c->rx_len >= LSK_CTL_HEADER_MAX)
					client_fatal(c, EPROTO, "a header line "
						     "longer than the protocol "
						     "allows");
				return;
			}
			len = (size_t)(nl - c->rx);
			client_header(ctl, c, c->rx, len);
			memmove(c->rx, nl + 1, c->rx_len - len - 1);
			c->rx_len -= len + 1;
		}
	}
}

static void
client_read(struct lsk_ctl *ctl, struct ctl_client *c)
{
	ssize_t n;

	/* (a full rx is consumed, or refused, before the next poll) */
	if (c->rx_len == sizeof(c->rx))
		return;
	n = recv(c->fd, c->rx + c->rx_len, sizeof(c->rx) - c->rx_len, 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		/* gone: a batch not whole is dropped unrun */
		client_close(ctl, c);
		return;
	}
	if (n < 0)
		return;
	c->rx_len += (size_t)n;
	c->last_ms = lsk_serve_now_ms();
	client_process(ctl, c);
}

static void
client_write(struct lsk_ctl *ctl, struct ctl_client *c)
{
	while (c->tx_done < c->tx_len + c->tx_body_len) {
		struct iovec iov[2];
		struct msghdr mh = { .msg_iov = iov };
		ssize_t n;

		if (c->tx_done < c->tx_len) {
			iov[mh.msg_iovlen++] = (struct iovec){
				c->tx + c->tx_done, c->tx_len - c->tx_done };
			if (c->tx_body_len)
				iov[mh.msg_iovlen++] = (struct iovec){
					c->tx_body, c->tx_body_len };
		} else {
			size_t off = c->tx_done - c->tx_len;

			iov[mh.msg_iovlen++] = (struct iovec){
				c->tx_body + off, c->tx_body_len - off };
		}
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			client_close(ctl, c);
			return;
		}
		c->tx_done += (size_t)n;
		c->last_ms = lsk_serve_now_ms();
	}
	free(c->tx);
	free(c->tx_body);
	c->tx = c->tx_body = NULL;
	c->tx_len = c->tx_body_len = c->tx_done = 0;
	if (c->closing) {
		client_close(ctl, c);
		return;
	}
	c->state = CLIENT_HEADER;
	/* what was sent meanwhile */
	client_process(ctl, c);
}

/* ------------------------------------------------------------ server */

static void
ctl_accept(struct lsk_ctl *ctl)
{
	unsigned int i;
	int fd;

	for (;;) {
		fd = accept4(ctl->loop.listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		for (i = 0; i < LSK_CTL_CLIENTS; i++)
			if (ctl->clients[i].fd < 0)
				break;
		if (i == LSK_CTL_CLIENTS) {
			char msg[160];
			char why[] = "too many clients: try again later";
			int n = lsk_ctl_format_reply(msg, sizeof(msg),
						     LSK_CTL_FATAL, EBUSY,
						     strlen(why), 0);

			/* best effort: a full socket buffer loses it */
			memcpy(msg + n, why, strlen(why));
			(void)!send(fd, msg, (size_t)n + strlen(why),
				    MSG_NOSIGNAL | MSG_DONTWAIT);
			close(fd);
			continue;
		}
		ctl->clients[i].fd = fd;
		ctl->clients[i].state = CLIENT_HELLO;
		ctl->clients[i].last_ms = lsk_serve_now_ms();
	}
}

/* Drop clients stalled mid-request or mid-answer, or idle too long. */
static void
ctl_expire(struct lsk_ctl *ctl, int64_t now)
{
	unsigned int i;

	for (i = 0; i < LSK_CTL_CLIENTS; i++) {
		struct ctl_client *c = &ctl->clients[i];
		bool midway;

		if (c->fd < 0)
			continue;
		midway = c->rx_len > 0 || c->state == CLIENT_BODY ||
			 c->state == CLIENT_REPLY || c->state == CLIENT_HELLO;
		if (now - c->last_ms >= (midway ? CTL_STALL_MS : CTL_IDLE_MS))
			client_close(ctl, c);
	}
}

static int
ctl_client_fd(void *arg, unsigned int slot, short *events)
{
	const struct ctl_client *c = &((struct lsk_ctl *)arg)->clients[slot];

	*events = c->state == CLIENT_REPLY ? POLLOUT : POLLIN;
	return c->fd;
}

static void
ctl_client_ready(void *arg, unsigned int slot, int64_t now)
{
	struct lsk_ctl *ctl = arg;
	struct ctl_client *c = &ctl->clients[slot];

	(void)now;	/* the client keeps its own clock */
	if (c->state == CLIENT_REPLY)
		client_write(ctl, c);
	else
		client_read(ctl, c);
}

static void
ctl_accept_ready(void *arg, int64_t now)
{
	(void)now;
	ctl_accept(arg);
}

static void
ctl_expire_ready(void *arg, int64_t now)
{
	(void)now;
	/* after the round's batches, which may have taken long */
	ctl_expire(arg, lsk_serve_now_ms());
}

static const struct lsk_serve_ops ctl_ops = {
	.client_fd = ctl_client_fd,
	.client_ready = ctl_client_ready,
	.accept = ctl_accept_ready,
	.expire = ctl_expire_ready,
};

/* ------------------------------------------------------------ start, stop */

static void
ctl_free(struct lsk_ctl *ctl)
{
	unsigned int i;

	for (i = 0; i < LSK_CTL_CLIENTS; i++)
		if (ctl->clients[i].fd >= 0)
			client_close(ctl, &ctl->clients[i]);
	lsk_serve_close(&ctl->loop);
	free(ctl);
}

int
lsk_ctl_start(struct lsk_stack *stack, const char *path, struct lsk_ctl **out)
{
	struct lsk_ctl *ctl;
	unsigned int i;
	int rc;

	if (stack == NULL || path == NULL || out == NULL || path[0] == '\0')
		return -EINVAL;
	ctl = calloc(1, sizeof(*ctl));
	if (ctl == NULL)
		return -ENOMEM;
	ctl->stack = stack;
	for (i = 0; i < LSK_CTL_CLIENTS; i++)
		ctl->clients[i].fd = -1;
	if (strlen(path) >= sizeof(ctl->path)) {
		free(ctl);
		return -ENAMETOOLONG;
	}
	strcpy(ctl->path, path);
	rc = lsk_serve_init(&ctl->loop, &ctl_ops, ctl, LSK_CTL_CLIENTS, 1000);
	if (rc < 0) {
		ctl_free(ctl);
		return rc;
	}
	ctl->loop.listen_fd = lsk_ctl_path_listen(path, LSK_CTL_CLIENTS, &ctl->dev,
					     &ctl->ino);
	if (ctl->loop.listen_fd < 0) {
		rc = ctl->loop.listen_fd;
		ctl_free(ctl);
		return rc;
	}
	rc = lsk_serve_start(&ctl->loop, "lsk-ctl");
	if (rc < 0) {
		lsk_ctl_path_unlink(ctl->path, ctl->dev, ctl->ino);
		ctl_free(ctl);
		return rc;
	}
	*out = ctl;
	return 0;
}

void
lsk_ctl_stop(struct lsk_ctl *ctl)
{
	if (ctl == NULL)
		return;
	/* a batch running now finishes first; a ping in it ends at its
	 * next look (control/ping.h), not when its count is done */
	lsk_ping_stop(ctl->stack, true);
	lsk_serve_stop(&ctl->loop);
	lsk_ping_stop(ctl->stack, false);
	lsk_ctl_path_unlink(ctl->path, ctl->dev, ctl->ino);
	ctl_free(ctl);
}
