/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket: a UNIX stream socket on which listack-ctl (or any
 * client speaking its protocol, docs/operating.md) runs
 * control commands against a running stack. One call starts a thread
 * that serves it; that thread is not an EAL thread, so DPDK
 * multi-process (dpdk-dumpcap) keeps working.
 *
 * While the server runs it is the stack's control thread: an
 * application that also changes the stack itself holds lsk_stack_lock
 * around those calls.
 */
#ifndef LISTACK_CTL_H
#define LISTACK_CTL_H

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the protocol this library speaks. */
#define LSK_CTL_VERSION 1
#define LSK_CTL_DEFAULT_PATH "/run/listack/listack.sock"

struct lsk_ctl;

/*
 * Serve path (mode 0660, missing directories made 0755). A live socket
 * at path (another instance) is -EADDRINUSE, a stale one is replaced,
 * anything else there is -EEXIST and left alone; a path too long for a
 * UNIX socket is -ENAMETOOLONG. The protocol: serve/ctl_proto.h and
 * listack-ctl(8).
 */
int lsk_ctl_start(struct lsk_stack *stack, const char *path,
		  struct lsk_ctl **ctl);
/*
 * What lsk_ctl_start would say of path, without serving it or changing
 * anything there: 0 (nothing, or a stale socket), -EADDRINUSE,
 * -EEXIST, -ENAMETOOLONG.
 */
int lsk_ctl_probe(const char *path);
/*
 * Stop serving, close every client, remove the socket file. A batch in
 * progress is finished first: call it without holding lsk_stack_lock,
 * and while the workers still poll or once they are offline
 * (lsk_worker_offline), since a change waits for each online worker to
 * pass lsk_worker_flush. NULL is a no-op.
 */
void lsk_ctl_stop(struct lsk_ctl *ctl);

/*
 * Serialise the application's own control calls with the server's. A
 * thread that runs a worker as well (listack-fwd's main lcore with one
 * lcore) must never wait for the lock: a batch holding it may be waiting
 * for that worker's grace period. It takes lsk_stack_trylock and skips
 * its control work when busy, as lsk_services_poll does. Reading
 * counters (lsk_stats_read, telemetry) needs no lock.
 */
void lsk_stack_lock(struct lsk_stack *stack);
void lsk_stack_unlock(struct lsk_stack *stack);
/* 0 when taken, -EBUSY when a command holds it (never waits). */
int lsk_stack_trylock(struct lsk_stack *stack);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_CTL_H */
