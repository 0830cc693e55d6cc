/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's sequence checker (bench/gen/gen_seq.h) on hand-made
 * sequences: in order, loss, reorder, duplicates, several flows, 32-bit
 * wrap, the window's edge and past it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gen/gen_seq.h"

/* Feed seqs of flow 0; return the counts. */
static struct gen_seq_counts
feed(uint32_t start, const uint32_t *seqs, unsigned int n)
{
	struct gen_seq s;
	struct gen_seq_counts c;
	unsigned int i;

	assert_int_equal(gen_seq_init(&s, 1, start), 0);
	for (i = 0; i < n; i++)
		gen_seq_add(&s, 0, seqs[i]);
	c = s.c;
	gen_seq_fini(&s);
	return c;
}

#define FEED(start, ...) ({						\
	static const uint32_t v_[] = { __VA_ARGS__ };			\
	feed(start, v_, sizeof(v_) / sizeof(v_[0]));			\
})

static void
test_in_order(void **state)
{
	struct gen_seq_counts c = FEED(0, 0, 1, 2, 3, 4, 5, 6, 7);

	(void)state;
	assert_int_equal(c.received, 8);
	assert_int_equal(c.reordered, 0);
	assert_int_equal(c.duplicates, 0);
	assert_int_equal(c.late, 0);
}

static void
test_loss(void **state)
{
	/* 2, 5, 6 never come: received 7 of 10 sent; loss is the sender's
	 * count less this */
	struct gen_seq_counts c = FEED(0, 0, 1, 3, 4, 7, 8, 9);

	(void)state;
	assert_int_equal(c.received, 7);
	assert_int_equal(c.reordered, 0);
	assert_int_equal(c.duplicates, 0);
}

static void
test_first_lost(void **state)
{
	struct gen_seq_counts c = FEED(0, 3, 4, 5);

	(void)state;
	assert_int_equal(c.received, 3);
	assert_int_equal(c.reordered, 0);
}

static void
test_reorder(void **state)
{
	/* swapped pairs (1,0), (5,4), and 9 behind 10 and 11 */
	struct gen_seq_counts c = FEED(0, 1, 0, 2, 3, 5, 4, 6, 7, 8, 10, 11, 9);

	(void)state;
	assert_int_equal(c.received, 12);
	assert_int_equal(c.reordered, 3);
	assert_int_equal(c.duplicates, 0);
}

static void
test_duplicates(void **state)
{
	/* 2 twice in a row, 0 again later, 5 three times, a reordered one
	 * seen again (4) is a duplicate, not a second reorder */
	struct gen_seq_counts c = FEED(0, 0, 1, 2, 2, 3, 0, 5, 5, 4, 5, 4);

	(void)state;
	assert_int_equal(c.received, 6);
	assert_int_equal(c.reordered, 1);
	assert_int_equal(c.duplicates, 5);
}

static void
test_flows_apart(void **state)
{
	struct gen_seq s;

	(void)state;
	assert_int_equal(gen_seq_init(&s, 3, 0), 0);
	/* the same numbers on other flows are no duplicates */
	assert_int_equal(gen_seq_add(&s, 0, 0), GEN_SEQ_IN_ORDER);
	assert_int_equal(gen_seq_add(&s, 1, 0), GEN_SEQ_IN_ORDER);
	assert_int_equal(gen_seq_add(&s, 2, 1), GEN_SEQ_GAP);
	assert_int_equal(gen_seq_add(&s, 2, 0), GEN_SEQ_REORDERED);
	assert_int_equal(gen_seq_add(&s, 1, 0), GEN_SEQ_DUPLICATE);
	assert_int_equal(gen_seq_add(&s, 0, 1), GEN_SEQ_IN_ORDER);
	assert_int_equal(s.c.received, 5);
	assert_int_equal(s.c.reordered, 1);
	assert_int_equal(s.c.duplicates, 1);
	gen_seq_reset(&s);
	assert_int_equal(s.c.received, 0);
	assert_int_equal(gen_seq_add(&s, 1, 0), GEN_SEQ_IN_ORDER);
	gen_seq_fini(&s);
}

static void
test_wrap(void **state)
{
	/* across 2^32: 0xfffffffe, 0xffffffff, 0, 1 in order; then a swap
	 * across the wrap and a duplicate of the last before it */
	struct gen_seq_counts c = FEED(0xfffffffeu, 0xfffffffeu, 0xffffffffu,
				       1, 0, 2, 0xffffffffu, 3);

	(void)state;
	assert_int_equal(c.received, 6);
	assert_int_equal(c.reordered, 1);
	assert_int_equal(c.duplicates, 1);
	assert_int_equal(c.late, 0);
}

static void
test_window_edge(void **state)
{
	struct gen_seq s;
	uint32_t i;

	(void)state;
	assert_int_equal(gen_seq_init(&s, 1, 0), 0);
	/* 0 is missing; 1 .. 63 come: 0 is then the oldest the window
	 * holds (top 64, bit 63) */
	for (i = 1; i < GEN_SEQ_WINDOW; i++)
		gen_seq_add(&s, 0, i);
	assert_int_equal(gen_seq_add(&s, 0, 0), GEN_SEQ_REORDERED);
	assert_int_equal(gen_seq_add(&s, 0, 0), GEN_SEQ_DUPLICATE);
	/* 1 is still inside: a duplicate */
	assert_int_equal(gen_seq_add(&s, 0, 1), GEN_SEQ_DUPLICATE);
	gen_seq_add(&s, 0, GEN_SEQ_WINDOW);
	/* now 0 is one past the window, counted late (received and
	 * reordered: it cannot be told from a straggler) */
	assert_int_equal(gen_seq_add(&s, 0, 0), GEN_SEQ_LATE);
	assert_int_equal(s.c.received, GEN_SEQ_WINDOW + 2);
	assert_int_equal(s.c.reordered, 2);
	assert_int_equal(s.c.duplicates, 2);
	assert_int_equal(s.c.late, 1);
	gen_seq_fini(&s);
}

static void
test_window_overflow_jump(void **state)
{
	struct gen_seq s;

	(void)state;
	assert_int_equal(gen_seq_init(&s, 1, 0), 0);
	gen_seq_add(&s, 0, 0);
	gen_seq_add(&s, 0, 1);
	/* a jump far past the window clears it: 1 then is too old to tell */
	assert_int_equal(gen_seq_add(&s, 0, 1000), GEN_SEQ_GAP);
	assert_int_equal(gen_seq_add(&s, 0, 1), GEN_SEQ_LATE);
	assert_int_equal(gen_seq_add(&s, 0, 999), GEN_SEQ_REORDERED);
	assert_int_equal(gen_seq_add(&s, 0, 1000), GEN_SEQ_DUPLICATE);
	/* a jump of exactly the window keeps nothing either */
	assert_int_equal(gen_seq_add(&s, 0, 1000 + GEN_SEQ_WINDOW),
			 GEN_SEQ_GAP);
	assert_int_equal(gen_seq_add(&s, 0, 1000), GEN_SEQ_LATE);
	assert_int_equal(gen_seq_add(&s, 0, 1001), GEN_SEQ_REORDERED);
	gen_seq_fini(&s);
}

static void
test_flow_loss(void **state)
{
	static const uint32_t sent[4] = { 5, 5, 3, 0 };
	uint64_t n, worst;
	struct gen_seq s;

	(void)state;
	assert_int_equal(gen_seq_init(&s, 4, 0), 0);
	/* flow 0 whole (one duplicate, one swap), flow 1 lost 3, flow 2
	 * lost everything, flow 3 sent nothing */
	gen_seq_add(&s, 0, 1);
	gen_seq_add(&s, 0, 0);
	gen_seq_add(&s, 0, 2);
	gen_seq_add(&s, 0, 2);
	gen_seq_add(&s, 0, 3);
	gen_seq_add(&s, 0, 4);
	gen_seq_add(&s, 1, 0);
	gen_seq_add(&s, 1, 4);
	assert_int_equal(s.flow[0].received, 5);
	assert_int_equal(s.flow[1].received, 2);
	gen_seq_flow_loss(&s, sent, &n, &worst);
	assert_int_equal(n, 2);
	assert_int_equal(worst, 3);
	gen_seq_fini(&s);
}

static void
test_bad_init(void **state)
{
	struct gen_seq s;

	(void)state;
	assert_int_equal(gen_seq_init(&s, 0, 0), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_loss),
		cmocka_unit_test(test_first_lost),
		cmocka_unit_test(test_reorder),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_flows_apart),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_window_edge),
		cmocka_unit_test(test_window_overflow_jump),
		cmocka_unit_test(test_flow_loss),
		cmocka_unit_test(test_bad_init),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
