/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack: the ports as an operator sees them: admin state, names, and
 * the device's own facts (driver, link, counters), which the application
 * that owns the ports supplies. Part of listack/listack.h, which includes
 * it; include that.
 */
#ifndef LISTACK_IFACE_H
#define LISTACK_IFACE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lsk_stack;

/* What the device behind a port says of itself (rte_eth_dev_info,
 * rte_eth_link, rte_eth_stats), for `show interfaces`. */
struct lsk_port_facts {
	char driver[32];
	bool link_up;
	bool full_duplex;
	uint32_t speed_mbps;	/* 0: unknown */
	bool have_stats;	/* the counters below were read */
	uint64_t ipackets, opackets, ibytes, obytes;
	uint64_t ierrors, oerrors, imissed;
};

/*
 * The library never calls ethdev for ports it does not own: the
 * application does, through these. facts fills f for port (a negative
 * errno: nothing known); admin is told the port's admin state once the
 * tables with it are published (a device that cannot be set down keeps
 * its link: the stack sends and takes nothing on it either way). Either
 * may be NULL. listack-fwd's are src/app/fwd_port.c.
 */
struct lsk_port_ops {
	int (*facts)(void *arg, uint16_t port, struct lsk_port_facts *f);
	void (*admin)(void *arg, uint16_t port, bool up);
};
void lsk_port_ops_set(struct lsk_stack *stack, const struct lsk_port_ops *ops,
		      void *arg);

/*
 * Admin state (`port N up|down`): a port that is down sends nothing
 * (what is routed out of it is dropped, counted in ports[].tx_dropped)
 * and what it receives is dropped (ports[].rx_dropped); so are its VLAN
 * sub-interfaces. Ports start up.
 */
int lsk_port_admin_set(struct lsk_stack *stack, uint16_t port, bool up);
bool lsk_port_admin_up(const struct lsk_stack *stack, uint16_t port);

/*
 * A port's name (`port N name NAME`): a lower-case letter, then up to 14
 * of a-z 0-9 _ . -, unique, and not of the form portN or portN.V; ""
 * removes it. -EINVAL for a bad name, -EEXIST when another port has it.
 */
#define LSK_PORT_NAME_MAX 16	/* with the NUL */
int lsk_port_name_set(struct lsk_stack *stack, uint16_t port,
		      const char *name);
/* The port's name, "" when it has none. */
const char *lsk_port_name(const struct lsk_stack *stack, uint16_t port);
/* The port named name, or -ENODEV. */
int lsk_port_by_name(const struct lsk_stack *stack, const char *name);
/* 0 when name could be a port's name (the form only). */
int lsk_port_name_check(const char *name);

/*
 * The host-ifs' kernel TAPs (`port N host-if NAME`) follow the ports'
 * links (the facts call): an application that sees a link change, or
 * looks once a second, calls this; it takes the stack's lock, and when
 * a control call holds it, leaves the look to the next call.
 */
void lsk_host_links_check(struct lsk_stack *stack);

#ifdef __cplusplus
}
#endif

#endif /* LISTACK_IFACE_H */
