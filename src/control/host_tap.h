/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the host path's control side made in the kernel (control/
 * host_ctl.c the TAPs, control/host_addrs.c their addresses), for those
 * two files only: the rest of the control side sees control/host_ctl.h.
 */
#ifndef LSK_CONTROL_HOST_TAP_H
#define LSK_CONTROL_HOST_TAP_H

#include <stdint.h>

#include <rte_ether.h>

#include "control/control.h"

/* What was made for one interface (fd -1: no TAP). */
struct lsk_host_tap {
	int fd;
	unsigned int ifindex;
	char name[16];
	struct rte_ether_addr mac;
	uint16_t mtu;
	int8_t up, carrier;	/* -1: not set yet */
};

struct lsk_host_addr {
	uint16_t iface;
	uint8_t depth;
	uint32_t addr;
};

struct lsk_host_ctl {
	struct lsk_host *host;	/* NULL until the first TAP */
	struct lsk_host_tap taps[LSK_MAX_IFACES];
	/* the addresses put on TAPs */
	unsigned int n_addrs;
	struct lsk_host_addr addrs[LSK_MAX_ADDRS];
	unsigned int n_addrs6;
	struct lsk_ifaddr6 addrs6[LSK_MAX_ADDRS6];
};

/*
 * The TAPs' addresses as the interfaces' (IPv4; IPv6's configured ones,
 * the automatic link-local one being the kernel's own): the gone ones
 * removed first, then the missing ones put on. 0, or the first errno
 * met (what could be done is done).
 */
int lsk_host_addrs_follow(struct lsk_stack *s, struct lsk_host_ctl *hc);
int lsk_host_addrs6_follow(struct lsk_stack *s, struct lsk_host_ctl *hc);

#endif /* LSK_CONTROL_HOST_TAP_H */
