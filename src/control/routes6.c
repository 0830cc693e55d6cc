/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 routes as the control thread keeps them (IPv4's:
 * control/route_table.c): a list searched in order, the configuration
 * being made by hand. A change is made to the list, then to the tables
 * in place (control/fwd6_update.c; a table built whole when it cannot
 * be), and taken back when the tables cannot take it; in a batch it is
 * noted for the commit. A learned route of the same prefix
 * (control/route6_learn.c) waits behind a configured one: the change
 * the tables see is from the one to the other.
 */
#include <errno.h>
#include <string.h>

#include "listack/listack.h"
#include "core/fwd6.h"
#include "control/control.h"

static int
route6_pos(const struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
	   uint8_t depth)
{
	unsigned int i;

	for (i = 0; i < s->n_routes6; i++)
		if (s->routes6[i].depth == depth &&
		    lsk_ip6_equal(&s->routes6[i].prefix, prefix))
			return (int)i;
	return -1;
}

const struct lsk_route6 *
lsk_route6_find(const struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
		uint8_t depth)
{
	int i = route6_pos(s, prefix, depth);

	return i < 0 ? NULL : &s->routes6[i];
}

static bool
route6_is_connected(const struct lsk_stack *s,
		    const struct lsk_ip6_addr *prefix, uint8_t depth)
{
	unsigned int i;

	for (i = 0; i < s->n_addrs6; i++) {
		const struct lsk_ifaddr6 *a = &s->addrs6[i];

		if (!(a->flags & LSK_IFA6_LINKLOCAL) && a->depth == depth &&
		    lsk_ip6_prefix_match(&a->addr, prefix, depth))
			return true;
	}
	return false;
}

/* The gateway of a route via one: another node's unicast address, on a
 * connected prefix or on the interface given (a link-local one needs
 * it: it means nothing without its link). */
static int
gateway6_check(const struct lsk_stack *s, const struct lsk_ip6_addr *gw,
	       uint16_t iface)
{
	if (gw == NULL || lsk_ip6_is_unspecified(gw) ||
	    lsk_ip6_is_multicast(gw))
		return -EINVAL;
	if (iface != LSK_IFACE_ANY && iface >= s->n_ifaces)
		return -ENODEV;
	if (lsk_ip6_is_linklocal(gw) && iface == LSK_IFACE_ANY)
		return -EINVAL;
	if (lsk_stack_is_own6(s, gw, iface))
		return -EINVAL;
	if (iface == LSK_IFACE_ANY && lsk_connected6_lookup(s, gw) == NULL)
		return -ENETUNREACH;
	return 0;
}

/* Paths p[0, n) of a route: each gateway checked, each given once,
 * weights 0..256 (as IPv4's paths_check, control/route_table.c). */
static int
paths6_check(const struct lsk_stack *s, const struct lsk_route6_path *p,
	     unsigned int n)
{
	unsigned int i, j;
	int rc;

	if (p == NULL || n < 1 || n > LSK_ROUTE_MAX_PATHS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (p[i].weight > 256)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (p[j].iface == p[i].iface &&
			    lsk_ip6_equal(&p[j].gateway, &p[i].gateway))
				return -EINVAL;
		rc = gateway6_check(s, &p[i].gateway, p[i].iface);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int
lsk_route6_check(const struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
		 uint8_t depth, enum lsk_route_type type,
		 const struct lsk_route6_path *p, unsigned int n)
{
	struct lsk_ip6_addr masked;
	int rc;

	if (prefix == NULL || depth > 128)
		return -EINVAL;
	lsk_ip6_mask(prefix, depth, &masked);
	if (!lsk_ip6_equal(&masked, prefix))
		return -EINVAL;	/* host bits set */
	/* scoped destinations are not routed (core/fwd6.h) */
	if ((depth >= 8 && lsk_ip6_is_multicast(prefix)) ||
	    (depth >= 10 && lsk_ip6_is_linklocal(prefix)))
		return -EINVAL;
	if ((unsigned int)type > LSK_ROUTE_PROHIBIT)
		return -EINVAL;
	if (type == LSK_ROUTE_VIA) {
		rc = paths6_check(s, p, n);
		if (rc < 0)
			return rc;
	}
	if (route6_is_connected(s, prefix, depth))
		return -EEXIST;
	return 0;
}

/* Make d, already made to the list, to the tables (in a batch: noted
 * for the commit, which builds whole past LSK_ROUTE_LOG_MAX). */
static int
route6_apply(struct lsk_stack *s, const struct lsk_route6_delta *d)
{
	if (!s->in_batch)
		return lsk_fwd6_routes_apply(s, d, 1, true);
	if (s->n_route6_log < LSK_ROUTE_LOG_MAX)
		s->route6_log[s->n_route6_log++] = *d;
	else
		s->route6_log_full = true;
	return 0;
}

/* The learned route of (prefix, depth) the tables hold when no
 * configured one stands in front: as the other side of d. */
static void
route6_learned_side(const struct lsk_stack *s, const struct lsk_route6 *key,
		    struct lsk_route6 *r, bool *set)
{
	const struct lsk_route6 *l = lsk_learned6_find(s, &key->prefix,
						       key->depth);

	*set = l != NULL;
	if (l != NULL)
		*r = *l;
}

int
lsk_route6_make(const struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
		uint8_t depth, enum lsk_route_type type,
		const struct lsk_route6_path *p, unsigned int n,
		struct lsk_route6 *r)
{
	unsigned int i;
	int rc = lsk_route6_check(s, prefix, depth, type, p, n);

	if (rc < 0)
		return rc;
	memset(r, 0, sizeof(*r));
	r->prefix = *prefix;
	r->depth = depth;
	r->type = (uint8_t)type;
	if (type != LSK_ROUTE_VIA)
		return 0;
	r->n_paths = (uint8_t)n;
	for (i = 0; i < n; i++) {
		r->paths[i] = p[i];
		if (r->paths[i].weight == 0)
			r->paths[i].weight = 1;
	}
	return 0;
}

bool
lsk_route6_path_reachable(const struct lsk_stack *s,
			  const struct lsk_route6_path *p)
{
	return p->iface != LSK_IFACE_ANY ? p->iface < s->n_ifaces :
	       lsk_connected6_lookup(s, &p->gateway) != NULL;
}

static int
route6_set(struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
	   uint8_t depth, enum lsk_route_type type,
	   const struct lsk_route6_path *p, unsigned int n, bool replace)
{
	struct lsk_route6_delta d = { .now_set = true };
	struct lsk_route6 r, before;
	int i, rc;

	rc = lsk_route6_make(s, prefix, depth, type, p, n, &r);
	if (rc < 0)
		return rc;
	d.now = r;
	i = route6_pos(s, prefix, depth);
	if (i >= 0) {
		if (!replace)
			return -EEXIST;
		before = s->routes6[i];
		d.before = before;
		d.before_set = true;
		s->routes6[i] = r;
		rc = route6_apply(s, &d);
		if (rc < 0)
			s->routes6[i] = before;
		return rc;
	}
	rc = lsk_array_grow((void **)&s->routes6, &s->routes6_cap,
			    s->n_routes6, sizeof(*s->routes6), 16);
	if (rc < 0)
		return rc;
	route6_learned_side(s, &r, &d.before, &d.before_set);
	s->routes6[s->n_routes6++] = r;
	rc = route6_apply(s, &d);
	if (rc < 0)
		s->n_routes6--;
	return rc;
}

/* The one path of lsk_route6_add and _replace (none unless VIA). */
static unsigned int
path6_one(enum lsk_route_type type, const struct lsk_ip6_addr *gateway,
	  uint16_t iface, struct lsk_route6_path *p)
{
	memset(p, 0, sizeof(*p));
	if (type != LSK_ROUTE_VIA)
		return 0;
	if (gateway != NULL)
		p->gateway = *gateway;
	else
		p->gateway.a[0] = 0xff;	/* refused as a gateway: -EINVAL */
	p->iface = iface;
	p->weight = 1;
	return 1;
}

int
lsk_route6_add(struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
	       uint8_t depth, enum lsk_route_type type,
	       const struct lsk_ip6_addr *gateway, uint16_t iface)
{
	struct lsk_route6_path p;
	unsigned int n = path6_one(type, gateway, iface, &p);

	return route6_set(s, prefix, depth, type, &p, n, false);
}

int
lsk_route6_replace(struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
		   uint8_t depth, enum lsk_route_type type,
		   const struct lsk_ip6_addr *gateway, uint16_t iface)
{
	struct lsk_route6_path p;
	unsigned int n = path6_one(type, gateway, iface, &p);

	return route6_set(s, prefix, depth, type, &p, n, true);
}

int
lsk_route6_add_paths(struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
		     uint8_t depth, const struct lsk_route6_path *paths,
		     unsigned int n)
{
	if (paths == NULL)
		return -EINVAL;
	return route6_set(s, prefix, depth, LSK_ROUTE_VIA, paths, n, false);
}

int
lsk_route6_replace_paths(struct lsk_stack *s,
			 const struct lsk_ip6_addr *prefix, uint8_t depth,
			 const struct lsk_route6_path *paths, unsigned int n)
{
	if (paths == NULL)
		return -EINVAL;
	return route6_set(s, prefix, depth, LSK_ROUTE_VIA, paths, n, true);
}

int
lsk_route6_del(struct lsk_stack *s, const struct lsk_ip6_addr *prefix,
	       uint8_t depth)
{
	struct lsk_route6_delta d = { .before_set = true };
	struct lsk_route6 r;
	unsigned int n;
	int i, rc;

	if (prefix == NULL)
		return -EINVAL;
	i = route6_pos(s, prefix, depth);
	if (i < 0)
		return -ENOENT;
	r = s->routes6[i];
	d.before = r;
	route6_learned_side(s, &r, &d.now, &d.now_set);
	n = s->n_routes6 - (unsigned int)i - 1;
	memmove(&s->routes6[i], &s->routes6[i + 1], n * sizeof(r));
	s->n_routes6--;
	rc = route6_apply(s, &d);
	if (rc < 0) {
		memmove(&s->routes6[i + 1], &s->routes6[i], n * sizeof(r));
		s->routes6[i] = r;
		s->n_routes6++;
	}
	return rc;
}

unsigned int
lsk_routes6_drop_unreachable(struct lsk_stack *s)
{
	unsigned int i, k = 0;

	for (i = 0; i < s->n_routes6; i++) {
		const struct lsk_route6 *r = &s->routes6[i];
		unsigned int j;

		/* a path lost takes the route, as IPv4's route_lost_path
		 * (control/ifaces.c): `show config` stays loadable */
		for (j = 0; j < r->n_paths; j++)
			if (!lsk_route6_path_reachable(s, &r->paths[j]))
				break;
		if (j < r->n_paths)
			continue;
		s->routes6[k++] = *r;
	}
	i = s->n_routes6 - k;
	s->n_routes6 = k;
	/* dropped without a note: a batch's commit builds whole */
	if (i != 0 && s->in_batch)
		s->route6_log_full = true;
	return i;
}

void
lsk_route6_batch_begin(struct lsk_stack *s)
{
	s->n_route6_log = 0;
	s->route6_log_full = false;
}

int
lsk_route6_batch_commit(struct lsk_stack *s)
{
	int rc = -EAGAIN;

	if (!s->route6_log_full)
		rc = lsk_fwd6_routes_apply(s, s->route6_log, s->n_route6_log,
					   false);
	if (rc == 0)
		lsk_route6_batch_begin(s);
	return rc;
}
