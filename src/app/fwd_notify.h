/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd tells systemd how it is (sd_notify(3), Type=notify in
 * config/listack.service.in): ready once the ports are up and the config
 * applied, reloading and ready again around a reload, stopping at
 * shutdown. Without $NOTIFY_SOCKET, or built without libsystemd, each
 * call does nothing.
 */
#ifndef LSK_FWD_NOTIFY_H
#define LSK_FWD_NOTIFY_H

/* READY=1, with a STATUS line naming the ports and workers. */
void fwd_notify_ready(unsigned int n_ports, unsigned int n_workers);
/* RELOADING=1: a reload begins; fwd_notify_ready when it is done. */
void fwd_notify_reloading(void);
/* STOPPING=1: the shutdown begins. */
void fwd_notify_stopping(void);

#endif
