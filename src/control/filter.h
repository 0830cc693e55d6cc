/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The filter as the control thread keeps it: the rules as given and the
 * classifier built from them that workers read (control/filter_table.c,
 * the stage ip4/ip4_filter.c).
 */
#ifndef LSK_CONTROL_FILTER_H
#define LSK_CONTROL_FILTER_H

#include <stdbool.h>
#include <stdint.h>

struct lsk_stack;
struct lsk_filter_table;

/* A `filter add` rule, in host order; depth 0 and 0-65535 match all. */
struct lsk_filter_rule {
	bool drop;
	uint8_t proto;		/* 0 = any */
	uint8_t src_depth, dst_depth;
	uint32_t src, dst;
	uint16_t sport_lo, sport_hi, dport_lo, dport_hi;
};

#define LSK_FILTER_MAX_RULES 65536

/* The filter's rules and the classifier workers read, built from them
 * (control/filter_table.c). */
int lsk_filter_table_build(struct lsk_stack *s, struct lsk_filter_table **out);
void lsk_filter_table_free(struct lsk_filter_table *t);
int lsk_filter_add(struct lsk_stack *s, const struct lsk_filter_rule *rule);
int lsk_filter_flush(struct lsk_stack *s);
int lsk_filter_commit(struct lsk_stack *s);
/* Rule n (from 0, as `show filter` numbers them from 1) goes. */
int lsk_filter_del(struct lsk_stack *s, uint32_t n);

#endif /* LSK_CONTROL_FILTER_H */
