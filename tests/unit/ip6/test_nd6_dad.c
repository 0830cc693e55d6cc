/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DAD (ip6/nd6_dad.c, RFC 4862 5.4): each of our addresses, link-local
 * ones included, is tentative until its probe (an NS from :: to its
 * solicited-node group, no option) went unanswered for a second; an NA
 * for it or another node's probe for it makes it duplicate (nd.DadFailed)
 * and it is never used; a tentative address gets no answer to an NS; an
 * address removed is forgotten, and checked anew when added again.
 */
#include "nd6_common.h"

/* The DAD probe for target on port: bytes as RFC 4862 5.4.2 says. */
static void
assert_probe(const struct unit_fixture *f, uint16_t port, unsigned int nth,
	     const struct lsk_ip6_addr *target)
{
	const struct rte_mbuf *m = nd_sent_nth(f, port, 135, nth);
	const uint8_t *b;
	struct lsk_ip6_addr group;
	struct rte_ether_addr mac;

	assert_non_null(m);
	b = rte_pktmbuf_mtod(m, const uint8_t *);
	nd6_solicited_node(target, &group, &mac);
	assert_int_equal(m->pkt_len, 14 + 40 + 24);	/* no option */
	assert_memory_equal(b, &mac, 6);
	assert_memory_equal(b + 6, port ? &p1_mac : &p0_mac, 6);
	assert_int_equal(b[14 + 7], 255);
	assert_memory_equal(b + 14 + 8, &unspec, 16);
	assert_memory_equal(b + 14 + 24, &group, 16);
	assert_memory_equal(b + 54 + 8, target, 16);
	nd_assert_cksum(m);
}

static int
state(struct unit_fixture *f, const struct lsk_ip6_addr *a, uint16_t iface)
{
	return lsk_nd6_addr_state(nd(f), a, iface);
}

/* Let the second pass for every tentative address. */
static void
dad_due(struct unit_fixture *f)
{
	uint32_t k;

	for (k = 0; k < nd(f)->n_addrs; k++)
		nd(f)->addrs[k].due = 0;
}

static void
test_dad_pass(void **s)
{
	struct unit_fixture *f = *s;
	struct lsk_list unreach = { 0 };
	struct lsk_ip6_addr group;

	/* before the timer saw them: tentative all the same */
	assert_int_equal(state(f, &gl0, 0), LSK_ND6_ADDR_TENTATIVE);
	assert_false(lsk_nd6_addr_usable(nd(f), &gl0, 0));
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 0, 135), 2);
	assert_int_equal(nd_sent(f, 1, 135), 2);
	assert_probe(f, 0, 0, &ll0);
	assert_probe(f, 0, 1, &gl0);
	assert_probe(f, 1, 0, &ll1);
	assert_probe(f, 1, 1, &gl1);
	assert_int_equal(f->worker->stats.nd.DadProbes, 4);
	unit_tx_free(f);
	/* a tentative address answers no NS */
	nd6_solicited_node(&gl0, &group, NULL);
	nd_ns_in(f, 0, &h7, &group, &gl0, &h7_mac);
	assert_int_equal(unit_tx_count(f), 0);
	/* within the second: still tentative, no second probe */
	nd_timer(f, &unreach);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(state(f, &gl0, 0), LSK_ND6_ADDR_TENTATIVE);
	/* the second is up */
	dad_due(f);
	nd_timer(f, &unreach);
	assert_int_equal(state(f, &gl0, 0), LSK_ND6_ADDR_PREFERRED);
	assert_int_equal(state(f, &ll1, 1), LSK_ND6_ADDR_PREFERRED);
	assert_true(lsk_nd6_addr_usable(nd(f), &ll0, 0));
	/* a link-local address is its link's only; a global one is ours
	 * whichever link a packet to it comes in on (ip6_route asks so) */
	assert_false(lsk_nd6_addr_usable(nd(f), &ll0, 1));
	assert_true(lsk_nd6_addr_usable(nd(f), &gl0, 1));
	assert_int_equal(f->worker->stats.nd.DadFailed, 0);
	nd_ns_in(f, 0, &h7, &group, &gl0, &h7_mac);
	assert_int_equal(nd_sent(f, 0, 136), 1);
}

/* An NA for a tentative address: another node has it. */
static void
test_dad_fail_na(void **s)
{
	struct unit_fixture *f = *s;
	struct lsk_list unreach = { 0 };
	struct lsk_ip6_addr group;

	nd_timer(f, &unreach);
	unit_tx_free(f);
	/* from another link: not the one the address is checked on */
	nd_na_in(f, 1, &gl0, &all_nodes6, &gl0, 0x20, &h7_mac);
	assert_int_equal(state(f, &gl0, 0), LSK_ND6_ADDR_TENTATIVE);
	nd_na_in(f, 0, &gl0, &all_nodes6, &gl0, 0x20, &h7_mac);
	assert_int_equal(state(f, &gl0, 0), LSK_ND6_ADDR_DUPLICATE);
	assert_int_equal(f->worker->stats.nd.DadFailed, 1);
	dad_due(f);
	nd_timer(f, &unreach);
	/* never used: no answer, not usable; the others passed */
	assert_int_equal(state(f, &gl0, 0), LSK_ND6_ADDR_DUPLICATE);
	assert_false(lsk_nd6_addr_usable(nd(f), &gl0, 0));
	assert_true(lsk_nd6_addr_usable(nd(f), &ll0, 0));
	nd6_solicited_node(&gl0, &group, NULL);
	nd_ns_in(f, 0, &h7, &group, &gl0, &h7_mac);
	assert_int_equal(unit_tx_count(f), 0);
	/* nor learnt as a neighbour */
	assert_int_equal(nd_state(f, &gl0, 0, NULL), 0);
	/* a NA for it after DAD passed changes nothing (Linux logs it) */
	nd_na_in(f, 0, &ll0, &all_nodes6, &ll0, 0x20, &h7_mac);
	assert_int_equal(state(f, &ll0, 0), LSK_ND6_ADDR_PREFERRED);
	assert_int_equal(f->worker->stats.nd.DadFailed, 1);
}

/* Another node's probe for our tentative address (RFC 4862 5.4.3). */
static void
test_dad_fail_probe(void **s)
{
	struct unit_fixture *f = *s;
	struct lsk_list unreach = { 0 };
	struct lsk_ip6_addr group;

	nd_timer(f, &unreach);
	unit_tx_free(f);
	nd6_solicited_node(&ll1, &group, NULL);
	/* on the other link: not this address */
	nd_ns_in(f, 0, &unspec, &group, &ll1, NULL);
	assert_int_equal(state(f, &ll1, 1), LSK_ND6_ADDR_TENTATIVE);
	nd_ns_in(f, 1, &unspec, &group, &ll1, NULL);
	assert_int_equal(state(f, &ll1, 1), LSK_ND6_ADDR_DUPLICATE);
	assert_int_equal(unit_tx_count(f), 0);	/* not answered */
	assert_int_equal(f->worker->stats.nd.DadFailed, 1);
	/* port 1's RAs would come from it: none go */
	nd_cmd(f, "port 1 ra on");
	dad_due(f);
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 1, 134), 0);
}

/* Removed, forgotten; added again, checked again. */
static void
test_dad_forget(void **s)
{
	struct unit_fixture *f = *s;
	struct lsk_list unreach = { 0 };

	nd_dad_pass(f);
	assert_int_equal(state(f, &gl1, 1), LSK_ND6_ADDR_PREFERRED);
	nd_cmd(f, "address del 2001:db8:1::1/64 port 1");
	nd_timer(f, &unreach);
	assert_int_equal(state(f, &gl1, 1), LSK_ND6_ADDR_TENTATIVE);
	assert_false(lsk_nd6_addr_usable(nd(f), &gl1, 1));
	/* its last address gone, the link has no IPv6 (nd6_dad.c): its
	 * link-local address is forgotten too */
	assert_false(lsk_nd6_addr_usable(nd(f), &ll1, 1));
	assert_int_equal(unit_tx_count(f), 0);
	nd_cmd(f, "address add 2001:db8:1::1/64 port 1");
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 1, 135), 2);
	assert_probe(f, 1, 0, &ll1);
	assert_probe(f, 1, 1, &gl1);
	assert_int_equal(f->worker->stats.nd.DadProbes, 6);
	dad_due(f);
	nd_timer(f, &unreach);
	assert_true(lsk_nd6_addr_usable(nd(f), &gl1, 1));
	assert_true(lsk_nd6_addr_usable(nd(f), &ll1, 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dad_pass,
						nd_setup_fresh,
						nd_teardown),
		cmocka_unit_test_setup_teardown(test_dad_fail_na,
						nd_setup_fresh,
						nd_teardown),
		cmocka_unit_test_setup_teardown(test_dad_fail_probe,
						nd_setup_fresh,
						nd_teardown),
		cmocka_unit_test_setup_teardown(test_dad_forget,
						nd_setup_fresh,
						nd_teardown),
	};

	return cmocka_run_group_tests_name("nd6_dad", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
