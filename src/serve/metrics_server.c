/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics endpoint's server (listack/metrics.h): the listeners' poll
 * loop (serve/serve.h) on a thread of its own polls a listening TCP
 * socket and its clients, all non-blocking. A
 * client's request head is gathered in its own fixed buffer and parsed
 * (serve/metrics_http.c) as bytes arrive; the answer is rendered whole
 * (serve/metrics.c) and written as the client takes it, its next
 * request read only once it is out. The stack's lock is held while the
 * counters are copied, nowhere else: what a client does (send slowly,
 * not read, leave) costs this thread a slot and a buffer, never the
 * stack a wait.
 *
 * A connection that is closed after an error answer is first shut down
 * for writing and read until the client closes (METRICS_LINGER_MS at
 * most): closing with unread input would reset the connection and the
 * client could lose the answer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <rte_mempool.h>

#include "listack/ctl.h"
#include "listack/metrics.h"
#include "control/control.h"
#include "serve/metrics.h"
#include "serve/serve.h"

#define METRICS_HEAD_MS 5000	/* a head's first byte to its last */
#define METRICS_STALL_MS 5000	/* an answer not taken */
#define METRICS_ANSWER_MS 30000	/* an answer taken a trickle at a time */
#define METRICS_IDLE_MS 60000	/* a kept-alive connection, silent */
#define METRICS_LINGER_MS 1000	/* after an error answer */
#define METRICS_POOLS 8

enum mclient_state {
	MC_READ,		/* gathering a request head */
	MC_WRITE,		/* writing an answer */
	MC_DRAIN,		/* shut down for writing, reading to EOF */
};

struct mclient {
	int fd;
	enum mclient_state state;
	bool closing;		/* after the answer: drain, then close */
	int64_t head_ms;	/* the first byte of the head being read */
	int64_t last_ms;	/* the last byte that moved */
	int64_t answer_ms;	/* the answer being written was queued */
	char rx[LSK_HTTP_HEAD_MAX];
	size_t rx_len;
	char *tx;
	size_t tx_len, tx_done;
};

struct lsk_metrics {
	struct lsk_stack *stack;
	struct lsk_serve loop;
	uint16_t port;
	pthread_mutex_t pools_lock;
	struct rte_mempool *pools[METRICS_POOLS];
	unsigned int n_pools;
	struct mclient clients[LSK_METRICS_CLIENTS];
};

/* ------------------------------------------------------ the answer */

static long long
mbufs_in_use(struct lsk_metrics *m)
{
	long long n = 0;
	unsigned int i;

	pthread_mutex_lock(&m->pools_lock);
	for (i = 0; i < m->n_pools; i++)
		n += rte_mempool_in_use_count(m->pools[i]);
	pthread_mutex_unlock(&m->pools_lock);
	return m->n_pools ? n : -1;
}

/* The exposition, in *buf (malloc'd). */
static int
metrics_render(struct lsk_metrics *m, char **buf, size_t *len)
{
	unsigned int ids[LSK_MAX_WORKERS], n = 0, i;
	uint64_t gaps[LSK_MAX_WORKERS];
	struct lsk_metrics_view v;
	struct lsk_stats total, *workers;
	FILE *f;
	int rc;

	workers = malloc(sizeof(*workers) * LSK_MAX_WORKERS);
	if (workers == NULL)
		return -ENOMEM;
	lsk_stack_lock(m->stack);
	lsk_stats_read(m->stack, &total);
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		const struct lsk_worker *w =
			__atomic_load_n(&m->stack->workers[i], __ATOMIC_ACQUIRE);

		if (w == NULL)
			continue;
		lsk_worker_stats_read(w, &workers[n]);
		if (lsk_worker_poll_gap_max(m->stack, i, &gaps[n]) < 0)
			gaps[n] = 0;
		ids[n++] = i;
	}
	v = (struct lsk_metrics_view){
		.total = &total, .n_ports = m->stack->n_ports,
		.workers = workers, .worker_ids = ids, .n_workers = n,
		.worker_gap_ns = gaps,
	};
	lsk_stack_unlock(m->stack);
	v.mbufs_in_use = mbufs_in_use(m);

	*buf = NULL;
	f = open_memstream(buf, len);
	if (f == NULL) {
		free(workers);
		return -ENOMEM;
	}
	rc = lsk_metrics_write(&v, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -ENOMEM;
	free(workers);
	if (rc < 0) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

/* Queue the answer to rq (status, headers, body unless HEAD). */
static void
client_answer(struct lsk_metrics *m, struct mclient *c,
	      const struct lsk_http_request *rq)
{
	int status = rq->status;
	char *body = NULL, *tx;
	size_t body_len = 0;
	char hdr[384];
	int n, b;

	if (status == 200 && metrics_render(m, &body, &body_len) < 0)
		status = 500;
	if (status != 200) {
		b = asprintf(&body, "%d %s: %s\n", status,
			     lsk_http_reason(status),
			     status == 500 ? "no memory for the answer" :
			     rq->why ? rq->why : "");
		if (b < 0)
			body = NULL;
		body_len = b < 0 ? 0 : (size_t)b;
	}
	c->closing = status != 200 || !rq->keep_alive;
	n = snprintf(hdr, sizeof(hdr), "HTTP/1.1 %d %s\r\n"
		     "Content-Type: %s\r\nContent-Length: %zu\r\n%s"
		     "Connection: %s\r\n\r\n", status, lsk_http_reason(status),
		     status == 200 ? "text/plain; version=0.0.4; charset=utf-8"
				   : "text/plain; charset=utf-8", body_len,
		     status == 405 ? "Allow: GET, HEAD\r\n" : "",
		     c->closing ? "close" : "keep-alive");
	if (rq->head_only && status == 200)
		body_len = 0;
	tx = malloc((size_t)n + body_len);
	if (tx == NULL) {
		free(body);
		c->closing = true;
		c->tx_len = c->tx_done = 0;
		c->state = MC_WRITE;	/* nothing to write: drain, close */
		return;
	}
	memcpy(tx, hdr, (size_t)n);
	if (body_len)
		memcpy(tx + n, body, body_len);
	free(body);
	c->tx = tx;
	c->tx_len = (size_t)n + body_len;
	c->tx_done = 0;
	c->state = MC_WRITE;
	c->answer_ms = lsk_serve_now_ms();
}

/* ------------------------------------------------------ the clients */

static void
client_close(struct mclient *c)
{
	free(c->tx);
	close(c->fd);
	c->fd = -1;
	c->tx = NULL;
	c->rx_len = c->tx_len = c->tx_done = 0;
	c->state = MC_READ;
	c->closing = false;
}

/* Parse what was gathered; queue an answer when the head is whole. */
static void
client_parse(struct lsk_metrics *m, struct mclient *c, int64_t now)
{
	struct lsk_http_request rq;

	if (c->rx_len == 0 || lsk_http_parse(c->rx, c->rx_len, &rq) == 0)
		return;
	client_answer(m, c, &rq);
	/* what follows the head is the next request (pipelining) */
	memmove(c->rx, c->rx + rq.len, c->rx_len - rq.len);
	c->rx_len -= rq.len;
	c->head_ms = now;
}

static void
client_read(struct lsk_metrics *m, struct mclient *c, int64_t now)
{
	char sink[4096];
	ssize_t r;

	if (c->state == MC_DRAIN) {
		r = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
			client_close(c);
		return;
	}
	if (c->rx_len == sizeof(c->rx))
		return;		/* the parser has answered 431 already */
	r = recv(c->fd, c->rx + c->rx_len, sizeof(c->rx) - c->rx_len,
		 MSG_DONTWAIT);
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		client_close(c);
		return;
	}
	if (r < 0)
		return;
	if (c->rx_len == 0)
		c->head_ms = now;
	c->rx_len += (size_t)r;
	c->last_ms = now;
	client_parse(m, c, now);
}

/* The answer is out: drain and close, or read the next request. */
static void
client_answered(struct lsk_metrics *m, struct mclient *c, int64_t now)
{
	free(c->tx);
	c->tx = NULL;
	c->tx_len = c->tx_done = 0;
	if (c->closing) {
		shutdown(c->fd, SHUT_WR);
		c->state = MC_DRAIN;
		c->last_ms = now;
		return;
	}
	c->state = MC_READ;
	client_parse(m, c, now);
}

static void
client_write(struct lsk_metrics *m, struct mclient *c, int64_t now)
{
	ssize_t r = 0;

	if (c->tx_done < c->tx_len) {
		r = send(c->fd, c->tx + c->tx_done, c->tx_len - c->tx_done,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (r < 0 && errno != EAGAIN && errno != EINTR) {
			client_close(c);
			return;
		}
		if (r > 0) {
			c->tx_done += (size_t)r;
			c->last_ms = now;
		}
	}
	if (c->tx_done == c->tx_len)
		client_answered(m, c, now);
}

static void
metrics_accept(void *arg, int64_t now)
{
	struct lsk_metrics *m = arg;
	static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\n"
		"Content-Type: text/plain; charset=utf-8\r\n"
		"Content-Length: 18\r\nConnection: close\r\n\r\n"
		"too many clients\r\n";
	unsigned int i;
	int fd;

	fd = accept4(m->loop.listen_fd, NULL, NULL,
		     SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	for (i = 0; i < LSK_METRICS_CLIENTS; i++) {
		struct mclient *c = &m->clients[i];

		if (c->fd >= 0)
			continue;
		c->fd = fd;
		c->state = MC_READ;
		c->rx_len = 0;
		c->head_ms = c->last_ms = now;
		return;
	}
	(void)!send(fd, busy, sizeof(busy) - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	close(fd);
}

/* Close what overstayed; a head too slow to come is answered 408. */
static void
metrics_expire(void *arg, int64_t now)
{
	struct lsk_metrics *m = arg;
	static const struct lsk_http_request timeout = {
		.status = 408, .why = "the request took too long to arrive",
	};
	unsigned int i;

	for (i = 0; i < LSK_METRICS_CLIENTS; i++) {
		struct mclient *c = &m->clients[i];

		if (c->fd < 0)
			continue;
		if (c->state == MC_READ && c->rx_len == 0 &&
		    now - c->last_ms > METRICS_IDLE_MS)
			client_close(c);
		else if (c->state == MC_READ && c->rx_len != 0 &&
			 now - c->head_ms > METRICS_HEAD_MS) {
			c->rx_len = 0;
			client_answer(m, c, &timeout);
			c->last_ms = now;
		} else if (c->state == MC_WRITE &&
			   (now - c->last_ms > METRICS_STALL_MS ||
			    now - c->answer_ms > METRICS_ANSWER_MS))
			client_close(c);
		else if (c->state == MC_DRAIN &&
			 now - c->last_ms > METRICS_LINGER_MS)
			client_close(c);
	}
}

static int
metrics_client_fd(void *arg, unsigned int slot, short *events)
{
	const struct mclient *c = &((struct lsk_metrics *)arg)->clients[slot];

	*events = c->state == MC_WRITE ? POLLOUT : POLLIN;
	return c->fd;
}

static void
metrics_client_ready(void *arg, unsigned int slot, int64_t now)
{
	struct lsk_metrics *m = arg;
	struct mclient *c = &m->clients[slot];

	if (c->state == MC_WRITE)
		client_write(m, c, now);
	else
		client_read(m, c, now);
}

static const struct lsk_serve_ops metrics_ops = {
	.client_fd = metrics_client_fd,
	.client_ready = metrics_client_ready,
	.accept = metrics_accept,
	.expire = metrics_expire,
};

/* ------------------------------------------------------ start, stop */

/* A TCP socket bound to addr:port (*fd, to close even on error). */
static int
metrics_bind(const char *addr, uint16_t port, int *fd)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *ai;
	char service[8];
	int one = 1, rc;

	*fd = -1;
	snprintf(service, sizeof(service), "%u", port);
	if (getaddrinfo(addr, service, &hints, &ai) != 0)
		return -EINVAL;
	*fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		     0);
	if (*fd < 0) {
		rc = -errno;
		freeaddrinfo(ai);
		return rc;
	}
	setsockopt(*fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	rc = bind(*fd, ai->ai_addr, ai->ai_addrlen) < 0 ? -errno : 0;
	freeaddrinfo(ai);
	return rc;
}

int
lsk_metrics_probe(const char *addr, uint16_t port)
{
	int fd, rc;

	if (addr == NULL)
		return -EINVAL;
	rc = metrics_bind(addr, port, &fd);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int
metrics_listen(struct lsk_metrics *m, const char *addr, uint16_t port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int rc;

	rc = metrics_bind(addr, port, &m->loop.listen_fd);
	if (rc == 0 && listen(m->loop.listen_fd, LSK_METRICS_CLIENTS) < 0)
		rc = -errno;
	if (rc == 0 && getsockname(m->loop.listen_fd, (struct sockaddr *)&ss,
				   &sl) < 0)
		rc = -errno;
	if (rc < 0)
		return rc;
	m->port = ntohs(ss.ss_family == AF_INET6 ?
			((struct sockaddr_in6 *)&ss)->sin6_port :
			((struct sockaddr_in *)&ss)->sin_port);
	return 0;
}

static void
metrics_free(struct lsk_metrics *m)
{
	unsigned int i;

	for (i = 0; i < LSK_METRICS_CLIENTS; i++)
		if (m->clients[i].fd >= 0)
			client_close(&m->clients[i]);
	lsk_serve_close(&m->loop);
	pthread_mutex_destroy(&m->pools_lock);
	free(m);
}

int
lsk_metrics_start(struct lsk_stack *stack, const char *addr, uint16_t port,
		  struct lsk_metrics **out)
{
	struct lsk_metrics *m;
	unsigned int i;
	int rc;

	if (stack == NULL || addr == NULL || out == NULL)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	m->stack = stack;
	pthread_mutex_init(&m->pools_lock, NULL);
	for (i = 0; i < LSK_METRICS_CLIENTS; i++)
		m->clients[i].fd = -1;
	rc = lsk_serve_init(&m->loop, &metrics_ops, m, LSK_METRICS_CLIENTS,
			    250);
	if (rc == 0)
		rc = metrics_listen(m, addr, port);
	if (rc < 0) {
		metrics_free(m);
		return rc;
	}
	rc = lsk_serve_start(&m->loop, "lsk-metrics");
	if (rc < 0) {
		metrics_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

uint16_t
lsk_metrics_port(const struct lsk_metrics *m)
{
	return m != NULL ? m->port : 0;
}

int
lsk_metrics_add_pool(struct lsk_metrics *m, struct rte_mempool *pool)
{
	int rc = 0;

	if (m == NULL || pool == NULL)
		return -EINVAL;
	pthread_mutex_lock(&m->pools_lock);
	if (m->n_pools == METRICS_POOLS)
		rc = -ENOSPC;
	else
		m->pools[m->n_pools++] = pool;
	pthread_mutex_unlock(&m->pools_lock);
	return rc;
}

void
lsk_metrics_stop(struct lsk_metrics *m)
{
	if (m == NULL)
		return;
	lsk_serve_stop(&m->loop);
	metrics_free(m);
}
