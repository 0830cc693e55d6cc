/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Duplicate address detection (RFC 4862 5.4) of our addresses, link-local
 * ones included: each new address (in sh->fwd6) is tentative until its
 * probe (an NS from ::, to its solicited-node group) got no answer for a
 * second (DupAddrDetectTransmits 1, RetransTimer 1 s); an NA for it, or
 * another node's probe for it, makes it duplicate (nd.DadFailed): it is
 * then never used. Worker 0 writes the states (its timer, and what its
 * own nd6_input sees; other workers' conflicts are atomics), every
 * worker reads them; addresses gone from the table are forgotten.
 *
 * Known gaps: no random delay before the probe (RFC 4862 5.4.2's
 * MAX_RTR_SOLICITATION_DELAY: the address is new, not the interface),
 * no optimistic DAD, a duplicate address stays so until removed and
 * added again.
 */
#include <string.h>

#include <rte_cycles.h>

#include "core/fwd6.h"
#include "core/worker.h"
#include "ip6/nd6_priv.h"

#define ND6_DAD_WAIT_MS 1000

/* The slot of addr (a link-local one on iface; a global one is ours on
 * any link, as core/fwd6.c's lsk_fwd6_ours) and its state, read as any
 * worker may: a slot rewritten meanwhile is read again. */
static struct nd6_addr *
nd6_addr_find(const struct lsk_nd6_table *t, const struct lsk_ip6_addr *addr,
	      uint16_t iface, uint8_t *state)
{
	uint32_t i, n = __atomic_load_n(&t->n_addrs, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++) {
		struct nd6_addr *a = (struct nd6_addr *)&t->addrs[i];
		uint32_t seq;
		bool same;

		do {
			seq = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
			same = !(seq & 1) && lsk_ip6_equal(&a->addr, addr) &&
			       (a->iface == iface ||
				!lsk_ip6_is_linklocal(addr));
			*state = __atomic_load_n(&a->state, __ATOMIC_ACQUIRE);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
		} while (seq != __atomic_load_n(&a->seq, __ATOMIC_RELAXED) ||
			 (seq & 1));
		if (same && *state != 0)
			return a;
	}
	return NULL;
}

int
lsk_nd6_addr_state(const struct lsk_nd6_table *t,
		   const struct lsk_ip6_addr *addr, uint16_t iface)
{
	uint8_t state;

	if (t == NULL)
		return LSK_ND6_ADDR_PREFERRED;	/* no ND: nothing checks */
	/* not yet seen by the timer: tentative all the same */
	if (nd6_addr_find(t, addr, iface, &state) == NULL)
		return LSK_ND6_ADDR_TENTATIVE;
	return state;
}

bool
lsk_nd6_addr_usable(const struct lsk_nd6_table *t,
		    const struct lsk_ip6_addr *addr, uint16_t iface)
{
	return lsk_nd6_addr_state(t, addr, iface) == LSK_ND6_ADDR_PREFERRED;
}

bool
nd6_addr_tentative(const struct lsk_nd6_table *t,
		   const struct lsk_ip6_addr *addr, uint16_t iface)
{
	return lsk_nd6_addr_state(t, addr, iface) == LSK_ND6_ADDR_TENTATIVE;
}

bool
nd6_dad_conflict(struct lsk_worker *w, const struct lsk_ip6_addr *addr,
		 uint16_t iface)
{
	uint8_t state = LSK_ND6_ADDR_TENTATIVE;
	struct nd6_addr *a = nd6_addr_find(w->sh->nd6, addr, iface, &state);

	if (a == NULL || !__atomic_compare_exchange_n(&a->state, &state,
			LSK_ND6_ADDR_DUPLICATE, false, __ATOMIC_RELEASE,
			__ATOMIC_RELAXED))
		return false;
	w->stats.nd.DadFailed++;
	return true;
}

/* Rewrite slot a (worker 0): readers see it whole or not at all. */
static void
nd6_addr_set(struct nd6_addr *a, const struct lsk_ifaddr6 *ifa, uint8_t state,
	     uint64_t due)
{
	__atomic_store_n(&a->seq, a->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&a->state, state, __ATOMIC_RELAXED);
	if (ifa != NULL) {
		a->addr = ifa->addr;
		a->iface = ifa->iface;
	}
	a->due = due;
	__atomic_store_n(&a->seq, a->seq + 1, __ATOMIC_RELEASE);
}

/* A new table of addresses: probe the new ones, forget the gone. */
static void
nd6_dad_walk(struct lsk_worker *w, struct lsk_nd6_table *t,
	     const struct lsk_fwd6_table *f, uint64_t now)
{
	uint64_t due = now + ND6_DAD_WAIT_MS * rte_get_tsc_hz() / 1000;
	uint64_t enabled = 0;
	uint32_t i, k;
	uint8_t state;

	/* IPv6 speaks on an interface once it is configured for it (an
	 * address of its own, or `ra on`): before that its automatic
	 * link-local address is not probed, so stays unused, and an
	 * IPv4-only link hears nothing of IPv6 from us */
	for (i = 0; f != NULL && i < f->n_addrs; i++)
		if (!(f->addrs[i].flags & LSK_IFA6_AUTO) &&
		    f->addrs[i].iface < 64)
			enabled |= UINT64_C(1) << f->addrs[i].iface;
	if (f != NULL)
		enabled |= f->ra_ifaces;
	for (k = 0; k < t->n_addrs; k++)
		t->addrs[k].seen = 0;
	for (i = 0; f != NULL && i < f->n_addrs; i++) {
		const struct lsk_ifaddr6 *ifa = &f->addrs[i];
		struct nd6_addr *a;

		if ((ifa->flags & LSK_IFA6_AUTO) &&
		    (ifa->iface >= 64 || !((enabled >> ifa->iface) & 1)))
			continue;
		a = nd6_addr_find(t, &ifa->addr, ifa->iface, &state);

		if (a == NULL) {
			for (k = 0; k < t->n_addrs && t->addrs[k].state; k++)
				;
			if (k == RTE_DIM(t->addrs))
				continue;	/* as many as the table holds */
			a = &t->addrs[k];
			nd6_addr_set(a, ifa, LSK_ND6_ADDR_TENTATIVE, due);
			if (k == t->n_addrs)
				__atomic_store_n(&t->n_addrs, k + 1,
						 __ATOMIC_RELEASE);
			nd6_send_dad(w, ifa->iface, &ifa->addr);
		}
		a->seen = 1;
	}
	for (k = 0; k < t->n_addrs; k++)
		if (t->addrs[k].state != 0 && !t->addrs[k].seen)
			nd6_addr_set(&t->addrs[k], NULL, 0, 0);
}

void
nd6_dad_timer(struct lsk_worker *w, uint64_t now)
{
	struct lsk_nd6_table *t = w->sh->nd6;
	const struct lsk_fwd6_table *f = w->fwd6;
	uint32_t k;

	if (f != t->dad_fwd6 || (f != NULL && f->generation != t->dad_gen)) {
		nd6_dad_walk(w, t, f, now);
		t->dad_fwd6 = f;
		t->dad_gen = f != NULL ? f->generation : 0;
	}
	for (k = 0; k < t->n_addrs; k++) {
		struct nd6_addr *a = &t->addrs[k];
		uint8_t state = LSK_ND6_ADDR_TENTATIVE;

		if (a->state == LSK_ND6_ADDR_TENTATIVE && now >= a->due)
			__atomic_compare_exchange_n(&a->state, &state,
				LSK_ND6_ADDR_PREFERRED, false,
				__ATOMIC_RELEASE, __ATOMIC_RELAXED);
	}
}
