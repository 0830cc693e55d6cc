/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Router advertisements where `port N ra on` (sh->fwd6's ra_ifaces), by
 * worker 0's timer (RFC 4861 6.2.4): the first three at most 16 s apart,
 * then one every 200 to 600 s (a random time in between each); an RS
 * (any worker's nd6_input) asks for one at once, at most one each 3 s
 * (6.2.6's MIN_DELAY_BETWEEN_RAS), sent to all nodes as Linux does.
 * An interface's RAs start once its link-local address passed DAD.
 *
 * Where RAs went and `ra off` stops them, one final RA with router
 * lifetime 0 goes at once (RFC 4861 6.2.5 allows up to three), so that
 * hosts drop us as a default router now, not when the last lifetime
 * runs out.
 *
 * Known gap: the solicited RA is not delayed by a random 0-500 ms.
 */
#include <rte_cycles.h>
#include <rte_random.h>

#include "core/fwd6.h"
#include "core/worker.h"
#include "ip6/nd6_priv.h"

#define ND6_RA_INITIAL 3
#define ND6_RA_INITIAL_S 16
#define ND6_RA_MIN_S 200
#define ND6_RA_MAX_S 600
#define ND6_RA_MIN_DELAY_S 3

void
nd6_ra_solicited(struct lsk_worker *w, uint16_t iface)
{
	__atomic_fetch_or(&w->sh->nd6->ra_now, UINT64_C(1) << iface,
			  __ATOMIC_RELAXED);
}

void
lsk_nd6_ra_now(struct lsk_nd6_table *t, uint16_t iface)
{
	t->ra[iface].last = 0;
	__atomic_fetch_or(&t->ra_now, UINT64_C(1) << iface, __ATOMIC_RELAXED);
}

/* When the next unsolicited one is due after one sent now. */
static uint64_t
nd6_ra_next(struct nd6_ra_iface *r, uint64_t now, uint64_t hz)
{
	uint64_t s = ND6_RA_MIN_S + rte_rand_max(ND6_RA_MAX_S - ND6_RA_MIN_S);

	if (r->initial < ND6_RA_INITIAL) {
		r->initial++;
		s = RTE_MIN(s, (uint64_t)ND6_RA_INITIAL_S);
	}
	return now + s * hz;
}

void
nd6_ra_timer(struct lsk_worker *w, uint64_t now)
{
	struct lsk_nd6_table *t = w->sh->nd6;
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t on = w->fwd6 != NULL ? w->fwd6->ra_ifaces : 0;
	uint64_t asked = __atomic_load_n(&t->ra_now, __ATOMIC_RELAXED);
	uint16_t i;

	for (i = 0; i < LSK_MAX_IFACES && i < 64; i++) {
		struct nd6_ra_iface *r = &t->ra[i];
		const struct lsk_ifaddr6 *ll;
		bool due;

		if (!(on >> i & 1)) {
			/* stopped where some went (next set): the final
			 * one (none when its link-local address is gone) */
			if (r->next != 0 && w->fwd6 != NULL)
				nd6_send_ra(w, i, true, NULL);
			*r = (struct nd6_ra_iface){ 0 };
			continue;
		}
		due = now >= r->next ||
		      ((asked >> i & 1) &&
		       (r->last == 0 ||
			now - r->last >= ND6_RA_MIN_DELAY_S * hz));
		ll = lsk_fwd6_linklocal(w->fwd6, i);
		if (!due || ll == NULL ||
		    !lsk_nd6_addr_usable(t, &ll->addr, i))
			continue;
		__atomic_fetch_and(&t->ra_now, ~(UINT64_C(1) << i),
				   __ATOMIC_RELAXED);
		nd6_send_ra(w, i, false, NULL);
		r->last = now;
		r->next = nd6_ra_next(r, now, hz);
	}
	/* asked where it is off: nothing to answer */
	__atomic_fetch_and(&t->ra_now, on, __ATOMIC_RELAXED);
}
