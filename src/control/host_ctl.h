/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path as the control thread and the servers above it see it
 * (the path itself: src/host/): which kernel interface mirrors which of
 * our interfaces.
 */
#ifndef LSK_CONTROL_HOST_CTL_H
#define LSK_CONTROL_HOST_CTL_H

struct lsk_stack;

/* The iface (a port, or a VLAN of one) whose host-if (`port N host-if
 * NAME`, or NAME.V) the kernel knows as ifindex; -ENOENT when none. */
int lsk_host_iface_of_ifindex(const struct lsk_stack *s, unsigned int ifindex);

#endif /* LSK_CONTROL_HOST_CTL_H */
