/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP's slow side for both families (core/ecmp.h): the member taken
 * when the one a flow's bucket names is not live.
 */
#include "listack/listack.h"
#include "core/ecmp.h"

uint32_t
lsk_ecmp_scan(const uint16_t *members, uint16_t n_members,
	      uint16_t n_buckets, uint32_t k, lsk_ecmp_live_t *live,
	      const void *ctx)
{
	const uint16_t *b = members + n_members;
	/* each member judged once: 1 live, 2 dead */
	uint8_t seen[LSK_ROUTE_MAX_PATHS] = { 0 };
	uint32_t i, j;

	for (i = 1; i < n_buckets; i++) {
		uint32_t nh = b[(k + i) % n_buckets];

		for (j = 0; j < n_members && members[j] != nh; j++)
			;
		if (j == n_members || j >= LSK_ROUTE_MAX_PATHS)
			continue;	/* cannot be: every bucket's a member */
		if (seen[j] == 0)
			seen[j] = live(ctx, nh) ? 1 : 2;
		if (seen[j] == 1)
			return nh;
	}
	return b[k];
}
