/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path as the control thread and the servers above it see it
 * (the path itself: src/host/): which kernel interface mirrors which of
 * our interfaces, and the configuration that makes them
 * (control/host_ctl.c).
 */
#ifndef LSK_CONTROL_HOST_CTL_H
#define LSK_CONTROL_HOST_CTL_H

#include <stdbool.h>
#include <stdint.h>

struct lsk_stack;
struct lsk_stats;

/* The iface (a port, or a VLAN of one) whose host-if (`port N host-if
 * NAME`, or NAME.V) the kernel knows as ifindex; -ENOENT when none. */
int lsk_host_iface_of_ifindex(const struct lsk_stack *s, unsigned int ifindex);

/* A host-if's name: a letter, then up to 9 of a-z A-Z 0-9 _ -, so that
 * NAME.4094 fits the kernel's 15; "none" is no name. 0 or -EINVAL. */
int lsk_host_name_check(const char *name);
/*
 * `port N host-if NAME` ("" removes it): the port's TAP NAME, and
 * NAME.V for each of its VLANs. -EINVAL for a bad name, -EEXIST when
 * another port's host-if has it. Outside a batch the kernel's side is
 * made at once: its errno when it cannot be, and nothing changed.
 */
int lsk_host_if_set(struct lsk_stack *s, uint16_t port, const char *name);
/* The port whose host-if is name, or -ENODEV. */
int lsk_host_if_port(const struct lsk_stack *s, const char *name);
/* `host-if NAME rate PPS` (0: the default, host/host.h). */
int lsk_host_rate_set(struct lsk_stack *s, uint16_t port, uint32_t pps);
/* The port's rate as given (0: the default) */
uint32_t lsk_host_rate(const struct lsk_stack *s, uint16_t port);

/*
 * Make the kernel's side follow the configuration: TAPs made and
 * removed, their MAC, MTU, admin state and addresses, and the table
 * workers punt by (sh.host). Called after every publish of the
 * interfaces (outside a batch) and at a batch's commit. 0, or the first
 * errno met (what could be done is done).
 */
int lsk_host_sync(struct lsk_stack *s);
/* The TAPs' carrier as the ports' links are (the application's facts
 * call): listack-fwd asks once a second. */
void lsk_host_links(struct lsk_stack *s);
/* iface's TAP: its name and kernel index; false when it has none. */
bool lsk_host_tap_of(const struct lsk_stack *s, unsigned int iface,
		     const char **name, unsigned int *ifindex);
/* The host thread's own counts, added to out's host section. */
void lsk_host_stats_add(const struct lsk_stack *s, struct lsk_stats *out);
/* The stack goes: TAPs removed, thread stopped, rings freed (after the
 * workers). */
void lsk_host_destroy(struct lsk_stack *s);

#endif /* LSK_CONTROL_HOST_CTL_H */
