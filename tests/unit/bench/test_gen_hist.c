/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The latency histogram (bench/gen/gen_hist.h): bucket boundaries, exact
 * percentiles where the buckets are one value wide, known percentiles
 * within a bucket's width above, the resolution at 2 us, min/max/mean,
 * merge.
 */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "gen/gen_hist.h"

static struct gen_hist h, h2;

static void
test_index_continuous(void **state)
{
	uint64_t low, width, prev_end = 0, v;
	unsigned int i;

	(void)state;
	/* the buckets tile 0 .. 2^64 - 1 with no gap or overlap, each at
	 * most 1/GEN_HIST_SUB of its values wide */
	for (i = 0; i < GEN_HIST_BUCKETS; i++) {
		gen_hist_bucket_range(i, &low, &width);
		assert_true(low == prev_end);
		if (low >= 2 * GEN_HIST_SUB)
			assert_true(width * GEN_HIST_SUB <= low);
		assert_int_equal(gen_hist_index(low), i);
		assert_int_equal(gen_hist_index(low + width - 1), i);
		prev_end = low + width;
	}
	assert_true(prev_end == 0);	/* wrapped: 2^64 */
	for (v = 1; v < 1u << 20; v = v * 3 + 1)
		assert_true(gen_hist_index(v) < GEN_HIST_BUCKETS);
	assert_int_equal(gen_hist_index(UINT64_MAX), GEN_HIST_BUCKETS - 1);
}

static void
test_exact_small(void **state)
{
	unsigned int i;

	(void)state;
	gen_hist_reset(&h);
	assert_true(gen_hist_percentile(&h, 50) == 0);
	/* 1 .. 60, one bucket each: percentiles are exact ranks */
	for (i = 60; i >= 1; i--)
		gen_hist_add(&h, i);
	assert_int_equal(h.count, 60);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.max, 60);
	assert_true(gen_hist_mean(&h) == 30.5);
	assert_true(gen_hist_percentile(&h, 50) == 30);
	assert_true(gen_hist_percentile(&h, 90) == 54);
	assert_true(gen_hist_percentile(&h, 99) == 60);	/* rank 59.4 -> 60 */
	assert_true(gen_hist_percentile(&h, 100) == 60);
	assert_true(gen_hist_percentile(&h, 0.1) == 1);
}

static void
test_known_percentiles(void **state)
{
	unsigned int i;
	double p50, p90, p99, p999;

	(void)state;
	gen_hist_reset(&h);
	/* 1 .. 100000: the p-th percentile is p x 1000, within a bucket */
	for (i = 1; i <= 100000; i++)
		gen_hist_add(&h, i);
	p50 = gen_hist_percentile(&h, 50);
	p90 = gen_hist_percentile(&h, 90);
	p99 = gen_hist_percentile(&h, 99);
	p999 = gen_hist_percentile(&h, 99.9);
	assert_true(fabs(p50 - 50000) <= 50000 / (double)GEN_HIST_SUB);
	assert_true(fabs(p90 - 90000) <= 90000 / (double)GEN_HIST_SUB);
	assert_true(fabs(p99 - 99000) <= 99000 / (double)GEN_HIST_SUB);
	assert_true(fabs(p999 - 99900) <= 99900 / (double)GEN_HIST_SUB);
	assert_true(p50 < p90 && p90 < p99 && p99 <= p999);
	assert_true(gen_hist_percentile(&h, 100) == 100000);
	assert_true(gen_hist_mean(&h) == 50000.5);
}

static void
test_outlier(void **state)
{
	unsigned int i;

	(void)state;
	gen_hist_reset(&h);
	/* 999 at 1000 and one at 10^9: p99.9 is still 1000 (within the
	 * bucket), max says the outlier exactly */
	for (i = 0; i < 999; i++)
		gen_hist_add(&h, 1000);
	gen_hist_add(&h, 1000000000);
	assert_true(fabs(gen_hist_percentile(&h, 50) - 1000) <= 1);
	assert_true(fabs(gen_hist_percentile(&h, 99.9) - 1000) <= 1);
	assert_true(gen_hist_percentile(&h, 99.95) >=
		    1000000000 * (1 - 1.0 / GEN_HIST_SUB));
	assert_true(h.max == 1000000000);
	assert_true(h.min == 1000);
}

static void
test_two_modes(void **state)
{
	unsigned int i;
	double p;

	(void)state;
	gen_hist_reset(&h);
	/* 90 % at 2000 cycles, 10 % at 50000 */
	for (i = 0; i < 9000; i++)
		gen_hist_add(&h, 2000);
	for (i = 0; i < 1000; i++)
		gen_hist_add(&h, 50000);
	p = gen_hist_percentile(&h, 90);
	assert_true(fabs(p - 2000) <= 2000 / (double)GEN_HIST_SUB);
	p = gen_hist_percentile(&h, 90.01);
	assert_true(fabs(p - 50000) <= 50000 / (double)GEN_HIST_SUB);
	p = gen_hist_percentile(&h, 99);
	assert_true(fabs(p - 50000) <= 50000 / (double)GEN_HIST_SUB && p <= 50000);
}

/*
 * What the A/B latency comparison (bench/gen/ab.h) needs: at 2 us of a
 * 2.3 GHz TSC (4 600 cycles) a bucket is at most 16 cycles (~7 ns) wide,
 * and two runs whose medians differ by 23 cycles (10 ns) have p50s that
 * differ by 23 within a bucket's width.
 */
static void
test_resolution_at_2us(void **state)
{
	uint64_t low, width;
	unsigned int i;
	double a, b;

	(void)state;
	gen_hist_bucket_range(gen_hist_index(4600), &low, &width);
	assert_true(width <= 16);
	assert_true(low <= 4600 && 4600 < low + width);
	gen_hist_reset(&h);
	gen_hist_reset(&h2);
	for (i = 0; i < 1000; i++) {
		gen_hist_add(&h, 4500 + i % 200);	/* median 4600 */
		gen_hist_add(&h2, 4523 + i % 200);	/* median 4623 */
	}
	a = gen_hist_percentile(&h, 50);
	b = gen_hist_percentile(&h2, 50);
	assert_true(fabs(a - 4600) <= (double)width);
	assert_true(fabs((b - a) - 23) <= (double)width);
	assert_true(b > a);
}

static void
test_merge(void **state)
{
	unsigned int i;

	(void)state;
	gen_hist_reset(&h);
	gen_hist_reset(&h2);
	for (i = 1; i <= 30; i++)
		gen_hist_add(&h, i);
	for (i = 31; i <= 60; i++)
		gen_hist_add(&h2, i);
	gen_hist_merge(&h, &h2);
	assert_int_equal(h.count, 60);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.max, 60);
	assert_true(gen_hist_percentile(&h, 50) == 30);
	gen_hist_reset(&h2);
	gen_hist_merge(&h2, &h);
	assert_int_equal(h2.min, 1);
	assert_true(gen_hist_percentile(&h2, 90) == 54);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_continuous),
		cmocka_unit_test(test_exact_small),
		cmocka_unit_test(test_known_percentiles),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_two_modes),
		cmocka_unit_test(test_resolution_at_2us),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
