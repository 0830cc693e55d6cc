/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Routes from FRR's zebra over FPM (zebra -M dplane_fpm_nl): a server
 * that follows the stack's `fpm listen ADDR:PORT` setting (the config
 * file or listack-ctl), on a thread of its own, and learns what zebra
 * sends (lsk_route_learn). One zebra at a time; docs/frr.md and
 * docs/configuration.md say how it behaves.
 *
 * Its thread is one of the stack's control threads: it takes
 * lsk_stack_lock around every change it makes.
 */
#ifndef LISTACK_FPM_H
#define LISTACK_FPM_H

#include "listack/listack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_fpm;

/* Serve the stack's `fpm listen` setting, now and as it changes. 0,
 * -ENOMEM, or the thread's -errno. */
int lsk_fpm_start(struct lsk_stack *stack, struct lsk_fpm **fpm);
/* Stop serving: close zebra's connection and the listening socket (the
 * routes learned stay). Call it without holding lsk_stack_lock, as
 * lsk_ctl_stop. NULL is a no-op. */
void lsk_fpm_stop(struct lsk_fpm *fpm);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_FPM_H */
