/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host thread: a thread of its own, never a worker, that moves frames
 * between the rings and the TAPs. It drains every worker's punt ring into
 * the TAP of each frame's interface (write), and reads what the kernel
 * sends on the TAPs (poll) into mbufs on the inject ring, which worker 0
 * drains into ip4_output (host_inject.c). Every syscall of the data path
 * is made here.
 *
 * The control thread attaches and detaches TAP descriptors under the
 * lock (lsk_host_attach); the thread holds it while it reads and writes,
 * not while it sleeps in poll, and throws away what a poll said when the
 * set changed meanwhile (a descriptor's number may be reused).
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/eventfd.h>
#include <sys/uio.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "host/host.h"

#define HOST_BURST 64
/* the largest frame a TAP hands over (MTU 9000 and headers fit) */
#define HOST_FRAME_MAX 16384
/* the sleep in poll when nothing moved; none while frames flow */
#define HOST_IDLE_MS 1

static void
count(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

/* A ring of one producer and one consumer, unnamed in DPDK's list (one
 * per worker per stack: names would have to be made unique). */
static struct rte_ring *
host_ring(unsigned int size, int socket_id)
{
	ssize_t sz = rte_ring_get_memsize(size);
	struct rte_ring *r;

	if (sz < 0)
		return NULL;
	r = rte_zmalloc_socket("lsk_host_ring", (size_t)sz,
			       RTE_CACHE_LINE_SIZE, socket_id);
	if (r != NULL && rte_ring_init(r, "lsk_host", size,
				       RING_F_SP_ENQ | RING_F_SC_DEQ) != 0) {
		rte_free(r);
		return NULL;
	}
	return r;
}

static void
ring_drain_free(struct rte_ring *r)
{
	void *m;

	if (r == NULL)
		return;
	while (rte_ring_sc_dequeue(r, &m) == 0)
		rte_pktmbuf_free(m);
	rte_free(r);
}

/* The frame of buf in mbufs of the pool, chained when one is too small.
 * NULL: the pool is dry. */
static struct rte_mbuf *
host_frame_mbuf(struct rte_mempool *mp, const uint8_t *buf, size_t len)
{
	struct rte_mbuf *head = NULL, *last = NULL;
	size_t done = 0;

	while (done < len) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
		uint16_t room, k;

		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		room = rte_pktmbuf_tailroom(m);
		k = (uint16_t)RTE_MIN((size_t)room, len - done);
		memcpy(rte_pktmbuf_append(m, k), buf + done, k);
		done += k;
		if (head == NULL) {
			head = m;
		} else {
			last->next = m;
			head->nb_segs++;
			head->pkt_len += k;
		}
		last = m;
	}
	return head;
}

/* What the kernel sent on iface's TAP, up to a burst: on the inject
 * ring. Returns how many frames were read. */
static unsigned int
host_read(struct lsk_host *h, uint16_t iface, int fd, uint8_t *buf)
{
	unsigned int n;

	for (n = 0; n < HOST_BURST; n++) {
		ssize_t len = read(fd, buf, HOST_FRAME_MAX);
		struct rte_mempool *mp;
		struct rte_mbuf *m;

		if (len <= 0)
			break;
		mp = __atomic_load_n(&h->pool, __ATOMIC_ACQUIRE);

		m = mp != NULL ? host_frame_mbuf(mp, buf, (size_t)len) : NULL;
		if (m == NULL) {
			count(&h->counts.drops, 1);
			continue;
		}
		m->port = iface;
		if (rte_ring_sp_enqueue(h->inject, m) != 0) {
			rte_pktmbuf_free(m);
			count(&h->counts.drops, 1);
		}
	}
	return n;
}

/* One punted frame to its TAP, its segments in one write. */
static void
host_write(struct lsk_host *h, struct rte_mbuf *m)
{
	struct iovec iov[64];	/* a reassembled datagram's pieces */
	const struct rte_mbuf *s;
	int fd = m->port < LSK_MAX_IFACES ? h->fds[m->port] : -1;
	unsigned int k = 0;

	for (s = m; s != NULL && k < RTE_DIM(iov); s = s->next, k++) {
		iov[k].iov_base = rte_pktmbuf_mtod(s, void *);
		iov[k].iov_len = s->data_len;
	}
	if (fd >= 0 && s == NULL && writev(fd, iov, (int)k) > 0)
		count(&h->counts.to_kernel, 1);
	else
		count(&h->counts.drops, 1);
	rte_pktmbuf_free(m);
}

/* Every worker's punt ring, a burst each; how many frames moved. */
static unsigned int
host_punts(struct lsk_host *h)
{
	struct rte_mbuf *pkts[HOST_BURST];
	unsigned int w, i, n, moved = 0;

	for (w = 0; w < LSK_MAX_WORKERS; w++) {
		n = rte_ring_sc_dequeue_burst(h->punt[w], (void **)pkts,
					      HOST_BURST, NULL);
		for (i = 0; i < n; i++)
			host_write(h, pkts[i]);
		moved += n;
	}
	return moved;
}

static void *
host_thread(void *arg)
{
	struct lsk_host *h = arg;
	struct pollfd pfd[LSK_MAX_IFACES + 1];
	uint16_t iface_of[LSK_MAX_IFACES + 1];
	uint8_t *buf = malloc(HOST_FRAME_MAX);
	unsigned int moved = 1;

	if (buf == NULL) {
		pthread_mutex_lock(&h->lock);
		h->exited = true;
		pthread_cond_broadcast(&h->seen_cond);
		pthread_mutex_unlock(&h->lock);
		return NULL;
	}
	while (!h->stop) {
		unsigned int n = 1, i;
		uint32_t gen;
		uint64_t ev;

		pfd[0].fd = h->wake_fd;
		pfd[0].events = POLLIN;
		pthread_mutex_lock(&h->lock);
		gen = h->gen;
		h->seen = gen;	/* no poll holds a descriptor detached before */
		pthread_cond_broadcast(&h->seen_cond);
		for (i = 0; i < LSK_MAX_IFACES; i++) {
			if (h->fds[i] < 0)
				continue;
			pfd[n].fd = h->fds[i];
			pfd[n].events = POLLIN;
			iface_of[n++] = (uint16_t)i;
		}
		pthread_mutex_unlock(&h->lock);
		if (poll(pfd, n, moved != 0 ? 0 : HOST_IDLE_MS) < 0 &&
		    errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN)
			(void)!read(h->wake_fd, &ev, sizeof(ev));
		moved = 0;
		pthread_mutex_lock(&h->lock);
		for (i = 1; i < n && gen == h->gen; i++)
			if (pfd[i].revents & POLLIN)
				moved += host_read(h, iface_of[i], pfd[i].fd,
						   buf);
		moved += host_punts(h);
		pthread_mutex_unlock(&h->lock);
	}
	pthread_mutex_lock(&h->lock);
	h->exited = true;	/* nobody waits for a poll that never comes */
	pthread_cond_broadcast(&h->seen_cond);
	pthread_mutex_unlock(&h->lock);
	free(buf);
	return NULL;
}

struct lsk_host *
lsk_host_create(int socket_id, struct rte_mempool *pool)
{
	struct lsk_host *h = calloc(1, sizeof(*h));
	unsigned int i;

	if (h == NULL)
		return NULL;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->seen_cond, NULL);
	h->pool = pool;
	h->wake_fd = -1;
	for (i = 0; i < LSK_MAX_IFACES; i++)
		h->fds[i] = -1;
	h->buckets = rte_zmalloc_socket("lsk_host_buckets",
			LSK_MAX_WORKERS * sizeof(*h->buckets),
			RTE_CACHE_LINE_SIZE, socket_id);
	h->inject = host_ring(LSK_HOST_INJECT_RING, socket_id);
	for (i = 0; i < LSK_MAX_WORKERS; i++)
		h->punt[i] = host_ring(LSK_HOST_PUNT_RING, socket_id);
	h->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	for (i = 0; i < LSK_MAX_WORKERS; i++)
		if (h->punt[i] == NULL)
			break;
	if (i < LSK_MAX_WORKERS || h->buckets == NULL || h->inject == NULL ||
	    h->wake_fd < 0 ||
	    pthread_create(&h->thread, NULL, host_thread, h) != 0) {
		lsk_host_free(h);
		return NULL;
	}
	pthread_setname_np(h->thread, "lsk-host");
	h->running = true;
	return h;
}

void
lsk_host_free(struct lsk_host *h)
{
	uint64_t one = 1;
	unsigned int i;

	if (h == NULL)
		return;
	if (h->running) {
		h->stop = true;
		(void)!write(h->wake_fd, &one, sizeof(one));
		pthread_join(h->thread, NULL);
	}
	for (i = 0; i < LSK_MAX_WORKERS; i++)
		ring_drain_free(h->punt[i]);
	ring_drain_free(h->inject);
	rte_free(h->buckets);
	if (h->wake_fd >= 0)
		close(h->wake_fd);
	pthread_cond_destroy(&h->seen_cond);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

void
lsk_host_attach(struct lsk_host *h, uint16_t iface, int fd)
{
	uint64_t one = 1;

	if (iface >= LSK_MAX_IFACES)
		return;
	uint32_t gen;

	pthread_mutex_lock(&h->lock);
	h->fds[iface] = fd;
	gen = ++h->gen;
	(void)!write(h->wake_fd, &one, sizeof(one));
	/* a poll may hold the old descriptor's file, which would keep the
	 * TAP alive after its close: wait until the thread polls anew */
	while (h->running && !h->exited && (int32_t)(h->seen - gen) < 0)
		pthread_cond_wait(&h->seen_cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
}

void
lsk_host_counts_read(const struct lsk_host *h, struct lsk_host_counts *c)
{
	c->to_kernel = __atomic_load_n(&h->counts.to_kernel, __ATOMIC_RELAXED);
	c->drops = __atomic_load_n(&h->counts.drops, __ATOMIC_RELAXED);
}
