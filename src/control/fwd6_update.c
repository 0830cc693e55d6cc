/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 route changes without building the forwarding table whole, as
 * IPv4's (control/fwd_update.c): Debian's DPDK 22.11 has no RCU helper
 * for rte_fib6, so the stack keeps two IPv6 tables with the same
 * content, the one the workers read (s->sh.fwd6) and a standby no worker
 * can see. A change is made to the standby, which is published (release
 * store, then an RCU grace period); the table it replaced, which no
 * worker can read any more, gets the same change and becomes the
 * standby. Each table has its own next hop array (and ECMP group words),
 * so a next hop appended for a change is never one a worker is reading.
 *
 * What cannot be made in place (no standby, a change that touches a
 * connected prefix or one of our /128s, a FIB whose tbl8 reserve or next
 * hop array is full) builds a table whole, sized for what it holds; other
 * changes (addresses, neighbours, ports) always do.
 */
#include <errno.h>

#include "core/fwd6.h"
#include "control/control.h"

/* a table this big keeps a standby from its build on, so that the first
 * change made one at a time does not build it (IPv4's: 4096 too) */
#define FWD6_STANDBY_ROUTES 4096

static int
delta6_apply(struct lsk_stack *s, struct lsk_fwd6_table *t,
	     const struct lsk_route6_delta *d, bool undo)
{
	bool set = undo ? d->before_set : d->now_set;
	const struct lsk_route6 *r = undo ? &d->before : &d->now;
	const struct lsk_route6 *key = d->now_set ? &d->now : &d->before;

	if (set)
		return lsk_fwd6_route_set(s, t, r);
	return lsk_fwd6_route_unset(t, &key->prefix, key->depth);
}

/*
 * Make d[0..n) to t, which no worker sees; on a failure the changes made
 * are undone (deleting what was added, or putting back what was deleted
 * or replaced, which takes the reserve it had) and t is as it was: 0 or
 * a negative errno. Undoing cannot fail but for a bug: t is then dropped.
 */
static int
table6_apply(struct lsk_stack *s, struct lsk_fwd6_table **tp,
	     const struct lsk_route6_delta *d, unsigned int n)
{
	struct lsk_fwd6_table *t = *tp;
	unsigned int i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++)
		rc = delta6_apply(s, t, &d[i], false);
	if (rc == 0)
		return 0;
	for (i--; i-- > 0;) {
		if (delta6_apply(s, t, &d[i], true) < 0) {
			lsk_fwd6_table_free(t);
			*tp = NULL;
			break;
		}
	}
	return rc;
}

static bool
deltas6_isolated(const struct lsk_stack *s, const struct lsk_route6_delta *d,
		 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct lsk_route6 *r = d[i].now_set ? &d[i].now :
							    &d[i].before;

		if (!lsk_fwd6_route_isolated(s, &r->prefix, r->depth))
			return false;
	}
	return true;
}

/* A new standby, when one is wanted; none when it cannot be built. */
static void
standby6_build(struct lsk_stack *s)
{
	if (!s->fwd6_keep_standby &&
	    s->n_routes6 + s->n_learned6 < FWD6_STANDBY_ROUTES)
		return;
	if (lsk_fwd6_table_build(s, &s->fwd6_standby) < 0)
		s->fwd6_standby = NULL;
}

/* Publish t; returns the table it replaced, which no worker reads now. */
static struct lsk_fwd6_table *
fwd6_swap(struct lsk_stack *s, struct lsk_fwd6_table *t)
{
	struct lsk_fwd6_table *old = s->sh.fwd6;

	__atomic_store_n(&s->sh.fwd6, t, __ATOMIC_RELEASE);
	lsk_fwd_grace_period(s);
	return old;
}

void
lsk_fwd6_standby_free(struct lsk_stack *s)
{
	lsk_fwd6_table_free(s->fwd6_standby);
	s->fwd6_standby = NULL;
}

void
lsk_fwd6_publish(struct lsk_stack *s, struct lsk_fwd6_table *t)
{
	/* the standby is no worker's: it goes at once */
	lsk_fwd6_standby_free(s);
	lsk_fwd6_table_free(fwd6_swap(s, t));
	standby6_build(s);
}

int
lsk_fwd6_routes_apply(struct lsk_stack *s, const struct lsk_route6_delta *d,
		      unsigned int n, bool whole)
{
	struct lsk_fwd6_table *next, *old;
	bool isolated;
	int rc = -EAGAIN;

	if (n == 0)
		return 0;
	s->fwd6_keep_standby = true;
	isolated = deltas6_isolated(s, d, n);
	next = s->fwd6_standby;
	if (next != NULL && isolated) {
		rc = table6_apply(s, &s->fwd6_standby, d, n);
		if (rc == 0) {
			s->fwd6_standby = NULL;
			next->generation = ++s->fib6_generation;
		}
	}
	if (rc < 0) {
		if (!whole)
			return -EAGAIN;
		rc = lsk_fwd6_table_build(s, &next);
		if (rc < 0)
			return rc;
		lsk_fwd6_standby_free(s);
	}
	/* the table the workers read was the configuration before d */
	old = fwd6_swap(s, next);
	if (isolated && table6_apply(s, &old, d, n) == 0) {
		s->fwd6_standby = old;
		return 0;
	}
	lsk_fwd6_table_free(old);
	standby6_build(s);
	return 0;
}
