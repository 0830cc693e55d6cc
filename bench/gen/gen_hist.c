/* SPDX-License-Identifier: BSD-3-Clause */
/* The latency histogram's read side (gen_hist.h says the buckets). */
#include <math.h>
#include <string.h>

#include "gen_hist.h"

void
gen_hist_reset(struct gen_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void
gen_hist_bucket_range(unsigned int i, uint64_t *low, uint64_t *width)
{
	unsigned int e;

	if (i < 2 * GEN_HIST_SUB) {
		*low = i;
		*width = 1;
		return;
	}
	e = (i - 2 * GEN_HIST_SUB) / GEN_HIST_SUB + 1;
	*low = (uint64_t)((i - 2 * GEN_HIST_SUB) % GEN_HIST_SUB +
			  GEN_HIST_SUB) << e;
	*width = UINT64_C(1) << e;
}

double
gen_hist_percentile(const struct gen_hist *h, double p)
{
	uint64_t rank, seen = 0, low, width;
	unsigned int i;
	double v, r;

	if (h->count == 0 || !(p > 0))
		return 0;
	if (p >= 100)
		return (double)h->max;
	/* p / 100 x count, less what decimal percentages gain in binary
	 * (99.9 / 100 x 1000 is 999.0000000000001: rank 999, not 1000) */
	r = p / 100.0 * (double)h->count;
	rank = (uint64_t)ceil(r - r * 1e-12);
	if (rank == 0)
		rank = 1;
	for (i = 0; i < GEN_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == GEN_HIST_BUCKETS)
		return (double)h->max;
	gen_hist_bucket_range(i, &low, &width);
	/* a one-value bucket is exact; a wider one says its midpoint */
	v = width == 1 ? (double)low : (double)low + (double)(width - 1) / 2;
	if (v < (double)h->min)
		v = (double)h->min;
	if (v > (double)h->max)
		v = (double)h->max;
	return v;
}

double
gen_hist_mean(const struct gen_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}

void
gen_hist_merge(struct gen_hist *a, const struct gen_hist *b)
{
	unsigned int i;

	if (b->count == 0)
		return;
	for (i = 0; i < GEN_HIST_BUCKETS; i++)
		a->bucket[i] += b->bucket[i];
	if (a->count == 0 || b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
	a->count += b->count;
	a->sum += b->sum;
}
