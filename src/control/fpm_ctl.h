/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fpm listen ADDR:PORT` as the stack keeps it (control/fpm_ctl.c), and
 * what the FPM server (serve/fpm_server.c), which follows it, reports
 * back for `show fpm`. The grammar sets the first part, the server the
 * second; both under the stack's lock. The server sees a change by the
 * generation, which it may read without the lock.
 */
#ifndef LSK_CONTROL_FPM_CTL_H
#define LSK_CONTROL_FPM_CTL_H

#include <stdbool.h>
#include <stdint.h>

struct lsk_stack;

#define LSK_FPM_PEER_MAX 64

struct lsk_fpm_conf {
	/* the setting: port 0 is off */
	uint32_t addr;		/* host order */
	uint16_t port;
	uint32_t generation;	/* one more at each change (atomic) */
	/* the server's report */
	bool served;		/* a server follows the setting */
	bool listening;
	int listen_error;	/* the last bind or listen's -errno, or 0 */
	bool connected;
	bool dumping;		/* connected, the dump not yet swept */
	char peer[LSK_FPM_PEER_MAX];	/* "ADDR:PORT" of zebra, or "" */
	unsigned int nexthops;	/* zebra's nexthops known */
};

/* Listen on addr:port (port 0: off). Changes nothing when the same. */
void lsk_fpm_listen_set(struct lsk_stack *s, uint32_t addr, uint16_t port);

#endif /* LSK_CONTROL_FPM_CTL_H */
