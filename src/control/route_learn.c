/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Learned routes (listack/route.h): what a routing daemon gives, kept
 * apart from the configured routes (s->learned and its index, as
 * route_table.c keeps s->routes), so that a configured route of the same
 * (prefix, depth) stands in front of a learned one, which waits and takes
 * its place when it goes (route_table.c makes those two changes).
 *
 * A run is made to the store entry by entry; what changes the FIB is
 * gathered as deltas and made to the forwarding tables in place, at most
 * LEARN_STEP at a time (lsk_fwd_routes_apply: one publication per step).
 * A step the tables cannot take (no memory for a table built whole) puts
 * the store back as the step found it, from the step's own log.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash.h>

#include "core/fwd.h"
#include "control/control.h"

/* route changes published at once: a million routes in ~128 steps */
#define LEARN_STEP 8192

/* What one entry changed in the store, to put it back. */
struct learn_undo {
	struct lsk_route old;	/* the route before (had) */
	uint32_t prefix;
	uint8_t depth;
	bool had;
};

struct learn_run {
	struct lsk_stack *s;
	struct lsk_route_delta *d;
	struct learn_undo *u;
	unsigned int n_d, n_u;
	int skipped;
};

static int
learn_pos(const struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	uint64_t key = lsk_route_key(prefix, depth);
	void *data;

	if (s->learn_index == NULL ||
	    rte_hash_lookup_data(s->learn_index, &key, &data) < 0)
		return -1;
	return (int)(uintptr_t)data;
}

const struct lsk_route *
lsk_learned_find(const struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	int i = learn_pos(s, prefix, depth);

	return i < 0 ? NULL : &s->learned[i];
}

void
lsk_route_learn_free(struct lsk_stack *s)
{
	rte_hash_free(s->learn_index);
	s->learn_index = NULL;
	free(s->learned);
	s->learned = NULL;
	s->n_learned = s->learned_cap = 0;
}

/* Room for more routes in the list and its index (so that the store's
 * changes of a run cannot fail). */
static int
learn_room(struct lsk_stack *s, unsigned int more)
{
	int rc = lsk_array_room((void **)&s->learned, &s->learned_cap,
				s->n_learned, more, sizeof(*s->learned), 1024);

	if (rc < 0)
		return rc;
	return lsk_route_index_room(s, &s->learn_index, "lr", s->learned,
				    s->n_learned, more);
}

static void
store_put(struct lsk_stack *s, const struct lsk_route *r)
{
	uint64_t key = lsk_route_key(r->prefix, r->depth);
	int i = learn_pos(s, r->prefix, r->depth);

	if (i >= 0) {
		lsk_pset_unref(s, s->learned[i].pset);
		s->learned[i] = *r;
		return;
	}
	/* learn_room made room for it */
	rte_hash_add_key_data(s->learn_index, &key,
			      (void *)(uintptr_t)s->n_learned);
	s->learned[s->n_learned++] = *r;
}

/* Out of the store: the last takes its place. */
static void
store_del(struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	uint64_t key = lsk_route_key(prefix, depth);
	int i = learn_pos(s, prefix, depth);
	unsigned int last = s->n_learned - 1;

	if (i < 0)
		return;
	lsk_pset_unref(s, s->learned[i].pset);
	rte_hash_del_key(s->learn_index, &key);
	if ((unsigned int)i != last) {
		s->learned[i] = s->learned[last];
		key = lsk_route_key(s->learned[i].prefix, s->learned[i].depth);
		rte_hash_add_key_data(s->learn_index, &key,
				      (void *)(uintptr_t)i);
	}
	s->n_learned--;
}

/* The route r changes (prefix, depth) from old (had) to now (set); a
 * delta for the tables unless a configured route stands in front. */
static void
run_note(struct learn_run *run, const struct lsk_route *old, bool had,
	 const struct lsk_route *now, bool set)
{
	const struct lsk_route *k = set ? now : old;
	struct learn_undo *u = &run->u[run->n_u++];

	u->prefix = k->prefix;
	u->depth = k->depth;
	u->had = had;
	if (had) {
		u->old = *old;
		lsk_pset_ref(run->s, old->pset);	/* the log holds it */
	}
	if (lsk_route_find(run->s, k->prefix, k->depth) != NULL)
		return;
	run->d[run->n_d++] = (struct lsk_route_delta){
		.before = had ? *old : (struct lsk_route){ 0 },
		.now = set ? *now : (struct lsk_route){ 0 },
		.before_set = had, .now_set = set };
}

static bool
route_same(const struct lsk_route *a, const struct lsk_route *b)
{
	return a->type == b->type && a->gateway == b->gateway &&
	       a->iface == b->iface && a->pset == b->pset &&
	       a->proto == b->proto;
}

/* Entry e into the store (and the run's log): false when it is skipped. */
static bool
learn_one(struct learn_run *run, const struct lsk_route_learned *e)
{
	struct lsk_stack *s = run->s;
	struct lsk_route now, *cur;
	int i = learn_pos(s, e->prefix, e->depth);
	unsigned int n = e->type == LSK_ROUTE_VIA ? e->n_paths : 0;

	if (e->withdraw) {
		if (i < 0)
			return false;
		run_note(run, &s->learned[i], true, NULL, false);
		store_del(s, e->prefix, e->depth);
		return true;
	}
	if (lsk_route_check(s, e->prefix, e->depth,
			    (enum lsk_route_type)e->type, e->paths, n) < 0 ||
	    lsk_route_make(s, e->prefix, e->depth,
			   (enum lsk_route_type)e->type, e->paths, n,
			   &now) < 0)
		return false;
	now.proto = e->proto;
	cur = i >= 0 ? &s->learned[i] : NULL;
	if (cur != NULL && route_same(cur, &now)) {
		cur->stale = 0;		/* repeated by a dump: kept as is */
		lsk_pset_unref(s, now.pset);
		return true;
	}
	run_note(run, cur, cur != NULL, &now, true);
	store_put(s, &now);
	return true;
}

/* The log's references go (a step done, or put back). */
static void
run_forget(struct learn_run *run)
{
	unsigned int i;

	for (i = 0; i < run->n_u; i++)
		if (run->u[i].had)
			lsk_pset_unref(run->s, run->u[i].old.pset);
	run->n_u = run->n_d = 0;
}

/* The step's changes to the store undone, last first. */
static void
run_undo(struct learn_run *run)
{
	struct lsk_stack *s = run->s;
	unsigned int i = run->n_u;

	while (i-- > 0) {
		const struct learn_undo *u = &run->u[i];

		if (u->had) {
			lsk_pset_ref(s, u->old.pset);
			store_put(s, &u->old);
		} else {
			store_del(s, u->prefix, u->depth);
		}
	}
	run_forget(run);
}

static int
run_publish(struct learn_run *run)
{
	int rc = lsk_fwd_routes_apply(run->s, run->d, run->n_d, true);

	if (rc < 0)
		run_undo(run);
	else
		run_forget(run);
	return rc;
}

int
lsk_route_learn(struct lsk_stack *s, const struct lsk_route_learned *r,
		unsigned int n)
{
	unsigned int step = RTE_MIN(n, (unsigned int)LEARN_STEP);
	struct learn_run run = { .s = s };
	unsigned int i;
	int rc = 0;

	if (s == NULL || (r == NULL && n != 0))
		return -EINVAL;
	if (s->in_batch)
		return -EBUSY;
	if (n == 0)
		return 0;
	rc = learn_room(s, n);
	if (rc < 0)
		return rc;
	run.d = malloc(step * sizeof(*run.d));
	run.u = malloc(step * sizeof(*run.u));
	if (run.d == NULL || run.u == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (!learn_one(&run, &r[i]))
			run.skipped++;
		if (run.n_u == step)
			rc = run_publish(&run);
	}
	if (rc == 0)
		rc = run_publish(&run);
out:
	free(run.d);
	free(run.u);
	s->learn_skipped += (uint64_t)run.skipped;
	return rc < 0 ? rc : run.skipped;
}

void
lsk_route_learn_begin_dump(struct lsk_stack *s)
{
	unsigned int i;

	for (i = 0; i < s->n_learned; i++)
		s->learned[i].stale = 1;
	lsk_route6_learn_mark_stale(s);
}

/* Withdraw the learned routes that are stale (all: every one). */
static int
learn_withdraw(struct lsk_stack *s, bool all)
{
	struct lsk_route_learned *w;
	unsigned int k = 0, i = s->n_learned;
	int done = 0, rc;

	if (s->in_batch)
		return -EBUSY;
	w = calloc(LEARN_STEP, sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	/* from the end: withdrawing moves only routes after i into the
	 * holes, and those were looked at */
	while (i-- > 0) {
		if (all || s->learned[i].stale) {
			w[k].prefix = s->learned[i].prefix;
			w[k].depth = s->learned[i].depth;
			w[k++].withdraw = 1;
		}
		if (k == LEARN_STEP || (i == 0 && k > 0)) {
			rc = lsk_route_learn(s, w, k);
			if (rc < 0) {
				free(w);
				return rc;
			}
			done += (int)k - rc;
			k = 0;
			i = RTE_MIN(i, s->n_learned);
		}
	}
	free(w);
	return done;
}

/* IPv4's, then IPv6's (control/route6_learn.c) */
static int
learn_withdraw_both(struct lsk_stack *s, bool all)
{
	int n4 = learn_withdraw(s, all), n6;

	if (n4 < 0)
		return n4;
	n6 = lsk_route6_learn_withdraw(s, all);
	return n6 < 0 ? n6 : n4 + n6;
}

int
lsk_route_learn_sweep(struct lsk_stack *s)
{
	return learn_withdraw_both(s, false);
}

int
lsk_route_learn_flush(struct lsk_stack *s)
{
	return learn_withdraw_both(s, true);
}
