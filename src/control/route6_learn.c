/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6's learned routes (listack/ip6.h, IPv4's: control/route_learn.c):
 * what a routing daemon gives, kept apart from the configured routes
 * (s->learned6 and its index), so that a configured route of the same
 * (prefix, depth) stands in front of a learned one, which waits and
 * takes its place when it goes (control/fwd6_table.c leaves the learned
 * one out while a configured one is there).
 *
 * A run is made to the store entry by entry; what changes the FIB is
 * gathered as deltas and made to the forwarding tables in place, one
 * publication a run (lsk_fwd6_routes_apply, control/fwd6_update.c: a
 * table built whole when it cannot be). A run the tables cannot take
 * (no memory for a table built whole) puts the store back as it found
 * it, from the run's own log.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_hash_crc.h>

#include "listack/listack.h"
#include "core/fwd6.h"
#include "control/control.h"

/* the index's smallest size; it doubles when full */
#define LEARN6_INDEX_MIN 1024u

struct learn6_key {
	uint8_t a[16];
	uint8_t depth;
	uint8_t pad[3];
};

/* What one entry changed in the store, to put it back. */
struct learn6_undo {
	struct lsk_route6 old;	/* the route before (had) */
	struct lsk_ip6_addr prefix;
	uint8_t depth;
	bool had;
};

static struct learn6_key
learn6_key(const struct lsk_ip6_addr *prefix, uint8_t depth)
{
	struct learn6_key k;

	memset(&k, 0, sizeof(k));
	memcpy(k.a, prefix->a, sizeof(k.a));
	k.depth = depth;
	return k;
}

static int
learn6_pos(const struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
	   uint8_t depth)
{
	struct learn6_key key = learn6_key(prefix, depth);
	void *data;

	if (s->learn6_index == NULL ||
	    rte_hash_lookup_data(s->learn6_index, &key, &data) < 0)
		return -1;
	return (int)(uintptr_t)data;
}

const struct lsk_route6 *
lsk_learned6_find(const struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
		  uint8_t depth)
{
	int i = learn6_pos(s, prefix, depth);

	return i < 0 ? NULL : &s->learned6[i];
}

void
lsk_route6_learn_free(struct lsk_stack *s)
{
	rte_hash_free(s->learn6_index);
	s->learn6_index = NULL;
	free(s->learned6);
	s->learned6 = NULL;
	s->n_learned6 = s->learned6_cap = 0;
}

static struct rte_hash *
index6_create(const struct lsk_stack *s, uint32_t entries)
{
	struct rte_hash_parameters hp = { 0 };
	char name[64];

	/* unique: each index of a stack is bigger than the one before */
	snprintf(name, sizeof(name), "%.16s_lr6%u", s->name, entries);
	hp.name = name;
	hp.entries = entries;
	hp.key_len = sizeof(struct learn6_key);
	hp.hash_func = rte_hash_crc;
	hp.socket_id = s->sh.socket_id;
	/* full only when it holds `entries` keys, whatever their hashes */
	hp.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE;
	return rte_hash_create(&hp);
}

/* Room in the index for `more` more keys: a new one twice as big (or
 * more), filled from the list, when it has not. */
static int
index6_room(struct lsk_stack *s, unsigned int more)
{
	struct rte_hash *h = s->learn6_index;
	uint32_t size = h ? (uint32_t)rte_hash_max_key_id(h) + 1 : 0;
	uint32_t want = (h ? (uint32_t)rte_hash_count(h) : 0) + more;
	unsigned int i;

	if (want < size)
		return 0;
	size = RTE_MAX(2 * size, LEARN6_INDEX_MIN);
	while (size <= want)
		size *= 2;
	h = index6_create(s, size);
	if (h == NULL)
		return -ENOMEM;
	for (i = 0; i < s->n_learned6; i++) {
		struct learn6_key k = learn6_key(&s->learned6[i].prefix,
						 s->learned6[i].depth);

		if (rte_hash_add_key_data(h, &k, (void *)(uintptr_t)i) < 0) {
			rte_hash_free(h);
			return -ENOMEM;
		}
	}
	rte_hash_free(s->learn6_index);
	s->learn6_index = h;
	return 0;
}

/* Room for more routes in the list and its index (so that the store's
 * changes of a run cannot fail). */
static int
learn6_room(struct lsk_stack *s, unsigned int more)
{
	int rc = lsk_array_room((void **)&s->learned6, &s->learned6_cap,
				s->n_learned6, more, sizeof(*s->learned6),
				1024);

	if (rc < 0)
		return rc;
	return index6_room(s, more);
}

static void
store6_put(struct lsk_stack *s, const struct lsk_route6 *r)
{
	struct learn6_key key = learn6_key(&r->prefix, r->depth);
	int i = learn6_pos(s, &r->prefix, r->depth);

	if (i >= 0) {
		s->learned6[i] = *r;
		return;
	}
	/* learn6_room made room for it */
	rte_hash_add_key_data(s->learn6_index, &key,
			      (void *)(uintptr_t)s->n_learned6);
	s->learned6[s->n_learned6++] = *r;
}

/* Out of the store: the last takes its place. */
static void
store6_del(struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
	   uint8_t depth)
{
	struct learn6_key key = learn6_key(prefix, depth);
	int i = learn6_pos(s, prefix, depth);
	unsigned int last = s->n_learned6 - 1;

	if (i < 0)
		return;
	rte_hash_del_key(s->learn6_index, &key);
	if ((unsigned int)i != last) {
		s->learned6[i] = s->learned6[last];
		key = learn6_key(&s->learned6[i].prefix, s->learned6[i].depth);
		rte_hash_add_key_data(s->learn6_index, &key,
				      (void *)(uintptr_t)i);
	}
	s->n_learned6--;
}

/* The route an entry asks for (0), or why it cannot be taken: all its
 * paths, an ECMP group of them (control/fwd6_table.c). */
static int
learn6_make(const struct lsk_stack *s, const struct lsk_route6_learned *e,
	    struct lsk_route6 *r)
{
	int rc = lsk_route6_make(s, &e->prefix, e->depth,
				 (enum lsk_route_type)e->type, e->paths,
				 e->n_paths, r);

	if (rc < 0)
		return rc;
	r->proto = e->proto;
	return 0;
}

static bool
route6_same(const struct lsk_route6 *a, const struct lsk_route6 *b)
{
	return a->type == b->type && a->proto == b->proto &&
	       a->n_paths == b->n_paths &&
	       memcmp(a->paths, b->paths, a->n_paths * sizeof(a->paths[0])) ==
	       0;
}

/* A run: the store's changes (u, to put them back) and the tables' (d:
 * those no configured route stands in front of). */
struct learn6_run {
	struct learn6_undo *u;
	struct lsk_route6_delta *d;
	unsigned int n_u, n_d;
};

/* (prefix, depth) goes from old (had) to now (set): noted in the run. */
static void
run6_note(struct lsk_stack *s, struct learn6_run *run,
	  const struct lsk_route6 *old, bool had,
	  const struct lsk_route6 *now, bool set)
{
	const struct lsk_route6 *k = set ? now : old;
	struct learn6_undo *u = &run->u[run->n_u++];
	struct lsk_route6_delta *d;

	*u = (struct learn6_undo){ .prefix = k->prefix, .depth = k->depth,
				   .had = had };
	if (had)
		u->old = *old;
	if (lsk_route6_find(s, &k->prefix, k->depth) != NULL)
		return;
	d = &run->d[run->n_d++];
	memset(d, 0, sizeof(*d));
	if (had)
		d->before = *old;
	if (set)
		d->now = *now;
	d->before_set = had;
	d->now_set = set;
}

/* Entry e into the store, noted in run: false when it is skipped. */
static bool
learn6_one(struct lsk_stack *s, const struct lsk_route6_learned *e,
	   struct learn6_run *run)
{
	int i = learn6_pos(s, &e->prefix, e->depth);
	struct lsk_route6 now;

	if (e->withdraw) {
		if (i < 0)
			return false;
		run6_note(s, run, &s->learned6[i], true, NULL, false);
		store6_del(s, &e->prefix, e->depth);
		return true;
	}
	if (learn6_make(s, e, &now) < 0)
		return false;
	if (i >= 0 && route6_same(&s->learned6[i], &now)) {
		s->learned6[i].stale = 0;	/* repeated by a dump */
		return true;
	}
	run6_note(s, run, i >= 0 ? &s->learned6[i] : NULL, i >= 0, &now,
		  true);
	store6_put(s, &now);
	return true;
}

/* The run's changes to the store undone, last first. */
static void
learn6_undo(struct lsk_stack *s, const struct learn6_undo *u, unsigned int n)
{
	while (n-- > 0) {
		if (u[n].had)
			store6_put(s, &u[n].old);
		else
			store6_del(s, &u[n].prefix, u[n].depth);
	}
}

int
lsk_route6_learn(struct lsk_stack *s, const struct lsk_route6_learned *r,
		 unsigned int n)
{
	struct learn6_run run = { 0 };
	unsigned int i;
	int skipped = 0, rc;

	if (s == NULL || (r == NULL && n != 0))
		return -EINVAL;
	if (s->in_batch)
		return -EBUSY;
	if (n == 0)
		return 0;
	rc = learn6_room(s, n);
	if (rc < 0)
		return rc;
	run.u = malloc((size_t)n * sizeof(*run.u));
	run.d = malloc((size_t)n * sizeof(*run.d));
	if (run.u == NULL || run.d == NULL) {
		free(run.u);
		free(run.d);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (!learn6_one(s, &r[i], &run))
			skipped++;
	rc = lsk_fwd6_routes_apply(s, run.d, run.n_d, true);
	if (rc < 0)
		learn6_undo(s, run.u, run.n_u);
	free(run.u);
	free(run.d);
	if (rc < 0)
		return rc;
	s->learn_skipped += (uint64_t)skipped;
	return skipped;
}

void
lsk_route6_learn_mark_stale(struct lsk_stack *s)
{
	unsigned int i;

	for (i = 0; i < s->n_learned6; i++)
		s->learned6[i].stale = 1;
}

int
lsk_route6_learn_withdraw(struct lsk_stack *s, bool all)
{
	struct lsk_route6_learned *w;
	unsigned int k = 0, i;
	int done = 0, rc = 0;

	if (s->in_batch)
		return -EBUSY;
	if (s->n_learned6 == 0)
		return 0;
	w = calloc(s->n_learned6, sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	for (i = 0; i < s->n_learned6; i++) {
		if (!all && !s->learned6[i].stale)
			continue;
		w[k].prefix = s->learned6[i].prefix;
		w[k].depth = s->learned6[i].depth;
		w[k++].withdraw = 1;
	}
	/* one run: one table built */
	if (k > 0)
		rc = lsk_route6_learn(s, w, k);
	free(w);
	if (rc < 0)
		return rc;
	done = (int)k - rc;
	return done;
}
