/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route changes without building a forwarding table whole, for either
 * family (control/standby.h; the tables: control/fwd_update.c for
 * IPv4's, control/fwd6_update.c for IPv6's). Each table has its own next
 * hop array, so a next hop appended for a change is never one a worker
 * is reading.
 *
 * What cannot be made in place (no standby, a change that touches an
 * entry a build adds besides its route's, a FIB or next hop array that
 * is full) builds a table whole, sized for what it holds; other changes
 * (addresses, neighbours, ports) always do.
 */
#include <errno.h>
#include <time.h>

#include <rte_pause.h>
#include <rte_rcu_qsbr.h>

#include "control/control.h"
#include "control/standby.h"

static const void *
delta_at(const struct lsk_standby_ops *o, const void *d, unsigned int i)
{
	return (const char *)d + (size_t)i * o->delta_size;
}

/*
 * Make d[0..n) to *tp, which no worker sees; on a failure the changes
 * made are undone (deleting what was added, or putting back what was
 * deleted or replaced, which takes the room it had) and the table is as
 * it was: 0 or a negative errno. Undoing cannot fail but for a bug: the
 * table is then dropped (*tp NULL).
 */
static int
table_apply(struct lsk_stack *s, const struct lsk_standby_ops *o, void **tp,
	    const void *d, unsigned int n)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++)
		rc = o->apply(s, *tp, delta_at(o, d, i), false);
	if (rc == 0)
		return 0;
	for (i--; i-- > 0;) {
		if (o->apply(s, *tp, delta_at(o, d, i), true) < 0) {
			o->free(*tp);
			*tp = NULL;
			break;
		}
	}
	return rc;
}

static bool
deltas_isolated(const struct lsk_stack *s, const struct lsk_standby_ops *o,
		const void *d, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!o->isolated(s, delta_at(o, d, i)))
			return false;
	return true;
}

/* A new standby, when one is wanted; none when it cannot be built. */
static void
standby_build(struct lsk_stack *s, const struct lsk_standby_ops *o)
{
	void *t;

	if (o->wanted(s) && o->build(s, &t) == 0)
		o->set(s, false, t);
}

/*
 * Wait for a grace period without holding the CPU: a worker reports once
 * per burst, so a short spin sees most; after it, sleep between checks.
 * The control thread often shares its CPU with something that matters
 * (the generator of route-churn, a feed): a spinning wait for a worker
 * that was descheduled would take that CPU for the whole of it.
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
static void *
table_swap(struct lsk_stack *s, const struct lsk_standby_ops *o, void *t)
{
	void *old = o->get(s, true);

	o->set(s, true, t);
	lsk_fwd_grace_period(s);
	return old;
}

void
lsk_standby_publish(struct lsk_stack *s, const struct lsk_standby_ops *o,
		    void *t)
{
	/* the standby is no worker's: it goes at once */
	o->free(o->get(s, false));
	o->set(s, false, NULL);
	o->free(table_swap(s, o, t));
	standby_build(s, o);
}

int
lsk_standby_apply(struct lsk_stack *s, const struct lsk_standby_ops *o,
		  const void *d, unsigned int n, bool whole)
{
	void *next, *old;
	bool isolated;
	int rc = -EAGAIN;

	if (n == 0)
		return 0;
	o->keep(s);
	isolated = deltas_isolated(s, o, d, n);
	next = o->get(s, false);
	if (next != NULL && isolated) {
		rc = table_apply(s, o, &next, d, n);
		o->set(s, false, rc == 0 ? NULL : next);
		if (rc == 0)
			o->renamed(s, next);
	}
	if (rc < 0) {
		if (!whole)
			return -EAGAIN;
		rc = o->build(s, &next);
		if (rc < 0)
			return rc;
		o->free(o->get(s, false));
		o->set(s, false, NULL);
	}
	/* the table the workers read was the configuration before d */
	old = table_swap(s, o, next);
	if (isolated && table_apply(s, o, &old, d, n) == 0) {
		o->set(s, false, old);
		return 0;
	}
	o->free(old);
	standby_build(s, o);
	return 0;
}
