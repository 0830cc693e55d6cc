/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fib4_prefetch: where rte_fib's DIR-24-8 keeps tbl24, checked
 * (ip4/fib4_prefetch.h says why and what uses it).
 */
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_fib.h>
#include <rte_version.h>

#include "ip4/fib4_prefetch.h"

/*
 * The head of DPDK 22.11's struct dir24_8_tbl (lib/fib/dir24_8.h), which
 * rte_fib_get_dp returns: counts, the entry size, the default next hop,
 * two pointers, then tbl24 on the next cache line.
 */
struct fib4_dir24_8_head {
	uint32_t number_tbl8s;
	uint32_t rsvd_tbl8s;
	uint32_t cur_tbl8s;
	enum rte_fib_dir24_8_nh_sz nh_sz;
	uint64_t def_nh;
	uint64_t *tbl8;
	uint64_t *tbl8_idxes;
	uint64_t tbl24[] __rte_cache_aligned;
};

/* Does tbl24's first line and its last hold what a new table holds in
 * every entry: the default next hop, shifted left by one (bit 0 is the
 * extended flag), in entries of 1 << shift bytes? */
static bool
fib4_tbl24_fresh(const uint8_t *tbl24, uint64_t def_nh, uint8_t shift)
{
	const size_t size = (size_t)1 << shift;
	const size_t last = ((size_t)1 << 24) - RTE_CACHE_LINE_SIZE / size;
	const uint64_t want = def_nh << 1;
	size_t i;

	for (i = 0; i < RTE_CACHE_LINE_SIZE / size; i++) {
		uint64_t a = 0, b = 0;

		/* little endian, as DPDK writes them (x86, arm64) */
		memcpy(&a, tbl24 + i * size, size);
		memcpy(&b, tbl24 + (last + i) * size, size);
		if (size < 8 &&
		    (a != (want & ((UINT64_C(1) << (8 * size)) - 1)) ||
		     b != a))
			return false;
		if (size == 8 && (a != want || b != a))
			return false;
	}
	return true;
}

uintptr_t
lsk_fib4_tbl24(const struct rte_fib *fib, const struct rte_fib_conf *conf,
	       uint32_t routes, uint8_t *shift)
{
#if RTE_VER_YEAR == 22 && RTE_VER_MONTH == 11
	const struct fib4_dir24_8_head *h;

	if (fib == NULL || conf->type != RTE_FIB_DIR24_8 ||
	    routes < LSK_FIB4_PREFETCH_ROUTES)
		return 0;
	/* rte_fib_get_dp takes a non-const FIB, and only reads it */
	h = rte_fib_get_dp((struct rte_fib *)(uintptr_t)fib);
	/* dir24_8_create rounds the tbl8 groups up to its bitmap's 64 */
	if (h == NULL ||
	    h->number_tbl8s != RTE_ALIGN_CEIL(conf->dir24_8.num_tbl8, 64) ||
	    h->nh_sz != conf->dir24_8.nh_sz || h->def_nh != conf->default_nh ||
	    h->tbl8 == NULL || h->tbl8_idxes == NULL ||
	    conf->dir24_8.nh_sz > RTE_FIB_DIR24_8_8B)
		return 0;
	*shift = (uint8_t)conf->dir24_8.nh_sz;
	if (!fib4_tbl24_fresh((const uint8_t *)h->tbl24, h->def_nh, *shift))
		return 0;
	return (uintptr_t)h->tbl24;
#else
	/* another DPDK's layout has not been checked: no prefetch */
	RTE_SET_USED(fib);
	RTE_SET_USED(conf);
	RTE_SET_USED(routes);
	RTE_SET_USED(shift);
	return 0;
#endif
}
