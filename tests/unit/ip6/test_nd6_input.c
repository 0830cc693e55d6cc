/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nd6_input (ip6/nd6_input.c): NS for our addresses answered with the NA
 * Linux's router sends (compared byte for byte with scapy's frames),
 * DAD's probes answered to all nodes, the sender learnt stale; NAs
 * changing entries as RFC 4861 7.2.5 says; RS answered with an RA only
 * where `ra on`, and `ra off` sends a final one with router lifetime 0
 * (RFC 4861 6.2.5); RAs and redirects of others left (icmp6_input counts
 * each type); every malformed message counted icmp6.InErrors under its
 * reason.
 */
#include "nd6_common.h"

static void
unhex(const char *s, uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned int v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		b[i] = (uint8_t)v;
	}
}

/* scapy: Ether(dst=h7, src=p0)/IPv6(src='2001:db8::1',
 * dst='2001:db8::7', hlim=255)/ICMPv6ND_NA(R=1, S=1, O=1,
 * tgt='2001:db8::1')/ICMPv6NDOptDstLLAddr(lladdr=p0) */
static const char na_solicited[] =
	"0200000000070200000000fe86dd6000000000203aff20010db8000000000000"
	"00000000000120010db800000000000000000000000788000971e00000002001"
	"0db800000000000000000000000102010200000000fe";
/* the same with S=0 to ff02::1 (the answer to a DAD probe) */
static const char na_dad[] =
	"3333000000010200000000fe86dd6000000000203aff20010db8000000000000"
	"000000000001ff0200000000000000000000000000018800782da00000002001"
	"0db800000000000000000000000102010200000000fe";
/* scapy: Ether(dst='33:33:00:00:00:01', src=p0)/IPv6(src='fe80::ff:fe00:fe',
 * dst='ff02::1', hlim=255)/ICMPv6ND_RA(chlim=64, routerlifetime=1800,
 * prf=0)/ICMPv6NDOptSrcLLAddr(lladdr=p0)/ICMPv6NDOptMTU(mtu=1500)/
 * ICMPv6NDOptPrefixInfo(prefixlen=64, L=1, A=1, validlifetime=2592000,
 * preferredlifetime=604800, prefix='2001:db8::') */
static const char ra_p0[] =
	"3333000000010200000000fe86dd6000000000403afffe800000000000000000"
	"00fffe0000feff0200000000000000000000000000018600ecef400007080000"
	"00000000000001010200000000fe05010000000005dc030440c000278d000009"
	"3a800000000020010db8000000000000000000000000";

static void
assert_frame(const struct rte_mbuf *m, const char *hex)
{
	uint8_t want[256];
	size_t len = strlen(hex) / 2;

	unhex(hex, want, len);
	assert_non_null(m);

	assert_int_equal(m->pkt_len, len);
	assert_memory_equal(rte_pktmbuf_mtod(m, const uint8_t *), want, len);
}

static void
test_ns_answered(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_ip6_addr group;
	struct rte_ether_addr mac;

	nd6_solicited_node(&gl0, &group, NULL);
	nd_ns_in(f, 0, &h7, &group, &gl0, &h7_mac);
	assert_int_equal(f->tx.n[0], 1);
	assert_frame(f->tx.pkts[0][0], na_solicited);
	/* the sender learnt, stale (RFC 4861 7.2.3) */
	assert_int_equal(nd_state(f, &h7, 0, &mac), LSK_NEIGH_STALE);
	assert_memory_equal(&mac, &h7_mac, 6);
	assert_int_equal(f->worker->stats.icmp6.OutNeighborAdvertisements, 1);
	assert_int_equal(f->worker->stats.nd.Updates, 1);
	unit_tx_free(f);

	/* a DAD probe for our address: to all nodes, not solicited */
	nd_ns_in(f, 0, &unspec, &group, &gl0, NULL);
	assert_int_equal(f->tx.n[0], 1);
	assert_frame(f->tx.pkts[0][0], na_dad);
	unit_tx_free(f);

	/* not ours, or ours on the other port: no answer (no proxy) */
	nd_ns_in(f, 0, &h7, &group, &h7ll, &h7_mac);
	nd_ns_in(f, 1, &h7, &group, &gl0, &h7_mac);
	nd_ns_in(f, 1, &h7ll, &group, &ll0, &h7_mac);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(f->worker->stats.icmp6.InErrors, 0);
}

/* A unicast NS without the option: the NA waits for our own NS to the
 * sender, as Linux's does. */
static void
test_ns_without_option(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m;

	nd_ns_in(f, 0, &h7ll, &ll0, &ll0, NULL);
	assert_int_equal(f->tx.n[0], 1);
	assert_int_equal(nd_sent(f, 0, 135), 1);
	assert_int_equal(nd_state(f, &h7ll, 0, NULL), LSK_NEIGH_INCOMPLETE);
	unit_tx_free(f);
	nd_na_in(f, 0, &h7ll, &ll0, &h7ll, 0x60, &h7_mac);
	assert_int_equal(f->tx.n[0], 1);
	m = nd_sent_nth(f, 0, 136, 0);
	assert_non_null(m);
	assert_memory_equal(rte_pktmbuf_mtod(m, uint8_t *), &h7_mac, 6);
	assert_int_equal(nd_icmp(m)[4], 0xe0);	/* R, S, O */
	assert_memory_equal(nd_icmp(m) + 8, &ll0, 16);
	nd_assert_cksum(m);
}

/* RFC 4861 7.2.5 on a reachable entry. */
static void
test_na_rules(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_ether_addr mac;

	/* an NA for what we never asked: no entry made */
	nd_na_in(f, 0, &h7, &all_nodes6, &h7, 0x20, &h7_mac);
	assert_int_equal(nd_state(f, &h7, 0, NULL), 0);
	lsk_nd6_resolve(f->worker, &h7, 0, nd_datagram(1));
	/* incomplete without the option: nothing learnt */
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x60, NULL);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_INCOMPLETE);
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x60, &h7_mac);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_REACHABLE);
	/* another MAC without override: only doubted */
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x40, &h7_new);
	assert_int_equal(nd_state(f, &h7, 0, &mac), LSK_NEIGH_STALE);
	assert_memory_equal(&mac, &h7_mac, 6);
	/* solicited, the same MAC, no override: confirmed */
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x40, &h7_mac);
	assert_int_equal(nd_state(f, &h7, 0, NULL), LSK_NEIGH_REACHABLE);
	/* unsolicited override with another MAC: taken, stale */
	nd_na_in(f, 0, &h7, &all_nodes6, &h7, 0xa0, &h7_new);
	assert_int_equal(nd_state(f, &h7, 0, &mac), LSK_NEIGH_STALE);
	assert_memory_equal(&mac, &h7_new, 6);
	/* solicited override: reachable at it */
	nd_na_in(f, 0, &h7, &gl0, &h7, 0x60, &h7_mac);
	assert_int_equal(nd_state(f, &h7, 0, &mac), LSK_NEIGH_REACHABLE);
	assert_memory_equal(&mac, &h7_mac, 6);
}

static void
test_rs_ra(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_ip6_addr all_routers = { .a = { 0xff, 0x02,
		[15] = 2 } };
	struct lsk_list unreach = { 0 };
	uint8_t b[128], o[8], zero[8] = { 0 };

	/* `ra on` port 0: the first RA went as its link-local address
	 * passed DAD (the setup); asked for one now, as scapy's */
	assert_int_equal(f->worker->stats.icmp6.OutRouterAdvertisements, 1);
	lsk_nd6_ra_now(nd(f), 0);
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 0, 134), 1);
	assert_int_equal(nd_sent(f, 1, 134), 0);
	assert_frame(nd_sent_nth(f, 0, 134, 0), ra_p0);
	nd_assert_cksum(nd_sent_nth(f, 0, 134, 0));
	unit_tx_free(f);
	/* the next within 16 s (one of the first three), not now */
	nd_timer(f, &unreach);
	assert_int_equal(unit_tx_count(f), 0);
	assert_true(nd(f)->ra[0].next - rte_rdtsc() <=
		    16 * rte_get_tsc_hz());
	/* an RS asks for one, at most one each 3 s */
	nd_lla(o, 1, &h7_mac);
	nd_in(f, 0, b, nd_msg(b, &h7ll, &all_routers, 255, 133, 0, 0, NULL,
			      o, 8));
	assert_int_equal(nd_state(f, &h7ll, 0, NULL), LSK_NEIGH_STALE);
	nd_timer(f, &unreach);
	assert_int_equal(unit_tx_count(f), 0);
	nd(f)->ra[0].last -= 3 * rte_get_tsc_hz();
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 0, 134), 1);
	unit_tx_free(f);
	/* port 1 is no router: its RS left alone */
	nd_in(f, 1, b, nd_msg(b, &h7ll, &all_routers, 255, 133, 0, 0, NULL,
			      o, 8));
	nd_timer(f, &unreach);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(nd_state(f, &h7ll, 1, NULL), 0);
	assert_int_equal(f->worker->stats.icmp6.OutRouterAdvertisements, 3);
	/* others' RAs and redirects: counted, nothing done */
	nd_in(f, 0, b, nd_msg(b, &h7ll, &all_nodes6, 255, 134, 0, 0, NULL,
			      zero, 8));
	nd_in(f, 0, b, nd_msg(b, &h7ll, &ll0, 255, 137, 0, 0, &h7, gl1.a,
			      16));
	assert_int_equal(f->worker->stats.icmp6.InErrors, 0);
	assert_int_equal(unit_tx_count(f), 0);
}

/* Each malformed message: counted icmp6.InErrors, nothing sent or
 * learnt. */
static void
test_malformed(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_ip6_addr group, mgroup = all_nodes6;
	uint8_t b[160], o[16], zero_opt[8] = { 1, 0 };
	uint8_t long_opt[8] = { 1, 2 };
	unsigned int n = 0;
	size_t len;

	nd6_solicited_node(&gl0, &group, NULL);
	nd_lla(o, 1, &h7_mac);
#define BAD(port, bytes_len) do {					\
		nd_in(f, port, b, bytes_len);				\
		assert_int_equal(f->worker->stats.icmp6.InErrors, ++n);	\
		assert_int_equal(unit_tx_count(f), 0);			\
	} while (0)
	/* NS: hop limit, code, short, multicast target, options of length
	 * 0 or past the end, DAD with an option or not to the group */
	BAD(0, nd_msg(b, &h7, &group, 254, 135, 0, 0, &gl0, o, 8));
	BAD(0, nd_msg(b, &h7, &group, 255, 135, 1, 0, &gl0, o, 8));
	BAD(0, nd_msg(b, &h7, &group, 255, 135, 0, 0, NULL, o, 8));
	BAD(0, nd_msg(b, &h7, &group, 255, 135, 0, 0, &mgroup, o, 8));
	BAD(0, nd_msg(b, &h7, &group, 255, 135, 0, 0, &gl0, zero_opt, 8));
	BAD(0, nd_msg(b, &h7, &group, 255, 135, 0, 0, &gl0, long_opt, 8));
	BAD(0, nd_msg(b, &unspec, &group, 255, 135, 0, 0, &gl0, o, 8));
	BAD(0, nd_msg(b, &unspec, &gl0, 255, 135, 0, 0, &gl0, NULL, 0));
	/* NA: hop limit, short, multicast target, solicited to a group */
	BAD(0, nd_msg(b, &h7, &gl0, 64, 136, 0, 0x60000000, &h7, NULL, 0));
	BAD(0, nd_msg(b, &h7, &gl0, 255, 136, 0, 0x60000000, NULL, NULL, 0));
	BAD(0, nd_msg(b, &h7, &gl0, 255, 136, 0, 0, &mgroup, NULL, 0));
	BAD(0, nd_msg(b, &h7, &all_nodes6, 255, 136, 0, 0x60000000, &h7,
		      NULL, 0));
	/* RS from :: with an option; RA not from a link-local address,
	 * short; a redirect short */
	BAD(0, nd_msg(b, &unspec, &all_nodes6, 255, 133, 0, 0, NULL, o, 8));
	BAD(0, nd_msg(b, &h7, &all_nodes6, 255, 134, 0, 0, NULL, o, 16));
	BAD(0, nd_msg(b, &h7ll, &all_nodes6, 255, 134, 0, 0, NULL, NULL, 0));
	BAD(0, nd_msg(b, &h7ll, &ll0, 255, 137, 0, 0, &h7, NULL, 0));
	/* a payload length past the frame */
	len = nd_msg(b, &h7, &group, 255, 135, 0, 0, &gl0, o, 8);
	put16(b + 4, 64);
	BAD(0, len);
	/* behind an extension header */
	len = nd_msg(b, &h7, &group, 255, 135, 0, 0, &gl0, o, 8);
	b[6] = 0;
	BAD(0, len);
#undef BAD
	assert_int_equal(nd_state(f, &h7, 0, NULL), 0);
	assert_int_equal(f->worker->stats.nd.Updates, 0);
}

/* `ra off` where RAs went: one final RA, as the others but for its
 * router lifetime 0 (RFC 4861 6.2.5), so that hosts drop us as their
 * default router at once; then none. Where none went, none. */
static void
test_ra_off_final(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_list unreach = { 0 };
	const struct rte_mbuf *m;
	uint8_t want[256];
	size_t len = strlen(ra_p0) / 2;

	assert_int_equal(f->worker->stats.icmp6.OutRouterAdvertisements, 1);
	nd_cmd(f, "port 0 ra off");
	nd_cmd(f, "port 1 ra off");
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 0, 134), 1);
	assert_int_equal(nd_sent(f, 1, 134), 0);
	m = nd_sent_nth(f, 0, 134, 0);
	unhex(ra_p0, want, len);
	assert_int_equal(m->pkt_len, len);
	/* ra_p0 but for the lifetime (and so the checksum) */
	assert_memory_equal(rte_pktmbuf_mtod(m, const uint8_t *), want, 56);
	assert_memory_equal(rte_pktmbuf_mtod_offset(m, const uint8_t *, 58),
			    want + 58, 2);
	assert_int_equal(rte_pktmbuf_mtod_offset(m, const uint8_t *, 60)[0],
			 0);
	assert_int_equal(rte_pktmbuf_mtod_offset(m, const uint8_t *, 61)[0],
			 0);
	assert_memory_equal(rte_pktmbuf_mtod_offset(m, const uint8_t *, 62),
			    want + 62, len - 62);
	nd_assert_cksum(m);
	assert_int_equal(f->worker->stats.icmp6.OutRouterAdvertisements, 2);
	unit_tx_free(f);
	/* the one final RA only */
	lsk_nd6_ra_now(nd(f), 0);
	nd_timer(f, &unreach);
	nd(f)->ra[0].next = 0;
	nd_timer(f, &unreach);
	assert_int_equal(unit_tx_count(f), 0);
	/* on again: advertised at once; off: final again */
	nd_cmd(f, "port 0 ra on");
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 0, 134), 1);
	unit_tx_free(f);
	nd_cmd(f, "port 0 ra off");
	nd_timer(f, &unreach);
	assert_int_equal(nd_sent(f, 0, 134), 1);
	assert_int_equal(rte_pktmbuf_mtod_offset(nd_sent_nth(f, 0, 134, 0),
						 const uint8_t *, 60)[0], 0);
	assert_int_equal(f->worker->stats.icmp6.OutRouterAdvertisements, 4);
	unit_tx_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ns_answered,
						nd_setup_router, nd_teardown),
		cmocka_unit_test_setup_teardown(test_ns_without_option,
						nd_setup_router, nd_teardown),
		cmocka_unit_test_setup_teardown(test_na_rules,
						nd_setup_router, nd_teardown),
		cmocka_unit_test_setup_teardown(test_rs_ra,
						nd_setup_router, nd_teardown),
		cmocka_unit_test_setup_teardown(test_malformed,
						nd_setup_router, nd_teardown),
		cmocka_unit_test_setup_teardown(test_ra_off_final,
						nd_setup_router, nd_teardown),
	};

	return cmocka_run_group_tests_name("nd6_input", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
