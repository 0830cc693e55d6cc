/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 route changes without building the forwarding table whole:
 * IPv6's side of the standby scheme (control/standby.c), as IPv4's
 * (control/fwd_update.c). Debian's DPDK 22.11 has no RCU helper for
 * rte_fib6, so the stack keeps two IPv6 tables with the same content,
 * the one the workers read (s->sh.fwd6) and a standby no worker can see
 * (s->fwd6_standby). A change is made to the standby, which is
 * published; the table it replaced gets the same change and becomes the
 * standby. Each has its own next hop array (and ECMP group words).
 *
 * What cannot be made in place (no standby, a change that touches a
 * connected prefix or one of our /128s, a FIB whose tbl8 reserve or next
 * hop array is full: control/fwd6_table.c) builds a table whole.
 */
#include <errno.h>

#include "core/fwd6.h"
#include "control/control.h"
#include "control/standby.h"

/* a table this big keeps a standby from its build on, so that the first
 * change made one at a time does not build it (IPv4's: 4096 too) */
#define FWD6_STANDBY_ROUTES 4096

static int
delta6_apply(struct lsk_stack *s, void *t, const void *dv, bool undo)
{
	const struct lsk_route6_delta *d = dv;
	bool set = undo ? d->before_set : d->now_set;
	const struct lsk_route6 *r = undo ? &d->before : &d->now;
	const struct lsk_route6 *key = d->now_set ? &d->now : &d->before;

	if (set)
		return lsk_fwd6_route_set(s, t, r);
	return lsk_fwd6_route_unset(t, &key->prefix, key->depth);
}

static bool
delta6_isolated(const struct lsk_stack *s, const void *dv)
{
	const struct lsk_route6_delta *d = dv;
	const struct lsk_route6 *r = d->now_set ? &d->now : &d->before;

	return lsk_fwd6_route_isolated(s, &r->prefix, r->depth);
}

static int
fwd6_build(struct lsk_stack *s, void **out)
{
	struct lsk_fwd6_table *t;
	int rc = lsk_fwd6_table_build(s, &t);

	if (rc == 0)
		*out = t;
	return rc;
}

static void
fwd6_free(void *t)
{
	lsk_fwd6_table_free(t);
}

static void *
fwd6_get(const struct lsk_stack *s, bool published)
{
	return published ? s->sh.fwd6 : s->fwd6_standby;
}

static void
fwd6_set(struct lsk_stack *s, bool published, void *t)
{
	if (published)
		__atomic_store_n(&s->sh.fwd6, (struct lsk_fwd6_table *)t,
				 __ATOMIC_RELEASE);
	else
		s->fwd6_standby = t;
}

static void
fwd6_renamed(struct lsk_stack *s, void *t)
{
	((struct lsk_fwd6_table *)t)->generation = ++s->fib6_generation;
}

static bool
fwd6_wanted(const struct lsk_stack *s)
{
	return s->fwd6_keep_standby ||
	       s->n_routes6 + s->n_learned6 >= FWD6_STANDBY_ROUTES;
}

static void
fwd6_keep(struct lsk_stack *s)
{
	s->fwd6_keep_standby = true;
}

static const struct lsk_standby_ops fwd6_ops = {
	.delta_size = sizeof(struct lsk_route6_delta),
	.apply = delta6_apply,
	.isolated = delta6_isolated,
	.build = fwd6_build,
	.free = fwd6_free,
	.get = fwd6_get,
	.set = fwd6_set,
	.renamed = fwd6_renamed,
	.wanted = fwd6_wanted,
	.keep = fwd6_keep,
};

void
lsk_fwd6_standby_free(struct lsk_stack *s)
{
	lsk_fwd6_table_free(s->fwd6_standby);
	s->fwd6_standby = NULL;
}

void
lsk_fwd6_publish(struct lsk_stack *s, struct lsk_fwd6_table *t)
{
	lsk_standby_publish(s, &fwd6_ops, t);
}

int
lsk_fwd6_routes_apply(struct lsk_stack *s, const struct lsk_route6_delta *d,
		      unsigned int n, bool whole)
{
	return lsk_standby_apply(s, &fwd6_ops, d, n, whole);
}
