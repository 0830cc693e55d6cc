/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routes as the control thread keeps them (control/route_table.c)
 * and the forwarding tables built from them (control/fwd_table.c,
 * control/fwd_update.c): a route, a change of one, and the calls that
 * make changes to a table no worker sees before it is published.
 */
#ifndef LSK_CONTROL_ROUTES_H
#define LSK_CONTROL_ROUTES_H

#include <stdbool.h>
#include <stdint.h>

#include "listack/listack.h"

struct lsk_stack;
struct lsk_fwd_table;
struct rte_hash;

/*
 * A route: 20 bytes, so that a full Internet table (1M) is small. One
 * path is held inline (gateway, iface); several (ECMP) are an interned
 * path set (control/route_paths.c) that routes with the same paths share.
 */
struct lsk_route {
	uint32_t prefix;
	uint8_t depth;
	uint8_t type;		/* enum lsk_route_type */
	uint8_t proto;		/* learned: rtm_protocol; 0: configured */
	uint8_t stale;		/* learned, not yet repeated by a dump */
	uint32_t gateway;	/* one path (pset 0) */
	uint16_t iface;		/* its iface, LSK_IFACE_ANY: the gateway's */
	uint16_t pad;
	uint32_t pset;		/* 0: the one path above; else the set's id */
};

/* An interned set of paths (route_paths.c): ids from 1, refcounted by
 * the routes (configured and learned) that hold it. */
struct lsk_path_set {
	uint32_t refs;
	uint8_t n;
	struct lsk_route_path p[LSK_ROUTE_MAX_PATHS];
};

/* The id of paths p[0..n) (n >= 2), a reference taken: 0 and *err
 * negative (-ENOMEM) when it cannot be had. */
uint32_t lsk_pset_get(struct lsk_stack *s, const struct lsk_route_path *p,
		      unsigned int n, int *err);
void lsk_pset_ref(struct lsk_stack *s, uint32_t id);
void lsk_pset_unref(struct lsk_stack *s, uint32_t id);
const struct lsk_path_set *lsk_pset(const struct lsk_stack *s, uint32_t id);
void lsk_pset_free_all(struct lsk_stack *s);
/* The paths of r into p (the one inline, or its set's): how many. */
unsigned int lsk_route_paths(const struct lsk_stack *s,
			     const struct lsk_route *r,
			     struct lsk_route_path *p);

/*
 * One route change as the FIB sees it: the route of (prefix, depth)
 * before and after (none when !before_set / !now_set). The forwarding
 * tables apply it, or its inverse to undo it.
 */
struct lsk_route_delta {
	struct lsk_route before, now;
	bool before_set, now_set;
};

/* A change a batch made to s->routes, to undo it (route_table.c). */
struct lsk_route_undo {
	uint8_t op;		/* enum in route_table.c */
	unsigned int pos, n;	/* the place changed; n: a flush's count */
	struct lsk_route r;	/* what was there */
	struct lsk_route *saved;	/* a flush's list */
};

/* route changes a batch applies to the tables one by one at commit;
 * more, or a flush, and the commit builds them whole */
#define LSK_ROUTE_LOG_MAX 64

int lsk_fwd_table_build(struct lsk_stack *s, struct lsk_fwd_table **out);
void lsk_fwd_table_free(struct lsk_fwd_table *t);
/* Route r in t, a table no worker sees, or (prefix, depth) out of it: a
 * failure leaves t as it was (control/fwd_table.c). */
int lsk_fwd_route_set(struct lsk_stack *s, struct lsk_fwd_table *t,
		      const struct lsk_route *r);
int lsk_fwd_route_unset(struct lsk_fwd_table *t, uint32_t prefix,
			uint8_t depth);
/* A change of (prefix, depth) touches no entry a build adds besides it. */
bool lsk_fwd_route_isolated(const struct lsk_stack *s, uint32_t prefix,
			    uint8_t depth);
/* Hand a table built whole to the workers (lsk_publish); the standby
 * is built anew. Cannot fail (a standby that cannot be built is none). */
void lsk_fwd_publish(struct lsk_stack *s, struct lsk_fwd_table *t);
/*
 * Make route changes d[0..n) (already made to s->routes) to the tables:
 * to the standby, which is then published, then to the table it
 * replaced once no worker reads it. When that cannot be done (no
 * standby, a change touching neighbour or local entries, a full FIB)
 * and whole is set, a table is built whole instead. A failure (-ENOMEM,
 * -ENOSPC; or -EAGAIN: not done in place and !whole) leaves both tables
 * as they were. Control thread only.
 */
int lsk_fwd_routes_apply(struct lsk_stack *s, const struct lsk_route_delta *d,
			 unsigned int n, bool whole);

/* ECMP groups in a table no worker sees (control/fwd_group.c): the
 * next hop of members[0..n) with their weights, found or appended (its
 * index, or -ENOSPC); the words a table built now needs for them. */
int lsk_fwd_group_get(struct lsk_fwd_table *t, const uint32_t *members,
		      const uint16_t *weights, unsigned int n);
uint32_t lsk_fwd_group_words_needed(const struct lsk_stack *s);
/* Either family's side of it: a table's group words (words[0, *n) of
 * cap) and a group's place in them. */
struct lsk_group_words {
	uint16_t *words;
	uint32_t *n;
	uint32_t cap;
};
struct lsk_group_ref {
	uint32_t group;		/* its members' first word */
	uint16_t n_members;
	uint16_t n_buckets;
};
/* The group of members[0, *n) (next hop indexes) weighted so, found in
 * gw or appended to it (-ENOSPC: no room, gw unchanged): members that
 * are one next hop are merged first, their weights summed, *n then
 * their number; *n 1: no group, members[0] is the next hop (nothing
 * placed). */
int lsk_fwd_group_place(struct lsk_group_words *gw, uint32_t *members,
			uint16_t *weights, unsigned int *n,
			struct lsk_group_ref *ref);
/* The words a group of weights[0, n) takes (its head included). */
uint32_t lsk_fwd_group_size(const uint16_t *weights, unsigned int n);

/* The routes (control/route_table.c): the index made at stack creation,
 * rebuilt from s->routes when a failed batch puts the list back. */
int lsk_route_table_init(struct lsk_stack *s);
void lsk_route_table_free(struct lsk_stack *s);
void lsk_route_index_rebuild(struct lsk_stack *s);
/* A route of these parts could be added: 0, -EINVAL (a bad prefix,
 * type or path), -ENETUNREACH (a gateway on no connected subnet),
 * -ENODEV (no such iface), -EEXIST (a connected subnet). */
int lsk_route_check(const struct lsk_stack *s, uint32_t prefix,
		    uint8_t depth, enum lsk_route_type type,
		    const struct lsk_route_path *p, unsigned int n);
/* r made from its parts (a path set's reference taken for several
 * paths): 0 or -ENOMEM. Nothing is checked. */
int lsk_route_make(struct lsk_stack *s, uint32_t prefix, uint8_t depth,
		   enum lsk_route_type type, const struct lsk_route_path *p,
		   unsigned int n, struct lsk_route *r);
/* The learned route of (prefix, depth), shadowed or not, or NULL
 * (control/route_learn.c); free them all at the stack's end. */
const struct lsk_route *lsk_learned_find(const struct lsk_stack *s,
					 uint32_t prefix, uint8_t depth);
void lsk_route_learn_free(struct lsk_stack *s);
/* The key of (prefix, depth) in the routes' indexes (rte_hash, data:
 * the place in the list), and room in one for `more` more (it grows
 * twice as big, named s->name, tag and its size). */
static inline uint64_t
lsk_route_key(uint32_t prefix, uint8_t depth)
{
	return (uint64_t)prefix << 8 | depth;
}
int lsk_route_index_room(struct lsk_stack *s, struct rte_hash **hp,
			 const char *tag, const struct lsk_route *routes,
			 unsigned int n, unsigned int more);
/* The route of (prefix, depth) in s->routes, or NULL. */
const struct lsk_route *lsk_route_find(const struct lsk_stack *s,
				       uint32_t prefix, uint8_t depth);
/* A batch's start; at its commit, when it changed nothing but routes:
 * make them to the tables in place (0), or -EAGAIN: build them whole.
 * lsk_route_batch_undo puts the list and its index back as the batch
 * found them (for a batch refused or whose tables cannot be built). */
void lsk_route_batch_begin(struct lsk_stack *s);
int lsk_route_batch_commit(struct lsk_stack *s);
void lsk_route_batch_undo(struct lsk_stack *s);

#endif /* LSK_CONTROL_ROUTES_H */
