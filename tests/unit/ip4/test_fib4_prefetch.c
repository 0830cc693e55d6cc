/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fib4_prefetch (ip4/fib4_prefetch.c): the address the fast path
 * prefetches for a destination must be the tbl24 entry rte_fib's lookup
 * reads for it, for each entry size listack's FIB uses; a FIB whose
 * layout is not the one checked gets no address.
 */
#include <stdio.h>
#include <string.h>

#include <rte_fib.h>

#include "unit_common.h"
#include "core/fwd.h"
#include "core/worker.h"
#include "ip4/fib4_prefetch.h"

#define DEF_NH 0x55
#define BIG LSK_FIB4_PREFETCH_ROUTES	/* routes enough for the prefetch */

static struct rte_fib *
fib_new(enum rte_fib_dir24_8_nh_sz sz, struct rte_fib_conf *conf)
{
	static unsigned int seq;
	char name[32];

	memset(conf, 0, sizeof(*conf));
	conf->type = RTE_FIB_DIR24_8;
	conf->default_nh = DEF_NH;
	conf->max_routes = 64;
	conf->dir24_8.nh_sz = sz;
	conf->dir24_8.num_tbl8 = 16;
	snprintf(name, sizeof(name), "pf%u", seq++);
	return rte_fib_create(name, SOCKET_ID_ANY, conf);
}

/* The entry at the prefetched address, read as the lookup reads it. */
static uint64_t
entry_at(uintptr_t base, uint8_t shift, uint32_t dst)
{
	uint64_t e = 0;

	memcpy(&e, (const void *)lsk_fib4_entry_addr(base, shift, dst),
	       (size_t)1 << shift);
	return e;
}

static void
check_size(enum rte_fib_dir24_8_nh_sz sz)
{
	static const uint32_t dsts[] = {
		RTE_IPV4(10, 1, 2, 3), RTE_IPV4(10, 8, 200, 1),
		RTE_IPV4(10, 9, 0, 1), RTE_IPV4(192u, 0, 2, 77),
		RTE_IPV4(255u, 255, 255, 255), RTE_IPV4(0, 0, 0, 1),
		RTE_IPV4(203u, 0, 113, 9),
	};
	struct rte_fib_conf conf;
	struct rte_fib *fib = fib_new(sz, &conf);
	uint8_t shift = 0xff;
	uintptr_t base;
	unsigned int i;

	assert_non_null(fib);
	base = lsk_fib4_tbl24(fib, &conf, BIG, &shift);
	assert_true(base != 0);
	assert_int_equal(shift, (uint8_t)sz);
	assert_int_equal(rte_fib_add(fib, RTE_IPV4(10, 1, 2, 0), 24, 5), 0);
	assert_int_equal(rte_fib_add(fib, RTE_IPV4(10, 8, 0, 0), 16, 9), 0);
	assert_int_equal(rte_fib_add(fib, RTE_IPV4(192u, 0, 0, 0), 8, 3), 0);
	assert_int_equal(rte_fib_add(fib, RTE_IPV4(255u, 255, 255, 0), 24,
				     7), 0);
	for (i = 0; i < RTE_DIM(dsts); i++) {
		uint32_t dst = dsts[i];
		uint64_t nh = 0, e = entry_at(base, shift, dst);

		assert_int_equal(rte_fib_lookup_bulk(fib, &dst, &nh, 1), 0);
		assert_int_equal(e & 1, 0);	/* not extended */
		assert_int_equal(e >> 1, nh);
	}
	rte_fib_free(fib);
}

static void
test_entry_is_the_lookups(void **state)
{
	(void)state;
	check_size(RTE_FIB_DIR24_8_1B);
	check_size(RTE_FIB_DIR24_8_2B);
	check_size(RTE_FIB_DIR24_8_4B);
}

/* A conf that is not the FIB's, or a FIB already changed: no address. */
static void
test_refused_when_not_as_checked(void **state)
{
	struct rte_fib_conf conf, other;
	struct rte_fib *fib = fib_new(RTE_FIB_DIR24_8_2B, &conf);
	uint8_t shift = 0;

	(void)state;
	assert_non_null(fib);
	other = conf;
	other.dir24_8.nh_sz = RTE_FIB_DIR24_8_1B;
	assert_true(lsk_fib4_tbl24(fib, &other, BIG, &shift) == 0);
	other = conf;
	other.dir24_8.num_tbl8 = 65;	/* 128 groups, where the FIB has 64 */
	assert_true(lsk_fib4_tbl24(fib, &other, BIG, &shift) == 0);
	other = conf;
	other.default_nh = DEF_NH + 1;
	assert_true(lsk_fib4_tbl24(fib, &other, BIG, &shift) == 0);
	other = conf;
	other.type = RTE_FIB_DUMMY;
	assert_true(lsk_fib4_tbl24(fib, &other, BIG, &shift) == 0);
	assert_true(lsk_fib4_tbl24(NULL, &conf, BIG, &shift) == 0);
	/* a table of fewer routes: its entries stay cached, no prefetch */
	assert_true(lsk_fib4_tbl24(fib, &conf, BIG - 1, &shift) == 0);
	/* tbl24's first line no longer the default's */
	assert_int_equal(rte_fib_add(fib, RTE_IPV4(0, 0, 0, 0), 8, 4), 0);
	assert_true(lsk_fib4_tbl24(fib, &conf, BIG, &shift) == 0);
	rte_fib_free(fib);
}

/* The tables control/fwd_table.c builds for a stack of a few routes
 * carry no tbl24 (no prefetch), before and after a route change (made to
 * the standby table, then the other). */
static void
test_stack_table_small(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int round;

	for (round = 0; round < 3; round++) {
		const struct lsk_fwd_table *t = f->worker->fwd;

		assert_true(t->fib_tbl24 == 0);
		if (round == 0)
			unit_cmd(f, "route add 10.8.0.0/16 via 10.0.1.2");
		else if (round == 1)
			unit_cmd(f, "route add 10.8.1.0/24 blackhole");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_is_the_lookups),
		cmocka_unit_test(test_refused_when_not_as_checked),
		cmocka_unit_test_setup_teardown(test_stack_table_small,
						unit_setup_list,
						unit_teardown),
	};

	return cmocka_run_group_tests_name("fib4_prefetch", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
