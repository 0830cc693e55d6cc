/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the ECMP tests of both families share (ip4/test_ecmp.c,
 * ip6/test_ecmp6.c): a packet sent and the port it left by; a run of
 * random flows' ports; and the check that a path left while its port is
 * down or its neighbour failed is taken again when it recovers. Each
 * family gives its flows and its table's sync.
 */
#ifndef UNIT_ECMP_H
#define UNIT_ECMP_H

#include <stdint.h>

#include <rte_cycles.h>

#include "unit_common.h"
#include "l2/neigh.h"

/* The port m left by (after the worker forwarded it), or -1. */
static inline int
unit_ecmp_send_one(struct unit_fixture *f, struct rte_mbuf *m)
{
	int port = -1;

	unit_input_one(f, m);
	if (f->tx.n[UNIT_P0] + f->tx.n[UNIT_P1] == 1)
		port = f->tx.n[UNIT_P0] ? UNIT_P0 : UNIT_P1;
	unit_tx_free(f);
	return port;
}

/* A family's random flow from *seed sent once; returns its port. */
typedef int (*unit_ecmp_send_rand)(struct unit_fixture *f, uint64_t *seed);

/* The ports of n flows from seed. */
static inline void
unit_ecmp_ports_of(struct unit_fixture *f, unit_ecmp_send_rand send,
		   uint64_t seed, int *ports, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ports[i] = send(f, &seed);
}

#define UNIT_ECMP_FLOWS 128

/* The flows of before (both paths, port 1's many) all took port 0
 * while port 1's path was out (mid), and took their own again after. */
static inline void
unit_ecmp_left_and_back(const int *before, const int *mid, const int *after)
{
	unsigned int i, on1 = 0;

	for (i = 0; i < UNIT_ECMP_FLOWS; i++) {
		on1 += before[i] == UNIT_P1;
		assert_int_equal(mid[i], UNIT_P0);
		assert_int_equal(after[i], before[i]);
	}
	assert_true(on1 > 32);
}

/* Port 1 down: its path left for port 0's; up: taken again. sync (or
 * NULL) after each command, for the family's table. */
static inline void
unit_ecmp_port_down(struct unit_fixture *f, unit_ecmp_send_rand send,
		    void (*sync)(struct unit_fixture *f))
{
	int before[UNIT_ECMP_FLOWS], down[UNIT_ECMP_FLOWS],
	    after[UNIT_ECMP_FLOWS];

	unit_ecmp_ports_of(f, send, 3, before, UNIT_ECMP_FLOWS);
	unit_cmd(f, "port 1 down");
	if (sync != NULL)
		sync(f);
	/* port 1's own traffic is dropped; ECMP flows move to port 0 */
	unit_ecmp_ports_of(f, send, 3, down, UNIT_ECMP_FLOWS);
	unit_cmd(f, "port 1 up");
	if (sync != NULL)
		sync(f);
	unit_ecmp_ports_of(f, send, 3, after, UNIT_ECMP_FLOWS);
	unit_ecmp_left_and_back(before, down, after);
}

/* What a neighbour timer does when the probes run out, on the entry of
 * word and next_probe (ARP's or ND's): failed, not tried again for a
 * while. */
static inline void
unit_ecmp_neigh_fail(uint64_t *word, uint64_t *next_probe)
{
	*next_probe = rte_rdtsc() + 100 * rte_get_tsc_hz();
	__atomic_store_n(word, neigh_word(NULL, LSK_NEIGH_FAILED),
			 __ATOMIC_RELEASE);
}

#endif /* UNIT_ECMP_H */
