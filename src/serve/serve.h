/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the listeners share: one poll loop on a thread of its own
 * (serve/poll_loop.c) that the control socket (serve/ctl_server.c), the
 * metrics endpoint (serve/metrics_server.c) and the FPM server
 * (serve/fpm_server.c) each drive with their own clients, and the
 * control socket's file (serve/ctl_path.c).
 */
#ifndef LSK_SERVE_H
#define LSK_SERVE_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

/* The most client slots one loop polls. */
#define LSK_SERVE_SLOTS_MAX 64

/*
 * A server's part in the loop; arg is the server. Every call is made on
 * the loop's thread, one at a time.
 */
struct lsk_serve_ops {
	/* The descriptor of client slot (-1: the slot is free) and what it
	 * waits for (POLLIN or POLLOUT) in *events. */
	int (*client_fd)(void *arg, unsigned int slot, short *events);
	/* The slot's descriptor is ready: read or write, by its state. */
	void (*client_ready)(void *arg, unsigned int slot, int64_t now);
	/* The listening socket has a connection waiting. */
	void (*accept)(void *arg, int64_t now);
	/* After every round: close (or answer) what overstayed. */
	void (*expire)(void *arg, int64_t now);
};

struct lsk_serve {
	const struct lsk_serve_ops *ops;
	void *arg;
	unsigned int n_slots;	/* at most LSK_SERVE_SLOTS_MAX */
	int tick_ms;		/* the longest wait between rounds */
	int listen_fd;		/* the server's own, polled here */
	int wake[2];		/* lsk_serve_stop writes, the loop ends */
	pthread_t thread;
};

/* A monotonic clock in milliseconds: the clients' timers. */
int64_t lsk_serve_now_ms(void);

/*
 * Ready sv for a server (no descriptor open yet, listen_fd -1) and open
 * its wake pipe. 0, -EINVAL for too many slots, or the pipe's -errno;
 * after a failure lsk_serve_close is still right.
 */
int lsk_serve_init(struct lsk_serve *sv, const struct lsk_serve_ops *ops,
		   void *arg, unsigned int n_slots, int tick_ms);
/* Run the loop on a new thread named name, every signal blocked (they
 * stay the application's threads'). 0 or a negative errno. */
int lsk_serve_start(struct lsk_serve *sv, const char *name);
/* End the loop (a call in progress finishes first) and join it. */
void lsk_serve_stop(struct lsk_serve *sv);
/* Close the listening socket and the wake pipe (the clients are the
 * server's to close). */
void lsk_serve_close(struct lsk_serve *sv);

/*
 * Listen on a UNIX stream socket at path (non-blocking, close-on-exec):
 * missing directories are made 0755, the socket is 0660. A stale socket
 * at path is replaced; a live one is -EADDRINUSE, anything that is not a
 * socket -EEXIST (left alone). Returns the fd, or a negative errno; *dev
 * and *ino name the file made.
 */
int lsk_ctl_path_listen(const char *path, int backlog, dev_t *dev,
			ino_t *ino);
/* Remove path if it is still the file (dev, ino) made. */
void lsk_ctl_path_unlink(const char *path, dev_t dev, ino_t ino);

#endif /* LSK_SERVE_H */
