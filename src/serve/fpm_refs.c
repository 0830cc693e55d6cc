/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routes that name a nexthop (serve/fpm_refs.h): an open-addressing
 * table by (prefix, depth), linear probing, deletion by backward shift,
 * grown by doubling (16 bytes a slot, at most three quarters full: about
 * 32 MB for a million routes by nexthop id).
 */
#include <errno.h>
#include <stdlib.h>

#include "serve/fpm_refs.h"

#define REFS_MIN 1024

struct slot {
	uint64_t key;		/* 0: free; else 1 << 40 | prefix << 8 | depth */
	uint32_t nh_id;
	uint8_t proto;
};

struct lsk_fpm_refs {
	unsigned int n;
	uint64_t mask;
	struct slot *slots;
};

static uint64_t
ref_key(uint32_t prefix, uint8_t depth)
{
	return 1ULL << 40 | (uint64_t)prefix << 8 | depth;
}

static uint64_t
home(const struct lsk_fpm_refs *r, uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ULL >> 20) & r->mask;
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
ref_slot(const struct lsk_fpm_refs *r, uint64_t key)
{
	uint64_t i = home(r, key);

	while (r->slots[i].key != 0) {
		if (r->slots[i].key == key)
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
		if (old[i].key != 0)
			r->slots[-ref_slot(r, old[i].key) - 1] = old[i];
	free(old);
	return 0;
}

static void
refs_del(struct lsk_fpm_refs *r, uint64_t at)
{
	uint64_t i = at, j = at, k;

	for (;;) {
		j = (j + 1) & r->mask;
		if (r->slots[j].key == 0)
			break;
		k = home(r, r->slots[j].key);
		if (((j - k) & r->mask) >= ((j - i) & r->mask)) {
			r->slots[i] = r->slots[j];
			i = j;
		}
	}
	r->slots[i].key = 0;
	r->n--;
}

int
lsk_fpm_refs_set(struct lsk_fpm_refs *r, uint32_t prefix, uint8_t depth,
		 uint32_t nh_id, uint8_t proto)
{
	uint64_t key = ref_key(prefix, depth);
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
	r->slots[i] = (struct slot){ .key = key, .nh_id = nh_id,
				     .proto = proto };
	return 0;
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

	if (s->key == 0)
		return 0;
	*out = (struct lsk_fpm_ref){
		.prefix = (uint32_t)(s->key >> 8), .depth = (uint8_t)s->key,
		.proto = s->proto, .nh_id = s->nh_id,
	};
	return 1;
}
