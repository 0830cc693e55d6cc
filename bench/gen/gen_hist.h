/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The latency histogram: log-bucketed as HdrHistogram is. Values below
 * 2 x GEN_HIST_SUB (512) have a bucket each; above, each power of two
 * [2^k, 2^(k+1)) is cut into GEN_HIST_SUB (256) equal buckets, so a
 * bucket is at most 1/256 (0.4 %) of its values wide: 16 cycles, ~7 ns
 * at 2 us of a 2.3 GHz TSC, fine enough to tell list from single mode
 * apart by less than 100 ns (bench/gen/ab.h). A percentile is the
 * midpoint of the bucket that holds it, kept inside [min, max]; min, max
 * and mean are exact. Values are TSC cycles here (any unit in tests);
 * ~14 600 buckets cover 64 bits, 114 KB (one histogram, in the
 * generator's static context).
 */
#ifndef LSK_BENCH_GEN_HIST_H
#define LSK_BENCH_GEN_HIST_H

#include <stdint.h>

#define GEN_HIST_SUB_BITS 8
#define GEN_HIST_SUB (1u << GEN_HIST_SUB_BITS)
#define GEN_HIST_BUCKETS (2 * GEN_HIST_SUB + (64 - GEN_HIST_SUB_BITS - 1) * \
			  GEN_HIST_SUB)

struct gen_hist {
	uint64_t count;
	uint64_t min, max;
	double sum;
	uint64_t bucket[GEN_HIST_BUCKETS];
};

void gen_hist_reset(struct gen_hist *h);

static inline unsigned int
gen_hist_index(uint64_t v)
{
	unsigned int msb, e;

	if (v < 2 * GEN_HIST_SUB)
		return (unsigned int)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	e = msb - GEN_HIST_SUB_BITS;		/* >= 1 */
	return 2 * GEN_HIST_SUB + (e - 1) * GEN_HIST_SUB +
	       (unsigned int)((v >> e) - GEN_HIST_SUB);
}

static inline void
gen_hist_add(struct gen_hist *h, uint64_t v)
{
	h->bucket[gen_hist_index(v)]++;
	if (h->count == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += (double)v;
}

/* The lowest value and the width of bucket i. */
void gen_hist_bucket_range(unsigned int i, uint64_t *low, uint64_t *width);
/* The value at percentile p (0 < p <= 100): the smallest bucket holding
 * at least ceil(p/100 x count) values; 0 if there is none. */
double gen_hist_percentile(const struct gen_hist *h, double p);
double gen_hist_mean(const struct gen_hist *h);
/* Add b's counts to a. */
void gen_hist_merge(struct gen_hist *a, const struct gen_hist *b);

#endif /* LSK_BENCH_GEN_HIST_H */
