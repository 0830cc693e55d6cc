/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture, the control side (control/capture.c): start and stop
 * a capture into a pcapng file, read what it counted; and the small
 * pcapng writer its thread uses (control/capture_pcapng.c). Start, stop
 * and info are the control thread's (or under lsk_stack_lock).
 */
#ifndef LSK_CONTROL_CAPTURE_H
#define LSK_CONTROL_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/capture.h"

struct lsk_stack;

/* The largest snaplen; and the default ring and pool sizes. */
#define LSK_CAP_SNAPLEN_MAX 262144u
#define LSK_CAP_RING_SIZE 4096u
#define LSK_CAP_POOL_SIZE 4095u

struct lsk_capture_conf {
	const char *path;	/* the pcapng file, made or truncated */
	uint32_t what;		/* LSK_CAP_*; 0: all */
	uint16_t port;		/* LSK_CAP_ANY_PORT: every port */
	uint64_t count;		/* 0: no bound */
	uint32_t snaplen;	/* 0: LSK_CAP_SNAPLEN_MAX */
	uint32_t ring_size;	/* a power of two; 0: LSK_CAP_RING_SIZE */
	uint32_t pool_size;	/* copies in flight; 0: LSK_CAP_POOL_SIZE */
};

/* What a capture counted: while it runs, or the last one's at its stop. */
struct lsk_capture_info {
	bool running;
	bool ever;		/* a capture ran (the rest is zero if not) */
	char path[1024];
	uint32_t what;
	uint16_t port;
	uint64_t count;
	uint32_t snaplen;
	uint64_t seen;		/* taken by the workers */
	uint64_t lost;		/* of those, not written: no mbuf, no room
				 * in the ring, a failed write */
	uint64_t written;	/* packets in the file */
	uint64_t bytes;		/* the file's size */
	int error;		/* the first write error (errno), 0: none */
};

/*
 * Start a capture: the file, its pool and ring, the writer thread; then
 * publish it. -EBUSY when one runs, -EINVAL for a bad conf, -ENOMEM,
 * or the errno of the file; a failure changes nothing (a file it made
 * is removed).
 */
int lsk_capture_start(struct lsk_stack *s, const struct lsk_capture_conf *c);
/* Stop: unpublish, let the writer write what is in flight, close the
 * file, free the pool (every copy is back). -ENOENT when none runs. */
int lsk_capture_stop(struct lsk_stack *s);
void lsk_capture_info(const struct lsk_stack *s, struct lsk_capture_info *out);
/* The last capture's figures go (the stack's teardown). */
void lsk_capture_free(struct lsk_stack *s);

/* pcapng blocks (control/capture_pcapng.c): each 0 or -errno. */
int lsk_pcapng_section(FILE *f, const char *appl);
/* An interface description: Ethernet, snaplen, nanosecond stamps. */
int lsk_pcapng_interface(FILE *f, const char *name, uint32_t snaplen);
/* An enhanced packet block of m's bytes for interface ifid, made in buf
 * (room bytes: lsk_pcapng_packet_room for the snaplen) and written at
 * once: epb_flags says dir; comment (NULL: none) is the packet's
 * opt_comment. *bytes grows by the block's size.
 * Ownership: m stays the caller's. */
size_t lsk_pcapng_packet_room(uint32_t snaplen);
int lsk_pcapng_packet(FILE *f, uint8_t *buf, size_t room, uint32_t ifid,
		      uint64_t ts_ns, const struct rte_mbuf *m,
		      uint32_t orig_len, enum lsk_cap_dir dir,
		      const char *comment, uint64_t *bytes);

#endif /* LSK_CONTROL_CAPTURE_H */
