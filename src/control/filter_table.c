/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The filter table: `filter add` rules compiled into an rte_acl context
 * (first rule wins, by priority), published to the workers like the FIB.
 * Rules look only at fields every datagram of a flow shares (protocol,
 * addresses, ports), so one verdict holds for a whole train.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_acl.h>
#include <rte_malloc.h>

#include "core/fwd.h"
#include "ip4/ip4.h"
#include "control/control.h"

enum { F_PROTO, F_SRC, F_DST, F_SPORT, F_DPORT, F_NUM };

RTE_ACL_RULE_DEF(lsk_acl_rule, F_NUM);

static const struct rte_acl_field_def filter_fields[F_NUM] = {
	[F_PROTO] = { .type = RTE_ACL_FIELD_TYPE_BITMASK, .size = 1,
		      .field_index = F_PROTO, .input_index = 0,
		      .offset = offsetof(struct lsk_filter_key, proto) },
	[F_SRC] = { .type = RTE_ACL_FIELD_TYPE_MASK, .size = 4,
		    .field_index = F_SRC, .input_index = 1,
		    .offset = offsetof(struct lsk_filter_key, src) },
	[F_DST] = { .type = RTE_ACL_FIELD_TYPE_MASK, .size = 4,
		    .field_index = F_DST, .input_index = 2,
		    .offset = offsetof(struct lsk_filter_key, dst) },
	[F_SPORT] = { .type = RTE_ACL_FIELD_TYPE_RANGE, .size = 2,
		      .field_index = F_SPORT, .input_index = 3,
		      .offset = offsetof(struct lsk_filter_key, sport) },
	[F_DPORT] = { .type = RTE_ACL_FIELD_TYPE_RANGE, .size = 2,
		      .field_index = F_DPORT, .input_index = 3,
		      .offset = offsetof(struct lsk_filter_key, dport) },
};

void
lsk_filter_table_free(struct lsk_filter_table *t)
{
	if (t == NULL)
		return;
	rte_acl_free(t->ctx);
	rte_free(t);
}

static void
rule_fill(struct lsk_acl_rule *r, const struct lsk_filter_rule *f,
	  uint32_t index, uint32_t n_rules)
{
	memset(r, 0, sizeof(*r));
	r->data.category_mask = 1;
	/* the first rule added wins */
	r->data.priority = (int32_t)(RTE_ACL_MAX_PRIORITY - index);
	r->data.userdata = index + 1;
	(void)n_rules;
	r->field[F_PROTO].value.u8 = f->proto;
	r->field[F_PROTO].mask_range.u8 = f->proto ? 0xff : 0;
	r->field[F_SRC].value.u32 = f->src;
	r->field[F_SRC].mask_range.u32 = f->src_depth;
	r->field[F_DST].value.u32 = f->dst;
	r->field[F_DST].mask_range.u32 = f->dst_depth;
	r->field[F_SPORT].value.u16 = f->sport_lo;
	r->field[F_SPORT].mask_range.u16 = f->sport_hi;
	r->field[F_DPORT].value.u16 = f->dport_lo;
	r->field[F_DPORT].mask_range.u16 = f->dport_hi;
}

/* Values lo..hi (lo <= hi < 256) into a screen's map. */
static void
screen_set(uint8_t map[256], uint32_t lo, uint32_t hi)
{
	memset(&map[lo], 1, hi - lo + 1);
}

/*
 * Rule f's values of each screened byte into t's screen (ip4/ip4.h: the
 * union over the rules, so a key outside it matches none of them): any
 * protocol or one; the first bytes of the addresses in a prefix (host
 * order here: the first on the wire is the high one); the high bytes of
 * the destination ports in a range, 0 among them when the range holds
 * port 0, which a datagram without ports has in its key.
 */
static void
screen_add(struct lsk_filter_screen *sc, const struct lsk_filter_rule *f)
{
	uint32_t src_last = f->src | ~lsk_depth_mask(f->src_depth);
	uint32_t dst_last = f->dst | ~lsk_depth_mask(f->dst_depth);

	if (f->proto == 0)
		screen_set(sc->proto, 0, 255);
	else
		screen_set(sc->proto, f->proto, f->proto);
	screen_set(sc->src, f->src >> 24, src_last >> 24);
	screen_set(sc->dst, f->dst >> 24, dst_last >> 24);
	screen_set(sc->dport, f->dport_lo >> 8, f->dport_hi >> 8);
}

int
lsk_filter_table_build(struct lsk_stack *s, struct lsk_filter_table **out)
{
	struct rte_acl_param ap = { 0 };
	struct rte_acl_config cfg;
	struct lsk_filter_table *t;
	struct lsk_acl_rule r;
	char name[RTE_ACL_NAMESIZE];
	uint32_t i;
	int rc;

	*out = NULL;
	if (s->n_filters == 0)
		return 0;	/* no rules: everything is accepted */
	t = rte_zmalloc_socket("lsk_filter", sizeof(*t) + s->n_filters,
			       RTE_CACHE_LINE_SIZE, s->sh.socket_id);
	if (t == NULL)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%.16s_acl%u", s->name,
		 ++s->filter_generation);
	ap.name = name;
	ap.socket_id = s->sh.socket_id;
	ap.rule_size = RTE_ACL_RULE_SZ(F_NUM);
	ap.max_rule_num = s->n_filters;
	t->ctx = rte_acl_create(&ap);
	if (t->ctx == NULL) {
		rte_free(t);
		return -ENOMEM;
	}
	for (i = 0; i < s->n_filters; i++) {
		rule_fill(&r, &s->filters[i], i, s->n_filters);
		t->drop[i] = s->filters[i].drop;
		screen_add(&t->screen, &s->filters[i]);
		rc = rte_acl_add_rules(t->ctx, (const struct rte_acl_rule *)&r,
				       1);
		if (rc < 0) {
			lsk_filter_table_free(t);
			return rc;
		}
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.num_categories = 1;
	cfg.num_fields = F_NUM;
	memcpy(cfg.defs, filter_fields, sizeof(filter_fields));
	rc = rte_acl_build(t->ctx, &cfg);
	if (rc < 0) {
		lsk_filter_table_free(t);
		return rc;
	}
	t->n_rules = s->n_filters;
	*out = t;
	return 0;
}

static int
filter_publish(struct lsk_stack *s)
{
	struct lsk_filter_table *t;
	int rc;

	rc = lsk_filter_table_build(s, &t);
	if (rc < 0)
		return rc;
	lsk_publish(s, s->sh.filter, t, lsk_filter_table_free);
	return 0;
}

int
lsk_filter_add(struct lsk_stack *s, const struct lsk_filter_rule *rule)
{
	struct lsk_filter_rule r;
	int rc;

	if (rule == NULL || rule->src_depth > 32 || rule->dst_depth > 32 ||
	    rule->sport_lo > rule->sport_hi || rule->dport_lo > rule->dport_hi)
		return -EINVAL;
	if (s->n_filters == LSK_FILTER_MAX_RULES)
		return -ENOSPC;
	if (lsk_array_grow((void **)&s->filters, &s->filters_cap, s->n_filters,
			   sizeof(*s->filters), 64) < 0)
		return -ENOMEM;
	r = *rule;
	r.src &= lsk_depth_mask(r.src_depth);
	r.dst &= lsk_depth_mask(r.dst_depth);
	s->filters[s->n_filters++] = r;
	if (s->in_batch)
		return 0;
	rc = filter_publish(s);
	if (rc < 0)
		s->n_filters--;
	return rc;
}

int
lsk_filter_flush(struct lsk_stack *s)
{
	s->n_filters = 0;
	return s->in_batch ? 0 : filter_publish(s);
}

int
lsk_filter_del(struct lsk_stack *s, uint32_t n)
{
	struct lsk_filter_rule gone;
	int rc;

	if (n >= s->n_filters)
		return -ENOENT;
	gone = s->filters[n];
	memmove(&s->filters[n], &s->filters[n + 1],
		(s->n_filters - n - 1) * sizeof(*s->filters));
	s->n_filters--;
	if (s->in_batch)
		return 0;
	rc = filter_publish(s);
	if (rc < 0) {
		/* back in its place: the array keeps its room */
		memmove(&s->filters[n + 1], &s->filters[n],
			(s->n_filters - n) * sizeof(*s->filters));
		s->filters[n] = gone;
		s->n_filters++;
	}
	return rc;
}

int
lsk_filter_commit(struct lsk_stack *s)
{
	return filter_publish(s);
}
