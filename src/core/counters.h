/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MIB counters of struct lsk_stats by name, made from the lists of
 * include/listack/stats.h: what the stats JSON, telemetry, metrics and
 * the trace's drop records name. In core, so that the trace (a worker's
 * machinery) names a counter without asking the control side.
 */
#ifndef LSK_CORE_COUNTERS_H
#define LSK_CORE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "listack/listack.h"

struct lsk_counter_desc {
	const char *section;	/* "ip", "udp", ... */
	const char *name;	/* "InReceives", ... */
	size_t offset;		/* in struct lsk_stats */
};

/* Every counter, by section, in the order they are written (n of them). */
const struct lsk_counter_desc *lsk_counters(unsigned int *n);
/* The counter at offset in struct lsk_stats, or NULL (a port's, or no
 * counter's: core/drop.h's places are offset + 1). */
const struct lsk_counter_desc *lsk_counter_at(size_t offset);
uint64_t lsk_counter_value(const struct lsk_stats *st,
			   const struct lsk_counter_desc *c);

#endif /* LSK_CORE_COUNTERS_H */
