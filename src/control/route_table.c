/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routes as the control thread is given them (the RIB side): the
 * list, its index by (prefix, depth), and the changes lsk_route_add and
 * lsk_route_del make to it and to the forwarding table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_hash_crc.h>

#include "core/fwd.h"
#include "control/control.h"

static uint64_t
route_key(uint32_t prefix, uint8_t depth)
{
	return (uint64_t)prefix << 8 | depth;
}

int
lsk_route_table_init(struct lsk_stack *s)
{
	struct rte_hash_parameters hp = { 0 };
	char name[64];

	snprintf(name, sizeof(name), "%.20s_routes", s->name);
	hp.name = name;
	hp.entries = RTE_MAX(s->max_routes ? s->max_routes : 65536u, 64u);
	hp.key_len = sizeof(uint64_t);
	hp.hash_func = rte_hash_crc;
	hp.socket_id = s->socket_id;
	s->route_index = rte_hash_create(&hp);
	return s->route_index ? 0 : -ENOMEM;
}

void
lsk_route_table_free(struct lsk_stack *s)
{
	rte_hash_free(s->route_index);
	s->route_index = NULL;
	free(s->routes);
	s->routes = NULL;
}

void
lsk_route_index_rebuild(struct lsk_stack *s)
{
	unsigned int i;

	rte_hash_reset(s->route_index);
	for (i = 0; i < s->n_routes; i++) {
		uint64_t key = route_key(s->routes[i].prefix,
					 s->routes[i].depth);

		rte_hash_add_key(s->route_index, &key);
	}
}

/* Build the table of the changed list and publish it (at commit in a
 * batch); nothing is published when the build fails. */
static int
route_publish(struct lsk_stack *s)
{
	struct lsk_fwd_table *t;
	int rc;

	if (s->in_batch)
		return 0;
	rc = lsk_fwd_table_build(s, &t);
	if (rc == 0)
		lsk_fwd_publish(s, t);
	return rc;
}

static int
route_find(const struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	unsigned int i;

	for (i = 0; i < s->n_routes; i++)
		if (s->routes[i].prefix == prefix &&
		    s->routes[i].depth == depth)
			return (int)i;
	return -1;
}

/* A million routes in one batch: looked up in a hash, not the list. */
static bool
route_exists(struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	uint64_t key = route_key(prefix, depth);

	return rte_hash_lookup(s->route_index, &key) >= 0;
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

int
lsk_route_add(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
	      enum lsk_route_type type, uint32_t gateway)
{
	uint64_t key;
	int rc;

	if (depth > 32 || (prefix & ~lsk_depth_mask(depth)) != 0)
		return -EINVAL;
	if (type != LSK_ROUTE_VIA && type != LSK_ROUTE_BLACKHOLE)
		return -EINVAL;
	if (type == LSK_ROUTE_VIA && lsk_connected_lookup(s, gateway) == NULL)
		return -ENETUNREACH;
	/* as Linux: a gateway is another host ("can not be a local
	 * address"), never a broadcast */
	if (type == LSK_ROUTE_VIA && (lsk_stack_is_own(s, gateway) ||
				      lsk_stack_is_broadcast(s, gateway)))
		return -EINVAL;
	if (route_exists(s, prefix, depth) || route_is_connected(s, prefix,
								 depth))
		return -EEXIST;
	rc = lsk_array_grow((void **)&s->routes, &s->routes_cap, s->n_routes,
			    sizeof(*s->routes), 16);
	if (rc < 0)
		return rc;
	key = route_key(prefix, depth);
	if (rte_hash_add_key(s->route_index, &key) < 0)
		return -ENOSPC;
	s->routes[s->n_routes++] = (struct lsk_route){
		.prefix = prefix, .depth = depth, .type = (uint8_t)type,
		.gateway = type == LSK_ROUTE_VIA ? gateway : 0 };
	rc = route_publish(s);
	if (rc < 0) {
		s->n_routes--;
		rte_hash_del_key(s->route_index, &key);
	}
	return rc;
}

int
lsk_route_del(struct lsk_stack *s, uint32_t prefix, uint8_t depth)
{
	uint64_t key = route_key(prefix, depth);
	int i = route_find(s, prefix, depth);
	struct lsk_route gone;
	int rc;

	if (i < 0)
		return -ENOENT;
	gone = s->routes[i];
	memmove(&s->routes[i], &s->routes[i + 1],
		(s->n_routes - (unsigned int)i - 1) * sizeof(*s->routes));
	s->n_routes--;
	rc = route_publish(s);
	if (rc < 0) {
		/* back where it was: the array still has its room */
		memmove(&s->routes[i + 1], &s->routes[i],
			(s->n_routes - (unsigned int)i) * sizeof(*s->routes));
		s->routes[i] = gone;
		s->n_routes++;
		return rc;
	}
	rte_hash_del_key(s->route_index, &key);
	return 0;
}
