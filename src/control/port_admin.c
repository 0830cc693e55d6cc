/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ports as an operator sees them (listack/iface.h): admin state,
 * published with the forwarding table (its ports_down, which workers copy
 * per burst: core/tx.c drops what a down port would send, worker.c what
 * it received); names; and the application's calls for what only it may
 * ask of the devices.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/fwd.h"
#include "control/control.h"

void
lsk_port_ops_set(struct lsk_stack *s, const struct lsk_port_ops *ops,
		 void *arg)
{
	memset(&s->port_ops, 0, sizeof(s->port_ops));
	if (ops != NULL)
		s->port_ops = *ops;
	s->port_ops_arg = arg;
}

void
lsk_port_admin_follow(struct lsk_stack *s, const struct lsk_port_conf *from,
		      const struct lsk_port_conf *to)
{
	unsigned int p;

	if (s->port_ops.admin == NULL)
		return;
	for (p = 0; p < s->n_ports; p++)
		if (from[p].down != to[p].down)
			s->port_ops.admin(s->port_ops_arg, (uint16_t)p,
					  !to[p].down);
}

int
lsk_port_admin_set(struct lsk_stack *s, uint16_t port, bool up)
{
	struct lsk_port_conf saved[LSK_MAX_IFACES];
	unsigned int i;
	int rc;

	if (port >= s->n_ports)
		return -ENODEV;
	if (s->ports[port].down == !up)
		return 0;
	memcpy(saved, s->ports, sizeof(saved));
	/* the port and its VLAN sub-interfaces */
	for (i = 0; i < s->n_ifaces; i++)
		if (s->ports[i].parent == port)
			s->ports[i].down = !up;
	rc = lsk_stack_publish(s);	/* in a batch: at its commit */
	if (rc < 0) {
		memcpy(s->ports, saved, sizeof(saved));
		return rc;
	}
	if (!s->in_batch)
		lsk_port_admin_follow(s, saved, s->ports);
	return 0;
}

bool
lsk_port_admin_up(const struct lsk_stack *s, uint16_t port)
{
	return port < s->n_ports && !s->ports[port].down;
}

/* portN and portN.V are every port's names already */
static bool
name_is_builtin(const char *name)
{
	const char *p = name + 4;

	if (strncmp(name, "port", 4) != 0 || *p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return false;
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	return *p == '\0';
}

int
lsk_port_name_check(const char *name)
{
	size_t i, n;

	if (name == NULL)
		return -EINVAL;
	n = strlen(name);
	if (n == 0 || n >= LSK_PORT_NAME_MAX || name[0] < 'a' || name[0] > 'z')
		return -EINVAL;
	for (i = 1; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return -EINVAL;
	}
	return name_is_builtin(name) ? -EINVAL : 0;
}

int
lsk_port_by_name(const struct lsk_stack *s, const char *name)
{
	unsigned int p;

	for (p = 0; name != NULL && name[0] != '\0' && p < s->n_ports; p++)
		if (strcmp(s->port_names[p], name) == 0)
			return (int)p;
	return -ENODEV;
}

const char *
lsk_port_name(const struct lsk_stack *s, uint16_t port)
{
	return port < s->n_ports ? s->port_names[port] : "";
}

int
lsk_port_name_set(struct lsk_stack *s, uint16_t port, const char *name)
{
	int other;

	if (port >= s->n_ports)
		return -ENODEV;
	if (name == NULL || name[0] == '\0') {
		s->port_names[port][0] = '\0';
		return 0;
	}
	if (lsk_port_name_check(name) < 0)
		return -EINVAL;
	other = lsk_port_by_name(s, name);
	if (other >= 0 && other != port)
		return -EEXIST;
	snprintf(s->port_names[port], sizeof(s->port_names[port]), "%s",
		 name);
	return 0;
}
