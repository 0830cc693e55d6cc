/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker loop's life: what the control thread calls to make and
 * retire a worker (control/dataplane.c registers it in its stack). The
 * loop itself is the public lsk_worker_input / lsk_worker_flush.
 */
#ifndef LSK_WORKER_WORKER_H
#define LSK_WORKER_WORKER_H

#include <stdint.h>

#include "core/shared.h"
#include "core/worker.h"

/*
 * Make worker id over sh: the worker and each layer's state in one
 * block on sh's socket, a route cache of rcache_entries (0: none), in
 * RCU's quiescent-state reporting from its first poll. 0, -ENOMEM, or
 * -EINVAL (id taken in sh->qsbr).
 */
int lsk_worker_make(const struct lsk_shared *sh, unsigned int id,
		    uint16_t n_ports, uint32_t rcache_entries,
		    struct lsk_worker **out);
/*
 * Send what w queued, free its layers' tables, leave RCU. What is left
 * is the block, which lsk_worker_free frees once no reader (telemetry)
 * can still see w.
 * Ownership: takes every mbuf w still holds.
 */
void lsk_worker_retire(struct lsk_worker *w);
void lsk_worker_free(struct lsk_worker *w);

#endif /* LSK_WORKER_WORKER_H */
