/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 stages' list-equals-single cases (test_icmp6.c,
 * test_ip6_local.c, test_ip6_forward.c): one burst given to the test's
 * list mode fixture and to a single mode one beside it (the stages
 * packet by packet), IPv6 configured on both; the frames and counters
 * must agree.
 */
#ifndef UNIT6_MODES_H
#define UNIT6_MODES_H

#include "unit_common.h"
#include "unit6.h"

#define UNIT6_BURST_MAX 32

/* ICMPv6 messages f sent on port 0: n of type and code (-1: any). */
struct unit6_icmp_sent {
	int type, code;
	unsigned int n;
};

/*
 * The burst of n packets (one(i): packet i, made anew for each fixture)
 * to f and to a single mode fixture; the same frames and counters, and
 * f sent the n_sent ICMPv6 counts of sent on port 0. The single mode
 * fixture, for the case's own checks then unit6_modes_done.
 */
static inline struct unit_fixture *
unit6_list_and_single(struct unit_fixture *f, unsigned int n,
		      struct rte_mbuf *(*one)(unsigned int i),
		      const struct unit6_icmp_sent *sent, unsigned int n_sent)
{
	struct unit_fixture *fx[2] = { f, NULL };
	unsigned int k, i;

	assert_true(n <= UNIT6_BURST_MAX);
	fx[1] = unit_fixture_create(LSK_MODE_SINGLE);
	assert_non_null(fx[1]);
	for (k = 0; k < 2; k++) {
		struct rte_mbuf *pkts[UNIT6_BURST_MAX];

		unit6_configure(fx[k]);
		for (i = 0; i < n; i++)
			pkts[i] = one(i);
		unit_input(fx[k], pkts, (uint16_t)n);
	}
	unit6_assert_same_frames(fx[0], fx[1]);
	unit6_assert_same_counters(fx[0], fx[1]);
	for (i = 0; i < n_sent; i++)
		assert_int_equal(unit6_tx_icmp(f, UNIT_P0, sent[i].type,
					       sent[i].code), sent[i].n);
	return fx[1];
}

/* Both fixtures' frames freed, the single mode one gone. */
static inline void
unit6_modes_done(struct unit_fixture *f, struct unit_fixture *single)
{
	unit_tx_free(f);
	unit_tx_free(single);
	unit_fixture_destroy(single);
}

#endif /* UNIT6_MODES_H */
