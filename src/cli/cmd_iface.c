/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `port N [mtu M] [mac MAC|default] [name NAME] [up|down]`, `port N vlan
 * V` and `address add|del A/L port N [vlan V]`: the stack's own ports and
 * addresses (docs/configuration.md). Wherever a port is given, its name
 * may be.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "control/host_ctl.h"
#include "cli/cmd.h"

#define PORT_USAGE "usage: port N [mtu M] [mac MAC|default] [name NAME] " \
	"[host-if NAME|none] [ra on|off] [up|down] | port N vlan V"

/* name NAME: its form, and no other port's (in the check pass, as the
 * batch's earlier lines left the names: cmd_port_names); "-": no name */
static int
port_name_word(struct cmd_ctx *c, uint16_t port, const char *name)
{
	char (*names)[LSK_PORT_NAME_MAX] = cmd_port_names(c);
	int other = cmd_port_by_name(c, name);

	if (name != NULL && strcmp(name, "-") == 0) {	/* no name */
		if (c->check)
			names[port][0] = '\0';
		return 0;
	}
	if (name == NULL || lsk_port_name_check(name) < 0)
		return cmd_error(c, -EINVAL, "bad port name '%s' (a-z, then up "
				 "to 14 of a-z 0-9 _ . -; not portN)",
				 name ? name : "");
	if (other >= 0 && other != port)
		return cmd_error(c, -EEXIST, "port %d is already named '%s'",
				 other, name);
	if (c->check)
		snprintf(names[port], sizeof(names[port]), "%s", name);
	return 0;
}


/*
 * port N vlan V: the VLAN sub-interface, with no address yet. `show
 * config` writes one for each, in interface order, so that a restart
 * from a saved file numbers the interfaces as before.
 */
static int
port_vlan(struct cmd_ctx *c, uint16_t port)
{
	unsigned int n_ifaces;
	unsigned long vlan;
	int rc;

	if (c->argc != 4 || cmd_parse_uint(c->argv[3], 4094, &vlan) < 0 ||
	    vlan == 0)
		return cmd_error(c, -EINVAL, "usage: port N vlan V (1-4094)");
	if (c->check)
		return 0;
	n_ifaces = c->s->n_ifaces;
	rc = lsk_vlan_iface(c->s, port, (uint16_t)vlan);
	if (rc >= 0 && !c->s->in_batch && c->s->n_ifaces != n_ifaces) {
		rc = lsk_stack_publish(c->s);
		if (rc < 0)
			c->s->n_ifaces = n_ifaces;
	}
	if (rc < 0)
		return cmd_error(c, rc, "cannot make vlan %lu on port %u: %s",
				 vlan, port, strerror(-rc));
	return 0;
}

/*
 * port N|NAME [mtu M] [mac MAC|default] [name NAME] [up|down]: `mac
 * default` gives the port back
 * the MAC it had before a `port N mac` (the device's, in listack-fwd).
 */
int
cmd_port(struct cmd_ctx *c)
{
	struct rte_ether_addr mac;
	bool have_mac = false, mac_default = false;
	const char *name = NULL, *host_if = NULL;
	unsigned long mtu = 0;
	uint16_t port = 0;
	int admin = -1;		/* 1 up, 0 down, -1 as it is */
	int ra = -1;		/* router advertisements: the same */
	int i, rc;

	if (c->argc < 2)
		return cmd_error(c, -EINVAL, PORT_USAGE);
	rc = cmd_parse_port(c, c->argv[1], &port);
	if (rc < 0)
		return rc;
	cmd_kw(c, 2, "vlan up down mtu mac name host-if ra");
	if (c->argc > 2 && strcmp(c->argv[2], "vlan") == 0)
		return port_vlan(c, port);
	for (i = 2; i < c->argc; i += 2) {
		const char *val = i + 1 < c->argc ? c->argv[i + 1] : NULL;

		cmd_kw(c, i, "up down mtu mac name host-if ra");

		if (strcmp(c->argv[i], "up") == 0 ||
		    strcmp(c->argv[i], "down") == 0) {
			admin = c->argv[i][0] == 'u';
			i--;	/* a word alone */
		} else if (strcmp(c->argv[i], "mtu") == 0) {
			if (cmd_parse_uint(val, 9000, &mtu) < 0 || mtu < 68)
				return cmd_error(c, -EINVAL,
						 "bad mtu '%s' (68-9000)",
						 val ? val : "");
		} else if (strcmp(c->argv[i], "mac") == 0 && val != NULL &&
			   strcmp(val, "default") == 0) {
			mac_default = true;
		} else if (strcmp(c->argv[i], "mac") == 0) {
			rc = cmd_parse_mac(c, val, &mac);
			if (rc < 0)
				return rc;
			have_mac = true;
		} else if (strcmp(c->argv[i], "name") == 0) {
			rc = port_name_word(c, port, val);
			if (rc < 0)
				return rc;
			name = val;
		} else if (strcmp(c->argv[i], "host-if") == 0) {
			if (val == NULL || (strcmp(val, "none") != 0 &&
					    lsk_host_name_check(val) < 0))
				return cmd_error(c, -EINVAL, "bad host-if name "
						 "'%s' (a letter, then up to 9 "
						 "of a-z A-Z 0-9 _ -; or none)",
						 val ? val : "");
			host_if = val;
		} else if (strcmp(c->argv[i], "ra") == 0) {
			if (val == NULL || (strcmp(val, "on") != 0 &&
					    strcmp(val, "off") != 0))
				return cmd_error(c, -EINVAL, "bad ra '%s' (on "
						 "or off)", val ? val : "");
			ra = strcmp(val, "on") == 0;
		} else {
			return cmd_error(c, -EINVAL,
					 "unknown port setting '%s'",
					 c->argv[i]);
		}
	}
	if (c->check)
		return 0;
	if (name != NULL) {
		rc = lsk_port_name_set(c->s, port,
				       strcmp(name, "-") == 0 ? "" : name);
		if (rc < 0)
			return cmd_error(c, rc, "cannot name port %u '%s': %s",
					 port, name, strerror(-rc));
	}
	if (mac_default && c->s->mac_given[port]) {
		mac = c->s->dev_mac[port];
		have_mac = true;
	}
	if (have_mac && !mac_default && !c->s->mac_given[port])
		c->s->dev_mac[port] = c->s->ports[port].mac;
	if (have_mac || mtu != 0) {
		rc = lsk_port_set(c->s, port, have_mac ? &mac : NULL,
				  (uint16_t)mtu);
		if (rc < 0)
			return cmd_error(c, rc, "cannot set port %u: %s", port,
					 strerror(-rc));
	}
	if (have_mac)
		c->s->mac_given[port] = !mac_default;
	if (host_if != NULL) {
		rc = lsk_host_if_set(c->s, port, strcmp(host_if, "none") == 0 ?
				     "" : host_if);
		if (rc == -EEXIST)
			return cmd_error(c, rc, "host-if %s is port %d's",
					 host_if, lsk_host_if_port(c->s,
								   host_if));
		if (rc < 0)
			return cmd_error(c, rc, "cannot make host-if %s of "
					 "port %u: %s", host_if, port,
					 strerror(-rc));
	}
	if (ra >= 0) {
		rc = lsk_port_ra_set(c->s, port, ra == 1);
		if (rc < 0)
			return cmd_error(c, rc, "cannot set ra %s on port %u: "
					 "%s", ra ? "on" : "off", port,
					 strerror(-rc));
	}
	if (admin >= 0) {
		rc = lsk_port_admin_set(c->s, port, admin == 1);
		if (rc < 0)
			return cmd_error(c, rc, "cannot set port %u %s: %s",
					 port, admin ? "up" : "down",
					 strerror(-rc));
	}
	return 0;
}

/* A subnet broadcast is nobody's address, and no address is one. */
static int
address_broadcast_clash(struct cmd_ctx *c, uint32_t addr, uint8_t depth)
{
	const struct lsk_ifaddr *a = lsk_stack_broadcast_of(c->s, addr);
	uint32_t bcast = addr | ~lsk_depth_mask(depth);
	char text[16];

	if (a != NULL) {
		cmd_ip_text(a->addr, text, sizeof(text));
		return cmd_error(c, -EINVAL, "%s cannot be an interface "
				 "address: it is the broadcast address of "
				 "%s/%u", c->argv[2], text, a->depth);
	}
	if (depth < 31 && lsk_stack_is_own(c->s, bcast)) {
		cmd_ip_text(bcast, text, sizeof(text));
		return cmd_error(c, -EINVAL, "%s cannot be an interface "
				 "address: its broadcast address %s is one of "
				 "our addresses", c->argv[2], text);
	}
	return 0;
}

/*
 * A subnet's network and broadcast addresses are no host's (where the
 * subnet has them: /30 and shorter), and a subnet is connected on one
 * interface only: on two, which one reaches its hosts would be a guess.
 */
static int
address_subnet_clash(struct cmd_ctx *c, uint32_t addr, uint8_t depth,
		     uint16_t port, uint16_t vlan)
{
	int iface = lsk_iface_find(c->s, port, vlan);
	uint32_t host = addr & ~lsk_depth_mask(depth);
	const struct lsk_port_conf *p;
	unsigned int i;
	char text[16], pfx[24];

	if (depth <= 30 && (host == 0 || host == ~lsk_depth_mask(depth))) {
		cmd_ip_text(addr, text, sizeof(text));
		cmd_prefix_text(addr - host, depth, pfx, sizeof(pfx));
		return cmd_error(c, -EINVAL, "%s cannot be an interface "
				 "address: %s is the %s address of %s",
				 c->argv[2], text, host == 0 ? "network" :
				 "broadcast", pfx);
	}
	if (lsk_stack_is_own(c->s, addr))
		return 0;	/* refused as configured already */
	for (i = 0; i < c->s->n_addrs; i++) {
		const struct lsk_ifaddr *a = &c->s->addrs[i];
		uint8_t d = RTE_MIN(depth, a->depth);

		if ((int)a->port == iface ||
		    ((addr ^ a->addr) & lsk_depth_mask(d)) != 0)
			continue;
		p = &c->s->ports[a->port];
		cmd_prefix_text(a->addr, a->depth, pfx, sizeof(pfx));
		if (p->vlan != 0)
			return cmd_error(c, -EADDRINUSE, "%s overlaps %s on "
					 "port %u vlan %u (a subnet is "
					 "connected on one interface only)",
					 c->argv[2], pfx, p->parent, p->vlan);
		return cmd_error(c, -EADDRINUSE, "%s overlaps %s on port %u "
				 "(a subnet is connected on one interface "
				 "only)", c->argv[2], pfx, a->port);
	}
	return 0;
}

/* address del A/L port N [vlan V] */
static int
address_del(struct cmd_ctx *c, uint32_t addr, uint8_t depth, uint16_t port,
	    uint16_t vlan)
{
	int iface = lsk_iface_find(c->s, port, vlan);
	int rc;

	if (iface < 0)
		return cmd_error(c, -ENODEV, "port %u has no vlan %u", port,
				 vlan);
	rc = lsk_address_del(c->s, addr, depth, (uint16_t)iface);
	if (rc == -EADDRNOTAVAIL)
		return cmd_error(c, rc, "no address %s on port %u%s", c->argv[2],
				 port, vlan ? " (that vlan)" : "");
	if (rc == -EBUSY)
		return cmd_error(c, rc, "%s is in use by a 'udp listen' service "
				 "(udp close it first)", c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot delete address %s: %s",
				 c->argv[2], strerror(-rc));
	return 0;
}

/* address add|del A/L port N [vlan V] */
int
cmd_address(struct cmd_ctx *c)
{
	unsigned int n_ifaces = c->s->n_ifaces;
	unsigned long vlan = 0;
	uint32_t addr;
	uint8_t depth;
	uint16_t port = 0;
	bool del;
	int rc;

	if (c->argc > 2 && cmd_is_ip6(c->argv[2]))
		return cmd_address6(c);	/* cli/cmd_ip6.c */
	cmd_kw(c, 3, "port");
	cmd_kw(c, 5, "vlan");
	if ((c->argc != 5 && c->argc != 7) ||
	    (strcmp(c->argv[1], "add") != 0 && strcmp(c->argv[1], "del") != 0) ||
	    strcmp(c->argv[3], "port") != 0 ||
	    (c->argc == 7 && strcmp(c->argv[5], "vlan") != 0))
		return cmd_error(c, -EINVAL, "usage: address add|del A.B.C.D/L "
				 "port N [vlan V]");
	del = c->argv[1][0] == 'd';
	if (strchr(c->argv[2], '/') == NULL ||
	    cmd_parse_prefix(c->argv[2], &addr, &depth) < 0 || depth == 0)
		return cmd_error(c, -EINVAL, "bad address '%s' (want A.B.C.D/L)",
				 c->argv[2]);
	rc = cmd_parse_port(c, c->argv[4], &port);
	if (rc < 0)
		return rc;
	if (c->argc == 7 && (cmd_parse_uint(c->argv[6], 4094, &vlan) < 0 ||
			     vlan == 0))
		return cmd_error(c, -EINVAL, "bad vlan '%s' (1-4094)",
				 c->argv[6]);
	if (c->check)
		return 0;
	if (del)
		return address_del(c, addr, depth, port, (uint16_t)vlan);
	rc = address_broadcast_clash(c, addr, depth);
	if (rc == 0)
		rc = address_subnet_clash(c, addr, depth, port,
					  (uint16_t)vlan);
	if (rc < 0)
		return rc;
	if (c->argc == 7) {
		rc = lsk_vlan_iface(c->s, port, (uint16_t)vlan);
		if (rc < 0)
			return cmd_error(c, rc, "cannot make vlan %lu on port "
					 "%u: %s", vlan, port, strerror(-rc));
		port = (uint16_t)rc;
	}
	rc = lsk_address_add(c->s, addr, depth, port);
	if (rc < 0 && c->s->n_ifaces > n_ifaces)
		c->s->n_ifaces = n_ifaces;	/* the VLAN made for it goes */
	if (rc == -EEXIST)
		return cmd_error(c, rc, "address %s is already configured",
				 c->argv[2]);
	if (rc == -EINVAL)
		return cmd_error(c, rc, "%s cannot be an interface address",
				 c->argv[2]);
	if (rc < 0)
		return cmd_error(c, rc, "cannot add address %s: %s", c->argv[2],
				 strerror(-rc));
	return 0;
}
