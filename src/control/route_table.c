/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routes as the control thread is given them (the RIB side): the list
 * s->routes, its index by (prefix, depth) (an rte_hash whose data is the
 * route's place in the list, so that a route is found and deleted in
 * O(1): the last one takes its place), and the changes made to them. Each
 * change is made to the list first, then to the forwarding tables
 * (control/fwd_update.c); when those cannot take it, the list is put back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_fib.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_rib.h>

#include "core/fwd.h"
#include "l2/l2.h"
#include "control/control.h"

#define ROUTE_INDEX_MIN 1024

static uint64_t
route_key(uint32_t prefix, uint8_t depth)
{
	return lsk_route_key(prefix, depth);
}

static struct rte_hash *
index_create(const struct lsk_stack *s, const char *tag, uint32_t entries)
{
	struct rte_hash_parameters hp = { 0 };
	char name[64];

	/* unique: each index of a stack is bigger than the one before */
	snprintf(name, sizeof(name), "%.16s_%s%u", s->name, tag, entries);
	hp.name = name;
	hp.entries = entries;
	hp.key_len = sizeof(uint64_t);
	hp.hash_func = rte_hash_crc;
	hp.socket_id = s->sh.socket_id;
	/* full only when it holds `entries` keys, whatever their hashes */
	hp.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE;
	return rte_hash_create(&hp);
}

static int
index_fill(struct rte_hash *h, const struct lsk_route *routes, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t key = route_key(routes[i].prefix, routes[i].depth);
		int rc = rte_hash_add_key_data(h, &key, (void *)(uintptr_t)i);

		if (rc < 0)
			return rc;
	}
	return 0;
}

int
lsk_route_table_init(struct lsk_stack *s)
{
	s->route_index = index_create(s, "rt", RTE_MAX(s->max_routes,
						 (uint32_t)ROUTE_INDEX_MIN));
	return s->route_index ? 0 : -ENOMEM;
}

static void undo_forget(struct lsk_stack *s);

void
lsk_route_table_free(struct lsk_stack *s)
{
	rte_hash_free(s->route_index);
	s->route_index = NULL;
	free(s->routes);
	s->routes = NULL;
	lsk_route_learn_free(s);
	lsk_pset_free_all(s);
	lsk_fwd_table_free(s->fwd_standby);
	s->fwd_standby = NULL;
	undo_forget(s);
	free(s->route_undo);
	s->route_undo = NULL;
}

void
lsk_route_index_rebuild(struct lsk_stack *s)
{
	/* the index held these routes once: they fit */
	rte_hash_reset(s->route_index);
	index_fill(s->route_index, s->routes, s->n_routes);
}

/* Room in index *hp of routes[0..n) for `more` more: twice as big (or
 * more) when full. */
int
lsk_route_index_room(struct lsk_stack *s, struct rte_hash **hp,
		     const char *tag, const struct lsk_route *routes,
		     unsigned int n, unsigned int more)
{
	uint32_t size = *hp ? (uint32_t)rte_hash_max_key_id(*hp) + 1 : 0;
	uint32_t want = (*hp ? (uint32_t)rte_hash_count(*hp) : 0) + more;
	struct rte_hash *h;

	if (want < size)
		return 0;
	size = RTE_MAX(2 * size, (uint32_t)ROUTE_INDEX_MIN);
	while (size <= want)
		size *= 2;
	h = index_create(s, tag, size);
	if (h == NULL)
		return -ENOMEM;
	if (index_fill(h, routes, n) < 0) {
		rte_hash_free(h);
		return -ENOMEM;
	}
	rte_hash_free(*hp);
	*hp = h;
	return 0;
}

static int
index_room(struct lsk_stack *s)
{
	return lsk_route_index_room(s, &s->route_index, "rt", s->routes,
				    s->n_routes, 1);
}

static int
route_pos(const struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	uint64_t key = route_key(prefix, depth);
	void *data;

	if (rte_hash_lookup_data(s->route_index, &key, &data) < 0)
		return -1;
	return (int)(uintptr_t)data;
}

const struct lsk_route *
lsk_route_find(const struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	int i = route_pos(s, prefix, depth);

	/* a flush empties the list before its index (route_flush) */
	return i < 0 || (unsigned int)i >= s->n_routes ? NULL : &s->routes[i];
}

/*
 * In a batch every change to the list is noted, before it is made, so
 * that a batch that fails puts the list back by undoing them (stack.c's
 * copy of the configuration holds no routes: a command of one route
 * costs no copy of a million).
 */
enum { UNDO_ADD, UNDO_REPLACE, UNDO_DEL, UNDO_FLUSH };

/* Room for one more note (in a batch): 0 or -ENOMEM. */
static int
undo_room(struct lsk_stack *s)
{
	if (!s->in_batch)
		return 0;
	return lsk_array_grow((void **)&s->route_undo, &s->route_undo_cap,
			      s->n_route_undo, sizeof(*s->route_undo), 16);
}

static void
undo_note(struct lsk_stack *s, uint8_t op, unsigned int pos,
	  const struct lsk_route *r)
{
	if (!s->in_batch)
		return;
	s->route_undo[s->n_route_undo++] = (struct lsk_route_undo){
		.op = op, .pos = pos, .r = r ? *r : (struct lsk_route){ 0 } };
}

static void
index_set(struct lsk_stack *s, unsigned int i)
{
	uint64_t key = route_key(s->routes[i].prefix, s->routes[i].depth);

	/* the key was there before the batch: its room is there */
	rte_hash_add_key_data(s->route_index, &key, (void *)(uintptr_t)i);
}

static void
undo_one(struct lsk_stack *s, struct lsk_route_undo *u)
{
	unsigned int last = s->n_routes;
	uint64_t key;

	unsigned int i;

	/* each route put back holds its path set again, each taken out
	 * lets go (the sets stay interned through a batch: route_paths.c) */
	switch (u->op) {
	case UNDO_ADD:
		s->n_routes--;
		lsk_pset_unref(s, s->routes[s->n_routes].pset);
		key = route_key(s->routes[s->n_routes].prefix,
				s->routes[s->n_routes].depth);
		rte_hash_del_key(s->route_index, &key);
		break;
	case UNDO_REPLACE:
		lsk_pset_unref(s, s->routes[u->pos].pset);
		lsk_pset_ref(s, u->r.pset);
		s->routes[u->pos] = u->r;
		break;
	case UNDO_DEL:
		lsk_pset_ref(s, u->r.pset);
		/* the route that took its place goes back to the end */
		if (u->pos != last) {
			s->routes[last] = s->routes[u->pos];
			index_set(s, last);
		}
		s->routes[u->pos] = u->r;
		index_set(s, u->pos);
		s->n_routes++;
		break;
	default:
		if (u->n != 0)
			memcpy(s->routes, u->saved, u->n * sizeof(*s->routes));
		s->n_routes = u->n;
		for (i = 0; i < u->n; i++)
			lsk_pset_ref(s, s->routes[i].pset);
		lsk_route_index_rebuild(s);
		break;
	}
}

static void
undo_forget(struct lsk_stack *s)
{
	unsigned int i;

	for (i = 0; i < s->n_route_undo; i++)
		free(s->route_undo[i].saved);
	s->n_route_undo = 0;
}

void
lsk_route_batch_undo(struct lsk_stack *s)
{
	unsigned int i = s->n_route_undo;

	while (i-- > 0)
		undo_one(s, &s->route_undo[i]);
	undo_forget(s);
}

/* The subnet of one of our addresses (Linux: that route exists). */
static bool
route_is_connected(const struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs; i++)
		if (s->addrs[i].depth == depth &&
		    (s->addrs[i].addr & lsk_depth_mask(depth)) == prefix)
			return true;
	return false;
}

/* Paths p[0..n) of a route: each on a connected subnet (or an iface
 * given), another host's, given once, weight 0..256. */
static int
paths_check(const struct lsk_stack *s, const struct lsk_route_path *p,
	    unsigned int n)
{
	unsigned int i, j;

	if (n < 1 || n > LSK_ROUTE_MAX_PATHS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (p[i].weight > 256)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (p[j].gateway == p[i].gateway &&
			    p[j].iface == p[i].iface)
				return -EINVAL;
		if (p[i].iface != LSK_IFACE_ANY) {
			if (p[i].iface >= s->n_ifaces)
				return -ENODEV;
		} else if (lsk_connected_lookup(s, p[i].gateway) == NULL) {
			return -ENETUNREACH;
		}
		/* as Linux: a gateway is another host ("can not be a
		 * local address"), never a broadcast */
		if (p[i].gateway != 0 && (lsk_stack_is_own(s, p[i].gateway) ||
			lsk_stack_is_broadcast(s, p[i].gateway)))
			return -EINVAL;
	}
	return 0;
}

int
lsk_route_check(const struct lsk_stack *s, uint32_t prefix, uint8_t depth,
	    enum lsk_route_type type, const struct lsk_route_path *p,
	    unsigned int n)
{
	int rc;

	if (depth > 32 || (prefix & ~lsk_depth_mask(depth)) != 0)
		return -EINVAL;
	if (type > LSK_ROUTE_PROHIBIT)
		return -EINVAL;
	if (type == LSK_ROUTE_VIA) {
		rc = paths_check(s, p, n);
		if (rc < 0)
			return rc;
	}
	if (route_is_connected(s, prefix, depth))
		return -EEXIST;
	return 0;
}

int
lsk_route_make(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
	       enum lsk_route_type type, const struct lsk_route_path *p,
	       unsigned int n, struct lsk_route *r)
{
	int rc = 0;

	*r = (struct lsk_route){ .prefix = prefix, .depth = depth,
		.type = (uint8_t)type, .iface = LSK_IFACE_ANY };
	if (type != LSK_ROUTE_VIA)
		return 0;
	if (n == 1) {
		r->gateway = p[0].gateway;
		r->iface = p[0].iface;
		return 0;
	}
	r->pset = lsk_pset_get(s, p, n, &rc);
	return rc;
}

/* Make d, already made to the list, to the tables (in a batch: noted for
 * the commit). */
static int
route_apply(struct lsk_stack *s, const struct lsk_route_delta *d)
{
	if (!s->in_batch)
		return lsk_fwd_routes_apply(s, d, 1, true);
	if (s->n_route_log < LSK_ROUTE_LOG_MAX)
		s->route_log[s->n_route_log++] = *d;
	else
		s->route_log_full = true;
	return 0;
}

static int
route_set(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
	  enum lsk_route_type type, const struct lsk_route_path *p,
	  unsigned int n, bool replace)
{
	struct lsk_route_delta d = { .now_set = true };
	uint64_t key = route_key(prefix, depth);
	const struct lsk_route *learned;
	int i, rc;

	rc = lsk_route_check(s, prefix, depth, type, p, n);
	if (rc < 0)
		return rc;
	i = route_pos(s, prefix, depth);
	if (i >= 0 && !replace)
		return -EEXIST;
	rc = undo_room(s);
	if (rc < 0)
		return rc;
	rc = lsk_route_make(s, prefix, depth, type, p, n, &d.now);
	if (rc < 0)
		return rc;
	if (i >= 0) {
		undo_note(s, UNDO_REPLACE, (unsigned int)i, &s->routes[i]);
		d.before = s->routes[i];
		d.before_set = true;
		s->routes[i] = d.now;
		rc = route_apply(s, &d);
		if (rc < 0) {
			s->routes[i] = d.before;
			lsk_pset_unref(s, d.now.pset);
		} else {
			lsk_pset_unref(s, d.before.pset);
		}
		return rc;
	}
	/* a learned route of the prefix steps back behind this one */
	learned = lsk_learned_find(s, prefix, depth);
	if (learned != NULL) {
		d.before = *learned;
		d.before_set = true;
	}
	rc = lsk_array_grow((void **)&s->routes, &s->routes_cap, s->n_routes,
			    sizeof(*s->routes), 16);
	if (rc == 0)
		rc = index_room(s);
	if (rc == 0 && rte_hash_add_key_data(s->route_index, &key,
					     (void *)(uintptr_t)s->n_routes) < 0)
		rc = -ENOMEM;
	if (rc < 0) {
		lsk_pset_unref(s, d.now.pset);
		return rc;
	}
	undo_note(s, UNDO_ADD, s->n_routes, NULL);
	s->routes[s->n_routes++] = d.now;
	rc = route_apply(s, &d);
	if (rc < 0) {
		s->n_routes--;
		rte_hash_del_key(s->route_index, &key);
		lsk_pset_unref(s, d.now.pset);
	}
	return rc;
}

int
lsk_route_add(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
	      enum lsk_route_type type, uint32_t gateway)
{
	struct lsk_route_path p = { .gateway = gateway,
				    .iface = LSK_IFACE_ANY, .weight = 1 };

	return route_set(s, prefix, depth, type, &p, 1, false);
}

int
lsk_route_replace(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
		  enum lsk_route_type type, uint32_t gateway)
{
	struct lsk_route_path p = { .gateway = gateway,
				    .iface = LSK_IFACE_ANY, .weight = 1 };

	return route_set(s, prefix, depth, type, &p, 1, true);
}

int
lsk_route_add_paths(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
		    const struct lsk_route_path *paths, unsigned int n)
{
	if (paths == NULL)
		return -EINVAL;
	return route_set(s, prefix, depth, LSK_ROUTE_VIA, paths, n, false);
}

int
lsk_route_replace_paths(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
			const struct lsk_route_path *paths, unsigned int n)
{
	if (paths == NULL)
		return -EINVAL;
	return route_set(s, prefix, depth, LSK_ROUTE_VIA, paths, n, true);
}

int
lsk_route_del(struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	struct lsk_route_delta d = { .before_set = true };
	int i = route_pos(s, prefix, depth);
	const struct lsk_route *learned;
	unsigned int last;
	uint64_t key;
	int rc;

	if (i < 0)
		return -ENOENT;
	/* a learned route of the prefix takes its place */
	learned = lsk_learned_find(s, prefix, depth);
	if (learned != NULL) {
		d.now = *learned;
		d.now_set = true;
	}
	rc = undo_room(s);
	if (rc < 0)
		return rc;
	undo_note(s, UNDO_DEL, (unsigned int)i, &s->routes[i]);
	/* the last route takes its place; the index follows only once the
	 * tables took the change (its updates cannot fail) */
	last = s->n_routes - 1;
	d.before = s->routes[i];
	s->routes[i] = s->routes[last];
	s->n_routes--;
	rc = route_apply(s, &d);
	if (rc < 0) {
		s->routes[last] = s->routes[i];
		s->routes[i] = d.before;
		s->n_routes++;
		return rc;
	}
	lsk_pset_unref(s, d.before.pset);
	key = route_key(prefix, depth);
	rte_hash_del_key(s->route_index, &key);
	if ((unsigned int)i != last) {
		key = route_key(s->routes[i].prefix, s->routes[i].depth);
		rte_hash_add_key_data(s->route_index, &key,
				      (void *)(uintptr_t)i);
	}
	return 0;
}

int
lsk_route_flush(struct lsk_stack *s)
{
	unsigned int i, n = s->n_routes;
	struct lsk_fwd_table *t;
	int rc;

	if (n == 0)
		return 0;
	if (s->in_batch) {
		/* the list as it was, for an undo: later adds overwrite it */
		struct lsk_route *saved = malloc(n * sizeof(*saved));
		int rc = undo_room(s);

		if (saved == NULL || rc < 0) {
			free(saved);
			return -ENOMEM;
		}
		memcpy(saved, s->routes, n * sizeof(*saved));
		undo_note(s, UNDO_FLUSH, 0, NULL);
		s->route_undo[s->n_route_undo - 1].n = n;
		s->route_undo[s->n_route_undo - 1].saved = saved;
	}
	/* the list keeps its entries until the table without them is built */
	s->n_routes = 0;
	if (s->in_batch) {
		s->route_log_full = true;	/* built whole at commit */
	} else {
		rc = lsk_fwd_table_build(s, &t);
		if (rc < 0) {
			s->n_routes = n;
			return rc;
		}
		lsk_fwd_publish(s, t);
	}
	for (i = 0; i < n; i++)
		lsk_pset_unref(s, s->routes[i].pset);
	rte_hash_reset(s->route_index);
	return (int)n;
}

void
lsk_route_batch_begin(struct lsk_stack *s)
{
	s->n_route_log = 0;
	s->route_log_full = false;
	undo_forget(s);
}

int
lsk_route_batch_commit(struct lsk_stack *s)
{
	int rc = -EAGAIN;

	if (!s->route_log_full)
		rc = lsk_fwd_routes_apply(s, s->route_log, s->n_route_log,
					  false);
	/* done: its notes go; else a whole build follows, which may fail
	 * and need them to put the list back */
	if (rc == 0)
		lsk_route_batch_begin(s);
	return rc;
}
