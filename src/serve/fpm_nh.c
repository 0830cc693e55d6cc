/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * zebra's nexthops (serve/fpm_nh.h): an open-addressing table by id
 * (linear probing, deletion by backward shift, so no tombstones pile
 * up), grown by doubling up to its bound; and the resolution of a
 * decoded route into the route to learn. (A nexthop replaced under its
 * id: the server resolves the routes naming it again, serve/fpm_refs.h.)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "serve/fpm_nh.h"

#define NH_TABLE_MIN 64
#define WEIGHT_MAX 256

struct lsk_fpm_nh_table {
	unsigned int max;	/* the most nexthops */
	unsigned int n;
	uint32_t mask;		/* slots - 1 (a power of two) */
	struct lsk_fpm_nh *slots;	/* id 0: free */
};

static uint32_t
home(const struct lsk_fpm_nh_table *t, uint32_t id)
{
	return (id * 2654435761u) & t->mask;
}

struct lsk_fpm_nh_table *
lsk_fpm_nh_table_new(unsigned int max)
{
	struct lsk_fpm_nh_table *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->slots = calloc(NH_TABLE_MIN, sizeof(*t->slots));
	if (t->slots == NULL) {
		free(t);
		return NULL;
	}
	t->max = max;
	t->mask = NH_TABLE_MIN - 1;
	return t;
}

void
lsk_fpm_nh_table_free(struct lsk_fpm_nh_table *t)
{
	if (t == NULL)
		return;
	free(t->slots);
	free(t);
}

static int
nh_slot(const struct lsk_fpm_nh_table *t, uint32_t id)
{
	uint32_t i = home(t, id);

	while (t->slots[i].id != 0) {
		if (t->slots[i].id == id)
			return (int)i;
		i = (i + 1) & t->mask;
	}
	return -(int)i - 1;	/* where it would go */
}

static int
nh_grow(struct lsk_fpm_nh_table *t)
{
	struct lsk_fpm_nh *old = t->slots;
	uint32_t old_n = t->mask + 1, i;

	t->slots = calloc((size_t)old_n * 2, sizeof(*t->slots));
	if (t->slots == NULL) {
		t->slots = old;
		return -ENOMEM;
	}
	t->mask = old_n * 2 - 1;
	for (i = 0; i < old_n; i++)
		if (old[i].id != 0)
			t->slots[-nh_slot(t, old[i].id) - 1] = old[i];
	free(old);
	return 0;
}

int
lsk_fpm_nh_set(struct lsk_fpm_nh_table *t, const struct lsk_fpm_nh *nh)
{
	int i = nh_slot(t, nh->id);

	if (i < 0) {
		if (t->n >= t->max)
			return -ENOSPC;
		/* at most three quarters full: probes stay short */
		if ((t->n + 1) * 4 > (t->mask + 1) * 3) {
			if (nh_grow(t) < 0)
				return -ENOMEM;
			i = nh_slot(t, nh->id);
		}
		t->n++;
		i = -i - 1;
	}
	t->slots[i] = *nh;
	return 0;
}

int
lsk_fpm_nh_del(struct lsk_fpm_nh_table *t, uint32_t id)
{
	int found = nh_slot(t, id);
	uint32_t i, j, k;

	if (found < 0)
		return -ENOENT;
	/* shift back each entry after the hole that may live in it */
	i = j = (uint32_t)found;
	for (;;) {
		j = (j + 1) & t->mask;
		if (t->slots[j].id == 0)
			break;
		k = home(t, t->slots[j].id);
		if (((j - k) & t->mask) >= ((j - i) & t->mask)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].id = 0;
	t->n--;
	return 0;
}

const struct lsk_fpm_nh *
lsk_fpm_nh_find(const struct lsk_fpm_nh_table *t, uint32_t id)
{
	int i = id != 0 ? nh_slot(t, id) : -1;

	return i >= 0 ? &t->slots[i] : NULL;
}

unsigned int
lsk_fpm_nh_count(const struct lsk_fpm_nh_table *t)
{
	return t->n;
}

/* ------------------------------------------------------ resolution */

struct resolve {
	lsk_fpm_iface_fn iface_of;
	void *arg;
	uint8_t family;		/* the route's */
	struct lsk_route_learned *out;		/* AF_INET */
	struct lsk_route6_learned *out6;	/* AF_INET6 */
	struct lsk_fpm_stats *cnt;
	bool any_gateway;	/* a path of zebra's had one */
};

static uint16_t
weight_cap(unsigned int weight)
{
	return (uint16_t)(weight > WEIGHT_MAX ? WEIGHT_MAX : weight);
}

/* An IPv6 path into out6's paths, as path_put does IPv4's. */
static void
path6_put(struct resolve *rs, const struct lsk_fpm_path *p, uint16_t iface,
	  unsigned int weight)
{
	struct lsk_route6_learned *out = rs->out6;
	unsigned int i;

	for (i = 0; i < out->n_paths; i++) {
		struct lsk_route6_path *q = &out->paths[i];

		if (memcmp(&q->gateway, &p->gateway6, sizeof(q->gateway))
		    == 0 && q->iface == iface) {
			q->weight = weight_cap(weight + q->weight);
			return;
		}
	}
	if (out->n_paths == LSK_ROUTE_MAX_PATHS) {
		rs->cnt->PathsCut++;
		return;
	}
	out->paths[out->n_paths++] = (struct lsk_route6_path){
		.gateway = p->gateway6, .iface = iface,
		.weight = weight_cap(weight),
	};
}

/* fe80::/10: a gateway that means something only with its interface */
static bool
link_local(const struct lsk_ip6_addr *a)
{
	return a->a[0] == 0xfe && (a->a[1] & 0xc0) == 0x80;
}

static bool
addr6_zero(const struct lsk_ip6_addr *a)
{
	static const struct lsk_ip6_addr zero;

	return memcmp(a, &zero, sizeof(zero)) == 0;
}

/* One path of zebra's into out's paths (a path alike: weights summed).
 * A gateway of the other family (an IPv4 route over an IPv6 nexthop,
 * RFC 5549, or the reverse) is left out, counted SkipInet6. An IPv4
 * gateway of 0, an IPv6 one of ::, is none (on-link). */
static void
path_put(struct resolve *rs, const struct lsk_fpm_path *p, unsigned int mul)
{
	struct lsk_route_learned *out = rs->out;
	unsigned int weight = p->weight * mul, i;
	uint16_t iface = LSK_IFACE_ANY;
	bool gw = rs->family == AF_INET6 ?
		  p->gw_family == AF_INET6 && !addr6_zero(&p->gateway6) :
		  p->gw_family != AF_INET6 && p->gateway != 0;
	int rc;

	if (p->gw_family != 0 && p->gw_family != rs->family) {
		rs->cnt->SkipInet6++;
		return;
	}
	rs->any_gateway |= gw;
	if (p->ifindex != 0) {
		rc = rs->iface_of(rs->arg, p->ifindex);
		if (rc >= 0)
			iface = (uint16_t)rc;
		else if (!gw)
			return;	/* on-link on an interface not ours */
	} else if (!gw) {
		return;
	}
	if (rs->family == AF_INET6) {
		/* a link-local gateway on no interface of ours: nowhere */
		if (gw && iface == LSK_IFACE_ANY && link_local(&p->gateway6))
			return;
		path6_put(rs, p, iface, weight);
		return;
	}
	for (i = 0; i < out->n_paths; i++) {
		struct lsk_route_path *q = &out->paths[i];

		if (q->gateway == p->gateway && q->iface == iface) {
			q->weight = weight_cap(weight + q->weight);
			return;
		}
	}
	if (out->n_paths == LSK_ROUTE_MAX_PATHS) {
		rs->cnt->PathsCut++;
		return;
	}
	out->paths[out->n_paths++] = (struct lsk_route_path){
		.gateway = p->gateway, .iface = iface,
		.weight = weight_cap(weight),
	};
}

/* A nexthop's paths: a single one, or a group's members (nested groups
 * one level deep; blackholes and unusable members left out). */
static void
nh_put(const struct lsk_fpm_nh_table *t, struct resolve *rs,
       const struct lsk_fpm_nh *nh, unsigned int mul, int depth)
{
	unsigned int i;

	if (nh->blackhole || nh->unusable)
		return;
	if (nh->n_group == 0) {
		path_put(rs, &nh->path, mul);
		return;
	}
	for (i = 0; i < nh->n_group && depth < 2; i++) {
		const struct lsk_fpm_nh *m = lsk_fpm_nh_find(t, nh->group[i].id);

		if (m != NULL)
			nh_put(t, rs, m, mul * nh->group[i].weight, depth + 1);
	}
}

/* Both families' resolution: rs->out or rs->out6 has its head. */
static int
resolve(const struct lsk_fpm_nh_table *t, const struct lsk_fpm_route *r,
	struct resolve *rs, uint8_t *type, const uint8_t *n_paths)
{
	struct lsk_fpm_stats *cnt = rs->cnt;
	unsigned int i;

	if (r->withdraw || r->type != LSK_ROUTE_VIA)
		return 0;
	if (r->nh_id != 0) {
		const struct lsk_fpm_nh *nh = lsk_fpm_nh_find(t, r->nh_id);

		if (nh == NULL) {
			cnt->SkipNoNexthop++;
			return -ENOENT;
		}
		if (nh->blackhole) {
			*type = LSK_ROUTE_BLACKHOLE;
			return 0;
		}
		nh_put(t, rs, nh, 1, 0);
	} else {
		for (i = 0; i < r->n_paths; i++)
			path_put(rs, &r->paths[i], 1);
	}
	/* zebra's connected routes (the TAPs' subnets are ours already) */
	if (r->proto == RTPROT_KERNEL && !rs->any_gateway) {
		cnt->SkipConnected++;
		return -EEXIST;
	}
	if (*n_paths == 0) {
		cnt->SkipNoPath++;
		return -ENETUNREACH;
	}
	return 0;
}

int
lsk_fpm_route_resolve(const struct lsk_fpm_nh_table *t,
		      const struct lsk_fpm_route *r,
		      lsk_fpm_iface_fn iface_of, void *arg,
		      struct lsk_route_learned *out, struct lsk_fpm_stats *cnt)
{
	struct resolve rs = {
		.iface_of = iface_of, .arg = arg, .family = AF_INET,
		.out = out, .cnt = cnt,
	};

	if (r->family == AF_INET6)
		return -EAFNOSUPPORT;
	memset(out, 0, offsetof(struct lsk_route_learned, paths));
	out->prefix = r->prefix;
	out->depth = r->depth;
	out->withdraw = r->withdraw;
	out->type = r->type;
	out->proto = r->proto;
	return resolve(t, r, &rs, &out->type, &out->n_paths);
}

int
lsk_fpm_route6_resolve(const struct lsk_fpm_nh_table *t,
		       const struct lsk_fpm_route *r,
		       lsk_fpm_iface_fn iface_of, void *arg,
		       struct lsk_route6_learned *out,
		       struct lsk_fpm_stats *cnt)
{
	struct resolve rs = {
		.iface_of = iface_of, .arg = arg, .family = AF_INET6,
		.out6 = out, .cnt = cnt,
	};

	if (r->family != AF_INET6)
		return -EAFNOSUPPORT;
	memset(out, 0, offsetof(struct lsk_route6_learned, paths));
	out->prefix = r->prefix6;
	out->depth = r->depth;
	out->withdraw = r->withdraw;
	out->type = r->type;
	out->proto = r->proto;
	return resolve(t, r, &rs, &out->type, &out->n_paths);
}
