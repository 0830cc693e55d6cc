/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture, the control side (control/capture.h): a capture is a
 * pool of copies, a ring to a writer thread and a pcapng file. It is
 * made whole, then published to the workers like a table (s->sh.capture,
 * lsk_publish); a stop publishes NULL, and after the grace period no
 * worker copies any more, so the writer writes what the ring still holds
 * and ends. The writer is a plain pthread, not an EAL thread: it is no
 * RCU reader (it reads only its ring) and registering a thread with EAL
 * would turn off DPDK's multi-process support, which dpdk-dumpcap needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "control/control.h"
#include "control/capture.h"
#include "core/trace.h"

#define WRITER_BURST 64
#define WRITER_IDLE_NS 1000000	/* 1 ms between looks at an empty ring */

/* What only the control thread and the writer see. */
struct lsk_capture_ctl {
	struct lsk_capture *cap;	/* NULL once stopped */
	struct lsk_capture_info last;	/* figures at the stop */
	FILE *f;
	char *fbuf;			/* f's buffer */
	uint8_t *block;			/* the block being made */
	size_t block_room;
	pthread_t writer;
	bool quit;			/* atomic: the writer drains and ends */
	uint64_t written, bytes, failed;	/* atomic: the writer's */
	int error;			/* atomic: the first write error */
	uint64_t tsc0, ns0, hz;		/* the clock at the start */
	unsigned int n_ports;
	char path[1024];
};

#define FILE_BUF (1u << 20)

/* names of rings and pools are process-wide: each capture its own */
static unsigned int cap_serial;

static uint64_t
cap_time_ns(const struct lsk_capture_ctl *ctl, uint64_t tsc)
{
	uint64_t d = tsc > ctl->tsc0 ? tsc - ctl->tsc0 : 0;

	return ctl->ns0 + d / ctl->hz * 1000000000ull +
	       d % ctl->hz * 1000000000ull / ctl->hz;
}

static void
cap_write_one(struct lsk_capture_ctl *ctl, struct rte_mbuf *c)
{
	const struct lsk_cap_meta *meta = rte_mbuf_to_priv(c);
	char comment[64];
	uint64_t bytes = 0;
	int rc;

	if (meta->drop_at != 0)
		lsk_drop_name(meta->drop_at, comment, sizeof(comment));
	rc = lsk_pcapng_packet(ctl->f, ctl->block, ctl->block_room, meta->port,
			       cap_time_ns(ctl, meta->tsc), c, meta->orig_len,
			       (enum lsk_cap_dir)meta->dir,
			       meta->drop_at != 0 ? comment : NULL, &bytes);
	if (rc == 0) {
		__atomic_fetch_add(&ctl->written, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&ctl->bytes, bytes, __ATOMIC_RELAXED);
	} else {
		int none = 0;

		__atomic_fetch_add(&ctl->failed, 1, __ATOMIC_RELAXED);
		__atomic_compare_exchange_n(&ctl->error, &none, -rc, false,
					    __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
	}
}

static void *
cap_writer(void *arg)
{
	struct lsk_capture_ctl *ctl = arg;
	struct rte_ring *ring = ctl->cap->ring;
	void *objs[WRITER_BURST];
	unsigned int n, i;

	for (;;) {
		/* quit is read before the ring: what is left after it
		 * was set is all there will be */
		bool quit = __atomic_load_n(&ctl->quit, __ATOMIC_ACQUIRE);

		n = rte_ring_sc_dequeue_burst(ring, objs, WRITER_BURST, NULL);
		for (i = 0; i < n; i++) {
			cap_write_one(ctl, objs[i]);
			rte_pktmbuf_free(objs[i]);
		}
		if (n == 0) {
			struct timespec ts = { 0, WRITER_IDLE_NS };

			if (quit)
				break;
			fflush(ctl->f);
			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

/* The file's header: the section, one interface per port. */
static int
cap_file_header(struct lsk_capture_ctl *ctl, uint32_t snaplen)
{
	unsigned int p;
	int rc;

	rc = lsk_pcapng_section(ctl->f, "listack");
	for (p = 0; rc == 0 && p < ctl->n_ports; p++) {
		char name[RTE_ETH_NAME_MAX_LEN];

		if (!rte_eth_dev_is_valid_port((uint16_t)p) ||
		    rte_eth_dev_get_name_by_port((uint16_t)p, name) != 0)
			snprintf(name, sizeof(name), "port%u", p);
		rc = lsk_pcapng_interface(ctl->f, name, snaplen);
	}
	if (rc == 0 && fflush(ctl->f) != 0)
		rc = -errno;
	if (rc == 0)
		ctl->bytes = (uint64_t)ftell(ctl->f);
	return rc;
}

/* Open path for writing: a regular file, made (*made set) or emptied;
 * not through a symbolic link (ELOOP), which could point anywhere. */
static FILE *
cap_open(const char *path, bool *made, int *rc)
{
	struct stat st;
	FILE *f;
	int fd;

	*made = false;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd >= 0) {
		*made = true;
	} else if (errno == EEXIST) {
		/* O_NONBLOCK: a FIFO is refused below, not waited on */
		fd = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
			close(fd);
			*rc = -EINVAL;
			return NULL;
		}
		if (fd >= 0 && ftruncate(fd, 0) != 0) {
			*rc = -errno;
			close(fd);
			return NULL;
		}
	}
	if (fd < 0) {
		*rc = -errno;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		*rc = -errno;
		close(fd);
	}
	return f;
}

static void
cap_ctl_free(struct lsk_capture_ctl *ctl)
{
	if (ctl == NULL)
		return;
	free(ctl->block);
	free(ctl->fbuf);
	free(ctl);
}

static void
cap_free(struct lsk_capture *cap)
{
	if (cap == NULL)
		return;
	rte_ring_free(cap->ring);
	rte_mempool_free(cap->pool);
	rte_free(cap);
}

/* The capture workers see, with its pool and ring. */
static int
cap_make(struct lsk_stack *s, const struct lsk_capture_conf *c,
	 struct lsk_capture **out)
{
	uint32_t ring_size = c->ring_size ? c->ring_size : LSK_CAP_RING_SIZE;
	uint32_t pool_size = c->pool_size ? c->pool_size : LSK_CAP_POOL_SIZE;
	unsigned int serial = __atomic_fetch_add(&cap_serial, 1,
						 __ATOMIC_RELAXED);
	struct lsk_capture *cap;
	char name[RTE_MEMPOOL_NAMESIZE];

	if (!rte_is_power_of_2(ring_size) || ring_size < 2 || pool_size < 1)
		return -EINVAL;
	cap = rte_zmalloc_socket("lsk_capture", sizeof(*cap),
				 RTE_CACHE_LINE_SIZE, s->sh.socket_id);
	if (cap == NULL)
		return -ENOMEM;
	cap->what = c->what ? c->what : LSK_CAP_ALL;
	cap->port = c->port;
	cap->snaplen = c->snaplen ? c->snaplen : LSK_CAP_SNAPLEN_MAX;
	cap->count = c->count;
	snprintf(name, sizeof(name), "lsk_capr%u", serial);
	cap->ring = rte_ring_create(name, ring_size, s->sh.socket_id,
				    RING_F_SC_DEQ);
	snprintf(name, sizeof(name), "lsk_capp%u", serial);
	/* workers take from their lcore's cache; the writer, no EAL
	 * thread, frees into the pool's ring */
	cap->pool = rte_pktmbuf_pool_create(name, pool_size,
		RTE_MIN(256u, pool_size * 2 / 3),
		RTE_ALIGN(sizeof(struct lsk_cap_meta), RTE_MBUF_PRIV_ALIGN),
		RTE_MBUF_DEFAULT_BUF_SIZE, s->sh.socket_id);
	if (cap->ring == NULL || cap->pool == NULL) {
		cap_free(cap);
		return -ENOMEM;
	}
	*out = cap;
	return 0;
}

static int
cap_check(const struct lsk_stack *s, const struct lsk_capture_conf *c)
{
	if (c->path == NULL || c->path[0] == '\0' ||
	    strlen(c->path) >= sizeof(((struct lsk_capture_ctl *)0)->path))
		return -EINVAL;
	if (c->what & ~LSK_CAP_ALL)
		return -EINVAL;
	if (c->port != LSK_CAP_ANY_PORT && c->port >= s->n_ports)
		return -EINVAL;
	if (c->snaplen > LSK_CAP_SNAPLEN_MAX)
		return -EINVAL;
	return 0;
}

int
lsk_capture_start(struct lsk_stack *s, const struct lsk_capture_conf *c)
{
	struct lsk_capture_ctl *ctl;
	struct lsk_capture *cap;
	struct timespec now;
	bool made = false;
	int rc;

	if (s->sh.capture != NULL)
		return -EBUSY;
	rc = cap_check(s, c);
	if (rc < 0)
		return rc;
	ctl = calloc(1, sizeof(*ctl));
	if (ctl == NULL)
		return -ENOMEM;
	rc = cap_make(s, c, &cap);
	if (rc < 0) {
		free(ctl);
		return rc;
	}
	ctl->cap = cap;
	ctl->n_ports = s->n_ports;
	snprintf(ctl->path, sizeof(ctl->path), "%s", c->path);
	clock_gettime(CLOCK_REALTIME, &now);
	ctl->ns0 = (uint64_t)now.tv_sec * 1000000000ull +
		   (uint64_t)now.tv_nsec;
	ctl->tsc0 = rte_rdtsc();
	ctl->hz = rte_get_tsc_hz();
	if (ctl->hz == 0)
		ctl->hz = 1;
	ctl->block_room = lsk_pcapng_packet_room(cap->snaplen);
	ctl->block = malloc(ctl->block_room);
	ctl->fbuf = malloc(FILE_BUF);
	if (ctl->block == NULL || ctl->fbuf == NULL)
		rc = -ENOMEM;
	else
		ctl->f = cap_open(c->path, &made, &rc);
	if (ctl->f != NULL) {
		setvbuf(ctl->f, ctl->fbuf, _IOFBF, FILE_BUF);
		rc = cap_file_header(ctl, cap->snaplen);
		if (rc == 0)
			rc = -pthread_create(&ctl->writer, NULL, cap_writer,
					     ctl);
		if (rc < 0) {
			fclose(ctl->f);
			if (made)
				unlink(c->path);
		}
	}
	if (rc < 0) {
		cap_free(cap);
		cap_ctl_free(ctl);
		return rc;
	}
	cap_ctl_free(s->capture_ctl);	/* the last capture's figures */
	s->capture_ctl = ctl;
	lsk_publish(s, s->sh.capture, cap, (void));
	return 0;
}

static void
cap_info_fill(const struct lsk_capture_ctl *ctl, struct lsk_capture_info *o)
{
	const struct lsk_capture *cap = ctl->cap;
	unsigned int i;

	memset(o, 0, sizeof(*o));
	o->running = true;
	o->ever = true;
	snprintf(o->path, sizeof(o->path), "%s", ctl->path);
	o->what = cap->what;
	o->port = cap->port;
	o->count = cap->count;
	o->snaplen = cap->snaplen;
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		o->seen += __atomic_load_n(&cap->w[i].seen, __ATOMIC_RELAXED);
		o->lost += __atomic_load_n(&cap->w[i].lost, __ATOMIC_RELAXED);
	}
	o->seen += __atomic_load_n(&cap->ctl.seen, __ATOMIC_RELAXED);
	o->lost += __atomic_load_n(&cap->ctl.lost, __ATOMIC_RELAXED);
	o->lost += __atomic_load_n(&ctl->failed, __ATOMIC_RELAXED);
	o->written = __atomic_load_n(&ctl->written, __ATOMIC_RELAXED);
	o->bytes = __atomic_load_n(&ctl->bytes, __ATOMIC_RELAXED);
	o->error = __atomic_load_n(&ctl->error, __ATOMIC_RELAXED);
}

int
lsk_capture_stop(struct lsk_stack *s)
{
	struct lsk_capture_ctl *ctl = s->capture_ctl;
	struct lsk_capture *cap = s->sh.capture;
	long hdr;

	if (cap == NULL || ctl == NULL || ctl->cap != cap)
		return -ENOENT;
	/* after it no worker copies: the ring holds the last copies */
	lsk_publish(s, s->sh.capture, NULL, (void));
	__atomic_store_n(&ctl->quit, true, __ATOMIC_RELEASE);
	pthread_join(ctl->writer, NULL);
	if (fflush(ctl->f) != 0 && ctl->error == 0)
		ctl->error = errno;
	hdr = ftell(ctl->f);
	if (fclose(ctl->f) != 0 && ctl->error == 0)
		ctl->error = errno;
	ctl->f = NULL;
	free(ctl->fbuf);	/* after fclose: f's buffer */
	ctl->fbuf = NULL;
	cap_info_fill(ctl, &ctl->last);
	ctl->last.running = false;
	if (hdr >= 0)
		ctl->last.bytes = (uint64_t)hdr;	/* headers too */
	ctl->cap = NULL;
	/* every copy is back: the writer freed what it wrote, a worker
	 * what it could not ring; a pool that is not whole is kept (a copy
	 * would be written into freed memory) and said */
	if (rte_mempool_in_use_count(cap->pool) != 0) {
		ctl->last.error = EBUSY;
		cap->pool = NULL;
	}
	cap_free(cap);
	return 0;
}

void
lsk_capture_info(const struct lsk_stack *s, struct lsk_capture_info *out)
{
	const struct lsk_capture_ctl *ctl = s->capture_ctl;

	if (ctl == NULL) {
		memset(out, 0, sizeof(*out));
		return;
	}
	if (ctl->cap != NULL)
		cap_info_fill(ctl, out);
	else
		*out = ctl->last;
}

void
lsk_capture_free(struct lsk_stack *s)
{
	if (s->sh.capture != NULL)
		lsk_capture_stop(s);
	cap_ctl_free(s->capture_ctl);
	s->capture_ctl = NULL;
}
