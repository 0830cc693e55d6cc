/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6's neighbour table (ip6/nd6_table.c, nd6_timer.c): resolution with
 * a multicast NS to the solicited-node group, a hold queue of 3 released
 * in order on the answer, retries every second and failure after 3 NS
 * (the held datagrams then on the unreach list), entries keyed by
 * (address, interface), eviction at a full table (static entries stay),
 * the one hold bound shared with IPv4's table, and the control side.
 */
#include "nd6_common.h"

/* The datagram with tag sent on port to mac. */
static void
assert_datagram(struct unit_fixture *f, uint16_t port, unsigned int i,
		const struct rte_ether_addr *mac, uint8_t tag)
{
	const uint8_t *b = rte_pktmbuf_mtod(f->tx.pkts[port][i],
					    const uint8_t *);

	assert_memory_equal(b, mac, 6);
	assert_memory_equal(b + 6, port ? &p1_mac : &p0_mac, 6);
	assert_int_equal(b[14 + 6], 17);
	assert_int_equal(b[14 + 40], tag);
}

/* The multicast NS for target: to its solicited-node group (33:33:ff +
 * its last 24 bits), from our address on the link, our MAC as option. */
static void
assert_ns(const struct rte_mbuf *m, const struct lsk_ip6_addr *target,
	  const struct lsk_ip6_addr *src)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint8_t group[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff,
		[13] = target->a[13], [14] = target->a[14],
		[15] = target->a[15] };
	const uint8_t mac[6] = { 0x33, 0x33, 0xff, target->a[13],
		target->a[14], target->a[15] };

	assert_int_equal(m->pkt_len, 14 + 40 + 32);
	assert_memory_equal(b, mac, 6);
	assert_int_equal(b[14 + 7], 255);
	assert_memory_equal(b + 14 + 8, src, 16);
	assert_memory_equal(b + 14 + 24, group, 16);
	assert_int_equal(b[54], 135);
	assert_int_equal(b[55], 0);
	assert_memory_equal(b + 54 + 8, target, 16);
	assert_int_equal(b[54 + 24], 1);
	assert_int_equal(b[54 + 25], 1);
	assert_memory_equal(b + 54 + 26, b + 6, 6);
	nd_assert_cksum(m);
}

/* What still waits for an answer when the stack stops is dropped by
 * lsk_neigh_drop_held with IPv4's, counted nd.UnresolvedDiscards; the
 * entry stays, incomplete. */
static void
test_drop_held_counted(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	unsigned int i;

	for (i = 0; i < 2; i++)
		assert_false(lsk_nd6_resolve(f->worker, &h7, 0,
					     nd_datagram((uint8_t)i)));
	nd_flush(f);
	unit_tx_free(f);
	assert_int_equal(lsk_neigh_drop_held(f->stack), 2);
	assert_int_equal(f->stack->sh.neigh->held_mbufs, 0);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.nd.UnresolvedDiscards, 2);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_INCOMPLETE);
	assert_int_equal(lsk_neigh_drop_held(f->stack), 0);
}

static void
test_resolve_hold_release(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_ether_addr mac;
	unsigned int i;

	/* four datagrams: the first NS, three held (the oldest dropped) */
	for (i = 0; i < 4; i++)
		assert_false(lsk_nd6_resolve(f->worker, &h7, 0,
					     nd_datagram((uint8_t)i)));
	nd_flush(f);
	assert_int_equal(f->tx.n[0], 1);
	assert_ns(f->tx.pkts[0][0], &h7, &gl0);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_INCOMPLETE);
	assert_int_equal(f->worker->stats.nd.UnresolvedDiscards, 1);
	/* beside the setup's DAD probes, one for each of our 4 addresses */
	assert_int_equal(f->worker->stats.nd.DadProbes, 4);
	assert_int_equal(f->worker->stats.icmp6.OutNeighborSolicits, 4 + 1);
	unit_tx_free(f);

	/* the solicited answer releases them in order, reachable */
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x60, &h7_mac);
	assert_int_equal(nd_state(f, &h7, 0, &mac), LSK_NEIGH_REACHABLE);
	assert_memory_equal(&mac, &h7_mac, 6);
	assert_int_equal(f->tx.n[0], 3);
	for (i = 0; i < 3; i++)
		assert_datagram(f, 0, i, &h7_mac, (uint8_t)(i + 1));
	unit_tx_free(f);

	/* now at once */
	assert_true(lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(9)));
	nd_flush(f);
	assert_int_equal(f->tx.n[0], 1);
	assert_datagram(f, 0, 0, &h7_mac, 9);
	/* nothing held against IPv4's bound any more */
	assert_int_equal(f->stack->sh.neigh->held_mbufs, 0);
}

/* A link-local neighbour's entry is its link's: the same address on
 * port 1 is another entry, asked for there. */
static void
test_keyed_by_iface(void **state)
{
	struct unit_fixture *f = *state;

	lsk_nd6_resolve(f->worker, &h7ll, 0, nd_datagram(1));
	nd_na_in(f, 0, &h7ll, &ll0, &h7ll, 0x60, &h7_mac);
	assert_int_equal(nd_state(f, &h7ll, 0, NULL), LSK_NEIGH_REACHABLE);
	assert_int_equal(nd_state(f, &h7ll, 1, NULL), 0);
	unit_tx_free(f);
	assert_false(lsk_nd6_resolve(f->worker, &h7ll, 1, nd_datagram(2)));
	nd_flush(f);
	assert_int_equal(f->tx.n[1], 1);
	assert_ns(f->tx.pkts[1][0], &h7ll, &ll1);
	assert_int_equal(nd_state(f, &h7ll, 1, NULL), LSK_NEIGH_INCOMPLETE);
}

/* A reachable entry unconfirmed for 30 s is stale; a stale one in use
 * is asked for again (a unicast NS to its MAC) once its 5 s of delay
 * are up, at most once a second, the datagram sent meanwhile. */
static void
test_stale_probe(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_nd6_entry *e;
	const uint8_t *b;

	lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(1));
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x60, &h7_mac);
	unit_tx_free(f);
	e = &nd(f)->e[0];
	e->confirmed -= 31 * rte_get_tsc_hz();
	assert_true(lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(2)));
	nd_flush(f);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_STALE);
	/* learnt five seconds ago: not yet */
	assert_int_equal(f->tx.n[0], 1);
	assert_datagram(f, 0, 0, &h7_mac, 2);
	unit_tx_free(f);
	e->next_probe = 0;
	assert_true(lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(3)));
	assert_true(lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(4)));
	nd_flush(f);
	assert_int_equal(f->tx.n[0], 3);
	assert_int_equal(nd_sent(f, 0, 135), 1);
	b = rte_pktmbuf_mtod(nd_sent_nth(f, 0, 135, 0), const uint8_t *);
	assert_memory_equal(b, &h7_mac, 6);
	assert_memory_equal(b + 14 + 24, &h7, 16);	/* to it */
	assert_memory_equal(b + 14 + 8, &gl0, 16);
	nd_assert_cksum(nd_sent_nth(f, 0, 135, 0));
	/* its answer: reachable again */
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x60, &h7_mac);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_REACHABLE);
}

static void
test_fail_after_3(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list unreach = { 0 };
	struct lsk_nd6_entry *e;
	unsigned int k;

	lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(1));
	lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(2));
	e = &nd(f)->e[0];
	assert_true(lsk_ip6_equal(&e->addr, &h7));
	/* two retries a second apart, then failure */
	for (k = 0; k < 3; k++) {
		nd_timer(f, &unreach);
		assert_int_equal(unreach.n, 0);	/* not due yet */
		e->next_probe = 0;
		nd_timer(f, &unreach);
	}
	assert_int_equal(nd_sent(f, 0, 135), 3);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_FAILED);
	assert_int_equal(unreach.n, 2);
	assert_int_equal(f->worker->stats.nd.ResFailed, 1);
	assert_int_equal(f->worker->stats.nd.UnresolvedDiscards, 2);
	assert_int_equal(f->stack->sh.neigh->held_mbufs, 0);
	unit_list_free(&unreach);
	/* a failed entry drops what comes within its second */
	assert_false(lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(3)));
	assert_int_equal(f->worker->stats.nd.UnresolvedDiscards, 3);
}

/* The bound on what all entries hold is IPv4's: what IPv4's entries
 * hold counts against IPv6's and the other way round. */
static void
test_shared_hold_bound(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_neigh_table *v4 = f->stack->sh.neigh;

	lsk_neigh_table_set_hold_max(v4, 2);
	v4->held_mbufs = 1;	/* one IPv4 datagram waits */
	lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(1));
	assert_int_equal(v4->held_mbufs, 2);
	lsk_nd6_resolve(f->worker, &h7ll, 0, nd_datagram(2));
	assert_int_equal(v4->held_mbufs, 2);
	assert_int_equal(f->worker->stats.nd.UnresolvedDiscards, 1);
	assert_int_equal(nd(f)->e[1].n_held, 0);
	v4->held_mbufs -= 1;
	lsk_neigh_table_set_hold_max(v4, 0);
}

/* A full table: a new neighbour takes the entry that loses least (here
 * the one learnt entry, its held datagram dropped), never a static one;
 * all static: refused and counted. */
static void
test_eviction(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st = { 0 };
	struct lsk_ip6_addr a = h7;
	unsigned int i;

	for (i = 0; i < ND_CAP - 1; i++) {
		a.a[14] = (uint8_t)(i + 1);
		assert_int_equal(lsk_nd6_set_static(nd(f), &a, 0, &h7_mac,
						    &st), 0);
	}
	a.a[14] = 0xee;
	lsk_nd6_resolve(f->worker, &a, 0, nd_datagram(1));
	assert_int_equal(nd(f)->n, ND_CAP);
	lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(2));
	assert_int_equal(f->worker->stats.nd.Evictions, 1);
	assert_int_equal(f->worker->stats.nd.UnresolvedDiscards, 1);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_INCOMPLETE);
	assert_int_equal(nd_state(f, &a, 0, NULL), 0);
	/* every entry static: nothing to give */
	assert_int_equal(lsk_nd6_set_static(nd(f), &h7, 0, &h7_mac, &st), 0);
	assert_false(lsk_nd6_resolve(f->worker, &h7ll, 0, nd_datagram(3)));
	assert_int_equal(f->worker->stats.nd.TableFulls, 1);
	assert_int_equal(nd_state(f, &h7ll, 0, NULL), 0);
	assert_int_equal(lsk_nd6_set_static(nd(f), &h7ll, 0, &h7_mac, &st),
			 -ENOSPC);
	/* static ones are sent to at once */
	nd_flush(f);
	unit_tx_free(f);
	assert_true(lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(4)));
	nd_flush(f);
	assert_int_equal(f->tx.n[0], 1);
	assert_datagram(f, 0, 0, &h7_mac, 4);
	assert_int_equal(f->stack->sh.neigh->held_mbufs, 0);
}

static void
test_control(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st = { 0 };
	struct lsk_nd6_info info[4];
	struct rte_ether_addr mac;

	lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(1));
	/* a static entry drops what the learnt one held */
	assert_int_equal(lsk_nd6_set_static(nd(f), &h7, 0, &h7_new, &st), 0);
	assert_int_equal(st.nd.UnresolvedDiscards, 1);
	assert_int_equal(nd_state(f, &h7, 0, &mac), LSK_NEIGH_STATIC);
	assert_memory_equal(&mac, &h7_new, 6);
	/* ND never changes it */
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x60, &h7_mac);
	nd_ns_in(f, 0, &h7, &gl0, &gl0, &h7_mac);
	assert_int_equal(nd_state(f, &h7, 0, &mac), LSK_NEIGH_STATIC);
	assert_memory_equal(&mac, &h7_new, 6);
	lsk_nd6_resolve(f->worker, &h7ll, 1, nd_datagram(2));
	assert_int_equal(lsk_nd6_list(nd(f), info, 4), 2);
	assert_true(lsk_ip6_equal(&info[0].addr, &h7));
	assert_int_equal(info[0].state, LSK_NEIGH_STATIC);
	assert_memory_equal(&info[0].mac, &h7_new, 6);
	assert_true(lsk_ip6_equal(&info[1].addr, &h7ll));
	assert_int_equal(info[1].iface, 1);
	assert_int_equal(info[1].n_held, 1);
	assert_int_equal(lsk_nd6_forget(nd(f), &h7ll, 0, &st), -ENOENT);
	assert_int_equal(lsk_nd6_forget(nd(f), &h7ll, 1, &st), 0);
	assert_int_equal(st.nd.UnresolvedDiscards, 2);
	assert_int_equal(lsk_nd6_list(nd(f), info, 4), 1);
	assert_int_equal(lsk_nd6_forget_all(nd(f), &st), 1);
	assert_int_equal(lsk_nd6_list(nd(f), info, 4), 0);
	assert_int_equal(nd_state(f, &h7, 0, NULL), 0);
	assert_int_equal(f->stack->sh.neigh->held_mbufs, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resolve_hold_release,
						nd_setup, nd_teardown),
		cmocka_unit_test_setup_teardown(test_drop_held_counted,
						nd_setup, nd_teardown),
		cmocka_unit_test_setup_teardown(test_keyed_by_iface,
						nd_setup, nd_teardown),
		cmocka_unit_test_setup_teardown(test_stale_probe,
						nd_setup, nd_teardown),
		cmocka_unit_test_setup_teardown(test_fail_after_3,
						nd_setup, nd_teardown),
		cmocka_unit_test_setup_teardown(test_shared_hold_bound,
						nd_setup, nd_teardown),
		cmocka_unit_test_setup_teardown(test_eviction,
						nd_setup, nd_teardown),
		cmocka_unit_test_setup_teardown(test_control,
						nd_setup, nd_teardown),
	};

	return cmocka_run_group_tests_name("nd6_table", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
