/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The listeners' poll loop (serve/serve.h): one plain pthread (not an
 * EAL thread, so DPDK multi-process keeps working) polls a wake pipe, a
 * listening socket and the server's clients, all non-blocking, and
 * hands each ready descriptor to the server. The server keeps its
 * clients, their states and their bounds; the loop only waits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "serve/serve.h"

int64_t
lsk_serve_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *
serve_thread(void *arg)
{
	struct lsk_serve *sv = arg;
	const struct lsk_serve_ops *ops = sv->ops;
	struct pollfd pfd[LSK_SERVE_SLOTS_MAX + 2];
	unsigned int slot[LSK_SERVE_SLOTS_MAX + 2];

	for (;;) {
		unsigned int i, n = 0;
		int64_t now;
		short events;
		int fd, rc;

		pfd[n++] = (struct pollfd){ .fd = sv->wake[0],
					    .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = sv->listen_fd,
					    .events = POLLIN };
		for (i = 0; i < sv->n_slots; i++) {
			fd = ops->client_fd(sv->arg, i, &events);
			if (fd < 0)
				continue;
			slot[n] = i;
			pfd[n++] = (struct pollfd){ .fd = fd, .events = events };
		}
		rc = poll(pfd, n, sv->tick_ms);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0 && pfd[0].revents)
			break;
		now = lsk_serve_now_ms();
		for (i = 2; rc > 0 && i < n; i++) {
			/* a client served before this one may have closed
			 * it, and another taken its slot */
			if (pfd[i].revents == 0 ||
			    ops->client_fd(sv->arg, slot[i], &events) !=
			    pfd[i].fd)
				continue;
			ops->client_ready(sv->arg, slot[i], now);
		}
		if (rc > 0 && pfd[1].revents)
			ops->accept(sv->arg, now);
		ops->expire(sv->arg, now);
	}
	return NULL;
}

int
lsk_serve_init(struct lsk_serve *sv, const struct lsk_serve_ops *ops,
	       void *arg, unsigned int n_slots, int tick_ms)
{
	*sv = (struct lsk_serve){
		.ops = ops, .arg = arg, .n_slots = n_slots,
		.tick_ms = tick_ms, .listen_fd = -1, .wake = { -1, -1 },
	};
	if (n_slots > LSK_SERVE_SLOTS_MAX)
		return -EINVAL;
	return pipe2(sv->wake, O_CLOEXEC | O_NONBLOCK) < 0 ? -errno : 0;
}

int
lsk_serve_start(struct lsk_serve *sv, const char *name)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = -pthread_create(&sv->thread, NULL, serve_thread, sv);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		pthread_setname_np(sv->thread, name);
	return rc;
}

void
lsk_serve_stop(struct lsk_serve *sv)
{
	(void)!write(sv->wake[1], "x", 1);
	pthread_join(sv->thread, NULL);
}

void
lsk_serve_close(struct lsk_serve *sv)
{
	if (sv->listen_fd >= 0)
		close(sv->listen_fd);
	if (sv->wake[0] >= 0)
		close(sv->wake[0]);
	if (sv->wake[1] >= 0)
		close(sv->wake[1]);
	sv->listen_fd = sv->wake[0] = sv->wake[1] = -1;
}
