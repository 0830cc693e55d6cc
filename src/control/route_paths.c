/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The path sets of ECMP routes, interned: a full table from a routing
 * daemon holds a million routes over a handful of distinct sets of
 * gateways, so a route holds the id of its set (control/routes.h), not
 * up to 16 paths inline. Sets are found by their content (an rte_hash),
 * counted by the routes that hold them, and their slots taken back, by a
 * scan, only outside a batch: a batch that fails puts routes back that
 * name the sets they had (control/route_table.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_hash_crc.h>

#include "control/control.h"

#define PSET_INDEX_MIN 64

/* What a set is found by: zeros after its n paths. */
struct pset_key {
	uint8_t n;
	uint8_t pad[3];
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
};

static void
key_of(struct pset_key *k, const struct lsk_route_path *p, unsigned int n)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	k->n = (uint8_t)n;
	for (i = 0; i < n; i++) {
		k->p[i] = p[i];
		if (k->p[i].weight == 0)
			k->p[i].weight = 1;
	}
}

static struct rte_hash *
pset_index_create(const struct lsk_stack *s, uint32_t entries)
{
	struct rte_hash_parameters hp = { 0 };
	char name[64];

	snprintf(name, sizeof(name), "%.16s_ps%u", s->name, entries);
	hp.name = name;
	hp.entries = entries;
	hp.key_len = sizeof(struct pset_key);
	hp.hash_func = rte_hash_crc;
	hp.socket_id = s->sh.socket_id;
	hp.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE;
	return rte_hash_create(&hp);
}

const struct lsk_path_set *
lsk_pset(const struct lsk_stack *s, uint32_t id)
{
	return id != 0 && id < s->n_psets ? &s->psets[id] : NULL;
}

void
lsk_pset_ref(struct lsk_stack *s, uint32_t id)
{
	if (id != 0 && id < s->n_psets)
		s->psets[id].refs++;
}

void
lsk_pset_unref(struct lsk_stack *s, uint32_t id)
{
	if (id != 0 && id < s->n_psets && s->psets[id].refs > 0)
		s->psets[id].refs--;
}

/* Take back the slots no route holds: out of the index, onto the free
 * list. Never in a batch (an undo may name them again). */
static void
pset_collect(struct lsk_stack *s)
{
	struct pset_key k;
	uint32_t id;

	if (s->in_batch)
		return;
	for (id = 1; id < s->n_psets; id++) {
		struct lsk_path_set *ps = &s->psets[id];

		if (ps->refs != 0 || ps->n == 0)
			continue;
		key_of(&k, ps->p, ps->n);
		rte_hash_del_key(s->pset_index, &k);
		ps->n = 0;
		s->pset_free[s->n_pset_free++] = id;
	}
}

/* A slot for a new set: a free one, else one more at the end (the free
 * list has room for every slot, so that taking them back cannot fail). */
static int
pset_slot(struct lsk_stack *s, uint32_t *id)
{
	if (s->n_pset_free == 0)
		pset_collect(s);
	if (s->n_pset_free > 0) {
		*id = s->pset_free[--s->n_pset_free];
		return 0;
	}
	if (s->n_psets == 0)
		s->n_psets = 1;	/* id 0: none */
	if (s->n_psets >= s->psets_cap) {
		unsigned int cap = s->psets_cap ? 2 * s->psets_cap :
						  PSET_INDEX_MIN;
		uint32_t *f = realloc(s->pset_free, cap * sizeof(*f));
		struct lsk_path_set *p;

		if (f == NULL)
			return -ENOMEM;
		s->pset_free = f;
		p = realloc(s->psets, cap * sizeof(*p));
		if (p == NULL)
			return -ENOMEM;
		s->psets = p;
		s->psets_cap = cap;
	}
	*id = s->n_psets++;
	return 0;
}

/* Room in the index for one more set: twice as big when full. */
static int
pset_index_room(struct lsk_stack *s)
{
	struct rte_hash *h;
	struct pset_key k;
	uint32_t size, id;

	if (s->pset_index == NULL) {
		s->pset_index = pset_index_create(s, PSET_INDEX_MIN);
		return s->pset_index != NULL ? 0 : -ENOMEM;
	}
	size = (uint32_t)rte_hash_max_key_id(s->pset_index) + 1;
	if ((uint32_t)rte_hash_count(s->pset_index) + 1 < size)
		return 0;
	h = pset_index_create(s, 2 * size);
	if (h == NULL)
		return -ENOMEM;
	for (id = 1; id < s->n_psets; id++) {
		if (s->psets[id].n == 0)
			continue;
		key_of(&k, s->psets[id].p, s->psets[id].n);
		if (rte_hash_add_key_data(h, &k, (void *)(uintptr_t)id) < 0) {
			rte_hash_free(h);
			return -ENOMEM;
		}
	}
	rte_hash_free(s->pset_index);
	s->pset_index = h;
	return 0;
}

uint32_t
lsk_pset_get(struct lsk_stack *s, const struct lsk_route_path *p,
	     unsigned int n, int *err)
{
	struct pset_key k;
	void *data;
	uint32_t id;
	int rc;

	key_of(&k, p, n);
	if (s->pset_index != NULL &&
	    rte_hash_lookup_data(s->pset_index, &k, &data) >= 0) {
		id = (uint32_t)(uintptr_t)data;
		s->psets[id].refs++;
		return id;
	}
	rc = pset_index_room(s);
	if (rc == 0)
		rc = pset_slot(s, &id);
	if (rc == 0 && rte_hash_add_key_data(s->pset_index, &k,
					     (void *)(uintptr_t)id) < 0) {
		s->pset_free[s->n_pset_free++] = id;
		rc = -ENOMEM;
	}
	if (rc < 0) {
		*err = rc;
		return 0;
	}
	s->psets[id].refs = 1;
	s->psets[id].n = k.n;
	memcpy(s->psets[id].p, k.p, sizeof(k.p));
	return id;
}

void
lsk_pset_free_all(struct lsk_stack *s)
{
	rte_hash_free(s->pset_index);
	s->pset_index = NULL;
	free(s->psets);
	s->psets = NULL;
	free(s->pset_free);
	s->pset_free = NULL;
	s->n_psets = s->psets_cap = s->n_pset_free = 0;
}

unsigned int
lsk_route_paths(const struct lsk_stack *s, const struct lsk_route *r,
		struct lsk_route_path *p)
{
	const struct lsk_path_set *ps = lsk_pset(s, r->pset);

	if (r->type != LSK_ROUTE_VIA)
		return 0;
	if (ps == NULL) {
		p[0] = (struct lsk_route_path){ .gateway = r->gateway,
			.iface = r->iface, .weight = 1 };
		return 1;
	}
	memcpy(p, ps->p, ps->n * sizeof(*p));
	return ps->n;
}
