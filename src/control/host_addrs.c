/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path's TAPs carry the interfaces' addresses (IPv4, and IPv6's
 * configured ones): reconciled as control/host_ctl.c reconciles the
 * TAPs, what was put on a TAP compared with what the configuration
 * wants, the gone ones removed first, only the difference made.
 */
#include <string.h>

#include "host/host.h"
#include "control/control.h"
#include "control/host_tap.h"

static bool
host_addr_wanted(const struct lsk_stack *s, const struct lsk_host_addr *a)
{
	unsigned int k;

	for (k = 0; k < s->n_addrs; k++)
		if (s->addrs[k].addr == a->addr &&
		    s->addrs[k].depth == a->depth && s->addrs[k].port == a->iface)
			return true;
	return false;
}

static bool
host_addr_made(const struct lsk_host_ctl *hc, const struct lsk_ifaddr *a)
{
	unsigned int k;

	for (k = 0; k < hc->n_addrs; k++)
		if (hc->addrs[k].addr == a->addr &&
		    hc->addrs[k].depth == a->depth &&
		    hc->addrs[k].iface == a->port)
			return true;
	return false;
}

/* The TAPs' addresses as the interfaces': the gone ones first. */
int
lsk_host_addrs_follow(struct lsk_stack *s, struct lsk_host_ctl *hc)
{
	unsigned int k, n = 0;
	int rc = 0, r;

	for (k = 0; k < hc->n_addrs; k++) {
		const struct lsk_host_addr *a = &hc->addrs[k];

		if (host_addr_wanted(s, a) && hc->taps[a->iface].fd >= 0) {
			hc->addrs[n++] = *a;
			continue;
		}
		if (hc->taps[a->iface].fd >= 0)
			lsk_tap_addr(hc->taps[a->iface].ifindex, a->addr,
				     a->depth, false);
	}
	hc->n_addrs = n;
	for (k = 0; k < s->n_addrs; k++) {
		const struct lsk_ifaddr *a = &s->addrs[k];

		if (a->port >= LSK_MAX_IFACES || hc->taps[a->port].fd < 0 ||
		    host_addr_made(hc, a) || hc->n_addrs == LSK_MAX_ADDRS)
			continue;
		r = lsk_tap_addr(hc->taps[a->port].ifindex, a->addr, a->depth,
				 true);
		if (r < 0) {
			rc = rc ? rc : r;
			continue;
		}
		hc->addrs[hc->n_addrs++] = (struct lsk_host_addr){
			.iface = a->port, .depth = a->depth, .addr = a->addr };
	}
	return rc;
}

static bool
host_addr6_same(const struct lsk_ifaddr6 *a, const struct lsk_ifaddr6 *b)
{
	return a->iface == b->iface && a->depth == b->depth &&
	       memcmp(&a->addr, &b->addr, sizeof(a->addr)) == 0;
}

static bool
host_addr6_in(const struct lsk_ifaddr6 *a, const struct lsk_ifaddr6 *set,
	      unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (host_addr6_same(a, &set[k]))
			return true;
	return false;
}

/* The TAPs' IPv6 addresses as the interfaces' configured ones (the
 * automatic link-local one is the kernel's own, from the same MAC): the
 * gone ones first. */
int
lsk_host_addrs6_follow(struct lsk_stack *s, struct lsk_host_ctl *hc)
{
	unsigned int k, n = 0;
	int rc = 0, r;

	for (k = 0; k < hc->n_addrs6; k++) {
		const struct lsk_ifaddr6 *a = &hc->addrs6[k];
		const struct lsk_host_tap *t = &hc->taps[a->iface];

		if (host_addr6_in(a, s->addrs6, s->n_addrs6) && t->fd >= 0) {
			hc->addrs6[n++] = *a;
			continue;
		}
		if (t->fd >= 0)
			lsk_tap_addr6(t->ifindex, a->addr.a, a->depth, false);
	}
	hc->n_addrs6 = n;
	for (k = 0; k < s->n_addrs6; k++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[k];

		if (a->iface >= LSK_MAX_IFACES || hc->taps[a->iface].fd < 0 ||
		    host_addr6_in(a, hc->addrs6, hc->n_addrs6) ||
		    hc->n_addrs6 == LSK_MAX_ADDRS6)
			continue;
		r = lsk_tap_addr6(hc->taps[a->iface].ifindex, a->addr.a,
				  a->depth, true);
		if (r < 0) {
			rc = rc ? rc : r;
			continue;
		}
		hc->addrs6[hc->n_addrs6++] = *a;
	}
	return rc;
}
