/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route changes without building the forwarding table whole. The stack
 * keeps two tables with the same content: the one the workers read
 * (s->sh.fwd) and a standby no worker can see. A change is made to the
 * standby, which is published (release store, then an RCU grace period);
 * the table it replaced, which no worker can read any more, gets the same
 * change and becomes the standby. Each table has its own next hop array,
 * so a next hop appended for a change is never one a worker is reading.
 *
 * What cannot be made in place (no standby, a change that touches the
 * neighbour or local entries a build adds, a FIB or next hop array that
 * is full) builds a table whole, sized for what it holds; other changes
 * (addresses, neighbours, ports) always do.
 */
#include <errno.h>
#include <time.h>

#include <rte_pause.h>
#include <rte_rcu_qsbr.h>

#include "core/fwd.h"
#include "control/control.h"

/* a table this big keeps a standby from its build on, so that the first
 * change made one at a time does not build it */
#define FWD_STANDBY_ROUTES 4096

static int
delta_apply(struct lsk_stack *s, struct lsk_fwd_table *t,
	    const struct lsk_route_delta *d, bool undo)
{
	bool set = undo ? d->before_set : d->now_set;
	const struct lsk_route *r = undo ? &d->before : &d->now;
	const struct lsk_route *key = d->now_set ? &d->now : &d->before;

	if (set)
		return lsk_fwd_route_set(s, t, r);
	return lsk_fwd_route_unset(t, key->prefix, key->depth);
}

/*
 * Make d[0..n) to t, which no worker sees; on a failure the changes made
 * are undone (deleting what was added, or putting back what was deleted
 * or replaced, which takes the room it had) and t is as it was: 0 or a
 * negative errno. Undoing cannot fail but for a bug: t is then dropped.
 */
static int
table_apply(struct lsk_stack *s, struct lsk_fwd_table **tp,
	    const struct lsk_route_delta *d, unsigned int n)
{
	struct lsk_fwd_table *t = *tp;
	unsigned int i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++)
		rc = delta_apply(s, t, &d[i], false);
	if (rc == 0)
		return 0;
	for (i--; i-- > 0;) {
		if (delta_apply(s, t, &d[i], true) < 0) {
			lsk_fwd_table_free(t);
			*tp = NULL;
			break;
		}
	}
	return rc;
}

static bool
deltas_isolated(const struct lsk_stack *s, const struct lsk_route_delta *d,
		unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct lsk_route *r = d[i].now_set ? &d[i].now :
							   &d[i].before;

		if (!lsk_fwd_route_isolated(s, r->prefix, r->depth))
			return false;
	}
	return true;
}

/* A new standby, when one is wanted; none when it cannot be built. */
static void
standby_build(struct lsk_stack *s)
{
	if (!s->fwd_keep_standby && s->n_routes < FWD_STANDBY_ROUTES)
		return;
	if (lsk_fwd_table_build(s, &s->fwd_standby) < 0)
		s->fwd_standby = NULL;
}

/*
 * Wait for a grace period without holding the CPU: a worker reports once
 * per burst, so a short spin sees most; after it, sleep between checks.
 * The control thread often shares its CPU with something that matters
 * (the generator of route-churn, a feed): a spinning wait for a worker
 * that was descheduled would take that CPU for the whole of it. IPv6's
 * standby (control/fwd6_update.c) waits with it too.
 */
void
lsk_fwd_grace_period(struct lsk_stack *s)
{
	const struct timespec nap = { .tv_nsec = 20000 };
	uint64_t token = rte_rcu_qsbr_start(s->sh.qsbr);
	unsigned int i;

	for (i = 0; i < 256; i++) {
		if (rte_rcu_qsbr_check(s->sh.qsbr, token, false))
			return;
		rte_pause();
	}
	while (!rte_rcu_qsbr_check(s->sh.qsbr, token, false))
		nanosleep(&nap, NULL);
}

/* Publish t; returns the table it replaced, which no worker reads now. */
static struct lsk_fwd_table *
fwd_swap(struct lsk_stack *s, struct lsk_fwd_table *t)
{
	struct lsk_fwd_table *old = s->sh.fwd;

	__atomic_store_n(&s->sh.fwd, t, __ATOMIC_RELEASE);
	lsk_fwd_grace_period(s);
	return old;
}

void
lsk_fwd_publish(struct lsk_stack *s, struct lsk_fwd_table *t)
{
	/* the standby is no worker's: it goes at once */
	lsk_fwd_table_free(s->fwd_standby);
	s->fwd_standby = NULL;
	lsk_fwd_table_free(fwd_swap(s, t));
	standby_build(s);
}

int
lsk_fwd_routes_apply(struct lsk_stack *s, const struct lsk_route_delta *d,
		     unsigned int n, bool whole)
{
	struct lsk_fwd_table *next, *old;
	bool isolated;
	int rc = -EAGAIN;

	if (n == 0)
		return 0;
	s->fwd_keep_standby = true;
	isolated = deltas_isolated(s, d, n);
	next = s->fwd_standby;
	if (next != NULL && isolated) {
		rc = table_apply(s, &s->fwd_standby, d, n);
		if (rc == 0) {
			s->fwd_standby = NULL;
			next->generation = ++s->fib_generation;
		}
	}
	if (rc < 0) {
		if (!whole)
			return -EAGAIN;
		rc = lsk_fwd_table_build(s, &next);
		if (rc < 0)
			return rc;
		lsk_fwd_table_free(s->fwd_standby);
		s->fwd_standby = NULL;
	}
	/* the table the workers read was the configuration before d */
	old = fwd_swap(s, next);
	if (isolated && table_apply(s, &old, d, n) == 0) {
		s->fwd_standby = old;
		return 0;
	}
	lsk_fwd_table_free(old);
	standby_build(s);
	return 0;
}
