/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path's configuration (`port N host-if NAME`, `host-if NAME
 * rate PPS`) and the kernel's side made to follow it: one TAP per
 * interface with a host-if (the port's NAME, its VLANs' NAME.V; host/host.h
 * says why not kernel VLAN devices), each with the interface's MAC, MTU,
 * admin state, link (carrier) and addresses (IPv4 and IPv6; the
 * link-local one the kernel makes from the MAC, as listack does); and the
 * table workers punt
 * by (sh.host), published when what it says changes.
 *
 * The kernel's side is reconciled, not replayed: lsk_host_sync compares
 * what the configuration wants with what it made last and makes only the
 * difference, so a call that finds nothing changed makes no syscall. A
 * scratch stack (a reload's check) makes nothing.
 *
 * Here: the configuration, the TAPs and the punt table; the TAPs'
 * addresses follow in control/host_addrs.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_malloc.h>

#include "core/fwd6.h"
#include "host/host.h"
#include "control/control.h"
#include "control/host_ctl.h"
#include "control/host_tap.h"
#include "control/routes6.h"
#include "listack/ctl.h"

int
lsk_host_name_check(const char *name)
{
	size_t i, n = name != NULL ? strlen(name) : 0;

	if (n == 0 || n >= LSK_HOST_NAME_MAX || strcmp(name, "none") == 0)
		return -EINVAL;
	if (!((name[0] >= 'a' && name[0] <= 'z') ||
	      (name[0] >= 'A' && name[0] <= 'Z')))
		return -EINVAL;
	for (i = 1; i < n; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-'))
			return -EINVAL;
	}
	return 0;
}

int
lsk_host_if_port(const struct lsk_stack *s, const char *name)
{
	unsigned int p;

	for (p = 0; name != NULL && name[0] && p < s->n_ports; p++)
		if (strcmp(s->host_if[p], name) == 0)
			return (int)p;
	return -ENODEV;
}

static struct lsk_host_ctl *
host_ctl(struct lsk_stack *s)
{
	unsigned int i;

	if (s->host == NULL) {
		s->host = calloc(1, sizeof(*s->host));
		if (s->host == NULL)
			return NULL;
		for (i = 0; i < LSK_MAX_IFACES; i++)
			s->host->taps[i].fd = -1;
	}
	return s->host;
}

int
lsk_host_if_set(struct lsk_stack *s, uint16_t port, const char *name)
{
	char saved[sizeof(s->host_if[0])];
	int other, rc;

	if (port >= s->n_ports)
		return -ENODEV;
	if (name[0] != '\0' && lsk_host_name_check(name) < 0)
		return -EINVAL;
	other = lsk_host_if_port(s, name);
	if (other >= 0 && other != port)
		return -EEXIST;
	memcpy(saved, s->host_if[port], sizeof(saved));
	snprintf(s->host_if[port], sizeof(s->host_if[port]), "%s", name);
	if (s->in_batch)
		return 0;	/* made at the commit */
	rc = lsk_host_sync(s);
	if (rc < 0) {
		memcpy(s->host_if[port], saved, sizeof(saved));
		lsk_host_sync(s);
	}
	return rc;
}

int
lsk_host_rate_set(struct lsk_stack *s, uint16_t port, uint32_t pps)
{
	if (port >= s->n_ports || pps > LSK_HOST_RATE_MAX)
		return -EINVAL;
	s->host_rate[port] = pps;
	return s->in_batch ? 0 : lsk_host_sync(s);
}

uint32_t
lsk_host_rate(const struct lsk_stack *s, uint16_t port)
{
	return port < s->n_ports ? s->host_rate[port] : 0;
}

/* The TAP name interface i wants ("" none). */
static void
host_want_name(const struct lsk_stack *s, unsigned int i, char *buf,
	       size_t len)
{
	const struct lsk_port_conf *p = &s->ports[i];
	const char *base = s->host_if[p->parent];

	buf[0] = '\0';
	if (i >= s->n_ifaces || p->parent >= s->n_ports || base[0] == '\0')
		return;
	if (p->vlan == 0)
		snprintf(buf, len, "%s", base);
	else
		snprintf(buf, len, "%s.%u", base, p->vlan);
}

static void
host_tap_close(struct lsk_host_ctl *hc, unsigned int i)
{
	struct lsk_host_tap *t = &hc->taps[i];
	unsigned int k, n = 0;

	if (t->fd < 0)
		return;
	if (hc->host != NULL)
		lsk_host_attach(hc->host, (uint16_t)i, -1);
	close(t->fd);		/* the TAP goes with it, and its addresses */
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	for (k = 0; k < hc->n_addrs; k++)
		if (hc->addrs[k].iface != i)
			hc->addrs[n++] = hc->addrs[k];
	hc->n_addrs = n;
	for (k = 0, n = 0; k < hc->n_addrs6; k++)
		if (hc->addrs6[k].iface != i)
			hc->addrs6[n++] = hc->addrs6[k];
	hc->n_addrs6 = n;
}

/* The link of interface i's port, as the application knows it (no
 * facts: up, as a TAP starts). */
static bool
host_link_up(const struct lsk_stack *s, unsigned int i)
{
	struct lsk_port_facts f;

	memset(&f, 0, sizeof(f));
	if (s->port_ops.facts == NULL ||
	    s->port_ops.facts(s->port_ops_arg, s->ports[i].parent, &f) < 0)
		return true;
	return f.link_up;
}

/* A new MAC: the TAP's link-local address made from it, as listack's
 * (control/fwd6_table.c), the old one gone (the kernel makes one when the
 * TAP comes up, not again for a new MAC). Best effort: a TAP without
 * IPv6 has none to change. */
static void
host_tap_ll_follow(const struct lsk_host_tap *t,
		   const struct rte_ether_addr *mac)
{
	struct lsk_ip6_addr ll;

	lsk_ip6_linklocal_of(&t->mac, &ll);
	lsk_tap_addr6(t->ifindex, ll.a, 64, false);
	lsk_ip6_linklocal_of(mac, &ll);
	lsk_tap_addr6(t->ifindex, ll.a, 64, true);
}

/* TAP i made (or re-made under a new name) and set as interface i is. */
static int
host_tap_follow(struct lsk_stack *s, struct lsk_host_ctl *hc, unsigned int i)
{
	const struct lsk_port_conf *p = &s->ports[i];
	struct lsk_host_tap *t = &hc->taps[i];
	char want[16];
	bool up = !p->down, carrier;
	int fd, rc = 0;

	host_want_name(s, i, want, sizeof(want));
	if (t->fd >= 0 && strcmp(t->name, want) != 0)
		host_tap_close(hc, i);
	if (want[0] == '\0')
		return 0;
	if (t->fd < 0) {
		if (hc->host == NULL) {
			hc->host = lsk_host_create(s->sh.socket_id,
						   s->sh.send_pool);
			if (hc->host == NULL)
				return -ENOMEM;
		}
		fd = lsk_tap_open(want, &t->ifindex);
		if (fd < 0)
			return fd;
		t->fd = fd;
		snprintf(t->name, sizeof(t->name), "%s", want);
		t->up = -1;
		t->carrier = -1;
		t->mtu = 0;
		memset(&t->mac, 0, sizeof(t->mac));
		lsk_host_attach(hc->host, (uint16_t)i, fd);
	}
	if (!rte_is_same_ether_addr(&t->mac, &p->mac)) {
		rc = lsk_tap_set_mac(t->name, &p->mac);
		if (rc == 0 && !rte_is_zero_ether_addr(&t->mac))
			host_tap_ll_follow(t, &p->mac);
		if (rc == 0)
			t->mac = p->mac;
	}
	if (rc == 0 && t->mtu != p->mtu) {
		rc = lsk_tap_set_mtu(t->name, p->mtu);
		if (rc == 0)
			t->mtu = p->mtu;
	}
	if (rc == 0 && t->carrier < 0) {
		carrier = host_link_up(s, i);
		rc = lsk_tap_set_carrier(t->fd, carrier);
		if (rc == 0)
			t->carrier = carrier;
	}
	if (rc == 0 && t->up != (int8_t)up) {
		rc = lsk_tap_set_up(t->name, up);
		if (rc == 0)
			t->up = up;
	}
	return rc;
}

static unsigned int
host_n_workers(const struct lsk_stack *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < LSK_MAX_WORKERS; i++)
		n += s->workers[i] != NULL;
	return n ? n : 1;
}

/* The table workers punt by, as the TAPs now are (NULL: none). */
static struct lsk_host_table *
host_table_build(const struct lsk_stack *s, const struct lsk_host_ctl *hc,
		 int *rc)
{
	struct lsk_host_table *t;
	unsigned int i, workers = host_n_workers(s);

	*rc = 0;
	if (hc == NULL || hc->host == NULL)
		return NULL;
	t = rte_zmalloc_socket("lsk_host_table", sizeof(*t),
			       RTE_CACHE_LINE_SIZE, s->sh.socket_id);
	if (t == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	t->host = hc->host;
	for (i = 0; i < LSK_MAX_IFACES; i++) {
		uint16_t port = s->ports[i].parent;
		uint32_t rate;

		if (hc->taps[i].fd < 0 || port >= s->n_ports)
			continue;
		rate = s->host_rate[port] ? s->host_rate[port] :
		       LSK_HOST_RATE_DEFAULT;
		/* each worker its share: the whole stays the rate */
		t->rate[i] = RTE_MAX(rate / workers, 1u);
		/* a tenth of a second's worth at once, at least a few */
		t->burst[i] = RTE_MAX(t->rate[i] / 10, 8u);
		t->ifaces |= UINT64_C(1) << i;
		t->mcast_ports |= (uint16_t)(1u << port);
	}
	if (t->ifaces == 0) {
		rte_free(t);
		return NULL;
	}
	return t;
}

static void
host_table_free(struct lsk_host_table *t)
{
	rte_free(t);
}

static bool
host_table_same(const struct lsk_host_table *a, const struct lsk_host_table *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return memcmp(a, b, sizeof(*a)) == 0;
}

int
lsk_host_sync(struct lsk_stack *s)
{
	struct lsk_host_ctl *hc = s->host;
	struct lsk_host_table *t;
	unsigned int i, p;
	bool any = false;
	int rc = 0, r;

	if (s->scratch)
		return 0;
	for (p = 0; p < s->n_ports; p++)
		any |= s->host_if[p][0] != '\0';
	if (hc == NULL && !any)
		return 0;
	hc = host_ctl(s);
	if (hc == NULL)
		return -ENOMEM;
	for (i = 0; i < LSK_MAX_IFACES; i++) {
		r = i < s->n_ifaces ? host_tap_follow(s, hc, i) : 0;
		if (i >= s->n_ifaces)
			host_tap_close(hc, i);
		if (r < 0 && rc == 0) {
			rc = r;
			/* the first, for the batch's error (cli/command.c
			 * clears it): not the one putting things back */
			if (s->host_refused[0] == '\0')
				host_want_name(s, i, s->host_refused,
					       sizeof(s->host_refused));
		}
	}
	r = lsk_host_addrs_follow(s, hc);
	if (rc == 0)
		rc = r;
	r = lsk_host_addrs6_follow(s, hc);
	if (rc == 0)
		rc = r;
	t = host_table_build(s, hc, &r);
	if (r < 0)
		return rc ? rc : r;
	if (host_table_same(t, s->sh.host))
		host_table_free(t);
	else
		lsk_publish(s, s->sh.host, t, host_table_free);
	return rc;
}

void
lsk_host_links(struct lsk_stack *s)
{
	struct lsk_host_ctl *hc = s->host;
	unsigned int i;

	if (hc == NULL)
		return;
	for (i = 0; i < s->n_ifaces; i++) {
		struct lsk_host_tap *t = &hc->taps[i];
		bool up;

		if (t->fd < 0)
			continue;
		up = host_link_up(s, i);
		if (t->carrier != (int8_t)up &&
		    lsk_tap_set_carrier(t->fd, up) == 0)
			t->carrier = up;
	}
}

void
lsk_host_links_check(struct lsk_stack *s)
{
	if (s->host == NULL || lsk_stack_trylock(s) != 0)
		return;
	/* what a config loaded before the pools and workers could not know
	 * (listack-fwd's order): the pool, the rates' shares */
	if (s->host->host != NULL &&
	    __atomic_load_n(&s->host->host->pool, __ATOMIC_RELAXED) == NULL)
		__atomic_store_n(&s->host->host->pool, s->sh.send_pool,
				 __ATOMIC_RELEASE);
	if (!s->in_batch)
		lsk_host_sync(s);
	lsk_host_links(s);
	lsk_stack_unlock(s);
}

int
lsk_host_iface_of_ifindex(const struct lsk_stack *s, unsigned int ifindex)
{
	unsigned int i;

	if (s->host == NULL || ifindex == 0)
		return -ENOENT;
	for (i = 0; i < LSK_MAX_IFACES; i++)
		if (s->host->taps[i].fd >= 0 &&
		    s->host->taps[i].ifindex == ifindex)
			return (int)i;
	return -ENOENT;
}

bool
lsk_host_tap_of(const struct lsk_stack *s, unsigned int iface,
		const char **name, unsigned int *ifindex)
{
	if (s->host == NULL || iface >= LSK_MAX_IFACES ||
	    s->host->taps[iface].fd < 0)
		return false;
	*name = s->host->taps[iface].name;
	*ifindex = s->host->taps[iface].ifindex;
	return true;
}

void
lsk_host_stats_add(const struct lsk_stack *s, struct lsk_stats *out)
{
	struct lsk_host_counts c;

	if (s->host == NULL || s->host->host == NULL)
		return;
	lsk_host_counts_read(s->host->host, &c);
	out->host.ToKernel += c.to_kernel;
	out->host.Drops += c.drops;
	out->host.DropsThread += c.drops;
}

void
lsk_host_destroy(struct lsk_stack *s)
{
	struct lsk_host_ctl *hc = s->host;
	unsigned int i;

	if (hc == NULL)
		return;
	for (i = 0; i < LSK_MAX_IFACES; i++)
		host_tap_close(hc, i);
	host_table_free(s->sh.host);
	s->sh.host = NULL;
	/* the thread's counts stay in the stack's own until it goes */
	lsk_host_stats_add(s, &s->ctl_stats);
	lsk_host_free(hc->host);
	free(hc);
	s->host = NULL;
}
