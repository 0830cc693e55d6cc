/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The standby scheme both families' forwarding tables use
 * (control/standby.c): two tables with the same content, the one the
 * workers read and a standby no worker can see. A route change is made
 * to the standby, which is published (release store, then an RCU grace
 * period); the table it replaced gets the same change and becomes the
 * standby. A family says how through its ops: IPv4's in
 * control/fwd_update.c, IPv6's in control/fwd6_update.c.
 */
#ifndef LSK_CONTROL_STANDBY_H
#define LSK_CONTROL_STANDBY_H

#include <stdbool.h>
#include <stddef.h>

struct lsk_stack;

struct lsk_standby_ops {
	size_t delta_size;	/* a route delta of the family's */
	/* delta d (undo: its inverse) made to t, a table no worker sees:
	 * a failure leaves t as it was */
	int (*apply)(struct lsk_stack *s, void *t, const void *d, bool undo);
	/* d touches no entry a build adds besides its route's */
	bool (*isolated)(const struct lsk_stack *s, const void *d);
	int (*build)(struct lsk_stack *s, void **out);
	void (*free)(void *t);
	/* the table the workers read (published) or the standby; set one
	 * (the published one by a release store) */
	void *(*get)(const struct lsk_stack *s, bool published);
	void (*set)(struct lsk_stack *s, bool published, void *t);
	/* t, made in place, is a new table: its generation */
	void (*renamed)(struct lsk_stack *s, void *t);
	/* a standby is kept (keep: from now on, a change was made alone) */
	bool (*wanted)(const struct lsk_stack *s);
	void (*keep)(struct lsk_stack *s);
};

/* Wait until every worker has passed a quiescent state since now,
 * sleeping between checks. */
void lsk_fwd_grace_period(struct lsk_stack *s);
/* Hand t, built whole, to the workers; the standby is built anew (none
 * when it cannot be). Cannot fail. */
void lsk_standby_publish(struct lsk_stack *s, const struct lsk_standby_ops *o,
			 void *t);
/* Make route deltas d[0..n) to the tables (control/routes.h's
 * lsk_fwd_routes_apply says how, and what a failure leaves). */
int lsk_standby_apply(struct lsk_stack *s, const struct lsk_standby_ops *o,
		      const void *d, unsigned int n, bool whole);

#endif /* LSK_CONTROL_STANDBY_H */
