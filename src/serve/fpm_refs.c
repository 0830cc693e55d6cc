/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routes that name a nexthop (serve/fpm_refs.h): an open-addressing
 * table by (family, prefix, depth), linear probing, deletion by backward
 * shift, grown by doubling (24 bytes a slot, at most three quarters full:
 * about 48 MB for a million routes by nexthop id).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "serve/fpm_refs.h"

#define REFS_MIN 1024

/* The key: an IPv4 prefix is in a[0..4), network order, the rest 0. */
struct key {
	uint8_t a[16];
	uint8_t family;		/* AF_INET, AF_INET6; 0: a free slot */
	uint8_t depth;
};

struct slot {
	struct key key;
	uint8_t proto;
	uint32_t nh_id;
};

struct lsk_fpm_refs {
	unsigned int n;
	uint64_t mask;
	struct slot *slots;
};

static bool
key_eq(const struct key *x, const struct key *y)
{
	return x->family == y->family && x->depth == y->depth &&
	       memcmp(x->a, y->a, sizeof(x->a)) == 0;
}

static uint64_t
home(const struct lsk_fpm_refs *r, const struct key *k)
{
	uint64_t hi, lo;

	memcpy(&hi, k->a, 8);
	memcpy(&lo, k->a + 8, 8);
	hi = (hi ^ (uint64_t)k->family << 8 ^ k->depth) *
	     0x9e3779b97f4a7c15ULL;
	hi = (hi ^ hi >> 29 ^ lo) * 0xbf58476d1ce4e5b9ULL;
	return (hi >> 20) & r->mask;
}

struct lsk_fpm_refs *
lsk_fpm_refs_new(void)
{
	struct lsk_fpm_refs *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->slots = calloc(REFS_MIN, sizeof(*r->slots));
	if (r->slots == NULL) {
		free(r);
		return NULL;
	}
	r->mask = REFS_MIN - 1;
	return r;
}

void
lsk_fpm_refs_free(struct lsk_fpm_refs *r)
{
	if (r == NULL)
		return;
	free(r->slots);
	free(r);
}

/* The slot of key, or -(where it would go) - 1. */
static int64_t
ref_slot(const struct lsk_fpm_refs *r, const struct key *key)
{
	uint64_t i = home(r, key);

	while (r->slots[i].key.family != 0) {
		if (key_eq(&r->slots[i].key, key))
			return (int64_t)i;
		i = (i + 1) & r->mask;
	}
	return -(int64_t)i - 1;
}

static int
refs_grow(struct lsk_fpm_refs *r)
{
	struct slot *old = r->slots;
	uint64_t n = r->mask + 1, i;

	r->slots = calloc(n * 2, sizeof(*r->slots));
	if (r->slots == NULL) {
		r->slots = old;
		return -ENOMEM;
	}
	r->mask = n * 2 - 1;
	for (i = 0; i < n; i++)
		if (old[i].key.family != 0)
			r->slots[-ref_slot(r, &old[i].key) - 1] = old[i];
	free(old);
	return 0;
}

static void
refs_del(struct lsk_fpm_refs *r, uint64_t at)
{
	uint64_t i = at, j = at, k;

	for (;;) {
		j = (j + 1) & r->mask;
		if (r->slots[j].key.family == 0)
			break;
		k = home(r, &r->slots[j].key);
		if (((j - k) & r->mask) >= ((j - i) & r->mask)) {
			r->slots[i] = r->slots[j];
			i = j;
		}
	}
	r->slots[i].key.family = 0;
	r->n--;
}

static int
refs_set(struct lsk_fpm_refs *r, const struct key *key, uint32_t nh_id,
	 uint8_t proto)
{
	int64_t i = ref_slot(r, key);

	if (nh_id == 0) {
		if (i >= 0)
			refs_del(r, (uint64_t)i);
		return 0;
	}
	if (i < 0) {
		if ((uint64_t)(r->n + 1) * 4 > (r->mask + 1) * 3) {
			if (refs_grow(r) < 0)
				return -ENOMEM;
			i = ref_slot(r, key);
		}
		i = -i - 1;
		r->n++;
	}
	r->slots[i] = (struct slot){ .key = *key, .nh_id = nh_id,
				     .proto = proto };
	return 0;
}

int
lsk_fpm_refs_set(struct lsk_fpm_refs *r, uint32_t prefix, uint8_t depth,
		 uint32_t nh_id, uint8_t proto)
{
	struct key key = { .family = AF_INET, .depth = depth };

	key.a[0] = (uint8_t)(prefix >> 24);
	key.a[1] = (uint8_t)(prefix >> 16);
	key.a[2] = (uint8_t)(prefix >> 8);
	key.a[3] = (uint8_t)prefix;
	return refs_set(r, &key, nh_id, proto);
}

int
lsk_fpm_refs_set6(struct lsk_fpm_refs *r, const struct lsk_ip6_addr *prefix,
		  uint8_t depth, uint32_t nh_id, uint8_t proto)
{
	struct key key = { .family = AF_INET6, .depth = depth };

	memcpy(key.a, prefix->a, sizeof(key.a));
	return refs_set(r, &key, nh_id, proto);
}

unsigned int
lsk_fpm_refs_count(const struct lsk_fpm_refs *r)
{
	return r->n;
}

unsigned int
lsk_fpm_refs_slots(const struct lsk_fpm_refs *r)
{
	return (unsigned int)(r->mask + 1);
}

int
lsk_fpm_refs_at(const struct lsk_fpm_refs *r, unsigned int i,
		struct lsk_fpm_ref *out)
{
	const struct slot *s = &r->slots[i];
	const uint8_t *a = s->key.a;

	if (s->key.family == 0)
		return 0;
	*out = (struct lsk_fpm_ref){
		.family = s->key.family, .depth = s->key.depth,
		.proto = s->proto, .nh_id = s->nh_id,
	};
	if (s->key.family == AF_INET6)
		memcpy(out->prefix6.a, a, sizeof(out->prefix6.a));
	else
		out->prefix = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 |
			      (uint32_t)a[2] << 8 | a[3];
	return 1;
}
