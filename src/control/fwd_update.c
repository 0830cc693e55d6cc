/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route changes without building the forwarding table whole: IPv4's
 * side of the standby scheme (control/standby.c). The stack keeps two
 * tables with the same content: the one the workers read (s->sh.fwd)
 * and a standby no worker can see (s->fwd_standby). A change is made to
 * the standby, which is published; the table it replaced gets the same
 * change and becomes the standby.
 *
 * What cannot be made in place (no standby, a change that touches the
 * neighbour or local entries a build adds, a FIB or next hop array that
 * is full) builds a table whole, sized for what it holds.
 */
#include <errno.h>

#include "core/fwd.h"
#include "control/control.h"
#include "control/standby.h"

/* a table this big keeps a standby from its build on, so that the first
 * change made one at a time does not build it */
#define FWD_STANDBY_ROUTES 4096

static int
delta_apply(struct lsk_stack *s, void *t, const void *dv, bool undo)
{
	const struct lsk_route_delta *d = dv;
	bool set = undo ? d->before_set : d->now_set;
	const struct lsk_route *r = undo ? &d->before : &d->now;
	const struct lsk_route *key = d->now_set ? &d->now : &d->before;

	if (set)
		return lsk_fwd_route_set(s, t, r);
	return lsk_fwd_route_unset(t, key->prefix, key->depth);
}

static bool
delta_isolated(const struct lsk_stack *s, const void *dv)
{
	const struct lsk_route_delta *d = dv;
	const struct lsk_route *r = d->now_set ? &d->now : &d->before;

	return lsk_fwd_route_isolated(s, r->prefix, r->depth);
}

static int
fwd_build(struct lsk_stack *s, void **out)
{
	struct lsk_fwd_table *t;
	int rc = lsk_fwd_table_build(s, &t);

	if (rc == 0)
		*out = t;
	return rc;
}

static void
fwd_free(void *t)
{
	lsk_fwd_table_free(t);
}

static void *
fwd_get(const struct lsk_stack *s, bool published)
{
	return published ? s->sh.fwd : s->fwd_standby;
}

static void
fwd_set(struct lsk_stack *s, bool published, void *t)
{
	if (published)
		__atomic_store_n(&s->sh.fwd, (struct lsk_fwd_table *)t,
				 __ATOMIC_RELEASE);
	else
		s->fwd_standby = t;
}

static void
fwd_renamed(struct lsk_stack *s, void *t)
{
	((struct lsk_fwd_table *)t)->generation = ++s->fib_generation;
}

static bool
fwd_wanted(const struct lsk_stack *s)
{
	return s->fwd_keep_standby || s->n_routes >= FWD_STANDBY_ROUTES;
}

static void
fwd_keep(struct lsk_stack *s)
{
	s->fwd_keep_standby = true;
}

static const struct lsk_standby_ops fwd_ops = {
	.delta_size = sizeof(struct lsk_route_delta),
	.apply = delta_apply,
	.isolated = delta_isolated,
	.build = fwd_build,
	.free = fwd_free,
	.get = fwd_get,
	.set = fwd_set,
	.renamed = fwd_renamed,
	.wanted = fwd_wanted,
	.keep = fwd_keep,
};

void
lsk_fwd_publish(struct lsk_stack *s, struct lsk_fwd_table *t)
{
	lsk_standby_publish(s, &fwd_ops, t);
}

int
lsk_fwd_routes_apply(struct lsk_stack *s, const struct lsk_route_delta *d,
		     unsigned int n, bool whole)
{
	return lsk_standby_apply(s, &fwd_ops, d, n, whole);
}
